"""Numbers OCR printed with a letter for some of their digits (``1O``, ``3OO``, ``l4``, ``2lst``, ``I8O5``).

The ``mixed-numbers`` pass reads, in a token made of digits and the look-alike letters of 0 and 1
(``corpus/lexicon/lookalikes.tsv``: ``O o`` for 0, ``l I i`` for 1), every look-alike as its digit when the
token holds a real digit: its digits say it is a number, and no word of any language is spelt so.  The token
may end in one of the language's number endings (ordinals, money: ``corpus/lexicon/number_marks.tsv``),
which stays as printed; a unit letter printed right after the digits (English ``l`` for pounds, ``10l.``),
or a last letter that begins an ending (``12r``, French ``51r.`` for *5 fr.*), is never read as a digit.  A token beside a letter (``H2O``) or with no real digit (``lO``) is left alone.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from .edits import Edit
from .passes import Pass, PassContext, edits_only


@lru_cache(maxsize=8)
def _pattern(look: str, suffixes: tuple[str, ...]) -> regex.Pattern:
    """A token of digits and ``look`` letters, a number ending of ``suffixes`` allowed after it (group 2)."""
    cls = "[0-9" + regex.escape(look) + "]"
    ends = "|".join(regex.escape(s) for s in sorted(suffixes, key=len, reverse=True))
    tail = f"((?i:{ends}))?" if ends else "()"
    return regex.compile(rf"(?<![\p{{L}}\p{{N}}])({cls}+?){tail}(?![\p{{L}}\p{{N}}])")


def pass_mixed_numbers(
    text: str, lookalikes: dict[str, str], suffixes: tuple[str, ...] = (), units: str = ""
) -> list[Edit]:
    """The edits reading the look-alike letters of a number's digits as digits (see the module)."""
    look = {ch: d for ch, d in lookalikes.items() if d in "01" and ch.isalpha()}
    if not look:
        return []
    edits = []
    for m in _pattern("".join(sorted(look)), suffixes).finditer(text):
        run, end = m.group(1), m.group(2) or ""
        if not any(c.isdigit() for c in run) or all(c.isdigit() for c in run):
            continue
        if not end and (run[-1] in units or any(x.startswith(run[-1].lower()) for x in suffixes)):
            run = run[:-1]  # (10l.: the pounds mark; 12r: the start of an ending, or of something else)
            if all(c.isdigit() for c in run):
                continue
        if not run[0].isdigit() and not any(c.isdigit() for c in run[:2]):
            continue  # (a letter run before a lone digit, Il2: too little of a number)
        fixed = "".join(look.get(c, c) for c in run)
        edits.append(
            Edit(
                m.start(1),
                m.start(1) + len(run),
                fixed,
                "spelling",
                "lookalike:number",
                0.85,
                (fixed,),
                f"{run!r}: look-alike letters among the digits of a number read as {fixed!r}",
            )
        )
    return edits


def _mixed_numbers(text: str, ctx: PassContext) -> list[Edit]:
    lex = ctx.lex
    return pass_mixed_numbers(text, lex.lookalikes, lex.number_suffixes, lex.number_units)


MIXED_NUMBERS = Pass(
    "mixed-numbers",
    edits_only(_mixed_numbers),
    ("repair_words", "mixed_numbers"),
    doc="look-alike letters among the digits of a number (1O, 3OO, l4, 2lst) read as digits",
)
