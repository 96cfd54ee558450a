"""Character- and line-level passes of the clean stage.

Each pass reads the current text of an :class:`~pipeline.edits.EditBuffer` and returns edits in
current-text offsets: typography and control characters, web-debris lines, running heads and page
numbers (with the page-break records), OCR debris characters, and hyphenation joins.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import regex

from .edits import Edit, non_overlapping
from .lexicon import LexiconData, fold

CONTROL_RE = regex.compile(r"[\p{Cc}\p{Cf}&&[^\n\t]]|\r", regex.V1)
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


def pass_control(text: str) -> list[Edit]:
    """Remove control and format characters (soft hyphen, zero-width, BOM, CR)."""
    edits = []
    for m in CONTROL_RE.finditer(text):
        edits.append(Edit(m.start(), m.end(), "", "normalisation", "regex:control", 1.0, (), f"control/format character U+{ord(m.group()):04X}"))
    return edits


def pass_glyphs(text: str, glyphs: tuple[tuple[str, str, str], ...]) -> list[Edit]:
    """Historical letter forms (``corpus/lexicon/glyphs.tsv``: long s, r rotunda) read as their letter."""
    edits = []
    for printed, letter, name in glyphs:
        i = text.find(printed)
        while i != -1:
            edits.append(Edit(i, i + len(printed), letter, "normalisation", "glyph", 1.0, (letter,), f"{name or printed!r} is a form of {letter!r}"))
            i = text.find(printed, i + len(printed))
    return sorted(edits, key=lambda e: e.start)


MOJIBAKE_HINT = regex.compile(r"[ÃÂÅÐÑâï][\x80-\xbf€™œžŸ¡-¿]|[\ufb00-\ufb06\ufffd]")


def pass_ftfy(text: str) -> list[Edit]:
    """Repair mojibake and ligatures line by line with ftfy (curly quotes kept as printed)."""
    import difflib

    import ftfy

    edits = []
    pos = 0
    for line in text.split("\n"):
        if line and not line.isascii() and MOJIBAKE_HINT.search(line):
            fixed = ftfy.fix_text(line, uncurl_quotes=False, fix_character_width=False, normalization="NFC", explain=False)
            if fixed != line:
                sm = difflib.SequenceMatcher(None, line, fixed, autojunk=False)
                for op, i1, i2, j1, j2 in sm.get_opcodes():
                    if op != "equal":
                        edits.append(Edit(pos + i1, pos + i2, fixed[j1:j2], "normalisation", "ftfy", 0.95, (), "encoding/ligature repair"))
        pos += len(line) + 1
    return edits


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


def pass_debris_lines(text: str, lex: LexiconData, ratio: float, frame_words: int = 2) -> list[Edit]:
    """Whole lines of web-page debris: another script than the witness language, or a debris pattern."""
    edits = []
    spans = list(_line_spans(text))
    n = len(spans)
    for k, (s, e, line) in enumerate(spans):
        st = line.strip()
        if not st:
            continue
        why = ""
        if foreign_script(st, lex.lang, ratio, frame_words):
            why = f"line mostly in another script than Latin ({lex.lang})"
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
        edits.append(Edit(start, end, "", "debris", "line:" + ("script" if "script" in why else "pattern"), 0.95, (), why))
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
    before = next((l.strip() for _, _, l in reversed(spans[:k]) if l.strip()), "")
    after = next((l.strip() for _, _, l in spans[k + 1 :] if l.strip()), "")
    return bool(before and after) and before[-1] not in ".!?:;»”)" and after[:1].islower()


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
    head_counts = Counter(fold(" ".join(rest)) for ws in map(str.split, short) if len(ws) > 1
                          for tok, rest in ((ws[0], ws[1:]), (ws[-1], ws[:-1])) if pn.read(tok.strip(".,")) is not None)
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
            if page is None and _known_head(words, lex, cfg.head_max_dist) and st.upper() == st and _interrupts(spans, k):
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
    for m in inline.finditer(text):
        p = pn.read(m.group(2))
        if p is None or pn.real_digits(m.group(2)) < 1:
            continue
        if any(ed.start <= m.start() < ed.end for ed in edits):
            continue
        start, end = m.start(), m.end()
        if start > 0 and text[start - 1] == " ":
            start -= 1
        elif end < len(text) and text[end] == " ":
            end += 1
        rs, re_ = to_raw(m.start(), m.end())
        edits.append(Edit(start, end, "", "running_head", "layout:inline", 0.9, (), f"inline running head around page {p!r}"))
        breaks.append(PendingBreak(rs, re_, p, m.group(1).upper(), m.group()))
    # a page number printed in braces inside the text, as transcriptions mark where a page begins: "{172}"
    for m in regex.finditer(r"[ \t]?\{(\d{1,4})\}", text):
        if any(ed.start <= m.start() < ed.end for ed in edits):
            continue
        rs, re_ = to_raw(m.start(), m.end())
        edits.append(Edit(m.start(), m.end(), "", "running_head", "layout:inline", 0.95, (), f"page number in braces: page {m.group(1)!r}"))
        breaks.append(PendingBreak(rs, re_, m.group(1), "", m.group().strip()))
    return non_overlapping(edits), breaks


def pass_debris_chars(text: str, lang: str, cfg, elisions: tuple[str, ...] = (), domain: bool = False, blots: str = "",
                      is_word: Callable[[str], bool] | None = None, zipf: Callable[[str], float] | None = None) -> list[Edit]:
    """OCR debris characters: stray ^ | * (and the language's ``blots``, corpus/lexicon/blots.tsv) standing
    alone, * or ^ glued to the end of a word,
    and (French) an unpaired closing guillemet read where a comma was printed (after a word of one or two
    letters, ``de» deux``, the letter s when word + s is frequent: such a word takes no comma), an apostrophe
    glued to the end of a word that is no elision prefix (``et' que``), an apostrophe opening a line
    before a capital or closing one after a full stop that no quotation explains, an opening « glued to a
    word that nothing closes.  Witness text only: a full stop between two words read for a lost space
    (``son.parti``, both sides words of ``is_word``) and a comma printed before the space instead of after
    it (``noires ,alternativement``)."""
    edits = []
    if domain and is_word is not None:
        for m in regex.finditer(r"(?<![\p{L}.])(\p{Ll}{2,})\.(\p{Ll}{2,})(?![\p{L}.])", text):
            if is_word(m.group(1)) and is_word(m.group(2)):
                edits.append(Edit(m.end(1), m.start(2), " ", "split", "regex:stop-space", 0.8, (m.group(1) + " " + m.group(2),),
                                  f"full stop between two lower-case words ({m.group(1)!r}, {m.group(2)!r}): a speck for the space"))
    for m in regex.finditer(r"(?<=\p{L}{2})[ \t],(?=\p{L}{2})", text) if domain else ():
        edits.append(Edit(m.start(), m.end(), ", ", "split", "regex:comma-space", 0.8, (", ",), "comma printed before the space instead of after it"))
    if lang == "fr" and domain:
        for line in regex.finditer(r"(?m)^.*$", text):
            ln = line.group()
            m = regex.match(r"[ \t]*(['’‘])(?=\p{Lu})", ln)
            if m and not regex.search(r"\p{L}[.,;:!?]?['’](?!\p{L})", ln):
                edits.append(Edit(line.start() + m.start(1), line.start() + m.end(1), "", "debris", "regex:line-apostrophe", 0.8, (),
                                  "apostrophe opening a line before a capital, no quotation closed on the line: debris"))
            m = regex.search(r"(?<=[.!?;:])(['’])[ \t]*$", ln)
            if m and not regex.search(r"(?<![\p{L}])['‘’]\p{L}", ln):
                edits.append(Edit(line.start() + m.start(1), line.start() + m.end(1), "", "debris", "regex:line-apostrophe", 0.8, (),
                                  "apostrophe after the end of a sentence at a line end, no quotation opened on the line: debris"))
    for m in regex.finditer(r"(?<=[:;,])[ \t]*\.(?=[ \t]+\p{Ll})", text) if domain else ():
        # a full stop standing alone after a colon/semicolon/comma, before a lower-case word: a speck
        # (witness text only: ICDAR FR dev right->wrong 8 -> 11 with it)
        edits.append(Edit(m.start(), m.end(), "", "debris", "regex:stray-stop", 0.8, (), "lone full stop after punctuation, before a lower-case word"))
    for m in regex.finditer(r"(?<=\p{L}{2}),(?=\p{L}{2})", text) if domain else ():
        # a comma glued between two words lost the space printed after it
        edits.append(Edit(m.start(), m.end(), ", ", "split", "regex:comma-space", 0.8, (", ",), "space lost after a comma between two words"))
    if lang == "fr" and cfg.trailing_apostrophe_debris and domain:
        # (witness text only: on ICDAR FR dev the gold keeps such apostrophes as often as not, 12 helpful / 20 harmful)
        for m in regex.finditer(r"(?<![\p{L}'’‘])(\p{L}{2,})['’](?=\s)", text):
            w = m.group(1).lower()
            if w in elisions or any(w.endswith(e) for e in elisions if len(e) > 1):
                continue  # l' d' qu' jusqu' ... with a lost space after it
            if regex.search(r"(?<![\p{L}])['‘]\p{L}", text[max(0, m.start() - cfg.quote_window) : m.start()]):
                continue  # may close a quotation opened with an apostrophe
            edits.append(Edit(m.end(1), m.end(), "", "debris", "regex:trailing-apostrophe", 0.8, (), f"apostrophe after {m.group(1)!r} (no elision prefix): debris"))
    if lang == "fr" and cfg.unpaired_guillemet_as_comma:
        for m in regex.finditer(r"(?<=\s|^)«(?=\p{L})", text):
            after = text[m.end() : m.end() + cfg.guillemet_window]
            cut = ARTICLE_START.search(after)
            after = after[: cut.start()] if cut else after
            if "»" not in after:
                edits.append(Edit(m.start(), m.end(), "", "debris", "regex:unclosed-guillemet", 0.7, (), "« glued to a word, never closed: debris"))
    for m in regex.finditer(r"(?<=\s|^)[\^|*" + regex.escape(blots) + r"]+(?:\s+|$)", text):
        edits.append(Edit(m.start(), m.end(), "", "debris", "regex:stray-char", 0.9, (), "stray OCR debris character"))
    for m in regex.finditer(r"(?<=\s|^)[\^|*]+[«»]+(?:[ \t]+|$)", text):
        # a guillemet stuck to debris (|«) quotes nothing: the token is debris as a whole
        edits.append(Edit(m.start(), m.end(), "", "debris", "regex:stray-char", 0.85, (), "stray OCR debris characters"))
    # (after a one-letter word, ``c^ dernier``, the character may stand for a lost letter: pass_glued_guillemet decides)
    lone = r"(?<!(?<![\p{L}'’])\p{L})" if cfg.repair_words and cfg.guillemet_letters else ""
    for m in regex.finditer(r"(?<=\p{L}{2})[*^]+(?=[ \t]*\n[ \t]*\.?[\p{N}ilo$»]{1,3}[ \t]?\.)", text):
        # a debris character ending the last line of an article (the next line is numbered): the full stop
        edits.append(Edit(m.start(), m.end(), ".", "debris", "regex:debris-stop", 0.75, (".",), "debris at the end of an article read for a full stop"))
    for m in regex.finditer(lone + r"(?<=\p{L})[*^]+(?=[\s,;:.!?]|$)", text):
        edits.append(Edit(m.start(), m.end(), "", "debris", "regex:stray-char", 0.85, (), "debris character after a word"))
    for m in regex.finditer(r"(?<=\p{L})-(?=[ \t]+\d{1,3}\.[ \t]+\p{Lu})", text):
        # a word-final hyphen before a numbered article ("go on- 5. If"): no word follows to join, it was a full stop
        edits.append(Edit(m.start(), m.end(), ".", "debris", "regex:hyphen-stop", 0.75, (".",), "hyphen before a numbered article read for a full stop"))
    if lang == "fr" and cfg.unpaired_guillemet_as_comma:
        for m in regex.finditer(r"\s?»(?=\s)", text):
            before = text[max(0, m.start() - cfg.guillemet_window) : m.start()]
            cut = list(ARTICLE_START.finditer(before))
            if cut:
                before = before[cut[-1].end() :]  # a quotation does not run on from one numbered article into the next
            if _last_opening(before) > before.rfind("»"):
                continue  # closes an open «
            if m.start() > 0 and not regex.match(r"[\p{L}\s]", text[m.start() - 1]):
                continue
            short = regex.search(r"(?:^|(?<=\s))\p{L}{1,2}$", text[max(0, m.start() - 3) : m.start()])  # (a whole word: 3 characters hold it and what stands before it)
            zs = zipf(short.group().lower() + "s") if short and zipf is not None and cfg.repair_words else 0.0
            if zs >= cfg.guillemet_s_min_zipf:
                w = short.group()
                edits.append(Edit(m.start(), m.end(), "s", "debris", "lexicon:glued-guillemet", 0.75, (w + "s", w + ","),
                                  f"» glued to {w!r} read as s: {w + 's'!r} (zipf {zs:.2f}; a word of one or two letters takes no comma)"))
                continue
            edits.append(Edit(m.start(), m.end(), ",", "debris", "regex:unpaired-guillemet", 0.7, (",",), "unpaired » between words: a misread comma"))
    return non_overlapping(edits)


def pass_number_lookalikes(text: str, lookalikes: dict[str, str]) -> list[Edit]:
    """Letters read for digits inside a number printed in comma-separated thousands (``270,OOOf`` is
    ``270,000f``, ``l,316,000`` is ``1,316,000``): the groups of three after each comma make the shape
    certain.  Only the look-alikes of 0 and 1 (lookalikes.tsv) are read; the number needs a real digit."""
    look = {ch: d for ch, d in lookalikes.items() if d in "01" and not ch.isdigit()}
    if not look:
        return []
    cls = "[0-9" + regex.escape("".join(look)) + "]"
    edits = []
    for m in regex.finditer(rf"(?<![\p{{L}}\p{{N}},.]){cls}{{1,3}}(?:,{cls}{{3}})+(?![\p{{N}}]|,{cls})", text):
        t = m.group()
        if not any(c in look for c in t) or sum(c.isdigit() for c in t) < 2:
            continue
        fixed = "".join(look.get(c, c) for c in t)
        edits.append(Edit(m.start(), m.end(), fixed, "spelling", "lookalike:number", 0.85, (fixed,),
                          f"{t!r}: letters in the digit groups of a number read as {fixed!r}"))
    return edits


# the start of a numbered article on a new line ("\n13. Quand", OCR look-alikes included: "\ni3. ", "\nio».Si")
ARTICLE_START = regex.compile(r"\n[ \t]*[\p{N}ilo$»]{1,3}[ \t]?\.(?=[ \t]|\p{Lu})")


def _last_opening(before: str) -> int:
    """Position of the last « of ``before`` that can open a quotation: not glued to the end of a word
    (``qu«``, ``moin«`` are debris for a letter) nor to another debris character (``|«``); -1 if none."""
    for m in reversed(list(regex.finditer("«", before))):
        prev = before[m.start() - 1] if m.start() > 0 else " "
        if prev.isalpha() or prev in "|^*":
            continue
        return m.start()
    return -1


@lru_cache(maxsize=8)
def _inword_debris_patterns(debris: str) -> tuple[regex.Pattern, regex.Pattern]:
    """(a letter, ``debris`` characters and a letter; the same between two whole words, the groups being
    word, debris, word), compiled once per ``debris`` set: the pass runs on every text."""
    cls = "[" + regex.escape(debris) + "]+"
    return regex.compile(rf"\p{{L}}{cls}\p{{L}}"), regex.compile(rf"(?<![\p{{L}}\d])(\p{{L}}+)({cls})(\p{{L}}+)(?![\p{{L}}\d])")


def pass_inword_debris(text: str, debris: str, is_word: Callable[[str], bool], domain: Callable[[str], bool] = lambda w: False) -> list[Edit]:
    """A debris character between letters (``p>ack``, ``trump>card``, ``teni^le``): dropped when the two
    sides make one word, read as a lost space when each side is a word on its own, unless their join is a
    term of the witness's ``domain`` (``car^tes`` is cartes, not car tes)."""
    if not debris:
        return []
    near, pattern = _inword_debris_patterns(debris)
    if not near.search(text):
        return []  # (the common case: a cheap scan spares the word-by-word one)
    edits = []
    for m in pattern.finditer(text):
        a, d, b = m.group(1), m.group(2), m.group(3)
        s, e = m.start(2), m.end(2)
        joined, wa, wb = is_word(a + b), is_word(a), is_word(b)
        if joined and (domain((a + b).lower()) or not (wa and wb and len(a) > 1 and len(b) > 1)):
            edits.append(Edit(s, e, "", "debris", "lexicon:inword-debris", 0.85, (a + b,), f"debris {d!r} inside {a + b!r}"))
        elif wa and wb and (len(a) > 1 or a.lower() in ("a", "à", "y", "i")):
            edits.append(Edit(s, e, " ", "split", "lexicon:debris-space", 0.8, (a + " " + b,), f"debris {d!r} for a lost space between {a!r} and {b!r}"))
    return edits


PUNCT_IN_WORD = regex.compile(r"(?<![\p{L}\d])(\p{L}{2,})([;:])(\p{L}{2,})(?![\p{L}\d])")
PUNCT_NEAR = regex.compile(r"\p{L}[;:]\p{L}")  # (in every PUNCT_IN_WORD match: most texts have none, found by a cheap scan)


def pass_punct_in_word(text: str, is_word: Callable[[str], bool]) -> list[Edit]:
    """A semicolon or colon between two letter runs that are not both words (``pi;opre``): debris inside
    one word, made the debris character ``^`` for the word repair to read (``propre``).  A word and its
    neighbour with the space lost after the mark (``jeu;il``) keep it: each side is a word."""
    if not PUNCT_NEAR.search(text):
        return []
    edits = []
    for m in PUNCT_IN_WORD.finditer(text):
        a, b = m.group(1), m.group(3)
        if not (is_word(a) and is_word(b)):
            edits.append(Edit(m.start(2), m.end(2), "^", "debris", "regex:punct-in-word", 0.7, (a + "^" + b,),
                              f"{m.group(2)!r} between {a!r} and {b!r}, not two words: debris inside one word"))
    return edits


INNER_CAPITAL = regex.compile(r"(?<![\p{L}\p{M}\p{N}'’])\p{Ll}+\p{Lu}\p{Ll}+(?![\p{L}\p{M}\p{N}])")


def pass_inner_capital(text: str, is_word: Callable[[str], bool]) -> list[Edit]:
    """A capital inside a lower-case word (``aVec``): a misread lower-case letter when the word in lower
    case is known (names keep theirs: ``deVere`` lower-cased is no word; ``McLeod`` begins with a capital)."""
    edits = []
    for m in INNER_CAPITAL.finditer(text):
        t = m.group()
        if is_word(t):  # (is_word reads the word in lower case)
            edits.append(Edit(m.start(), m.end(), t.lower(), "spelling", "lexicon:inner-capital", 0.85, (t.lower(),),
                              f"capital inside the lower-case word {t!r}: {t.lower()!r}"))
    return edits


GLUED_GUILLEMET = regex.compile(r"(?<![\p{L}'’])(?:(\p{L}+)(«)|(\p{L})([*^]+))(?=[\s,.;:!?]|$)")
GLUED_CHAR = regex.compile(r"[«*^]")  # in every GLUED_GUILLEMET match: a text without one is not scanned word by word


class _Glued:
    """A word + glued character match in the shape of GLUED_GUILLEMET's first alternative."""

    def __init__(self, word: str, char: str, start: int, end: int):
        self._g, self._s, self._e = (None, word, char), start, end

    def group(self, k: int = 0) -> str:
        return self._g[k]

    def start(self, k: int = 0) -> int:
        return self._s if k <= 1 else self._s + len(self._g[1])

    def end(self, k: int = 0) -> int:
        return self._s + len(self._g[1]) if k == 1 else self._e


def pass_glued_guillemet(text: str, letters: str, is_word: Callable[[str], bool], zipf: Callable[[str], float], gain: float = 1.0,
                         elisions: tuple[str, ...] = ()) -> list[Edit]:
    """An opening guillemet glued to the end of a word (``moin«``, ``qu«``) is no quotation mark: it is
    debris printed for a lost letter when word + letter is a word ``gain`` zipf units more frequent than the bare word.
    An elision prefix (``qu``, ``jusqu`` of ``elisions``) is no word without its apostrophe: its frequency does not count."""
    if not GLUED_CHAR.search(text):
        return []
    edits = []
    for m in GLUED_GUILLEMET.finditer(text):
        if m.group(3):  # ^ or * after a one-letter word: c^ = ce
            m = _Glued(m.group(3), m.group(4), m.start(3), m.end())
        w = m.group(1)
        zw = 0.0 if w.lower() in elisions else zipf(w.lower())
        opts = [(zipf((w + ch).lower()), w + ch) for ch in letters if is_word(w + ch) and zipf((w + ch).lower()) >= zw + gain]
        if not opts:
            if m.group(2) != "«":  # a debris character after a one-letter word standing for nothing
                edits.append(Edit(m.start(2), m.end(), "", "debris", "regex:stray-char", 0.85, (), "debris character after a word"))
            continue
        z, best = max(opts)
        edits.append(Edit(m.end(1), m.end(), best[len(w):], "debris", "lexicon:glued-guillemet", 0.8, tuple(o[1] for o in sorted(opts, reverse=True)), f"{m.group(2)} glued to {w!r} read as a letter: {best!r}"))
    return edits


HYPH_EOL = regex.compile(r"(\p{L}+)-[ \t]*\n[ \t]*(\p{L}+)")
HYPH_INLINE = regex.compile(r"(\p{L}+)[-^¬][ \t]+(?:,[ \t]*)?(\p{Ll}\p{L}*)")


def pass_hyphenation(
    text: str,
    is_word: Callable[[str], bool],
    is_compound: Callable[[str, str], bool],
    rare_join: Callable[[str, str], bool] | None = None,
) -> list[Edit]:
    """Join words split by an end-of-line (or end-of-page) hyphen, or by a hyphen left inside a line
    by a lost line break; keep real compounds (hyphen kept, line break removed)."""
    edits = []
    for m in HYPH_EOL.finditer(text):
        a, b = m.group(1), m.group(2)
        s, e = m.end(1), m.start(2)
        if is_compound(a, b):
            edits.append(Edit(s, e, "-", "hyphenation", "lexicon:compound", 0.8, (a + "-" + b, a + b), f"compound {a}-{b} kept, line break removed"))
        elif b[0].islower() or is_word(a + b):
            conf = 0.95 if is_word(a + b) else 0.75
            edits.append(Edit(s, e, "", "hyphenation", "lexicon:join" if conf > 0.9 else "layout:join", conf, (a + b,), f"end-of-line hyphen joined: {a}+{b}"))
    taken = [(e.start, e.end) for e in edits]
    for m in HYPH_INLINE.finditer(text):
        a, b = m.group(1), m.group(2)
        s, e = m.end(1), m.start(2)
        if any(x < e and s < y for x, y in taken):
            continue
        if is_word(a + b) and not is_compound(a, b):
            edits.append(Edit(s, e, "", "hyphenation", "lexicon:join-inline", 0.9, (a + b,), f"hyphen left inside a line joined: {a}+{b} is a word"))
        elif rare_join is not None and rare_join(a, b):
            edits.append(Edit(s, e, "", "hyphenation", "lexicon:join-inline", 0.8, (a + b,), f"hyphen left inside a line joined: {a}+{b} is a (rare) word and {a!r}, {b!r} are not both common words"))
    return non_overlapping(edits)


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)
