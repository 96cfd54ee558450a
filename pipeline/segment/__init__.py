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

Modules: ``markers`` (the lexicon, the configuration, step 1), ``numbering`` (step 2), ``structure``
(step 3 and the segments), ``unnumbered`` (step 4); this package's ``segment`` ties them.

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

from ..model import Cleaned, Segmented, Witness
from .markers import MarkerLexicon, MarkerLexiconError, SegmentConfig, load_markers
from .numbering import best_path, decode_numbering
from .structure import Builder, emit_numbered
from .unnumbered import emit_rules, sentences

__all__ = [
    "MarkerLexicon",
    "MarkerLexiconError",
    "SegmentConfig",
    "decode_numbering",
    "load_markers",
    "segment",
    "sentences",
]


def segment(cleaned: Cleaned, witness: Witness, config: SegmentConfig = SegmentConfig()) -> Segmented:
    """Split a cleaned witness into laws / clauses / rules and segments that tile its text."""
    if cleaned.witness_id != witness.id:
        raise ValueError(f"cleaned text is for witness {cleaned.witness_id!r}, not {witness.id!r}")
    b = Builder(cleaned, witness, config, [], [])
    style, path = best_path(cleaned.text, config)
    if path:
        emit_numbered(b, path)
    else:
        emit_rules(b)
    return Segmented(witness_id=witness.id, laws=tuple(b.laws), segments=b.segments())
