"""Check that the real-word rules' spaCy tagger tags alike with thinc's plain numpy ops and with BLIS
(the cleaner runs the numpy ops for first-pass speed): ``python -m measure.check_tagger_ops [fr|en ...]``.

:func:`pipeline.clean.realwords.spacy_tagger` runs its model's matrix products through numpy
(``NumpyOps(use_blis=False)``), which is faster on this machine than thinc's default BLIS kernels.  The
two sum in different orders, so a tag could in principle change: this tags every ICDAR 2017 dev sentence
of each language with both and compares each token's offset, text, part of speech, fine tag and
morphology.  Prints the counts and both timings; exits 1 when a sentence differs.
"""

from __future__ import annotations

import sys
import time

from .evaluate_clean import read_icdar, shared_dir

FILES = {"fr": "ICDAR2017_fre_periodical_dev.tsv", "en": "ICDAR2017_eng_periodical_dev.tsv"}


def check(lang: str) -> tuple[int, int, int, float, float] | None:
    """(sentences, tokens, sentences tagged differently, seconds with BLIS, seconds with numpy); None when
    the language's model is not installed (the cleaner then tags nothing)."""
    import spacy

    from pipeline.clean.realwords import SPACY_EXCLUDE, SPACY_MODELS, spacy_tagger

    plain = spacy_tagger(lang)
    if plain is None:
        return None
    blis = spacy.load(SPACY_MODELS[lang], exclude=list(SPACY_EXCLUDE))  # (thinc's default ops)
    data = read_icdar(shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs" / FILES[lang])
    sents = [o for o, _ in data]
    tb = tn = 0.0
    diff = ntok = 0
    clock = time.perf_counter
    for s in sents:
        t0 = clock()
        a = blis(s)
        t1 = clock()
        b = plain(s)
        t2 = clock()
        tb += t1 - t0
        tn += t2 - t1
        ra = [(t.idx, t.text, t.pos_, t.tag_, str(t.morph)) for t in a]
        ntok += len(ra)
        diff += ra != [(t.idx, t.text, t.pos_, t.tag_, str(t.morph)) for t in b]
    return len(sents), ntok, diff, tb, tn


def main(argv: list[str] | None = None) -> int:
    langs = (argv if argv is not None else sys.argv[1:]) or ["fr"]
    bad = [x for x in langs if x not in FILES]
    if bad:
        print(f"error: unknown language {bad[0]!r} (fr or en)", file=sys.stderr)
        return 2
    worst = 0
    for lang in langs:
        got = check(lang)
        if got is None:
            print(f"{lang}: no spaCy model installed (nothing is tagged)")
            continue
        n, ntok, diff, tb, tn = got
        print(
            f"{lang}: {n} sentences, {ntok} tokens; tagged differently: {diff}; "
            f"BLIS {tb:.2f} s, numpy {tn:.2f} s ({tb / tn:.2f}x)"
        )
        worst = max(worst, diff)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
