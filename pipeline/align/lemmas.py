"""The lemmas both sides of the alignment use: the aligner's concepts and the reading of provisions match words by
the same English stems and French keys, so a word read one way by one is read the same way by the other."""

from __future__ import annotations

import re
from typing import Mapping

WORD_RE = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_VOWELS = set("aeiouy")


def en_stem(word: str, forms: Mapping[str, str]) -> str:
    """Light English lemmatisation: irregular-form lookup, then -ies/-es/-s/-ed/-ing and final -e stripped.

    Applied alike to glossary terms and law texts, so only consistency matters ("faced", "face",
    "facing" all give "fac")."""
    w = word.lower().replace("’", "'")
    if w in forms:
        w = forms[w]
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 4 and w.endswith("ed"):
        w = w[:-2]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "ls" and w[-1] not in _VOWELS:
        w = w[:-1]  # "stopped" -> "stopp" -> "stop"
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def en_concept(term: str, forms: Mapping[str, str]) -> str:
    """The concept id of an English term: ``en:`` and the stems of its words, without the words the
    lemmatiser drops (articles: "the deal is void" and "deal is void" are one concept)."""
    stems = [en_stem(w, forms) for w in WORD_RE.findall(term)]
    return "en:" + " ".join(x for x in stems if x)


def fr_keys(lower: str, lemma: str) -> frozenset[str]:
    keys = {lower, lemma.lower()}
    if len(lower) > 3 and lower[-1] in "sx":
        keys.add(lower[:-1])
    return frozenset(k for k in keys if k)


def fr_er_infinitives(word: str) -> set[str]:
    """Infinitives of a present-tense form of a French -er verb ("retourne", "retournent" -> "retourner")."""
    for end in ("ent", "es", "e"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return {word[: -len(end)] + "er"}
    return set()
