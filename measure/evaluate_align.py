"""Evaluate the aligner against the alignment gold (``make eval``).

Gold files (``$SHARED_DIR/gold/<game>_<witnessA>_<witnessB>.csv``, comment lines ``#``; columns: law of A,
law of B, strength) say which laws state the same provision: ``sure`` links must be found, ``possible``
links are neither rewarded nor penalised.  Precision/recall/F1 are computed on sure links: a predicted
link between the two witnesses is a true positive if sure, ignored if possible, a false positive
otherwise.  Witness tokens in gold file names: ``fr000`` -> ``fr-000``; ``modern`` -> the modernized
reading of the witness named before it (``en003`` + ``modern`` -> ``en-003m``).

Input laws: ``outputs/laws.csv`` when it exists (``--laws pipeline``, the default when present);
otherwise laws split from the gold reading texts (``--laws gold``) or from the raw seeds
(``--laws raw``); the splitting functions below are for development and tests only.

Development golds written by us (``tests/fixtures/align/*.csv``, same format; NOT shared gold) are reported
separately: the French whist rules fr-001 against Foster's laws en-002, and three small codes written for the purpose
(``tests/fixtures/align/laws.csv``: a French Écarté code fr-901 against en-003, an English whist code en-901 against
fr-001, a French whist code fr-903 against en-002) that measure generalisation; and pairs of two codes in one language
(whist en-901 ~ en-002, fr-903 ~ fr-001, Écarté fr-901 ~ fr-000), derived by composing those golds through the third
witness and then read by hand.  Each development gold is scored on the base laws plus the fixture witnesses it
names; a seed witness missing from the base laws (fr-001, en-002 when laws come from the gold texts) is cleaned and
segmented on the fly.

Usage: ``python -m measure.evaluate_align [--laws pipeline|gold|raw] [--laws-csv PATH] [--json PATH] [--set FIELD=VALUE ...]``
(``--set`` overrides an ``AlignConfig`` field for this run, value as JSON: ``--set min_shared_concepts=1``,
``--set 'type_weights=[["adj",0.7],["prep",0.5]]'``; the JSON is not written unless ``--json`` is given).
Shared dir: ``../shared`` from the project root, or ``$SHARED_DIR``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import re
import sys
import tempfile
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Sequence

from pipeline.align import AlignConfig, align, load_resources
from pipeline.model import Law, Link, Witness
from .baseline_align import tfidf_links

ROOT = Path(__file__).resolve().parent.parent
DEV_GOLD_DIR = ROOT / "tests" / "fixtures" / "align"
FIRST_CONTACT_DIR = ROOT / "tests" / "fixtures" / "firstcontact"  # codes met after the reading was written: their gold
COMPOSED_DIR = ROOT / "tests" / "fixtures" / "composed"  # codes written here for a first contact (not real codes)
#   (links and the event and outcome of each law) written before anything ran on them; record.json keeps the figure
#   of that first run, the current figure is printed beside it
MODERN_MARKER = "AI-modernized reading of the original text"


def shared_dir() -> Path:
    return Path(os.environ.get("SHARED_DIR") or (ROOT.parent / "shared")).resolve()


def load_witness_meta(corpus_dir: Path) -> dict[str, Witness]:
    with (corpus_dir / "witnesses.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return {w["id"]: Witness(**w) for w in data.get("witness", [])}


# ----------------------------------------------------------------------------------------------
# development law sources (gold texts and raw seeds split naively; the real ones come from pipeline.segment)


def make_law(
    game: str, wit: Witness, n: int | None, order: int, text: str, printed: str = "", kind: str = "law"
) -> Law:
    lid = f"{game}.{wit.id}.law-{n}" if n is not None else f"{game}.{wit.id}.rule-{order + 1}"
    return Law(
        id=lid,
        witness_id=wit.id,
        game=game,
        lang=wit.lang,
        kind=kind,
        number=n,
        printed=printed,
        label=str(n) if n is not None else f"rule {order + 1}",
        order=order,
        start=0,
        end=len(text),
        text=" ".join(text.split()),
    )


def split_numbered_run(text: str, first: int = 1) -> list[tuple[int, str]]:
    """Split a run-on paragraph at ``N. `` markers found in sequence (first, first+1, ...)."""
    marks = []
    pos, n = 0, first
    while True:
        m = re.compile(rf"(?:(?<=\s)|(?<=^)|(?<=[-,.;:—]))\s*{n}\.\s").search(text, pos)
        if not m:
            break
        marks.append((n, m.start(), m.end()))
        pos, n = m.end(), n + 1
    out = []
    for k, (num, _s, e) in enumerate(marks):
        end = marks[k + 1][1] if k + 1 < len(marks) else len(text)
        out.append((num, text[e:end].strip()))
    return out


def gold_laws(shared: Path, witnesses: dict[str, Witness]) -> list[Law]:
    """Laws of fr-000 (gold paragraphs, the first = law 4), en-003 (gold) and en-003m (raw modernized reading)."""
    laws: list[Law] = []
    g000 = next((shared / "gold").glob("000_*.gold.txt")).read_text(encoding="utf-8")
    paras = [p.strip() for p in re.split(r"\n\s*\n", g000) if p.strip()]
    w = witnesses["fr-000"]
    for k, p in enumerate(paras):
        m = re.match(r"(\d+)\.\s+", p)
        n, txt = (int(m.group(1)), p[m.end() :]) if m else (4 + k, p)
        laws.append(make_law("ecarte", w, n, k, txt, printed=m.group(0).strip() if m else ""))
    g003 = next((shared / "gold").glob("003_*.gold.txt")).read_text(encoding="utf-8")
    for k, (n, txt) in enumerate(split_numbered_run(g003)):
        laws.append(make_law("ecarte", witnesses["en-003"], n, k, txt, printed=f"{n}."))
    laws += _raw_003(witnesses, which=("en-003m",))
    return laws


def _raw_003(witnesses: dict[str, Witness], which: Sequence[str] = ("en-003", "en-003m")) -> list[Law]:
    raw = (ROOT / "corpus" / witnesses["en-003"].file).read_text(encoding="utf-8")
    ocr, _, modern = raw.partition(MODERN_MARKER)
    modern = modern.replace("Consult me", "")
    laws = []
    for wid, txt in (("en-003", ocr), ("en-003m", modern)):
        if wid in which:
            for k, (n, t) in enumerate(split_numbered_run(txt)):
                laws.append(make_law("ecarte", witnesses[wid], n, k, t, printed=f"{n}."))
    return laws


_FR_MARK = re.compile(r"^\s*((?=[^\n]*?[0-9io$])[0-9io$. ]{1,4}[»$]?)\.\s*", re.M)


def raw_laws(witnesses: dict[str, Witness]) -> list[Law]:
    """Laws split naively from the raw seeds (OCR noise left in): fr-000, en-003, en-003m."""
    w = witnesses["fr-000"]
    raw = (ROOT / "corpus" / w.file).read_text(encoding="utf-8")
    marks = list(_FR_MARK.finditer(raw))
    pieces: list[tuple[str | None, str]] = [(None, raw[: marks[0].start()] if marks else raw)]
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(raw)
        pieces.append((m.group(1), raw[m.end() : end]))
    laws = [make_law("ecarte", w, 4 + k, k, t, printed=(p or "")) for k, (p, t) in enumerate(pieces)]
    return laws + _raw_003(witnesses)


def pipeline_laws(path: Path) -> list[Law]:
    """Law objects from ``outputs/laws.csv`` (columns in docs/OUTPUTS.md)."""
    laws = []
    with path.open(encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            num = r.get("number") or ""
            laws.append(
                Law(
                    id=r["law_id"],
                    witness_id=r["witness"],
                    game=r["game"],
                    lang=r["lang"],
                    kind=r.get("kind") or "law",
                    number=int(float(num)) if num.strip() else None,
                    printed=r.get("printed", ""),
                    label=r.get("label", ""),
                    order=int(float(r.get("order") or 0)),
                    start=int(float(r.get("start") or 0)),
                    end=int(float(r.get("end") or 0)),
                    text=r.get("text", ""),
                    pages=tuple(p for p in (r.get("pages") or "").split(";") if p),
                    parent=r.get("parent") or None,
                    heading=r.get("heading", ""),
                )
            )
    return laws


# ----------------------------------------------------------------------------------------------
# gold and metrics


def _witness_token(tok: str, prev: str | None) -> str:
    if tok == "modern" and prev:
        return prev + "m"
    m = re.fullmatch(r"([a-z]+)(\d+)([a-z]*)", tok)
    return f"{m.group(1)}-{m.group(2)}{m.group(3)}" if m else tok


def _law_ref(game: str, wit: str, value: str) -> str:
    v = value.strip()
    if v.startswith(f"{game}."):
        return v
    if re.fullmatch(r"\d+", v):
        return f"{game}.{wit}.law-{int(v)}"
    m = re.fullmatch(r"(\d+)\.([a-z]+)", v)  # a clause: 29.ii, 7.a
    if m:
        return f"{game}.{wit}.law-{int(m.group(1))}.{m.group(2)}"
    m = re.fullmatch(r"(\d+)\s*\(?([a-z])\)?", v)
    if m:
        return f"{game}.{wit}.law-{int(m.group(1))}.{m.group(2)}"
    m = re.fullmatch(r"(?:rule[- ]?)?r?(\d+)", v.replace("rule ", "rule-"))
    if m:
        return f"{game}.{wit}.rule-{int(m.group(1))}"
    return f"{game}.{wit}.{v}"


def read_gold(path: Path) -> tuple[str, str, str, set[tuple[str, str]], set[tuple[str, str]]]:
    """(game, witness A, witness B, sure links, possible links) of one gold file."""
    return read_gold_full(path)[:5]


def read_gold_full(path: Path) -> tuple[str, str, str, set[tuple[str, str]], set[tuple[str, str]], set[str]]:
    """(game, witness A, witness B, sure links, possible links, laws with no counterpart) of one gold file.

    A row ``law,,none`` (or ``,law,none``) says that the law of A (of B) has no counterpart in the other witness."""
    parts = path.stem.split("_")
    game = parts[0]
    wa = _witness_token(parts[1], None)
    wb = _witness_token(parts[2], wa)
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    sure: set[tuple[str, str]] = set()
    possible: set[tuple[str, str]] = set()
    none: set[str] = set()
    for row in list(csv.reader(lines))[1:]:
        a, b, strength = row[0].strip(), row[1].strip(), (row[2].strip() if len(row) > 2 else "sure")
        if strength == "none":
            none.add(_law_ref(game, wa, a) if a else _law_ref(game, wb, b))
            continue
        pair = (_law_ref(game, wa, a), _law_ref(game, wb, b))
        (sure if strength == "sure" else possible).add(pair)
    return game, wa, wb, sure, possible, none


CLAUSE_ID = re.compile(r"(.+\.law-\d+[a-z]?)\.[a-z0-9]+")  # a clause's id: its law's id and the clause's letter


def lifted(pair: tuple[str, str], gold: set) -> tuple[str, str]:
    """``pair`` with each clause of a law whose clauses the gold does not name read as its law: a gold written law
    by law ("21,13,sure") is met by a link of law 21's clause (a) as by one of law 21."""
    named = {x for p in gold for x in p}
    split = {m.group(1) for x in named if (m := CLAUSE_ID.fullmatch(x))}  # (laws the gold reads clause by clause)

    def up(lid: str) -> str:
        m = CLAUSE_ID.fullmatch(lid)
        return m.group(1) if m and m.group(1) not in split else lid

    return up(pair[0]), up(pair[1])


def score_links(links: Iterable[Link], wa: str, wb: str, sure: set, possible: set) -> dict:
    def wit(lid: str) -> str:
        return lid.split(".")[1]

    pred = set()
    for l in links:
        if {wit(l.a), wit(l.b)} == {wa, wb}:
            pred.add(lifted((l.a, l.b) if wit(l.a) == wa else (l.b, l.a), sure | possible))
    tp = pred & sure
    fp = pred - sure - possible
    fn = sure - pred
    p = len(tp) / (len(tp) + len(fp)) if tp or fp else 0.0
    r = len(tp) / len(sure) if sure else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {
        "witness_a": wa,
        "witness_b": wb,
        "precision": round(p, 4),
        "recall": round(r, 4),
        "f1": round(f, 4),
        "tp": len(tp),
        "fp": len(fp),
        "fn": len(fn),
        "ignored_possible": len(pred & possible),
        "false_positives": sorted(map(list, fp)),
        "missed": sorted(map(list, fn)),
    }


def score_unaligned(links: Iterable[Link], wa: str, wb: str, none: set[str]) -> dict:
    """How many of the gold's laws with no counterpart got no link to the other witness (``unaligned_right``
    of ``unaligned_gold``), and the ones wrongly linked."""
    linked = {x for l in links if {l.a.split(".")[1], l.b.split(".")[1]} == {wa, wb} for x in (l.a, l.b)}
    wrong = sorted(none & linked)
    return {"unaligned_gold": len(none), "unaligned_right": len(none) - len(wrong), "unaligned_linked": wrong}


def band_counts(links: Iterable[Link], wa: str, wb: str, sure: set, possible: set) -> dict[str, dict[str, int]]:
    """Per certainty band (``Link.band``): links that are sure (tp), possible (ignored) or wrong (fp) in this gold."""
    out: dict[str, dict[str, int]] = {}
    for l in links:
        if {l.a.split(".")[1], l.b.split(".")[1]} != {wa, wb}:
            continue
        pair = lifted((l.a, l.b) if l.a.split(".")[1] == wa else (l.b, l.a), sure | possible)
        c = out.setdefault(getattr(l, "band", "") or "-", {"tp": 0, "possible": 0, "fp": 0})
        c["tp" if pair in sure else "possible" if pair in possible else "fp"] += 1
    return out


def scored_links(links: Iterable[Link], wa: str, wb: str, sure: set, possible: set) -> list[list]:
    """[score, band, "tp" | "possible" | "fp"] of every link between the gold's two witnesses (for calibration)."""
    out = []
    for l in links:
        if {l.a.split(".")[1], l.b.split(".")[1]} != {wa, wb}:
            continue
        pair = lifted((l.a, l.b) if l.a.split(".")[1] == wa else (l.b, l.a), sure | possible)
        out.append([l.score, l.band, "tp" if pair in sure else "possible" if pair in possible else "fp"])
    return sorted(out)


THRESHOLDS = tuple(i / 20 for i in range(4, 17))  # score thresholds of the calibration table: 0.20, 0.25 ... 0.80


def calibration(results: Sequence[dict], thresholds: Sequence[float] = THRESHOLDS, band: str = "high") -> list[dict]:
    """For each score threshold: the precision of the links of ``band`` scoring at least that, over all golds and on
    the worst gold.  Run with ``--set band_high=0`` every link that may be "high" (a primary link on a shared event)
    is in the band, and AlignConfig.band_high is read off this table: the lowest threshold whose worst-gold precision
    is at least 0.95 (docs/decisions.md, "Alignment")."""
    rows = []
    for t in thresholds:
        tp = fp = 0
        worst = 1.0
        for r in results:
            a = sum(1 for s, b_, k in r.get("scored_links", []) if s >= t and k == "tp" and b_ == band)
            b = sum(1 for s, b_, k in r.get("scored_links", []) if s >= t and k == "fp" and b_ == band)
            tp, fp = tp + a, fp + b
            if a + b:
                worst = min(worst, a / (a + b))
        rows.append(
            {
                "threshold": t,
                "tp": tp,
                "fp": fp,
                "precision": round(tp / (tp + fp), 4) if tp + fp else None,
                "worst_gold_precision": round(worst, 4),
            }
        )
    return rows


def band_precision(results: Sequence[dict]) -> dict[str, dict]:
    """Precision of the links of each certainty band over all the given gold results (possible links left out)."""
    tot: dict[str, dict[str, int]] = {}
    for r in results:
        for band, c in r.get("bands", {}).items():
            t = tot.setdefault(band, {"tp": 0, "possible": 0, "fp": 0})
            for k in t:
                t[k] += c[k]
    return {
        b: {**c, "precision": round(c["tp"] / (c["tp"] + c["fp"]), 4) if c["tp"] + c["fp"] else None}
        for b, c in sorted(tot.items())
    }


def segmented_laws(corpus_dir: Path, witness_ids: Iterable[str]) -> list[Law]:
    """Laws of seed witnesses cleaned and segmented on the fly (pipeline.clean + pipeline.segment), for development and tests."""
    from pipeline.clean import clean, load_resources as clean_resources
    from pipeline.corpus import get_witness, load_witnesses, witness_text
    from pipeline.segment import segment

    ws = load_witnesses(corpus_dir)
    laws: list[Law] = []
    for wid in witness_ids:
        w = get_witness(ws, wid)
        laws.extend(segment(clean(witness_text(corpus_dir, w), clean_resources(corpus_dir, w.lang)), w).laws)
    return laws


def evaluate_golds(
    laws: Sequence[Law],
    gold_files: Sequence[Path],
    corpus_dir: Path,
    config: AlignConfig = AlignConfig(),
    extra_laws: Sequence[Law] = (),
) -> list[dict]:
    """Score each gold file; ``extra_laws`` (fixture witnesses) join the laws of a gold file that names their witness,
    and the corpus witnesses of the gold's game missing from ``laws`` are segmented on the fly."""
    witnesses = load_witness_meta(corpus_dir)
    resources = load_resources(corpus_dir)
    have = {l.witness_id for l in laws}
    extra_by_wit: dict[str, list[Law]] = defaultdict(list)
    for l in extra_laws:
        extra_by_wit[l.witness_id].append(l)
    cache: dict[tuple[str, tuple[str, ...]], tuple[Link, ...]] = {}
    laws_of: dict[tuple[str, tuple[str, ...]], list[Law]] = {}
    results = []
    for gold in gold_files:
        game, wa, wb, sure, possible, none = read_gold_full(gold)
        added = tuple(sorted(w for w in (wa, wb) if w in extra_by_wit))
        key = (game, added)
        if key not in cache:
            # every corpus witness of the game, as in a build (not only the two the gold names: the alignment is
            # cached per game and fixture set, and the other golds of the game read it too)
            missing = [
                w for w, meta in witnesses.items() if meta.game == game and w not in have and w not in extra_by_wit
            ]
            game_laws = [l for l in laws if l.game == game] + [l for w in added for l in extra_by_wit[w]]
            game_laws += [l for l in segmented_laws(corpus_dir, missing) if l.game == game]
            cache[key] = align(game_laws, resources, config, witnesses)
            laws_of[key] = game_laws
        res = score_links(cache[key], wa, wb, sure, possible)
        res.update(score_unaligned(cache[key], wa, wb, none))
        res["bands"] = band_counts(cache[key], wa, wb, sure, possible)
        res["scored_links"] = scored_links(cache[key], wa, wb, sure, possible)
        plain = score_links(tfidf_links(laws_of[key], wa, wb), wa, wb, sure, possible)
        res["baseline"] = {k: plain[k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")}  # TF-IDF cosine
        res["gold"] = gold.name
        res["game"] = game
        results.append(res)
    return results


def dev_gold_files(dev_dir: Path = DEV_GOLD_DIR) -> list[Path]:
    return sorted(p for p in dev_dir.glob("*_*_*.csv")) if dev_dir.is_dir() else []


def dev_fixture_laws(dev_dir: Path = DEV_GOLD_DIR) -> list[Law]:
    p = dev_dir / "laws.csv"
    return pipeline_laws(p) if p.exists() else []


def evaluate(
    laws: Sequence[Law],
    shared: Path,
    corpus_dir: Path,
    config: AlignConfig = AlignConfig(),
    dev_dir: Path | None = DEV_GOLD_DIR,
) -> dict:
    """Shared gold (``pairs``) and, when ``dev_dir`` is given, our development golds (``dev_pairs``)."""
    shared_files = sorted((shared / "gold").glob("*_*_*.csv"))
    out = {"pairs": evaluate_golds(laws, shared_files, corpus_dir, config)}
    if dev_dir is not None:
        out["dev_pairs"] = evaluate_golds(laws, dev_gold_files(dev_dir), corpus_dir, config, dev_fixture_laws(dev_dir))
    return out


def read_event_gold(path: Path) -> dict[str, tuple[frozenset[str], str]]:
    """law id -> (the events any of which is a right reading, the main outcome or "") of a reading gold file."""
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    out = {}
    for row in csv.DictReader(lines):
        out[row["law_id"].strip()] = (
            frozenset(e.strip() for e in (row.get("event") or "").split("|") if e.strip()),
            (row.get("outcome") or "").strip(),
        )
    return out


def curated_reading_gold(corpus_dir: Path) -> dict[str, tuple[frozenset[str], str]]:
    """law id -> (its curated events, its curated outcomes and options "|"-joined) from the rule table's curation
    (``corpus/annotations/<game>.toml``): the reading gold of the codes the patterns were written on (in-sample)."""
    events: dict[str, set[str]] = defaultdict(set)
    outcomes: dict[str, set[str]] = defaultdict(set)
    for game in ("ecarte", "whist"):
        path = corpus_dir / "annotations" / f"{game}.toml"
        if not path.exists():
            continue
        for r in tomllib.loads(path.read_text(encoding="utf-8")).get("ruling", []):
            lid = r["law_id"]
            if r.get("event"):
                events[lid].add(r["event"])
            outcomes[lid].update(x for x in (r.get("outcome"), *r.get("options", ())) if x)
    return {lid: (frozenset(events[lid]), "|".join(sorted(outcomes[lid]))) for lid in {*events, *outcomes}}


def reading_accuracy(laws: Sequence[Law], gold: dict[str, tuple[frozenset[str], str]]) -> dict[str, dict]:
    """Per witness: the share of its laws whose reading has a right event (``event``: a gold event among the events
    read; the laws with no gold event left out) and its main outcome (``outcome``: among the outcomes read, any of
    several "|"-separated ones; the laws with none left out), with the laws read wrong."""
    from pipeline.align.provisions import read_provisions

    mine = [l for l in laws if l.id in gold]
    readings = read_provisions(mine)
    out: dict[str, dict] = {}
    for law in mine:
        events, outcome = gold[law.id]
        p = readings[law.id]
        r = out.setdefault(
            law.witness_id, {"events": 0, "event_right": 0, "outcomes": 0, "outcome_right": 0, "wrong": []}
        )
        if events:
            r["events"] += 1
            if events & p.event_ids:
                r["event_right"] += 1
            else:
                r["wrong"].append(f"{law.id}: event {'|'.join(sorted(events))}, read {p.summary()}")
        if outcome:
            r["outcomes"] += 1
            if set(outcome.split("|")) & {t for t, _ in p.outcomes}:
                r["outcome_right"] += 1
            else:
                r["wrong"].append(f"{law.id}: outcome {outcome}, read {p.summary()}")
    for r in out.values():
        r["event_accuracy"] = float(f"{r['event_right'] / r['events']:.4f}") if r["events"] else None
        r["outcome_accuracy"] = float(f"{r['outcome_right'] / r['outcomes']:.4f}") if r["outcomes"] else None
    return out


def first_contact_files(fc_dir: Path = FIRST_CONTACT_DIR) -> list[Path]:
    return sorted(p for p in fc_dir.glob("*_*_*.csv")) if fc_dir.is_dir() else []


def evaluate_first_contact(
    laws: Sequence[Law], corpus_dir: Path, config: AlignConfig = AlignConfig(), fc_dir: Path = FIRST_CONTACT_DIR
) -> list[dict]:
    """Every first-contact gold scored now (``f1`` ...), beside the TF-IDF baseline (``tfidf_f1``), the reading
    accuracy of its new code, and the figure recorded at first contact (``record.json``: ``first_contact``).  A gold
    with no sure link (every law of the new code without counterpart, or only in part) has no F1 (None): its figure
    is the share of its no-counterpart laws left unlinked (``unaligned_right`` of ``unaligned_gold``)."""
    fixture = dev_fixture_laws(fc_dir)
    results = evaluate_golds(laws, first_contact_files(fc_dir), corpus_dir, config, fixture)
    events = fc_dir / "events.csv"
    accuracy = reading_accuracy(fixture, read_event_gold(events)) if fixture and events.exists() else {}
    record_path = fc_dir / "record.json"
    record = json.loads(record_path.read_text(encoding="utf-8")) if record_path.exists() else {}
    new = {l.witness_id for l in fixture}
    everyone = [*laws, *fixture]
    for r in results:
        game, wa, wb, sure, possible, _ = read_gold_full(fc_dir / r["gold"])
        game_laws = [l for l in everyone if l.game == game and l.witness_id in (wa, wb)]
        if {wa, wb} - {l.witness_id for l in game_laws}:
            game_laws += segmented_laws(corpus_dir, sorted({wa, wb} - {l.witness_id for l in game_laws}))
        r["tfidf_f1"] = score_links(tfidf_links(game_laws, wa, wb), wa, wb, sure, possible)["f1"]
        if not sure:  # a gold of laws without counterpart only: no F1, its figure is the laws left unlinked
            r.update(precision=None, recall=None, f1=None, tfidf_f1=None)
        code = wa if wa in new else wb
        r["code"] = code
        r["reading"] = accuracy.get(code, {})
        r["first_contact"] = record.get(r["gold"])
    return results


def record_first_contact(results: Sequence[dict], fc_dir: Path = FIRST_CONTACT_DIR, note: str = "") -> list[str]:
    """Write the figures of the golds that have none recorded yet into ``record.json`` (their first contact); the
    ones already there are never overwritten.  Returns the golds recorded now."""
    path = fc_dir / "record.json"
    record = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    fresh = []
    for r in results:
        if r["gold"] in record:
            continue
        rd = r.get("reading", {})
        record[r["gold"]] = {
            "precision": r["precision"],
            "recall": r["recall"],
            "f1": r["f1"],
            "tfidf_f1": r["tfidf_f1"],
            "event_accuracy": rd.get("event_accuracy"),
            "outcome_accuracy": rd.get("outcome_accuracy"),
            "unaligned_right": r.get("unaligned_right"),
            "unaligned_gold": r.get("unaligned_gold"),
            "note": note,
        }
        fresh.append(r["gold"])
    if fresh:
        write_json_atomic(path, record)
    return fresh


def _print_first_contact(rows: Sequence[dict]) -> None:
    print(
        f"{'gold file':28} {'code':7} {'first F1':>8} {'F1 now':>7} {'TF-IDF':>7} "
        f"{'event 1st':>9} {'event now':>9} {'outc 1st':>8} {'outc now':>8} {'unlinked':>8}"
    )

    def f(x) -> str:
        return "-" if x is None else f"{x:.2f}"

    for r in rows:
        fc = r.get("first_contact") or {}
        rd = r.get("reading", {})
        print(
            f"{r['gold']:28} {r['code']:7} {f(fc.get('f1')):>8} {f(r['f1']):>7} {f(r['tfidf_f1']):>7} "
            f"{f(fc.get('event_accuracy')):>9} {f(rd.get('event_accuracy')):>9} "
            f"{f(fc.get('outcome_accuracy')):>8} {f(rd.get('outcome_accuracy')):>8} "
            f"{str(r.get('unaligned_right', 0)) + '/' + str(r.get('unaligned_gold', 0)):>8}"
        )
    scored = [r for r in rows if r.get("f1") is not None]
    firsts = [r["first_contact"]["f1"] for r in scored if (r.get("first_contact") or {}).get("f1") is not None]
    if firsts:
        print(
            f"mean first-contact F1 {sum(firsts) / len(firsts):.3f}; now {sum(r['f1'] for r in scored) / len(scored):.3f}; "
            f"TF-IDF {sum(r['tfidf_f1'] for r in scored) / len(scored):.3f}"
        )
    seen = set()
    for r in rows:
        if r["code"] in seen:
            continue
        seen.add(r["code"])
        for w in r.get("reading", {}).get("wrong", []):
            print(f"    read wrong: {w}")


def _print_reading(accuracy: dict[str, dict]) -> None:
    print(f"{'code':8} {'events':>6} {'event acc':>9} {'outcomes':>8} {'outc acc':>8}")
    for code, r in sorted(accuracy.items()):
        ea, oa = r["event_accuracy"], r["outcome_accuracy"]
        print(
            f"{code:8} {r['events']:6d} {'-' if ea is None else f'{ea:.2f}':>9} {r['outcomes']:8d} "
            f"{'-' if oa is None else f'{oa:.2f}':>8}"
        )


def write_json_atomic(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def config_with(config: AlignConfig, overrides: Sequence[str]) -> AlignConfig:
    """``config`` with ``FIELD=VALUE`` overrides (VALUE as JSON; lists become tuples, lists of lists tuples of tuples)."""
    fields = {f.name for f in dataclasses.fields(config)}
    changes = {}
    for item in overrides:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or name not in fields or name == "scorers":
            raise ValueError(
                f"--set {item!r}: expected FIELD=VALUE with FIELD one of {', '.join(sorted(fields - {'scorers'}))}"
            )
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        if isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        changes[name] = value
    return dataclasses.replace(config, **changes)


def _print_table(rows: Sequence[dict]) -> None:
    print(
        f"{'gold file':32} {'pair':20} {'P':>6} {'R':>6} {'F1':>6} {'tp':>3} {'fp':>3} {'fn':>3} {'unaligned right':>16}"
    )
    for r in rows:
        un = f"{r['unaligned_right']}/{r['unaligned_gold']}" if r.get("unaligned_gold") else "-"

        def f(x: float | None) -> str:
            return f"{'-':>6}" if x is None else f"{x:6.3f}"

        print(
            f"{r['gold']:32} {r['witness_a'] + '~' + r['witness_b']:20} {f(r['precision'])} {f(r['recall'])} "
            f"{f(r['f1'])} {r['tp']:3d} {r['fp']:3d} {r['fn']:3d} {un:>16}"
        )
        for lid in r.get("unaligned_linked", []):
            print(f"    linked, gold says no counterpart: {lid}")
        for a, b in r["false_positives"]:
            print(f"    false positive: {a} ~ {b}")
        for a, b in r["missed"]:
            print(f"    missed:         {a} ~ {b}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    laws_csv = ROOT / "outputs" / "laws.csv"
    ap.add_argument("--laws", choices=("pipeline", "gold", "raw"), default="pipeline" if laws_csv.exists() else "gold")
    ap.add_argument(
        "--laws-csv", type=Path, help="a laws.csv of a build elsewhere (e.g. /tmp/x/laws.csv); implies --laws pipeline"
    )
    ap.add_argument("--json", type=Path, default=None, help="default: outputs/eval/alignment.json (without --set)")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override an AlignConfig field (value as JSON), to measure a change on every gold",
    )
    args = ap.parse_args(argv)
    try:
        config = config_with(AlignConfig(), args.set)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json is None and not args.set:
        args.json = ROOT / "outputs" / "eval" / "alignment.json"
    if args.laws_csv:
        laws_csv, args.laws = args.laws_csv, "pipeline"
    shared = shared_dir()
    corpus_dir = ROOT / "corpus"
    witnesses = load_witness_meta(corpus_dir)
    if args.laws == "pipeline":
        if not laws_csv.exists():
            print(f"error: {laws_csv} does not exist; run the build first or use --laws gold", file=sys.stderr)
            return 2
        laws = pipeline_laws(laws_csv)
    elif args.laws == "gold":
        laws = gold_laws(shared, witnesses)
    else:
        laws = raw_laws(witnesses)
    result = evaluate(laws, shared, corpus_dir, config)
    result["laws_source"] = args.laws
    if args.set:
        result["config_overrides"] = list(args.set)
        print("AlignConfig overrides: " + ", ".join(args.set))
    src = str(laws_csv) if args.laws == "pipeline" else args.laws
    print(f"alignment vs shared gold ({shared / 'gold'}; laws from {src})")
    _print_table(result["pairs"])
    print(
        f"alignment vs DEVELOPMENT gold written by us, not shared gold ({DEV_GOLD_DIR.relative_to(ROOT)}; "
        "fr-901, en-901 and fr-903 are fixture codes in laws.csv there; same-language pairs composed, then read by hand)"
    )
    _print_table(result["dev_pairs"])
    result["first_contact"] = evaluate_first_contact(laws, corpus_dir, config)
    if not args.set:
        for name in record_first_contact(result["first_contact"], note=f"laws from {args.laws}"):
            print(f"first contact of {name} recorded in {FIRST_CONTACT_DIR.relative_to(ROOT)}/record.json")
        result["first_contact"] = evaluate_first_contact(laws, corpus_dir, config)
    print(
        f"alignment vs FIRST-CONTACT gold ({FIRST_CONTACT_DIR.relative_to(ROOT)}; codes met after the reading was written, "
        "gold written before anything ran on them): F1 and reading accuracy (event, outcome) at first contact and now"
    )
    _print_table(result["first_contact"])
    _print_first_contact(result["first_contact"])
    result["composed"] = evaluate_first_contact(laws, corpus_dir, config, COMPOSED_DIR)
    print(
        f"alignment vs COMPOSED first-contact gold ({COMPOSED_DIR.relative_to(ROOT)}; codes of Écarté written here, "
        "each in its own manner, links written with them before anything ran; a probe of wording, not a real code): F1 "
        "at first contact and now"
    )
    _print_first_contact(result["composed"])
    result["reading_curated"] = reading_accuracy(laws, curated_reading_gold(corpus_dir))
    print(
        "reading accuracy of the curated codes (event, outcome against the rule table's curation; in-sample: the "
        "patterns were written on these codes)"
    )
    _print_reading(result["reading_curated"])
    result["bands"] = band_precision([*result["pairs"], *result["dev_pairs"], *result["first_contact"]])
    print(
        "precision of the links per certainty band, over every gold (shared and development; possible links left out)"
    )
    print(f"{'band':8} {'links':>6} {'sure':>5} {'possible':>8} {'wrong':>6} {'precision':>9}")
    for band, c in result["bands"].items():
        n = c["tp"] + c["possible"] + c["fp"]
        prec = "-" if c["precision"] is None else f"{c['precision']:.3f}"
        print(f"{band:8} {n:6d} {c['tp']:5d} {c['possible']:8d} {c['fp']:6d} {prec:>9}")
    result["calibration"] = calibration([*result["pairs"], *result["dev_pairs"], *result["first_contact"]])
    print(
        "calibration of the high band: precision of its links scoring at least t, all golds / worst gold "
        "(with --set band_high=0: every primary link on a shared event)"
    )
    print(
        "  "
        + "  ".join(
            f"{c['threshold']:.2f}:{c['precision'] if c['precision'] is not None else '-'}/{c['worst_gold_precision']}"
            for c in result["calibration"]
        )
    )
    if args.json is not None:
        write_json_atomic(args.json, result)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
