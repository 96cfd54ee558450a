"""The fast paths of the candidate search give what the plain ones give (a speed change changes no output)."""

from __future__ import annotations

from pipeline.clean import CleanConfig, general_resources


def _plain_variants(search, lw: str, cut: float) -> list[str]:
    """The known word's confusion variants as the word-pair pass first found them: every cheap confusion
    tried in list order, twice."""
    seen = {lw: 0.0}
    frontier = [(lw, 0.0)]
    for _round in range(2):
        nxt = []
        for v, c0 in frontier:
            for p, q, c in search.cheap_confusions:
                if c0 + c > cut:
                    continue
                i = v.find(p)
                while i != -1:
                    u = v[:i] + q + v[i + len(p) :]
                    if seen.get(u, 99.0) > c0 + c:
                        seen[u] = c0 + c
                        nxt.append((u, c0 + c))
                    i = v.find(p, i + 1)
        frontier = nxt
    return [w for w in seen if w != lw]


def _plain_context(rep, lw, cut, vocab):
    """What context_candidates must give for a known word: its plain variants in ``vocab`` within ``cut``."""
    return [
        (w, c, rep.zipf_of(w) - rep.cfg.channel_scale * c)
        for w in _plain_variants(rep.search, lw, cut)
        if w in vocab
        for c in [rep.channel.cost(lw, w, cut)]
        if c <= cut
    ]


def test_known_word_variants_and_costs_equal_the_plain_search():
    rep = general_resources("en").repairer(CleanConfig())
    s = rep.search
    cut = rep.cfg.bigram_real_word_max_cost
    vocab = set(rep.zipf)
    words = ["minimum", "illicit", "rnodern", "tlie", "lililii", "the", "he", "modern", "cannot", "mini"]
    # (the second round's cheap confusions: a quote, a long s, digits for letters, an accent, in the word or
    # put in by the first round)
    words += ["wi1l", "0ne", "l'été", "ſome", "cl0se", "tbe1r", "ii1", "o'er", "e'en", "ſ1ll", "vvill", "loll"]
    words += [w for w in list(rep.zipf)[:3000:7] if w.isalpha()]
    for lw in words:
        assert s.context_candidates(lw, True, vocab) == _plain_context(rep, lw, cut, vocab), lw
    assert ("modern", 0.35) in [(w, c) for w, c, _ in s.context_candidates("rnodern", True, vocab)]


def test_known_word_candidates_kept_per_vocabulary_equal_those_found_afresh():
    # (the answer for the last vocabulary asked is kept with the variants; asking with another
    # table, then the first again, gives each table's own answer)
    rep = general_resources("en").repairer(CleanConfig())
    s = rep.search
    cut = rep.cfg.bigram_real_word_max_cost
    full = set(rep.zipf)
    small = {w for w in full if len(w) <= 3}
    words = ["tlie", "rnodern", "wi1l", "bo", "tbe", "he", "cannot", "vvill", "ii1"]
    for vocab in (full, small, full, small):
        for lw in words:
            want = _plain_context(rep, lw, cut, vocab)
            got = s.context_candidates(lw, True, vocab)
            assert got == want, (lw, len(vocab))
            got.clear()  # (a caller's list is its own)
            assert s.context_candidates(lw, True, vocab) == want
