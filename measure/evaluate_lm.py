"""Measure the language-model voice (:mod:`pipeline.lm`) on ICDAR 2017 dev, tuned on folds by document.

Each set's sentences are run together ``DOC_LINES`` at a time (documents, as :mod:`measure.evaluate_clean`
does), cleaned by the cleaner (general resources, hyphen joining off), then the LM pass's doubtful
tokens and their candidates are computed once; its weights and margins (:class:`pipeline.lm.LMConfig`)
are chosen on 4 folds of documents and applied to the fifth (:func:`measure.folds.cross_validate`):
the CER reported is that of the held-out folds pooled, nothing is tuned on the documents it is scored
on.  The ablation rows leave one voice out (``trigram``, ``pairs``, ``doc``, ``period``), tuned the same
way.  ``python -m measure.evaluate_lm [--quick] [--lang en|fr]``; writes ``outputs/eval/lm.json``.
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import asdict, replace
from typing import Any

from rapidfuzz.distance import Levenshtein

from pipeline import lm
from pipeline.clean import PROJECT_ROOT, CleanConfig, general_resources
from .evaluate_clean import DOC_LINES, _clean_outside, error_stats, normalise, read_icdar, shared_dir, write_json_atomic
from .folds import cross_validate, pooled

SETS = {"en": "ICDAR2017_eng_periodical_dev.tsv", "fr": "ICDAR2017_fre_periodical_dev.tsv"}
K = 5


def grid(quick: bool = False) -> list[lm.LMConfig]:
    """The settings tried on each fold, most conservative first (ties go to the earlier one)."""
    base = lm.LMConfig()
    axes = {
        # (only channel_scale / lam matters against margins in lam units: lam stays 1)
        "channel_scale": (2.5, 2.0, 1.5),
        "margin": (1.0, 0.0, -1.0),
        "name_margin": (99.0, 1.0, 0.0),
        "rare_margin": (99.0, 5.0, 3.0),
        "realword_margin": (99.0, 2.5, 1.5, 1.0),
        # (a setting of the proposals, not only of the decision: each value has its own proposals, PROPOSAL_AXES)
        "frequent_zipf": (99.0, 5.5, 5.0, 4.5),
        "letter_margin": (99.0, 2.0, 1.0),
    }
    if quick:
        axes = {
            "lam": (1.0,),
            "channel_scale": (2.0,),
            "margin": (2.0, 1.0),
            "name_margin": (99.0, 1.0),
            "rare_margin": (99.0, 5.0),
            "realword_margin": (99.0, 3.0),
            "frequent_zipf": (99.0, 5.5),
            "letter_margin": (99.0, 1.0),
        }
    keys = list(axes)
    # (the grid searches every margin in every language: strong_langs names all of them here)
    base = replace(base, strong_langs=("en", "fr"))
    # (every axis is a float field of LMConfig)
    return [
        replace(base, **dict(zip(keys, vals)))  # type: ignore[arg-type]
        for vals in itertools.product(*(axes[k] for k in keys))
    ]


PROPOSAL_AXES = ("frequent_zipf",)  # LMConfig fields that change the proposals themselves


def proposal_key(cfg: lm.LMConfig) -> tuple:
    return tuple(getattr(cfg, k) for k in PROPOSAL_AXES)


def documents(lang: str, quick: bool = False) -> list[tuple[str, str]]:
    data = read_icdar(shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs" / SETS[lang])
    if quick:
        data = data[:400]
    return [
        (
            "\n".join(o.replace("\n", " ") for o, _ in data[i : i + DOC_LINES]),
            "\n".join(g.replace("\n", " ") for _, g in data[i : i + DOC_LINES]),
        )
        for i in range(0, len(data), DOC_LINES)
    ]


def held_out(docs, cleaned, props_by, settings) -> tuple[list[str], list]:
    """Pooled held-out texts of the LM pass over ``cleaned`` (``props_by``: the proposals of each document by
    :func:`proposal_key` of a setting), and the folds."""
    golds = [normalise(g) for _, g in docs]
    items = list(range(len(docs)))

    # (lam, channel_scale, proposals) -> per document, each proposal's best score, its lead over the next
    # candidate and the verdict that applies it: a setting's margins then only choose which apply
    ranks: dict = {}
    texts: list[dict] = [{} for _ in docs]  # per document: the applied proposals -> (text, distance)
    anyway = dict(margin=-1e9, realword_margin=-1e9, rare_margin=-1e9, name_margin=-1e9, letter_margin=-1e9)

    def run(idx, cfg):
        key = (cfg.lam, cfg.channel_scale, proposal_key(cfg))
        props = props_by[proposal_key(cfg)]
        if key not in ranks:
            loose = replace(cfg, separation=-1e9, **anyway)
            ranks[key] = [
                [
                    (
                        p,
                        r[0][0] if r else -99.0,
                        r[0][0] - (r[1][0] if len(r) > 1 else -99.0) if r else 0.0,
                        lm.decide(p, loose, r),
                    )
                    for p, r in ((p, lm.rank(p, cfg)) for p in ps)
                ]
                for ps in props
            ]
        rk = ranks[key]
        out = []
        for i in idx:
            applied = tuple(
                j
                for j, (p, best, lead, _v) in enumerate(rk[i])
                if best >= lm.margin_of(p, cfg) and lead >= cfg.separation and rk[i][j][3].after is not None
            )
            hit = texts[i].get((key, applied))
            if hit is None:
                t = lm.apply_verdicts(cleaned[i], [rk[i][j][3] for j in applied])
                hit = texts[i][key, applied] = (t, Levenshtein.distance(normalise(t), golds[i]))
            out.append(hit)
        return out

    def loss(idx, outs):
        return sum(d for _, d in outs) / max(1, sum(len(golds[i]) for i in idx))

    folds = cross_validate(items, settings, run, loss, K)
    return [t for t, _ in pooled(len(docs), folds)], folds


def run(langs=("en", "fr"), quick: bool = False, no_ablation: bool = False) -> dict:
    cfg = replace(CleanConfig(), lm_words=False)  # the cleaner without this pass: its proposals come after it
    res_all: dict[str, Any] = {"k": K, "doc_lines": DOC_LINES, "sets": []}
    settings = grid(quick)
    for lang in langs:
        docs = documents(lang, quick)
        cleaned, dt, _, _ = _clean_outside(f"icdar2017-{lang}-dev", lang, [o for o, _ in docs], cfg)
        rep = general_resources(lang).repairer(replace(cfg, join_hyphens=False))
        name = f"icdar2017-{lang}-dev"
        raw_st = error_stats([(o, o, g) for o, g in docs])
        cl_st = error_stats([(o, c, g) for (o, g), c in zip(docs, cleaned)])
        rows = [(name, "raw", raw_st), (name, "clean", cl_st)]
        ablations: list[frozenset[str]] = [frozenset()] + ([] if no_ablation else [frozenset([v]) for v in lm.VOICES])
        learnt = []
        for off in ablations:
            t0 = time.perf_counter()
            voices = [lm.voice_for(c, rep, off=off) for c in cleaned]
            props_by = {
                k: [
                    lm.proposals(c, rep, v, replace(lm.LMConfig(), **dict(zip(PROPOSAL_AXES, k))))
                    for c, v in zip(cleaned, voices)
                ]
                for k in sorted({proposal_key(s) for s in settings})
            }
            texts, folds = held_out(docs, cleaned, props_by, settings)
            st = error_stats([(o, t, g) for (o, g), t in zip(docs, texts)])
            label = "clean+lm(folds)" if not off else f"  without {next(iter(off))}"
            rows.append((name, label, st))
            if not off:
                learnt = [asdict(f.setting) for f in folds]
                props = props_by[proposal_key(folds[0].setting)]
                nflag = sum(1 for ps in props for p in ps if lm.decide(p, folds[0].setting).flag)
            print(f"... {name} {label} {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
        for s, m, st in rows:
            print(
                f"{s:20} {m:22} CER {st['cer_before'] * 100:6.2f} -> {st['cer_after'] * 100:6.2f} %  "
                f"rel.red {st['cer_rel_reduction'] * 100:6.2f} %  right->wrong {st['right_made_wrong']:4d} "
                f"({st['right_made_wrong_rate'] * 100:.3f} %)"
            )
        res_all["sets"].append(
            {
                "set": name,
                "rows": [{"method": m, **st} for _, m, st in rows],
                "settings_per_fold": learnt,
                "flags_at_fold1_setting": nflag,
            }
        )
    if not quick and not no_ablation:
        write_json_atomic(PROJECT_ROOT / "outputs" / "eval" / "lm.json", res_all)
    return res_all


if __name__ == "__main__":
    args = sys.argv[1:]
    langs = tuple(args[args.index("--lang") + 1].split(",")) if "--lang" in args else ("en", "fr")
    run(langs, quick="--quick" in args, no_ablation="--no-ablation" in args)
