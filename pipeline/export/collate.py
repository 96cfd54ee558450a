"""Word-level collation of aligned laws of one language (its TEI: ``pipeline/export/tei/collation.py``).

Public API::

    tokens(text) -> tuple[str, ...]                          # words and punctuation marks, in order
    collate(a_text, b_text) -> tuple[Segment, ...]           # agreements and variants, in reading order
    witness_readings(result) -> {law id: text}               # each law as its witness gives it
    collation_pairs(laws, links) -> list[(Link, Law, Law)]   # the same-language links to collate, per game

Two laws aligned across editions of one text (an OCR and its modernized reading, two printings of one
code) are collated token by token, each *as its witness gives it*: the raw text of the law with only
the layout undone (line-end hyphens joined, running heads, line breaks and lines of web-page debris
removed), not the pipeline's
word repairs, so that what one witness prints differently from the other shows (the reading texts of
en-003 and en-003m are the same once both are repaired).  The alignment is the longest common subsequence of the two token
sequences, computed by rapidfuzz's ``Indel.opcodes`` (C++, already a dependency of the pipeline):
every token outside it is a variant, every token inside it an agreement, so the variants are exactly
what a plain token diff shows.  CollateX (PyPI ``collatex``) was considered: it brings its own
dependencies (networkx, prettytable) for a multi-witness variant graph and transposition detection that
pairs of laws do not need, and its last release is from 2023; for two witnesses its alignment is the
same token alignment.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

import regex
from rapidfuzz.distance import Indel

from ..model import Correction, Law, Link, WitnessResult, offset_maps, replay
from .tei.text import is_debris_line

TOKEN = regex.compile(r"[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]")


@dataclass(frozen=True)
class Segment:
    """A stretch of the two texts: an agreement (``a == b``) or a variant (``a != b``)."""

    a: tuple[str, ...]
    b: tuple[str, ...]

    @property
    def variant(self) -> bool:
        return self.a != self.b


def tokens(text: str) -> tuple[str, ...]:
    """Words (letters and digits, with inner apostrophes and hyphens) and punctuation marks."""
    return tuple(m.group() for m in TOKEN.finditer(text))


def collate(a_text: str, b_text: str) -> tuple[Segment, ...]:
    """Agreements and variants of two texts, token by token, in reading order."""
    a, b = tokens(a_text), tokens(b_text)
    out: list[Segment] = []
    pa = pb = 0
    for op in Indel.opcodes(list(a), list(b)):
        if op.tag != "equal":
            continue
        if op.src_start > pa or op.dest_start > pb:
            out.append(Segment(a[pa : op.src_start], b[pb : op.dest_start]))
        out.append(Segment(a[op.src_start : op.src_end], b[op.dest_start : op.dest_end]))
        pa, pb = op.src_end, op.dest_end
    if pa < len(a) or pb < len(b):
        out.append(Segment(a[pa:], b[pb:]))
    return tuple(out)


LAYOUT_KINDS = ("hyphenation", "running_head", "whitespace")  # repairs of layout, undone in a witness reading


def witness_readings(result: WitnessResult, layout_kinds: Sequence[str] = LAYOUT_KINDS) -> dict[str, str]:
    """Each law's text as its witness gives it: its raw span (without the printed number) with only the
    layout repairs applied, whitespace collapsed."""
    cleaned = result.cleaned
    raw, text = cleaned.raw, cleaned.text
    c2r, _ = offset_maps(raw, cleaned.corrections)
    layout = [c for c in cleaned.corrections if c.kind in layout_kinds or is_debris_line(raw, c)]
    starts = [c.start for c in layout]
    out: dict[str, str] = {}
    for law in result.segmented.laws:
        off = law.start
        for o in range(law.start, min(law.end, law.start + 64) + 1):  # skip the printed number
            if " ".join(text[o : law.end].split()) == law.text:
                off = o
                break
        rs, re_ = c2r[off], c2r[law.end]
        lo = bisect.bisect_left(starts, rs)
        hi = bisect.bisect_left(starts, re_)
        inner = [
            Correction(c.start - rs, c.end - rs, c.before, c.after, c.kind, c.method)
            for c in layout[lo:hi]
            if c.end <= re_
        ]
        out[law.id] = " ".join(replay(raw[rs:re_], inner).split())
    return out


def collation_pairs(laws: Sequence[Law], links: Sequence[Link]) -> list[tuple[Link, Law, Law]]:
    """The links between laws of one language (editions of one text), in a stable order."""
    by_id = {law.id: law for law in laws}
    out = []
    for k in sorted(links, key=lambda k: (k.game, k.a, k.b, k.kind)):
        a, b = by_id.get(k.a), by_id.get(k.b)
        if a is not None and b is not None and a.lang == b.lang and a.witness_id != b.witness_id:
            out.append((k, a, b))
    return out


def join_tokens(toks: Sequence[str]) -> str:
    """Tokens as text: a space between words, none before closing punctuation."""
    out = ""
    for t in toks:
        if out and not (len(t) == 1 and t in ",.;:!?)]»’”") and not out.endswith(("(", "[", "«", "‘", "“")):
            out += " "
        out += t
    return out


__all__ = ["Segment", "tokens", "collate", "collation_pairs", "join_tokens", "witness_readings"]
