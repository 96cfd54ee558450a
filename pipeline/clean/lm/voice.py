"""The language-model voice's models and its :class:`Voice`: log10 P(word | two previous words) for one text.

Loads the general English trigram model of the pocketsphinx wheel and GCIDE's headwords once per process;
the mixture of voices itself is described in :mod:`pipeline.clean.lm`."""

from __future__ import annotations

import math
import os
from collections import Counter
from functools import lru_cache
from pathlib import Path


from ..config import LMConfig

LOG_BASE = math.log10(1.0001)  # pocketsphinx scores are logs in base 1.0001
PS_UNKNOWN = -536870912  # what pocketsphinx returns for a word it does not know
BOUNDARY = "<s>"


@lru_cache(maxsize=1)
def trigram_path() -> Path | None:
    """The English trigram model shipped in the pocketsphinx wheel (None when not installed)."""
    try:
        import pocketsphinx
    except ImportError:
        return None
    p = Path(os.path.dirname(pocketsphinx.__file__)) / "model" / "en-us" / "en-us.lm.bin"
    return p if p.exists() else None


@lru_cache(maxsize=1)
def trigram_model():
    """pocketsphinx's ``NGramModel`` of English, loaded once (None when not installed)."""
    p = trigram_path()
    if p is None:
        return None
    from pocketsphinx import NGramModel

    return NGramModel.readfile(str(p))


@lru_cache(maxsize=1)
def gcide_words() -> frozenset[str]:
    """Headwords of Webster's 1913 (Debian ``dict-gcide``: /usr/share/dictd/gcide.index), lower case;
    empty when the package is not installed."""
    p = Path("/usr/share/dictd/gcide.index")
    if not p.exists():
        return frozenset()
    out = set()
    for line in p.read_text(encoding="utf-8", errors="replace").splitlines():
        w = line.split("\t", 1)[0].strip().lower()
        if w.isalpha() and not w.startswith("00"):
            out.add(w)
    return frozenset(out)


class Voice:
    """log10 P(word | two previous words) for one text: trigram model, general pairs, the text's pairs."""

    def __init__(
        self,
        lang: str,
        cfg: LMConfig = LMConfig(),
        bigrams=None,
        period: frozenset[str] | dict[str, None] = frozenset(),
        doc_uni: Counter | None = None,
        doc_bi: Counter | None = None,
        trigram="auto",
        unigram: dict[str, float] | None = None,
        grammar: dict[tuple[int, int], tuple[tuple[str, str], ...]] | None = None,
        vectors=None,
    ):
        self.cfg = cfg
        self.lang = lang
        self.tri = (trigram_model() if lang == "en" else None) if trigram == "auto" else trigram
        self.bg = bigrams
        self.period = period
        self.doc_uni = doc_uni or Counter()
        self.doc_bi = doc_bi or Counter()
        # (word -> zipf frequency; used only where neither the trigram model nor the pairs exist: French)
        self.uni = unigram if self.tri is None and bigrams is None else None
        self.grammar = grammar or {}  # (start, end) -> Grammalecte's (suggestion, rule) for that word (French)
        self.vec = vectors  # a pipeline.clean.vectors.VectorVoice (French, "vectors" in extra_voices) or None
        self._memo: dict[tuple[str, str, str], float] = {}
        self._wmemo: dict[tuple[str, str, str, str, str], float] = {}  # (window() of 5 words)
        self._hoist()

    def known(self, w: str) -> bool:
        """Whether a voice knows ``w`` as a word."""
        if self.tri is not None and self.tri.prob([w]) != PS_UNKNOWN:
            return True
        return (self.bg is not None and w in self.bg.words) or w in self.period

    def _hoist(self) -> None:
        """What :meth:`logp` reads on every new window word, taken once (the voices present are fixed when
        the voice is made): the bound methods, the tables, the weights and their renormalising sum (summed
        in the order trigram, pairs, unigram, witness, as the mixture sums them)."""
        cfg = self.cfg
        self._prob = self.tri.prob if self.tri is not None else None
        bg = self.bg
        self._bw = bg.words if bg is not None else None
        self._bp: dict[str, float] = bg.pairs if bg is not None else {}  # (read only when _bw is set)
        self._bscale = bg.log_scale if bg is not None else 0.0
        self._btotal = bg.log_total if bg is not None else 0.0
        self._period_p = 10**cfg.period_logp
        tot = 0.0
        parts = 0
        for present, weight in (
            (self.tri is not None, cfg.w_trigram),
            (bg is not None, cfg.w_pairs),
            (self.uni is not None, cfg.w_unigram),
            (bool(self.doc_uni), cfg.w_doc),
        ):
            if present:
                tot += weight
                parts += 1
        self._tot, self._parts = tot, parts
        self._floor = cfg.unigram_floor if self.uni is not None else cfg.unk_logp
        if parts:
            self.logp = self._fast_logp()  # type: ignore[method-assign]  # (the same sums, fewer look-ups)

    def _fast_logp(self):
        """:meth:`logp` as a closure over what it reads (the voices present, their tables, weights and
        floors are fixed when the voice is made): the same operations in the same order, so bit for bit the
        same values (``tests/test_lm_fastpaths.py``), without the attribute look-ups of a method."""
        cfg = self.cfg
        memo = self._memo
        memo_get = memo.get
        prob = self._prob
        bw = self._bw
        bw_get = bw.get if bw is not None else None
        bp_get = self._bp.get
        bscale, btotal = self._bscale, self._btotal
        period_p = self._period_p
        period_words = self.period
        uni = self.uni
        doc_uni = self.doc_uni
        doc_get = doc_uni.get if doc_uni else None
        doc_bi_get = self.doc_bi.get
        wt, wp, wu, wd = cfg.w_trigram, cfg.w_pairs, cfg.w_unigram, cfg.w_doc
        tot, floor, period_logp = self._tot, self._floor, cfg.period_logp
        log10 = math.log10
        unknown, log_base, boundary = PS_UNKNOWN, LOG_BASE, BOUNDARY

        def logp(w: str, p1: str, p2: str) -> float:
            key = (w, p1, p2)
            v = memo_get(key)
            if v is not None:
                return v
            num = 0.0
            period = None
            if prob is not None:
                if p1 == boundary:
                    s = prob([w, boundary])
                elif p1:
                    if p2 and p2 != boundary:
                        s = prob([w, p1, p2])
                    elif p2 == boundary:
                        s = prob([w, p1, boundary])
                    else:
                        s = prob([w, p1])
                elif p2 and p2 != boundary:
                    s = prob([w, p2])
                else:
                    s = prob([w])
                if s == unknown:
                    period = w in period_words
                    pt = period_p if period else 0.0
                else:
                    pt = 10 ** (s * log_base)
                num += wt * pt
            if bw_get is not None:
                lw = bw_get(w)
                if lw is None:
                    if period is None:
                        period = w in period_words
                    pb = period_p if period else 0.0
                else:
                    lp = bw_get(p1) if p1 and p1 != boundary else None
                    if lp is not None:
                        n = bp_get(p1 + " " + w)
                        pb = 10 ** (n - bscale - lp) if n is not None else 10 ** (lw - btotal) * 0.3
                    else:
                        pb = 10 ** (lw - btotal)
                num += wp * (pb if pb < 1.0 else 1.0)
            if uni is not None:
                z = uni.get(w, 0.0)
                num += wu * (10 ** (z - 9.0) if z > 0.0 else 0.0)
            if doc_get is not None:
                n1 = doc_get(p1, 0)
                if n1:
                    n = doc_bi_get((p1, w), 0) - 1
                    num += wd * ((n if n > 0 else 0) / n1)
                else:
                    num += wd * 0.0
            p = num / tot
            if p > 0:
                v = log10(p)
                if v < floor:
                    v = floor
            else:
                v = floor
            if v < period_logp and (period if period is not None else w in period_words):
                v = period_logp
            memo[key] = v
            return v

        return logp

    def logp(self, w: str, p1: str, p2: str) -> float:
        """log10 P(w | p1, p2) (``p1`` the word just before; :data:`BOUNDARY` or "" for none)."""
        key = (w, p1, p2)
        v = self._memo.get(key)
        if v is not None:
            return v
        # the mixture of the voices present, weights renormalised: sum(weight x probability) / sum(weight),
        # summed in the order trigram, pairs, witness (straight-line: this runs for every new window word;
        # the sum of the weights is taken once, :meth:`_hoist`)
        cfg = self.cfg
        num = 0.0
        period = None  # (w in self.period: looked up when first needed)
        prob = self._prob
        if prob is not None:
            if p1 == BOUNDARY:
                hist = [w, BOUNDARY]
            elif p1:
                if p2 and p2 != BOUNDARY:
                    hist = [w, p1, p2]
                elif p2 == BOUNDARY:
                    hist = [w, p1, BOUNDARY]
                else:
                    hist = [w, p1]
            elif p2 and p2 != BOUNDARY:
                hist = [w, p2]  # (no word just before, one before it)
            else:
                hist = [w]
            s = prob(hist)
            if s == PS_UNKNOWN:
                period = w in self.period
                pt = self._period_p if period else 0.0
            else:
                pt = 10 ** (s * LOG_BASE)
            num += cfg.w_trigram * pt
        bw = self._bw
        if bw is not None:
            lw = bw.get(w)
            if lw is None:
                if period is None:
                    period = w in self.period
                pb = self._period_p if period else 0.0
            else:
                lp = bw.get(p1) if p1 and p1 != BOUNDARY else None
                if lp is not None:
                    n = self._bp.get(p1 + " " + w)
                    pb = 10 ** (n - self._bscale - lp) if n is not None else 10 ** (lw - self._btotal) * 0.3
                else:
                    pb = 10 ** (lw - self._btotal)
            num += cfg.w_pairs * (pb if pb < 1.0 else 1.0)
        uni = self.uni
        if uni is not None:
            z = uni.get(w, 0.0)
            num += cfg.w_unigram * (10 ** (z - 9.0) if z > 0.0 else 0.0)
        if self.doc_uni:
            n1 = self.doc_uni.get(p1, 0)
            if n1:
                # (the printed occurrence itself is no evidence: one pair less)
                n = self.doc_bi.get((p1, w), 0) - 1
                num += cfg.w_doc * ((n if n > 0 else 0) / n1)
            else:
                num += cfg.w_doc * 0.0
        if not self._parts:
            v = cfg.unk_logp
        else:
            p = num / self._tot
            floor = self._floor
            if p > 0:
                v = math.log10(p)
                if v < floor:
                    v = floor
            else:
                v = floor
            if v < cfg.period_logp and (period if period is not None else w in self.period):
                v = cfg.period_logp
        self._memo[key] = v
        return v

    def window(self, words: list[str], i: int, w: str) -> float:
        """log10 P of ``words[i..i+2]`` given their histories, with ``w`` at position ``i``."""
        left2 = words[i - 2] if i >= 2 else BOUNDARY
        left1 = words[i - 1] if i >= 1 else BOUNDARY
        r1 = words[i + 1] if i + 1 < len(words) else BOUNDARY
        r2 = words[i + 2] if i + 2 < len(words) else BOUNDARY
        key = (left2, left1, w, r1, r2)  # (what the value depends on: the printed reading's window is asked
        s = self._wmemo.get(key)  # once per candidate)
        if s is not None:
            return s
        s = self.logp(w, left1, left2 if left1 != BOUNDARY else "")
        if r1 != BOUNDARY:
            s += self.logp(r1, w, left1)
            if r2 != BOUNDARY:
                s += self.logp(r2, r1, w)
        self._wmemo[key] = s
        return s

    def delta(self, words: list[str], i: int, w: str) -> float:
        """Change of the window's log10 probability when ``words[i]`` is read as ``w`` (and, with the vectors
        voice, the change of its fit to the sentence)."""
        d = self.window(words, i, w) - self.window(words, i, words[i])
        return d if self.vec is None else d + self.vec.gain(words, i, w)
