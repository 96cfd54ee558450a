"""Normalisation and glyphs: control and format characters, mojibake and ligatures (ftfy), and the
historical letter forms of ``corpus/lexicon/glyphs.tsv`` (long s, r rotunda) read as their letter.
Quotes, guillemets and the spacing before punctuation are kept as printed."""

from __future__ import annotations

import regex

from .edits import Edit
from .passes import Pass, edits_only

FORM_FEED = "\x0c"  # what pdftotext writes between pages
# characters that end a line in some systems (vertical tab, the information separators FS GS RS, next line,
# the Unicode line and paragraph separators): read as a line break, never as nothing (words would glue)
LINE_SEPARATORS = "\x0b\x1c\x1d\x1e\x85\u2028\u2029"
# control and format characters, the noncharacters (U+FFFE, U+FDD0...: not text, and XML cannot hold some
# of them) and the line separators: none of them stays in the reading as it is
CONTROL_RE = regex.compile(r"[\p{Cc}\p{Cf}\p{Noncharacter_Code_Point}\u2028\u2029&&[^\n\t]]|\r", regex.V1)


def pass_control(text: str) -> list[Edit]:
    """Remove control and format characters (soft hyphen, zero-width, BOM, CR) and noncharacters; a form
    feed alone on its line (a page separator) goes with its line, so the page's text runs on; a line
    separator (``LINE_SEPARATORS``) becomes a line break, unless a line break follows it already."""
    edits = []
    for m in CONTROL_RE.finditer(text):
        end = m.end()
        if m.group() in LINE_SEPARATORS:
            ends_line = text[end : end + 1] in ("\n", "") or text[m.start() - 1 : m.start()] == "\n"
            edits.append(
                Edit(
                    m.start(),
                    end,
                    "" if ends_line else "\n",
                    "normalisation",
                    "regex:separator",
                    1.0,
                    (),
                    f"line separator U+{ord(m.group()):04X} read as a line break",
                )
            )
            continue
        if m.group() == FORM_FEED and (m.start() == 0 or text[m.start() - 1] == "\n") and text[end : end + 1] == "\n":
            end += 1
        edits.append(
            Edit(
                m.start(),
                end,
                "",
                "normalisation",
                "regex:control",
                1.0,
                (),
                f"control/format character U+{ord(m.group()):04X}",
            )
        )
    return edits


def pass_glyphs(text: str, glyphs: tuple[tuple[str, str, str], ...]) -> list[Edit]:
    """Historical letter forms (``corpus/lexicon/glyphs.tsv``: long s, r rotunda) read as their letter."""
    edits = []
    for printed, letter, name in glyphs:
        i = text.find(printed)
        while i != -1:
            edits.append(
                Edit(
                    i,
                    i + len(printed),
                    letter,
                    "normalisation",
                    "glyph",
                    1.0,
                    (letter,),
                    f"{name or printed!r} is a form of {letter!r}",
                )
            )
            i = text.find(printed, i + len(printed))
    return sorted(edits, key=lambda e: e.start)


MOJIBAKE_HINT = regex.compile(r"[ÃÂÅÐÑâï][\x80-\xbf€™œžŸ¡-¿]|[\ufb00-\ufb06\ufffd]")


def _pieces(line: str, n: int) -> list[tuple[int, str]]:
    """``line`` cut into pieces of at most ``n`` characters (after a space where there is one), with their
    offsets: the diff that locates ftfy's repairs takes time quadratic in its input at worst."""
    out, pos = [], 0
    while len(line) - pos > n:
        cut = line.rfind(" ", pos + 1, pos + n)
        end = cut + 1 if cut > pos else pos + n
        out.append((pos, line[pos:end]))
        pos = end
    out.append((pos, line[pos:]))
    return out


def pass_ftfy(text: str, chunk: int = 2000) -> list[Edit]:
    """Repair mojibake and ligatures line by line with ftfy (curly quotes kept as printed); a line longer
    than ``chunk`` characters piece by piece.  Each repair is located by the edit operations between the
    printed and the repaired piece (rapidfuzz: difflib's matcher took minutes on a repetitive line), the
    operations next to each other making one edit."""
    import ftfy
    from rapidfuzz.distance import Levenshtein

    edits: list[Edit] = []
    pos = 0
    for whole in text.split("\n"):
        if whole and not whole.isascii() and MOJIBAKE_HINT.search(whole):
            for off, line in _pieces(whole, chunk):
                if not MOJIBAKE_HINT.search(line):
                    continue
                fixed = ftfy.fix_text(
                    line, uncurl_quotes=False, fix_character_width=False, normalization="NFC", explain=False
                )
                if fixed != line:
                    base = pos + off
                    runs: list[list[int]] = []  # [i1, i2, j1, j2] of each run of changes next to each other
                    for op in Levenshtein.opcodes(line, fixed):
                        if op.tag == "equal":
                            continue
                        if runs and runs[-1][1] == op.src_start and runs[-1][3] == op.dest_start:
                            runs[-1][1], runs[-1][3] = op.src_end, op.dest_end
                        else:
                            runs.append([op.src_start, op.src_end, op.dest_start, op.dest_end])
                    edits.extend(
                        Edit(
                            base + i1,
                            base + i2,
                            fixed[j1:j2],
                            "normalisation",
                            "ftfy",
                            0.95,
                            (),
                            "encoding/ligature repair",
                        )
                        for i1, i2, j1, j2 in runs
                    )
        pos += len(whole) + 1
    return edits


CONTROL = Pass("control", edits_only(lambda text, ctx: pass_control(text)), doc="control and format characters removed")
FTFY = Pass(
    "ftfy",
    edits_only(lambda text, ctx: pass_ftfy(text, ctx.cfg.diff_chunk_chars)),
    ("use_ftfy",),
    doc="mojibake and ligatures repaired (ftfy)",
)
GLYPHS = Pass(
    "glyphs",
    edits_only(lambda text, ctx: pass_glyphs(text, ctx.lex.glyphs)),
    ("read_glyphs",),
    doc="historical letter forms read as their letter (glyphs.tsv)",
)
