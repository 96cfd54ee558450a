"""Per-token memos of the clean passes: pure functions of a token and one repairer, kept across texts
(the build cleans many witnesses with one set of resources) and bounded in size.

The memos in use: ``"inert_tokens"`` (printed token -> the word pass leaves it alone), ``"phrase_damage"``
(printed token -> damaged for phrase repair?), ``"cand_prior"`` (token -> its candidates as (word, cost,
lexicon prior)), ``"token_shapes"`` (token -> (too few letters to judge, has debris or digits)),
``"word_tokens"`` / ``"phrase_tokens"`` (token -> its core without edge punctuation), ``"lost_hyphen"``,
``"bigram_candidates"`` / ``"bigram_plain"``, ``"elision_short_words"``, ``"context_variants"`` (a known
word -> its cheap confusion variants and their channel costs, for the word-pair and the LM passes) and
``"lm_has_junk"``.
"""

from __future__ import annotations

from typing import Any


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
