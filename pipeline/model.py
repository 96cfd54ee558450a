"""The plain frozen value types that flow between the pipeline's stages.

Every stage is a pure function from these types to these types; nothing here does I/O.
Offsets are Python string indices (code points) into NFC text. The record types (Law, Correction,
Flag, Regularisation, PageBreak, Segment, Link) use ``__slots__``: a library of a thousand scans
holds hundreds of thousands of them, at about a third of the memory of dict-backed instances.

Data flow::

    WitnessText --clean--> Cleaned --segment--> Segmented --align--> Link
                                                      \\--export--> TEI, tables --rules--> referee
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

GAMES = ("ecarte", "whist")
LANGS = ("fr", "en")
KINDS = ("ocr", "transcription", "modernized")

# Kinds of Correction.  Documented in docs/OUTPUTS.md (outputs/corrections.csv).
CORRECTION_KINDS = (
    "normalisation",  # Unicode/typography: NFC, curly quotes, control characters, long s read as s
    "debris",  # OCR debris characters (^, stray |, *, » inside words) and web-page debris lines
    "running_head",  # a running head / page number line or fragment removed from the reading text
    "hyphenation",  # end-of-line or end-of-page hyphen joined ("car-\ntes" -> "cartes")
    "whitespace",  # a line break or space changed (for example the line break of a joined hyphen)
    "spelling",  # a non-word repaired to a lexicon word
    "real_word",  # a real word in the wrong place repaired by context ("carie" -> "carte")
    "merge",  # a word split by OCR joined ("ma nière" -> "manière")
    "split",  # words merged by OCR split ("dutalop" -> "du talon")
    "elision",  # an elision apostrophe repaired ("qu*il" -> "qu'il")
    "casing",  # letter case repaired
    "number",  # a law number read through OCR noise ("io»." -> "10.")
    "footnote",  # a footnote marker glued to the text ("deal.[49]"): layout, the place of the note
    "markup",  # a transcription's markup (the underscores of Markdown italics, "_a_"): layout
)


@dataclass(frozen=True)
class Witness:
    """One witness: a text of one game in one language, as registered in corpus/witnesses.toml.

    A raw file may hold more than one witness (seed 003: an OCR page followed by a modernized
    reading of it); ``begin_after`` / ``end_before`` name the marker lines that delimit this
    witness inside its file (empty: the start / end of the file).
    """

    id: str  # "fr-000": unique, [a-z0-9-]+
    file: str  # path relative to corpus/, e.g. "raw/000_c07e0ee7da536d04.txt"
    game: str  # one of GAMES
    lang: str  # one of LANGS
    kind: str  # one of KINDS
    title: str
    author: str = ""
    year: int | None = None
    source: str = ""  # witnesses of one printed source share this (e.g. OCR and its modernized reading)
    page: str = ""  # first page number of the excerpt where known
    note: str = ""
    place: str = ""  # place of publication of the printed source, where known
    publisher: str = ""  # publisher of the printed source, where known
    derived_from: str = ""  # the witness this one was made from (a modernized reading: the OCR it modernizes)
    made_by: str = ""  # what made a derived witness (a person, a program, a model), where known
    begin_after: str = ""
    end_before: str = ""
    notes: str = ""  # a file of the witness's footnotes, relative to corpus/ ("[49] text", one note a paragraph)
    # the notes of that file as read by ``load_witnesses``: (marker number, text), never set in witnesses.toml
    footnotes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class WitnessText:
    """The raw text of one witness: exactly the characters of its slice of the raw file (NFC)."""

    witness: Witness
    raw: str
    offset: int = 0  # where ``raw`` starts in the raw file


@dataclass(frozen=True, slots=True)
class Correction:
    """One change from the raw text to the cleaned text, with its evidence.

    ``raw[start:end] == before`` and the cleaned text has ``after`` in its place.
    Corrections of one witness never overlap and are sorted by ``start``.
    """

    start: int
    end: int
    before: str
    after: str
    kind: str  # one of CORRECTION_KINDS
    method: str  # what decided it, e.g. "lexicon+confusion-levenshtein", "context-bigram", "regex:debris"
    confidence: float = 1.0  # 0..1
    candidates: tuple[str, ...] = ()  # candidates considered, best first
    evidence: str = ""  # human-readable: why this change


@dataclass(frozen=True, slots=True)
class Flag:
    """A word left as printed but flagged for review (repair below the confidence threshold)."""

    start: int  # span in the raw text
    end: int
    text: str
    candidates: tuple[str, ...] = ()
    confidence: float = 0.0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Regularisation:
    """A historical spelling kept in the reading text, with its modern form (TEI orig/reg)."""

    start: int  # span in the raw text
    end: int
    orig: str
    reg: str


@dataclass(frozen=True, slots=True)
class PageBreak:
    """A page break found inside the text: where it was printed and where it falls in the clean text."""

    raw_start: int  # span of the running head / page number line in the raw text (may be empty)
    raw_end: int
    clean_offset: int  # the position in the cleaned text at which the new page begins
    page: str = ""  # page number as read ("10"); "" if not printed
    head: str = ""  # running head as read, normalised ("DE L'ÉCARTÉ.")
    printed: str = ""  # the line exactly as printed ("|o DB l'Écarté.")


@dataclass(frozen=True)
class Cleaned:
    """Output of the clean stage for one witness."""

    witness_id: str
    raw: str
    text: str
    corrections: tuple[Correction, ...] = ()
    page_breaks: tuple[PageBreak, ...] = ()
    flags: tuple[Flag, ...] = ()
    regularisations: tuple[Regularisation, ...] = ()


@dataclass(frozen=True, slots=True)
class Law:
    """One law (or clause, or unnumbered rule) of a witness.

    ``id`` is stable across rebuilds and re-scans: ``<game>.<witness>.law-<n>`` for a numbered law,
    ``<game>.<witness>.law-<n><letter>`` for a lettered law printed after it (``law-12a``, number 12, label "12a"),
    ``<game>.<witness>.law-<n>.<x>`` for clause ``x`` of law ``n``, ``<game>.<witness>.rule-<k>``
    for the k-th unnumbered rule (1-based, by order).
    """

    id: str
    witness_id: str
    game: str
    lang: str
    kind: str  # "law" | "clause" | "rule"
    number: int | None  # as read (None for unnumbered rules)
    printed: str  # the number as printed ("io»."), "" when not printed (inferred)
    label: str  # "10", "37(c)", "rule 3"
    order: int  # 0-based order in the witness
    start: int  # span in the cleaned text (including the printed number)
    end: int
    text: str  # cleaned law text without its number, whitespace collapsed
    pages: tuple[str, ...] = ()
    confidence: float = 1.0  # of the boundary / number reading
    complete: bool = True  # False when the law starts before or ends after the witness
    parent: str | None = None  # law id of the parent law, for clauses
    heading: str = ""  # the heading the law/rule stands under
    evidence: str = ""  # how the boundary and number were decided

    @property
    def text_hash(self) -> str:
        return text_hash(self.text)


@dataclass(frozen=True, slots=True)
class Segment:
    """A span of the cleaned text: a law, or non-law material (heading, front matter, gap)."""

    kind: str  # "law" | "clause" | "rule" | "heading" | "front" | "other"
    start: int
    end: int
    law_id: str | None = None


@dataclass(frozen=True)
class Segmented:
    """Output of the segment stage: the segments tile the cleaned text from 0 to len(text)."""

    witness_id: str
    laws: tuple[Law, ...]
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """An alignment link between two laws of one game, with its score and evidence."""

    game: str
    a: str  # law id
    b: str  # law id
    score: float  # 0..1
    kind: str  # "same_text" | "edition" | "same_code" | "translation"
    evidence: str = ""
    band: str = ""  # certainty band: "high" | "medium" | "low" (pipeline/align.py AlignModel.band)


@dataclass(frozen=True)
class WitnessResult:
    """All per-witness stage results (what the build caches per witness)."""

    witness: Witness
    cleaned: Cleaned
    segmented: Segmented
    stats: dict = field(default_factory=dict, compare=False, hash=False)


def text_hash(text: str) -> str:
    """A short stable hash of a text, used to detect that a law changed since it was reviewed."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


def replay(raw: str, corrections: tuple[Correction, ...] | list[Correction]) -> str:
    """Apply corrections (sorted, non-overlapping spans of ``raw``) and return the cleaned text."""
    out: list[str] = []
    pos = 0
    for c in sorted(corrections, key=lambda c: (c.start, c.end)):
        if c.start < pos:
            raise ValueError(f"overlapping corrections at {c.start}: {c!r}")
        if raw[c.start : c.end] != c.before:
            raise ValueError(f"correction does not match raw text at {c.start}: {c!r}")
        out.append(raw[pos : c.start])
        out.append(c.after)
        pos = c.end
    out.append(raw[pos:])
    return "".join(out)


def offset_maps(raw: str, corrections: tuple[Correction, ...]) -> tuple[list[int], list[int]]:
    """Map cleaned-text offsets to raw offsets and back.

    Returns ``(clean_to_raw, raw_to_clean)``, lists of length ``len(text)+1`` and ``len(raw)+1``.
    Inside a replaced span, characters map to the start of the span on the other side.
    """
    clean_to_raw: list[int] = []
    raw_to_clean: list[int] = [0] * (len(raw) + 1)
    pos = 0
    # (filled run by run with slices: the maps of a whole witness are built on every clean)
    for c in sorted(corrections, key=lambda c: (c.start, c.end)):
        n = len(clean_to_raw)
        raw_to_clean[pos : c.start] = range(n, n + c.start - pos)
        clean_to_raw.extend(range(pos, c.start))
        raw_to_clean[c.start : c.end] = [len(clean_to_raw)] * (c.end - c.start)
        clean_to_raw.extend([c.start] * len(c.after))
        pos = c.end
    n = len(clean_to_raw)
    raw_to_clean[pos : len(raw)] = range(n, n + len(raw) - pos)
    clean_to_raw.extend(range(pos, len(raw)))
    raw_to_clean[len(raw)] = len(clean_to_raw)
    clean_to_raw.append(len(raw))
    return clean_to_raw, raw_to_clean
