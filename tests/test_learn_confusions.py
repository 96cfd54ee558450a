"""The channel learnt from (OCR, gold) pairs: measure.learn_confusions and its loading by the clean stage."""

from __future__ import annotations

from pathlib import Path

from measure.learn_confusions import LearnConfig, blocks, learn, token_pairs, write_table
from pipeline.clean.lexicon import LEARNT_CONFUSIONS, load_lexicon_data, merge_confusions, read_learnt_confusions

ROOT = Path(__file__).resolve().parent.parent


def test_blocks_keep_multi_character_confusions_whole():
    assert blocks("tbe", "the") == [("b", "h")]
    assert blocks("rnay", "may") == [("rn", "m")]
    assert blocks("liim", "him") == [("li", "h")] or blocks("liim", "him") == [("lii", "hi")]
    # a letter the OCR lost takes its printed neighbour: the channel needs a printed side
    assert blocks("te", "tie") == [("t", "ti")]
    # letters added or lost at the end are another form of the word, not an OCR confusion
    assert blocks("names", "name") == []
    assert blocks("name", "names") == []


def test_token_pairs_are_one_to_one_near_misses():
    pairs, seen = token_pairs("Tbe kinq is played by tbe dealer", "The king is played by the dealer")
    assert ("tbe", "the") in pairs and ("kinq", "king") in pairs
    assert "dealer" in seen and len(seen) == 7
    # a far misreading is not a confusion of the word
    pairs, _ = token_pairs("xyzzy", "dealer")
    assert pairs == []


def test_one_block_pairs_give_short_words_their_glyph_confusions():
    """``tire`` / ``the`` is two edits in a word of three letters, beyond the near-miss cap, but ONE misread
    glyph group (ir -> h): with ``one_block`` it is counted; a pair differing in two places is not."""
    ocr, gold = "tire cat ami tire dog", "the cat and the dog"
    assert token_pairs(ocr, gold)[0] == []
    assert token_pairs(ocr, gold, 2)[0] == [("tire", "the"), ("ami", "and"), ("tire", "the")]
    assert token_pairs("xaby", "yabx", 2)[0] == []  # (two blocks: no glyph group)
    rows = {(r.printed, r.intended): r.count for r in learn([(ocr, gold)], LearnConfig(min_count=2, one_block=True))}
    assert rows == {("ir", "h"): 2}
    assert learn([(ocr, gold)], LearnConfig(min_count=2)) == []


def test_learn_counts_and_costs():
    docs = [("tbe cat sat on tbe mat and tbe dog", "the cat sat on the mat and the dog")] * 2
    docs.append(("c0me hcre", "come here"))
    rows = learn(docs, LearnConfig(min_count=2))
    got = {(r.printed, r.intended): r for r in rows}
    assert ("b", "h") in got and got["b", "h"].count == 6
    assert 0.0 < got["b", "h"].cost < 1.0
    # seen once: below min_count
    assert ("c", "e") not in got
    # a confusion seen more often (per occurrence of what was meant) costs less
    more = learn(docs * 3 + [("the", "the")], LearnConfig(min_count=2))
    assert {(r.printed, r.intended): r.cost for r in more}["b", "h"] <= got["b", "h"].cost
    assert len(learn(docs, LearnConfig(min_count=2, top_n=0))) == 0


def test_merge_keeps_hand_rows_and_adds_learnt_ones():
    hand = [("rn", "m", 0.35), ("c", "e", 0.4)]
    learnt = [("c", "e", 0.6), ("u", "a", 0.5)]
    assert merge_confusions(hand, learnt) == [("rn", "m", 0.35), ("c", "e", 0.4), ("u", "a", 0.5)]
    assert merge_confusions(hand, learnt, "learnt")[1] == ("c", "e", 0.6)


def test_learnt_table_is_read_for_its_language(tmp_path):
    (tmp_path / "confusions.tsv").write_text("rn\tm\t0.35\n", encoding="utf-8")
    rows = learn([("tbe tbe tbe", "the the the")], LearnConfig(min_count=2))
    write_table(tmp_path / LEARNT_CONFUSIONS, {"en": rows}, {"en": LearnConfig(min_count=2)}, "test")
    assert read_learnt_confusions(tmp_path, "fr") == []
    en = load_lexicon_data(tmp_path, "en", domain=False).confusions
    assert en[0] == ("rn", "m", 0.35) and ("b", "h") in {(p, q) for p, q, _ in en}
    assert {(p, q) for p, q, _ in load_lexicon_data(tmp_path, "fr", domain=False).confusions} == {("rn", "m")}


def test_shipped_table_says_how_it_was_made():
    text = (ROOT / "corpus" / "lexicon" / LEARNT_CONFUSIONS).read_text(encoding="utf-8")
    head = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert any("Command: python -m measure.learn_confusions" in ln for ln in head)
    assert any("ICDAR2017_eng_periodical_dev.tsv" in ln for ln in head)
    rows = [ln.split("\t") for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert rows and all(len(r) == 6 and r[0] in ("en", "fr") and 0 < float(r[3]) <= 1.0 for r in rows)


def test_learnt_rows_reach_the_channel_and_spare_period_spellings():
    """The shipped English rows are in the general resources' channel, and cheap confusions learnt from
    modern press (e/o, c/e ...) still never modernise a historical spelling."""
    from dataclasses import replace

    from pipeline.clean import CleanConfig, clean, general_resources
    from pipeline.model import Witness, WitnessText

    res = general_resources("en")
    learnt = {(p, q) for p, q, _ in read_learnt_confusions(ROOT / "corpus" / "lexicon", "en")}
    assert learnt and learnt <= {(p, q) for p, q, _ in res.lexdata.confusions}
    w = Witness(id="t", file="-", game="whist", lang="en", kind="ocr", title="t")
    raw = "He did shew the connexion of the cards to-day, and the dealer shewed his honours."
    out = clean(WitnessText(w, raw), res, replace(CleanConfig(), join_hyphens=False)).text
    assert out == raw


def test_a_witness_keeps_the_hand_rows():
    """The learnt rows (modern press) serve general text only: with them the word pairs read en-004's
    "he cannot alter his intention" as "after" (l/f learnt at 0.5)."""
    from pipeline.clean import DEFAULT_CORPUS, load_resources
    from pipeline.clean.lexicon import read_confusions

    hand = read_confusions(ROOT / "corpus" / "lexicon" / "confusions.tsv")
    assert list(load_resources(DEFAULT_CORPUS, "en").lexdata.confusions) == hand


def test_a_one_language_run_keeps_the_other_languages_figures(tmp_path):
    """``python -m measure.evaluate_lm --lang fr`` rewrites lm.json: the English set measured before stays."""
    import json

    from measure.evaluate_lm import with_earlier_sets

    path = tmp_path / "lm.json"
    old = {"k": 5, "doc_lines": 20, "sets": [{"set": "icdar2017-en-dev", "x": 1}, {"set": "icdar2017-fr-dev", "x": 1}]}
    path.write_text(json.dumps(old), encoding="utf-8")
    new = {"k": 5, "doc_lines": 20, "channel": "choose", "sets": [{"set": "icdar2017-fr-dev", "x": 2}]}
    got = with_earlier_sets(path, new)
    assert got["sets"] == [{"set": "icdar2017-fr-dev", "x": 2}, {"set": "icdar2017-en-dev", "x": 1}]
    # other folds or documents: the old figures are not comparable and are dropped
    assert with_earlier_sets(path, {**new, "k": 4})["sets"] == new["sets"]
    assert with_earlier_sets(tmp_path / "missing.json", new) == new
