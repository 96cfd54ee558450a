"""Shared helpers of test_rules / test_referee / test_ecarte: laws from the reference texts, one table per session.

The laws are built from ``tests/fixtures/laws.toml`` (the gold and hand-read texts the annotations were reviewed
against), so these tests do not depend on a build having run.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from pipeline.model import Law

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "laws.toml"


@lru_cache(maxsize=1)
def reference_laws() -> tuple[Law, ...]:
    with open(FIXTURE, "rb") as fh:
        entries = tomllib.load(fh)["law"]
    return tuple(
        Law(
            id=e["id"], witness_id=e["witness"], game=e["game"], lang=e["lang"], kind=e["kind"], number=e.get("number"),
            printed="", label=e["label"], order=i, start=0, end=len(e["text"]), text=e["text"], parent=e.get("parent"),
        )
        for i, e in enumerate(entries)
    )


@lru_cache(maxsize=1)
def resources():
    from pipeline.rules import load_rule_resources

    return load_rule_resources(CORPUS)


@lru_cache(maxsize=1)
def suggestions():
    from pipeline.rules import suggest_rulings

    return suggest_rulings(reference_laws(), resources().patterns)


@lru_cache(maxsize=1)
def table():
    from pipeline.rules import build_rule_table

    return build_rule_table(reference_laws(), resources().annotations, suggestions(), resources=resources())
