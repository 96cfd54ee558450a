"""Spans no word repair may change, whichever pass proposes it (the orchestrator filters every pass's edits).

* A roman numeral in brackets, ``(iii.)``, ``(iv)``, ``(XII)``: a list's number, not a word a language model
  should read as ``in``.
* The last word of a text that stops without closing punctuation: a page, a column or a snippet cut off
  inside a word (``... the sho``).  What the word was going to be is not on the page: it is flagged, never
  completed (:func:`cut_off_flag`), and no pass may change it.
* With the general resources (text from outside the corpus: press, any book), a capitalised word inside a
  sentence: a name (*Horron*, *Guizor*, *Poncher*), which no word list knows and a repair turns into the
  nearest common word (*Horror*, *Guitar*, *Poucher*).  Debris or digits in it, or a capital after a full
  stop, leave it to the repair; after a title (Mr. HorroN) whatever its shape.  Only a repair the language
  model vouches for (a gain of at least ``LMConfig.name_vouch_gain``: *Cavernment* -> *Government*) passes.
* A number whose zeros or ones OCR read as letters (``£2OO``): never repaired into a word (*too*).
* In a transcription (a text a person typed from the page: witness kind ``transcription``), a word the lexicon
  knows: the transcriber read it there, so a change into another known word (*nor* -> *not*, *if* -> *is*,
  *packet* -> *pocket*) is flagged with its evidence, not made (:func:`known_words_kept`,
  ``CleanConfig.transcription_keeps_known_words``).  Non-words (typos) are still repaired.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import regex

from .edits import Edit
from .passes import FlagSpec, PassResult
from .tokens import sentence_start

if TYPE_CHECKING:
    from .repairer import Repairer

# a roman numeral (i to mmmcmxcix) between brackets, a full stop after it allowed
BRACKETED_NUMERAL = regex.compile(
    r"(?i)(?<=[(\[]\s*)(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})(?=\.?\s*[)\]])"
)
BRACKET_OPEN = regex.compile(r"[(\[]\s*")  # an opening bracket and the spaces after it: where a numeral may start
CUT_OFF_MAX_ZIPF = 4.5  # a last word this frequent or more is taken as complete (the, and, was): not flagged
CUT_OFF_MIN_LONGER = 1  # ... else flagged when at least this many commoner lexicon words begin with it


def cut_off_span(text: str) -> tuple[int, int] | None:
    """The last word's span when the text stops inside it or right after it, without closing punctuation."""
    end = len(text.rstrip())
    start = end
    while start > 0 and text[start - 1].isalpha():  # (a walk back, not a regex search: linear in the word)
        start -= 1
    return (start, end) if start < end else None


def protected_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` no word repair may change."""
    # (the numeral is looked for only where its look-behind can hold, right after each opening bracket and
    # its spaces, not tried at every position of the text: the same spans, in the same order)
    spans = []
    for b in BRACKET_OPEN.finditer(text):
        m = BRACKETED_NUMERAL.match(text, b.end())
        if m is not None and m.end() > m.start():
            spans.append((m.start(), m.end()))
    last = cut_off_span(text)
    if last is not None:
        spans.append(last)
    return spans


def _changes_a_word(text: str, e: Edit) -> bool:
    before = text[e.start : e.end]
    return any(c.isalpha() for c in before) and any(c.isalpha() for c in e.after) and e.after != before


# a title or an initial before a name (Mr. M. Dr. St. Mme.): its full stop does not start a sentence
_TITLE_BEFORE = regex.compile(r"(?<!\p{L})\p{Lu}\p{Ll}{0,3}\.[ \t]*$")
NAME_KINDS = ("spelling", "real_word")  # the repairs of a word into another word (not a merge, not layout)


def _a_name(text: str, e: Edit) -> bool:
    before = text[e.start : e.end]
    if not (e.kind in NAME_KINDS and len(before) > 1 and before.isalpha() and before[0].isupper()):
        return False
    titled = _TITLE_BEFORE.search(text, max(0, e.start - 8), e.start) is not None  # (Mr. HorroN: any shape)
    return (
        (before[1:].islower() or titled)
        and e.after.isalpha()
        and e.after.lower() != before.lower()
        and (titled or not sentence_start(text, e.start))
    )


# a number whose zeros or ones OCR read as letters (2OO, 1,OOO): its digits say it is a number, never a word
NUMBER_LIKE = regex.compile(r"\d[\dOoIl,.]*[OoIl][\dOoIl,.]*")


def _a_number(text: str, e: Edit) -> bool:
    return NUMBER_LIKE.fullmatch(text[e.start : e.end]) is not None and e.after.isalpha()


def guarded(text: str, r: PassResult, general: bool = False) -> PassResult:
    """``r`` without the edits that would change a word of :func:`protected_spans` (and, with ``general``
    resources, a capitalised word inside a sentence: a name)."""
    if not r.edits:
        return r
    spans = protected_spans(text)
    keep = [
        e
        for e in r.edits
        if not (any(a < e.end and e.start < b for a, b in spans) and _changes_a_word(text, e))
        and not (general and not e.vouched and _a_name(text, e))
        and not _a_number(text, e)
    ]
    if len(keep) == len(r.edits):
        return r
    return PassResult(keep, r.flags, r.regs, r.breaks)


def cut_off_flag(text: str, rep: Repairer) -> FlagSpec | None:
    """A flag on the last word when the text stops without closing punctuation and the word looks cut off:
    not a frequent word, and the beginning of commoner words of the lexicon (``sho``: should, show)."""
    span = cut_off_span(text)
    if span is None:
        return None
    s, e = span
    w = text[s:e]
    lw = w.lower()
    z = rep.zipf_of(lw)
    if z >= CUT_OFF_MAX_ZIPF or len(lw) < 2 or rep.protected(lw):
        return None
    longer = sorted(
        (k for k, v in rep.zipf.items() if v > z and len(k) > len(lw) and k.startswith(lw)),
        key=lambda k: -rep.zipf[k],
    )
    if len(longer) < CUT_OFF_MIN_LONGER:
        return None
    return (
        s,
        e,
        w,
        tuple(longer[:5]),
        0.0,
        f"the text ends here, inside or after {w!r} (no closing punctuation): a word cut off is not completed",
    )


def known_words_kept(text: str, r: PassResult) -> PassResult:
    """``r`` with each change of a known word into another (kind ``real_word``) turned into a flag on the word,
    its evidence kept: what a transcription gets instead of the change."""
    known = [e for e in r.edits if e.kind == "real_word"]
    if not known:
        return r
    kept = [e for e in r.edits if e.kind != "real_word"]
    flags = [
        (
            e.start,
            e.end,
            text[e.start : e.end],
            (e.after, *e.candidates[1:]),
            e.confidence,
            f"kept as transcribed (a known word); the repair would read {e.after!r}: {e.evidence}",
        )
        for e in known
    ]
    return PassResult(kept, [*r.flags, *flags], r.regs, r.breaks)
