"""Tests of the law-alignment stage (pipeline/align/) and its evaluation (measure/evaluate_align.py)."""

from __future__ import annotations

import csv
import dataclasses
import random
from pathlib import Path

import pytest

from pipeline.align import AlignConfig, AlignModel, LINK_KINDS, align, align_full, en_stem, load_resources, similarity
from measure.evaluate_align import (
    DEV_GOLD_DIR,
    ROOT,
    dev_fixture_laws,
    dev_gold_files,
    evaluate_golds,
    segmented_laws,
    evaluate,
    gold_laws,
    load_witness_meta,
    make_law,
    read_gold,
    score_links,
    shared_dir,
    write_json_atomic,
)
from pipeline.model import Law, Link, Witness

CORPUS = ROOT / "corpus"


@pytest.fixture(scope="session")
def resources():
    return load_resources(CORPUS)


@pytest.fixture(scope="session")
def witnesses():
    return load_witness_meta(CORPUS)


@pytest.fixture(scope="session")
def dev_laws(witnesses):
    return gold_laws(shared_dir(), witnesses)


def W(id: str, lang: str, source: str, game: str = "ecarte") -> Witness:
    return Witness(id=id, file="raw/x.txt", game=game, lang=lang, kind="ocr", title=id, source=source)


def laws_of(wit: Witness, texts: list[tuple[int | None, str]]) -> list[Law]:
    return [make_law(wit.game, wit, n, k, t) for k, (n, t) in enumerate(texts)]


def pairs(links, wa: str, wb: str) -> set[tuple[str, str]]:
    out = set()
    for l in links:
        if l.a.split(".")[1] == wa and l.b.split(".")[1] == wb:
            out.add((l.a.rsplit(".", 1)[-1], l.b.rsplit(".", 1)[-1]))
        elif l.a.split(".")[1] == wb and l.b.split(".")[1] == wa:
            out.add((l.b.rsplit(".", 1)[-1], l.a.rsplit(".", 1)[-1]))
    return out


# ---------------------------------------------------------------------------------------------- data files


def test_glossary_is_a_documented_list_of_game_terms():
    lines = (CORPUS / "glossary.csv").read_text(encoding="utf-8").splitlines()
    assert any(l.startswith("#") and "fr" in l and "en" in l and "type" in l for l in lines), "column comment missing"
    rows = list(csv.reader(l for l in lines if l.strip() and not l.startswith("#")))
    assert rows[0] == ["fr", "en", "type"]
    body = rows[1:]
    assert len(body) > 80
    allowed = {"noun", "verb", "adj", "adv", "prep", "phrase", "qty", "num", "role"}
    for r in body:
        assert len(r) == 3 and r[0] and r[1] and r[2] in allowed, r
        assert not any(c.isdigit() for c in r[0]) or r[2] == "num", f"law numbers do not belong in a glossary: {r}"
    fr = {a for r in body for a in r[0].split("|")}
    for term in ("maldonne", "talon", "atout", "écart", "levée", "renonce", "partenaire", "treize"):
        assert term in fr
    assert len({r[0] for r in body}) == len(body), "duplicate French entries"


def test_outcome_phrases_file(resources):
    ids = [o for o, _, _ in resources.outcomes]
    assert len(ids) == len(set(ids)) and {"deal_stands", "new_deal", "lose_point"} <= set(ids)
    for o, fr, en in resources.outcomes:
        assert fr and en, o


def test_english_light_lemmatiser_is_consistent(resources):
    f = resources.en_forms
    assert en_stem("dealt", f) == en_stem("deal", f) == en_stem("deals", f) == en_stem("dealing", f)
    assert en_stem("faced", f) == en_stem("face", f)
    assert en_stem("discarded", f) == en_stem("discard", f)
    assert en_stem("parties", f) == en_stem("party", f)
    assert en_stem("dealer", f) != en_stem("deal", f)


# ---------------------------------------------------------------------------------------------- gold


def test_fr000_en003_meets_target(dev_laws, witnesses):
    res = evaluate(dev_laws, shared_dir(), CORPUS, dev_dir=None)  # (the development golds: their own tests below)
    by = {r["gold"]: r for r in res["pairs"]}
    assert by["ecarte_fr000_en003.csv"]["f1"] >= 0.95, by["ecarte_fr000_en003.csv"]
    assert by["ecarte_en003_modern.csv"]["f1"] == 1.0, by["ecarte_en003_modern.csv"]


def test_ocr_and_modernized_reading_align_one_to_one_as_same_text(dev_laws, resources, witnesses):
    links = align(dev_laws, resources, AlignConfig(), witnesses)
    same = [l for l in links if {l.a.split(".")[1], l.b.split(".")[1]} == {"en-003", "en-003m"}]
    assert {(p[0], p[1]) for p in pairs(same, "en-003", "en-003m")} == {(f"law-{n}", f"law-{n}") for n in range(1, 16)}
    assert all(l.kind == "same_text" and l.score > 0.9 for l in same)
    trans = [l for l in links if l.a.split(".")[1] == "fr-000" or l.b.split(".")[1] == "fr-000"]
    assert trans and all(l.kind == "translation" for l in trans)


def test_order_free_links_found_with_evidence(dev_laws, resources, witnesses):
    links = align(dev_laws, resources, AlignConfig(), witnesses)
    got = {(l.a, l.b): l for l in links}
    # French 6 (dealing out of turn) is English 9; French 13 (several turn-ups) is English 10
    six = got[("ecarte.fr-000.law-6", "ecarte.en-003.law-9")]
    assert "reserv" in six.evidence
    assert ("ecarte.fr-000.law-13", "ecarte.en-003.law-10") in got
    # French 12 and English 12: five cards, a point and the king
    twelve = got[("ecarte.fr-000.law-12", "ecarte.en-003.law-12")]
    assert "numbers: 5" in twelve.evidence and "lose_point" in twelve.evidence
    for l in links:
        assert 0.0 <= l.score <= 1.0 and l.kind in LINK_KINDS and l.evidence


# ---------------------------------------------------------------------------------------------- synthetic


def _noise(text: str, rng: random.Random) -> str:
    """OCR-like noise: a few letter confusions and a stray character, never in short words."""
    words = text.split()
    conf = {"c": "e", "e": "c", "n": "u", "l": "1", "o": "0", "a": "n", "r": "i"}
    for _ in range(max(1, len(words) // 12)):
        i = rng.randrange(len(words))
        w = words[i]
        if len(w) > 4:
            j = rng.randrange(1, len(w) - 1)
            words[i] = w[:j] + conf.get(w[j], w[j]) + w[j + 1 :]
    return " ".join(words)


def test_shuffled_renumbered_noised_copy_aligns_back(dev_laws, resources):
    orig = [l for l in dev_laws if l.witness_id == "en-003"]
    rng = random.Random(7)
    perm = list(range(len(orig)))
    rng.shuffle(perm)
    copy_w = W("en-900", "en", "another-book")
    copy = [make_law("ecarte", copy_w, 100 + k, k, _noise(orig[p].text, rng)) for k, p in enumerate(perm)]
    links = align(orig + copy, resources)
    expect = {(orig[p].id, copy[k].id) for k, p in enumerate(perm)}
    assert {(l.a, l.b) for l in links} == expect


def test_french_english_synthetic_code_with_unmatched_law(resources):
    """A small code written like other 19th-century codes (not the seeds): whist, French vs English."""
    fr = W("fr-901", "fr", "fr-book", "whist")
    en = W("en-901", "en", "en-book", "whist")
    fr_laws = laws_of(
        fr,
        [
            (1, "Si celui qui donne retourne une carte en donnant, ses adversaires peuvent faire redonner."),
            (
                2,
                "Le joueur qui a fait une renonce perd trois points, et son parti ne peut gagner la partie ce coup-là.",
            ),
            (3, "Si un joueur a quatorze cartes et un autre douze, le coup est nul et la main passe."),
            (4, "Il est défendu de parler pendant que l'on joue, ni de faire aucun signe à son partenaire."),
        ],
    )
    en_laws = laws_of(
        en,
        [
            (7, "If any player holds fourteen cards and another twelve, the deal is void, and the deal passes."),
            (8, "A revoke is a penalty of three points; the side that revoked cannot win the game that hand."),
            (9, "If the dealer exposes a card in dealing, the adversaries may call a fresh deal."),
        ],
    )
    links = align(fr_laws + en_laws, resources, AlignConfig(), {fr.id: fr, en.id: en})
    assert pairs(links, "fr-901", "en-901") == {("law-1", "law-9"), ("law-2", "law-8"), ("law-3", "law-7")}
    assert all(l.kind == "translation" for l in links)
    assert not any("fr-901.law-4" in (l.a, l.b) for l in links), "a law with no counterpart must stay unlinked"


def test_one_to_many_links(resources):
    """An English law that joins two French provisions links to both (1:n)."""
    fr = W("fr-902", "fr", "a")
    en = W("en-902", "en", "b")
    fr_laws = laws_of(
        fr,
        [
            (1, "Celui qui joue avec plus de cinq cartes perd un point."),
            (2, "Celui qui joue avec plus de cinq cartes ne peut marquer le roi, s'il l'a."),
            (
                3,
                "Quand celui qui donne retourne plusieurs cartes au lieu d'une, l'adversaire peut recommencer le coup.",
            ),
        ],
    )
    en_laws = laws_of(
        en,
        [
            (5, "If the dealer turns up more than one card for trump, the adversary may call a new deal."),
            (6, "Any one playing with more than five cards loses a point, and cannot score the king."),
        ],
    )
    links = align(fr_laws + en_laws, resources)
    assert pairs(links, "fr-902", "en-902") == {("law-1", "law-6"), ("law-2", "law-6"), ("law-3", "law-5")}


def test_alignment_does_not_depend_on_input_order(dev_laws, resources, witnesses):
    sub = [l for l in dev_laws if l.witness_id in ("fr-000", "en-003")]
    a = align(sub, resources, AlignConfig(), witnesses)
    rev = list(reversed(sub))
    b = align(rev, resources, AlignConfig(), witnesses)
    norm = lambda links: {(frozenset((l.a, l.b)), round(l.score, 3)) for l in links}  # noqa: E731
    assert norm(a) == norm(b)


def test_thresholds_leave_laws_unlinked_when_nothing_matches(dev_laws, resources):
    sub = [l for l in dev_laws if l.witness_id in ("fr-000", "en-003")]
    strict = align(sub, resources, AlignConfig(min_score=0.99, floor=0.99))
    assert strict == ()


def test_one_game_only_and_empty_input(resources):
    a = make_law("ecarte", W("fr-1", "fr", "x"), 1, 0, "Le coup est bon.")
    b = make_law("whist", W("en-1", "en", "y", "whist"), 1, 0, "The deal stands.")
    with pytest.raises(ValueError):
        align([a, b], resources)
    assert align([], resources) == ()


def test_pivot_scoring_against_provision_texts(dev_laws, resources):
    """A law can be scored against canonical provisions with law_vector/similarity."""
    piv = W("pivot", "en", "canon")
    provisions = laws_of(
        piv,
        [
            (
                1,
                "Dealing out of turn: before the trump is turned, a new deal; after it, the cards are put in reserve for the next deal; after play or discard, the deal stands.",
            ),
            (2, "A player with more than five cards loses a point and cannot score the king."),
            (
                3,
                "A card exposed in dealing: if the dealer's own, the deal stands; if the adversary's, he may have a new deal.",
            ),
        ],
    )
    fr = [l for l in dev_laws if l.witness_id == "fr-000"]
    model = AlignModel(provisions + fr, resources)
    want = {
        "ecarte.fr-000.law-6": "pivot.law-1",
        "ecarte.fr-000.law-12": "pivot.law-2",
        "ecarte.fr-000.law-5": "pivot.law-3",
    }
    for law in fr:
        if law.id in want:
            scores = {p.id.split(".", 1)[1]: similarity(model.law_vector(law), model.law_vector(p)) for p in provisions}
            assert max(scores, key=scores.get) == want[law.id], (law.id, scores)


def test_aligning_two_witnesses_of_15_laws_twice_gives_the_same_links(dev_laws, resources):
    # (its time, under a second once spaCy is warm, is measured by `make bench`: measure/bench_bounds.py)
    sub = [l for l in dev_laws if l.witness_id in ("en-003", "fr-000")]
    first = align(sub, resources)
    assert first and align(sub, resources) == first


def test_extra_scorer_is_mixed_in(dev_laws, resources):
    class Constant:
        name = "const"

        def score(self, a, b):
            return 1.0

    sub = [l for l in dev_laws if l.witness_id in ("en-003", "fr-000")]
    base = {(l.a, l.b): l.score for l in align(sub, resources)}
    mixed = {(l.a, l.b): l for l in align(sub, resources, AlignConfig(scorers=(Constant(),)))}
    k = ("ecarte.fr-000.law-12", "ecarte.en-003.law-12")
    assert mixed[k].score > base[k] and "const 1.00" in mixed[k].evidence


# ---------------------------------------------------------------------------------------------- evaluation


def test_scoring_ignores_possible_links_and_counts_false_positives():
    L = lambda a, b: Link("ecarte", f"ecarte.fr-000.law-{a}", f"ecarte.en-003.law-{b}", 0.5, "translation")  # noqa: E731
    sure = {("ecarte.fr-000.law-1", "ecarte.en-003.law-1"), ("ecarte.fr-000.law-2", "ecarte.en-003.law-2")}
    possible = {("ecarte.fr-000.law-3", "ecarte.en-003.law-3")}
    # reversed direction counts too; a link to another witness is not this pair's business
    links = [
        L(1, 1),
        Link("ecarte", "ecarte.en-003.law-3", "ecarte.fr-000.law-3", 0.4, "translation"),
        L(4, 4),
        Link("ecarte", "ecarte.fr-000.law-2", "ecarte.en-003m.law-2", 0.9, "translation"),
    ]
    r = score_links(links, "fr-000", "en-003", sure, possible)
    assert (r["tp"], r["fp"], r["fn"], r["ignored_possible"]) == (1, 1, 1, 1)
    assert r["precision"] == 0.5 and r["recall"] == 0.5 and r["f1"] == 0.5


def test_read_gold_maps_numbers_to_law_ids():
    game, wa, wb, sure, possible = read_gold(shared_dir() / "gold" / "ecarte_en003_modern.csv")
    assert (game, wa, wb) == ("ecarte", "en-003", "en-003m")
    assert ("ecarte.en-003.law-15", "ecarte.en-003m.law-15") in sure and not possible
    game, wa, wb, sure, possible = read_gold(shared_dir() / "gold" / "ecarte_fr000_en003.csv")
    assert ("ecarte.fr-000.law-6", "ecarte.en-003.law-9") in sure
    assert ("ecarte.fr-000.law-8", "ecarte.en-003.law-7") in possible


def test_json_written_atomically(tmp_path: Path):
    p = tmp_path / "eval" / "alignment.json"
    write_json_atomic(p, {"pairs": []})
    write_json_atomic(p, {"pairs": [1]})
    assert p.read_text().strip().endswith("}") and '"pairs"' in p.read_text()
    assert [x.name for x in p.parent.iterdir()] == ["alignment.json"]


def test_ocr_noise_in_french_phrases_and_words_is_tolerated(resources):
    """Debris inside a phrase and misspelt words still give the glossary/outcome concepts."""
    fr = W("fr-903", "fr", "a")
    noisy = make_law(
        "ecarte",
        fr,
        1,
        0,
        "l'adversaire a le droit de teni^le coup pour bon, ou de recominencer; il perdrait un poiut.",
    )
    model = AlignModel([noisy], resources)
    concepts = model.analyses[noisy.id].concepts
    assert "out:deal_stands" in concepts and "out:new_deal" in concepts
    assert "en:point" in concepts


# ---------------------------------------------------------------------------------------------- development golds
# tests/fixtures/align: written by us, not shared gold.  whist_fr001_en002 is the seed whist pair read by hand; the
# other two score fixture codes (laws.csv there) written in 19th-century style against the seeds, in another order,
# each with one law that has no counterpart.  Floors sit at the level reached, so that a regression fails.


@pytest.fixture(scope="session")
def dev_results(dev_laws):
    whist = segmented_laws(CORPUS, ("fr-001", "en-002"))  # cleaned and segmented by the pipeline's own stages
    res = evaluate_golds(dev_laws + whist, dev_gold_files(), CORPUS, AlignConfig(), dev_fixture_laws())
    return {r["gold"]: r for r in res}


def test_dev_golds_are_present_and_well_formed():
    names = {p.name for p in dev_gold_files()}
    assert {
        "whist_fr001_en002.csv",
        "ecarte_fr901_en003.csv",
        "whist_en901_fr001.csv",
        "whist_fr903_en002.csv",
    } <= names
    game, wa, wb, sure, possible = read_gold(DEV_GOLD_DIR / "whist_fr001_en002.csv")
    assert (game, wa, wb) == ("whist", "fr-001", "en-002")
    assert ("whist.fr-001.rule-5", "whist.en-002.law-37.c") in sure and not sure & possible


def test_fixture_codes_align_with_unmatched_law_left_alone(dev_results):
    fr = dev_results["ecarte_fr901_en003.csv"]
    assert fr["f1"] >= 0.95, fr
    en = dev_results["whist_en901_fr001.csv"]
    assert en["f1"] >= 0.9, en
    extra = {"ecarte.fr-901.law-23", "whist.en-901.law-24"}  # the laws with no counterpart
    assert not any(a in extra or b in extra for r in (fr, en) for a, b in r["false_positives"])


def test_whist_seed_pair_dev_gold(dev_results):
    """French rules against short English clauses (law 37's opening, which states the outcome, is not in the
    excerpt).  Measured 0.67 (P 0.57, R 0.80; was 0.20) after sense resolution across languages, whist terms in
    the glossary and the orphan rule; 0.73 (P 0.67, R 0.80) once a link across languages needs two shared
    concepts that are not in most laws (rule 12 ~ 37(d) rested on "plus"/"more" alone); 0.80 (P 0.80, R 0.80)
    once a repeated preposition counts once (rule 8 ~ 38 no longer linked); 1.00 once a 1:1 link that is not the
    mutual best of its laws needs ``floor`` (rule 2 ~ 37(f) at 0.18 dropped, rule 9 ~ 37(f) joins as n:1).  The
    margins are thin (0.18 and 0.23 around floor 0.2): floors below 1."""
    r = dev_results["whist_fr001_en002.csv"]
    assert r["f1"] >= 0.9 and r["precision"] >= 0.8 and r["recall"] >= 0.95, r


def test_french_paraphrase_of_the_english_whist_laws(dev_results):
    """fr-903 (fixture): Foster's provisions 37-41 restated in French, in another order, with one extra law."""
    r = dev_results["whist_fr903_en002.csv"]
    assert r["f1"] >= 0.95, r
    assert not any(a == "whist.fr-903.law-37" for a, _ in r["false_positives"]), "the honours law has no counterpart"


def test_seed_gold_holds_when_fixture_witnesses_join_the_game(dev_laws):
    """Other codes of the same game change the TF-IDF weights; the seed links must not depend on them."""
    res = evaluate_golds(
        dev_laws, sorted((shared_dir() / "gold").glob("*_*_*.csv")), CORPUS, AlignConfig(), dev_fixture_laws()
    )
    assert all(r["f1"] == 1.0 for r in res), res


def test_french_sense_by_part_of_speech_and_known_words_not_fuzzed(resources):
    fr = W("fr-904", "fr", "a", "whist")
    law = make_law(
        "whist",
        fr,
        1,
        0,
        "Quand on retourne une carte en donnant, à moins que ce ne soit la faute des adversaires, "
        "il la joint à son jeu.",
    )
    c = AlignModel([law], resources).analyses[law.id].concepts
    assert "en:expos" in c and "en:trump" not in c  # the verb "retourne" (turns up), not the noun (trump card)
    assert "en:unless" in c and "en:too few" not in c  # "à moins que" is not "moins" (too few)
    assert "en:point" not in c  # "joint" is a French word, not a misread "point"


def test_a_french_word_counts_in_full_for_the_equivalent_the_english_law_uses(resources):
    """ "retourne" (turns up | faces | exposes | shows ...) is rendered one way by a translation: against a law that
    says "exposed", the French word counts as "exposed" in full, not as a fifth of it."""
    fr = W("fr-905", "fr", "a", "whist")
    en = W("en-905", "en", "b", "whist")
    a = make_law("whist", fr, 1, 0, "Quand on retourne une carte en donnant, les adversaires peuvent faire redonner.")
    b = make_law("whist", en, 1, 0, "If a card be exposed in dealing, the adversaries may call a fresh deal.")
    resolved = AlignModel([a, b], resources, AlignConfig())
    split = AlignModel([a, b], resources, AlignConfig(sense_resolution=0.0))
    va, _ = resolved.pair_vectors(a, b)
    assert va["en:expos"] > split.law_vector(a)["en:expos"] * 2
    assert resolved.score(a, b)[0] > split.score(a, b)[0]
    assert resolved.law_vector(a) == split.law_vector(a), "the law's own vector is unchanged"


def test_english_articles_do_not_split_concepts(resources):
    """ "during the deal" (glossary) is found in "during a deal"; "the deal is void" and "deal is void" are one concept."""
    from pipeline.align import en_concept

    assert en_concept("the deal is void", resources.en_forms) == en_concept("deal is void", resources.en_forms)
    en = W("en-906", "en", "b", "whist")
    a = make_law("whist", en, 1, 0, "If, during a deal, any card be faced in the pack.")
    assert en_concept("during the deal", resources.en_forms) in AlignModel([a], resources).analyses[a.id].concepts


def test_a_law_whose_counterpart_is_taken_joins_it_as_n_to_1():
    """Law 0 of A matches law 0 of B best (0.6); law 1 of A has B's law 0 as its only real match (0.45): an
    orphan joins at orphan_ratio (0.75 >= 0.7), not at ratio (0.8); law 2 (0.25, far below) stays unlinked."""
    from pipeline.align.decide import _decide

    S = [[0.60, 0.10], [0.45, 0.05], [0.25, 0.02]]
    assert _decide(S, AlignConfig()) == [(0, 0), (1, 0)]
    assert _decide(S, AlignConfig(orphan_ratio=0.8)) == [(0, 0)]


def test_a_repeated_preposition_counts_once(resources):
    """ "only after the turn-up ... only after play has begun": a function word (glossary type prep/adv) repeated in a
    law is syntax, not topic; its count is capped at ``function_max_tf`` (once) while a repeated game term still
    weighs more (whist fr-001 rule 9's "après" twice was the heaviest concept of the law)."""
    en = W("en-908", "en", "a", "whist")
    twice, once = laws_of(
        en,
        [
            (1, "Before the deal, and before the cut, a trick is turned; a trick is quitted."),
            (2, "Before the deal a trick is turned."),
        ],
    )
    capped = AlignModel([twice, once], resources, AlignConfig())
    assert capped.law_vector(twice)["en:befor"] == capped.law_vector(once)["en:befor"]
    assert capped.law_vector(twice)["en:trick"] > capped.law_vector(once)["en:trick"]
    off = AlignModel([twice, once], resources, AlignConfig(function_max_tf=0))
    assert off.law_vector(twice)["en:befor"] > off.law_vector(once)["en:befor"]


def test_a_weak_link_that_is_not_a_mutual_best_needs_the_floor():
    """Whist fr-001 rule 2 (row 0) has law 37(f) (col 0) as its only candidate (0.18), but 37(f) matches rule 9 (row 1)
    better (0.23), whose best is law 38 (0.30).  Only a mutual best may be as weak as min_score (0.15): rule 2 ~ 37(f)
    is below floor (0.2), so 37(f) is left to rule 9 as an n:1 link at orphan_ratio; a lone weak mutual best stays."""
    from pipeline.align.decide import _decide

    S = [[0.18, 0.0], [0.23, 0.30]]
    cfg = AlignConfig(min_score=0.15, floor=0.2)  # the thresholds of this measurement (now 0.2 / 0.25, on the readings)
    assert _decide(S, cfg) == [(1, 0), (1, 1)]
    assert _decide(S, dataclasses.replace(cfg, floor=0.15)) == [(0, 0), (1, 1)]  # the rule before: rule 2 took 37(f)
    assert _decide([[0.18]], cfg) == [(0, 0)]
    assert _decide([[0.18]], AlignConfig()) == []  # below the present min_score


def test_french_ne_plus_is_not_the_quantity_more(resources):
    fr = W("fr-907", "fr", "a", "whist")
    a = make_law(
        "whist", fr, 1, 0, "Une fois la carte rentrée dans son jeu, on n'a plus le droit de demander quelle elle est."
    )
    b = make_law("whist", fr, 2, 1, "Celui qui a une carte de plus perd un point.")
    an = AlignModel([a, b], resources).analyses
    assert "en:mor" not in an[a.id].concepts and "en:mor" in an[b.id].concepts


def _decide_pair_by_pair(S: list[list[float]], config: AlignConfig) -> list[tuple[int, int]]:
    """The decision rule as first written, pair by pair: the reference for the vectorised ``_decide``."""
    eps = 1e-12
    na, nb = len(S), len(S[0])
    best_a = [max(row) for row in S]
    best_b = [max(S[i][j] for i in range(na)) for j in range(nb)]
    order = sorted(((S[i][j], i, j) for i in range(na) for j in range(nb)), key=lambda t: (-t[0], t[1], t[2]))
    prim_a: dict[int, float] = {}
    prim_b: dict[int, float] = {}
    links = set()
    for s, i, j in order:
        if s < config.min_score:
            break
        if s < config.primary_ratio * max(best_a[i], best_b[j]):
            continue
        if s < config.floor and not (s >= best_a[i] - eps and s >= best_b[j] - eps):
            continue  # only a mutual best may be as weak as min_score
        if i not in prim_a and j not in prim_b:
            prim_a[i], prim_b[j] = s, s
            links.add((i, j))
    for s, i, j in order:
        if s < config.floor:
            break
        if (i, j) in links:
            continue
        best_of_a, best_of_b = s >= best_a[i] - eps, s >= best_b[j] - eps
        if not (best_of_a or best_of_b):
            continue
        need = config.ratio
        if (best_of_a and i not in prim_a) or (best_of_b and j not in prim_b):
            need = config.orphan_ratio
        if s >= need * max(prim_a.get(i, 0.0), prim_b.get(j, 0.0)):
            links.add((i, j))
    return sorted(links)


def test_vectorised_decision_rule_takes_the_same_links_as_the_pair_by_pair_rule():
    """_decide (numpy) against the rule written pair by pair, on random score matrices with ties, duplicated
    laws (equal rows), near-thresholds values and shapes 1xN, Nx1, N>M."""
    import numpy as np

    from pipeline.align.decide import _decide

    rng = np.random.default_rng(11)
    cfg = AlignConfig()
    for trial in range(300):
        na, nb = int(rng.integers(1, 25)), int(rng.integers(1, 25))
        kind = trial % 3
        if kind == 0:  # continuous scores
            S = rng.random((na, nb)) ** 3
        elif kind == 1:  # a coarse grid of values: many exact ties, values on the thresholds
            S = rng.choice(np.array([0.0, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8]), size=(na, nb))
        else:  # laws that match one law well, with duplicated rows (the same law printed twice)
            S = rng.random((na, nb)) * 0.25
            S[np.arange(na), rng.integers(0, nb, na)] = rng.uniform(0.3, 0.9, na)
            if na > 2:
                S[1] = S[0]
        S = S.round(12).tolist()
        assert _decide(S, cfg) == _decide_pair_by_pair(S, cfg), S
        assert _decide(np.array(S), cfg) == _decide(S, cfg)
    assert _decide([], cfg) == [] and _decide([[]], cfg) == []


def test_fast_matrix_gives_exactly_the_pairwise_scores(resources):
    """The vectorised matrix (position prior, sense resolution with resolved vectors shared between laws) gives the
    very floats of scoring the pairs one by one across languages, numbered laws or not (within a language, up to
    the order of a sum)."""
    import numpy as np

    en = W("en-x", "en", "a", game="whist")
    fr = W("fr-x", "fr", "b", game="whist")
    en_laws = laws_of(
        en,
        [
            (1, "If the dealer turns up two cards, the adversary may call a new deal."),
            (2, "A card played out of turn may be taken up, unless the adversary has played to it."),
            (3, "He who looks at a card turned up in dealing loses the deal."),
            (4, "The deal stands though a card be faced in the pack."),
        ],
    )
    fr_laws = laws_of(
        fr,
        [
            (None, "Si celui qui donne retourne deux cartes, l'adversaire peut faire recommencer."),
            (None, "Une carte jouée hors de son tour peut être reprise, si l'adversaire n'a pas joué."),
            (None, "Le coup est bien donné, quoiqu'une carte soit retournée dans le jeu."),
            (None, "Celui qui regarde une carte retournée en donnant perd la donne."),
            (None, "Trois points."),
        ],
    )
    model = AlignModel(en_laws + fr_laws, resources, AlignConfig())
    for rows, cols in ((fr_laws, en_laws), (en_laws, fr_laws), (en_laws, en_laws[::-1])):
        kind = "translation" if rows[0].lang != cols[0].lang else "edition"
        fast = model.matrix(rows, cols, kind)
        slow = np.array([[model.score(a, b, None, (len(rows), len(cols)))[0] for b in cols] for a in rows])
        if kind == "translation":
            assert np.array_equal(fast, slow)
        else:  # within a language the concept cosines are one matrix product (sums in another order)
            assert np.allclose(fast, slow, rtol=0, atol=1e-12)


def test_a_translation_link_needs_two_distinctive_shared_concepts(resources):
    """Across languages, "one card too many" and "more than thirteen cards" share "more" and the card every law
    names: too thin for a link; "plus de treize cartes" shares "more" and thirteen.  Deal and card are ubiquitous
    in a code of dealing laws (in at least half of its laws), the article "un" always."""
    en = W("en-906", "en", "a", "whist")
    fr = W("fr-906", "fr", "b", "whist")
    el = laws_of(
        en,
        [
            (i + 1, t)
            for i, t in enumerate(
                [
                    "If the dealer exposes a card in dealing, the adversaries may call a new deal.",
                    "If more than thirteen cards be dealt to any player, there must be a new deal.",
                    "The deal passes to the left after each hand.",
                    "A card found faced in the pack gives a new deal.",
                    "If a player deals out of turn, the error may be corrected before the last card is dealt.",
                    "Each player must count his cards before the play begins.",
                    "A player who looks at the trump card before the deal is finished loses the deal.",
                    "If the pack be found imperfect, the deal is void.",
                    "The dealer must not look at the bottom card of the pack.",
                    "The cards are dealt one at a time, beginning with the player on the left.",
                ]
            )
        ],
    )
    fl = laws_of(
        fr,
        [(1, "Celui qui a une carte de plus perd un point."), (2, "Plus de treize cartes : la faute est au donneur.")],
    )
    # the similarity rule on its own (the readings would add the shared event, wrong_card_count, to both pairs)
    model = AlignModel(el + fl, resources, AlignConfig(use_provisions=False))
    assert {"en:card", "en:deal", "num:1"} <= model.ubiquitous
    thin, ev = model.score(fl[0], el[1])
    assert thin == 0.0 and "distinctive" in ev
    assert model.score(fl[1], el[1])[0] > 0.3
    off = AlignModel(el + fl, resources, AlignConfig(min_shared_concepts=0, use_provisions=False))
    assert off.score(fl[0], el[1])[0] > 0.0
    assert model.matrix(fl, el, "translation")[0, 1] == 0.0  # the matrix applies the rule too
    small = AlignModel(
        [fl[0], el[1]], resources, AlignConfig(use_provisions=False)
    )  # in two laws every shared word is "in most"
    assert small.ubiquitous == {"num:1"}


def test_evaluation_can_measure_a_config_change_on_every_gold():
    from measure.evaluate_align import config_with

    cfg = config_with(
        AlignConfig(), ["min_shared_concepts=1", 'type_weights=[["adj", 0.7], ["prep", 0.5]]', "sublinear_tf=false"]
    )
    assert cfg.min_shared_concepts == 1 and cfg.type_weights == (("adj", 0.7), ("prep", 0.5)) and not cfg.sublinear_tf
    assert hash(cfg)  # still a frozen, hashable config (the pivot caches models by it)
    with pytest.raises(ValueError):
        config_with(AlignConfig(), ["no_such_field=1"])


# ---------------------------------------------------------------------------------------------- one language, two codes
# Two codes of different origin in one language (whist en-901 ~ en-002, fr-903 ~ fr-001, Écarté fr-901 ~ fr-000): the
# development golds were derived by composing the golds above through the third witness, then read by hand.

SAME_LANGUAGE_GOLDS = ("whist_en901_en002.csv", "whist_fr903_fr001.csv", "ecarte_fr901_fr000.csv")


def test_same_language_golds_are_composed_and_well_formed():
    for name in SAME_LANGUAGE_GOLDS:
        path = DEV_GOLD_DIR / name
        game, wa, wb, sure, possible = read_gold(path)
        assert wa[:2] == wb[:2] and wa != wb, name  # one language, two witnesses
        assert sure and not sure & possible, name
        head = path.read_text(encoding="utf-8").split("\n", 6)
        assert "COMPOSITION" in " ".join(head) and "by hand" in " ".join(head), name
    _, _, _, sure, _ = read_gold(DEV_GOLD_DIR / "whist_en901_en002.csv")
    assert ("whist.en-901.law-24", "whist.en-002.law-41") in sure  # added by hand: fr-001 has no such rule


def test_two_codes_of_one_language(dev_results):
    """fr-903 ~ fr-001, en-901 ~ en-002, fr-901 ~ fr-000 (Écarté gold texts, whist seeds segmented here).  With
    concepts 0.5 + fuzzy ratio 0.5 (before word overlap and the ratio's baseline): P 0.31 / 0.50 / 0.38, R 0.80 /
    1.00 / 1.00 (F1 0.44 / 0.67 / 0.55), every unrelated pair scoring ~0.2 from the ratio alone.  Now P 0.80 / 1.00 /
    1.00, R 0.80 / 0.60 / 1.00 (F1 0.80 / 0.75 / 1.00; fr-000 from outputs/laws.csv: P 0.75); floors at that level."""
    fr = dev_results["whist_fr903_fr001.csv"]
    assert fr["precision"] >= 0.75 and fr["recall"] >= 0.75, fr
    en = dev_results["whist_en901_en002.csv"]
    assert en["precision"] >= 0.95 and en["recall"] >= 0.55, en
    ec = dev_results["ecarte_fr901_fr000.csv"]
    assert ec["f1"] >= 0.85, ec
    extra = {"whist.fr-903.law-35", "whist.fr-903.law-38", "whist.en-901.law-23", "ecarte.fr-901.law-23"}
    assert not any(a in extra for r in (fr, en, ec) for a, _ in r["false_positives"]), "laws with no counterpart"


def test_an_unrelated_law_of_another_code_in_one_language_stays_unlinked(resources):
    """Two English whist codes of different origin: the fuzzy ratio of any two of their laws is ~0.2-0.45, which at
    weight 0.5 made a revoke law and an honours law a mutual-best link (0.24); only the ratio above
    ``text_baseline`` counts now, and the words the laws share (partner, shuffle) do."""
    a = W("en-a", "en", "book-a", "whist")
    b = W("en-b", "en", "book-b", "whist")
    A = laws_of(
        a,
        [
            (1, "If a card be exposed by the dealer in dealing, the adversaries may claim a fresh deal."),
            (2, "No one may shuffle, cut, or deal for his partner, if either adversary object."),
            (4, "A revoke is a penalty of three tricks, taken from the revoking side."),
        ],
    )
    B = laws_of(
        b,
        [
            (10, "A player may not cut, shuffle, or deal for his partner if either adversary object."),
            (12, "If, during a deal, any card be faced in the pack or exposed, the adversaries may demand a new deal."),
            (
                13,
                "Honours are not reckoned until the last trick has been played, and he who calls them before "
                "loses them.",
            ),
        ],
    )
    ws = {a.id: a, b.id: b}
    links = align(A + B, resources, AlignConfig(), ws)
    assert pairs(links, "en-a", "en-b") == {("law-1", "law-12"), ("law-2", "law-10")}
    assert all(l.kind == "edition" for l in links)
    assert any("words" in l.evidence for l in links)
    old = AlignConfig(
        text_weight=0.5, word_weight=0.0, text_baseline=0.0, use_provisions=False, min_score=0.15, floor=0.2
    )  # the former mix, for the record
    assert ("law-4", "law-13") in pairs(align(A + B, resources, old, ws), "en-a", "en-b")
    # with the readings, a revoke law and an honours law rule on different events: not linked even with that mix
    assert ("law-4", "law-13") not in pairs(
        align(A + B, resources, dataclasses.replace(old, use_provisions=True), ws), "en-a", "en-b"
    )


def test_word_overlap_counts_content_words_by_their_first_letters(resources):
    model = AlignModel(
        laws_of(
            W("en-a", "en", "a"), [(1, "The dealer exposed a card."), (2, "Cards exposed by the exposure of the pack.")]
        ),
        resources,
        AlignConfig(),
    )
    w1, w2 = model.word_vector("ecarte.en-a.law-1"), model.word_vector("ecarte.en-a.law-2")
    assert "expos" in w1 and "expos" in w2 and "the" not in w1  # exposed / exposure; stop words left out
    fr = AlignModel(
        laws_of(W("fr-a", "fr", "a"), [(1, "Il retourne la carte."), (2, "Une carte retournée.")]),
        resources,
        AlignConfig(),
    )
    assert "retou" in fr.word_vector("ecarte.fr-a.law-1") and "retou" in fr.word_vector("ecarte.fr-a.law-2")
    assert set(fr.word_idf) == {"fr"}  # document frequencies per language


def test_editions_of_one_text_keep_the_text_mix(dev_laws, resources, witnesses):
    """OCR and modernized reading (same source): the fuzzy ratio in full at ``same_source_text_weight``, no word
    overlap, no baseline: still 1:1 law for law, and the scores do not move with the cross-code weights."""
    sub = [l for l in dev_laws if l.witness_id in ("en-003", "en-003m")]
    base = {(l.a, l.b, l.score) for l in align(sub, resources, AlignConfig(), witnesses)}
    other = AlignConfig(word_weight=0.0, text_weight=0.5, text_baseline=0.0)
    assert {(l.a, l.b, l.score) for l in align(sub, resources, other, witnesses)} == base
    assert len(base) == 15 and all(a.rsplit(".", 1)[1] == b.rsplit(".", 1)[1] for a, b, _ in base)


def test_gold_evaluation_segments_every_witness_of_the_game(dev_laws):
    """The alignment is cached per game and fixture set: a gold naming only en-901 and en-002 must not leave fr-001
    out of the alignment that whist_en901_fr001 then reads (it scored 0.00 with laws from the gold texts)."""
    files = [DEV_GOLD_DIR / "whist_en901_en002.csv", DEV_GOLD_DIR / "whist_en901_fr001.csv"]
    res = {r["gold"]: r for r in evaluate_golds(dev_laws, files, CORPUS, AlignConfig(), dev_fixture_laws())}
    assert res["whist_en901_fr001.csv"]["f1"] == 1.0, res


# -------------------------------------------------------------- laws read as event, conditions and outcome
# The Revised Code of 1900 (en-004, 94 laws, 111 alignment units with its clauses) against the seeds, golds read by
# hand (whist_en004_*.csv, with the laws that have no counterpart as rows "law,,none"); unrelated witnesses (en-902,
# fr-904: revoke laws) against the dealing-only seeds; fr-905, a French code paraphrasing chapters of en-004 (REPORT
# gold).  Floors at the project's targets.


# en-004 ~ en-002 stands at 0.83, under the target: its law 30 is the second counterpart of 37(c), and that link sits
# just under the orphan ratio (0.7 of 37(c)'s best) since law 29's head reads "dealer" whole (its footnote marker no
# longer glued to it). An orphan ratio of 0.65 recovers it (0.88) but links laws of en-004 that fr-904 and fr-905 do
# not have (F1 1.00 -> 0.92 and 0.86), so the floor for that pair records the measured figure.
F1_FLOOR = {"whist_en004_en002.csv": 0.83, "whist_en004_fr001.csv": 0.85}


def test_revised_code_against_foster_and_the_french_rules(dev_results):
    for name, floor in F1_FLOOR.items():
        r = dev_results[name]
        assert r["f1"] >= floor, (name, r)
        assert r["unaligned_right"] >= r["unaligned_gold"] - 2, (name, r["unaligned_linked"])
    assert (
        dev_results["whist_en004_en002.csv"]["unaligned_right"]
        == dev_results["whist_en004_en002.csv"]["unaligned_gold"]
    )


def test_a_code_written_for_reporting_only_is_aligned_across_languages(dev_results):
    """fr-905 (10 French laws paraphrasing en-004's chapters): written with its gold before the aligner ran on it."""
    r = dev_results["whist_en004_fr905.csv"]
    assert r["recall"] >= 0.9 and r["f1"] >= 0.7, r
    assert "whist.fr-905.law-78" not in r["unaligned_linked"], "the law on signs has no counterpart"


def test_an_unrelated_witness_gets_no_link_above_the_lowest_band(dev_results):
    for name in ("whist_en902_fr001.csv", "whist_en902_en002.csv", "whist_fr904_fr001.csv", "whist_fr904_en002.csv"):
        r = dev_results[name]
        assert r["tp"] == 0 and set(r["bands"]) <= {"low"}, (name, r["bands"])
        assert r["unaligned_right"] >= r["unaligned_gold"] - 1, (name, r["unaligned_linked"])


def test_links_in_the_highest_band_are_precise_on_every_gold(dev_results, dev_laws):
    from measure.evaluate_align import band_precision

    shared = evaluate_golds(dev_laws, sorted((shared_dir() / "gold").glob("*_*_*.csv")), CORPUS, AlignConfig())
    assert all(r["f1"] == 1.0 for r in shared), shared
    results = [*shared, *dev_results.values()]
    for r in results:
        high = r["bands"].get("high", {"tp": 0, "fp": 0})
        assert high["fp"] <= 0.05 * (high["tp"] + high["fp"]), (r["gold"], r["bands"])
    bands = band_precision(results)
    assert bands["high"]["precision"] >= 0.95 and bands["high"]["precision"] > bands["low"]["precision"], bands
    assert bands["medium"]["precision"] >= 0.85, bands


def test_every_link_carries_evidence_of_the_reading_and_a_band(resources):
    fr = W("fr-960", "fr", "x", game="whist")
    en = W("en-960", "en", "y", game="whist")
    laws = laws_of(
        fr,
        [
            (1, "Si une carte se trouve retournée dans le jeu, on redonne sans punition."),
            (
                2,
                "Si l'on donne avant son tour, et qu'on ne s'en aperçoive qu'après avoir commencé à jouer, le coup est bon.",
            ),
        ],
    ) + laws_of(
        en,
        [
            (1, "If a player deal out of turn, and play has begun before the error is found, the deal stands."),
            (2, "If any card, excepting the last, be faced in the pack, there must be a new deal."),
            (3, "A revoke is when a player, holding a card of the suit led, plays a card of another suit."),
        ],
    )
    from pipeline.align import align_full

    links, unaligned = align_full(laws, resources)
    got = {(l.a.split(".")[-1], l.b.split(".")[-1]) for l in links}
    assert got == {("law-1", "law-2"), ("law-2", "law-1")}, links
    for l in links:
        assert l.band in ("high", "medium", "low") and l.evidence.startswith("event: ")
        assert "conditions" in l.evidence or "outcome" in l.evidence
    (u,) = [u for u in unaligned if u.law.endswith("en-960.law-3")]
    assert u.other_witness == "fr-960" and "revoke" in u.reason and u.reading.startswith("revoke")


def test_a_code_of_more_than_100_laws_is_aligned_order_free(resources):
    en004 = [l for l in segmented_laws(CORPUS, ["en-004"])]
    fr001 = segmented_laws(CORPUS, ["fr-001"])
    links = align(en004 + fr001, resources)
    shuffled = en004[::-1] + fr001[::-1]
    random.Random(3).shuffle(shuffled)

    def undirected(ls):
        return {frozenset((l.a, l.b)): (l.score, l.band) for l in ls}

    assert len(links) >= 10 and undirected(align(shuffled, resources)) == undirected(links)
    # (its time, under 20 s, is measured by `make bench`: measure/bench_bounds.py)


def test_pivot_mode_uses_the_readings_and_bands(dev_laws, resources):
    from pipeline.pivot import Pivot, align_to_pivot

    en = [l for l in segmented_laws(CORPUS, ["en-002"])]
    fr = segmented_laws(CORPUS, ["fr-001"])
    pivot = Pivot(game="whist", laws=tuple(en), witness_ids=("en-002",), key="t")
    links = align_to_pivot(fr, pivot, resources)
    assert links and all(l.band for l in links) and all(l.evidence.startswith("event") for l in links)
    assert any({l.a, l.b} == {"whist.en-002.law-37.c", "whist.fr-001.rule-8"} for l in links)


def test_pivot_mode_reports_the_laws_with_no_counterpart(resources):
    """Large games align through a pivot: "no counterpart" is an answer there too (unaligned.csv, TEI, synoptic)."""
    from pipeline.build import AlignedPart
    from pipeline.pivot import Pivot, align_to_pivot_full
    from pipeline.export.site.rows import synoptic_rows

    en = segmented_laws(CORPUS, ["en-002"])
    fr = segmented_laws(CORPUS, ["fr-001"])
    pivot = Pivot(game="whist", laws=tuple(en), witness_ids=("en-002",), key="t-unaligned")
    links, unaligned = align_to_pivot_full(fr, pivot, resources)
    linked = {x for l in links for x in (l.a, l.b)}
    rows = {(u.law, u.other_witness): u for u in unaligned}
    # rule 11 (how to sort one's hand: advice) rules on nothing Foster's dealing laws rule on
    assert ("whist.fr-001.rule-11", "en-002") in rows
    assert rows[("whist.fr-001.rule-11", "en-002")].reason and rows[("whist.fr-001.rule-11", "en-002")].reading
    # every law of either side is linked or reported, never both, and reported once against the other witness
    parents = {l.parent for l in en if l.parent}
    for law in [*fr, *(l for l in en if l.id not in parents)]:
        other = "en-002" if law.witness_id == "fr-001" else "fr-001"
        assert (law.id in linked) != ((law.id, other) in rows), law.id
    assert len(rows) == len(unaligned)
    part = AlignedPart.of(links, (*fr, *en), unaligned)
    assert b"whist.fr-001.rule-11" in part.unaligned_csv
    ptrs = [p for (game, kind), ps, _ in part.tei.groups if kind == "no_counterpart" for p in ps]
    assert any("rule-11" in p["target"] and p["n"] == "en-002" for p in ptrs)
    synoptic = synoptic_rows(["en-002", "fr-001"], {"en-002": en, "fr-001": fr}, links)
    (own,) = [r for r in synoptic if any(l.id == "whist.fr-001.rule-11" for l in r.laws.get("fr-001", ()))]
    assert list(own.laws) == ["fr-001"] and len(own.laws["fr-001"]) == 1


# 19th-century English variants of the wording of a law (a reworded reprint says "opponent" for "adversary" ...)
REWORDING = {
    "adversaries": "opponents",
    "adversary": "opponent",
    "adversary's": "opponent's",
    "fresh deal": "new deal",
    "new deal": "fresh deal",
    "whilst": "while",
    "Should": "If",
    "cannot": "can not",
    "claim": "demand",
    "liable": "subject",
}


def test_a_reworded_renumbered_code_added_with_pipeline_add_aligns(tmp_path, resources, witnesses):
    """Held-out robustness (a property, not a fit): the 1900 code reprinted with its laws in another order under other
    numbers (its references renumbered with them) and reworded, added as a user would (``pipeline add``) and
    segmented by the pipeline, aligns with F1 >= 0.8 against Foster (same language) and the French rules (across
    languages), on the development golds mapped through the renumbering; and its laws with no counterpart stay
    unaligned."""
    import re
    import shutil

    from measure.evaluate_align import read_gold_full, score_unaligned
    from pipeline.corpus import add_witness

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    units = segmented_laws(CORPUS, ["en-004"])
    laws = [l for l in units if not l.parent]
    clauses = {l.id: [c for c in units if c.parent == l.id] for l in laws}
    order = list(range(len(laws)))
    random.Random(17).shuffle(order)
    new_number = {laws[k].id.rsplit(".law-", 1)[1]: 301 + rank for rank, k in enumerate(order)}  # "12", "12a" -> new
    words = re.compile(r"\b(" + "|".join(sorted(map(re.escape, REWORDING), key=len, reverse=True)) + r")\b")

    def reword(text: str) -> str:
        text = re.sub(r"\b(Laws?) (\d+)", lambda m: f"{m.group(1)} {new_number.get(m.group(2), m.group(2))}", text)
        return words.sub(lambda m: REWORDING[m.group(1)], text)

    def printed(law) -> str:  # the law as printed: its clauses on lines of their own ("    II. If any card ...")
        if not clauses[law.id]:
            return reword(law.text)
        first = clauses[law.id][0].text
        intro = law.text[: law.text.index(first[:20])].rstrip(" IVX.")
        parts = [f"    {c.id.rsplit('.', 1)[1].upper()}. {reword(c.text)}" for c in clauses[law.id]]
        return reword(intro) + "\n\n" + "\n\n".join(parts)

    body = "\n\n".join(f"{new_number[laws[k].id.rsplit('.law-', 1)[1]]}.--{printed(laws[k])}" for k in order)
    src = tmp_path / "whist-reprint.txt"
    src.write_text("THE LAWS OF WHIST.\n\n" + body + "\n", encoding="utf-8")
    add_witness(corpus, src, id="en-950", game="whist", lang="en", kind="transcription", title="A reprint")
    copy = segmented_laws(corpus, ["en-950"])
    assert len([l for l in copy if not l.parent]) == len(laws)
    others = segmented_laws(CORPUS, ["en-002", "fr-001"])
    links, unaligned = align_full(copy + others, resources, witnesses=load_witness_meta(corpus))
    for gold, other in (("whist_en004_en002.csv", "en-002"), ("whist_en004_fr001.csv", "fr-001")):
        _, _, _, sure, possible, none = read_gold_full(DEV_GOLD_DIR / gold)

        def mapped(lid: str) -> str:
            m = re.fullmatch(r"whist\.en-004\.law-(\d+[a-z]?)(.*)", lid)
            return f"whist.en-950.law-{new_number[m.group(1)]}{m.group(2)}" if m else lid

        sure = {(mapped(a), mapped(b)) for a, b in sure}
        possible = {(mapped(a), mapped(b)) for a, b in possible}
        res = score_links(links, "en-950", other, sure, possible)
        assert res["f1"] >= 0.8, (gold, res)
        un = score_unaligned(links, "en-950", other, {mapped(x) for x in none})
        assert un["unaligned_right"] >= 0.9 * un["unaligned_gold"], (gold, un)


def test_a_secondary_link_on_the_event_alone_is_in_the_lowest_band(resources):
    """One law linked to several laws of another code on the event they share, with no condition (who, when, which
    cards) in common: the links beyond the primary one are the least sure, whatever their score."""
    from pipeline.align.provisions import Comparison

    model = AlignModel([], resources, AlignConfig())

    def cmp(*facts: str) -> Comparison:
        return Comparison(1.0, ("exposed_card",), (), (), tuple(facts), (), ("play_exposed",), ())

    assert model.band(0.7, cmp(), primary=False) == "low"
    assert model.band(0.5, cmp("holder=dealer"), primary=False) == "medium"
    assert model.band(0.5, cmp(), primary=True) == "medium" and model.band(0.7, cmp(), primary=True) == "high"
    off = AlignModel([], resources, AlignConfig(secondary_needs_condition=False))
    assert off.band(0.7, cmp(), primary=False) == "medium"


def test_each_case_of_a_law_of_several_cases_finds_the_law_that_rules_on_it(resources):
    """A law stating two cases (the cut not shown; two cards shown in cutting) against a code that gives each case
    a law of its own: the law on the second case is linked to it because it rules on the case the link of the first leaves out,
    and nothing else changes (the case links of AlignConfig)."""
    a = W("en-981", "en", "a")
    b = W("en-982", "en", "b")
    laws = [
        *laws_of(
            a,
            [
                (
                    1,
                    "He who does not show his cut, loses the deal; and if he shows two cards, he must take the lowest.",
                ),
                (2, "If the dealer deals out of turn, the cards are thrown up before the trump is turned."),
            ],
        ),
        *laws_of(
            b,
            [
                (5, "A player who cuts without letting his opponent see the card he cut loses the deal."),
                (6, "If in cutting for deal a player exposes more than one card, his cut is the lowest of them."),
                (7, "A player who does not show the card he cut forfeits the deal to his adversary."),
            ],
        ),
    ]
    on = pairs(align(laws, resources, AlignConfig()), "en-982", "en-981")
    off = pairs(align(laws, resources, AlignConfig(case_links=False)), "en-982", "en-981")
    assert ("law-6", "law-1") in on and ("law-6", "law-1") not in off
    assert on - off == {("law-6", "law-1")}
