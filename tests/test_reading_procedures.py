"""The reading on the laws of a whole code that rule on no irregularity of the deal: the packs and the cut for the
deal read as procedures (so that they are not linked to a dealing law of another code), the king named in a penalty
(not a law on scoring the king), a condition inside a mention that denies it, the synonym rows and the French <->
English words of the proposal and the play.  Composed sentences in the wording such codes use, none of them a law
of the seeds."""

from __future__ import annotations

import dataclasses

import pytest

from measure.evaluate_align import ROOT, make_law
from pipeline.align import AlignModel, align, load_resources
from pipeline.align.provisions import load_extraction, read_provision
from pipeline.model import Witness

CORPUS = ROOT / "corpus"
EN = Witness(id="en-970", file="raw/x.txt", game="ecarte", lang="en", kind="transcription", title="t")
FR = Witness(id="fr-970", file="raw/x.txt", game="ecarte", lang="fr", kind="transcription", title="t")


def law(w: Witness, n: int, text: str):
    return make_law(w.game, w, n, n, text)


@pytest.fixture(scope="module")
def ex():
    return load_extraction(CORPUS)


@pytest.fixture(scope="module")
def bare(ex):
    return dataclasses.replace(ex, thesaurus={})


@pytest.mark.parametrize(
    "w, text",
    [
        (EN, "Whoever plays with six cards loses one point, and cannot score the king if he holds it."),
        (EN, "He forfeits a point, and the right of marking the king, whether turned up or in hand."),
        (FR, "Celui qui joue avec six cartes perd un point, et le droit de marquer le roi."),
        (FR, "Il perd un point, et ne pourra compter le roi s'il l'a en main."),
    ],
)
def test_the_king_named_in_a_penalty_is_not_a_law_on_scoring_the_king(ex, w, text):
    """ "cannot score the king", "perd le droit de marquer le roi": the penalty of another irregularity (the rule
    table's king_not_scored), which must not make the law a counterpart of a law on announcing the king."""
    assert "king_scored" not in read_provision(law(w, 1, text), ex).event_ids


@pytest.mark.parametrize(
    "w, text",
    [
        (EN, "The king counts one; if held in hand it must be announced before the player leads, or it is not marked."),
        (EN, "If the king be turned up, the dealer marks one for it."),
        (FR, "Celui qui a le roi doit l'annoncer avant de jouer sa première carte."),
        (FR, "Le roi retourné se marque par celui qui donne."),
    ],
)
def test_a_law_on_the_king_is_still_read_so(ex, w, text):
    assert "king_scored" in read_provision(law(w, 1, text), ex).event_ids


@pytest.mark.parametrize(
    "w, text, procedure",
    [
        (EN, "The game is played with two packs, distinguished by the colour of their backs.", "fresh_cards"),
        (EN, "The dealer may choose the colour he pleases, and must keep to it during the game.", "fresh_cards"),
        (EN, "The deal is determined by cutting; the highest card deals.", "drawing_for_deal"),
        (EN, "The players cut, and he who cuts the lowest card deals.", "drawing_for_deal"),
        (FR, "On joue avec deux jeux dont les dos sont de couleurs différentes.", "fresh_cards"),
    ],
)
def test_the_packs_and_the_cut_for_the_deal_are_read_as_procedures(ex, w, text, procedure):
    assert procedure in read_provision(law(w, 1, text), ex).event_ids


def test_a_law_on_the_packs_is_not_linked_to_a_dealing_law_of_another_code():
    """A procedure and an irregularity are different events: the law on the packs stays without counterpart even
    where the French law speaks of "jeu" and "talon" (the pack, the stock)."""
    packs = law(EN, 1, "Ecarte ought to be played with two packs, distinguished by backs of different colours.")
    colour = law(EN, 2, "The dealer may select the colour he pleases, and must play with it during the game.")
    short = law(
        FR,
        1,
        "Si le premier à jouer a une carte de moins, il peut prendre la première du talon, ou recommencer le coup.",
    )
    other = law(
        FR,
        2,
        "Lorsqu'un joueur donne à la place de l'autre, on prend l'autre jeu pour jouer le coup.",
    )
    links = align([packs, colour, short, other], load_resources(CORPUS))
    assert not links, links


@pytest.mark.parametrize(
    "w, text, when",
    [
        (
            EN,
            "If the mode of dealing is departed from, the adversary before looking at his cards may claim a new deal.",
            "before_seen",
        ),
        (
            EN,
            "If the dealer has too few cards, the adversary, as the dealer has seen them, may draw from his hand.",
            "after_seen",
        ),
        (FR, "Si l'on s'en aperçoit avant que les cartes données aient été vues, on répare l'erreur.", "before_seen"),
        (FR, "Si l'erreur est reconnue avant que celui qui donne ait vu ses cartes, on la répare.", "before_seen"),
    ],
)
def test_when_the_cards_were_seen_is_read_once_and_right(ex, w, text, when):
    """ "before looking at his cards" is found before the cards are seen, not also after (the lemma of "looking"
    is that of "looked at"): a condition inside a mention that denies it is dropped, as an event is."""
    assert read_provision(law(w, 1, text), ex).facts().get("discovered") == {when}


@pytest.mark.parametrize(
    "w, text, event",
    [
        (EN, "If the deck be found imperfect, the deal in which it is found is void.", "incorrect_pack"),
        (EN, "If the dealer declines to give cards, he may not afterwards discard.", "proposal"),
        (EN, "If the dealer accedes, and gives cards, he may discard in his turn.", "proposal"),
        (FR, "Celui qui regarde la pioche perd un point.", "looks_at_stock"),
    ],
)
def test_a_synonym_row_reads_the_word_the_patterns_know(ex, bare, w, text, event):
    """deck (pack), declines (refuses), accedes (accepts), pioche (talon): read as the word the patterns are written
    with, and only through the thesaurus."""
    assert event in read_provision(law(w, 1, text), ex).event_ids
    assert event not in read_provision(law(w, 1, text), bare).event_ids


@pytest.mark.parametrize(
    "fr, en, concept",
    [
        ("Le premier à jouer peut proposer; celui qui donne peut refuser.", "The elder hand may propose.", "propos"),
        ("Celui qui donne peut refuser des cartes.", "The dealer may refuse the proposal.", "refus"),
        (
            "Celui qui abandonne la partie perd deux points.",
            "A player who abandons the game loses two points.",
            "abandon",
        ),
        ("La galerie ne peut rien dire.", "Bystanders may not speak.", "bystander"),
    ],
)
def test_the_words_of_the_proposal_and_the_table_bridge_french_and_english(fr, en, concept):
    """The glossary's rows for the play beyond the deal: a French law and an English one share the concept (the
    concepts are English stems)."""
    a, b = law(FR, 1, fr), law(EN, 2, en)
    model = AlignModel([a, b], load_resources(CORPUS))
    shared = set(model.analyses[a.id].concepts) & set(model.analyses[b.id].concepts)
    assert any(concept in c for c in shared), (shared, model.analyses[a.id].concepts)
