"""The language-model pass: doubtful words judged by the noisy channel with a language model
(:mod:`pipeline.clean.lm`), after the other word passes.

For each doubtful token (a non-word, a word with debris or digits inside, a real word one cheap OCR
confusion from another), its channel candidates are scored by ``lam`` x the change of the window's
log10 probability (two words each side) minus ``channel_scale`` x the channel cost; the best replaces
the printed token when it gains the margin of its kind, and a non-word left as printed is flagged with
the reason (never a word that was changed).  Settings: ``CleanConfig.lm`` (learnt on ICDAR 2017 dev
folds by :mod:`measure.evaluate_lm`)."""

from __future__ import annotations

from dataclasses import replace

from . import lm
from ..junk import DEBRIS_ALONE
from .edits import Edit, non_overlapping
from .outcomes import outcome_repairs
from .passes import Pass, PassContext, PassResult
from .tokens import sentence_case


def _lm_words(text: str, ctx: PassContext) -> PassResult:
    cfg = ctx.cfg.lm
    if not ctx.lex.domain and cfg.general_rare_margin != cfg.rare_margin:
        cfg = replace(cfg, rare_margin=cfg.general_rare_margin)
    cfg = cfg.for_lang(ctx.lang)
    voice = lm.voice_for(text, ctx.rep, cfg)
    edits, flags = [], []
    if ctx.lang == "fr":  # (French: the laws' outcome phrases as context, where no n-gram model exists)
        edits = outcome_repairs(text, ctx.lex.phrases, ctx.rep.channel, ctx.rep.protected)
    done = [(e.start, e.end) for e in edits]
    props = lm.proposals(text, ctx.rep, voice, cfg, prune=True)  # (prune: speed only)
    verdicts = [lm.decide(p, cfg) for p in props]
    if any(p.split for p in props):
        # a split word's repair and its tokens' own: the better gain is judged, the other left out
        order = sorted(range(len(props)), key=lambda k: -verdicts[k].gain if verdicts[k].after is not None else 99.0)
        won: list[tuple[int, int]] = []
        keep = set()
        for k in order:
            p = props[k]
            if verdicts[k].after is None or not any(a < p.end and p.start < b for a, b in won):
                keep.add(k)
                if verdicts[k].after is not None:
                    won.append((p.start, p.end))
        props, verdicts = [props[k] for k in sorted(keep)], [verdicts[k] for k in sorted(keep)]
        verdicts = [
            v if v.after is not None or not any(a < p.end and p.start < b for a, b in won) else replace(v, flag=False)
            for p, v in zip(props, verdicts)
        ]
    for p, v in zip(props, verdicts):
        if done and any(a < p.end and p.start < b for a, b in done):
            continue
        if v.after is not None and v.after != p.printed:
            conf = round(1.0 / (1.0 + 10 ** -(v.gain - cfg.margin)), 3)
            kind = "real_word" if p.known else "spelling"
            after, why = sentence_case(text, p.start, p.printed, v.after, ctx.cfg.capital_stems), v.evidence
            old = ctx.rep.period_repair(p.printed, after)
            if old is not None:
                after, why = old, f"{why}; the period spelling {old!r} of {after!r} is nearer to the print"
            edits.append(
                Edit(
                    p.start,
                    p.end,
                    after,
                    kind,
                    "lm:trigram+pairs+witness" if voice.tri is not None else "lm:witness-pairs",
                    conf,
                    v.candidates,
                    why,
                    p.name
                    and v.gain >= cfg.name_vouch_gain
                    and ctx.rep.zipf_of(v.after.lower()) >= cfg.name_vouch_zipf,
                )
            )
        elif v.flag:
            flags.append(
                (
                    p.start,
                    p.end,
                    p.printed,
                    v.candidates,
                    0.0,
                    "junk: debris or digits inside a word"
                    if p.junk
                    else "non-word: no lexicon knows it" + ("; " + v.evidence if v.candidates else ""),
                )
            )
    taken = [(e.start, e.end) for e in edits] + [(f[0], f[1]) for f in flags]
    for s, e, t, cands, why in lm.witness_slips(text, ctx.rep, voice, cfg):
        if not any(a < e and s < b for a, b in taken):
            flags.append((s, e, t, cands, 0.0, why))
    for m in DEBRIS_ALONE.finditer(text):
        if not text[: m.start()].rstrip()[-1:].isdigit():
            flags.append((m.start(), m.end(), m.group(), (), 0.0, "junk: debris between words"))
    return PassResult(non_overlapping(edits), flags)


LM_WORDS = Pass(
    "lm-words",
    _lm_words,
    ("repair_words", "lm_words"),
    doc="doubtful words judged by channel cost and a language model over two words each side (non-words left are flagged)",
)
