"""The site's search: the French/English glossary (``corpus/glossary.csv``) and the search key of a text
(its folded words, each with its glossary counterparts)."""

from __future__ import annotations

import csv
import functools
import re
from pathlib import Path
from typing import Iterable, Sequence

from ...textnorm import fold


def load_glossary(path: str | Path) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The French/English pairs of ``corpus/glossary.csv`` (alternatives split on "|"); () without the file."""
    p = Path(path)
    if not p.is_file():
        return ()
    lines = [line for line in p.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    out = []
    for row in csv.DictReader(lines):
        fr = tuple(x.strip() for x in (row.get("fr") or "").split("|") if x.strip())
        en = tuple(x.strip() for x in (row.get("en") or "").split("|") if x.strip())
        if fr and en:
            out.append((fr, en))
    return tuple(out)


class _TermIndex:
    """The folded terms of a glossary indexed by their first characters, to find every term that begins a word of
    a text in one pass over the text (a regular expression per term and cell was quadratic in a book's cells)."""

    def __init__(self, glossary: Sequence[tuple[Sequence[str], Sequence[str]]]):
        self.pairs = [tuple(fold(t) for t in (*fr, *en)) for fr, en in glossary]
        self.by_prefix: dict[str, list[tuple[str, int]]] = {}
        self.always = {i for i, terms in enumerate(self.pairs) if "" in terms}  # (an empty term begins any text)
        for i, terms in enumerate(self.pairs):
            for t in terms:
                if t:
                    self.by_prefix.setdefault(t[:_PREFIX], []).append((t, i))
        self.lengths = sorted({len(k) for k in self.by_prefix})

    def pairs_in(self, text: str) -> set[int]:
        """The pairs one of whose terms occurs in ``text`` at the start of a word (not after a word character)."""
        hit = set(self.always)
        n = len(text)
        for m in _WORD_START.finditer(text):
            p = m.start()
            for k in self.lengths:
                if p + k > n:
                    break
                for t, i in self.by_prefix.get(text[p : p + k], ()):
                    if i not in hit and text.startswith(t, p):
                        hit.add(i)
        return hit


_PREFIX = 3  # characters of a term its index keys on
_WORD_START = re.compile(r"(?<!\w)(?=.)", re.S)  # a position not after a word character


@functools.lru_cache(maxsize=8)
def _term_index(glossary: tuple) -> _TermIndex:
    return _TermIndex(glossary)


def search_key(texts: Iterable[str], glossary: Sequence[tuple[Sequence[str], Sequence[str]]]) -> str:
    """What the search box compares for one cell: its texts (reading and printed forms) folded, plus
    the terms of every glossary pair one of whose terms begins a word of them or of the terms so added, so a
    search for a term finds every cell that a search for its equivalent finds (atout and trump)."""
    hay = " ".join(fold(t) for t in texts if t)
    index = _term_index(tuple((tuple(fr), tuple(en)) for fr, en in glossary))
    extra: list[str] = []
    done: set[int] = set()
    found = hay
    while True:  # to a fixed point: a term added by one pair brings the pairs it belongs to (trump -> atout)
        # (a term at the start of a word: its inflected forms too, trumps and atouts, as the box's
        # substring search finds them)
        hit = sorted(index.pairs_in(found) - done)
        if not hit:
            break
        done.update(hit)
        new = [t for i in hit for t in index.pairs[i] if t not in extra]
        extra.extend(dict.fromkeys(new))
        found = " ".join([hay] + extra)
    return " ".join([hay] + extra)
