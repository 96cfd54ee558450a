"""Clean-stage thresholds chosen on folds of ICDAR 2017 dev (``make eval``), scored on the fold held out.

A threshold of the clean stage (a :class:`pipeline.clean.CleanConfig` field, ``data:NAME``: a field of
the lexicon data files, or ``lm:NAME,NAME``: fields of the language-model pass's settings, ``CleanConfig.lm``,
tried together) that was set by looking at ICDAR 2017 dev is chosen here the way the language-model margins are (:mod:`measure.evaluate_lm`): the
set's sentences run together ``DOC_LINES`` at a time (documents), each value of the field's grid cleans
every document (the whole cleaner, general resources, hyphen joining off), and each of five folds of
documents takes the value that did best on the other four (:func:`measure.folds.cross_validate`; ties go
to the earlier, most conservative value).  The figure reported is the pooled held-out CER; the shipped
default is the value most folds chose, and the row of the default is printed beside it (not held out:
it is the choice of all folds).  ``python -m measure.evaluate_settings [--lang en,fr] [--no-write]``
writes ``outputs/eval/settings.json``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from typing import Any

from rapidfuzz.distance import Levenshtein

from pipeline.clean import PROJECT_ROOT, CleanConfig, general_resources
from pipeline.clean.resources import CleanResources
from .evaluate_clean import clean_outside, icdar_documents, error_stats, normalise, write_json_atomic
from .evaluate_lm import K
from .folds import cross_validate, pooled

# language -> field -> values tried, most conservative first (the rule off, then ever looser)
GRID: dict[str, dict[str, tuple[Any, ...]]] = {
    # a line-end split with a fragment (``pa rishioner``) whose join is a word of general print (the
    # word-pair source) but rarer than lost_hyphen_min_zipf; French has no lost-hyphen rule
    "en": {
        "lost_hyphen_print_zipf": (99.0, 2.5, 2.0, 1.5, 1.0),
        # a possessive's split (``black smith's``) read by the same rule, its join without ``'s``
        "lost_hyphen_possessive": (False, True),
        # the specks of corpus/lexicon/blots.tsv (a data file: ``data:`` names a field of the lexicon data):
        # before 2026-12-01, and with a lone apostrophe, tilde and underscore (``fore '• 's public``)
        "data:blots": ("•■▼►™®¤", "•■▼►™®¤'~_"),
        # an apostrophe glued to a word's start that closes no quotation ('Hie, 'lass): debris
        "leading_apostrophe_langs": ((), ("en",)),
        # a lone lower-case letter between words (after the LM pass): a speck; then which letters may stand
        # alone (lone_letters.tsv: the word a only, or with the letters print uses as abbreviations)
        "lone_letter_langs": ((), ("en",)),
        "data:lone_letters": ("a", "ademos"),
        # a capitalised non-word (``Fountainbridgc``) gets the words of any frequency one cheap confusion away
        # as candidates, and such a word no voice knows a gain over the non-word (``lm:`` names settings of the
        # language-model pass, CleanConfig.lm: here the pair name_variant_cost, name_lexicon_gain)
        # a full stop after a word that never ends a sentence (corpus/lexicon/stray_stops.tsv): none, or the
        # English articles and coordinators (2026-12-02, with the misread marks and the capital after a stop)
        "data:stray_stops": ("", "the an and or"),
        # a repair right after a full stop that changes a first l restores the capital (lie -> He): off, on
        "capital_stems": ("", "l"),
        # a question mark between letters or before a comma read as s or e (corpus/lexicon/misread_marks.tsv)
        "data:misread_marks": ("", "?:se"),
        "lm:name_variant_cost,name_lexicon_gain": (
            (0.0, 0.0),
            (0.4, 2.0),
            (0.5, 3.0),
            (0.6, 3.0),
            (0.6, 4.0),
            (0.6, 5.0),
            (0.8, 4.0),
        ),
    },
    # French: none (the gold keeps most specks where the OCR printed them), or the black square alone
    "fr": {
        "data:blots": ("", "■"),
        "leading_apostrophe_langs": ((), ("fr",)),
        "lone_letter_langs": ((), ("fr",)),
        # (the French articles and conjunction a stray stop may follow; the data file lists none for French)
        "data:stray_stops": ("", "le la les des du et"),
        "capital_stems": ("", "l"),
        "data:misread_marks": ("", "?:se"),
    },
}


def choose(lang: str, field: str, values: tuple[Any, ...], quick: bool = False) -> dict[str, Any]:
    """Held-out stats of ``field`` chosen on folds over ``values``, the value each fold chose, and the
    stats of every value over the whole set (for the table; only the held-out row is a measurement)."""
    docs = icdar_documents(lang, quick)
    golds = [normalise(g) for _, g in docs]
    outs: dict[Any, list[str]] = {}
    base = general_resources(lang)
    data = field.removeprefix("data:") if field.startswith("data:") else None
    lm_fields = field.removeprefix("lm:").split(",") if field.startswith("lm:") else None
    for v in values:
        if data:
            cfg, res = CleanConfig(), CleanResources(lang, replace(base.lexdata, **{data: v}), base.general)
        elif lm_fields:
            c0 = CleanConfig()
            cfg, res = replace(c0, lm=replace(c0.lm, **dict(zip(lm_fields, v)))), base
        else:
            cfg, res = replace(CleanConfig(), **{field: v}), base
        outs[v] = clean_outside(f"icdar2017-{lang}-dev", lang, [o for o, _ in docs], cfg, res)[0]
        print(f"... {lang} {field}={v} cleaned", file=sys.stderr, flush=True)

    def run(idx, v):
        return [(outs[v][i], Levenshtein.distance(normalise(outs[v][i]), golds[i])) for i in idx]

    def loss(idx, res):
        return sum(d for _, d in res) / max(1, sum(len(golds[i]) for i in idx))

    folds = cross_validate(list(range(len(docs))), values, run, loss, K)
    held = [t for t, _ in pooled(len(docs), folds)]
    chosen = [f.setting for f in folds]
    return {
        "lang": lang,
        "field": field,
        "values": list(values),
        "chosen_per_fold": chosen,
        "majority": Counter(chosen).most_common(1)[0][0],
        "default": getattr(base.lexdata, data)
        if data
        else tuple(getattr(CleanConfig().lm, f) for f in lm_fields)
        if lm_fields
        else getattr(CleanConfig(), field),
        "held_out": error_stats([(o, t, g) for (o, g), t in zip(docs, held)]),
        "per_value": {str(v): error_stats([(o, t, g) for (o, g), t in zip(docs, outs[v])]) for v in values},
    }


def run(langs: tuple[str, ...] = ("en", "fr"), quick: bool = False, write: bool = True) -> list[dict[str, Any]]:
    rows = []
    for lang in langs:
        for field, values in GRID.get(lang, {}).items():
            r = choose(lang, field, values, quick)
            rows.append(r)
            st = r["held_out"]
            print(
                f"icdar2017-{lang}-dev {field}: folds chose {r['chosen_per_fold']} (default {r['default']})  held out "
                f"CER {st['cer_before'] * 100:.2f} -> {st['cer_after'] * 100:.2f} %  rel.red "
                f"{st['cer_rel_reduction'] * 100:.2f} %  right->wrong {st['right_made_wrong']}"
            )
            for v, s in r["per_value"].items():
                print(
                    f"    {field}={v:<6} (whole set) rel.red {s['cer_rel_reduction'] * 100:.2f} %  "
                    f"right->wrong {s['right_made_wrong']}"
                )
    if write and not quick:
        write_json_atomic(PROJECT_ROOT / "outputs" / "eval" / "settings.json", {"k": K, "settings": rows})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m measure.evaluate_settings", description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="en,fr", help="languages, comma-separated (default: en,fr)")
    ap.add_argument("--quick", action="store_true", help="the first 400 sentences of each set only")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args(argv)
    langs = tuple(x for x in args.lang.split(",") if x)
    bad = [x for x in langs if x not in ("en", "fr")]
    if bad:
        print(f"error: --lang {','.join(bad)}: want en and/or fr", file=sys.stderr)
        return 2
    run(langs, args.quick, not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
