"""Layout: lines that are no text of the page.  Web-debris lines (another script than the witness
language; the patterns of ``corpus/lexicon/debris.tsv``) and running heads and page numbers (whole
short lines, and inline ``HEAD NN HEAD``), each removed as a Correction; a page break is recorded for
each running head or page number."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Callable, Sequence

import regex

from .edits import Edit, non_overlapping
from ..textnorm import fold
from .lexicon import LexiconData
from .normalise import FORM_FEED
from .passes import Pass, PassContext, PassResult, edits_only

LATIN_RE = regex.compile(r"\p{Script=Latin}")
LETTER_RE = regex.compile(r"\p{L}")
NON_LATIN_LETTERS_RE = regex.compile(r"(?:(?!\p{Script=Latin})\p{L})+")


@dataclass(frozen=True)
class PendingBreak:
    """A page break found by the running-head pass (current-text span at the time it was found)."""

    raw_start: int
    raw_end: int
    page: str
    head: str
    printed: str


def _line_spans(text: str):
    pos = 0
    for line in text.split("\n"):
        yield pos, pos + len(line), line
        pos += len(line) + 1


WORD_LETTERS_RE = regex.compile(r"\p{L}+")


def foreign_script(line: str, lang: str, ratio: float, frame_words: int = 2) -> bool:
    """A line mostly in another script than the witness's (Latin), or framed by one: it opens with a
    word in another script and has at least ``frame_words`` such words (a web page's title line
    "Читать книгу <Latin title> - Страница 24" quotes the book's title inside its own language)."""
    if ratio > 0 and (line.isascii() or not NON_LATIN_LETTERS_RE.search(line)):
        return False  # every letter Latin: no share of others, no framing word (most lines: no counting)
    words = WORD_LETTERS_RE.findall(line)
    letters = sum(map(len, words))
    if letters < 3:
        return False
    # (ASCII letters are all Latin)
    non_latin = 0 if line.isascii() else sum(map(len, NON_LATIN_LETTERS_RE.findall(line)))
    if non_latin / letters >= ratio:
        return True
    foreign = [w for w in words if not LATIN_RE.search(w)] if non_latin else []
    return bool(words) and frame_words > 0 and len(foreign) >= frame_words and words[0] in foreign


def _non_latin_share(line: str) -> float:
    letters = sum(map(len, WORD_LETTERS_RE.findall(line)))
    return sum(map(len, NON_LATIN_LETTERS_RE.findall(line))) / letters if letters else 0.0


def pass_debris_lines(text: str, lex: LexiconData, ratio: float, frame_words: int = 2) -> list[Edit]:
    """Whole lines of web-page debris: another script than the witness language, or a debris pattern."""
    edits: list[Edit] = []
    spans = list(_line_spans(text))
    n = len(spans)
    for k, (s, e, line) in enumerate(spans):
        st = line.strip()
        if not st:
            continue
        why = ""
        if foreign_script(st, lex.lang, ratio, frame_words):
            why = (
                f"line mostly in another script than Latin ({lex.lang})"
                if _non_latin_share(st) >= ratio
                else f"line opening with {frame_words} or more words in another script than Latin ({lex.lang}): a web page's frame"
            )
        else:
            for pat in lex.debris:
                if pat.fullmatch(st):
                    why = f"web-debris pattern {pat.pattern!r}"
                    break
        if not why:
            continue
        # remove the line with its newline, and the blank lines that follow (or precede, at the end)
        end = e
        j = k
        while j + 1 < n and not spans[j + 1][2].strip():
            j += 1
        if j > k and j + 1 < n:
            end = spans[j + 1][0]
        elif e < len(text):
            end = e + 1
        start = s
        if end >= len(text.rstrip()) or k == n - 1 or j == n - 1:
            # last content line: take the blank lines before it too
            i = k
            while i > 0 and not spans[i - 1][2].strip():
                i -= 1
            start = spans[i][0] - 1 if i > 0 else s
            start = max(start, 0)
            end = len(text) if j == n - 1 or e >= len(text) else end
        if edits and start < edits[-1].end:
            start = edits[-1].end  # debris lines in a row at the end: the line before already took the newline
        edits.append(
            Edit(start, end, "", "debris", "line:" + ("script" if "script" in why else "pattern"), 0.95, (), why)
        )
    return non_overlapping(edits)


class PageNumbers:
    """Reads page numbers printed through OCR noise, with the look-alikes of lookalikes.tsv."""

    def __init__(self, lex: LexiconData, min_real_digits: int):
        self.look = lex.lookalikes
        self.min_real = min_real_digits
        chars = "".join(regex.escape(c) for c in self.look)
        self.token_re = regex.compile(rf"[0-9{chars}]{{1,4}}")

    def read(self, tok: str) -> str | None:
        if not self.token_re.fullmatch(tok):
            return None
        return "".join(ch if ch.isdigit() else self.look[ch] for ch in tok)

    def real_digits(self, tok: str) -> int:
        return sum(ch.isdigit() for ch in tok)


HEADISH_WORD = regex.compile(r"^(?:[\p{Lu}][\p{L}'’.]*|[\p{Ll}]{1,3}['’][\p{Lu}][\p{L}'’.]*|[\p{Ll}]{1,3})[.,]?$")


def _headish(words: list[str]) -> bool:
    """Words that could be a running head: capitalised words or short particles, 1..6 of them."""
    if not 1 <= len(words) <= 6:
        return False
    if not any(regex.match(r"[\p{Lu}]", w) or regex.search(r"['’][\p{Lu}]", w) for w in words):
        return False
    return all(HEADISH_WORD.match(w) for w in words)


def _known_head(words: list[str], lex: LexiconData, max_dist: int) -> str:
    from rapidfuzz.distance import Levenshtein

    cand = fold(" ".join(words)).rstrip(".")
    best, bd = "", max_dist + 1
    for h in lex.heads:
        d = Levenshtein.distance(cand, fold(h).rstrip("."))
        if d < bd:
            best, bd = h, d
    return best if bd <= max_dist else ""


def _interrupts(spans: list[tuple[int, int, str]], k: int) -> bool:
    """Whether line ``k`` stands inside a sentence: the text before it runs on (a hyphen, a letter, a comma)
    and the text after it goes on in lower case."""
    # (by index, not by slices of the line list: a slice per candidate line made many short lines quadratic)
    before = next((spans[j][2].strip() for j in range(k - 1, -1, -1) if spans[j][2].strip()), "")
    after = next((spans[j][2].strip() for j in range(k + 1, len(spans)) if spans[j][2].strip()), "")
    return bool(before and after) and before[-1] not in ".!?:;»”)" and after[:1].islower()


def _cover_add(cover: tuple[list[int], list[int]], start: int, end: int) -> None:
    starts, max_end = cover
    starts.append(start)
    max_end.append(max(end, max_end[-1]) if max_end else end)


def _covered(cover: tuple[list[int], list[int]], pos: int) -> bool:
    """Whether ``pos`` is inside one of the spans of ``cover`` (spans added in increasing start order)."""
    starts, max_end = cover
    i = bisect_right(starts, pos) - 1
    return i >= 0 and max_end[i] > pos


def pass_running_heads(
    text: str, lex: LexiconData, cfg, to_raw: Callable[[int, int], tuple[int, int]]
) -> tuple[list[Edit], list[PendingBreak]]:
    """Running heads and page numbers: whole short lines, and inline ``HEAD NN HEAD``."""
    pn = PageNumbers(lex, cfg.min_real_digits)
    dash = lex.dash_class
    dash_re = regex.compile(rf"^\s*{dash}+\s*(\S{{1,4}})\s*{dash}+\s*$")
    edits: list[Edit] = []
    breaks: list[PendingBreak] = []
    spans = list(_line_spans(text))
    from collections import Counter

    short = [l.strip() for _, _, l in spans if 0 < len(l.strip()) <= cfg.head_max_len]
    short_counts = Counter(map(fold, short))
    # the text of the short lines that start or end with a number: a running head comes back page after page
    head_counts = Counter(
        fold(" ".join(rest))
        for ws in map(str.split, short)
        if len(ws) > 1
        for tok, rest in ((ws[0], ws[1:]), (ws[-1], ws[:-1]))
        if pn.read(tok.strip(".,")) is not None
    )
    for k, (s, e, line) in enumerate(spans):
        st = line.strip()
        if not st or len(st) > cfg.head_max_len or len(spans) == 1:
            continue
        page, head, why = None, "", ""
        m = dash_re.match(st)
        if m and pn.read(m.group(1)) is not None:
            page, why = pn.read(m.group(1)), "page number between dashes"
        else:
            words = st.split()
            first, last = words[0], words[-1]
            for tok, rest in ((first, words[1:]), (last, words[:-1])):
                p = pn.read(tok.strip(".,"))
                if p is None:
                    continue
                if not rest:
                    if pn.real_digits(tok) >= max(1, cfg.min_real_digits) and len(spans) > 2:
                        page, why = p, "page-number line"
                    break
                known = _known_head(rest, lex, cfg.head_max_dist)
                repeated = short_counts.get(fold(st), 0) >= 2 or head_counts.get(fold(" ".join(rest)), 0) >= 2
                strong_num = pn.real_digits(tok) >= cfg.min_real_digits or any(not c.isalnum() for c in tok)
                # a head met once must cut a sentence in two (a newspaper's "Jean FREVILLE. 6" signs an article)
                if known or (_headish(rest) and (repeated or (strong_num and _interrupts(spans, k)))):
                    page = p
                    head = known or " ".join(rest).upper()
                    why = "page number with running head" + (f" (known head {known!r})" if known else "")
                    break
            # a known head alone on its line is a running head when it cuts a sentence in two; between two
            # paragraphs it is the section heading of a code (CARDS. / WHIST. in a whist code)
            if (
                page is None
                and _known_head(words, lex, cfg.head_max_dist)
                and st.upper() == st
                and _interrupts(spans, k)
            ):
                head, page, why = _known_head(words, lex, cfg.head_max_dist), "", "known running head line"
        if page is None:
            continue
        end = e + 1 if e < len(text) else e
        start = s if end > e or s == 0 else s - 1
        rs, re_ = to_raw(s, e)
        edits.append(Edit(start, end, "", "running_head", "layout:line", 0.9, (), f"{why}: page {page!r}"))
        breaks.append(PendingBreak(rs, re_, page, head, st))
    # inline HEAD NN HEAD
    inline = regex.compile(r"(?<![\p{L}\d])(\p{Lu}[\p{Lu}'’]{2,})\s+(\S{1,4})\s+\1(?![\p{L}\d])")
    # whether a position falls inside an edit made so far, by bisection (not a scan of every edit per
    # match: many short lines made it quadratic): the line edits' and the inline edits' starts each
    # increase, so each list's running maximum of ends answers it
    covers: list[tuple[list[int], list[int]]] = [([], []), ([], [])]  # (starts, running max end): lines, inline
    for ed in edits:
        _cover_add(covers[0], ed.start, ed.end)
    for m in inline.finditer(text):
        p = pn.read(m.group(2))
        if p is None or pn.real_digits(m.group(2)) < 1:
            continue
        if any(_covered(c, m.start()) for c in covers):
            continue
        start, end = m.start(), m.end()
        if start > 0 and text[start - 1] == " ":
            start -= 1
        elif end < len(text) and text[end] == " ":
            end += 1
        rs, re_ = to_raw(m.start(), m.end())
        edits.append(
            Edit(start, end, "", "running_head", "layout:inline", 0.9, (), f"inline running head around page {p!r}")
        )
        _cover_add(covers[1], start, end)
        breaks.append(PendingBreak(rs, re_, p, m.group(1).upper(), m.group()))
    # a page number printed in braces inside the text, as transcriptions mark where a page begins: "{172}"
    for m in regex.finditer(r"[ \t]?\{(\d{1,4})\}", text):
        if any(ed.start <= m.start() < ed.end for ed in edits):
            continue
        rs, re_ = to_raw(m.start(), m.end())
        edits.append(
            Edit(
                m.start(),
                m.end(),
                "",
                "running_head",
                "layout:inline",
                0.95,
                (),
                f"page number in braces: page {m.group(1)!r}",
            )
        )
        breaks.append(PendingBreak(rs, re_, m.group(1), "", m.group().strip()))
    return non_overlapping(edits), breaks


def form_feed_breaks(raw: str, found: Sequence[PendingBreak]) -> tuple[PendingBreak, ...]:
    """A page break at each form feed of ``raw`` (pdftotext writes one between pages), unless a break
    ``found`` by the running heads stands next to it (nothing but white space between them: the page's
    head or foot line), or it starts or ends the text.  Its page and head are unknown (""); the form
    feed itself is removed as a control character, so the break has no printed line (raw_start ==
    raw_end)."""
    out: list[PendingBreak] = []
    spans = sorted((b.raw_start, b.raw_end) for b in found)
    starts = [a for a, _ in spans]
    i = raw.find(FORM_FEED)
    while i != -1:
        k = bisect_left(starts, i)
        near = (k < len(spans) and not raw[i + 1 : spans[k][0]].strip()) or (
            k > 0 and not raw[spans[k - 1][1] : i].strip()
        )
        edge = not raw[:i].strip() or not raw[i + 1 :].strip()  # (pdftotext ends its file with one: no page)
        if not near and not edge:
            out.append(PendingBreak(i, i, "", "", ""))
        i = raw.find(FORM_FEED, i + 1)
    return tuple(out)


def _running_heads(text: str, ctx: PassContext) -> PassResult:
    edits, breaks = pass_running_heads(text, ctx.lex, ctx.cfg, ctx.buf.raw_span)
    return PassResult(edits, breaks=breaks)


DEBRIS_LINES = Pass(
    "debris-lines",
    edits_only(
        lambda text, ctx: pass_debris_lines(text, ctx.lex, ctx.cfg.foreign_script_ratio, ctx.cfg.foreign_frame_words)
    ),
    ("remove_layout",),
    doc="web-debris lines: another script than Latin, or a pattern of debris.tsv",
)
RUNNING_HEADS = Pass(
    "running-heads", _running_heads, ("remove_layout",), doc="running heads and page numbers (page breaks recorded)"
)
