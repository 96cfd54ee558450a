"""Composing the edits of successive cleaning passes into Corrections on the raw text.

Each pass of the clean stage works on the *current* text (the raw text with the corrections of the
earlier passes applied) and proposes edits in current-text offsets.  :class:`EditBuffer` maps them
back onto spans of the raw text, merging an edit with any earlier correction it touches, so that
``model.replay(raw, buffer.corrections) == buffer.text`` holds after every pass.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace

from ..model import Correction


@dataclass(frozen=True)
class Edit:
    """A proposed change of the current text ``[start, end)`` to ``after``."""

    start: int
    end: int
    after: str
    kind: str
    method: str
    confidence: float = 1.0
    candidates: tuple[str, ...] = ()
    evidence: str = ""
    # the pass's evidence clears general mode's name guard (pipeline.clean.guards): a capitalised word inside a
    # sentence that only the language model repairs, and only with a gain of LMConfig.name_vouch_gain or more
    vouched: bool = False


class EditBuffer:
    def __init__(self, raw: str):
        self.raw = raw
        self.corrections: list[Correction] = []
        self.text = raw
        self._rebuild()

    # pieces: (cur_start, cur_end, raw_start, raw_end, correction index or -1)
    def _rebuild(self) -> None:
        pieces = []
        out = []
        pos = 0
        cur = 0
        for i, c in enumerate(self.corrections):
            if c.start > pos:
                n = c.start - pos
                pieces.append((cur, cur + n, pos, c.start, -1))
                out.append(self.raw[pos : c.start])
                cur += n
            pieces.append((cur, cur + len(c.after), c.start, c.end, i))
            out.append(c.after)
            cur += len(c.after)
            pos = c.end
        if pos < len(self.raw) or not pieces:
            pieces.append((cur, cur + len(self.raw) - pos, pos, len(self.raw), -1))
            out.append(self.raw[pos:])
        self.pieces = pieces
        self._starts = [p[0] for p in pieces]
        self.text = "".join(out)

    def _piece_at(self, pos: int) -> int:
        """Index of the non-empty piece containing current position ``pos`` (or the last piece)."""
        i = bisect_right(self._starts, pos) - 1
        i = max(i, 0)
        # skip zero-width pieces and pieces ending at pos
        while i < len(self.pieces) - 1 and self.pieces[i][1] <= pos:
            i += 1
        while i > 0 and self.pieces[i][0] > pos:
            i -= 1
        return i

    def to_raw(self, pos: int, side: str = "start") -> int:
        """Raw offset of current offset ``pos`` (``side`` = 'start' or 'end' of a span)."""
        if side == "end" and pos > 0:
            i = self._piece_at(pos - 1)
            cs, ce, rs, re_, ci = self.pieces[i]
            if ci >= 0:
                return re_
            return rs + (pos - cs)
        i = self._piece_at(pos)
        cs, ce, rs, re_, ci = self.pieces[i]
        if ci >= 0:
            return rs
        return min(rs + (pos - cs), re_) if pos < ce else re_

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        if end <= start:
            r = self.to_raw(start)
            return r, r
        return self.to_raw(start, "start"), self.to_raw(end, "end")

    def apply(self, edits: list[Edit]) -> None:
        """Apply non-overlapping edits (current-text offsets) and rebuild the current text."""
        if not edits:
            return
        edits = sorted(edits, key=lambda e: (e.start, e.end))
        for a, b in zip(edits, edits[1:]):
            if b.start < a.end:
                raise ValueError(f"overlapping edits {a} {b}")
        # expanded spans in current coordinates, and the corrections they absorb
        groups: list[list] = []  # [S, E, [edits], set(corr idx)]
        for e in edits:
            S, E = e.start, e.end
            touched = set()
            i = max(bisect_right(self._starts, e.start) - 1, 0)
            while i > 0 and self.pieces[i - 1][1] >= e.start:
                i -= 1
            while i < len(self.pieces):
                cs, ce, rs, re_, ci = self.pieces[i]
                if cs > e.end:
                    break
                if ci >= 0:
                    if cs == ce:
                        hit = e.start < cs < e.end
                    elif e.start == e.end:
                        hit = cs < e.start < ce
                    else:
                        hit = cs < e.end and e.start < ce
                    if hit:
                        touched.add(ci)
                        S, E = min(S, cs), max(E, ce)
                i += 1
            if groups and (S < groups[-1][1] or (touched & groups[-1][3])):
                g = groups[-1]
                g[0], g[1] = min(g[0], S), max(g[1], E)
                g[2].append(e)
                g[3] |= touched
            else:
                groups.append([S, E, [e], touched])
        new: list[Correction] = []
        absorbed: set[int] = set()
        for S, E, es, touched in groups:
            absorbed |= touched
            if touched:
                rs = min(self.corrections[i].start for i in touched)
                re_ = max(self.corrections[i].end for i in touched)
                r0, r1 = self.raw_span(S, E)
                rs, re_ = min(rs, r0), max(re_, r1)
            else:
                rs, re_ = self.raw_span(S, E)
            parts = []
            p = S
            for e in es:
                parts.append(self.text[p : e.start])
                parts.append(e.after)
                p = e.end
            parts.append(self.text[p:E])
            after = "".join(parts)
            main = max(es, key=lambda e: (e.end - e.start) + len(e.after))
            ev = "; ".join(x.evidence for x in es if x.evidence)
            if touched:
                older = [self.corrections[i] for i in sorted(touched)]
                ev = (
                    (ev + "; " if ev else "")
                    + "merged with "
                    + ", ".join(f"{c.kind}:{c.before!r}->{c.after!r}" for c in older)
                )
            new.append(
                Correction(
                    start=rs,
                    end=re_,
                    before=self.raw[rs:re_],
                    after=after,
                    kind=main.kind,
                    method=main.method,
                    confidence=min(x.confidence for x in es),
                    candidates=main.candidates,
                    evidence=ev,
                )
            )
        kept = [c for i, c in enumerate(self.corrections) if i not in absorbed]
        allc = kept + [c for c in new if not (c.before == c.after)]
        allc.sort(key=lambda c: (c.start, c.end))
        self.corrections = allc
        self._rebuild()


def drop_noop(corrections: list[Correction]) -> list[Correction]:
    return [c for c in corrections if c.before != c.after]


def with_kind(c: Correction, kind: str) -> Correction:
    return replace(c, kind=kind)


def non_overlapping(edits: list[Edit]) -> list[Edit]:
    """Edits sorted by position; an edit overlapping one already kept is dropped (the earlier one wins)."""
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and e.start < out[-1].end:
            continue
        out.append(e)
    return out
