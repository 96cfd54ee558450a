"""The noisy channel and the candidate search of word repair.

:class:`Channel` is a weighted edit distance whose cheap operations are the OCR confusions of
``corpus/lexicon/confusions.tsv`` (rn/m, li/h, c/e, u/n ...), accent slips and debris characters: the
cost of printing one string for an intended word.  :class:`CandidateSearch` finds the lexicon words near
a printed token (a SymSpell-style deletion index checked with Levenshtein, then the channel cost), the
witness's own words near it (real-word repair), the word-pair pass's candidates, and the splits of a
token two words were merged into.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from ..textnorm import fold
from .deletion_index import FoldedWords, folded_words
from .tokens import JUNK, JUNK_JOINED

if TYPE_CHECKING:
    from .repairer import Repairer


@lru_cache(maxsize=500_000)
def fold_accents(w: str) -> str:
    """``w`` without accents (é -> e; :func:`pipeline.textnorm.fold`, cached: the candidate search folds
    the same words again and again): accent slips are cheap, so candidate distances ignore them."""
    return fold(w, lower=False)


def deletes(w: str, n: int) -> set[str]:
    """``w`` and every string obtained by deleting up to ``n`` characters (SymSpell)."""
    if n == 2:  # (the index's depth: each pair of places deleted once, not once per order)
        k = len(w)
        if k <= 1:
            return {w}
        out = {w[:i] + w[i + 1 :] for i in range(k)}
        out.add(w)
        if k > 2:  # (a string of one letter left after a deletion is not deleted further)
            out.update(w[:i] + w[i + 1 : j] + w[j + 1 :] for i in range(k) for j in range(i + 1, k))
        return out
    out = {w}
    frontier = {w}
    for _ in range(n):
        nxt = {x[:i] + x[i + 1 :] for x in frontier if len(x) > 1 for i in range(len(x))}
        out |= nxt
        frontier = nxt
    return out


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
    def monotone(self) -> bool:
        """No operation has a negative cost: a cost never falls as a path grows (early exits are exact)."""
        return self._monotone

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
        if fold_accents(al) == fold_accents(bl):
            return self.accent_cost
        return 1.0

    def costs(self, o: str, ts: list[str], cutoff: float | None = None) -> list[float]:
        """:meth:`cost` of ``o`` for each word of ``ts`` (one call: the compiled channel does them at once)."""
        return [self.cost(o, t, cutoff) for t in ts]

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
            conf: Sequence[tuple[str, str, float]] = self.by_last.get(a, ())
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
            ext: dict[int, list[tuple[list[float], int, float]]] | None = None
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
                if lb > cutoff:  # type: ignore[operator]  # (prune: cutoff is a float)
                    return lb
        return prev[m]


ACCENT_GROUPS = {ch: g for g in ("aàâä", "eéèêë", "iîï", "oôö", "uùûü", "cç", "yÿ") for ch in g}


class CandidateSearch:
    """The candidates of one repairer (its lexicon look-ups, channel and settings); caches the
    candidates of each token."""

    def __init__(self, rep: "Repairer"):
        res, cfg = rep.res, rep.cfg
        self.cfg = cfg
        self.channel = rep.channel
        self.zipf = rep.zipf
        self.domain = rep.domain
        self.is_word, self.prior, self.zipf_of = rep.is_word, rep.prior, rep.zipf_of
        self._cand_cache: dict[str, list[tuple[str, float]]] = {}
        self.confusions_multi = [
            (p, q, c) for p, q, c in res.lexdata.confusions if len(p) != len(q) and p and p.islower()
        ]
        # lower-case confusions cheap enough for the word-pair pass's real-word candidates
        self.cheap_confusions = [
            (p, q, c)
            for p, q, c in res.lexdata.confusions
            if p and p == p.lower() and q == q.lower() and c <= cfg.bigram_real_word_max_cost
        ]
        # the same as bit sets of their positions in cheap_confusions (bits taken lowest first: the list's
        # order): by the first letter of the printed side (a string holds only those whose first letter it
        # has), and those costing at most the k-th cheapest cost (a pre-filter: the exact test stays)
        self._cheap_by_first: dict[str, int] = {}
        for k, (p, _q, _c) in enumerate(self.cheap_confusions):
            self._cheap_by_first[p[0]] = self._cheap_by_first.get(p[0], 0) | 1 << k
        by_cost = sorted(range(len(self.cheap_confusions)), key=lambda k: self.cheap_confusions[k][2])
        self._cheap_costs = [self.cheap_confusions[k][2] for k in by_cost]
        self._cheap_upto = [0]
        for k in by_cost:
            self._cheap_upto.append(self._cheap_upto[-1] | 1 << k)
        self._cheap_first_lists: dict[str, list[int]] = {}  # (the same by first letter, as ascending positions)
        for k, (p, _q, _c) in enumerate(self.cheap_confusions):
            self._cheap_first_lists.setdefault(p[0], []).append(k)
        self._cheap_after: dict[float, int] = {}  # (cost left -> the bits of the confusions still affordable)
        self._memos = rep.memos  # (the known words' confusion variants, kept per repairer)
        # small pool always searched: the domain terms (the witness's own words are added per text)
        self.local = sorted(w for w in self.domain if w.isalpha())
        self.index = res.general.index  # SymSpell-style deletion index of the candidate words
        # (the index words' accent-folded forms as code points, for the compiled look-up and check: made once
        # per resources)
        derived = res.derived("candidate_index")
        folded = derived.get("folded")
        if folded is None:
            folded = derived["folded"] = folded_words(self.index.words, lambda w: w if w.isascii() else fold_accents(w))
        self._folded_index: FoldedWords = folded
        self.local_index: dict[str, list[str]] = {}
        for w in self.local:
            for d in deletes(w, 2):
                self.local_index.setdefault(d, []).append(w)
        # accent-folded form of every word the indexes can return (candidate distances ignore accents)
        self.folded = {w: w if w.isascii() else fold_accents(w) for ws in rep.buckets.values() for w in ws}
        self.folded.update((w, fold_accents(w)) for w in self.local)

    def accent_variants(self, lw: str) -> list[str]:
        """Known words (any frequency) that differ from ``lw`` only by accents: one letter changed within its
        accent group, or all accents dropped."""
        out: set[str] = set()
        if len(lw) > self.cfg.max_token_chars:
            return []
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
        if len(tok) > self.cfg.max_token_chars:
            return []  # (its deletions alone grow with the square of its length: bounded work per token)
        lt = tok.lower()
        maxd = 1 if len(lt) <= 4 else 2 if len(lt) <= 10 else 3
        zipf = self.zipf
        if not self.local_index:
            # (the look-up and the distance check of the index's words in one compiled call: the same words
            # and distances as the search below)
            known = self.index.words
            within = self.index.lookup_within(lt, self._folded_index, fold_accents(lt), maxd)
            scored = [(k, -zipf.get(known[i], 0.0), known[i]) for i, k in within]
        else:
            words = self.index.lookup(lt)  # (each once)
            found = set(words).union(*filter(None, map(self.local_index.get, deletes(lt, 2))))
            words = list(found)
            hits = process.extract(
                fold_accents(lt),
                list(map(self.folded.__getitem__, words)),
                scorer=Levenshtein.distance,
                score_cutoff=maxd,
                limit=None,
            )
            scored = [(k, -zipf.get(words[i], 0.0), words[i]) for _, k, i in hits]
        scored.sort()
        picked = [w for _, _, w in scored[: self.cfg.max_candidates]]
        # multi-character OCR confusions (li -> h, ii -> h, rn -> m) are two plain edits: a short token
        # would miss them within its distance, so the confusions themselves propose candidates too
        seen = set(picked)
        for p, q, _c in self.confusions_multi:
            i = lt.find(p)
            while i != -1:
                v = lt[:i] + q + lt[i + len(p) :]
                if v not in seen and zipf.get(v, 0.0) >= self.cfg.cand_min_zipf:
                    seen.add(v)
                    picked.append(v)
                i = lt.find(p, i + 1)
        out = []
        for w, c in zip(picked, self.channel.costs(tok, picked, self.cfg.max_cost)):
            if c <= self.cfg.max_cost:
                out.append((w, c))
        out.sort(key=lambda x: x[1])
        self._cand_cache[tok] = out
        return out

    def local_candidates(self, tok: str, ctx) -> list[tuple[str, float]]:
        """Candidates among the words the witness and the corpus use (real-word repair)."""
        key = (tok, id(ctx))
        hit = ctx.cache.get(key)
        if hit is not None:
            return hit
        if len(tok) > self.cfg.max_token_chars:
            return []
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
            # (memo: the variants and their costs, the same for every vocabulary; the word-pair and the
            # language-model passes both ask for the same words)
            memo = self._memos.get("context_variants")
            hit = memo.get(lw)
            if hit is None:
                # (the variants, their costs computed when first asked, and the answer for the last
                # vocabulary asked: the two passes ask with the same table, most variants are no word of it)
                hit = memo[lw] = [self.variants(lw, cut), {}, None, []]
            variants, cost_of, last_vocab, out = hit
            if last_vocab is not vocab:
                words = [w for w in variants if w in vocab]
                todo = [w for w in words if w not in cost_of]
                if todo:  # (the costs not computed yet, in one call)
                    cost_of.update(zip(todo, self.channel.costs(lw, todo, cut)))
                out = [
                    (w, c, self.zipf_of(w) - cfg.channel_scale * c) for w in words for c in (cost_of[w],) if c <= cut
                ]
                hit[2], hit[3] = vocab, out
            return list(out)
        return [(w, c, self.zipf_of(w) - cfg.channel_scale * c) for w, c in pairs if w != lw and w in vocab]

    def variants(self, lw: str, cut: float) -> tuple[str, ...]:
        """The words ``lw`` becomes with one or two cheap OCR confusions undone, at most ``cut`` in their
        listed costs, in the order they are first found (round by round; in a round, the words found
        before in order, each with the confusions in list order, each at its places from the left)."""
        seen = {lw: 0.0}
        cheap, by_first = self.cheap_confusions, self._cheap_by_first
        costs, upto = self._cheap_costs, self._cheap_upto
        # (a variant holds only letters of lw or of the confusions' intended sides taken in the first round:
        # the second round tries, for each cost paid so far, only the confusions that start with one of them)
        present = set(lw)
        firsts = self._cheap_first_lists
        frontier = []
        found_q = []  # (the intended sides of the confusions found in lw)
        # first round: the confusions whose first letter lw has, in list order
        for k in sorted(chain.from_iterable([firsts[ch] for ch in present if ch in firsts])):
            p, q, c = cheap[k]
            if c > cut:
                continue
            i = lw.find(p)
            if i == -1:
                continue
            found_q.append(q)
            while i != -1:
                u = lw[:i] + q + lw[i + len(p) :]
                if seen.get(u, 99.0) > c:
                    seen[u] = c
                    frontier.append((u, c))
                i = lw.find(p, i + 1)
        present.update(chain.from_iterable(found_q))
        reach = 0  # (the confusions a variant's letters could start: lw's and those put in by the first round)
        for ch in present:
            reach |= by_first.get(ch, 0)
        after = self._cheap_after
        live = {}  # (cost paid -> the confusions still affordable that a variant's letters could start)
        for c0 in {c0 for _v, c0 in frontier}:
            left = cut - c0
            within = after.get(left)
            if within is None:
                within = after[left] = upto[bisect_right(costs, left + 1e-9)]
            if reach & within:
                live[c0] = within
        for v, c0 in frontier if live else ():  # (second round)
            within = live.get(c0)
            if within is None:
                continue
            ks = 0
            for ch in set(v):
                ks |= by_first.get(ch, 0)
            ks &= within
            while ks:
                low = ks & -ks
                ks ^= low
                p, q, c = cheap[low.bit_length() - 1]
                cc = c0 + c
                if cc > cut:
                    continue
                i = v.find(p)
                while i != -1:
                    u = v[:i] + q + v[i + len(p) :]
                    if seen.get(u, 99.0) > cc:
                        seen[u] = cc
                    i = v.find(p, i + 1)
        del seen[lw]
        return tuple(seen)

    def split_candidates(self, tok: str, ctx, scale: float | None = None) -> list[tuple[float, str, float]]:
        """Two words merged by OCR (``dutalop`` -> ``du talon``): a frequent left word + a repairable right word."""
        cfg = self.cfg
        if len(tok) > cfg.max_token_chars:
            return []
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
