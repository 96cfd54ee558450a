"""The SymSpell deletion index of the candidate words, as two numpy arrays searched in compiled code (numba).

Every string made by deleting up to 2 characters of a candidate word (1 for words of 3 letters or fewer)
is a key; a printed token's own deletions (up to 2) are looked up, and the words under the keys it shares
are its candidates.  A key is stored as a 64-bit FNV-1a hash of its code points beside the index of its
word, sorted by hash: building it takes a fraction of a second and about 12 bytes a key (French: 2.7 M
keys, 36 MB), where a dict of strings took about 2 s and several hundred MB in every process that cleans.
Two different strings sharing a 64-bit hash would only add a word to a token's candidates, which the
Levenshtein check after the look-up still filters; with a few million keys the odds of one are about 1e-12
per look-up.  ``tests/test_clean_index.py`` checks the look-up against the plain set-of-strings search.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

import numpy as np
from numba import njit

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_BUCKET_BITS = 20  # (the top 20 bits of a key choose its bucket: about 3 keys a bucket for 3 M keys)


@njit(cache=True, nogil=True)
def _hash(codes, start, stop, skip1, skip2):  # pragma: no cover (compiled)
    """FNV-1a over ``codes[start:stop]`` leaving out the positions ``skip1`` and ``skip2`` (-1: none)."""
    h = _FNV_OFFSET
    for p in range(start, stop):
        if p == skip1 or p == skip2:
            continue
        h ^= np.uint64(codes[p])
        h *= _FNV_PRIME
    return h


@njit(cache=True, nogil=True)
def _key_count(offsets, word_depth):  # pragma: no cover (compiled)
    total = 0
    for w in range(offsets.shape[0] - 1):
        n = offsets[w + 1] - offsets[w]
        total += 1 + n
        if n > word_depth:
            total += n * (n - 1) // 2
    return total


@njit(cache=True, nogil=True)
def _word_keys(codes, offsets, word_depth):  # pragma: no cover (compiled)
    """Each word's keys (itself, its 1-deletions and, when it is longer than ``word_depth``, its
    2-deletions), hashed, each once per word (the two deletions of "aab" that give "ab"), beside the word's
    index."""
    total = _key_count(offsets, word_depth)
    keys = np.empty(total, dtype=np.uint64)
    vals = np.empty(total, dtype=np.int32)
    k = 0
    for w in range(offsets.shape[0] - 1):
        a = offsets[w]
        b = offsets[w + 1]
        n = b - a
        start = k
        keys[k] = _hash(codes, a, b, -1, -1)
        k += 1
        for i in range(a, b):
            keys[k] = _hash(codes, a, b, i, -1)
            k += 1
            if n > word_depth:
                for j in range(i + 1, b):
                    keys[k] = _hash(codes, a, b, i, j)
                    k += 1
        mine = np.unique(keys[start:k])
        keys[start : start + mine.shape[0]] = mine
        k = start + mine.shape[0]
        vals[start:k] = w
    return keys[:k], vals[:k]


@njit(cache=True, nogil=True)
def _lookup(keys, vals, first, codes):  # pragma: no cover (compiled)
    """The indices of the words sharing a key with the token ``codes`` (its deletions up to 2: one only for
    a token of 2 letters or fewer, as :func:`pipeline.clean.channel.deletes`), sorted, without repeats.
    ``first[b]`` is where the keys whose top bits are ``b`` start: a look-up reads one bucket of a few keys."""
    n = codes.shape[0]
    m = 1 + n + (n * (n - 1) // 2 if n > 2 else 0)
    hs = np.empty(m, dtype=np.uint64)
    k = 0
    hs[k] = _hash(codes, 0, n, -1, -1)
    k += 1
    if n > 1:
        for i in range(n):
            hs[k] = _hash(codes, 0, n, i, -1)
            k += 1
            if n > 2:
                for j in range(i + 1, n):
                    hs[k] = _hash(codes, 0, n, i, j)
                    k += 1
    hs = np.unique(hs[:k])
    shift = np.uint64(64 - _BUCKET_BITS)
    out = np.empty(64, dtype=np.int32)
    k = 0
    for q in range(hs.shape[0]):
        h = hs[q]
        b = np.int64(h >> shift)
        for p in range(first[b], first[b + 1]):
            if keys[p] == h:
                if k == out.shape[0]:
                    grown = np.empty(2 * k, dtype=np.int32)
                    grown[:k] = out
                    out = grown
                out[k] = vals[p]
                k += 1
            elif keys[p] > h:
                break
    return np.unique(out[:k])


@njit(cache=True, nogil=True)
def _distance(a, b, maxd):  # pragma: no cover (compiled)
    """The Levenshtein distance of the code arrays ``a`` and ``b`` (insertion, deletion, substitution: 1
    each) when it is at most ``maxd``, else ``maxd + 1`` (as rapidfuzz's ``Levenshtein.distance`` with
    ``score_cutoff``): a row whose every cell exceeds ``maxd`` ends the programme, no path falls again."""
    n, m = a.shape[0], b.shape[0]
    if abs(n - m) > maxd:
        return maxd + 1
    prev = np.arange(m + 1)
    cur = np.empty(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        cur[0] = i
        low = i
        ai = a[i - 1]
        for j in range(1, m + 1):
            v = prev[j - 1] + (0 if ai == b[j - 1] else 1)
            x = prev[j] + 1
            if x < v:
                v = x
            x = cur[j - 1] + 1
            if x < v:
                v = x
            cur[j] = v
            if v < low:
                low = v
        if low > maxd:
            return maxd + 1
        prev, cur = cur, prev
    return prev[m] if prev[m] <= maxd else maxd + 1


@njit(cache=True, nogil=True)
def _lookup_within(keys, vals, first, codes, fcodes, foffsets, query, maxd):  # pragma: no cover (compiled)
    """:func:`_lookup`'s words (ascending indices) whose folded form (``fcodes[foffsets[w]:foffsets[w + 1]]``)
    is at most ``maxd`` edits from ``query``, as two rows: the indices and the distances."""
    found = _lookup(keys, vals, first, codes)
    out = np.empty((2, found.shape[0]), dtype=np.int64)
    k = 0
    for x in found:
        d = _distance(query, fcodes[foffsets[x] : foffsets[x + 1]], maxd)
        if d <= maxd:
            out[0, k] = x
            out[1, k] = d
            k += 1
    return out[:, :k]


@dataclass(frozen=True, eq=False)
class FoldedWords:
    """Another spelling of each word of a :class:`DeletionIndex` (its accent-folded form), as code points
    cut by offsets: what :meth:`DeletionIndex.lookup_within` measures the distance to."""

    codes: np.ndarray  # uint32, the forms one after the other
    offsets: np.ndarray  # int64, len(words) + 1


def folded_words(words: tuple[str, ...], form) -> FoldedWords:
    """The forms ``form(w)`` of ``words`` (made once per index)."""
    forms = [form(w) for w in words]
    offsets = np.zeros(len(forms) + 1, dtype=np.int64)
    np.cumsum([len(f) for f in forms], out=offsets[1:])
    return FoldedWords(_codes("".join(forms)), offsets)


def _codes(w: str) -> np.ndarray:
    return np.frombuffer(w.encode("utf-32-le"), dtype=np.uint32)


@dataclass(frozen=True, eq=False)
class DeletionIndex:
    """The candidate words and their deletion keys (hash-sorted, with the word index of each)."""

    words: tuple[str, ...]
    keys: np.ndarray  # uint64 hashes, sorted
    vals: np.ndarray  # int32 index into ``words`` of each key
    first: np.ndarray  # int64, 2**20 + 1: where the keys of each bucket (a key's top 20 bits) start

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def lookup(self, token: str) -> list[str]:
        """The words that share a deletion key (up to 2 deletions on each side) with ``token``, each once,
        in the index's order."""
        found = _lookup(self.keys, self.vals, self.first, _codes(token)).tolist()
        if len(found) > 1:
            return list(itemgetter(*found)(self.words))
        return [self.words[i] for i in found]

    def lookup_within(self, token: str, folded: FoldedWords, query: str, maxd: int) -> list[tuple[int, int]]:
        """(word index, distance) of the words of :meth:`lookup` whose ``folded`` form is at most ``maxd``
        Levenshtein edits from ``query``, by ascending index: the look-up and the check in one compiled call
        (what ``rapidfuzz.process.extract(query, forms, scorer=Levenshtein.distance, score_cutoff=maxd)``
        keeps of them, without making each word and its form a Python string)."""
        out = _lookup_within(
            self.keys, self.vals, self.first, _codes(token), folded.codes, folded.offsets, _codes(query), maxd
        )
        return list(zip(out[0].tolist(), out[1].tolist()))


def build_deletion_index(words: list[str] | tuple[str, ...], word_depth: int = 3) -> DeletionIndex:
    """The index of ``words``: each word, its 1-deletions and, for a word longer than ``word_depth``
    letters, its 2-deletions (SymSpell with edit distance 2, shallower for short words)."""
    ws = tuple(dict.fromkeys(words))  # (a word listed twice is one candidate)
    codes = _codes("".join(ws))
    offsets = np.zeros(len(ws) + 1, dtype=np.int64)
    np.cumsum([len(w) for w in ws], out=offsets[1:])
    keys, vals = _word_keys(codes, offsets, word_depth)
    order = np.argsort(keys)  # (by key; the words under one key in any order: a look-up sorts its hits)
    keys, vals = keys[order], vals[order]
    starts = np.arange(2**_BUCKET_BITS, dtype=np.uint64) << np.uint64(64 - _BUCKET_BITS)
    first = np.append(np.searchsorted(keys, starts), keys.shape[0]).astype(np.int64)
    return DeletionIndex(ws, np.ascontiguousarray(keys), np.ascontiguousarray(vals), first)
