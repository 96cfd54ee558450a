"""Hyphenation: words split by an end-of-line (or end-of-page) hyphen, or by a hyphen a lost line break
left inside a line, are joined; real compounds keep their hyphen (the line break removed)."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Callable

import regex

from .edits import Edit, non_overlapping
from .passes import Pass, PassContext, edits_only

if TYPE_CHECKING:
    from .config import CleanConfig
    from .repairer import Repairer

# (a match starts at the start of a letter run: without the look-behind, a run of n letters and no
# hyphen is tried from each of its letters, n^2 steps; the matches found are the same)
HYPH_EOL = regex.compile(r"(?<!\p{L})(\p{L}+)-[ \t]*\n[ \t]*(\p{L}+)")
HYPH_INLINE = regex.compile(r"(?<!\p{L})(\p{L}+)[-^¬][ \t]+(?:,[ \t]*)?(\p{Ll}\p{L}*)")


def pass_hyphenation(
    text: str,
    is_word: Callable[[str], bool],
    is_compound: Callable[[str, str], bool],
    rare_join: Callable[[str, str], bool] | None = None,
) -> list[Edit]:
    """Join words split by an end-of-line (or end-of-page) hyphen, or by a hyphen left inside a line
    by a lost line break; keep real compounds (hyphen kept, line break removed)."""
    edits = []
    for m in HYPH_EOL.finditer(text):
        a, b = m.group(1), m.group(2)
        s, e = m.end(1), m.start(2)
        if is_compound(a, b):
            edits.append(
                Edit(
                    s,
                    e,
                    "-",
                    "hyphenation",
                    "lexicon:compound",
                    0.8,
                    (a + "-" + b, a + b),
                    f"compound {a}-{b} kept, line break removed",
                )
            )
        elif b[0].islower() or is_word(a + b):
            conf = 0.95 if is_word(a + b) else 0.75
            edits.append(
                Edit(
                    s,
                    e,
                    "",
                    "hyphenation",
                    "lexicon:join" if conf > 0.9 else "layout:join",
                    conf,
                    (a + b,),
                    f"end-of-line hyphen joined: {a}+{b}",
                )
            )
    # the end-of-line joins' spans, disjoint and in text order: an inline hyphen overlaps one of them
    # exactly when the last span starting before its end reaches past its start (bisection, not a scan)
    taken_starts = [e.start for e in edits]
    taken_ends = [e.end for e in edits]
    for m in HYPH_INLINE.finditer(text):
        a, b = m.group(1), m.group(2)
        s, e = m.end(1), m.start(2)
        k = bisect_left(taken_starts, e) - 1
        if k >= 0 and taken_ends[k] > s:
            continue
        if is_word(a + b) and not is_compound(a, b):
            edits.append(
                Edit(
                    s,
                    e,
                    "",
                    "hyphenation",
                    "lexicon:join-inline",
                    0.9,
                    (a + b,),
                    f"hyphen left inside a line joined: {a}+{b} is a word",
                )
            )
        elif rare_join is not None and rare_join(a, b):
            edits.append(
                Edit(
                    s,
                    e,
                    "",
                    "hyphenation",
                    "lexicon:join-inline",
                    0.8,
                    (a + b,),
                    f"hyphen left inside a line joined: {a}+{b} is a (rare) word and {a!r}, {b!r} are not both common words",
                )
            )
    return non_overlapping(edits)


def _rare_join(text: str, rep: Repairer, cfg: CleanConfig):
    """``pre- tence`` -> ``pretence``: the joined word is known at any frequency (or printed whole
    elsewhere in the witness) and the two parts are not both common words (``well- known`` stays)."""
    from .lexicon import count_text

    doc, _ = count_text(text)

    def ok(a: str, b: str) -> bool:
        j = (a + b).lower()
        if not (rep.zipf.get(j, 0.0) > 0 or doc.get(j, 0) >= 1 or rep.protected(j)):
            return False
        za, zb = rep.zipf.get(a.lower(), 0.0), rep.zipf.get(b.lower(), 0.0)
        return not (za >= cfg.join_part_zipf and zb >= cfg.join_part_zipf)

    return ok


def _hyphenation(text: str, ctx: PassContext) -> list[Edit]:
    rep = ctx.rep
    return pass_hyphenation(text, rep.is_word, rep.is_compound, _rare_join(text, rep, ctx.cfg))


HYPHENATION = Pass(
    "hyphenation", edits_only(_hyphenation), ("join_hyphens",), doc="end-of-line and inline hyphen splits joined"
)
