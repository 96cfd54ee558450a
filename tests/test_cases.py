"""A law read by case: each clause that states a remedy of its own gives its own row of the rule table, with the
facts that tell the cases apart (pipeline/cases.py); a law whose clauses are not told apart by a fact of the
vocabulary is read whole."""

from __future__ import annotations

import dataclasses

import pytest

from pipeline.cases import pieces
from test_reading import EC_EN, EC_FR, table_reading


def rows(w, text):
    return {(facts, ruling.outcome) for facts, ruling in table_reading(w, text).rulings()}


@pytest.mark.parametrize(
    "text, want",
    [
        (
            "Should the dealer show a card of his own hand while dealing, the deal proceeds; should he show a card"
            " of the non-dealer's, the latter may demand a fresh deal.",
            {((("owner", ("dealer",)),), "deal_stands"), ((("owner", ("non_dealer",)),), "new_deal")},
        ),
        (
            "A card led out of turn is taken back if the adversary has not yet played to it; but if he has already"
            " played to it, the card remains.",
            {((("played_to", ("no",)),), "take_back_card"), ((("played_to", ("yes",)),), "card_stands")},
        ),
        (
            "A card dropped on the table counts as played if it partly lies upon the card of the opponent;"
            " otherwise it is returned to the hand.",
            {
                ((("touches_adversary_card", ("yes",)),), "card_stands"),
                ((("touches_adversary_card", ("no",)),), "take_back_card"),
            },
        ),
    ],
)
def test_each_case_of_a_law_gets_its_own_remedy(text, want):
    assert rows(EC_EN, text) == want


def test_an_elliptic_case_gets_the_values_the_other_case_leaves():
    text = (
        "If a player receives six cards and it is noticed before he has taken up his hand, the dealer rectifies"
        " the error; if after, the non-dealer may have a new deal."
    )
    got = dict((o, dict(f)) for f, o in rows(EC_EN, text))
    assert got["rectify"]["discovered"] == ("before_seen",)
    # (and the six cards of the first case: the scene it sets)
    assert got["new_deal"] == {"discovered": ("after_seen",), "error": ("too_many",)}


def test_a_condition_after_unless_states_the_case_the_remedy_does_not_cover():
    got = rows(EC_EN, "The card led before its turn goes back into the hand, unless the other player has covered it.")
    assert got == {((("played_to", ("no",)),), "take_back_card")}


def test_french_cases_are_told_apart_too():
    text = (
        "Si celui qui donne retourne une carte de son jeu, le coup est bon; si c'est une carte du jeu de son"
        " adversaire, celui-ci peut recommencer."
    )
    outcomes = {(dict(f).get("owner"), o) for f, o in rows(EC_FR, text)}
    assert outcomes == {(("dealer",), "deal_stands"), (("non_dealer",), "new_deal")}


def test_clauses_not_told_apart_by_a_fact_leave_the_law_whole():
    # the two clauses differ on whether a trick was won, which no fact of hand_abandoned says: one reading
    text = (
        "A player who lays down his cards loses two points if he has won no trick, and if he has won one, he loses one."
    )
    got = table_reading(EC_EN, text)
    assert got.cases == () and got.ruling is not None


def test_a_law_is_cut_at_clause_breaks_but_not_inside_a_sentence_after_a_lower_case_word():
    assert pieces("A card may be taken up. if not played to: but if covered, it remains.") == [
        "A card may be taken up. if not played to",
        "but if covered, it remains.",
    ]
    assert pieces("The deal stands. If the dealer errs again, he loses it.") == [
        "The deal stands",
        "If the dealer errs again, he loses it.",
    ]


@pytest.mark.parametrize(
    "text, event, outcome, options, penalties",
    [
        (
            "Should the elder hand discard a number of cards other than the number he called for, he loses one point"
            " and may not mark the king.",
            "discard_error",
            None,
            (),
            ("lose_point", "king_not_scored"),
        ),
        (
            "If two cards be exposed in turning the trump, the non-dealer may choose either of them for trumps,"
            " or may have the cards dealt again.",
            "several_cards_turned_for_trump",
            None,
            ("rectify", "new_deal"),
            (),
        ),
        (
            "Whoever looks over his adversary's hand must play the remainder with his own hand exposed.",
            "looks_at_adversary_cards",
            "play_hand_exposed",
            (),
            (),
        ),
    ],
)
def test_club_code_wordings_of_the_remedy(text, event, outcome, options, penalties):
    r = table_reading(EC_EN, text)
    assert (r.event, r.ruling.outcome, r.ruling.options, r.ruling.penalties) == (event, outcome, options, penalties)


@pytest.mark.parametrize(
    "text, event, outcome, facts",
    [
        (
            "He who cuts for the deal without showing the bottom card of his packet forfeits the choice of dealing.",
            "cut_not_shown",
            "lose_deal",
            (),
        ),
        (
            "When neither player has looked at his cards, a short hand is made up from the stock.",
            "wrong_card_count",
            "complete_from_stock",
            (("error", ("too_few",)), ("discovered", ("before_seen",))),
        ),
        (
            "A player who looks at the discarded cards shall play with his cards on the table.",
            "looks_at_adversary_cards",
            "play_hand_exposed",
            (),
        ),
        (
            "Should he lead at his opponent's turn, he may take the card up again unless it has been played to.",
            "card_led_out_of_turn",
            "take_back_card",
            (("played_to", ("no",)),),
        ),
        (
            "A card dropped so that it touches the opponent's card is a played card.",
            "card_dropped",
            "card_stands",
            (("touches_adversary_card", ("yes",)),),
        ),
        (
            "If the dealer shows a card belonging to the non-dealer's hand, the non-dealer may demand a new deal.",
            "dealer_exposes_card",
            "new_deal",
            (("owner", ("non_dealer",)),),
        ),
    ],
)
def test_plain_wordings_of_the_cases_of_en_003(text, event, outcome, facts):
    r = table_reading(EC_EN, text)
    assert (r.event, r.ruling and r.ruling.outcome, r.facts) == (event, outcome, facts)


def test_a_probe_sentence_read_clause_blind_is_scored_wrong():
    from measure.evaluate_probes import read_probes, right
    from pipeline.rules import load_rule_resources
    from test_reading import CORPUS

    text = "If the dealer expose his own card, the deal stands; if one of his adversary's, there is a fresh deal."
    r = table_reading(EC_EN, text)
    assert right(r, "dealer_exposes_card", "new_deal", "owner=non_dealer")
    blind = type(r)(r.law_id, r.event, (("owner", ("dealer", "non_dealer")),), r.cases[0][1])
    assert not right(blind, "dealer_exposes_card", "new_deal", "owner=non_dealer")
    assert not right(r, "card_dropped", "new_deal", "")
    events = {e.name for e in load_rule_resources(CORPUS).vocabulary.events_of("ecarte")}
    assert {p["event"] for p in read_probes()} <= events


def test_a_denied_remedy_is_not_read_as_the_remedy():
    # "is not considered played" is the card taken back, not the card standing
    r = table_reading(
        EC_EN, "A card dropped on the table that touches no card of the opponent is not considered played."
    )
    assert r.event == "card_dropped" and "card_stands" not in {ru.outcome for _, ru in r.rulings()}
    # a penalty's own words may be a denial: "cannot mark the king" is the king not scored
    r = table_reading(EC_EN, "A player found with six cards loses one point and cannot mark the king that hand.")
    assert r.ruling.penalties == ("lose_point", "king_not_scored")


def test_an_outcome_another_states_in_substance_is_not_an_option_of_its_own():
    # the suit named played is the card taken back and led again: one remedy, not a choice between two
    r = table_reading(
        EC_EN, "Whoever leads without naming his suit must, if required, take back the card and lead the suit he named."
    )
    assert (r.event, r.ruling.outcome, r.ruling.options) == ("leads_without_naming_suit", "play_named_suit", ())


def test_an_exception_leaves_the_other_case_the_other_values_and_a_later_case_keeps_the_scene():
    text = (
        "A card found faced in the pack while the first five cards are given voids the deal; excepting only the"
        " case where that card is the eleventh, when the deal is good."
    )
    got = {o: dict(f) for f, o in rows(EC_EN, text)}
    assert got["new_deal"]["card"] == ("other",) and got["deal_stands"]["card"] == ("trump",)
    assert got["deal_stands"]["phase"] == ("first_deal",)
    text = (
        "When the cards are given from the stock for the discard and a faced card falls to the dealer, he keeps it"
        " and the deal stands; but if it falls to the elder hand, he may have a new deal."
    )
    got = {o: dict(f) for f, o in rows(EC_EN, text)}
    assert got["new_deal"] == {"phase": ("discard",), "goes_to": ("non_dealer",)}


def test_a_clause_is_read_with_its_laws_lead_in():
    from pipeline.align.provisions import lead_ins, read_provisions
    from measure.evaluate_align import make_law

    parent = make_law(
        "ecarte",
        EC_EN,
        15,
        0,
        "Should the dealer show a card while dealing: (a) If it is his own, the"
        " deal goes on; (b) If it is the pone's, the pone may have a new deal.",
    )
    a = dataclasses.replace(
        parent, id=parent.id + ".a", parent=parent.id, order=1, text="If it is his own, the deal goes on;"
    )
    b = dataclasses.replace(
        parent,
        id=parent.id + ".b",
        parent=parent.id,
        order=2,
        text="If it is the pone's, the pone may have a new deal.",
    )
    leads = lead_ins([parent, a, b])
    assert leads[a.id] == "Should the dealer show a card while dealing:"
    read = read_provisions([a, b], leads=leads)
    assert {e for e, _, _ in read[a.id].events} == {"dealer_exposes_card"} == {e for e, _, _ in read[b.id].events}
    assert ("owner", "non_dealer") in {(f, v) for f, v, _ in read[b.id].conditions}
    assert not read_provisions([a])[a.id].events  # (without its lead-in the clause names no irregularity)


def test_a_clause_with_an_irregularity_and_no_remedy_takes_its_laws_lead_in_remedy():
    from pipeline.align.provisions import lead_ins, read_provisions
    from measure.evaluate_align import make_law

    parent = make_law(
        "ecarte", EC_EN, 9, 0, "The deal is lost if the dealer: (a) alters the order of his packets during a game;"
    )
    a = dataclasses.replace(
        parent, id=parent.id + ".a", parent=parent.id, order=1, text="alters the order of his packets during a game;"
    )
    read = read_provisions([a], leads=lead_ins([parent, a]))[a.id]
    assert {e for e, _, _ in read.events} == {"dealt_irregularly"} and "lose_deal" in {t for t, _ in read.outcomes}


@pytest.mark.parametrize(
    "text, penalty",
    [
        ("A player who lays his cards on the table before the hand is over is held to have lost it.", "hand_lost"),
        (
            "Whoever gets up from the table and rises before the game ends, without leave, forfeits that game.",
            "game_lost",
        ),
    ],
)
def test_an_abandoned_hand_or_game_is_counted_lost(text, penalty):
    r = table_reading(EC_EN, text)
    assert r.event == "hand_abandoned" and penalty in r.ruling.penalties, r
