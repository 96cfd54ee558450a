"""The compiled deletion index finds exactly the candidates the plain SymSpell search over strings finds."""

from __future__ import annotations

import random

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from pipeline.clean.channel import deletes, fold_accents
from pipeline.clean.deletion_index import build_deletion_index, folded_words

LETTERS = "aeiounrstlcdmpéèàçœ"


def plain_index(words: list[str]) -> dict[str, set[str]]:
    """Every string made by deleting one letter of a word, or two of a word of more than 3 letters (a word of
    one letter has the empty string)."""
    idx: dict[str, set[str]] = {}
    for w in words:
        ds = {w} | {w[:i] + w[i + 1 :] for i in range(len(w))}
        if len(w) > 3:
            ds |= {w[:i] + w[i + 1 : j] + w[j + 1 :] for i in range(len(w)) for j in range(i + 1, len(w))}
        for d in ds:
            idx.setdefault(d, set()).add(w)
    return idx


def noisy(w: str, rng: random.Random) -> str:
    cs = list(w)
    for _ in range(rng.randint(0, 3)):
        i = rng.randrange(len(cs) + 1)
        op = rng.random()
        if op < 0.4 and cs:
            cs[min(i, len(cs) - 1)] = rng.choice(LETTERS)
        elif op < 0.7:
            cs.insert(i, rng.choice(LETTERS))
        elif cs:
            del cs[min(i, len(cs) - 1)]
    return "".join(cs)


def test_lookup_returns_the_words_a_plain_symspell_search_returns_each_once():
    rng = random.Random(7)
    words = sorted({"".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 12))) for _ in range(3000)})
    words += ["a", "à", "y", "aab", "baa", "état", "œuvre"]
    index = build_deletion_index(words)
    plain = plain_index(words)
    tokens = [noisy(w, rng) for w in rng.sample(words, 1500)] + ["", "x", "ab", "aab", "zzzzzzzzzz", "etat", "oeuvre"]
    for tok in tokens:
        found = index.lookup(tok)
        assert len(found) == len(set(found)), tok
        expected = set().union(*filter(None, map(plain.get, deletes(tok, 2))))
        assert set(found) == expected, tok


def test_an_empty_word_list_finds_nothing():
    assert build_deletion_index([]).lookup("word") == []


def test_the_compiled_check_keeps_the_words_and_distances_rapidfuzz_keeps():
    rng = random.Random(11)
    words = sorted({"".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 12))) for _ in range(3000)})
    words += ["a", "à", "y", "aab", "baa", "état", "œuvre", "straße"]
    index = build_deletion_index(words)
    folded = folded_words(index.words, fold_accents)
    tokens = [noisy(w, rng) for w in rng.sample(words, 1500)] + ["", "x", "ab", "aab", "etat", "oeuvre", "strasse"]
    for tok in tokens:
        for maxd in (0, 1, 2, 3):
            found = index.lookup(tok)
            hits = process.extract(
                fold_accents(tok),
                [fold_accents(w) for w in found],
                scorer=Levenshtein.distance,
                score_cutoff=maxd,
                limit=None,
            )
            expected = sorted((found[i], k) for _, k, i in hits)
            got = index.lookup_within(tok, folded, fold_accents(tok), maxd)
            assert [i for i, _ in got] == sorted(i for i, _ in got), tok
            assert sorted((index.words[i], k) for i, k in got) == expected, (tok, maxd)
