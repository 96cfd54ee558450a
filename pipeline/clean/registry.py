"""The passes of the clean stage, in the order they run.

Each pass proposes edits on the current text; :class:`~pipeline.clean.edits.EditBuffer` composes them into
non-overlapping Corrections on the raw text, so ``replay(raw, corrections) == text``.  A new pass is a
module defining a :class:`~pipeline.clean.passes.Pass` and one line here.
"""

from __future__ import annotations

from .boundaries import BOUNDARIES
from .debris import (
    DEBRIS_CHARS,
    GLUED_GUILLEMET_PASS,
    INNER_CAPITAL_PASS,
    INWORD_DEBRIS,
    LONE_LETTERS,
    MISREAD_MARKS,
    NUMBER_LOOKALIKES,
    PUNCT_IN_WORD_PASS,
    STRAY_STOPS,
)
from .elision import ELISION
from .fragments import FRAGMENTS
from .hyphenation import HYPHENATION
from .layout import DEBRIS_LINES, RUNNING_HEADS
from .lmwords import LM_WORDS
from .longs import LONG_S
from .markup import TRANSCRIPTION_MARKUP
from .normalise import CONTROL, FTFY, GLYPHS
from .numbers import MIXED_NUMBERS
from .passes import Pass
from .phrases import PHRASES
from .titles import TITLES
from .realwords import BIGRAM_CONTEXT, CONTEXT_WORDS, DETERMINER_PARTICIPLE, REALWORD_RULES
from .words import WORDS

REGISTRY: tuple[Pass, ...] = (
    CONTROL,  # control and format characters
    FTFY,  # mojibake, ligatures
    GLYPHS,  # long s and other historical letter forms
    DEBRIS_LINES,  # lines in another script, web-debris patterns
    RUNNING_HEADS,  # running heads and page numbers -> page breaks
    TRANSCRIPTION_MARKUP,  # a transcription's footnote markers and Markdown italics
    HYPHENATION,  # end-of-line and inline hyphen joins
    LONG_S,  # the long s read as f, where the text shows the pattern (eft, fon, foit)
    BOUNDARIES,  # word boundaries: a line-end hyphen lost, a mark inside a word, two words run together
    DEBRIS_CHARS,  # stray debris characters, unpaired guillemets, specks for spaces
    STRAY_STOPS,  # a full stop after a word that never ends a sentence (the, and)
    GLUED_GUILLEMET_PASS,  # « or debris glued to a word end read as a letter
    INWORD_DEBRIS,  # debris between letters
    PUNCT_IN_WORD_PASS,  # ; or : inside one word
    MISREAD_MARKS,  # a question mark read for a letter (le?s, ha? a)
    INNER_CAPITAL_PASS,  # a capital inside a lower-case word (witness text)
    NUMBER_LOOKALIKES,  # letters read for digits in numbers
    MIXED_NUMBERS,  # look-alike letters among a number's digits (1O, l4, 2lst)
    ELISION,  # French elisions damaged by OCR
    TITLES,  # a misread title before a name (Mn. Herer -> Mr. Herer)
    WORDS,  # non-words, merges/splits, elision apostrophes (a repair below apply_confidence is a Flag)
    FRAGMENTS,  # line-break fragments (hyphen kept) judged as the joined word, split back at the break
    PHRASES,  # witness-internal phrase repair
    CONTEXT_WORDS,  # real words by the witness's bigrams
    REALWORD_RULES,  # real-word confusions by grammar
    BIGRAM_CONTEXT,  # real words by a general corpus's word pairs
    DETERMINER_PARTICIPLE,  # French witness text: la donné -> la donne
    LM_WORDS,  # doubtful words by channel cost + language model (two words each side); non-words left flagged
    LONE_LETTERS,  # a lone lower-case letter that is no word or abbreviation: a speck (English)
)


def by_name(name: str) -> Pass:
    """The pass called ``name`` (KeyError if none)."""
    for p in REGISTRY:
        if p.name == name:
            return p
    raise KeyError(name)
