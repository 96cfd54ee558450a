"""Tokens of the clean stage: the word-token pattern the word passes share, its debris characters, and
splitting a text into tokens with their edge punctuation stripped; giving a word the case of another."""

from __future__ import annotations

from itertools import accumulate

import regex

JUNK = "^*|$%»"
# (a run of word characters is one step of the loop, not one step each: the same tokens, found faster)
TOKEN_RE = regex.compile(r"(?:[\p{L}\p{M}^*|$%»'’]+|(?<=\p{L})\d(?=\p{L}))+(?:-[\p{L}\p{M}^*|$%»'’]+)*")
TOKEN_SPLIT = regex.compile(f"({TOKEN_RE.pattern})")  # (TOKEN_RE as a group: a split alternates gaps and tokens)
APOS = "'’"
COMPOUND_SPLIT = regex.compile(r"[-']")
JUNK_JOINED = regex.compile(r"(\p{L}{2,})[\^*|%$](\p{L}{2,})")  # two words joined by a debris character


def stripped_tokens(split_re, text: str, edge: str, memo: dict) -> tuple[list[int], list[tuple[int, str]]]:
    """The tokens of ``text``: their starts, and each one's (offset, core) with the ``edge`` characters
    stripped from both ends (a core may be empty).  ``split_re`` is the token pattern as one capturing
    group, so that a split alternates gaps and tokens (one C call, offsets by summing lengths); ``memo``
    keeps each distinct token's (offset, core)."""
    parts = split_re.split(text)
    toks = parts[1::2]
    for t in set(toks).difference(memo):
        u = t.lstrip(edge)
        memo[t] = (len(t) - len(u), u.rstrip(edge))
    return list(accumulate(map(len, parts)))[0::2], list(map(memo.__getitem__, toks))


def stripped_spans(split_re, text: str, edge: str, memo: dict) -> list[tuple[int, int, str]]:
    """(start, end, core) of the tokens of :func:`stripped_tokens`, those left empty dropped."""
    starts, cores = stripped_tokens(split_re, text, edge, memo)
    return [(s + o, s + o + len(c), c) for s, (o, c) in zip(starts, cores) if c]


def case_like(model: str, word: str) -> str:
    """Give ``word`` the case pattern of ``model`` (lower, Title, UPPER; UPPER too when two or more letters after
    the first are capitals)."""
    letters = [c for c in model if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return word.upper()
    if sum(map(str.isupper, letters[1:])) >= 2:
        return word.upper()  # (a capitals word some of whose letters OCR read in lower case: OFrIces)
    if letters and letters[0].isupper():
        return word[:1].upper() + word[1:]
    return word


OPENING = " \t\n\"'«“‘("  # what may stand between a sentence's end and its next word


def _mark_before(text: str, pos: int) -> int:
    """The index of the last character before ``pos`` that is no space, quote or opening bracket (-1: none)."""
    j = pos - 1
    while j >= 0 and text[j] in OPENING:
        j -= 1
    return j


def after_full_stop(text: str, pos: int) -> bool:
    """Whether ``pos`` follows a sentence's end: ``. ! ?`` and then only spaces, quotes and brackets, the word
    before a full stop not an initial or a short capitalised abbreviation (``J.``, ``Mr.``, ``St.``)."""
    j = _mark_before(text, pos)
    if j < 0 or text[j] not in ".!?":
        return False
    if not any(c in " \t\n" for c in text[j + 1 : pos]):
        return False  # (a stop glued to the word, circum?pectlon: no sentence's end)
    if text[j] == ".":
        k = j
        while k > 0 and text[k - 1].isalpha():
            k -= 1
        before = text[k:j]
        if before and (len(before) == 1 or (len(before) <= 3 and before[0].isupper())):
            return False
    return True


def sentence_case(text: str, pos: int, printed: str, word: str, stems: str) -> str:
    """``word`` (a repair of ``printed`` at ``pos``, already in the printed word's case) with a capital where
    the repair changed a lower-case first letter of ``stems`` (``CleanConfig.capital_stems``: the letters OCR
    prints for a capital's stem, l for I or H) right after a sentence's end (:func:`after_full_stop`): the
    misread letter was the capital (``present. lie hoped`` is *He hoped*)."""
    if (
        printed[:1] in stems
        and printed[:1].islower()
        and word[:1].islower()
        and word[:1] != printed[:1]
        and after_full_stop(text, pos)
    ):
        return word[:1].upper() + word[1:]
    return word


def sentence_start(text: str, pos: int) -> bool:
    """Whether ``pos`` begins a sentence (only quotes, brackets and spaces after a full stop, or the text start)."""
    j = _mark_before(text, pos)
    return j < 0 or text[j] in ".!?:—"
