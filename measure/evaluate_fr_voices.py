"""Measure the French voices of the language-model pass on ICDAR 2017 French dev, tuned on folds by document.

The same protocol as :mod:`measure.evaluate_lm` (20-line documents, the cleaner without its LM pass, the pass's
margins chosen on 4 folds and scored on the fifth, pooled held-out CER), for each set of French voices: the
default (the witness's own pairs, period words), with the optional ``LMConfig.extra_voices`` ("unigram":
wordfreq frequencies; "grammar": Grammalecte's rules) on, one at a time and together, and each default voice
off.  ``python -m measure.evaluate_fr_voices [--quick]``; prints one row per setting.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace

from pipeline import lm
from pipeline.clean import CleanConfig, general_resources
from .evaluate_clean import _clean_outside, error_stats
from .evaluate_lm import PROPOSAL_AXES, documents, grid, held_out, proposal_key

ROWS: tuple[tuple[str, tuple[str, ...], frozenset[str]], ...] = (
    ("default voices", (), frozenset()),
    ("+ unigram", ("unigram",), frozenset()),
    ("+ grammar", ("grammar",), frozenset()),
    ("+ unigram + grammar", ("unigram", "grammar"), frozenset()),
    ("without witness pairs", (), frozenset({"doc"})),
    ("without period words", (), frozenset({"period"})),
)


def run(quick: bool = False) -> list[tuple[str, dict, list]]:
    cfg = replace(CleanConfig(), lm_words=False)
    docs = documents("fr", quick)
    cleaned, _, _, _ = _clean_outside("icdar2017-fr-dev", "fr", [o for o, _ in docs], cfg)
    rep = general_resources("fr").repairer(replace(cfg, join_hyphens=False))
    settings = grid(quick)
    out: list[tuple[str, dict, list]] = [
        ("raw", error_stats([(o, o, g) for o, g in docs]), []),
        ("clean", error_stats([(o, c, g) for (o, g), c in zip(docs, cleaned)]), []),
    ]
    for label, extra, off in ROWS:
        t0 = time.perf_counter()
        vcfg = replace(lm.LMConfig(), extra_voices=extra)
        voices = [lm.voice_for(c, rep, vcfg, off=off) for c in cleaned]
        props_by = {
            k: [lm.proposals(c, rep, v, replace(vcfg, **dict(zip(PROPOSAL_AXES, k)))) for c, v in zip(cleaned, voices)]
            for k in sorted({proposal_key(s) for s in settings})
        }
        texts, folds = held_out(docs, cleaned, props_by, settings)
        st = error_stats([(o, t, g) for (o, g), t in zip(docs, texts)])
        out.append((label, st, folds))
        print(f"... {label} {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    for label, st, folds in out:
        chosen = "; ".join(
            f"m{f.setting.margin}/cs{f.setting.channel_scale}/rare{f.setting.rare_margin}/real{f.setting.realword_margin}"
            for f in folds
        )
        print(
            f"{label:24} CER {st['cer_before'] * 100:6.2f} -> {st['cer_after'] * 100:6.2f} %  "
            f"rel.red {st['cer_rel_reduction'] * 100:6.2f} %  right->wrong {st['right_made_wrong']:4d} "
            f"({st['right_made_wrong_rate'] * 100:.3f} %)  {chosen}"
        )
    return out


if __name__ == "__main__":
    run(quick="--quick" in sys.argv[1:])
