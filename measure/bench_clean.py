"""Cleaning throughput (``make bench``): tokens/s of the clean stage beside a symspellpy pass.

The ICDAR 2017 FR and EN dev inputs are grouped into documents of ``DOC_SENTENCES`` sentences and
repeated until at least ``MIN_TOKENS`` tokens; the same documents are cleaned (general resources,
hyphen joining off) and run through symspellpy (lookup of every token over a wordfreq lexicon) in the
same process, on one core, alternately document by document.  Resources (word-pair counts too), symspellpy's dictionary and the spaCy tagger are loaded before the
timing.  The repeated documents profit from the cleaner's per-token caches: the first pass over the
distinct documents is the headline (:func:`first_pass`: fresh caches, median of 5 alternating runs), the
repeated-document figure the second line (it starts from fresh caches too); the same first pass with the
language-model pass off is printed beside the headline.  Start-up (loading the resources, once per process)
is timed and printed apart, never inside a ratio.  Writes ``outputs/bench/cleaning.json`` (atomic;
``--no-write``: print only).
"""

from __future__ import annotations

import gc
import os
import sys
import time
from dataclasses import replace
from typing import Any

from pipeline.clean import PROJECT_ROOT, CleanConfig, clean, general_resources
from .evaluate_clean import TOKEN, read_icdar, shared_dir, symspell_for, symspell_text, write_json_atomic
from pipeline.model import Witness, WitnessText
from pipeline.clean.realwords import spacy_tagger

MIN_TOKENS = 1_000_000
DOC_SENTENCES = 20


def documents(lang: str, fname: str, min_tokens: int) -> tuple[list[str], int, int]:
    """(documents repeated to at least ``min_tokens`` tokens, their token count, the number of distinct documents)."""
    data = read_icdar(shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs" / fname)
    inputs = [o for o, _ in data]
    docs = ["\n".join(inputs[i : i + DOC_SENTENCES]) for i in range(0, len(inputs), DOC_SENTENCES)]
    per = sum(len(TOKEN.findall(d)) for d in docs)
    reps = max(1, -(-min_tokens // per))
    return docs * reps, per * reps, len(docs)


FIRST_PASS_RUNS = 5


def first_pass(runs: int = FIRST_PASS_RUNS, lm_words: bool = True) -> dict:
    """The headline: the cleaner over the distinct documents once, as a new book gets it (fresh repairers:
    no per-token memo or candidate cache from an earlier pass), beside symspellpy over the same documents,
    alternately document by document; ``runs`` times, median ratio.  ``lm_words=False``: the same with the
    language-model pass off.  Start-up (loading the word lists, word pairs, the trigram model, GCIDE, the
    spaCy tagger and symspellpy's dictionary: once per process, not per book) is timed apart, not in the
    ratio; ``startup_seconds`` is what this call loaded (0 when an earlier call had loaded it)."""
    import statistics

    cfg = replace(CleanConfig(), join_hyphens=False, lm_words=lm_words)
    sets = []
    t_load = time.perf_counter()
    t_sym = 0.0
    for lang, fname in (("fr", "ICDAR2017_fre_periodical_dev.tsv"), ("en", "ICDAR2017_eng_periodical_dev.tsv")):
        docs, ntok, distinct = documents(lang, fname, 1)
        res = general_resources(lang)
        t0 = time.perf_counter()
        symspell_for(lang)
        t_sym += time.perf_counter() - t0
        spacy_tagger(lang)
        rep = res.repairer(cfg)
        rep.bigrams
        if cfg.lm_words:
            from pipeline.clean import lm

            lm.trigram_model()
            lm.gcide_words()
        # (one sentence cleaned: what is built once per resources on first use, the LM pass's period words
        # and pools of frequent words; the repairer and its memos are made afresh for each run below)
        w = Witness(id="bench", file="-", game="ecarte", lang=lang, kind="ocr", title="bench")
        clean(WitnessText(w, docs[0].split("\n")[0]), res, cfg)
        sets.append((lang, docs[:distinct], res, ntok))
    startup = time.perf_counter() - t_load - t_sym
    from pipeline.clean.memo import freeze_loaded

    freeze_loaded("bench")  # (as the CLI and the build do once their resources are loaded)
    print(
        f"start-up (once per process, not timed below): cleaner resources {startup:.1f} s, symspellpy dictionary {t_sym:.1f} s",
        flush=True,
    )
    ratios: list[float] = []
    rows: list[dict[str, Any]] = []
    clock = time.perf_counter
    for r in range(runs):
        tc = ts = 0.0
        ntok = 0
        per_lang: dict[str, float] = {}
        for lang, docs, res, n in sets:
            tc0, ts0 = tc, ts
            res._repairers.clear()  # a fresh repairer: empty memos and candidate caches
            # (the dropped repairer is a reference cycle, its search and decider hold its methods: collected
            # here, outside the timing, not by a full collection inside a later run, as a new book's first
            # pass in a process of its own would not pay for it either)
            gc.collect()
            rep = res.repairer(cfg)
            rep.bigrams  # (loading the word-pair counts, the LM and the compiled channel is not cleaning)
            rep.channel.cost("ab", "ab")
            rep.channel.costs("ab", ["ab", "ba"])  # (the compiled programmes, loaded from numba's cache)
            w = Witness(id="bench", file="-", game="ecarte", lang=lang, kind="ocr", title="bench")
            for d in docs:
                t0 = clock()
                clean(WitnessText(w, d), res, cfg)
                t1 = clock()
                symspell_text(d, lang)
                t2 = clock()
                tc += t1 - t0
                ts += t2 - t1
            ntok += n
            per_lang[lang] = (ts - ts0) / (tc - tc0)
        ratios.append(ts / tc)
        rows.append(
            {
                "tokens": ntok,
                "clean_tokens_per_s": ntok / tc,
                "symspell_tokens_per_s": ntok / ts,
                "ratio": ts / tc,
                "ratio_by_lang": per_lang,
            }
        )
        langs = "  ".join(f"{lang} {x:.2f}" for lang, x in per_lang.items())
        print(
            f"first pass{'' if lm_words else ' (LM pass off)'}, run {r + 1}/{runs}: {ntok} tokens  clean {ntok / tc:,.0f} tok/s  symspellpy {ntok / ts:,.0f} tok/s  ratio {ts / tc:.2f} ({langs})",
            flush=True,
        )
    med = statistics.median(ratios)
    by_lang = {lang: statistics.median(row["ratio_by_lang"][lang] for row in rows) for lang, *_ in sets}
    langs = ", ".join(f"{lang} {x:.2f}" for lang, x in by_lang.items())
    print(
        f"{'HEADLINE first pass' if lm_words else 'first pass, LM pass off,'} over the distinct documents (median of {runs} alternating runs): clean/symspellpy {med:.2f} ({langs})"
    )
    return {
        "lm_words": lm_words,
        "runs": rows,
        "median_ratio": med,
        "median_ratio_by_lang": by_lang,
        "startup_seconds": startup,
        "symspell_startup_seconds": t_sym,
    }


def run(min_tokens: int = MIN_TOKENS, runs: int = FIRST_PASS_RUNS, write: bool = True) -> dict:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    except (AttributeError, OSError):
        pass
    cfg = replace(CleanConfig(), join_hyphens=False)
    out: dict[str, Any] = {
        "min_tokens": min_tokens,
        "doc_sentences": DOC_SENTENCES,
        "sets": [],
        "first_pass": first_pass(runs),
        "first_pass_lm_off": first_pass(runs, lm_words=False),
    }
    print("second line: the documents repeated (the cleaner's per-token caches warm):")
    tot = {"clean": [0, 0.0], "symspellpy": [0, 0.0], "first": [0, 0.0]}
    for lang, fname in (("fr", "ICDAR2017_fre_periodical_dev.tsv"), ("en", "ICDAR2017_eng_periodical_dev.tsv")):
        docs, ntok, distinct = documents(lang, fname, min_tokens // 2)
        res = general_resources(lang)
        symspell_for(lang)  # build outside the timing, as the resources are
        res._repairers.clear()  # (fresh caches: the first-pass runs above left theirs warm)
        gc.collect()
        res.repairer(cfg).bigrams  # (the word-pair counts: loaded once, like the rest of the resources)
        spacy_tagger(lang)  # the real-word rules' tagger: loading a model is not cleaning
        w = Witness(id="bench", file="-", game="ecarte", lang=lang, kind="ocr", title="bench")
        # the two are timed document by document, alternately, so that a load change on a shared machine
        # weighs on both alike
        tc = ts = 0.0
        t_first = None
        clock = time.perf_counter
        for k, d in enumerate(docs):
            if k == distinct:
                t_first = tc
            t0 = clock()
            clean(WitnessText(w, d), res, cfg)
            t1 = clock()
            symspell_text(d, lang)
            t2 = clock()
            tc += t1 - t0
            ts += t2 - t1
        t_first = tc if t_first is None else t_first
        n_first = ntok * distinct // len(docs)
        # the documents repeat (the dev set is smaller than min_tokens): the first pass over them is the
        # figure without any look-up already cached from an earlier pass
        row = {
            "lang": lang,
            "tokens": ntok,
            "clean_seconds": tc,
            "symspell_seconds": ts,
            "clean_tokens_per_s": ntok / tc,
            "symspell_tokens_per_s": ntok / ts,
            "ratio": ts / tc,
            "first_pass_tokens": n_first,
            "first_pass_seconds": t_first,
            "first_pass_tokens_per_s": n_first / t_first,
            "first_pass_ratio": (n_first / t_first) / (ntok / ts),
        }
        out["sets"].append(row)
        tot["clean"][0] += ntok
        tot["clean"][1] += tc
        tot["symspellpy"][0] += ntok
        tot["symspellpy"][1] += ts
        tot["first"][0] += n_first
        tot["first"][1] += t_first
        print(
            f"{lang}: {ntok} tokens  clean {ntok / tc:,.0f} tok/s  symspellpy {ntok / ts:,.0f} tok/s  ratio clean/symspell {ts / tc:.2f}"
            f"  (first pass over the {distinct} distinct documents: {n_first / t_first:,.0f} tok/s, ratio {row['first_pass_ratio']:.2f})"
        )
    c = tot["clean"][0] / tot["clean"][1]
    s = tot["symspellpy"][0] / tot["symspellpy"][1]
    f = tot["first"][0] / tot["first"][1]
    out["total"] = {
        "tokens": tot["clean"][0],
        "clean_tokens_per_s": c,
        "symspell_tokens_per_s": s,
        "ratio": c / s,
        "first_pass_tokens_per_s": f,
        "first_pass_ratio": f / s,
    }
    print(
        f"total: {tot['clean'][0]} tokens  clean {c:,.0f} tok/s  symspellpy {s:,.0f} tok/s  ratio {c / s:.2f}"
        f"  (first pass {f:,.0f} tok/s, ratio {f / s:.2f})"
    )
    if write:
        write_json_atomic(PROJECT_ROOT / "outputs" / "bench" / "cleaning.json", out)
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m measure.bench_clean", description=__doc__.splitlines()[0])
    ap.add_argument("min_tokens", nargs="?", type=int, default=MIN_TOKENS, help="tokens of the repeated-document line")
    ap.add_argument("--runs", type=int, default=FIRST_PASS_RUNS, help="alternating runs of each first pass (median)")
    ap.add_argument("--no-write", action="store_true", help="print only (outputs/bench/cleaning.json untouched)")
    a = ap.parse_args(argv)
    if a.min_tokens < 1 or a.runs < 1:
        print("error: min_tokens and --runs must be at least 1", file=sys.stderr)
        return 2
    run(a.min_tokens, a.runs, not a.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
