"""Rulings read from unreviewed laws: extracted rows with a measured confidence, curated rows first in the canonical
policy, the referee saying when a ruling rests on a reading, and every uncited law listed with its reason."""

from __future__ import annotations

import json
from dataclasses import replace

from pipeline.extract import extract_annotations, force_of, load_norms, measure
from pipeline.model import Law
from pipeline.referee import adjudicate
from pipeline.rules import (
    CURATED,
    EXTRACTED,
    Annotation,
    RuleTable,
    RulesetSpec,
    Ruling,
    build_rule_table,
    rules_outputs,
)
from rules_support import CORPUS, reference_laws, resources, table


def law(witness: str, n: int, text: str) -> Law:
    return Law(
        id=f"ecarte.{witness}.law-{n}",
        witness_id=witness,
        game="ecarte",
        lang="en",
        kind="law",
        number=n,
        printed=str(n),
        label=str(n),
        order=n,
        start=0,
        end=len(text),
        text=text,
    )


def code(witness: str, *texts: str, lang: str = "en") -> tuple[Law, ...]:
    """The laws of a code of ``witness``, numbered from 1 in the order given."""
    return tuple(replace(law(witness, n, text), lang=lang) for n, text in enumerate(texts, 1))


NEW_CODE = code(
    "en-900",
    "If a card be found faced in the pack during the deal, there must be a new deal.",
    "If either player deal out of turn, and the error be found before the trump is turned, a new deal may be called for.",
    "The game is five points.",
    "The players are gentlemen of the club.",
)


def test_an_unreviewed_code_gets_extracted_rows_with_a_measured_confidence_and_reasons():
    res = resources()
    extracted = extract_annotations(NEW_CODE, res, CORPUS, reference_laws())
    by_law = {a.law_id: a for a in extracted}
    assert all(a.status == EXTRACTED for a in extracted) and set(by_law) == {x.id for x in NEW_CODE}
    assert by_law["ecarte.en-900.law-1"].event == "faced_card_in_pack"
    assert by_law["ecarte.en-900.law-1"].ruling == Ruling("new_deal")
    quality = measure(reference_laws(), res, CORPUS)["ecarte"]
    assert by_law["ecarte.en-900.law-1"].confidence == quality.confidence and 0 < quality.confidence <= 1
    # a procedure stated plainly is a norm of force "stated"; a law that reads nothing is uncited, with its reason
    assert by_law["ecarte.en-900.law-3"].event == "game_points" and by_law["ecarte.en-900.law-3"].ruling == Ruling(
        "stated"
    )
    assert by_law["ecarte.en-900.law-4"].ruling is None and by_law["ecarte.en-900.law-4"].note == "no event read"
    t = build_rule_table(NEW_CODE, res.annotations + extracted, resources=res)
    rows = [r for r in t.rows if r.ruleset == "en-900"]
    assert rows and all(r.status == EXTRACTED for r in rows)
    assert all(r.confidence == quality.confidence for r in rows if r.event != "game_points")
    assert any("en-900: 3 of 4 laws cited" in c for c in t.report.coverage)
    assert any(u.startswith("en-900 ecarte.en-900.law-4: no event read") for u in t.report.uncited)


def test_the_referee_says_when_a_ruling_rests_on_extracted_rows():
    res = resources()
    t = build_rule_table(
        NEW_CODE, res.annotations + extract_annotations(NEW_CODE, res, CORPUS, reference_laws()), resources=res
    )
    d = adjudicate(t, "ecarte", "faced_card_in_pack", {"phase": "first_deal", "card": "other"}, "en-900")
    assert d.status == EXTRACTED and d.confidence is not None and "extracted" in d.text()
    assert d.to_dict()["status"] == "extracted" and "ecarte.en-900.law-1" in [c.law_id for c in d.citations]


def test_canonical_policy_takes_a_curated_ruling_before_an_extracted_one_of_a_higher_witness():
    res = resources()
    first, second = law("w-a", 1, "x"), law("w-b", 1, "y")
    common = dict(game="ecarte", event="several_cards_turned_for_trump")
    anns = (
        Annotation(
            first.id,
            first.text_hash,
            witness="w-a",
            ruling=Ruling("new_deal"),
            status=EXTRACTED,
            confidence=0.5,
            **common,
        ),
        Annotation(second.id, second.text_hash, witness="w-b", ruling=Ruling("rectify"), **common),
    )
    spec = RulesetSpec("canonical", (("ecarte", ("w-a", "w-b")),))
    t = build_rule_table((first, second), anns, resources=replace(res, rulesets=(spec,)))
    canon = next(r for r in t.rows if r.ruleset == "canonical")
    assert canon.ruling == Ruling("rectify") and canon.status == CURATED and canon.dissent == (first.id,)
    d = adjudicate(t, "ecarte", "several_cards_turned_for_trump")
    assert d.dissent == (first.id,) and "otherwise" in d.text()


def test_of_a_codes_readings_of_one_case_the_one_stating_its_facts_comes_first():
    """Two unreviewed laws of one code on the revoke: one names no time of the claim (the penalty), one the claim
    after the cut (barred). The case "claimed after the cut" takes the ruling of the law that states it, even where
    the other reading is the more confident; the other law keeps the case it does not contradict."""
    res = resources()
    general, late = whist_law(1, "x"), whist_law(2, "y")
    common = dict(game="whist", event="revoke", witness="en-990", status=EXTRACTED)
    anns = (
        Annotation(
            general.id, general.text_hash, ruling=Ruling(penalties=("take_three_tricks",)), confidence=0.9, **common
        ),
        Annotation(
            late.id,
            late.text_hash,
            facts=(("claimed", ("after_cut",)),),
            ruling=Ruling("claim_barred"),
            confidence=0.5,
            **common,
        ),
    )
    t = build_rule_table((general, late), anns, resources=res)
    rows = [r for r in t.rows if r.ruleset == "en-990"]
    barred = [r for r in rows if r.ruling == Ruling("claim_barred")]
    assert barred and all(c.law_id == late.id for r in barred for c in r.citations)
    assert any(c.law_id == general.id for r in rows for c in r.citations)


def test_every_law_of_the_1900_code_is_cited_or_listed_with_its_reason():
    t = table()
    laws = [x for x in reference_laws() if x.witness_id == "en-004" and x.kind != "clause"]
    cited = {c.number for r in t.rows for c in r.citations if c.witness == "en-004"}
    listed = {u.split()[1].rstrip(":") for u in t.report.uncited if u.startswith("en-004 ")}
    assert all(x.number in cited or x.id in listed for x in laws)
    assert all(": " in u and not u.endswith(": ") for u in t.report.uncited)
    share = next(c for c in t.report.covered if c.witness == "en-004")
    assert share.cited / share.laws >= 0.8  # 95 laws (94 numbered and 12a)
    assert {u.law_id for u in t.report.missing if u.witness == "en-004"} == {
        x.id for x in laws if x.number not in cited
    }


def test_the_referee_answers_a_norm_of_the_1900_code_from_its_own_extracted_rows():
    d = adjudicate(table(), "whist", "shuffling", {"force": "forbidden"}, "en-004")
    assert d.ruling == Ruling("forbidden") and d.status == EXTRACTED and d.confidence is None
    assert {c.witness for c in d.citations} == {"en-004"} and {18, 19, 20} <= {c.number for c in d.citations}
    assert "not measured" in d.text()


def whist_law(n: int, text: str, heading: str = "", lang: str = "en") -> Law:
    return replace(law("en-990", n, text), id=f"whist.en-990.law-{n}", game="whist", heading=heading, lang=lang)


NORMS = (
    whist_law(1, "The pack must not be shuffled below the table.", "SHUFFLING."),
    whist_law(2, "Each player has a right to shuffle once only.", "SHUFFLING."),
    whist_law(3, "The candidates who have not played have the prior right of entry.", "ENTRY AND RE-ENTRY."),
    whist_law(4, "A game consists of five points.", "SCORING."),
    whist_law(5, "These laws are those of the club.", "INTRODUCTION."),
)


def test_a_law_that_lays_down_a_procedure_is_a_norm_and_one_that_states_none_is_listed_with_its_reason():
    """A duty, a prohibition, a permission, or (no word of force) a procedure stated plainly; a law that reads
    nothing is uncited, and the report says why."""
    res = resources()
    extracted = extract_annotations(NORMS, res, CORPUS, reference_laws())
    by_law = {a.law_id: a for a in extracted}
    assert (by_law["whist.en-990.law-1"].event, by_law["whist.en-990.law-1"].ruling) == (
        "shuffling",
        Ruling("forbidden"),
    )
    assert by_law["whist.en-990.law-1"].facts == (("force", ("forbidden",)),)
    assert by_law["whist.en-990.law-2"].ruling == Ruling("permitted")
    assert by_law["whist.en-990.law-3"].event == "drawing_for_places"  # from the section heading
    assert (by_law["whist.en-990.law-4"].event, by_law["whist.en-990.law-4"].ruling) == ("scoring", Ruling("stated"))
    assert by_law["whist.en-990.law-5"].ruling is None
    t = build_rule_table(NORMS, res.annotations + extracted, resources=res)
    data = json.loads(rules_outputs(t)["rules.json"])
    assert {"witness": "en-990", "laws": 5, "cited": 4} in data["coverage"]
    (gap,) = [u for u in data["uncited"] if u["witness"] == "en-990"]
    assert gap["law_id"] == "whist.en-990.law-5" and gap["reason"] == "no event read"
    assert RuleTable.from_dict(data).rows == t.rows  # the table reads back with its extra keys


def test_the_force_of_a_wording_is_its_first_cue_the_longest_at_one_place():
    norms = load_norms(CORPUS)
    assert force_of("The pack must not be shuffled; he must cut.", "en", norms) == "forbidden"
    assert force_of("He must cut, and may not shuffle.", "en", norms) == "required"
    assert force_of("Any player may call for fresh cards.", "en", norms) == "permitted"
    assert force_of("Le donneur ne peut pas regarder la carte.", "fr", norms) == "forbidden"
    assert force_of("Chaque joueur doit couper.", "fr", norms) == "required"
    assert force_of("The ace is the lowest card.", "en", norms) is None


def test_a_remedy_reads_its_facts_through_the_readings_condition_names_and_other_wordings_of_its_outcome():
    code = (
        law("en-991", 1, "If the dealer has too many cards, his adversary may draw the superfluous cards."),
        law(
            "en-991",
            2,
            "If the dealer gives himself too few cards, the adversary may permit the number wanting to be taken from the talon.",
        ),
    )
    res = resources()
    by_law = {a.law_id: a for a in extract_annotations(code, res, CORPUS, reference_laws())}
    first, second = by_law["ecarte.en-991.law-1"], by_law["ecarte.en-991.law-2"]
    assert (first.event, first.ruling) == ("wrong_card_count", Ruling("draw_surplus"))
    assert ("error", ("too_many",)) in first.facts  # the reading's "count" is the vocabulary's "error"
    assert second.ruling == Ruling("complete_from_stock") and ("error", ("too_few",)) in second.facts
    t = build_rule_table(code, res.annotations + tuple(by_law.values()), resources=res)
    assert next(c for c in t.report.covered if c.witness == "en-991").cited == 2  # two cases, two rows: both cited


def test_a_law_adopting_another_laws_penalty_gets_that_ruling_and_a_reference_by_exception_does_not():
    """ "Subject to the penalty of Law 1", "the same penalty as in the preceding law", "les peines de l'article
    précédent": the law's row carries the penalties of the law it names; "except as provided by Law 1" adopts none."""
    en = code(
        "en-901",
        "A player found with six cards loses one point and cannot mark the king that hand.",
        "If the dealer expose a card of his adversary, the adversary may claim a fresh deal.",
        "A player who plays with more than five cards after the discard is subject to the penalty of Law 1.",
        "If a player looks at the discard, he incurs the same penalty as in the preceding law.",
        "A player who plays with seven cards, except as provided by Law 1, is at fault.",
    )
    fr = code(
        "fr-901",
        "Celui qui joue avec six cartes perd un point.",
        "Celui qui regarde l'écart de son adversaire encourt les peines de l'article précédent.",
        lang="fr",
    )
    res = resources()
    got = {a.law_id: a for a in extract_annotations(en + fr, res, CORPUS, reference_laws())}
    penalties = ("lose_point", "king_not_scored")
    assert got["ecarte.en-901.law-3"].ruling.penalties == penalties
    assert got["ecarte.en-901.law-4"].event == "looks_at_adversary_cards"
    assert got["ecarte.en-901.law-4"].ruling.penalties == penalties  # law 3's, which are law 1's
    assert got["ecarte.en-901.law-2"].ruling == Ruling("new_deal")  # a law with a remedy of its own keeps it
    assert got["ecarte.en-901.law-5"].ruling is None or not got["ecarte.en-901.law-5"].ruling.penalties
    assert got["ecarte.fr-901.law-2"].ruling.penalties == ("lose_point",)


def test_a_code_in_roman_numerals_adopts_the_penalty_of_the_rule_it_names():
    """ "Under the penalty provided in Rule I": a reference printed in Roman numerals adopts that rule's penalties as
    one in Arabic numerals does."""
    en = code(
        "en-902",
        "A player found with six cards loses one point and cannot mark the king that hand.",
        "Neither player may look at the cards discarded, under the penalty provided in Rule I.",
    )
    got = {a.law_id: a for a in extract_annotations(en, resources(), CORPUS, reference_laws())}
    assert got["ecarte.en-902.law-2"].event == "looks_at_adversary_cards"
    assert got["ecarte.en-902.law-2"].ruling.penalties == ("lose_point", "king_not_scored")


def test_a_law_opening_on_such_an_error_rules_on_the_case_of_the_law_before_it():
    """ "If such an error ... be not discovered until after ...": the law names no irregularity of its own and takes
    that of the law printed before it (marked via that law); a law that opens otherwise takes nothing."""
    from pipeline.align.provisions import read_provisions

    en = code(
        "en-903",
        "If the dealer give his adversary more cards in the discard than he asked for, the error may be rectified.",
        "If such an error be not discovered until after the dealer has seen his cards, the adversary may claim a new deal.",
        "The game is five points.",
    )
    read = read_provisions(list(en))
    second = read["ecarte.en-903.law-2"]
    assert second.event_ids == {"wrong_card_count"}
    assert all(words.startswith("via law-1") for _e, _w, words in second.events)
    assert read["ecarte.en-903.law-3"].event_ids == {"game_points"}  # (nothing of law 2's)


def test_a_cut_lifting_more_than_one_card_is_the_cut_not_the_turn_up():
    """ "If he lift and show more than one card, he must abide by the lowest": two cards shown in cutting, not
    several cards turned up for trump; "fail to do so" after the duty to show one's cut is the cut not shown."""
    from pipeline.align.provisions import read_provisions

    (one,) = code(
        "en-904",
        "Each player must show his adversary the card he has cut; if he fail to do so, he loses the deal. If he lift "
        "and show more than one card, he must abide by the lowest card so shown.",
    )
    p = read_provisions([one])[one.id]
    assert p.event_ids == {"cut_exposes_two_cards", "cut_not_shown"}
    assert {t for t, _ in p.outcomes} == {"lose_deal", "take_lowest"}


def test_a_dropped_card_not_held_played_is_taken_back_and_a_card_not_played_to_is_not():
    """ "A card let fall ... is not played" rules that the card goes back to the hand; "if it is not played to" is a
    condition of the lead, not that ruling; "his own cards faced upon the table" is playing the hand exposed."""
    from pipeline.align.provisions import read_provisions

    a, b, c = code(
        "en-905",
        "A card let fall on the table by accident is not played, unless it partly covers a card of the adversary.",
        "If a card is led out of turn, the adversary may let it stand if it is not played to.",
        "A player who looks at the discard must play out the hand with his own cards faced upon the table.",
    )
    read = read_provisions([a, b, c])
    assert "take_back_card" in {t for t, _ in read[a.id].outcomes}
    assert "take_back_card" not in {t for t, _ in read[b.id].outcomes}
    assert {t for t, _ in read[c.id].outcomes} == {"play_hand_exposed"}
