"""Per-token memos of the clean passes: pure functions of a token and one repairer, kept across texts
(the build cleans many witnesses with one set of resources) and bounded in size.

The memos in use: ``"inert_tokens"`` (printed token -> the word pass leaves it alone), ``"phrase_damage"``
(printed token -> damaged for phrase repair?), ``"cand_prior"`` (token -> its candidates as (word, cost,
lexicon prior)), ``"token_shapes"`` (token -> (too few letters to judge, has debris or digits)),
``"word_tokens"`` / ``"phrase_tokens"`` (token -> its core without edge punctuation), ``"lost_hyphen"``,
``"bigram_candidates"`` / ``"bigram_plain"``, ``"split_letter"`` (two parts of a split -> the word with the letter
lost at the split put back, or None), ``"elision_short_words"``, ``"context_variants"`` (a known
word -> its cheap confusion variants and their channel costs, for the word-pair and the LM passes) and
``"lm_token_facts"`` (a printed token -> what the LM pass asks of it alone).
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Any, Iterator


class Memos:
    """Named dictionaries, each emptied when it holds ``MEMO_MAX`` entries: only speed depends on them."""

    MEMO_MAX = 500_000  # entries a per-token memo keeps before it starts afresh (memory bound on long runs)

    def __init__(self) -> None:
        self._memos: dict[str, dict[Any, Any]] = {}

    def get(self, name: str) -> dict[Any, Any]:
        """The memo ``name`` (a fresh one when it was full)."""
        m = self._memos.get(name)
        if m is None or len(m) >= self.MEMO_MAX:
            m = self._memos[name] = {}
        return m


# The cleaner allocates many small containers (candidate lists, memo entries) that live as long as their
# repairer; the cyclic collector's default young-generation threshold (700 allocations) made it walk them
# again and again: about a sixth of a first pass's time on the ICDAR documents.  While a text is cleaned
# the thresholds are raised (no collection is skipped for good: they are restored afterwards, and
# reference counting frees everything that is not a cycle as before).
GC_YOUNG_THRESHOLD = 20_000  # allocations between young collections while cleaning (CPython default 700)
GC_OLDER_THRESHOLDS = (20, 10)  # young (resp. middle) collections between two of the next generation (10, 10)
_gc_lock = threading.Lock()
_gc_depth = 0
_gc_saved: tuple[int, int, int] | None = None


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the cyclic collector's thresholds for the duration (nested and threaded uses restore the
    thresholds once, when the last one ends)."""
    global _gc_depth, _gc_saved
    with _gc_lock:
        if _gc_depth == 0:
            _gc_saved = gc.get_threshold()
            t0, t1, t2 = _gc_saved
            if t0:  # (a threshold of 0 is the collector switched off: left so)
                g1, g2 = GC_OLDER_THRESHOLDS
                gc.set_threshold(max(t0, GC_YOUNG_THRESHOLD), max(t1, g1), max(t2, g2))
        _gc_depth += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth -= 1
            if _gc_depth == 0 and _gc_saved is not None:
                gc.set_threshold(*_gc_saved)
                _gc_saved = None


_frozen: set[object] = set()


def freeze_loaded(key: object) -> None:
    """Move every object alive now (the resources just loaded: word lists, indexes, the tagger) out of
    the cyclic collector's reach, once per ``key`` and process (``gc.freeze``): its full collections had
    walked them again and again while a book was cleaned (~0.3 s of a first pass over the ICDAR dev
    documents).  Only the entry points that own the process call it (CLI ``clean``, the build, the bench);
    reference counting still frees what they drop, and a cycle among objects alive now is never collected."""
    with _gc_lock:
        if key in _frozen:
            return
        _frozen.add(key)
        gc.freeze()
