"""Cleaning throughput (``make bench``): tokens/s of the clean stage beside a symspellpy pass.

The ICDAR 2017 FR and EN dev inputs are grouped into documents of ``DOC_SENTENCES`` sentences and
repeated until at least ``MIN_TOKENS`` tokens; the same documents are cleaned (general resources,
hyphen joining off) and run through symspellpy (lookup of every token over a wordfreq lexicon) in the
same process, on one core, alternately document by document.  Resources (word-pair counts too), symspellpy's dictionary and the spaCy tagger are loaded before the
timing.  The repeated documents profit from the cleaner's per-token caches: the first pass over the
distinct documents is the headline (:func:`first_pass`: fresh caches, median of 5 alternating runs), the
repeated-document figure the second line.  Writes ``outputs/bench/cleaning.json`` (atomic).
"""

from __future__ import annotations

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


def first_pass(runs: int = FIRST_PASS_RUNS) -> dict:
    """The headline: the cleaner over the distinct documents once, as a new book gets it (fresh repairers:
    no per-token memo or candidate cache from an earlier pass), beside symspellpy over the same documents,
    alternately document by document; ``runs`` times, median ratio."""
    import statistics

    cfg = replace(CleanConfig(), join_hyphens=False)
    sets = []
    for lang, fname in (("fr", "ICDAR2017_fre_periodical_dev.tsv"), ("en", "ICDAR2017_eng_periodical_dev.tsv")):
        docs, ntok, distinct = documents(lang, fname, 1)
        res = general_resources(lang)
        symspell_for(lang)
        spacy_tagger(lang)
        sets.append((lang, docs[:distinct], res, ntok))
    ratios, rows = [], []
    clock = time.perf_counter
    for r in range(runs):
        tc = ts = 0.0
        ntok = 0
        for lang, docs, res, n in sets:
            res._repairers.clear()  # a fresh repairer: empty memos and candidate caches
            rep = res.repairer(cfg)
            rep.bigrams  # (loading the word-pair counts, the LM and the compiled channel is not cleaning)
            rep.channel.cost("ab", "ab")
            if cfg.lm_words:
                from pipeline import lm

                lm.trigram_model()
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
        ratios.append(ts / tc)
        rows.append(
            {"tokens": ntok, "clean_tokens_per_s": ntok / tc, "symspell_tokens_per_s": ntok / ts, "ratio": ts / tc}
        )
        print(
            f"first pass, run {r + 1}/{runs}: {ntok} tokens  clean {ntok / tc:,.0f} tok/s  symspellpy {ntok / ts:,.0f} tok/s  ratio {ts / tc:.2f}",
            flush=True,
        )
    med = statistics.median(ratios)
    print(
        f"HEADLINE first pass over the distinct documents (median of {runs} alternating runs): clean/symspellpy {med:.2f}"
    )
    return {"runs": rows, "median_ratio": med}


def run(min_tokens: int = MIN_TOKENS) -> dict:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    except (AttributeError, OSError):
        pass
    cfg = replace(CleanConfig(), join_hyphens=False)
    out: dict[str, Any] = {
        "min_tokens": min_tokens,
        "doc_sentences": DOC_SENTENCES,
        "sets": [],
        "first_pass": first_pass(),
    }
    print("second line: the documents repeated (the cleaner's per-token caches warm):")
    tot = {"clean": [0, 0.0], "symspellpy": [0, 0.0], "first": [0, 0.0]}
    for lang, fname in (("fr", "ICDAR2017_fre_periodical_dev.tsv"), ("en", "ICDAR2017_eng_periodical_dev.tsv")):
        docs, ntok, distinct = documents(lang, fname, min_tokens // 2)
        res = general_resources(lang)
        symspell_for(lang)  # build outside the timing, as the resources are
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
    write_json_atomic(PROJECT_ROOT / "outputs" / "bench" / "cleaning.json", out)
    return out


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else MIN_TOKENS)
