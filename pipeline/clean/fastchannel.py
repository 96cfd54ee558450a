"""The channel's weighted edit distance compiled (numba): the same programme as
:meth:`pipeline.clean.channel.Channel.cost`, cell for cell, on arrays.

What depends on the printed string alone is turned into arrays once per printed string (cached, as the
pure-Python programme caches its per-row tables): per row, the printed letter's lower-case code and its
accent-folded code, deletion cost, debris and noise flags, and the confusions ending there (rows back,
intended side as codes, cost).  An intended word is encoded once (cached).  :class:`FastChannel` is a
drop-in :class:`~pipeline.clean.channel.Channel`; ``tests/test_lm.py`` checks it against the original on
random strings.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

import numpy as np
from numba import njit

from ..textnorm import fold
from .channel import Channel
from .tokens import JUNK


@lru_cache(maxsize=None)  # (one entry per character seen: the encodings fold the same letters again and again)
def _strip_accents(ch: str) -> str:
    """One character without its accent (its base letter: the first code point of it folded), as the channel
    compares them."""
    return (fold(ch, lower=False) or ch)[0]


@njit(cache=True, nogil=True)
def _dp(
    ol, fo, dl, junk, noise, cs, ce, clp, ccost, cqs, cql, qbuf, tc, tl, tf, accent, jsub, jextra, cutoff, prune, jump
):  # pragma: no cover (compiled)
    n = ol.shape[0]
    m = tc.shape[0]
    done = np.empty((n + 1, m + 1))
    for j in range(m + 1):
        done[0, j] = float(j)
    mins = np.empty(n + 1)
    mins[0] = 0.0
    for i in range(1, n + 1):
        r = i - 1
        d = dl[r]
        best = done[i - 1, 0] + d
        done[i, 0] = best
        rowmin = best
        for j in range(1, m + 1):
            left = best
            best = done[i - 1, j] + d
            v = left + 1.0
            if v < best:
                best = v
            # substitution (Channel.sub, and the noise rule of _SubRow)
            if ol[r] == tl[j - 1]:
                sc = 0.0
            elif junk[r]:
                sc = jsub
            elif fo[r] == tf[j - 1]:
                sc = accent
            else:
                sc = 1.0
            if noise[r] and sc > jsub:
                sc = jsub + 0.1
            v = done[i - 1, j - 1] + sc
            if v < best:
                best = v
            if junk[r] and j > 1:
                v = done[i - 1, j - 2] + jsub + jextra
                if v < best:
                    best = v
            for k in range(cs[r], ce[r]):
                lq = cql[k]
                src = i - clp[k]
                if lq == 0:
                    v = done[src, j] + ccost[k]
                    if v < best:
                        best = v
                    continue
                s0 = j - lq
                if s0 < 0:
                    continue
                ok = True
                qs = cqs[k]
                for x in range(lq):
                    if tc[s0 + x] != qbuf[qs + x]:
                        ok = False
                        break
                if ok:
                    v = done[src, s0] + ccost[k]
                    if v < best:
                        best = v
            done[i, j] = best
            if best < rowmin:
                rowmin = best
        if prune:
            mins[i] = rowmin
            lb = mins[i]
            lo = i - jump + 1
            if lo < 0:
                lo = 0
            for x in range(lo, i):
                if mins[x] < lb:
                    lb = mins[x]
            if lb > cutoff:
                return lb
    return done[n, m]


@njit(cache=True, nogil=True)
def _dp_many(
    ol,
    fo,
    dl,
    junk,
    noise,
    cs,
    ce,
    clp,
    ccost,
    cqs,
    cql,
    qbuf,
    tc,
    tl,
    tf,
    bounds,
    accent,
    jsub,
    jextra,
    cutoff,
    prune,
    jump,
):  # pragma: no cover (compiled)
    """:func:`_dp` for several intended words at once (word k: codes ``[bounds[k], bounds[k + 1])``)."""
    k = bounds.shape[0] - 1
    out = np.empty(k)
    for x in range(k):
        s, e = bounds[x], bounds[x + 1]
        out[x] = _dp(
            ol,
            fo,
            dl,
            junk,
            noise,
            cs,
            ce,
            clp,
            ccost,
            cqs,
            cql,
            qbuf,
            tc[s:e],
            tl[s:e],
            tf[s:e],
            accent,
            jsub,
            jextra,
            cutoff,
            prune,
            jump,
        )
    return out


class _CharTable(dict):
    """A ``str.translate`` table filled on demand: code point -> ``fn`` of its character."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def __missing__(self, k: int) -> str:
        v = self[k] = self.fn(chr(k))
        return v


# (per character, as _word encodes one: str.lower of the whole string would read a final sigma in context)
_LOWER = _CharTable(str.lower)
_FOLDED = _CharTable(lambda ch: _strip_accents(ch.lower()))


def _codes(s: str) -> np.ndarray:
    """The code points of ``s`` as int64."""
    return np.frombuffer(s.encode("utf-32-le", "surrogatepass"), np.uint32).astype(np.int64)


def _code(ch: str) -> int:
    return ord(ch) if len(ch) == 1 else -1  # (a letter whose lower case is two characters equals no letter)


class FastChannel(Channel):
    """:class:`Channel` with :meth:`cost` compiled."""

    ENC_CACHE_MAX = 200_000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._arrays: dict[str, tuple] = {}
        self._words: dict[str, tuple] = {}
        # printed character -> (lower-case code, accent-folded code, debris?, upper case?, lower case?)
        self._chars: dict[str, tuple[int, int, bool, bool, bool]] = {}
        # Channel.by_last with each confusion as (printed side, its length, lower case?, cost, intended codes)
        self._by_last_enc = {
            k: tuple((p, len(p), p.islower(), c, tuple(map(ord, q))) for p, q, c in v) for k, v in self.by_last.items()
        }

    @Channel.extra_letter.setter  # type: ignore[attr-defined]
    def extra_letter(self, v: float) -> None:
        Channel.extra_letter.fset(self, v)  # type: ignore[attr-defined]
        if hasattr(self, "_arrays"):
            self._arrays.clear()

    def _printed(self, o: str) -> tuple:
        a = self._arrays.get(o)
        if a is not None:
            return a
        # the rows of Channel._prep (deletion cost, debris, noise, the confusions ending at each row), built
        # here directly from the printed string: the same tables, without its per-row substitution objects
        ol = o.lower()
        n = len(o)
        by_last, junk_del, extra = self._by_last_enc, self.junk_del, self._extra_letter
        enc = self._chars
        lo: list[int] = []
        fo: list[int] = []
        dl: list[float] = []
        junk: list[bool] = []
        noise: list[bool] = []
        cs: list[int] = []
        ce: list[int] = []
        clp: list[int] = []
        ccost: list[float] = []
        cqs: list[int] = []
        cql: list[int] = []
        qbuf: list[int] = []
        prev_lower = False
        for i in range(1, n + 1):
            ch = o[i - 1]
            e = enc.get(ch)
            if e is None:
                al = ch.lower()
                e = enc[ch] = (_code(al), _code(_strip_accents(al)), ch in JUNK, ch.isupper(), ch.islower())
            lo.append(e[0])
            fo.append(e[1])
            dl.append(junk_del if e[2] else extra)
            junk.append(e[2])
            noise.append(i > 1 and e[3] and prev_lower)
            prev_lower = e[4]
            cs.append(len(clp))
            conf = by_last.get(ch)
            if conf:
                # (the confusions whose printed side ends with this character: one of a single character is
                # this character, so it matches here without a look at the string)
                for p, lp, plow, c, q in conf:
                    if lp == 1 or (lp <= i and (o[i - lp : i] == p or (plow and ol[i - lp : i] == p))):
                        clp.append(lp)
                        ccost.append(c)
                        cqs.append(len(qbuf))
                        cql.append(len(q))
                        qbuf.extend(q)
            if ch != ol[i - 1]:
                for p, lp, plow, c, q in by_last.get(ol[i - 1]) or ():  # (then those of its lower case)
                    if lp <= i and (o[i - lp : i] == p or (plow and ol[i - lp : i] == p)):
                        clp.append(lp)
                        ccost.append(c)
                        cqs.append(len(qbuf))
                        cql.append(len(q))
                        qbuf.extend(q)
            ce.append(len(clp))
        # (three arrays cut into contiguous views: one array per table costs more than the tables)
        ints = np.array(lo + fo + cs + ce + clp + cqs + cql + qbuf, np.int64)
        floats = np.array(dl + ccost, np.float64)
        flags = np.array(junk + noise, np.bool_)
        k = len(clp)
        c0, c1, c2, c3, c4 = 2 * n, 3 * n, 4 * n, 4 * n + k, 4 * n + 2 * k
        a = (
            ints[:n],
            ints[n:c0],
            floats[:n],
            flags[:n],
            flags[n:],
            ints[c0:c1],
            ints[c1:c2],
            ints[c2:c3],
            floats[n:],
            ints[c3:c4],
            ints[c4 : c4 + k],
            ints[c4 + k :],
        )
        if len(self._arrays) >= self.ENC_CACHE_MAX:
            self._arrays.clear()
        self._arrays[o] = a
        return a

    def _printed_rows(self, o: str) -> tuple:
        """The arrays of :meth:`_printed` from Channel._prep's rows (the reference the tests compare with)."""
        rows = self._prep(o)  # (deletion cost, debris, substitution row, confusions) per row
        # (built as lists, each made an array once: item assignment into arrays costs more)
        ol: list[int] = []
        fo: list[int] = []
        dl: list[float] = []
        junk: list[bool] = []
        noise: list[bool] = []
        cs: list[int] = []
        ce: list[int] = []
        clp: list[int] = []
        ccost: list[float] = []
        cqs: list[int] = []
        cql: list[int] = []
        qbuf: list[int] = []
        for r, (d, jk, subrow, confs) in enumerate(rows):
            ch = o[r]
            al = ch.lower()
            ol.append(_code(al))
            fo.append(_code(_strip_accents(al)))
            dl.append(d)
            junk.append(jk)
            noise.append(subrow.noise)
            cs.append(len(clp))
            for lp, q, lq, c in confs:
                clp.append(lp)
                ccost.append(c)
                cqs.append(len(qbuf))
                cql.append(lq)
                qbuf.extend(ord(x) for x in q)
            ce.append(len(clp))
        return (
            np.array(ol, np.int64),
            np.array(fo, np.int64),
            np.array(dl, np.float64),
            np.array(junk, np.bool_),
            np.array(noise, np.bool_),
            np.array(cs, np.int64),
            np.array(ce, np.int64),
            np.array(clp, np.int64),
            np.array(ccost, np.float64),
            np.array(cqs, np.int64),
            np.array(cql, np.int64),
            np.array(qbuf, np.int64),
        )

    def _word(self, t: str) -> tuple:
        w = self._words.get(t)
        if w is None:
            if len(self._words) >= self.ENC_CACHE_MAX:
                self._words.clear()
            if t.isascii():  # (ASCII: lower case and accent-folded codes are the lower-case bytes, as below)
                lo = np.frombuffer(t.lower().encode("ascii"), np.uint8).astype(np.int64)
                w = self._words[t] = (np.frombuffer(t.encode("ascii"), np.uint8).astype(np.int64), lo, lo)
                return w
            w = self._words[t] = (
                np.array([ord(b) for b in t], np.int64),
                np.array([ord(b.lower()) for b in t], np.int64),
                np.array([_code(_strip_accents(b.lower())) for b in t], np.int64),
            )
        return w

    def cost(self, o: str, t: str, cutoff: float | None = None) -> float:
        if not t.isascii() and any(len(b.lower()) != 1 for b in t):
            return super().cost(o, t, cutoff)  # (a letter whose lower case is two characters: the plain programme)
        tc, tl, tf = self._word(t)
        prune = cutoff is not None and self._monotone
        # (numba's Dispatcher takes the arguments of the compiled function)
        args = (
            *self._printed(o),
            tc,
            tl,
            tf,
            self.accent_cost,
            self.junk_sub,
            self.junk_extra,
            cutoff if cutoff is not None else 0.0,
            prune,
            self._max_jump,
        )
        return float(_dp(*args))  # type: ignore[call-arg]

    def costs(self, o: str, ts: list[str], cutoff: float | None = None) -> list[float]:
        """:meth:`cost` of ``o`` for each word of ``ts``, in one compiled call (the same values)."""
        if len(ts) < 2:
            return [self.cost(o, t, cutoff) for t in ts]
        j = "".join(ts)
        n = len(j)
        # (the codes in one array cut into contiguous views: one conversion instead of two or three)
        if j.isascii():  # (as _word: lower case and accent-folded codes are the lower-case bytes)
            both = np.frombuffer((j + j.lower()).encode("ascii"), np.uint8).astype(np.int64)
            tc = both[:n]
            tl = tf = both[n:]
        else:  # (the codes of _word, of all the words at once: each letter, lower-cased, accent-folded)
            low = j.translate(_LOWER)
            if len(low) != n:  # (a letter whose lower case is two characters: one word at a time)
                return [self.cost(o, t, cutoff) for t in ts]
            folded = j.translate(_FOLDED)  # (one character for each: _strip_accents keeps the first)
            three = _codes(j + low + folded)
            tc, tl, tf = three[:n], three[n : 2 * n], three[2 * n :]
        bounds = np.array([0, *accumulate(map(len, ts))], np.int64)
        prune = cutoff is not None and self._monotone
        args = (
            *self._printed(o),
            tc,
            tl,
            tf,
            bounds,
            self.accent_cost,
            self.junk_sub,
            self.junk_extra,
            cutoff if cutoff is not None else 0.0,
            prune,
            self._max_jump,
        )
        return _dp_many(*args).tolist()  # type: ignore[call-arg]  # (Python floats, as float(x) of each)
