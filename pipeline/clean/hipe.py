"""The field's post-correction format in and out: HIPE-OCRepair records (JSON lines).

One record per line: ``document_metadata.language``, ``ocr_hypothesis.transcription_unit`` (the OCR); a
system writes ``ocr_postcorrection_output.transcription_unit``.  :func:`read_record` checks one line and
says in one line what is wrong with it; :func:`repair_text` cleans one unit with the general resources
(word lists and OCR data, never the card-game lexicon) and keeps its layout: the OCR's own ``¬`` before a line
break is read as the hyphen it is, and a line-break hyphen the cleaner joined is written as that mark, ``¬``
before the line break, so every line stays a line.
The I/O (reading the file, the progress bar, the atomic write) is the command line's
(``python -m pipeline repair``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import regex

from ..errors import PipelineError
from ..model import Cleaned
from .config import CleanConfig
from .resources import CleanResources, general_resources
from .stage import explain_text

LANGUAGES = ("en", "fr")  # the languages the cleaner has word lists and OCR data for
SOFT_HYPHEN_MARK = "¬"  # how the benchmark's gold writes a word broken at a line end
# the OCR's own mark of a word broken at a line end (before the line break): read by the cleaner as the hyphen
# it is, so the word is judged whole (evi¬ deuce -> evidence); where the cleaner leaves it (or keeps it as a
# compound's hyphen) the mark is written back as printed.  (After a letter: a mark before it, ``hand.¬``, is
# the word-boundary pass's to read.)
_SOFT_BREAK = regex.compile(r"(?<=\p{L})" + SOFT_HYPHEN_MARK + r"(?=[ \t]*\n)")


class RecordError(PipelineError):
    """A line of a HIPE-OCRepair file that is not a record the repair can read."""


@dataclass(frozen=True)
class Unit:
    """One record read: its line in the file, its document id, language and OCR text, and the record."""

    line: int
    document_id: str
    lang: str
    ocr: str
    record: dict


def read_record(line: str, number: int) -> Unit:
    """One JSON line -> :class:`Unit`, or :class:`RecordError` saying in one line what is wrong."""
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as e:
        raise RecordError(f"line {number}: not JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(rec, dict):
        raise RecordError(f"line {number}: a JSON {type(rec).__name__}, not a record (an object)")
    meta = rec.get("document_metadata")
    hyp = rec.get("ocr_hypothesis")
    if not isinstance(meta, dict) or not isinstance(hyp, dict):
        raise RecordError(f"line {number}: no document_metadata or ocr_hypothesis object")
    text = hyp.get("transcription_unit")
    if not isinstance(text, str):
        raise RecordError(f"line {number}: ocr_hypothesis.transcription_unit is not a string")
    lang = meta.get("language")
    if not isinstance(lang, str) or not lang:
        raise RecordError(f"line {number}: document_metadata.language is missing")
    return Unit(number, str(meta.get("document_id", "")), lang.lower(), text, rec)


def layout_text(cleaned: Cleaned, printed: str | None = None) -> str:
    """The cleaned text with each line-break hyphen the cleaner joined written back as ``¬`` + the line
    break (the benchmark's convention), so the text keeps the OCR's lines; a word repaired across a line
    break keeps the break at the same place (``evi¬`` / ``deuce`` -> ``evi¬`` / ``dence``).  ``printed``: the
    unit as printed, when the cleaner read another text of the same length (its ``¬`` read as hyphens): what
    the cleaner left unchanged is copied from it."""
    out, pos = [], 0
    raw = cleaned.raw
    src = printed if printed is not None and len(printed) == len(raw) else raw
    for c in cleaned.corrections:
        out.append(src[pos : c.start])
        if c.kind == "hyphenation" and c.after == "" and c.before.rstrip(" \t").endswith("\n"):
            out.append(SOFT_HYPHEN_MARK + "\n")
        elif c.kind == "hyphenation" and SOFT_HYPHEN_MARK in src[c.start : c.end]:
            out.append(src[c.start : c.end])  # (a compound's hyphen kept: the mark as printed)
        else:
            out.append(_keep_break(c.before, c.after))
        pos = c.end
    out.append(src[pos:])
    return "".join(out)


def _keep_break(before: str, after: str) -> str:
    """``after`` with the line-break hyphen of ``before`` put back at the same place, when ``before`` is one
    word broken at a line end and ``after`` one word (a repair across the break); else ``after``."""
    m = regex.fullmatch(r"(\p{L}+)[-¬][ \t]*\n[ \t]*\p{L}+", before)
    if m is None or not after.isalpha():
        return after
    k = min(len(m.group(1)), len(after) - 1)
    return after[:k] + SOFT_HYPHEN_MARK + "\n" + after[k:] if k > 0 else after


def repair_text(
    text: str, lang: str, config: CleanConfig = CleanConfig(), resources: CleanResources | None = None
) -> str:
    """One unit of OCR repaired with the general resources of ``lang`` (or ``resources``), its lines kept."""
    read = _SOFT_BREAK.sub("-", text)
    cleaned, _log = explain_text(read, lang, resources or general_resources(lang), config)
    return layout_text(cleaned, text)


def filled(unit: Unit, text: str) -> dict:
    """The unit's record with ``ocr_postcorrection_output.transcription_unit`` set to ``text`` (the other
    fields as read)."""
    rec = dict(unit.record)
    out = rec.get("ocr_postcorrection_output")
    rec["ocr_postcorrection_output"] = {**(out if isinstance(out, dict) else {}), "transcription_unit": text}
    return rec


def record_line(rec: dict) -> str:
    """A record as one JSON line (non-ASCII written as is, as the benchmark's files are)."""
    return json.dumps(rec, ensure_ascii=False) + "\n"
