"""The rule table's reading on probe sentences: single laws of Écarté written to measure wording the patterns were not
written on (``tests/fixtures/probes/reading.csv``: event, one remedy term, and the fact of its case where the sentence
states one).

A sentence is read right when the rule-table reading (:func:`pipeline.extract.read_laws`, choosers learnt from the
curation) settles on its event and one of its cases gives the remedy term (as the outcome, an option or a penalty)
with the gold fact stated as that value alone (a case stating both values of the fact, or none, is clause-blind:
wrong).  Each probe's figure at first contact (measured before any change made with it in view) is in
``record.json``; ``python -m measure.evaluate_probes`` prints both, and ``measure.evaluate_rules`` adds them to
``outputs/eval/rules.json``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path

from measure.evaluate_align import make_law
from pipeline.extract import commonest_choosers, read_laws
from pipeline.model import Witness
from pipeline.rules import load_rule_resources

ROOT = Path(__file__).resolve().parent.parent
PROBES = ROOT / "tests" / "fixtures" / "probes"


def read_probes(path: Path = PROBES / "reading.csv") -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def right(reading, event: str, remedy: str, fact: str) -> bool:
    """The reading settles on ``event`` and a case of it gives ``remedy`` for the fact value ``fact`` (``name=value``,
    or "" for none)."""
    if reading.event != event:
        return False
    for facts, ruling in reading.rulings():
        terms = {ruling.outcome, *ruling.options, *ruling.penalties}
        if remedy not in terms:
            continue
        if not fact:
            return True
        name, value = fact.split("=", 1)
        if dict(facts).get(name) == (value,):
            return True
    return False


def evaluate(corpus_dir: Path = ROOT / "corpus", rows: Sequence[dict[str, str]] | None = None) -> dict:
    """Per probe: sentences, read right, and the sentences read wrong."""
    rows = read_probes() if rows is None else rows
    res = load_rule_resources(corpus_dir)
    laws = [
        make_law("ecarte", Witness(f"probe-{i}", "-", "ecarte", "en", "law", "probe"), 1, 0, r["text"])
        for i, r in enumerate(rows)
    ]
    readings = read_laws(laws, res.vocabulary, corpus_dir, choosers=commonest_choosers(res.annotations))
    out: dict[str, dict] = {}
    for law, r in zip(laws, rows):
        p = out.setdefault(r["probe"], {"sentences": 0, "right": 0, "wrong": []})
        p["sentences"] += 1
        if right(readings[law.id], r["event"], r["remedy"], r["fact"]):
            p["right"] += 1
        else:
            p["wrong"].append(r["text"][:80])
    record_path = PROBES / "record.json"
    record = json.loads(record_path.read_text(encoding="utf-8")) if record_path.exists() else {}
    for name, p in out.items():
        p["first_contact"] = record.get(name)
    return out


def probe_lines(probes: dict) -> list[str]:
    """The probe table of docs/RESULTS.md (:mod:`measure.results`): first contact and now, per probe."""
    if not probes:
        return []
    out = [
        "",
        "*Probe sentences* (`tests/fixtures/probes`, `measure/evaluate_probes.py`): single laws of Écarté written to",
        "measure the reading of wording; right when the reading gives the sentence's event, its remedy and the fact",
        "of its case; *first contact* measured before any change made with the probe in view.",
        "",
        "| probe | sentences | right at first contact | right now |",
        "|---|---|---|---|",
    ]
    # (in the order they were written: the JSON keeps its keys sorted as text, "10" before "2")
    for name, p in sorted(
        probes.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0, kv[0])
    ):
        first = (p.get("first_contact") or {}).get("right", "–")
        out.append(
            f"| {name} | {p['sentences']} | **{first} of {p['sentences']}** | {p['right']} of {p['sentences']} |"
        )
    return [*out, ""]


def main() -> int:
    for name, p in evaluate().items():
        fc = p["first_contact"] or {}
        first = f"{fc['right']} of {fc['sentences']}" if fc else "-"
        print(f"probe {name}: read right at first contact {first}; now {p['right']} of {p['sentences']}")
        for w in p["wrong"]:
            print(f"    read wrong: {w}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
