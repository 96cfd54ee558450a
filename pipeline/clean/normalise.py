"""Normalisation and glyphs: control and format characters, mojibake and ligatures (ftfy), and the
historical letter forms of ``corpus/lexicon/glyphs.tsv`` (long s, r rotunda) read as their letter.
Quotes, guillemets and the spacing before punctuation are kept as printed."""
from __future__ import annotations

import regex

from .edits import Edit
from .passes import Pass, edits_only

CONTROL_RE = regex.compile(r"[\p{Cc}\p{Cf}&&[^\n\t]]|\r", regex.V1)


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


CONTROL = Pass("control", edits_only(lambda text, ctx: pass_control(text)), doc="control and format characters removed")
FTFY = Pass("ftfy", edits_only(lambda text, ctx: pass_ftfy(text)), ("use_ftfy",), doc="mojibake and ligatures repaired (ftfy)")
GLYPHS = Pass("glyphs", edits_only(lambda text, ctx: pass_glyphs(text, ctx.lex.glyphs)), ("read_glyphs",),
              doc="historical letter forms read as their letter (glyphs.tsv)")
