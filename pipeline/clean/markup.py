"""The `transcription-markup` pass: what a transcriber typed for the page's layout, taken out of the reading text.

Web transcriptions (Project Gutenberg and the like) print a footnote's marker in brackets glued to the word it
follows (``deal.[49]``, ``player.[6]``) and italics between underscores (``_minutiæ_``, ``(_a_)``).  Neither is
a word of the text: the marker becomes a ``footnote`` correction (the TEI puts the note itself at that place,
where the witness names its notes file), each underscore of a pair a ``markup`` correction (the TEI reads the
pair as ``hi rend="italic"``).  A marker with a space before it (``see [3]``) or an underscore inside a word
(``snake_case``) is left alone.
"""

from __future__ import annotations

import regex

from .edits import Edit
from .passes import Pass, PassContext, edits_only

# a footnote marker glued to the word or stop it follows
FOOTNOTE = regex.compile(r"(?<=[\p{L}\p{N}.,;:!?'’\")»-])\[(\d{1,3})\]")
# a pair of underscores around a stretch of one paragraph, not inside a word
ITALIC = regex.compile(r"(?<![\p{L}\p{N}_])_(?=[^\s_])((?:[^_\n]|\n(?![ \t]*\n)){1,200}?)(?<=[^\s_])_(?![\p{L}\p{N}_])")
MARKUP_CONFIDENCE = 0.95


def markup_edits(text: str, ctx: PassContext | None = None) -> list[Edit]:
    """Edits removing glued footnote markers and the underscores of Markdown italics from ``text``."""
    edits: list[Edit] = []
    for m in FOOTNOTE.finditer(text):
        evidence = f"footnote marker {m.group()} glued to the text: layout, the note's place"
        edits.append(Edit(m.start(), m.end(), "", "footnote", "layout:footnote", MARKUP_CONFIDENCE, (), evidence))
    for m in ITALIC.finditer(text):
        evidence = f"transcription markup: _{m.group(1)}_ is printed in italics"
        for pos in (m.start(), m.end() - 1):
            edits.append(Edit(pos, pos + 1, "", "markup", "layout:italic", MARKUP_CONFIDENCE, (), evidence))
    return sorted(edits, key=lambda e: (e.start, e.end))


TRANSCRIPTION_MARKUP = Pass(
    "transcription-markup",
    edits_only(markup_edits),
    ("remove_layout",),
    doc="a transcription's footnote markers ([49]) and Markdown italics (_a_): layout, recorded",
)
