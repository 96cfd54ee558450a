"""Debris characters: what OCR prints for specks, blots and misread punctuation inside a line.

Stray ``^ | *`` (and the symbols of ``corpus/lexicon/blots.tsv``), an unpaired French ``»`` read for a
comma or for an s after a word of one or two letters; witness text only: specks for spaces, misplaced
commas, line-edge apostrophes (:func:`pass_debris_chars`).  Guillemets and debris glued to a word end
(``moin«`` = moins), debris and punctuation between letters (``p>ack``, ``pi;opre``), capitals inside a
word (``aVec``), and letters read for digits inside a number (``270,OOOf``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import regex

from .edits import Edit, non_overlapping
from .passes import Pass, PassContext, edits_only


def pass_debris_chars(
    text: str,
    lang: str,
    cfg,
    elisions: tuple[str, ...] = (),
    domain: bool = False,
    blots: str = "",
    is_word: Callable[[str], bool] | None = None,
    zipf: Callable[[str], float] | None = None,
    apostrophe_words: frozenset[str] = frozenset(),
) -> list[Edit]:
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
                edits.append(
                    Edit(
                        m.end(1),
                        m.start(2),
                        " ",
                        "split",
                        "regex:stop-space",
                        0.8,
                        (m.group(1) + " " + m.group(2),),
                        f"full stop between two lower-case words ({m.group(1)!r}, {m.group(2)!r}): a speck for the space",
                    )
                )
    for m in regex.finditer(r"(?<=\p{L}{2})[ \t],(?=\p{L}{2})", text) if domain else ():
        edits.append(
            Edit(
                m.start(),
                m.end(),
                ", ",
                "split",
                "regex:comma-space",
                0.8,
                (", ",),
                "comma printed before the space instead of after it",
            )
        )
    if lang == "fr" and domain:
        for line in regex.finditer(r"(?m)^.*$", text):
            ln = line.group()
            m = regex.match(r"[ \t]*(['’‘])(?=\p{Lu})", ln)
            if m and not regex.search(r"\p{L}[.,;:!?]?['’](?!\p{L})", ln):
                edits.append(
                    Edit(
                        line.start() + m.start(1),
                        line.start() + m.end(1),
                        "",
                        "debris",
                        "regex:line-apostrophe",
                        0.8,
                        (),
                        "apostrophe opening a line before a capital, no quotation closed on the line: debris",
                    )
                )
            m = regex.search(r"(?<=[.!?;:])(['’])[ \t]*$", ln)
            if m and not regex.search(r"(?<![\p{L}])['‘’]\p{L}", ln):
                edits.append(
                    Edit(
                        line.start() + m.start(1),
                        line.start() + m.end(1),
                        "",
                        "debris",
                        "regex:line-apostrophe",
                        0.8,
                        (),
                        "apostrophe after the end of a sentence at a line end, no quotation opened on the line: debris",
                    )
                )
    for m in regex.finditer(r"(?<=[:;,])[ \t]*\.(?=[ \t]+\p{Ll})", text) if domain else ():
        # a full stop standing alone after a colon/semicolon/comma, before a lower-case word: a speck
        # (witness text only: ICDAR FR dev right->wrong 8 -> 11 with it)
        edits.append(
            Edit(
                m.start(),
                m.end(),
                "",
                "debris",
                "regex:stray-stop",
                0.8,
                (),
                "lone full stop after punctuation, before a lower-case word",
            )
        )
    for m in regex.finditer(r"(?<=\p{L}{2}),(?=\p{L}{2})", text) if domain else ():
        # a comma glued between two words lost the space printed after it
        edits.append(
            Edit(
                m.start(),
                m.end(),
                ", ",
                "split",
                "regex:comma-space",
                0.8,
                (", ",),
                "space lost after a comma between two words",
            )
        )
    if lang in cfg.leading_apostrophe_langs:
        # an apostrophe glued to the start of a word that closes no quotation ('Hie for The, 'lass for class:
        # a speck, or a letter the OCR lost): debris, unless the word is printed so ('tis, apostrophe_words)
        for m in regex.finditer(r"(?<!\S)['‘’](\p{L}{2,})", text):
            if m.group(1).lower() in apostrophe_words:
                continue
            end = regex.search(r"[.!?]\s|\n", text[m.end() : m.end() + cfg.quote_window])
            rest = text[m.end() : m.end() + (end.start() if end else cfg.quote_window)]
            if regex.search(r"['’](?!\p{L})", rest):
                continue  # may open a quotation closed in the same sentence
            edits.append(
                Edit(
                    m.start(),
                    m.start(1),
                    "",
                    "debris",
                    "regex:leading-apostrophe",
                    0.8,
                    (),
                    f"apostrophe glued before {m.group(1)!r}, no quotation closed after it: debris",
                )
            )
    if lang == "fr" and cfg.trailing_apostrophe_debris and domain:
        # (witness text only: on ICDAR FR dev the gold keeps such apostrophes as often as not, 12 helpful / 20 harmful)
        for m in regex.finditer(r"(?<![\p{L}'’‘])(\p{L}{2,})['’](?=\s)", text):
            w = m.group(1).lower()
            if w in elisions or any(w.endswith(e) for e in elisions if len(e) > 1):
                continue  # l' d' qu' jusqu' ... with a lost space after it
            if regex.search(r"(?<![\p{L}])['‘]\p{L}", text[max(0, m.start() - cfg.quote_window) : m.start()]):
                continue  # may close a quotation opened with an apostrophe
            edits.append(
                Edit(
                    m.end(1),
                    m.end(),
                    "",
                    "debris",
                    "regex:trailing-apostrophe",
                    0.8,
                    (),
                    f"apostrophe after {m.group(1)!r} (no elision prefix): debris",
                )
            )
    if lang == "fr" and cfg.unpaired_guillemet_as_comma:
        for m in regex.finditer(r"(?<=\s|^)«(?=\p{L})", text):
            after = text[m.end() : m.end() + cfg.guillemet_window]
            cut = ARTICLE_START.search(after)
            after = after[: cut.start()] if cut else after
            if "»" not in after:
                edits.append(
                    Edit(
                        m.start(),
                        m.end(),
                        "",
                        "debris",
                        "regex:unclosed-guillemet",
                        0.7,
                        (),
                        "« glued to a word, never closed: debris",
                    )
                )
    specks = regex.escape(blots.replace("'", ""))  # (a blot among punctuation marks: ``-•``, ``.■``, ``?®``)
    alone = (
        r"[\^|*"
        + regex.escape(blots)
        + r"]+"
        + (r"|[.,;:!?'-]*[" + specks + r"][.,;:!?'" + specks + r"-]*" if specks else "")
    )
    for m in regex.finditer(r"(?<!\S)(?:" + alone + r")(?!\S)", text):
        # (the token and the spaces after it; at a line end the spaces before it: the line break stays)
        s, e = m.start(), m.end()
        after = regex.match(r"[ \t]+", text[e:])
        if after:
            e += after.end()
        else:
            while s and text[s - 1] in " \t":
                s -= 1
        edits.append(Edit(s, e, "", "debris", "regex:stray-char", 0.9, (), "stray OCR debris character"))
    glyphs = regex.escape("".join(c for c in blots if not (c.isalnum() or c in "'’~_-")))
    for m in regex.finditer(r"(?<!\S)[" + glyphs + r"]+(?=\p{Lu}\p{Ll})", text) if glyphs else ():
        # a blot glued to the start of a capitalised word (``•William Inglis``): a speck (before a lower-case
        # letter it may be a misread letter, ``•ion``: the word repair reads it)
        edits.append(
            Edit(m.start(), m.end(), "", "debris", "regex:glued-blot", 0.85, (), "a blot glued to a capitalised word")
        )
    for m in regex.finditer(r"(?<=\s|^)[\^|*]+[«»]+(?:[ \t]+|$)", text):
        # a guillemet stuck to debris (|«) quotes nothing: the token is debris as a whole
        edits.append(
            Edit(m.start(), m.end(), "", "debris", "regex:stray-char", 0.85, (), "stray OCR debris characters")
        )
    # (after a one-letter word, ``c^ dernier``, the character may stand for a lost letter: pass_glued_guillemet decides)
    lone = r"(?<!(?<![\p{L}'’])\p{L})" if cfg.repair_words and cfg.guillemet_letters else ""
    for m in regex.finditer(r"(?<=\p{L}{2})[*^]+(?=[ \t]*\n[ \t]*\.?[\p{N}ilo$»]{1,3}[ \t]?\.)", text):
        # a debris character ending the last line of an article (the next line is numbered): the full stop
        edits.append(
            Edit(
                m.start(),
                m.end(),
                ".",
                "debris",
                "regex:debris-stop",
                0.75,
                (".",),
                "debris at the end of an article read for a full stop",
            )
        )
    for m in regex.finditer(lone + r"(?<=\p{L})[*^]+(?=[\s,;:.!?]|$)", text):
        edits.append(
            Edit(m.start(), m.end(), "", "debris", "regex:stray-char", 0.85, (), "debris character after a word")
        )
    for m in regex.finditer(r"(?<=\p{L})-(?=[ \t]+\d{1,3}\.[ \t]+\p{Lu})", text):
        # a word-final hyphen before a numbered article ("go on- 5. If"): no word follows to join, it was a full stop
        edits.append(
            Edit(
                m.start(),
                m.end(),
                ".",
                "debris",
                "regex:hyphen-stop",
                0.75,
                (".",),
                "hyphen before a numbered article read for a full stop",
            )
        )
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
            short = regex.search(
                r"(?:^|(?<=\s))\p{L}{1,2}$", text[max(0, m.start() - 3) : m.start()]
            )  # (a whole word: 3 characters hold it and what stands before it)
            zs = zipf(short.group().lower() + "s") if short and zipf is not None and cfg.repair_words else 0.0
            if zs >= cfg.guillemet_s_min_zipf:
                w = short.group()
                edits.append(
                    Edit(
                        m.start(),
                        m.end(),
                        "s",
                        "debris",
                        "lexicon:glued-guillemet",
                        0.75,
                        (w + "s", w + ","),
                        f"» glued to {w!r} read as s: {w + 's'!r} (zipf {zs:.2f}; a word of one or two letters takes no comma)",
                    )
                )
                continue
            edits.append(
                Edit(
                    m.start(),
                    m.end(),
                    ",",
                    "debris",
                    "regex:unpaired-guillemet",
                    0.7,
                    (",",),
                    "unpaired » between words: a misread comma",
                )
            )
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
        edits.append(
            Edit(
                m.start(),
                m.end(),
                fixed,
                "spelling",
                "lookalike:number",
                0.85,
                (fixed,),
                f"{t!r}: letters in the digit groups of a number read as {fixed!r}",
            )
        )
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
    return regex.compile(rf"\p{{L}}{cls}\p{{L}}"), regex.compile(
        rf"(?<![\p{{L}}\d])(\p{{L}}+)({cls})(\p{{L}}+)(?![\p{{L}}\d])"
    )


def pass_inword_debris(
    text: str,
    debris: str,
    is_word: Callable[[str], bool],
    domain: Callable[[str], bool] = lambda w: False,
    elisions: tuple[str, ...] | None = None,
) -> list[Edit]:
    """A debris character between letters (``p>ack``, ``trump>card``, ``teni^le``): dropped when the two
    sides make one word, read as a lost space when each side is a word on its own, unless their join is a
    term of the witness's ``domain`` (``car^tes`` is cartes, not car tes).  With ``elisions`` (French), the letters
    after an apostrophe that follows no elision are no word of their own: ``Six'e&t`` is left as printed (and
    flagged by the language-model pass), not made a tidy ``Six'et``."""
    if not debris:
        return []
    near, pattern = _inword_debris_patterns(debris)
    if not near.search(text):
        return []  # (the common case: a cheap scan spares the word-by-word one)
    edits = []
    for m in pattern.finditer(text):
        a, d, b = m.group(1), m.group(2), m.group(3)
        s, e = m.start(2), m.end(2)
        if elisions is not None and m.start() and text[m.start() - 1] in "'’":
            head = regex.search(r"\p{L}+$", text[max(0, m.start() - 12) : m.start() - 1])
            if head and head.group().lower() not in elisions:
                continue
        joined, wa, wb = is_word(a + b), is_word(a), is_word(b)
        if joined and (domain((a + b).lower()) or not (wa and wb and len(a) > 1 and len(b) > 1)):
            edits.append(
                Edit(s, e, "", "debris", "lexicon:inword-debris", 0.85, (a + b,), f"debris {d!r} inside {a + b!r}")
            )
        elif wa and wb and (len(a) > 1 or a.lower() in ("a", "à", "y", "i")):
            edits.append(
                Edit(
                    s,
                    e,
                    " ",
                    "split",
                    "lexicon:debris-space",
                    0.8,
                    (a + " " + b,),
                    f"debris {d!r} for a lost space between {a!r} and {b!r}",
                )
            )
    return edits


PUNCT_IN_WORD = regex.compile(r"(?<![\p{L}\d])(\p{L}{2,})([;:])(\p{L}{2,})(?![\p{L}\d])")
PUNCT_NEAR = regex.compile(
    r"\p{L}[;:]\p{L}"
)  # (in every PUNCT_IN_WORD match: most texts have none, found by a cheap scan)


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
            edits.append(
                Edit(
                    m.start(2),
                    m.end(2),
                    "^",
                    "debris",
                    "regex:punct-in-word",
                    0.7,
                    (a + "^" + b,),
                    f"{m.group(2)!r} between {a!r} and {b!r}, not two words: debris inside one word",
                )
            )
    return edits


INNER_CAPITAL = regex.compile(r"(?<![\p{L}\p{M}\p{N}'’])\p{Ll}+\p{Lu}\p{Ll}+(?![\p{L}\p{M}\p{N}])")


def pass_inner_capital(text: str, is_word: Callable[[str], bool]) -> list[Edit]:
    """A capital inside a lower-case word (``aVec``): a misread lower-case letter when the word in lower
    case is known (names keep theirs: ``deVere`` lower-cased is no word; ``McLeod`` begins with a capital)."""
    edits = []
    for m in INNER_CAPITAL.finditer(text):
        t = m.group()
        if is_word(t):  # (is_word reads the word in lower case)
            edits.append(
                Edit(
                    m.start(),
                    m.end(),
                    t.lower(),
                    "spelling",
                    "lexicon:inner-capital",
                    0.85,
                    (t.lower(),),
                    f"capital inside the lower-case word {t!r}: {t.lower()!r}",
                )
            )
    return edits


GLUED_GUILLEMET = regex.compile(r"(?<![\p{L}'’])(?:(\p{L}+)(«)|(\p{L})([*^]+))(?=[\s,.;:!?]|$)")
GLUED_CHAR = regex.compile(r"[«*^]")  # in every GLUED_GUILLEMET match: a text without one is not scanned word by word


class _Glued:
    """A word + glued character match in the shape of GLUED_GUILLEMET's first alternative."""

    def __init__(self, word: str, char: str, start: int, end: int):
        self._g, self._s, self._e = ("", word, char), start, end

    def group(self, k: int = 0) -> str:
        return self._g[k]

    def start(self, k: int = 0) -> int:
        return self._s if k <= 1 else self._s + len(self._g[1])

    def end(self, k: int = 0) -> int:
        return self._s + len(self._g[1]) if k == 1 else self._e


def pass_glued_guillemet(
    text: str,
    letters: str,
    is_word: Callable[[str], bool],
    zipf: Callable[[str], float],
    gain: float = 1.0,
    elisions: tuple[str, ...] = (),
) -> list[Edit]:
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
        opts = [
            (zipf((w + ch).lower()), w + ch)
            for ch in letters
            if is_word(w + ch) and zipf((w + ch).lower()) >= zw + gain
        ]
        if not opts:
            if m.group(2) != "«":  # a debris character after a one-letter word standing for nothing
                edits.append(
                    Edit(
                        m.start(2), m.end(), "", "debris", "regex:stray-char", 0.85, (), "debris character after a word"
                    )
                )
            continue
        z, best = max(opts)
        edits.append(
            Edit(
                m.end(1),
                m.end(),
                best[len(w) :],
                "debris",
                "lexicon:glued-guillemet",
                0.8,
                tuple(o[1] for o in sorted(opts, reverse=True)),
                f"{m.group(2)} glued to {w!r} read as a letter: {best!r}",
            )
        )
    return edits


def _debris_chars(text: str, ctx: PassContext) -> list[Edit]:
    rep = ctx.rep
    return pass_debris_chars(
        text,
        ctx.lang,
        ctx.cfg,
        rep.elision,
        bool(rep.domain),
        ctx.lex.blots,
        rep.is_word,
        rep.zipf_of,
        ctx.lex.apostrophe_words,
    )


def _glued(text: str, ctx: PassContext) -> list[Edit]:
    rep, cfg = ctx.rep, ctx.cfg
    return pass_glued_guillemet(
        text, cfg.guillemet_letters, rep.is_word, rep.zipf_of, cfg.guillemet_letter_gain, rep.elision
    )


def _has_domain(ctx: PassContext) -> bool:
    return bool(ctx.rep.domain)


def pass_lone_letters(text: str, may_stand_alone: str) -> list[Edit]:
    """A lower-case letter printed alone between two words that is no one-letter word or abbreviation of
    the language (``may_stand_alone``, corpus/lexicon/lone_letters.tsv): an OCR speck (``house i Inglis'``,
    ``the j new``), removed with the space after it.  Left as printed: a letter beside a number (``5 s 6 d``,
    ``in 37 f``), in a run of three or more lone letters (spaced letters, ``x y z``), after a bracket or a
    hyphen, or before a full stop, bracket or apostrophe (``o'clock``, ``(b)``, ``v.``: the letter must be
    a token of its own between two others on its line)."""
    toks = list(regex.finditer(r"[^ \t\n]+", text))
    lone = [len(m.group()) == 1 and m.group().islower() for m in toks]
    edits = []
    for i in range(1, len(toks) - 1):
        m, t = toks[i], toks[i].group()
        if not lone[i] or t in may_stand_alone:
            continue
        prev, nxt = toks[i - 1], toks[i + 1]
        if "\n" in text[prev.end() : nxt.start()]:
            continue  # (at a line edge: the letter may be a line's own mark)
        if any(c.isdigit() for c in prev.group() + nxt.group()) or prev.group().endswith(("(", "-", "[")):
            continue
        lo, hi = i, i
        while lo > 0 and lone[lo - 1]:
            lo -= 1
        while hi + 1 < len(toks) and lone[hi + 1]:
            hi += 1
        if hi - lo >= 2:
            continue  # (three lone letters or more in a row: spaced letters)
        edits.append(
            Edit(
                m.start(),
                nxt.start(),
                "",
                "debris",
                "regex:lone-letter",
                0.7,
                (),
                f"lone letter {t!r} between words: no word or abbreviation of the language",
            )
        )
    return edits


def pass_stray_stops(text: str, words: str) -> list[Edit]:
    """A full stop printed right after a word that never ends a sentence (``words``, space-separated, lower
    case: corpus/lexicon/stray_stops.tsv; English *the*, *and*), before a word on the same or the next line: an OCR
    speck (``FIELDS on the .`` / ``Mains Farm``), removed with the space before it.  Left as printed: such a
    stop before a number, a bracket or the text's end, and a word inside a hyphenated or elided form."""
    if not words.strip():
        return []
    edits = []
    for m in _stray_stop_re(frozenset(words.split())).finditer(text):
        edits.append(
            Edit(
                m.start(2),
                m.end(2),
                "",
                "debris",
                "regex:stray-stop",
                0.8,
                (),
                f"a full stop after {m.group(1)!r}, which never ends a sentence, before a word: a speck",
            )
        )
    return edits


@lru_cache(maxsize=4)
def _stray_stop_re(words: frozenset[str]) -> regex.Pattern:
    alts = "|".join(sorted(map(regex.escape, words), key=len, reverse=True))
    return regex.compile(
        rf"(?<![\p{{L}}\p{{M}}\d'’\-])({alts})( ?\.)(?=[ \t]*(?:\n[ \t]*)?\p{{L}})", regex.IGNORECASE | regex.V0
    )


def pass_misread_marks(
    text: str, marks: str, zipf: Callable[[str], float], min_zipf: float, may_stand_alone: str = ""
) -> list[Edit]:
    """A punctuation mark OCR prints for a letter (``marks``: ``mark:letters`` space-separated, from
    corpus/lexicon/misread_marks.tsv; English ``?:se``) between two letters (``le?s``, ``cons?quence``), or
    glued to a word's end before a comma or a semicolon (``crew?,``: no question ends there), read as the letter
    that makes a word of zipf ``min_zipf`` or more (``zipf`` of the lower-case word), the more frequent by 1 or
    more when two do (``b?`` is be, not bs); left as printed when none does (``circum?pectlon``) or two are close.
    Before a lower-case word, where a question may end (``Is it so? he asked``), only when that word is at least
    1.5 more frequent than the word printed (``ha? a reserve`` is has, ``What? said he`` stays), or when the word
    printed is a lone letter that is no word (``may b? agreed``; ``may_stand_alone``: lone_letters.tsv)."""
    table = {mark: letters for mark, _, letters in (m.partition(":") for m in marks.split()) if letters}
    if not table:
        return []
    edits = []
    for m in _misread_mark_re("".join(sorted(table))).finditer(text):
        head, mark, tail = m.group(1), m.group(2), m.group(3) or ""
        scored = ((zipf((head + c + tail).lower()), c) for c in table[mark])
        options = sorted((zc for zc in scored if zc[0] >= min_zipf), reverse=True)
        if not options or (len(options) > 1 and options[0][0] - options[1][0] < 1.0):
            continue
        lone = len(head) == 1 and head.islower() and head not in may_stand_alone  # (b? is no question)
        if (
            not (tail or lone)
            and text[m.end(2) : m.end(2) + 1] not in ",;"
            and options[0][0] < zipf(head.lower()) + 1.5
        ):
            continue  # (before a lower-case word a question may end, "Is it so? he asked": only a far likelier word)
        letter = options[0][1]
        if head.isupper() and (tail.isupper() or (not tail and len(head) > 1)):
            letter = letter.upper()
        word = head + letter + tail
        edits.append(
            Edit(
                m.start(2),
                m.end(2),
                letter,
                "spelling",
                "lexicon:misread-mark",
                0.8,
                (word,),
                f"{mark!r} inside or at the end of {head + mark + tail!r}, where no {mark!r} can stand: "
                f"the letter {letter!r} ({word!r}, zipf {options[0][0]:.2f})",
            )
        )
    return edits


@lru_cache(maxsize=4)
def _misread_mark_re(marks: str) -> regex.Pattern:
    cls = "[" + regex.escape(marks) + "]"
    return regex.compile(
        rf"(?<![\p{{L}}\p{{M}}\d'’])(\p{{L}}+)({cls})(?:(\p{{L}}+)(?![\p{{L}}\p{{M}}\d])|(?=[,;]|[ \t]+\p{{Ll}}))"
    )


def _misread_marks(text: str, ctx: PassContext) -> list[Edit]:
    return pass_misread_marks(text, ctx.lex.misread_marks, ctx.rep.zipf_of, ctx.cfg.word_min_zipf, ctx.lex.lone_letters)


def _stray_stops(text: str, ctx: PassContext) -> list[Edit]:
    return pass_stray_stops(text, ctx.lex.stray_stops)


DEBRIS_CHARS = Pass(
    "debris-chars", edits_only(_debris_chars), doc="stray debris characters, unpaired guillemets, specks for spaces"
)
MISREAD_MARKS = Pass(
    "misread-marks",
    edits_only(_misread_marks),
    ("repair_words",),
    doc="a question mark between letters or before a comma / lower-case word read as a letter (misread_marks.tsv)",
)
STRAY_STOPS = Pass(
    "stray-stops",
    edits_only(_stray_stops),
    ("repair_words",),
    doc="a full stop after a word that never ends a sentence (the, and), before a word: a speck",
)
GLUED_GUILLEMET_PASS = Pass(
    "glued-guillemet",
    edits_only(_glued),
    ("repair_words", "guillemet_letters"),
    doc="a guillemet or debris glued to a word end read as a lost letter",
)
INWORD_DEBRIS = Pass(
    "inword-debris",
    edits_only(
        lambda text, ctx: pass_inword_debris(
            text,
            ctx.cfg.inword_debris,
            ctx.rep.is_word,
            ctx.rep.domain.__contains__,
            tuple(x.rstrip("'’") for x in ctx.rep.elision) if ctx.lang == "fr" else None,
        )
    ),
    ("repair_words",),
    doc="debris between letters dropped or read as a lost space",
)
PUNCT_IN_WORD_PASS = Pass(
    "punct-in-word",
    edits_only(lambda text, ctx: pass_punct_in_word(text, ctx.rep.is_word)),
    ("repair_words",),
    doc="a semicolon or colon inside one word made debris for the word repair",
)
# (witness text only: the ICDAR FR dev gold keeps such capitals, nulLement, 3 helpful / 9 harmful)
INNER_CAPITAL_PASS = Pass(
    "inner-capital",
    edits_only(lambda text, ctx: pass_inner_capital(text, ctx.rep.is_word)),
    ("repair_words",),
    _has_domain,
    doc="a capital inside a known lower-case word",
)
NUMBER_LOOKALIKES = Pass(
    "number-lookalikes",
    edits_only(lambda text, ctx: pass_number_lookalikes(text, ctx.lex.lookalikes)),
    ("repair_words",),
    doc="letters read for digits in a number with thousands groups",
)
# (after the language-model pass, which reads a lone letter as a frequent word first: i 1 the best -> in)
LONE_LETTERS = Pass(
    "lone-letters",
    edits_only(lambda text, ctx: pass_lone_letters(text, ctx.lex.lone_letters)),
    ("repair_words",),
    lambda ctx: ctx.lang in ctx.cfg.lone_letter_langs,
    doc="a lone lower-case letter that is no word or abbreviation of the language (an OCR speck)",
)
