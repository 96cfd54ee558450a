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


@njit(cache=True, nogil=True)
def _conf_matches(e, i, first, oc, olc, cp, cp_off, clow):  # pragma: no cover (compiled)
    """Whether confusion ``e`` ends at row ``i`` of the printed string (codes ``oc``, lower case ``olc``): its
    printed side is the characters before row ``i``, as printed or, a lower-case side, in lower case; one of
    a single character always does among those listed under the row's own character (``first``)."""
    a, b = cp_off[e], cp_off[e + 1]
    lp = b - a
    if first and lp == 1:
        return True
    if lp > i:
        return False
    same = True
    for x in range(lp):
        if oc[i - lp + x] != cp[a + x]:
            same = False
            break
    if same:
        return True
    if not clow[e]:
        return False
    for x in range(lp):
        if olc[i - lp + x] != cp[a + x]:
            return False
    return True


@njit(cache=True, nogil=True)
def _printed_arrays(
    oc, olc, lo_t, fo_t, junk_t, up_t, low_t, kstart, kend, cp, cp_off, clow, ccost, cq, cq_off, junk_del, extra
):  # pragma: no cover (compiled)
    """The printed tables of :meth:`FastChannel._printed_direct` for the printed codes ``oc`` (lower case
    ``olc``), as its three arrays (ints, floats, flags) and the number of confusion rows: per character code
    the tables ``lo_t`` ... ``low_t`` (lower-case code, accent-folded code, debris, upper case, lower case),
    and the confusions under each last character ``kstart[c]`` to ``kend[c]``, in Channel.by_last's order
    (printed side ``cp``, lower case ``clow``, cost, intended side ``cq``)."""
    n = oc.shape[0]
    k = 0
    nq = 0
    for i in range(1, n + 1):
        ch, cl = oc[i - 1], olc[i - 1]
        for e in range(kstart[ch], kend[ch]):
            if _conf_matches(e, i, True, oc, olc, cp, cp_off, clow):
                k += 1
                nq += cq_off[e + 1] - cq_off[e]
        if ch != cl:
            for e in range(kstart[cl], kend[cl]):
                if _conf_matches(e, i, False, oc, olc, cp, cp_off, clow):
                    k += 1
                    nq += cq_off[e + 1] - cq_off[e]
    # ints: lower-case codes, folded codes, confusion starts and ends per row, rows back, intended sides' starts
    # and lengths, intended codes; floats: deletion costs, confusion costs; flags: debris, noise
    ints = np.empty(4 * n + 3 * k + nq, dtype=np.int64)
    floats = np.empty(n + k, dtype=np.float64)
    flags = np.empty(2 * n, dtype=np.bool_)
    c_clp, c_cqs, c_cql, c_q = 4 * n, 4 * n + k, 4 * n + 2 * k, 4 * n + 3 * k
    m = 0
    q = 0
    for i in range(1, n + 1):
        r = i - 1
        ch, cl = oc[r], olc[r]
        ints[r] = lo_t[ch]
        ints[n + r] = fo_t[ch]
        floats[r] = junk_del if junk_t[ch] else extra
        flags[r] = junk_t[ch]
        flags[n + r] = i > 1 and up_t[ch] and low_t[oc[r - 1]]
        ints[2 * n + r] = m
        for pass_ in range(2):
            if pass_ == 1 and ch == cl:
                break
            key = ch if pass_ == 0 else cl
            for e in range(kstart[key], kend[key]):
                if _conf_matches(e, i, pass_ == 0, oc, olc, cp, cp_off, clow):
                    ints[c_clp + m] = cp_off[e + 1] - cp_off[e]
                    floats[n + m] = ccost[e]
                    ints[c_cqs + m] = q
                    lq = cq_off[e + 1] - cq_off[e]
                    ints[c_cql + m] = lq
                    for x in range(lq):
                        ints[c_q + q + x] = cq[cq_off[e] + x]
                    q += lq
                    m += 1
        ints[3 * n + r] = m
    return ints, floats, flags, k


_BMP = 0x10000  # (the compiled tables cover the characters below this code; a string with another is built in Python)


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


def _char_entry(ch: str) -> tuple[int, int, bool, bool, bool]:
    """What the printed tables read of a character: (lower-case code, accent-folded code, debris?, upper case?,
    lower case?)."""
    al = ch.lower()
    return _code(al), _code(_strip_accents(al)), ch in JUNK, ch.isupper(), ch.islower()


def _printed_views(ints: np.ndarray, floats: np.ndarray, flags: np.ndarray, n: int, k: int) -> tuple:
    """The twelve printed tables of a string of ``n`` characters with ``k`` confusions, as views of the three
    arrays they were laid out in one after the other (:meth:`FastChannel._printed`'s order)."""
    c0, c1, c2, c3, c4 = 2 * n, 3 * n, 4 * n, 4 * n + k, 4 * n + 2 * k
    return (
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
        # the same for the compiled builder of the printed tables (_printed_arrays): per character code below
        # _BMP, where its confusions start and end in flat arrays (the last characters of a printed side
        # beyond it are never asked there); and the characters' encodings, filled as characters come
        kstart = np.zeros(_BMP, np.int64)
        kend = np.zeros(_BMP, np.int64)
        cp, cp_off, clow, ccost, cq, cq_off = [], [0], [], [], [], [0]
        for key, confs in self._by_last_enc.items():
            if len(key) != 1 or ord(key) >= _BMP:
                continue
            kstart[ord(key)] = len(clow)
            for p, _lp, plow, c, q in confs:
                cp.extend(map(ord, p))
                cp_off.append(len(cp))
                clow.append(plow)
                ccost.append(c)
                cq.extend(q)
                cq_off.append(len(cq))
            kend[ord(key)] = len(clow)
        self._conf_tables = (
            kstart,
            kend,
            np.array(cp, np.int64),
            np.array(cp_off, np.int64),
            np.array(clow, np.bool_),
            np.array(ccost, np.float64),
            np.array(cq, np.int64),
            np.array(cq_off, np.int64),
        )
        self._char_tables = (
            np.zeros(_BMP, np.int64),
            np.zeros(_BMP, np.int64),
            np.zeros(_BMP, np.bool_),
            np.zeros(_BMP, np.bool_),
            np.zeros(_BMP, np.bool_),
        )
        self._encoded = set()  # (the characters whose encodings are in _char_tables)

    @Channel.extra_letter.setter  # type: ignore[attr-defined]
    def extra_letter(self, v: float) -> None:
        Channel.extra_letter.fset(self, v)  # type: ignore[attr-defined]
        if hasattr(self, "_arrays"):
            self._arrays.clear()

    def _printed(self, o: str) -> tuple:
        a = self._arrays.get(o)
        if a is not None:
            return a
        a = self._printed_compiled(o)
        if a is None:
            a = self._printed_direct(o)
        if len(self._arrays) >= self.ENC_CACHE_MAX:
            self._arrays.clear()
        self._arrays[o] = a
        return a

    def _printed_compiled(self, o: str) -> tuple | None:
        """:meth:`_printed_direct`'s tables built by compiled code (2.6x faster over the English ICDAR dev
        tokens, 1.9x over the French), the same values in the same arrays; None for an empty string or one
        with a character (or a lower case) beyond the compiled tables."""
        if not o:
            return None
        ol = o.lower()
        if o.isascii():
            oc = np.frombuffer(o.encode("ascii"), np.uint8).astype(np.int64)
            olc = np.frombuffer(ol.encode("ascii"), np.uint8).astype(np.int64)
        else:  # (UTF-16 code units: one per character exactly when every character is below _BMP)
            oc = np.frombuffer(o.encode("utf-16-le", "surrogatepass"), np.uint16)
            olc = np.frombuffer(ol.encode("utf-16-le", "surrogatepass"), np.uint16)
            if oc.shape[0] != len(o) or olc.shape[0] != len(ol):
                return None
            oc, olc = oc.astype(np.int64), olc.astype(np.int64)
        if not self._encoded.issuperset(o):
            lo_t, fo_t, junk_t, up_t, low_t = self._char_tables
            for ch in set(o).difference(self._encoded):
                e = self._chars.get(ch)
                if e is None:
                    e = self._chars[ch] = _char_entry(ch)
                c = ord(ch)
                lo_t[c], fo_t[c], junk_t[c], up_t[c], low_t[c] = e
                self._encoded.add(ch)
        ints, floats, flags, k = _printed_arrays(
            oc, olc, *self._char_tables, *self._conf_tables, self.junk_del, self._extra_letter
        )
        return _printed_views(ints, floats, flags, len(o), k)

    def _printed_direct(self, o: str) -> tuple:
        """The printed tables built in Python, character by character (any string): the rows of
        Channel._prep (deletion cost, debris, noise, the confusions ending at each row), directly from the
        printed string: the same tables, without its per-row substitution objects."""
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
                e = enc[ch] = _char_entry(ch)
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
        return _printed_views(ints, floats, flags, n, len(clp))

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
