"""Line-break fragments judged as the joined word (pipeline/clean/fragments.py)."""

from dataclasses import replace

import pytest

from pipeline.clean import CleanConfig, clean_text, explain_text, general_resources
from pipeline.clean.fragments import FragmentConfig, is_fragment_pair, split_like

KEEP = replace(CleanConfig(), join_hyphens=False)  # (a text whose line-break hyphens are kept, as ICDAR's gold)


@pytest.mark.parametrize(
    "joined,repaired,first,expected",
    [
        ("gouvcrnement", "gouvernement", 6, 6),  # an edit inside the first fragment
        ("proouclion", "production", 6, 6),  # edits on both sides, lengths kept
        ("défenfdre", "défendre", 5, 5),  # a letter deleted at the break
        ("Mouins", "Moulins", 3, 3),  # a letter inserted at the break: the printed first fragment's length
        ("ahsurdes", "absurdes", 2, 2),
    ],
)
def test_split_like_keeps_the_printed_break(joined, repaired, first, expected):
    assert split_like(joined, repaired, first) == expected


def test_split_like_refuses_a_split_that_leaves_a_side_empty():
    assert split_like("abx", "a", 2) is None


def test_a_damaged_fragment_is_repaired_with_its_hyphen_and_break_in_place():
    for sep in ("- ", "-", "-\n"):
        cl, _ = explain_text(f"Le gouvcr{sep}nement a décidé de ne rien faire.", "fr", config=KEEP)
        assert cl.text == f"Le gouver{sep}nement a décidé de ne rien faire."
        (c,) = cl.corrections
        assert c.method == "fragments:joined" and "judged joined as 'gouvcrnement'" in c.evidence


def test_a_fragment_is_not_judged_alone():
    # 'fondément' alone is a non-word the word pass read as 'fondement'; joined, 'profondément' is a word
    s = "La France est pro-fondément modifiée depuis la guerre, et trois ouvriers suf-fisent."
    assert clean_text(s, "fr", config=KEEP) == s


def test_compounds_are_no_fragments():
    rep = general_resources("fr").repairer(KEEP)
    cfg = FragmentConfig()
    assert not is_fragment_pair("demandai", "je", rep, cfg)  # a pronoun after the verb (hyphen_compounds.tsv)
    assert not is_fragment_pair("celle", "ci", rep, cfg)
    assert not is_fragment_pair("sans", "filistes", rep, cfg)  # a compound's head
    assert not is_fragment_pair("peut", "être", rep, cfg)  # a known compound
    assert is_fragment_pair("gouvcr", "nement", rep, cfg)
    s = "Que faire, demandai-je encore, et celle-ci répondit."
    assert clean_text(s, "fr", config=KEEP) == s


def test_a_fragment_repair_that_is_not_sure_is_flagged_not_changed():
    cl, _ = explain_text("Une question politi-jue très grave.", "fr", config=KEEP)
    assert cl.text == "Une question politi-jue très grave."
    assert [f.text for f in cl.flags] == ["politi-jue"] and "judged joined" in cl.flags[0].reason


def test_english_is_left_to_the_word_pass():
    # (the pass runs only in FragmentConfig.langs: English held out gained nothing from it, docs/decisions.md)
    s = "The gouvcr- nement said so."
    assert clean_text(s, "en", config=KEEP) == clean_text(
        s, "en", config=replace(KEEP, fragments=FragmentConfig(langs=()))
    )
