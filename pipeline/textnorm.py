"""Text normalisation shared by every stage: Unicode NFC, accent folding, and the word tokens of the
clean stage's counts.

One folding function, :func:`fold`, serves the running-head comparison and the candidate search of the
clean stage, the alignment's lemma and text keys and the site's search box; its options say what each
of them needs (lower-casing first, compatibility decomposition for ligatures and other presentation
forms).
"""

from __future__ import annotations

import unicodedata

import regex

# a word of the clean stage's counts: letters and marks, with inner apostrophes (l'as, don't)
WORD_RE = regex.compile(r"[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*")


def nfc(s: str) -> str:
    """``s`` in Unicode normal form C (the form every raw text is read in)."""
    return unicodedata.normalize("NFC", s)


def fold(s: str, *, lower: bool = True, compat: bool = False) -> str:
    """``s`` without accents: decomposed (NFD, or NFKD with ``compat``: ligatures and presentation forms
    become their letters, ``ﬁ`` -> ``fi``) and its combining marks dropped; lower-cased first with
    ``lower`` (``"DE L'ÉCARTÉ."`` -> ``"de l'ecarte."``)."""
    if lower:
        s = s.lower()
    return "".join(ch for ch in unicodedata.normalize("NFKD" if compat else "NFD", s) if not unicodedata.combining(ch))


def tokens_lower(text: str) -> list[str]:
    """The words of ``text`` (:data:`WORD_RE`), lower case, ``’`` read as ``'``."""
    # (’ and ' delimit the same tokens: replacing first gives the same words, lower-cased in C)
    return list(map(str.lower, WORD_RE.findall(text.replace("’", "'"))))


def common_affixes(a: str, b: str) -> tuple[int, int]:
    """(length of the common prefix, length of the common suffix after it) of ``a`` and ``b``: the two
    never overlap, so ``a[p : len(a) - q]`` and ``b[p : len(b) - q]`` are the parts that differ."""
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    q = 0
    while q < n - p and a[-1 - q] == b[-1 - q]:
        q += 1
    return p, q
