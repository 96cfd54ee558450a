"""Line-break fragments judged as the word they halve: ``gouvcr- nement`` -> ``gouver- nement``.

A text whose printed line-break hyphens are kept (hyphen joining off: ICDAR 2017's gold keeps them,
``four-nissait``, ``chauf-feur``; or a hyphen the joining pass left) shows a word as two fragments that are
no words alone.  Judged alone, a fragment is a non-word that the word pass "repairs" into another word
(``pro-fondément`` -> ``fondement``, ``suf-fisent`` -> ``sur``), or a damaged fragment is left as it is.
This pass judges the JOINED word instead, with the same decision as any word
(:meth:`~pipeline.clean.decide.Decider.decide`: lexicon, channel, the text's own context), and when it is
repaired puts the correction back with the hyphen and the break where they were printed
(:func:`split_like`): the alignment of the printed join with the repair fixes where the break falls; when
the edit straddles the break the split that keeps a printed fragment's length is taken, and with none the
word is flagged, not changed.  The word pass leaves the halves of such a pair alone (:func:`is_fragment_pair`).

Which pairs are fragments: ``a-b`` (or ``a- b``, ``a-`` at a line end then ``b``) where ``b`` begins lower
case, neither side continues with another hyphen, the hyphenated form is no known compound, the two halves
are not both common words, and the join is no word already.  Settings: :class:`FragmentConfig`
(``CleanConfig.fragments``), with the languages it applies to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import regex
from rapidfuzz.distance import Levenshtein

from .decide import Context
from .edits import Edit, non_overlapping
from .passes import FlagSpec, Pass, PassContext, PassResult
from .tokens import sentence_start

if TYPE_CHECKING:
    from .repairer import Repairer

# a fragment pair: letters, a hyphen (spaces or one line break after it), letters beginning lower case;
# neither side glued to more letters or to another hyphen (soi-di-sant, semble-t-il: compounds)
PAIR = regex.compile(
    r"(?<![\p{L}\p{M}\-¬])(\p{L}[\p{L}\p{M}]*)[-¬]([ \t]*\n?[ \t]*)(\p{Ll}[\p{L}\p{M}]*)(?![\p{L}\p{M}\-¬])"
)
NEAR_WORD = regex.compile(r"\p{L}[\p{L}\p{M}'’]*")


@dataclass(frozen=True)
class FragmentConfig:
    """When a hyphen pair is judged as one word."""

    # languages the pass runs in (ICDAR 2017 dev, held out: docs/decisions.md, line-break fragments); elsewhere the word
    # pass judges each half as before
    langs: tuple[str, ...] = ("fr",)
    min_part: int = 2  # letters of each fragment at least (a printer leaves no single letter at a line end)
    # two halves both this frequent (zipf) are two words joined by a hyphen (de- problèmes), not fragments
    both_words_zipf: float = 3.5


def is_fragment_pair(a: str, b: str, rep: "Repairer", cfg: FragmentConfig) -> bool:
    """Whether ``a-b`` (``b`` lower case) is one word printed in two fragments: no known compound, no head
    or tail of one (``corpus/lexicon/hyphen_compounds.tsv``: ``demandai-je``, ``celle-ci``) and not two
    common words."""
    if min(len(a), len(b)) < cfg.min_part:
        return False
    la, lb = a.lower(), b.lower()
    hyph = la + "-" + lb
    if rep.protected(hyph) or rep.zipf.get(hyph, 0.0) > 0.0 or rep.is_compound(a, b):
        return False
    parts = rep.res.lexdata.hyphen_parts
    if ("head", la) in parts or ("tail", lb) in parts:
        return False
    if rep.zipf.get(la, 0.0) >= cfg.both_words_zipf and rep.zipf.get(lb, 0.0) >= cfg.both_words_zipf:
        return False
    return True


def known_join(a: str, b: str, rep: "Repairer") -> bool:
    """Whether the join of a fragment pair is a word already (nothing to repair)."""
    j = (a + b).lower()
    return rep.protected(j) or rep.zipf.get(j, 0.0) > 0.0


TAIL = regex.compile(r"\p{L}[\p{L}\p{M}]*$")


def fragment_token(t: str, rep: "Repairer", cfg: FragmentConfig) -> bool:
    """Whether the word pass's token ``t`` (``four-nissait``, ``d'épar-gne``) is a fragment pair that this
    pass judges joined (so that the word pass leaves its halves alone)."""
    if t.count("-") != 1:
        return False
    left, b = t.split("-")
    m = TAIL.search(left)
    return m is not None and b[:1].islower() and b.isalpha() and is_fragment_pair(m.group(), b, rep, cfg)


def split_like(joined: str, repaired: str, first: int) -> int | None:
    """Where ``repaired`` breaks as ``joined`` breaks after ``first`` characters: the positions of the
    repair the alignment of the two passes through at the break; one is the answer, several are resolved by
    keeping the printed first (then second) fragment's length, and None when neither fits (or a side would
    be empty)."""
    n2 = len(joined) - first
    possible: set[int] = set()
    for op in Levenshtein.opcodes(joined, repaired):
        tag, i1, i2, j1, j2 = op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            if i1 <= first <= i2:
                possible.add(j1 + first - i1)
        elif tag == "insert":
            if i1 == first:
                possible.update(range(j1, j2 + 1))
        elif tag == "delete":
            if i1 <= first <= i2:
                possible.add(j1)
        elif i1 < first < i2:  # (a replacement of unequal lengths across the break: any split inside it)
            possible.update(range(j1, j2 + 1))
        elif first in (i1, i2):
            possible.add(j1 if first == i1 else j2)
    if not possible:
        return None
    lo, hi = min(possible), max(possible)
    if lo == hi:
        q: int | None = lo
    elif lo <= first <= hi:
        q = first
    elif lo <= len(repaired) - n2 <= hi:
        q = len(repaired) - n2
    else:
        q = None
    if q is None or not (0 < q < len(repaired)) or not (repaired[q - 1].isalpha() and repaired[q].isalpha()):
        return None
    return q


def _neighbour(text: str, pos: int, before: bool) -> str:
    """The word just before ``pos`` (or just after), lower case, for the decision's context."""
    if before:
        m = None
        for m in NEAR_WORD.finditer(text, max(0, pos - 40), pos):
            pass
        return m.group().lower() if m is not None else ""
    m = NEAR_WORD.search(text, pos, pos + 40)
    return m.group().lower() if m is not None else ""


def fragment_pass(text: str, rep: "Repairer", fcfg: FragmentConfig, use_context: bool) -> PassResult:
    """Edits and flags of the fragment pairs of ``text`` judged joined (offsets of ``text``)."""
    edits: list[Edit] = []
    flags: list[FlagSpec] = []
    ctx: Context | None = None
    for m in PAIR.finditer(text):
        a, b = m.group(1), m.group(3)
        if not is_fragment_pair(a, b, rep, fcfg) or known_join(a, b, rep):
            continue
        if ctx is None:
            ctx = Context(rep, text, use_context)
        joined = a + b
        s, e = m.start(), m.end()
        ctx.sentence_start = sentence_start(text, s)
        d = rep.decider.decide(joined, _neighbour(text, s, True), _neighbour(text, e, False), ctx)
        if d is None:
            continue
        why = f"line-break fragments {a}-{b} judged joined as {joined!r}: {d.evidence}"
        w = d.after
        if " " in w or "-" in w or w.lower() == joined.lower():
            continue  # (a split or a compound is no reading of one word printed in two fragments)
        if not d.apply:
            flags.append((s, e, text[s:e], d.candidates, d.confidence, why))
            continue
        q = split_like(joined, w, len(a))
        if q is None:
            flags.append((s, e, text[s:e], (w,), d.confidence, why + f"; no sound split of {w!r} at the printed break"))
            continue
        after = w[:q] + text[m.end(1) : m.start(3)] + w[q:]
        edits.append(
            Edit(
                s,
                e,
                after,
                d.kind,
                "fragments:joined",
                d.confidence,
                d.candidates,
                why + f"; split back as {w[:q] + '-' + w[q:]!r}",
            )
        )
    return PassResult(non_overlapping(edits), flags)


def applies(ctx: PassContext) -> bool:
    return ctx.lang in ctx.cfg.fragments.langs


def _fragments(text: str, ctx: PassContext) -> PassResult:
    return fragment_pass(text, ctx.rep, ctx.cfg.fragments, ctx.cfg.use_context)


FRAGMENTS = Pass(
    "fragments",
    _fragments,
    ("repair_words",),
    applies,
    doc="line-break fragments (hyphen kept) judged as the joined word, the repair split back at the printed break",
)
