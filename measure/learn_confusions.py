"""Learn the OCR channel's confusions and their costs from (OCR, gold) text pairs.

:func:`learn` aligns the OCR and gold tokens of each document as :func:`measure.evaluate_clean.word_ceiling`
does (``Levenshtein.opcodes`` over the token lists; one-to-one near misses only), aligns the characters of
each differing pair (``Levenshtein.opcodes``; adjacent edits merged into one block, so ``rn``/``m``,
``li``/``h``, ``tb``/``th`` come out whole) and counts each block (printed side, intended side), lower case.
A block with an empty printed side (the OCR lost a letter) takes the printed letter before it on both sides
(``th`` printed ``t``: ``t`` / ``th``): the channel's confusions need a printed side.

The cost of a confusion is ``-log10 P(printed | intended) / D``, clipped to ``[floor, 1]``: ``P`` is its
count over the occurrences of the intended side in the gold tokens plus ``prior_n`` (a pseudo-count that
keeps a rarely seen intended side from looking certain), and ``D`` is ``-log10`` of the probability of one
given plain substitution (all single-letter substitutions over gold letters x letters of the alphabet): a
confusion as likely as an arbitrary substitution costs 1.0, the channel's plain edit.  Only confusions
seen ``min_count`` times and cheaper than ``max_cost`` are kept, at most ``top_n`` (by count).

``python -m measure.learn_confusions en:SETTINGS fr:SETTINGS`` learns from ALL the ICDAR 2017 dev documents of
each language and writes ``corpus/lexicon/confusions_learnt.tsv`` (counts and costs only, no text); the
held-out figures learn on training folds instead (:mod:`measure.evaluate_lm`, which also chooses among
settings on the folds: the shipped settings are those it chose).
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from rapidfuzz.distance import Levenshtein


@dataclass(frozen=True)
class LearnConfig:
    """Settings of :func:`learn` (defaults: the shipped table's)."""

    min_count: int = 3  # a block seen fewer times is not kept
    max_block: int = 3  # longest side of a block, in characters
    prior_n: float = 20.0  # pseudo-occurrences of the intended side (smoothing)
    floor: float = 0.15  # cheapest cost a learnt confusion gets
    max_cost: float = 0.9  # dearer confusions are not kept (a plain edit costs 1.0)
    top_n: int = 200  # at most this many confusions (the most often seen): candidates and speed
    alphabet: int = 26  # letters a plain substitution can give (for D)
    scale: float = 1.0  # every learnt cost times this (before the clipping)
    # also count the aligned pairs beyond the near-miss distance whose difference is ONE block (tire / the:
    # ir -> h; ami / and: mi -> nd): a single misread glyph group, which the near-miss cap leaves out of short words
    one_block: bool = False


@dataclass(frozen=True)
class Confusion:
    printed: str
    intended: str
    cost: float
    count: int
    occurrences: int  # of the intended side in the gold tokens


def token_pairs(ocr: str, gold: str, max_block: int = 0) -> tuple[list[tuple[str, str]], list[str]]:
    """The one-to-one near-miss (OCR token, gold token) pairs of a document, and all its aligned gold
    tokens (equal and near-miss: the occurrences of the intended sides), both lower case (``word_ceiling``'s
    alignment).  ``max_block`` > 0: also the other one-to-one pairs whose difference is a single block of at
    most that many characters a side (:attr:`LearnConfig.one_block`)."""
    from .evaluate_clean import near_miss_alignment, normalise

    ot, gt = normalise(ocr).lower().split(), normalise(gold).lower().split()
    pairs: list[tuple[str, str]] = []
    seen: list[str] = []
    for i, j, equal in near_miss_alignment(ot, gt, one_block=max_block):
        seen.append(gt[j])
        if not equal:
            pairs.append((ot[i], gt[j]))
    return pairs, seen


def blocks(a: str, b: str) -> list[tuple[str, str]]:
    """The edit blocks (printed, intended) of printed ``a`` against intended ``b``: adjacent edits merged,
    an empty printed side widened by the printed letter before it (or after it at the start); letters
    missing or added at the end of the printed word are left out (mostly another form of the word)."""
    out = []
    ops = [op for op in Levenshtein.opcodes(a, b)]
    i = 0
    while i < len(ops):
        if ops[i].tag == "equal":
            i += 1
            continue
        s1, s2 = ops[i].src_start, ops[i].dest_start
        while i < len(ops) and ops[i].tag != "equal":
            e1, e2 = ops[i].src_end, ops[i].dest_end
            i += 1
        if e1 == len(a) and (s1 == e1 or s2 == e2):
            continue  # (letters missing or added at the end: mostly another form of the word, name/names)
        if s1 == e1:  # nothing printed: take a neighbour letter on both sides
            if s1 > 0:
                s1, s2 = s1 - 1, s2 - 1
            elif e1 < len(a):
                e1, e2 = e1 + 1, e2 + 1
            else:
                continue
        out.append((a[s1:e1], b[s2:e2]))
    return out


def learn(docs: Sequence[tuple[str, str]], cfg: LearnConfig = LearnConfig()) -> list[Confusion]:
    """The confusions of the (OCR text, gold text) documents ``docs``, most often seen first."""
    counts: Counter[tuple[str, str]] = Counter()
    gold_tokens: Counter[str] = Counter()
    single_subs = 0
    for ocr, gold in docs:
        pairs, seen = token_pairs(ocr, gold, cfg.max_block if cfg.one_block else 0)
        gold_tokens.update(seen)
        for a, b in pairs:
            for p, q in blocks(a, b):
                if len(p) == 1 and len(q) == 1:
                    single_subs += 1
                # (letters only: punctuation and digits are other passes' work)
                if 0 < len(p) <= cfg.max_block and len(q) <= cfg.max_block and (p + q).isalpha():
                    counts[p, q] += 1
    letters = sum(len(t) * n for t, n in gold_tokens.items())
    p_plain = max(single_subs, 1) / max(letters * cfg.alphabet, 1)
    decades = -math.log10(p_plain)
    setattr(learn, "last_decades", decades)  # (reported by the table's header)
    occ: dict[str, int] = {}
    out: list[Confusion] = []
    for (p, q), c in counts.most_common():
        if c < cfg.min_count or len(out) >= cfg.top_n:
            break
        if q not in occ:
            occ[q] = sum(t.count(q) * n for t, n in gold_tokens.items()) if q else letters
        prob = c / (max(occ[q], c) + cfg.prior_n)
        cost = min(1.0, max(cfg.floor, cfg.scale * -math.log10(prob) / decades))
        if cost < cfg.max_cost:
            out.append(Confusion(p, q, round(cost, 3), c, occ[q]))
    return out


def with_overrides(cfg: LearnConfig, spec: str) -> LearnConfig:
    """``cfg`` with ``key=value,...`` fields replaced (the command line's ``--learn``)."""
    from dataclasses import fields, replace

    types = {f.name: type(getattr(cfg, f.name)) for f in fields(cfg)}
    kw = {}
    for item in filter(None, spec.split(",")):
        k, _, v = item.partition("=")
        if k not in types:
            raise ValueError(f"--learn {k}: not a LearnConfig field ({', '.join(types)})")
        kw[k] = types[k](v) if types[k] is not bool else v in ("1", "true", "True")
    return replace(cfg, **kw)


# ---- the shipped table ------------------------------------------------------------------------------
def icdar_docs(lang: str) -> list[tuple[str, str]]:
    from .evaluate_clean import icdar_documents

    return icdar_documents(lang)


# the header of the ICDAR 2017 table (confusions_learnt.tsv)
ICDAR_HEADER = (
    "# OCR confusions LEARNT from the ICDAR 2017 periodical dev sets (shared/ocr-data/icdar2017-fr-en-sentence-pairs:",
    "# ICDAR2017_eng_periodical_dev.tsv for en, ICDAR2017_fre_periodical_dev.tsv for fr), from ALL their dev documents",
    "# (the 20-line documents of measure.evaluate_lm), by measure.learn_confusions.learn: OCR and gold tokens aligned",
    "# one to one (word_ceiling's near misses; with one_block=True also the pairs differing in one glyph group of 2-3",
    "# printed letters, tire / the), each differing pair aligned by character (Levenshtein.opcodes, adjacent",
    "# edits merged), the blocks counted, lower case, letters only; cost = scale x -log10(count / (occurrences of the",
    "# intended side + prior_n)) / -log10(P of one given plain substitution), clipped to [floor, 1].",
    "# Derived counts only, no text of the sets. The held-out figures (measure.evaluate_lm) learn on training folds.",
    "# The clean stage reads these rows for their language, on general text only (a witness keeps the hand rows), after",
    "# the hand rows of confusions.tsv (a pair listed there keeps its hand cost).",
)


def write_table(
    path,
    tables: dict[str, list[Confusion]],
    cfgs: dict[str, LearnConfig | None],
    command: str,
    header: Sequence[str] | None = None,
) -> None:
    """Write the learnt rows of each language to ``path``, under ``header`` (comment lines; default: the ICDAR
    2017 table's) and the settings and command that made them."""
    lines = list(header if header is not None else ICDAR_HEADER)
    for lang, cfg in cfgs.items():
        lines.append(
            f"# {lang}: " + ("no learnt rows (the folds chose the hand rows alone)" if cfg is None else f"{cfg}")
        )
    lines += [
        f"# Command: {command}",
        "# Format: lang<TAB>printed<TAB>intended<TAB>cost<TAB>count<TAB>occurrences of the intended side",
    ]
    for lang, rows in tables.items():
        for r in rows:
            lines.append(f"{lang}\t{r.printed}\t{r.intended}\t{r.cost}\t{r.count}\t{r.occurrences}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    """``python -m measure.learn_confusions LANG:SETTINGS ...``: per language, ``none`` (no learnt rows) or
    ``key=value,...`` fields of :class:`LearnConfig` (empty: its defaults), e.g. ``en:scale=0.7 fr:none``."""
    from pipeline.clean import PROJECT_ROOT
    from pipeline.clean.lexicon import LEARNT_CONFUSIONS

    cfgs: dict[str, LearnConfig | None] = {}
    try:
        for arg in argv or ["en:", "fr:"]:
            lang, _, spec = arg.partition(":")
            if lang not in ("en", "fr"):
                raise ValueError(f"{arg}: want LANG:SETTINGS with LANG en or fr")
            cfgs[lang] = None if spec == "none" else with_overrides(LearnConfig(), spec)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    tables = {lang: learn(icdar_docs(lang), cfg) if cfg is not None else [] for lang, cfg in cfgs.items()}
    path = PROJECT_ROOT / "corpus" / "lexicon" / LEARNT_CONFUSIONS
    write_table(path, tables, cfgs, "python -m measure.learn_confusions " + " ".join(argv))
    for lang, rows in tables.items():
        print(f"{lang}: {len(rows)} confusions -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
