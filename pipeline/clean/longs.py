"""The long s read as f: a witness that shows the pattern gets its f-for-s words read with s.

Books printed before about 1800 set the long s (ſ) inside words, and OCR reads it as f: *eft*, *fon*, *foit*
for *est*, *son*, *soit*.  Repaired one word at a time, such a word goes to its nearest word by letters
(*foit* -> *fait*, where *soit* was printed).  This pass looks at the whole text first: when at least
``min_types`` different words are far rarer than the word they make with an s for an f inside them (the
evidence, each ``evidence_gap`` zipf or more apart), the text was printed with the long s, and every word
whose s-reading is ``apply_gap`` or more commoner is read so, a correction of its own kind (``long-s``)
whose evidence names the words that showed the pattern.  Without that evidence nothing is changed here.
Only a lower-case f that does not end a word can be a long s (a word ends with a round s; a capital is S).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

import regex

from .edits import Edit
from .passes import Pass, PassContext, PassResult

if TYPE_CHECKING:
    from .repairer import Repairer

_WORD = regex.compile(r"\p{L}+")


@dataclass(frozen=True)
class LongSConfig:
    """When a text is read as printed with the long s, and which of its words are read with s."""

    # the pattern: this many different words whose s-reading is this much commoner (zipf). A witness of the
    # period shows dozens (eft, fon, foit, auffi, moft, firft); the shared word lists know OCR's eft and
    # fon at zipf 3, est and son at 6 and more
    min_types: int = 3
    evidence_gap: float = 3.0
    # once shown, a word is read with s when its s-reading is this much commoner (fur -> sur, fi -> si; never
    # fait -> sait: fait is the commoner)
    apply_gap: float = 2.0
    max_fs: int = 3  # f's of one word tried (every subset: 2^n - 1 readings)
    # once shown, OCR's other readings of the long s count too (Irith, Muleum, pafled for Irish, Museum, passed),
    # in a word this rare as printed (lame is no same) whose s-reading is evidence_gap commoner
    also_letters: str = "lt"
    also_max_zipf: float = 3.0
    # an s-reading counts when a lexicon knows it this frequent (or it is a protected spelling): below the known
    # word's zipf (word_min_zipf), as the rarer words of the period's prose are (feverally -> severally, zipf
    # 2.2); the evidence needs evidence_gap over the printed word all the same
    reading_min_zipf: float = 2.0


def s_readings(w: str, max_fs: int, letters: str = "f") -> list[str]:
    """``w`` with some of its lower-case, not word-final ``letters`` (f) read as s (each subset of at most
    ``max_fs``)."""
    at = [i for i, c in enumerate(w[:-1]) if c in letters][:max_fs]
    out = []
    for n in range(1, len(at) + 1):
        for pick in combinations(at, n):
            chars = list(w)
            for i in pick:
                chars[i] = "s"
            out.append("".join(chars))
    return out


def s_reading(w: str, rep: Repairer, cfg: LongSConfig, letters: str = "f") -> tuple[str, float] | None:
    """The commonest s-reading of ``w`` and how much commoner (zipf) it is than ``w``, or None (none of
    ``letters``, or ``w`` a protected spelling)."""
    lw = w.lower()
    if not any(c in letters for c in w[:-1]) or rep.protected(lw):
        return None
    best = max(
        ((r, rep.zipf_of(r.lower())) for r in s_readings(w, cfg.max_fs, letters)), key=lambda x: x[1], default=None
    )
    if best is None or not (best[1] >= cfg.reading_min_zipf or rep.protected(best[0].lower())):
        return None
    return best[0], best[1] - rep.zipf_of(lw)


def long_s_edits(text: str, rep: Repairer, cfg: LongSConfig) -> list[Edit]:
    readings: dict[str, tuple[str, float] | None] = {}
    spans = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text) if "f" in m.group()]
    for _s, _e, w in spans:
        if w not in readings:
            readings[w] = s_reading(w, rep, cfg)
    shown = sorted(w for w, r in readings.items() if r is not None and r[1] >= cfg.evidence_gap)
    if len(shown) < cfg.min_types:
        return []
    why = f"long s read as f: {len(shown)} words of this text are far rarer than their s-reading ({', '.join(shown[:6])}{', ...' if len(shown) > 6 else ''})"
    also: dict[str, tuple[str, float] | None] = {}
    for m in _WORD.finditer(text):
        w = m.group()
        if readings.get(w) is not None or not any(c in cfg.also_letters for c in w[:-1]):
            continue
        if w not in also:
            r = None
            if rep.zipf_of(w.lower()) < cfg.also_max_zipf:
                r = s_reading(w, rep, cfg, cfg.also_letters + "f")
            also[w] = r if r is not None and r[1] >= cfg.evidence_gap else None
        if also[w] is not None:
            spans.append((m.start(), m.end(), w))
    readings.update((w, r) for w, r in also.items() if r is not None)
    out = []
    for s, e, w in sorted(set(spans)):
        r = readings[w]
        if r is not None and r[1] >= cfg.apply_gap:
            out.append(
                Edit(s, e, r[0], "long-s", "witness:long-s", 0.9, (r[0],), f"{w} -> {r[0]} ({r[1]:+.1f} zipf); {why}")
            )
    return out


def _long_s(text: str, ctx: PassContext) -> PassResult:
    return PassResult(long_s_edits(text, ctx.rep, ctx.cfg.long_s))


LONG_S = Pass(
    "long-s",
    _long_s,
    ("read_long_s",),
    doc="a text that shows the long s read as f (eft, fon, foit) has its f-for-s words read with s",
)
