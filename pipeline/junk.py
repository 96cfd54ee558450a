"""Junk left in a reading text: tokens no reader should meet unflagged.

A token (a run of non-space characters, its surrounding punctuation stripped) is junk when it mixes
letters with debris characters (``^ | * { } < > % $ \\ ;``) or is debris alone between words, has digits inside a word (``n6w``; an
ordinal such as ``17th`` or ``2e``, a number with one letter, ``12a`` or ``10l``, is a number), or is a non-word of three letters or more: no lexicon
knows it (``known``), and it is not a number, a name (capitalised inside a sentence), a capital
abbreviation or a word split at a line-end hyphen.  :func:`unflagged_junk` is what ``make eval`` counts
per witness: the junk tokens of a cleaned text that no Flag covers.
"""

from __future__ import annotations

from typing import Callable, Sequence

import regex

# a token: a run of non-space characters, cut at a footnote marker ("deal;[57]") and at a dash written as two
# hyphens ("renounced;--any"), which stand between words, not inside one
TOKEN = regex.compile(r"(?:(?!\[\d{1,3}\]|--)\S)+")
LEAD = "([«\"“‘'’—–-"
TRAIL = ".,;:!?)]»\"”’'—–-…"
DEBRIS = set("^|*{}<>%$\\;")
DIGIT_INSIDE = regex.compile(r"\p{L}\d|\d\p{L}")
# (a number with one letter after it is a number too: a law's or a clause's, 12a, or an amount, 10l, 5s)
ORDINAL = regex.compile(r"\d+(?:st|nd|rd|th|e|er|re|ème|eme|me|o|os|mo|bis|\p{L})\.?", regex.I)
WORDISH = regex.compile(r"[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*")
# a token of debris alone between words (``jeu )% coup``): no letters, a debris character that is no
# footnote star, no currency or per-cent sign after a number
DEBRIS_ALONE = regex.compile(r"(?<![\S])[()\[\]^|*{}<>%$\\;]*[\^|{}<>%\\][()\[\]^|*{}<>%$\\;]*(?!\S)")


def junk_tokens(text: str, known: Callable[[str], bool]) -> list[tuple[int, int, str, str]]:
    """(start, end, token, reason) of the junk tokens of ``text``; ``known(lower-case word)`` says
    whether a lexicon knows a word."""
    out = []
    sentence_start = True
    for m in TOKEN.finditer(text):
        raw = m.group()
        lead = len(raw) - len(raw.lstrip(LEAD))
        core = raw[lead:].rstrip(TRAIL)
        s = m.start() + lead
        e = s + len(core)
        was_start = sentence_start
        sentence_start = raw.rstrip("»\"”’')]").endswith((".", "!", "?", ":"))
        if DEBRIS_ALONE.fullmatch(raw) and not text[: m.start()].rstrip()[-1:].isdigit():
            out.append((m.start(), m.end(), raw, "debris between words"))
            continue
        if not core or not any(c.isalpha() for c in core):
            continue
        if any(c in DEBRIS for c in core):
            out.append((s, e, core, "debris inside a word"))
            continue
        if DIGIT_INSIDE.search(core) and not ORDINAL.fullmatch(core):
            out.append((s, e, core, "digits inside a word"))
            continue
        if regex.search(r"\p{L}[()]\p{L}", core):
            out.append((s, e, core, "bracket inside a word"))
            continue
        if regex.search(r"\p{L}[&_]\p{L}|(?<!\p{L})_\p{L}|\p{L}_(?!\p{L})", core):
            out.append((s, e, core, "markup inside a word"))  # "Six'e&t", Markdown "_a_"
            continue
        if not WORDISH.fullmatch(core):
            continue
        letters = sum(c.isalpha() for c in core)
        if letters < 3 or raw.endswith("-") or text[e : e + 1] == "-" or (s and text[s - 1] == "-"):
            continue
        if core.isupper() or (core[:1].isupper() and not was_start):
            continue  # a capital abbreviation or a name
        parts = [p for p in regex.split(r"['’-]", core.lower()) if p]
        if known(core.lower().replace("’", "'")) or all(known(p) or len(p) < 3 for p in parts):
            continue
        out.append((s, e, core, "non-word"))
    return out


def unflagged(
    junk: Sequence[tuple[int, int, str, str]], flagged: Sequence[tuple[int, int]]
) -> list[tuple[int, int, str, str]]:
    """The junk tokens that no flagged span (start, end) overlaps."""
    spans = sorted(flagged)
    out = []
    for j in junk:
        if not any(a < j[1] and b > j[0] for a, b in spans):
            out.append(j)
    return out


def known_for(rep, extra: frozenset[str] = frozenset()) -> Callable[[str], bool]:
    """``known(word)`` from the cleaner's lexicons (wordfreq, historical, domain) and ``extra`` words
    (the language model's vocabulary, GCIDE)."""
    zipf = rep.zipf

    def known(w: str) -> bool:
        return zipf.get(w, 0.0) > 0.0 or rep.protected(w) or w in extra

    return known
