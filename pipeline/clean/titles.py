"""Titles before a name that OCR misread (``Mn. Herer``, ``Nr. Blair``, ``Rey. L. Ashe``, ``Mra. Hill``).

A capitalised token of 2-4 letters with a full stop, before a capitalised word (on its line or the next), that is no title
and no other abbreviation of ``corpus/lexicon/titles.tsv`` (``Mt. Vernon``, ``Geo. Smith``) nor a frequent
word (``It.``, ``No.``), and that one OCR slip (channel cost at most ``title_max_cost``) makes exactly one
title, is that title: the one whose channel cost (times ``unknown_channel_scale``) less its frequency (zipf) is
lowest, so ``Mn.`` is read ``Mr.`` rather than the nearer but rarer ``Ms.``.  A repair of a word into another word: kind
``spelling``, and it clears general mode's name guard (the title, not the name, is what changes)."""

from __future__ import annotations

import regex

from .edits import Edit
from .passes import Pass, PassContext, edits_only

TITLE_AT = regex.compile(r"(?<![\p{L}\p{N}.'’])(\p{Lu}\p{L}{1,3})\.(?=(?:[ \t]+|[ \t]*\n[ \t]*)\p{Lu})")


def title_edits(
    text: str,
    titles: tuple[str, ...],
    kept: frozenset[str],
    cost,
    zipf_of,
    max_cost: float,
    max_zipf: float,
    scale: float,
) -> list[Edit]:
    """The edits of misread titles in ``text``: ``cost(printed, intended)`` is the channel's, ``zipf_of`` the
    lexicon's frequency of a lower-case word, ``scale`` the weight of a unit of channel cost in zipf units."""
    if not titles:
        return []
    lower = [t.lower() for t in titles]
    edits = []
    for m in TITLE_AT.finditer(text):
        t = m.group(1)
        lt = t.lower()
        if lt in lower or lt in kept or zipf_of(lt) >= max_zipf:
            continue
        costs = [(cost(t, w), k) for k, w in enumerate(lower)]
        near = [(scale * c - zipf_of(lower[k]), c, k) for c, k in costs if c <= max_cost]
        if not near:
            continue
        _s, c, k = min(near)  # (ties: the title listed first)
        title = titles[k]
        after = title.upper() if t.isupper() else title
        why = f"{t + '.'!r} before a name: the title {title + '.'!r}, channel cost {c:.2f} (titles.tsv)"
        edits.append(Edit(m.start(1), m.end(1), after, "spelling", "lexicon:title", 0.9, (title,), why, True))
    return edits


def _titles(text: str, ctx: PassContext) -> list[Edit]:
    cfg = ctx.cfg
    return title_edits(
        text,
        ctx.lex.titles,
        ctx.lex.title_kept,
        ctx.rep.channel.cost,
        ctx.rep.zipf_of,
        cfg.title_max_cost,
        cfg.title_max_zipf,
        cfg.unknown_channel_scale,
    )


TITLES = Pass(
    "titles",
    edits_only(_titles),
    ("repair_words",),
    doc="a title before a name that OCR misread (Mn. Herer -> Mr., Rey. -> Rev.: titles.tsv)",
)
