"""The repair engine of one language and configuration, split by job: the lexicon look-ups live here
(known word, protected spelling, zipf frequency, prior), the candidates in
:class:`~pipeline.clean.channel.CandidateSearch` (``rep.search``), the decision in
:class:`~pipeline.clean.decide.Decider` (``rep.decider``), the per-token memos in
:class:`~pipeline.clean.memo.Memos` (``rep.memo(name)``).  One repairer per resources object and
configuration (:meth:`~pipeline.clean.resources.CleanResources.repairer`)."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from .channel import CandidateSearch
from .fastchannel import FastChannel
from .decide import Decider
from .lexicon import count_text
from .memo import Memos
from .tokens import COMPOUND_SPLIT, case_like

_UNSEEN = object()
_LETTERS = re.compile(r"[^\W\d_]+")
_EDGE = "\"'’.,;:!?()[]«»-"

if TYPE_CHECKING:
    from .config import CleanConfig
    from .lexicon import BigramModel
    from .realwords import RealWordRules
    from .resources import CleanResources


def any_of(patterns) -> re.Pattern | None:
    """One expression that finds a match where one of ``patterns`` does (their alternation, each in a group
    of its own; None when they cannot be joined: none, or one with a flag for the whole expression)."""
    ps = list(patterns)
    if not ps:
        return None
    try:
        return re.compile("|".join(f"(?:{p})" for p in ps))
    except re.error:
        return None


class Repairer:
    """Lexicon look-ups of one language, with the candidate search, the decider and the memos."""

    def __init__(self, res: "CleanResources", cfg: "CleanConfig"):
        self.res = res
        self.cfg = cfg
        self.lang = res.lang
        self.zipf = res.general.zipf
        self.buckets = res.general.buckets
        self.domain: set[str] = {w.lower() for w in res.lexdata.domain}
        self.hist = res.lexdata.historical
        self.ligatures = res.lexdata.ligatures
        self.period_patterns = tuple((re.compile(p), r) for p, r in res.lexdata.period_patterns)
        self._period_any = any_of(p for p, _r in res.lexdata.period_patterns)
        self._period_memo: dict[str, str | None] = {}  # word -> its modern form by a pattern, or None
        self._protected_memo: dict[str, bool] = {}  # word -> protected(word): every token of every pass asks
        # the patterns of plain letters read backwards (ense$ -> ence): a modern word's period forms
        self.period_inverse = tuple(
            (re.compile(re.escape(r) + ("$" if p.endswith("$") else "")), p.strip("^$"))
            for p, r in res.lexdata.period_patterns
            if p.strip("^$").isalpha() and r.isalpha() and not p.startswith("^")
        )
        self.elision: tuple[str, ...] = res.lexdata.elision
        # (the compiled programme: the same costs as Channel's, cell for cell, see tests/test_fastchannel.py)
        self.channel = FastChannel(res.lexdata.confusions, cfg.accent_cost, cfg.junk_sub_cost, cfg.junk_del_cost)
        self.channel.extra_letter = cfg.extra_letter_cost if self.domain else cfg.general_extra_letter_cost
        self.memos = Memos()
        self._counted: tuple[str, tuple[Counter, Counter]] | None = None  # (text_counts: the last text and its counts)
        self._rw: RealWordRules | None = None
        self.search = CandidateSearch(self)
        self.local = self.search.local  # the domain terms: the pool always searched for real words
        self.decider = Decider(self)

    def text_counts(self, text: str) -> tuple[Counter, Counter]:
        """:func:`~pipeline.clean.lexicon.count_text` of ``text``, kept for the last text asked: a pass that
        changes nothing hands the next one the same text, and the word, fragment and language-model passes
        each count theirs (French ICDAR dev: 99 of 243 counts were of the text counted just before).  The
        counts are shared: read only."""
        last = self._counted
        if last is not None and last[0] == text:
            return last[1]
        out = count_text(text)
        self._counted = (text, out)
        return out

    def memo(self, name: str) -> dict[Any, Any]:
        """The per-token memo ``name`` (see :mod:`pipeline.clean.memo`)."""
        return self.memos.get(name)

    @property
    def bigrams(self) -> "BigramModel | None":
        """The language's general word-pair counts when ``bigram_context`` is on (None otherwise, or when
        no package ships them)."""
        if not self.cfg.bigram_context:
            return None
        from .lexicon import bigram_model

        return bigram_model(self.lang)

    def realword_rules(self) -> "RealWordRules":
        if self._rw is None:
            from .realwords import RealWordRules

            self._rw = RealWordRules(self.res.lexdata.realword, self.lang, self.res.lexdata.tag_shapes)
        return self._rw

    # ---- lexicon -------------------------------------------------------------------------
    def protected(self, lw: str) -> bool:
        """Never changed: a historical spelling (the list or a period pattern), a game term, or a word printed
        with a ligature whose spelled-out form is a word (``minutiæ``: ligatures.tsv).  Memoised per word
        (what it reads is fixed when the repairer is made)."""
        memo = self._protected_memo
        hit = memo.get(lw)
        if hit is None:
            if len(memo) >= Memos.MEMO_MAX:
                memo.clear()
            hit = memo[lw] = self._protected(lw)
        return hit

    def _protected(self, lw: str) -> bool:
        if lw in self.hist or lw in self.domain:
            return True
        for lig, letters in self.ligatures:
            if lig in lw:  # (a lexicon word of any frequency spelled out: what a word without it would be)
                spelled = lw.replace(lig, letters)
                return self.zipf.get(spelled, 0.0) > 0.0 or self._protected(spelled)
        if not self.period_patterns:
            return False
        p = self._period_memo.get(lw, _UNSEEN)  # (a hot path: every token of every pass asks)
        return (self._period(lw) if p is _UNSEEN else p) is not None

    def period_form(self, lw: str) -> str | None:
        """The modern form of a historical spelling ``lw`` (``""``: a period word with none recorded), None
        when ``lw`` is none: the historical list's, else the first period pattern's (historical_patterns.tsv)."""
        reg = self.hist.get(lw)
        return reg if reg is not None else self._period(lw) if self.period_patterns else None

    def period_repair(self, printed: str, after: str) -> str | None:
        """``after`` (a repair of the token ``printed``) with its word in the period spelling the print is
        nearer to (strictly cheaper by the channel; the pattern reads it as the repaired word), or None:
        OCR ``expcnces`` is the period *expences* of its time (one letter misread), not the modern *expenses*
        (two).  Only in ``CleanConfig.period_repair_langs``."""
        if self.lang not in self.cfg.period_repair_langs or not self.period_inverse:
            return None
        m = max(_LETTERS.finditer(after), key=lambda x: len(x.group()), default=None)
        if m is None:
            return None
        word, lp = m.group().lower(), printed.lower().strip(_EDGE)
        olds = [v for pat, rep in self.period_inverse for v in [pat.sub(rep, word, count=1)] if v != word]
        olds = [v for v in olds if self._period(v) == word]
        if not olds:  # (nearly every repair: the channel is asked only when a period form exists)
            return None
        best, cost = None, self.channel.cost(lp, word)
        for v in olds:
            c = self.channel.cost(lp, v)
            if c < cost:
                best, cost = v, c
        if best is None:
            return None
        return after[: m.start()] + case_like(m.group(), best) + after[m.end() :]

    def _period(self, lw: str) -> str | None:
        memo = self._period_memo
        if lw in memo:
            return memo[lw]
        if len(memo) >= Memos.MEMO_MAX:
            memo.clear()
        out = None
        z = self.zipf.get(lw, 0.0)
        if z < self.cfg.period_max_zipf and lw.isalpha() and (self._period_any is None or self._period_any.search(lw)):
            # (most words: no pattern is in them, one search of all the patterns at once says so)
            # (each pattern alone, then all of them in turn: paroissoit has two, oiss and oit)
            forms, m = [], lw
            for pat, rep in self.period_patterns:
                hit = pat.search(lw)
                if hit is None or (len(lw) - len(hit.group()) < self.cfg.period_min_stem and pat.pattern[:1] != "^"):
                    continue
                one = pat.sub(rep, lw, count=1)
                if one != lw:
                    forms.append(one)
                    m = pat.sub(rep, m, count=1)
            for f in forms + [m]:
                zm = self.zipf.get(f, 0.0)
                if f != lw and zm >= self.cfg.period_modern_min_zipf and zm >= z + self.cfg.period_gain:
                    out = f
                    break
        memo[lw] = out
        return out

    def zipf_of(self, lw: str) -> float:
        z = self.zipf.get(lw)
        if z is None and ("-" in lw or "'" in lw):
            parts = [p for p in COMPOUND_SPLIT.split(lw) if p]
            z = min((self.zipf.get(p, 0.0) for p in parts), default=0.0) - 1.0 if parts else 0.0
        return z or 0.0

    def prior(self, lw: str, doc: Counter | None = None) -> float:
        z = self.zipf_of(lw)
        if lw in self.domain:
            z = max(z, self.cfg.domain_floor) + self.cfg.domain_boost
        n = doc.get(lw, 0) if doc else 0
        if n >= self.cfg.corpus_min_count:
            z += self.cfg.corpus_boost * math.log10(n)
        return z

    def is_word(self, w: str) -> bool:
        lw = w.lower().replace("’", "'")
        if self.protected(lw):
            return True
        return self.zipf.get(lw, 0.0) >= self.cfg.word_min_zipf

    def is_compound(self, a: str, b: str) -> bool:
        lw = (a + "-" + b).lower()
        if self.protected(lw):
            return True
        if self.protected((a + b).lower()) or self.zipf.get((a + b).lower(), 0.0) >= self.cfg.word_min_zipf:
            return False
        return (
            self.zipf.get(a.lower(), 0) >= self.cfg.compound_part_zipf
            and self.zipf.get(b.lower(), 0) >= self.cfg.compound_part_zipf
        )
