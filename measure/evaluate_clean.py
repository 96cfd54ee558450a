"""Measure the clean stage (``make eval``): CER/WER before and after cleaning, and right tokens made wrong.

Sets:
* the seed witnesses that have gold in ``$SHARED_DIR/gold`` (fr-000, en-003, en-003m), with all resources;
* the ICDAR 2017 FR and EN periodical dev sets (``$SHARED_DIR/ocr-data/icdar2017-fr-en-sentence-pairs``),
  with hyphen joining OFF and general resources only (no domain lexicon, no corpus counts).

Beside our cleaner, the same texts are run through symspellpy (lookup of every token over a wordfreq
lexicon) and pyspellchecker (correction of every unknown token); for the OCR sets, the ceiling of word
repair (:func:`word_ceiling`: the gold's own words put in wherever a word corrector could).  The metric is the gold's ``cer.py``
(its ``normalise`` is imported); micro CER = sum of Levenshtein distances / sum of gold lengths.
Writes ``outputs/eval/cleaning.json`` (atomic).  ``SHARED_DIR`` defaults to ``../shared`` beside the project.
``--sets PATH[:LANG] ...`` scores other OCR sets the same way as the ICDAR 2017 ones (a TSV of sentence
pairs, or a folder of ICDAR 2019 files) and only prints the table.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import sys
import tempfile
import time
from typing import Any
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import regex
from rapidfuzz.distance import Levenshtein

from pipeline.clean import DEFAULT_CORPUS, PROJECT_ROOT, CleanConfig, clean, general_resources, load_resources
from pipeline.clean.resources import CleanResources
from pipeline.model import Witness, WitnessText
from pipeline.textnorm import common_affixes

TOKEN = regex.compile(r"[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*")


def shared_dir() -> Path:
    return Path(os.environ.get("SHARED_DIR", PROJECT_ROOT.parent / "shared")).resolve()


@lru_cache(maxsize=1)
def cer_module():
    path = shared_dir() / "gold" / "cer.py"
    spec = importlib.util.spec_from_file_location("gold_cer", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def normalise(s: str) -> str:
    return cer_module().normalise(s)


def read_icdar(path: Path) -> list[tuple[str, str]]:
    csv.field_size_limit(10**8)
    with open(path, encoding="utf-8", newline="") as f:
        r = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(r)
        return [(row[1], row[2]) for row in r if len(row) >= 3]


ICDAR2019_LINES = ("[OCR_toInput] ", "[OCR_aligned] ", "[ GS_aligned] ")


def read_icdar2019(path: Path) -> tuple[str, str]:
    """One file of the ICDAR 2019 post-OCR format: (OCR text, gold text).  The aligned lines pad with
    ``@``; ``#`` in the gold marks characters without gold, which the official evaluation ignores: they
    are cut from both texts here."""
    lines = {ln[:14]: ln[14:] for ln in path.read_text(encoding="utf-8").splitlines() if ln[:14] in ICDAR2019_LINES}
    if len(lines) != 3 or len(lines[ICDAR2019_LINES[1]]) != len(lines[ICDAR2019_LINES[2]]):
        raise ValueError(
            f"{path}: not an ICDAR 2019 post-OCR file (want the lines {', '.join(repr(x.strip()) for x in ICDAR2019_LINES)}, the two aligned ones of equal length)"
        )
    ocr_al, gold_al = lines[ICDAR2019_LINES[1]], lines[ICDAR2019_LINES[2]]
    ocr = "".join(o for o, g in zip(ocr_al, gold_al) if g != "#" and o != "@")
    gold = "".join(g for g in gold_al if g not in "@#")
    return ocr, gold


LANG_NAMES = {"fr": "fr", "fre": "fr", "fra": "fr", "french": "fr", "en": "en", "eng": "en", "english": "en"}


def read_ocr_set(spec: str) -> tuple[str, str, list[tuple[str, str]]]:
    """``PATH[:LANG]`` -> (name, language, (OCR, gold) pairs): a TSV of ``id, input, output`` (ICDAR 2017
    sentence pairs) or a folder of ICDAR 2019 files (``*.txt``, searched recursively).  The language is
    LANG, or read from the nearest part of the path that names one (fr, fre, french, en, eng, english ...)."""
    path_s, _, lang = spec.rpartition(":") if regex.fullmatch(r".+:[a-z]+", spec) else (spec, "", "")
    path = Path(path_s)
    for part in reversed(path.resolve().parts) if not lang else ():
        found = {LANG_NAMES[w] for w in regex.split(r"[^a-z]+", part.lower()) if w in LANG_NAMES}
        if len(found) == 1:
            lang = found.pop()  # the nearest part of the path that names one language
            break
    if not lang:
        raise ValueError(f"{spec}: give the set's language, as PATH:fr or PATH:en")
    if lang not in ("fr", "en"):
        raise ValueError(f"{spec}: language {lang!r}: want fr or en")
    if path.is_file():
        pairs = read_icdar(path)
    elif path.is_dir():
        pairs = [read_icdar2019(f) for f in sorted(path.rglob("*.txt"))]
    else:
        raise ValueError(f"{path}: no such file or folder")
    if not pairs:
        raise ValueError(f"{path}: no OCR/gold pairs in it")
    return path.name, lang, pairs


def error_stats(pairs: list[tuple[str, str, str]]) -> dict:
    """pairs = (ocr, candidate, gold).  Micro CER/WER, and right tokens (ocr token == gold token) made wrong."""
    ed_b = ed_a = gl = wd_b = wd_a = wl = 0
    right = made_wrong = 0
    for ocr, cand, gold in pairs:
        o, c, g = normalise(ocr), normalise(cand), normalise(gold)
        ed_b += Levenshtein.distance(o, g)
        ed_a += Levenshtein.distance(c, g)
        gl += len(g)
        ot, ct, gt = o.split(), c.split(), g.split()
        wd_b += Levenshtein.distance(ot, gt)
        wd_a += Levenshtein.distance(ct, gt)
        wl += len(gt)
        # ocr tokens equal to gold: are they still equal after cleaning?
        right_idx: set[int] = set()
        for op in Levenshtein.opcodes(ot, gt):
            if op.tag == "equal":
                right_idx.update(range(op.src_start, op.src_end))
        kept: set[int] = set()
        for op in Levenshtein.opcodes(ot, ct):
            if op.tag == "equal":
                kept.update(range(op.src_start, op.src_end))
        right += len(right_idx)
        made_wrong += len(right_idx - kept)
    return {
        "gold_chars": gl,
        "cer_before": ed_b / max(1, gl),
        "cer_after": ed_a / max(1, gl),
        "cer_rel_reduction": (ed_b - ed_a) / max(1, ed_b),
        "wer_before": wd_b / max(1, wl),
        "wer_after": wd_a / max(1, wl),
        "right_tokens": right,
        "right_made_wrong": made_wrong,
        "right_made_wrong_rate": made_wrong / max(1, right),
    }


UNMATCHED_MIN_CHARS = 4  # an OCR run this long that the gold has nothing for is text the gold leaves out


def unmatched_ocr_share(pairs: list[tuple[str, str]]) -> float:
    """Of the raw OCR's edits against the gold (pairs = (ocr, gold), normalised as scored), the share that
    are OCR runs of ``UNMATCHED_MIN_CHARS`` characters or more with nothing in the gold (a character
    alignment's deletions): text the gold leaves out (the ICDAR 2017 TSVs drop the gold's unreadable parts
    from the gold side only), which no cleaning can reach."""
    total = unmatched = 0
    for ocr, gold in pairs:
        o, g = normalise(ocr), normalise(gold)
        total += Levenshtein.distance(o, g)
        for op in Levenshtein.opcodes(o, g):
            if op.tag == "delete" and op.src_end - op.src_start >= UNMATCHED_MIN_CHARS:
                unmatched += op.src_end - op.src_start
    return unmatched / max(1, total)


def near_miss_alignment(ot: list[str], gt: list[str], one_block: int = 0):
    """``(i, j, equal)`` for the OCR tokens ``ot[i]`` aligned one to one with a gold token ``gt[j]``
    (:func:`Levenshtein.opcodes` over the token lists): the ``equal`` runs, and the tokens of same-length
    ``replace`` runs that are a near miss of their gold token (at most max(1, len // 3) edits).  ``one_block``
    > 0 (learning confusions only, never the ceiling): also those whose letters differ in one contiguous block
    of at most that many characters a side, the rest equal (tire / the, ami / and)."""
    for op in Levenshtein.opcodes(ot, gt):
        if op.tag == "equal":
            for k in range(op.src_end - op.src_start):
                yield op.src_start + k, op.dest_start + k, True
        elif op.tag == "replace" and op.src_end - op.src_start == op.dest_end - op.dest_start:
            for k in range(op.src_end - op.src_start):
                a, b = ot[op.src_start + k], gt[op.dest_start + k]
                if Levenshtein.distance(a, b) <= max(1, len(b) // 3) or (one_block and _one_block(a, b, one_block)):
                    yield op.src_start + k, op.dest_start + k, False


def _one_block(a: str, b: str, size: int) -> bool:
    """``a`` and ``b`` are letters that differ in one contiguous block of at most ``size`` characters a side,
    two or more of them printed (a misread glyph group: ir / h, mi / nd; a common prefix or suffix around it)."""
    if not (a.isalpha() and b.isalpha()) or a == b:
        return False
    p, q = common_affixes(a, b)
    return p + q >= 1 and 2 <= len(a) - p - q <= size and len(b) - p - q <= size


def word_ceiling(ocr: str, gold: str) -> str:
    """EVALUATION ONLY: what a perfect word-by-word corrector would print.  The OCR tokens that align one to
    one with a gold token and are a near miss of it (:func:`near_miss_alignment`) become the gold token; the
    rest stays as printed: text the gold leaves out, words split or merged, far misreadings.  Its CER is
    the ceiling of word repair on a set (the part of the error a word corrector can reach)."""
    o, g = normalise(ocr), normalise(gold)
    ot, gt = o.split(), g.split()
    out = list(ot)
    for i, j, equal in near_miss_alignment(ot, gt):
        if not equal:
            out[i] = gt[j]
    return " ".join(out)


# ---- baselines --------------------------------------------------------------------------------
@lru_cache(maxsize=2)
def symspell_for(lang: str, top_n: int = 100_000):
    import wordfreq
    from symspellpy import SymSpell

    sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
    for w in wordfreq.top_n_list(lang, top_n):
        if w.isalpha():
            sym.create_dictionary_entry(w, max(1, int(wordfreq.word_frequency(w, lang) * 1e9)))
    return sym


def _case(model: str, w: str) -> str:
    if model.isupper() and len(model) > 1:
        return w.upper()
    if model[:1].isupper():
        return w[:1].upper() + w[1:]
    return w


def symspell_text(s: str, lang: str) -> str:
    from symspellpy import Verbosity

    sym = symspell_for(lang)

    def fix(m):
        t = m.group()
        r = sym.lookup(t.lower(), Verbosity.TOP, max_edit_distance=2, include_unknown=True)
        return _case(t, r[0].term) if r else t

    return TOKEN.sub(fix, s)


@lru_cache(maxsize=4)
def pyspell_for(lang: str, distance: int = 2):
    from spellchecker import SpellChecker

    return SpellChecker(language=lang, distance=distance)


def pyspell_text(s: str, lang: str, cache: dict, distance: int = 2) -> str:
    sp = pyspell_for(lang, distance)

    def fix(m):
        t = m.group()
        lt = t.lower()
        if lt not in cache:
            cache[lt] = lt if lt in sp else (sp.correction(lt) if len(lt) <= 15 else None) or lt
        return _case(t, cache[lt])

    return TOKEN.sub(fix, s)


# ---- seeds ------------------------------------------------------------------------------------
DEV_GOLD_DIR = PROJECT_ROOT / "tests" / "fixtures" / "clean"  # reading texts of seeds WE read by hand (not shared gold)


def seed_sets(corpus: Path, gold_dir: Path | None = None, tag: str = "") -> list[tuple[str, str, str, str]]:
    """(set name + ``tag``, lang, raw text, gold text) for the seed witnesses that have a gold reading text in
    ``gold_dir`` (default: the shared gold)."""
    gold_dir = gold_dir or shared_dir() / "gold"
    out = []
    for g in sorted(gold_dir.glob("*.gold.txt")):
        stem = g.name.split(".")[0]
        raws = list((corpus / "raw").glob(stem + ".txt"))
        if not raws:
            continue
        raw = raws[0].read_text(encoding="utf-8")
        gold = g.read_text(encoding="utf-8")
        lang = "fr" if regex.search(r"\b(les|des|une|qui)\b", gold) else "en"
        marker = "AI-modernized reading of the original text"
        num = stem.split("_")[0]
        if marker in raw:
            a, _, b = raw.partition(marker)
            out.append((f"{lang}-{num}{tag}", lang, a, gold))
            out.append((f"{lang}-{num}m{tag}", lang, b, gold))
        else:
            out.append((f"{lang}-{num}{tag}", lang, raw, gold))
    return out


def build_reading_text(corpus: Path, name: str, lang: str, raw: str, cleaned) -> str:
    """The reading text the build writes for a seed set (``outputs/text/<witness>.txt``): the cleaned text
    segmented into laws, each law's number as the segmenter read it (``io».`` -> ``10.``).  The corpus's own
    witness entry gives the game and kind; a set the corpus does not list is segmented as an Écarté text."""
    from pipeline.build import WitnessResult, reading_text
    from pipeline.corpus import load_witnesses
    from pipeline.segment import segment

    by_id = {w.id: w for w in load_witnesses(corpus)}
    w = by_id.get(name.split("(")[0]) or Witness(id=name, file="-", game="ecarte", lang=lang, kind="ocr", title=name)
    w = replace(w, id=cleaned.witness_id)
    return reading_text(WitnessResult(w, cleaned, segment(cleaned, w)))


ICDAR_DEV_SETS = {"en": "ICDAR2017_eng_periodical_dev.tsv", "fr": "ICDAR2017_fre_periodical_dev.tsv"}


def icdar_documents(lang: str, quick: bool = False) -> list[tuple[str, str]]:
    """The ICDAR 2017 periodical dev pairs of ``lang`` as (OCR, gold) documents of ``DOC_LINES`` sentences
    (``quick``: the first 400 sentences), the documents the held-out measures fold."""
    data = read_icdar(shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs" / ICDAR_DEV_SETS[lang])
    if quick:
        data = data[:400]
    return [
        (
            "\n".join(o.replace("\n", " ") for o, _ in data[i : i + DOC_LINES]),
            "\n".join(g.replace("\n", " ") for _, g in data[i : i + DOC_LINES]),
        )
        for i in range(0, len(data), DOC_LINES)
    ]


def clean_outside(
    name: str, lang: str, texts: list[str], cfg: CleanConfig, res: CleanResources | None = None
) -> tuple[list[str], float, int, int]:
    """Our cleaner on texts from outside the corpus, as an OCR set is scored: hyphen joining off (such gold
    keeps line-break hyphens), general resources only (``res``: these instead, e.g. another channel).
    (cleaned texts, seconds, corrections, flags)"""
    icfg = replace(cfg, join_hyphens=False)
    res = res or general_resources(lang)
    w = Witness(id="ocr", file="-", game="ecarte", lang=lang, kind="ocr", title=name)
    t0 = time.perf_counter()
    outs, ncorr, nflag = [], 0, 0
    for ocr in texts:
        cl = clean(WitnessText(w, ocr), res, icfg)
        outs.append(cl.text)
        ncorr += len(cl.corrections)
        nflag += len(cl.flags)
    return outs, time.perf_counter() - t0, ncorr, nflag


def score_ocr_set(
    name: str, lang: str, data: list[tuple[str, str]], cfg: CleanConfig = CleanConfig()
) -> list[tuple[Any, ...]]:
    """Rows (set, method, error_stats, seconds, corrections, flags) for one OCR set from outside the corpus:
    our cleaner (:func:`clean_outside`), then symspellpy and pyspellchecker (distance 1) on the same texts."""
    outs, dt, ncorr, nflag = clean_outside(name, lang, [o for o, _ in data], cfg)
    rows: list[tuple[Any, ...]] = [
        (name, "clean", error_stats([(o, c, g) for (o, g), c in zip(data, outs)]), dt, ncorr, nflag)
    ]
    rows.append((name, "symspellpy", error_stats([(o, symspell_text(o, lang), g) for o, g in data]), None, None, None))
    cache: dict = {}
    t0 = time.perf_counter()
    rows.append(
        (
            name,
            "pyspellchecker(d=1)",
            error_stats([(o, pyspell_text(o, lang, cache, 1), g) for o, g in data]),
            time.perf_counter() - t0,
            None,
            None,
        )
    )
    rows.append(
        (name, "ceiling(word-oracle)", error_stats([(o, word_ceiling(o, g), g) for o, g in data]), None, None, None)
    )
    print(f"... {name} done", file=sys.stderr, flush=True)
    return rows


DOC_LINES = 20  # sentences per document of the whole-document rows


def score_documents(
    name: str, lang: str, data: list[tuple[str, str]], cfg: CleanConfig = CleanConfig(), size: int = DOC_LINES
) -> tuple:
    """The row (set, method, error_stats, seconds, corrections, flags) of our cleaner on the sentences of a
    set run together ``size`` at a time, one per line, as a page would come (an ICDAR 2019 file is one
    document): what the witness-level passes (running heads, the witness's own words) do on such text."""
    docs = [
        (
            "\n".join(o.replace("\n", " ") for o, _ in data[i : i + size]),
            "\n".join(g.replace("\n", " ") for _, g in data[i : i + size]),
        )
        for i in range(0, len(data), size)
    ]
    outs, dt, ncorr, nflag = clean_outside(name, lang, [o for o, _ in docs], cfg)
    return (
        name,
        f"clean({size}-line docs)",
        error_stats([(o, c, g) for (o, g), c in zip(docs, outs)]),
        dt,
        ncorr,
        nflag,
    )


def print_rows(rows: list[tuple]) -> None:
    wn = max([22] + [len(r[0]) for r in rows])  # (a long set name widens its column instead of shifting the others)
    hdr = f"{'set':{wn}} {'method':20} {'CER before':>10} {'CER after':>10} {'rel.red':>8} {'WER bef':>8} {'WER aft':>8} {'right->wrong':>13} {'rate':>7}"
    print(hdr)
    print("-" * len(hdr))
    for name, method, st, dt, nc, nf in rows:
        print(
            f"{name:{wn}} {method:20} {st['cer_before'] * 100:9.2f}% {st['cer_after'] * 100:9.2f}% {st['cer_rel_reduction'] * 100:7.1f}% "
            f"{st['wer_before'] * 100:7.2f}% {st['wer_after'] * 100:7.2f}% {st['right_made_wrong']:6d}/{st['right_tokens']:<6d} {st['right_made_wrong_rate'] * 100:6.2f}%"
        )


def junk_rows(corpus: Path, cfg: CleanConfig) -> list[dict]:
    """Per witness of ``corpus``: the junk tokens left in its reading text (:func:`pipeline.junk.junk_tokens`:
    debris or digits inside a word, non-words of 3+ letters) and how many no Flag covers (target 0)."""
    from pipeline import junk
    from pipeline.clean import lm
    from pipeline.corpus import load_witnesses, witness_text
    from pipeline.model import offset_maps

    out = []
    for w in load_witnesses(corpus):
        res = load_resources(corpus, w.lang)
        cl = clean(witness_text(corpus, w), res, cfg)
        rep = res.repairer(cfg)
        voice = lm.voice_for(cl.text, rep, cfg.lm)
        lex = junk.known_for(rep)
        _, r2c = offset_maps(cl.raw, cl.corrections)
        flagged = [(r2c[f.start], r2c[f.start] + len(f.text)) for f in cl.flags]
        found = junk.junk_tokens(cl.text, lambda x: lex(x) or voice.known(x))
        left = junk.unflagged(found, flagged)
        out.append(
            {
                "witness": w.id,
                "junk_tokens": len(found),
                "flagged": len(found) - len(left),
                "unflagged": len(left),
                "unflagged_examples": [t for _, _, t, _ in left[:10]],
                "flags": len(cl.flags),
                "flag_rows_unique": len({(f.start, f.end) for f in cl.flags}) == len(cl.flags),
                "flags_on_changed_words": sum(
                    1 for f in cl.flags if any(c.start < f.end and c.end > f.start for c in cl.corrections)
                ),
            }
        )
    return out


def run(out_path: Path | None = None, quick: bool = False) -> dict:
    corpus = DEFAULT_CORPUS
    results: dict[str, Any] = {"sets": [], "config": {}, "notes": []}
    cfg = CleanConfig()
    rows: list[tuple[Any, ...]] = []
    for name, lang, raw, gold in seed_sets(corpus) + seed_sets(corpus, DEV_GOLD_DIR, "(dev gold)"):
        res = load_resources(corpus, lang)
        w = Witness(id=name, file="-", game="ecarte", lang=lang, kind="ocr", title=name)
        t0 = time.perf_counter()
        cl = clean(WitnessText(w, raw), res, cfg)
        dt = time.perf_counter() - t0
        pairs = [(raw, cl.text, gold)]
        rows.append((name, "clean", error_stats(pairs), dt, len(cl.corrections), len(cl.flags)))
        reading = build_reading_text(corpus, name, lang, raw, cl)
        rows.append((name, "reading text (build)", error_stats([(raw, reading, gold)]), dt, None, None))
        rows.append((name, "symspellpy", error_stats([(raw, symspell_text(raw, lang), gold)]), None, None, None))
        rows.append((name, "pyspellchecker", error_stats([(raw, pyspell_text(raw, lang, {}), gold)]), None, None, None))
    icdar = shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs"
    unmatched = {}
    for lang, fname in (("fr", "ICDAR2017_fre_periodical_dev.tsv"), ("en", "ICDAR2017_eng_periodical_dev.tsv")):
        data = read_icdar(icdar / fname)
        rows += score_ocr_set(f"icdar2017-{lang}-dev", lang, data[:300] if quick else data, cfg)
        rows.append(score_documents(f"icdar2017-{lang}-dev", lang, data[:300] if quick else data, cfg))
        unmatched[f"icdar2017-{lang}-dev"] = unmatched_ocr_share(data[:300] if quick else data)
    print_rows(rows)
    for name, share in unmatched.items():
        print(
            f"{name}: {share * 100:.1f} % of the raw OCR's edits are OCR runs of {UNMATCHED_MIN_CHARS}+ characters "
            "with nothing in the gold (text the gold leaves out: no cleaning reaches it)"
        )
    results["unmatched_ocr_share"] = unmatched
    print(
        "note: the ICDAR rows use the LM pass's fold-chosen defaults and the channel's confusions learnt from all "
        "the dev documents (corpus/lexicon/confusions_learnt.tsv): NOT held-out; held-out: python -m measure.evaluate_lm"
    )
    results["junk"] = junk_rows(corpus, cfg)
    print(
        f"\n{'witness':10} {'junk tokens':>11} {'flagged':>8} {'unflagged':>9}  flags (unique rows, on changed words)"
    )
    for r in results["junk"]:
        print(
            f"{r['witness']:10} {r['junk_tokens']:11d} {r['flagged']:8d} {r['unflagged']:9d}  {r['flags']} "
            f"({'unique' if r['flag_rows_unique'] else 'REPEATED'}, {r['flags_on_changed_words']})"
            + (f"  left: {', '.join(r['unflagged_examples'])}" if r["unflagged"] else "")
        )
    for name, method, st, dt, nc, nf in rows:
        results["sets"].append({"set": name, "method": method, **st, "seconds": dt, "corrections": nc, "flags": nf})
    results["notes"] = [
        "ICDAR sets: join_hyphens=False (the gold keeps line-break hyphens), general resources only (no domain lexicon).",
        "reading text (build): the cleaned text segmented into laws, one per paragraph, each law's number as the "
        "segmenter read it (io». -> 10.), as the build writes outputs/text/<witness>.txt.",
        "pyspellchecker runs with edit distance 1 on the ICDAR sets (distance 2 takes tens of minutes there), 2 on the seeds.",
        "right->wrong: OCR tokens equal to the gold token that the method changed.",
        "(dev gold) rows: a seed without shared gold scored against a reading text we wrote by hand "
        "(tests/fixtures/clean, conventions in its README): a development measure, not shared gold.",
        "ceiling(word-oracle): not a method but a measure of the set: every OCR token aligned one to one with a "
        "near-miss gold token (at most max(1, len // 3) edits) replaced by it, the rest left as printed "
        "(text the gold leaves out, split/merged words, far misreadings); what a perfect word corrector reaches.",
        f"clean({DOC_LINES}-line docs): the ICDAR sentences cleaned {DOC_LINES} at a time, one per line, as one document "
        "(as an ICDAR 2019 file is), scored over the documents.",
        "The lm-words pass's settings (CleanConfig.lm) were learnt on ICDAR 2017 dev folds by document "
        "(measure.evaluate_lm): the ICDAR rows here use those defaults and are NOT held-out figures; the held-out "
        "figures (each fold scored with the settings the other folds chose) are in outputs/eval/lm.json.",
        "The channel's learnt confusions (corpus/lexicon/confusions_learnt.tsv, measure.learn_confusions) were learnt "
        "from ALL the ICDAR 2017 dev documents: the ICDAR rows here use that table and are NOT held-out figures; "
        "measure.evaluate_lm learns the table on the training folds and scores the fold held out.",
        "junk: per witness, tokens of the reading text mixing letters with ^ | * { } < > % $ \\ ; or brackets, digits "
        "inside a word, or non-words of 3+ letters (pipeline.junk), and how many no flag covers (target 0).",
    ]
    from dataclasses import asdict

    results["config"] = asdict(cfg)
    out_path = out_path or PROJECT_ROOT / "outputs" / "eval" / "cleaning.json"
    write_json_atomic(out_path, results)
    return results


def write_json_atomic(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m measure.evaluate_clean", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the first 300 sentences of each ICDAR 2017 set only")
    p.add_argument(
        "--sets",
        nargs="+",
        metavar="PATH[:LANG]",
        help="score these OCR sets instead (a TSV of id, input, output, or a folder of ICDAR 2019 files), "
        "the same way as the ICDAR 2017 sets; prints the table, writes nothing",
    )
    args = p.parse_args(argv)
    if args.sets:
        try:
            sets = [read_ocr_set(spec) for spec in args.sets]
        except (ValueError, OSError, UnicodeDecodeError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print_rows([row for name, lang, pairs in sets for row in score_ocr_set(name, lang, pairs)])
        return 0
    run(quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
