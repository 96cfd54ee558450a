"""Measure the language-model voice (:mod:`pipeline.clean.lm`) on ICDAR 2017 dev, tuned on folds by document.

Each set's sentences are run together ``DOC_LINES`` at a time (documents, as :mod:`measure.evaluate_clean`
does), cleaned by the cleaner (general resources, hyphen joining off), then the LM pass's doubtful
tokens and their candidates are computed once; its weights and margins (:class:`pipeline.clean.config.LMConfig`)
are chosen on 4 folds of documents and applied to the fifth (:func:`measure.folds.cross_validate`):
the CER reported is that of the held-out folds pooled, nothing is tuned on the documents it is scored
on.  The ablation rows leave one voice out (``trigram``, ``pairs``, ``doc``, ``period``), tuned the same
way.  The channel's confusions are learnt on the same folds (:mod:`measure.learn_confusions`): each
held-out fold is cleaned with the hand rows of ``confusions.tsv`` plus the rows learnt on the other four
folds (``--channel hand``: the hand rows alone, the shipped table before it was learnt).
With ``--channel choose`` (the default) the folds also choose the channel among ``CHANNEL_GRID`` (the hand
rows alone, or with the rows learnt at two settings): each fold takes the one whose LM pass did best on the
other folds.  The voice ablations run with one channel (``--channel learnt``, ``--learn`` settings).
``python -m measure.evaluate_lm [--quick] [--lang en|fr] [--channel choose|learnt|hand] [--learn k=v,...]
[--no-ablation] [--off VOICE,...]``; the default run writes ``outputs/eval/lm.json``.
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import asdict, replace
from typing import Any

from rapidfuzz.distance import Levenshtein

from pipeline.clean import lm
from pipeline.clean import DEFAULT_CORPUS, PROJECT_ROOT, CleanConfig, clean_text, general_resources
from pipeline.clean.lmwords import LM_WORDS
from pipeline.clean.registry import REGISTRY
from pipeline.clean.lexicon import merge_confusions, read_confusions
from pipeline.clean.resources import CleanResources
from .evaluate_clean import DOC_LINES, clean_outside, error_stats, icdar_documents, normalise, write_json_atomic
from .folds import cross_validate, doc_folds, pooled
from .learn_confusions import LearnConfig, learn

K = 5


def grid(quick: bool = False) -> list[lm.LMConfig]:
    """The settings tried on each fold, most conservative first (ties go to the earlier one)."""
    base = lm.LMConfig()
    axes = {
        # (only channel_scale / lam matters against margins in lam units: lam stays 1)
        "channel_scale": (2.5, 2.0, 1.5),
        "margin": (1.0, 0.0, -1.0, -2.0),
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


PROPOSAL_AXES = ("frequent_zipf", "w_vectors")  # LMConfig fields that change the proposals themselves


def proposal_key(cfg: lm.LMConfig) -> tuple:
    return tuple(getattr(cfg, k) for k in PROPOSAL_AXES)


def held_out(docs, cleaned, props_by, settings, post=lambda t: t) -> tuple[list[str], list]:
    """Pooled held-out texts of the LM pass over ``cleaned`` (``props_by``: the proposals of each document by
    :func:`proposal_key` of a setting; ``post``: the cleaner's passes after the LM pass), and the folds."""
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
                t = post(lm.apply_verdicts(cleaned[i], [rk[i][j][3] for j in applied]))
                hit = texts[i][key, applied] = (t, Levenshtein.distance(normalise(t), golds[i]))
            out.append(hit)
        return out

    def loss(idx, outs):
        return sum(d for _, d in outs) / max(1, sum(len(golds[i]) for i in idx))

    folds = cross_validate(items, settings, run, loss, K)
    return [t for t, _ in pooled(len(docs), folds)], folds


CHANNELS = (
    "learnt",
    "hand",
    "all",
    "choose",
)  # the confusions of the channel: hand rows + rows learnt on the training folds, or hand rows only


def channel_resources(lang: str, confusions) -> CleanResources:
    """The general resources of ``lang`` with the channel's confusions replaced by ``confusions``."""
    base = general_resources(lang)
    return CleanResources(lang, replace(base.lexdata, confusions=tuple(confusions)), base.general)


def fold_confusions(
    docs, lang: str, channel: str, lcfg: LearnConfig = LearnConfig(), prefer: str = "hand"
) -> list[tuple]:
    """Per fold of :func:`doc_folds` (``K``): the channel's confusions learnt WITHOUT that fold's documents
    (hand rows + rows learnt on the training folds), or the hand rows alone (``channel="hand"``).
    ``channel="all"`` learns one table from every document: IN-SAMPLE, for exploring only (no held-out figure)."""
    hand = read_confusions(DEFAULT_CORPUS / "lexicon" / "confusions.tsv")

    def table(learn_from) -> tuple:
        learnt = [(c.printed, c.intended, c.cost) for c in learn(learn_from, lcfg)] if learn_from else []
        return tuple(merge_confusions(hand, learnt, prefer))

    if channel == "all":
        return [table(docs)]
    return [table([docs[i] for i in train] if channel == "learnt" else []) for train, _test in doc_folds(len(docs), K)]


# the cleaner's passes after the LM pass (run() cleans with them switched off, held_out runs them after it)
AFTER_LM = REGISTRY[REGISTRY.index(LM_WORDS) + 1 :]


def after_lm(text: str, lang: str, res: CleanResources) -> str:
    """``text`` (the LM pass's output) through the passes that follow it in the cleaner (:data:`AFTER_LM`)."""
    return clean_text(text, lang, res, CleanConfig(join_hyphens=False), passes=AFTER_LM)


def clean_with(res: CleanResources, lang: str, name: str, texts: list[str], cfg: CleanConfig) -> list[str]:
    """The cleaner on texts from outside the corpus (hyphen joining off), with the resources ``res``."""
    return clean_outside(name, lang, texts, cfg, res)[0]


# the channels the folds choose among with ``--channel choose`` (most conservative first: ties go to it)
CHANNEL_GRID: tuple[tuple[str, LearnConfig | None], ...] = (
    ("hand", None),
    ("learnt", LearnConfig(scale=1.0, min_count=3)),
    ("learnt-cheap", LearnConfig(scale=0.7, min_count=2, top_n=100)),
    # (also the glyph groups of short words beyond the near-miss cap, tire / the: ir -> h; 130 rows)
    ("learnt-blocks", LearnConfig(scale=0.7, min_count=2, top_n=130, one_block=True)),
)


def _per_fold(docs, lang, name, confs, ablations, settings, cfg, splits, label) -> dict:
    """One channel's held-out outputs: per fold of ``splits``, every document cleaned with that fold's
    table (``confs``; one table alone serves every fold), the LM pass's settings chosen on the other folds
    and applied to it.  Returns per document the cleaned and the LM-passed texts (of its own fold's table),
    and per fold the training loss of the setting chosen, the setting and its flags."""
    n = len(docs)
    out: dict[str, Any] = {
        "cleaned": [""] * n,
        "texts": {off: [""] * n for off in ablations},
        "train_loss": [0.0] * len(splits),
        "settings": [None] * len(splits),
        "nflag": [0] * len(splits),
        "confs": confs,
    }
    for t, conf in enumerate(confs):
        t0 = time.perf_counter()
        res = channel_resources(lang, conf)
        cleaned = clean_with(res, lang, name, [o for o, _ in docs], cfg)
        rep = res.repairer(replace(cfg, join_hyphens=False))
        fs_here = range(len(splits)) if len(confs) == 1 else [t]
        for f in fs_here:
            for i in splits[f][1]:
                out["cleaned"][i] = cleaned[i]
        print(
            f"... {name} channel {label} table {t}: {len(conf)} rows, cleaned {time.perf_counter() - t0:.1f}s",
            file=sys.stderr,
            flush=True,
        )
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
            texts, folds = held_out(docs, cleaned, props_by, settings, lambda t: after_lm(t, lang, res))
            for f in fs_here:
                for i in splits[f][1]:
                    out["texts"][off][i] = texts[i]
                if not off:
                    out["train_loss"][f] = folds[f].train_loss
                    out["settings"][f] = asdict(folds[f].setting)
                    props = props_by[proposal_key(folds[f].setting)]
                    out["nflag"][f] = sum(
                        1 for i in splits[f][1] for p in props[i] if lm.decide(p, folds[f].setting).flag
                    )
            print(f"... {name} {label} {sorted(off)} {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    return out


def run(
    langs=("en", "fr"),
    quick: bool = False,
    no_ablation: bool = False,
    channel: str = "choose",
    voices_off=None,
    lcfg: LearnConfig = LearnConfig(),
    prefer: str = "hand",
    dump: str | None = None,
) -> dict:
    """Held-out rows per set.  With ``channel="learnt"`` each fold is cleaned (and its LM pass proposed)
    with the confusions learnt on the other folds, and its LM settings are chosen on those other folds'
    documents cleaned with the same table: nothing of a held-out fold is learnt from it."""
    # the cleaner up to this pass (its proposals come after it); the passes after it run on its output
    cfg = replace(CleanConfig(), lm_words=False, lone_letter_langs=())
    res_all: dict[str, Any] = {"k": K, "doc_lines": DOC_LINES, "channel": channel, "sets": []}
    settings = grid(quick)
    for lang in langs:
        docs = icdar_documents(lang, quick)
        name = f"icdar2017-{lang}-dev"
        ablations: list[frozenset[str]] = [frozenset()] + (
            [] if no_ablation or channel == "choose" else [frozenset([v]) for v in (voices_off or lm.VOICES)]
        )
        n = len(docs)
        splits = doc_folds(n, K)
        variants = CHANNEL_GRID if channel == "choose" else ((channel, lcfg),)
        runs = {}
        for label, vcfg in variants:
            confs = fold_confusions(
                docs,
                lang,
                "hand" if vcfg is None else channel if channel != "choose" else "learnt",
                vcfg or lcfg,
                prefer,
            )
            if len(set(confs)) == 1:
                confs = confs[:1]  # (the hand rows alone: one table for every fold)
            runs[label] = _per_fold(docs, lang, name, confs, ablations, settings, cfg, splits, label)
        # per fold, the variant whose LM pass did best on the training folds (ties: the earlier, the hand rows)
        chosen = [min(runs, key=lambda v: (runs[v]["train_loss"][f], list(runs).index(v))) for f in range(K)]
        cleaned_ho: list[str] = [""] * n
        texts_by: dict[frozenset[str], list[str]] = {off: [""] * n for off in ablations}
        learnt: list = []
        nflag = 0
        for f, (_train, test) in enumerate(splits):
            r = runs[chosen[f]]
            for i in test:
                cleaned_ho[i] = r["cleaned"][i]
                for off in ablations:
                    texts_by[off][i] = r["texts"][off][i]
            learnt.append(r["settings"][f])
            nflag += r["nflag"][f]
        confs = [c for r in runs.values() for c in r["confs"]]
        if dump:
            import json

            with open(f"{dump}.{lang}.json", "w", encoding="utf-8") as fh:
                json.dump({"docs": docs, "cleaned": cleaned_ho, "texts": texts_by[frozenset()]}, fh)
        raw_st = error_stats([(o, o, g) for o, g in docs])
        cl_st = error_stats([(o, c, g) for (o, g), c in zip(docs, cleaned_ho)])
        rows = [(name, "raw", raw_st), (name, f"clean[{channel}]", cl_st)]
        for off in ablations:
            st = error_stats([(o, t, g) for (o, g), t in zip(docs, texts_by[off])])
            label = f"clean+lm(folds)[{channel}]" if not off else f"  without {next(iter(off))}"
            rows.append((name, label, st))
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
                "flags_at_fold_settings": nflag,
                "confusion_rows_per_table": [len(c) for c in confs],
                "channel_per_fold": chosen,
                "channel_train_loss_per_fold": {v: r["train_loss"] for v, r in runs.items()},
            }
        )
    if not quick and channel == "choose" and not voices_off and prefer == "hand":
        path = PROJECT_ROOT / "outputs" / "eval" / "lm.json"
        write_json_atomic(path, with_earlier_sets(path, res_all))
    return res_all


def with_earlier_sets(path, res: dict) -> dict:
    """``res`` with the sets of the file at ``path`` that it did not measure kept after its own (a run of one
    language, ``--lang fr``, leaves the other's figures in ``lm.json``), when that file was written with the
    same folds and documents; otherwise ``res`` alone."""
    import json

    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return res
    if not isinstance(old, dict) or (old.get("k"), old.get("doc_lines")) != (res["k"], res["doc_lines"]):
        return res
    mine = {s["set"] for s in res["sets"]}
    kept = [s for s in old.get("sets", []) if isinstance(s, dict) and s.get("set") not in mine]
    return {**res, "sets": res["sets"] + kept}


def main(argv: list[str] | None = None) -> int:
    import argparse

    from .learn_confusions import with_overrides

    ap = argparse.ArgumentParser(
        prog="python -m measure.evaluate_lm",
        description="The language-model pass on ICDAR 2017 dev, tuned on folds by document, held-out CER.",
    )
    ap.add_argument("--lang", default="en,fr", help="languages, comma-separated (default: en,fr)")
    ap.add_argument("--channel", default="choose", choices=CHANNELS, help="the channel's confusions (default: choose)")
    ap.add_argument("--off", help="voices left out, comma-separated (trigram, pairs, doc, period)")
    ap.add_argument("--learn", default="", help="LearnConfig fields as key=value,... for the learnt rows")
    ap.add_argument(
        "--prefer", default="hand", choices=("hand", "min", "learnt"), help="whose cost a pair in both keeps"
    )
    ap.add_argument("--dump", help="write the held-out outputs to this file")
    ap.add_argument("--quick", action="store_true", help="the first documents only (nothing written)")
    ap.add_argument("--no-ablation", action="store_true", help="skip the voice-ablation rows")
    a = ap.parse_args(argv)
    try:
        lcfg = with_overrides(LearnConfig(), a.learn)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    run(
        tuple(a.lang.split(",")),
        quick=a.quick,
        no_ablation=a.no_ablation,
        channel=a.channel,
        voices_off=tuple(a.off.split(",")) if a.off else None,
        lcfg=lcfg,
        prefer=a.prefer,
        dump=a.dump,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
