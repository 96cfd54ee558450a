"""French real-word slips by agreement (corpus/lexicon/realword.tsv rows chosen on ICDAR 2017 FR dev folds)."""

import pytest

from pipeline.clean import clean_text


@pytest.mark.parametrize(
    "printed,read",
    [
        ("La majorité do la population a voté.", "La majorité de la population a voté."),
        ("Il a vu les témoins ou tes victimes de la guerre.", "Il a vu les témoins ou les victimes de la guerre."),
        ("La Chambre abordera oe matin la discussion.", "La Chambre abordera ce matin la discussion."),
        ("Ils ne parvinrent a réunir que dix voix.", "Ils ne parvinrent à réunir que dix voix."),
    ],
)
def test_a_slip_that_cannot_stand_there_is_read_as_the_word_of_the_construction(printed, read):
    assert clean_text(printed, "fr") == read


@pytest.mark.parametrize(
    "s",
    [
        "Tu as pris tes cartes et tu joues.",  # a second person before "tes": the possessive stands
        "Le joueur jette un dé sur la table.",  # "un dé": the die
        "Il a dit à ses amis de venir.",  # "a dit": a participle, no infinitive
    ],
)
def test_the_same_words_where_they_can_stand_are_kept(s):
    assert clean_text(s, "fr") == s
