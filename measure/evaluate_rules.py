"""The rule table measured: per code, the share of its laws a row cites (coverage) and the accuracy of the
rulings read from the laws no person reviewed (extraction), against reading golds written before the reading ran.

- Coverage: every witness of the build (``outputs/laws.csv``) and every first-contact code of
  ``tests/fixtures/firstcontact/`` (``laws.csv``), compiled together into one rule table as the build does
  (curated entries, then the extracted readings of every other law); a law counts as cited when a row cites it or
  one of its clauses.
- Extraction accuracy, per first-contact code, against ``events.csv`` (the event each law rules on and its main
  outcome, written with the link golds before anything ran): ``event`` the event the rule-table reading settles on
  (an event of the vocabulary, or the topic it names when it gives no ruling; for a norm, the irregularity it is
  about where one is read) is one of the gold's, or the procedure a gold topic belongs to (``norms.toml``
  [topics]: the rule table's events are coarser than the reading's topics); ``outcome`` the
  gold's main outcome is among the terms of the ruling read (laws whose gold states no outcome left out).

The first figures of a code are recorded once in ``tests/fixtures/firstcontact/record_rules.json`` (its first
contact, never overwritten); ``outputs/eval/rules.json`` holds both, and ``measure/results.py`` renders them.
The probe sentences of :mod:`measure.evaluate_probes` (single laws written to measure the reading of wording) are
scored beside them.

Usage: ``python -m measure.evaluate_rules [--laws outputs/laws.csv] [--json outputs/eval/rules.json]``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from measure.evaluate_align import (
    COMPOSED_DIR,
    FIRST_CONTACT_DIR,
    dev_fixture_laws,
    pipeline_laws,
    read_event_gold,
    write_json_atomic,
)
from measure import evaluate_probes
from pipeline.extract import commonest_choosers, extract_annotations, load_norms, read_laws
from pipeline.model import Law
from pipeline.rules import build_rule_table, load_rule_resources
from pipeline.rules.report import uncited_laws

ROOT = Path(__file__).resolve().parent.parent
RECORD = FIRST_CONTACT_DIR / "record_rules.json"


def coverage(laws: Sequence[Law], corpus_dir: Path) -> dict[str, dict]:
    """Per witness: laws, laws cited, the share, and every uncited law with its reason."""
    resources = load_rule_resources(corpus_dir)
    annotations = resources.annotations + extract_annotations(laws, resources, corpus_dir)
    table = build_rule_table(laws, annotations, (), (), resources=resources)
    covered, missing = uncited_laws(laws, annotations, table.rows)
    out = {}
    for c in covered:
        out[c.witness] = {
            "laws": c.laws,
            "cited": c.cited,
            "coverage": float(f"{c.cited / c.laws:.4f}") if c.laws else None,
            "uncited": [{"law_id": u.law_id, "reason": u.reason} for u in missing if u.witness == c.witness],
        }
    return out


def extraction_accuracy(laws: Sequence[Law], gold: dict[str, tuple[frozenset[str], str]], corpus_dir: Path) -> dict:
    """Per witness: the event and outcome accuracy of the rule-table reading against a reading gold."""
    mine = [law for law in laws if law.id in gold]
    res = load_rule_resources(corpus_dir)
    readings = read_laws(mine, res.vocabulary, corpus_dir, choosers=commonest_choosers(res.annotations))
    aliases = {t: p for _, pairs in load_norms(corpus_dir).topics for t, p in pairs}  # a topic -> its procedure
    out: dict[str, dict] = {}
    for law in mine:
        events, outcome = gold[law.id]
        r = readings[law.id]
        q = out.setdefault(
            law.witness_id, {"events": 0, "event_right": 0, "outcomes": 0, "outcome_right": 0, "wrong": []}
        )
        read_event = r.topic or r.event
        if events:
            q["events"] += 1
            if read_event in events or read_event in {aliases.get(e) for e in events}:
                q["event_right"] += 1
            else:
                q["wrong"].append(f"{law.id}: event {'|'.join(sorted(events))}, read {read_event or '-'}")
        if outcome:
            q["outcomes"] += 1
            if r.ruling is not None and outcome in r.ruling.terms():
                q["outcome_right"] += 1
            else:
                q["wrong"].append(
                    f"{law.id}: outcome {outcome}, read {r.ruling.describe() if r.ruling else '-'} ({r.reason or r.event})"
                )
    for q in out.values():
        q["event_accuracy"] = float(f"{q['event_right'] / q['events']:.4f}") if q["events"] else None
        q["outcome_accuracy"] = float(f"{q['outcome_right'] / q['outcomes']:.4f}") if q["outcomes"] else None
    return out


def evaluate(laws_csv: Path, corpus_dir: Path, fc_dir: Path = FIRST_CONTACT_DIR) -> dict:
    built = pipeline_laws(laws_csv)
    fixture = dev_fixture_laws(fc_dir)
    cov = coverage([*built, *fixture], corpus_dir)
    accuracy = extraction_accuracy(fixture, read_event_gold(fc_dir / "events.csv"), corpus_dir)
    codes = sorted({law.witness_id for law in fixture})
    composed = dev_fixture_laws(COMPOSED_DIR)  # (codes written here as a probe of wording: apart, not in the above)
    composed_ids = {law.witness_id for law in composed}
    composed_cov = coverage([*built, *composed], corpus_dir) if composed else {}
    return {
        "coverage": cov,
        "codes": codes,
        "extraction": {c: accuracy.get(c, {}) for c in codes},
        "composed_coverage": {w: c for w, c in composed_cov.items() if w in composed_ids},
        "probes": evaluate_probes.evaluate(corpus_dir),
    }


def record_first_contact(result: dict, path: Path = RECORD) -> list[str]:
    """Record the figures of the codes that have none yet (their first contact); recorded ones are never changed."""
    record = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    fresh = []
    for code in result["codes"]:
        if code in record:
            continue
        acc, cov = result["extraction"].get(code, {}), result["coverage"].get(code, {})
        record[code] = {
            "event_accuracy": acc.get("event_accuracy"),
            "outcome_accuracy": acc.get("outcome_accuracy"),
            "coverage": cov.get("coverage"),
        }
        fresh.append(code)
    if fresh:
        write_json_atomic(path, dict(sorted(record.items())))
    return fresh


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--laws", type=Path, default=ROOT / "outputs" / "laws.csv")
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    ap.add_argument("--json", type=Path, default=ROOT / "outputs" / "eval" / "rules.json")
    args = ap.parse_args(argv)
    result = evaluate(args.laws, args.corpus)
    fresh = record_first_contact(result)
    record = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    result["first_contact"] = {c: record.get(c) for c in result["codes"]}
    print(
        f"{'code':8} {'laws':>5} {'cited':>6} {'cover':>6}   {'event 1st':>9} {'now':>5}   {'outc 1st':>8} {'now':>5}"
    )

    def f(x) -> str:
        return "-" if x is None else f"{x:.2f}"

    for wit, c in result["coverage"].items():
        fc = result["first_contact"].get(wit) or {}
        acc = result["extraction"].get(wit) or {}
        print(
            f"{wit:8} {c['laws']:>5} {c['cited']:>6} {f(c['coverage']):>6}   {f(fc.get('event_accuracy')):>9} "
            f"{f(acc.get('event_accuracy')):>5}   {f(fc.get('outcome_accuracy')):>8} {f(acc.get('outcome_accuracy')):>5}"
        )
    for code in result["codes"]:
        for w in result["extraction"][code].get("wrong", []):
            print(f"    read wrong: {w}")
    for wit, c in result["composed_coverage"].items():
        print(f"composed {wit}: {c['cited']} of {c['laws']} laws cited ({f(c['coverage'])})")
    for name, p in result["probes"].items():
        fc = p["first_contact"] or {}
        first = f"{fc['right']} of {fc['sentences']}" if fc else "-"
        print(f"probe sentences {name}: read right at first contact {first}, now {p['right']} of {p['sentences']}")
    if fresh:
        print(f"first contact of {', '.join(fresh)} recorded in {RECORD.relative_to(ROOT)}")
    write_json_atomic(args.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
