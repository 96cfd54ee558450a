"""Rulings read from unreviewed laws: extracted rows with a measured confidence, curated rows first in the canonical
policy, the referee saying when a ruling rests on a reading, and every uncited law listed with its reason."""

from __future__ import annotations

from dataclasses import replace

from pipeline.extract import extract_annotations, measure
from pipeline.model import Law
from pipeline.referee import adjudicate
from pipeline.rules import CURATED, EXTRACTED, Annotation, RulesetSpec, Ruling, build_rule_table
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


NEW_CODE = (
    law("en-900", 1, "If a card be found faced in the pack during the deal, there must be a new deal."),
    law(
        "en-900",
        2,
        "If either player deal out of turn, and the error be found before the trump is turned, a new deal may be called for.",
    ),
    law("en-900", 3, "The game is five points."),
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
    assert by_law["ecarte.en-900.law-3"].ruling is None and "score" in by_law["ecarte.en-900.law-3"].note
    t = build_rule_table(NEW_CODE, res.annotations + extracted, resources=res)
    rows = [r for r in t.rows if r.ruleset == "en-900"]
    assert rows and all(r.status == EXTRACTED and r.confidence == quality.confidence for r in rows)
    assert any("en-900: 2 of 3 laws cited" in c for c in t.report.coverage)
    assert any(u.startswith("en-900 ecarte.en-900.law-3: the score") for u in t.report.uncited)


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


def test_every_law_of_the_1900_code_is_cited_or_listed_with_its_reason():
    t = table()
    laws = [x for x in reference_laws() if x.witness_id == "en-004" and x.kind != "clause"]
    cited = {c.number for r in t.rows for c in r.citations if c.witness == "en-004"}
    listed = {u.split()[1].rstrip(":") for u in t.report.uncited if u.startswith("en-004 ")}
    assert all(x.number in cited or x.id in listed for x in laws)
    assert all(": " in u and not u.endswith(": ") for u in t.report.uncited)
    assert len(cited) >= 50  # laws of the code cited by a row (of 94)
