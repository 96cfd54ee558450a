"""Word boundaries OCR lost or added, read with a general corpus's word and pair counts (English).

* A line-end hyphen OCR lost (``proprietor`` / ``ship``): two words at a line break whose join general print
  has far more often than the pair (:func:`pipeline.clean.words.lost_hyphen`, the rule the lost-hyphen merge
  of one line uses) are one word; the line break becomes a joined line-end hyphen.
* A line-end hyphen OCR read as a full stop or a comma (``conspira.`` / ``tor``).
* A mark between a word and its line-end hyphen (``distribu.¬``): the mark is debris.
* A comma or full stop inside a word (``circ,umstances``): debris, when a part is no word and the join is.
* Two words run together (``withthe``, ``anhotel``): a lower-case token general print does not know as a
  word, which its list of word pairs has often as a pair (``run_together_min_pair``, log10 count), is split,
  unless a common word is one cheap edit from it (``befor`` is *before* misread, not *be for*).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import regex

from .edits import Edit, non_overlapping
from .passes import Pass, PassContext, edits_only
from .words import lost_hyphen

if TYPE_CHECKING:
    from .config import CleanConfig
    from .repairer import Repairer

HYPH_AS_STOP = regex.compile(r"(?<!\p{L})(\p{L}+)[.,][ \t]*\n[ \t]*(\p{Ll}+)(?!\p{L})")
LINE_SPLIT = regex.compile(r"(?<![\p{L}\d-])(\p{L}{2,})[ \t]*\n[ \t]*(\p{Ll}{2,})(?![\p{L}\d])")
MARK_BEFORE_SOFT = regex.compile(r"(?<=\p{L})[.,:;](?=¬[ \t]*\n[ \t]*\p{Ll})")
MARK_IN_WORD = regex.compile(r"(?<![\p{L}\d.,])(\p{L}{2,})([,.])(\p{Ll}{2,})(?![\p{L}\d])")
RUN_TOGETHER = regex.compile(r"(?<![\p{L}\d'’-])\p{Ll}{3,}(?![\p{L}\d'’-])")


def _join(m: regex.Match, method: str, why: str) -> Edit:
    """The line break (and what OCR read for the hyphen) between a match's two word parts, joined."""
    return Edit(m.end(1), m.start(2), "", "hyphenation", method, 0.85, (m.group(1) + m.group(2),), why)


def lost_line_hyphens(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    bg = rep.bigrams
    out = []
    for m in LINE_SPLIT.finditer(text, overlapped=True):
        la, lb = m.group(1).lower(), m.group(2).lower()
        if rep.protected(la) or rep.protected(lb):
            continue
        why = lost_hyphen(rep, bg, la, lb)
        if why:
            out.append(_join(m, "lexicon:lost-line-hyphen", why + "; line-end hyphen lost"))
    return out


def stop_for_hyphen(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    """``conspira.`` / ``tor`` -> ``conspirator``: a full stop (or comma) at a line end between a word part and
    a lower-case one is the line-end hyphen misread, when a part is no word and their join is a word of
    zipf ``stop_hyphen_min_zipf`` or more (a sentence does not go on in lower case after a full stop)."""
    out = []
    for m in HYPH_AS_STOP.finditer(text):
        a, b = m.group(1), m.group(2)
        z = rep.zipf_of((a + b).lower())
        if (rep.is_word(a) and rep.is_word(b)) or z < cfg.stop_hyphen_min_zipf or rep.protected(a.lower()):
            continue
        nonwords = " and ".join(x for x in (a, b) if not rep.is_word(x))
        why = f"end-of-line hyphen read as {text[m.end(1)]!r}: {a}+{b} -> {a + b} (zipf {z:.2f}); {nonwords} not a word"
        out.append(_join(m, "lexicon:stop-for-hyphen", why))
    return out


def marks_in_words(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    out = [
        Edit(m.start(), m.end(), "", "debris", "regex:mark-before-hyphen", 0.85, (), "a mark before a line-end hyphen")
        for m in MARK_BEFORE_SOFT.finditer(text)
    ]
    for m in MARK_IN_WORD.finditer(text):
        a, b = m.group(1), m.group(3)
        j = (a + b).lower()
        if (rep.is_word(a) and rep.is_word(b)) or rep.zipf_of(j) < cfg.merge_min_zipf:
            continue
        out.append(
            Edit(
                m.start(2),
                m.end(2),
                "",
                "debris",
                "regex:mark-in-word",
                0.85,
                (a + b,),
                f"{m.group(2)!r} inside {a + b!r} (zipf {rep.zipf_of(j):.2f}): {' and '.join(x for x in (a, b) if not rep.is_word(x))} no word",
            )
        )
    return out


def run_together(text: str, rep: Repairer, cfg: CleanConfig) -> list[Edit]:
    bg = rep.bigrams
    if bg is None:
        return []
    out = []
    for m in RUN_TOGETHER.finditer(text):
        t = m.group()
        if (
            len(t) > cfg.max_token_chars
            or t in bg.words
            or rep.zipf_of(t) >= cfg.run_together_max_zipf
            or rep.protected(t)
        ):
            continue
        best = max(
            ((bg.pairs[f"{t[:i]} {t[i:]}"], i) for i in range(1, len(t)) if f"{t[:i]} {t[i:]}" in bg.pairs),
            default=None,
        )
        if best is None or best[0] < cfg.run_together_min_pair:
            continue
        if any(
            w != t and c <= cfg.run_together_max_cost and rep.zipf_of(w) >= cfg.run_together_max_zipf
            for w, c in rep.search.candidates(t)
        ):
            continue  # (a misread word, one cheap edit from a common one: befor, manufacturera)
        i = best[1]
        out.append(
            Edit(
                m.start() + i,
                m.start() + i,
                " ",
                "split",
                "bigrams:run-together",
                0.85,
                (f"{t[:i]} {t[i:]}",),
                f"{t!r} is no word of general print; {t[:i] + ' ' + t[i:]!r} is printed 10^{best[0]:.1f} times",
            )
        )
    return out


def _boundaries(text: str, ctx: PassContext) -> list[Edit]:
    rep, cfg = ctx.rep, ctx.cfg
    if rep.lang not in cfg.boundary_langs:
        return []
    edits = marks_in_words(text, rep, cfg)
    if cfg.join_hyphens:  # (a text whose gold keeps its line-end hyphens keeps its line breaks too)
        edits += stop_for_hyphen(text, rep, cfg)
    if rep.bigrams is not None:  # (the rules that need a general corpus's word pairs)
        edits += (lost_line_hyphens(text, rep, cfg) if cfg.join_hyphens else []) + run_together(text, rep, cfg)
    return non_overlapping(edits)


BOUNDARIES = Pass(
    "boundaries",
    edits_only(_boundaries),
    ("repair_words",),
    doc="word boundaries: a line-end hyphen lost, a mark inside a word, two words run together",
)
