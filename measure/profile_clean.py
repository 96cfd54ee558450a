"""Where the cleaner's first pass spends its time: cProfile over the bench's distinct documents.

``python -m measure.profile_clean [--lang en|fr] [--lm-off] [--top N] [--out FILE.prof]`` loads the
resources as :mod:`measure.bench_clean` does (outside the profile), then cleans the ICDAR 2017 dev set's
distinct 20-sentence documents once with a fresh repairer under cProfile, and prints the functions by
cumulative time (the shares the speed work attacks).  ``--out`` keeps the raw profile for ``pstats``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from dataclasses import replace
from pathlib import Path

from pipeline.clean import REGISTRY, CleanConfig, clean, clean_explained, general_resources
from pipeline.clean.passes import Pass
from pipeline.clean.realwords import spacy_tagger
from pipeline.model import Witness, WitnessText

from .bench_clean import documents

FILES = {"fr": "ICDAR2017_fre_periodical_dev.tsv", "en": "ICDAR2017_eng_periodical_dev.tsv"}


def profile(lang: str, lm_words: bool = True, timed: bool = False) -> tuple[cProfile.Profile | dict, float, int]:
    """(the profile, its seconds, tokens) of one first pass over ``lang``'s distinct documents; ``timed``:
    no profiler, the CPU seconds of each pass instead of the profile (pass name -> seconds)."""
    cfg = replace(CleanConfig(), join_hyphens=False, lm_words=lm_words)
    docs, ntok, distinct = documents(lang, FILES[lang], 1)
    res = general_resources(lang)
    spacy_tagger(lang)
    w = Witness(id="bench", file="-", game="ecarte", lang=lang, kind="ocr", title="bench")
    clean(WitnessText(w, docs[0].split("\n")[0]), res, cfg)  # (what is built once per resources)
    res._repairers.clear()
    gc.collect()
    rep = res.repairer(cfg)
    rep.bigrams
    rep.channel.cost("ab", "ab")
    rep.channel.costs("ab", ["ab", "ba"])
    from pipeline.clean.memo import freeze_loaded

    freeze_loaded("profile")
    if timed:
        spent: dict[str, float] = {}

        def timer(p: Pass) -> Pass:
            def run(text: str, ctx):
                t = time.process_time()
                try:
                    return p.run(text, ctx)
                finally:
                    spent[p.name] = spent.get(p.name, 0.0) + time.process_time() - t

            return replace(p, run=run)

        passes = tuple(map(timer, REGISTRY))
        t0 = time.process_time()
        for d in docs[:distinct]:
            clean_explained(WitnessText(w, d), res, cfg, passes=passes)
        return spent, time.process_time() - t0, ntok
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    for d in docs[:distinct]:
        clean(WitnessText(w, d), res, cfg)
    prof.disable()
    return prof, time.perf_counter() - t0, ntok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m measure.profile_clean", description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="en", choices=sorted(FILES))
    ap.add_argument("--lm-off", action="store_true", help="the language-model pass off")
    ap.add_argument("--top", type=int, default=45, help="functions printed")
    ap.add_argument("--sort", default="cumulative", choices=("cumulative", "tottime"))
    ap.add_argument("--out", type=Path, help="write the raw profile here")
    ap.add_argument(
        "--passes",
        action="store_true",
        help="no profiler: the CPU seconds of each pass (steadier than wall time on a shared machine)",
    )
    a = ap.parse_args(argv)
    prof, secs, ntok = profile(a.lang, not a.lm_off, a.passes)
    if isinstance(prof, dict):
        print(
            f"{a.lang}{' (LM off)' if a.lm_off else ''}: {ntok} tokens in {secs:.2f} CPU s ({ntok / secs:,.0f} tok/s)"
        )
        for name, t in sorted(prof.items(), key=lambda x: -x[1]):
            print(f"  {name:24} {t:7.2f} s  {100 * t / secs:5.1f} %")
        return 0
    print(f"{a.lang}{' (LM off)' if a.lm_off else ''}: {ntok} tokens in {secs:.2f} s under the profiler")
    if a.out:
        prof.dump_stats(str(a.out))
    pstats.Stats(prof).strip_dirs().sort_stats(a.sort).print_stats(a.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
