"""Shared fixtures of test_rules / test_referee / test_ecarte: laws from the reference texts, one table per test run.

The laws are those of the committed build (``outputs/laws.csv``, which test_build shows a fresh build reproduces):
the curation is reviewed against them, so a stale entry is a real finding.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pipeline.model import Law

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@lru_cache(maxsize=1)
def reference_laws() -> tuple[Law, ...]:
    """The laws of the committed build (outputs/laws.csv): the texts the curation was reviewed against.
    test_build checks that a fresh build gives exactly these."""
    from pipeline.rules import laws_from_csv

    return tuple(laws_from_csv(ROOT / "outputs" / "laws.csv"))


def curated_laws() -> tuple[Law, ...]:
    """The laws of the witnesses the curation covers (those with an annotation in corpus/annotations/): a
    witness added since (the 94 laws of the Revised Code, en-004) awaits a reader, and the rule table
    takes its rulings from the structured readings meanwhile."""
    witnesses = {a.witness for a in resources().annotations}
    return tuple(law for law in reference_laws() if law.witness_id in witnesses)


@lru_cache(maxsize=1)
def resources():
    from pipeline.rules import load_rule_resources

    return load_rule_resources(CORPUS)


@lru_cache(maxsize=1)
def suggestions():
    from pipeline.rules import suggest_rulings

    return suggest_rulings(curated_laws(), resources().patterns)


@lru_cache(maxsize=1)
def table():
    from pipeline.rules import build_rule_table

    return build_rule_table(curated_laws(), annotations(), suggestions(), resources=resources())


@lru_cache(maxsize=1)
def annotations():
    """The curated entries and the rulings read from the laws no one reviewed, as the build gives them."""
    from pipeline.extract import extract_annotations

    return resources().annotations + extract_annotations(curated_laws(), resources(), CORPUS)
