"""The rule table as a value: its rows (a ruling of one ruleset on one event and fact pattern, with the laws it
cites and the laws that dissent), the report to a curator, the resources it is compiled from, and its files
(``rules.csv``, ``rules.json``, ``rules_report.txt``). The referee reads these types."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..model import Law
from .curation import Annotation, RulesetSpec, load_annotations, load_rulesets
from .suggest import PatternSpec, load_patterns
from .vocabulary import CURATED, Pattern, RuleTableError, Ruling, Vocabulary, load_vocabulary

TABLE_FORMAT = "rules/1"
CSV_COLUMNS = (
    "ruleset",
    "game",
    "event",
    "facts",
    "outcome",
    "options",
    "chooser",
    "penalties",
    "citations",
    "sources",
    "dissent",
    "note",
    "status",
    "confidence",
)


@dataclass(frozen=True)
class Citation:
    law_id: str
    witness: str
    number: int | None

    def to_dict(self) -> dict:
        return {"law_id": self.law_id, "witness": self.witness, "number": self.number}


@dataclass(frozen=True)
class Row:
    """One row of the rule table: in ruleset ``ruleset`` (a witness id, or the canonical ruleset's name),
    event ``event`` of ``game`` with facts matching ``facts`` is ruled ``ruling`` by the laws ``citations``."""

    ruleset: str
    game: str
    event: str
    facts: Pattern  # facts not listed may take any value
    ruling: Ruling
    citations: tuple[Citation, ...]
    dissent: tuple[str, ...] = ()  # law ids of other witnesses that rule otherwise on these facts
    note: str = ""
    status: str = CURATED  # "extracted" when the ruling rests on a reading no person reviewed
    confidence: float | None = None  # of an extracted row: the measured accuracy of such readings

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.witness for c in self.citations))

    def matches(self, assignment: Mapping[str, str]) -> bool:
        return all(k in assignment and assignment[k] in vs for k, vs in self.facts)

    def facts_text(self) -> str:
        return ";".join(f"{k}={'|'.join(vs)}" for k, vs in self.facts)

    def to_dict(self) -> dict:
        return {
            "ruleset": self.ruleset,
            "game": self.game,
            "event": self.event,
            "facts": {k: list(vs) for k, vs in self.facts},
            **self.ruling.to_dict(),
            "citations": [c.to_dict() for c in self.citations],
            "sources": list(self.sources),
            "dissent": list(self.dissent),
            "note": self.note,
            "status": self.status,
            "confidence": self.confidence,
        }


@dataclass(frozen=True)
class Coverage:
    """How many of a witness's laws (its clauses counting for their law) a row of the table cites."""

    witness: str
    laws: int
    cited: int

    def text(self) -> str:
        if not self.laws:
            return f"{self.witness}: no laws"
        return f"{self.witness}: {self.cited} of {self.laws} laws cited ({self.cited / self.laws:.0%})"

    def to_dict(self) -> dict:
        return {"witness": self.witness, "laws": self.laws, "cited": self.cited}


@dataclass(frozen=True)
class Uncited:
    """A law no row cites, and why (a definition, the score, a procedure without force, a reading that failed)."""

    witness: str
    law_id: str
    reason: str

    def to_dict(self) -> dict:
        return {"witness": self.witness, "law_id": self.law_id, "reason": self.reason}


@dataclass(frozen=True)
class RuleReport:
    """What the build should tell a curator. ``check_failures`` are static-check failures (the table is wrong);
    the rest are review items (the table is built from the curation regardless)."""

    stale: tuple[str, ...] = ()
    unknown_laws: tuple[str, ...] = ()
    unreviewed: tuple[str, ...] = ()
    no_ruling: tuple[str, ...] = ()
    disagreements: tuple[str, ...] = ()
    link_gaps: tuple[str, ...] = ()
    readings_differ: tuple[str, ...] = ()
    check_failures: tuple[str, ...] = ()
    uncited: tuple[str, ...] = ()  # per witness, every law no row cites, and why
    coverage: tuple[str, ...] = ()  # per witness: how many of its laws a row cites
    covered: tuple[Coverage, ...] = ()  # the same two, as data (rules.json "coverage" and "uncited")
    missing: tuple[Uncited, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.check_failures

    def text(self, summary: str = "") -> str:
        sections = (
            (
                "static check failures (no two rows of a ruleset overlap; every law with a ruling is covered)",
                self.check_failures,
            ),
            (
                "stale curated entries (law text changed since review: re-review, then paste the hash from `python -m pipeline.rules hashes`)",
                self.stale,
            ),
            ("curated laws not among the laws of this build", self.unknown_laws),
            ("suggestions disagreeing with the curation", self.disagreements),
            ("laws cited by a row, per witness", self.coverage),
            (
                "laws without a ruling, per witness, and why (a definition, the score, a procedure or etiquette is not an irregularity)",
                self.uncited,
            ),
            ("laws with no curated entry (not reviewed: their rows, if any, are extracted)", self.unreviewed),
            ("aligned laws without a ruling", self.link_gaps),
            ("laws reviewed as ruling on no irregularity", self.no_ruling),
            ("where witnesses disagree (each reading is kept; the canonical ruleset chooses)", self.readings_differ),
        )
        lines = ["# rule table report", summary] if summary else ["# rule table report"]
        for title, items in sections:
            lines.append("")
            lines.append(f"## {title}: {len(items)}")
            lines.extend(f"- {x}" for x in items)
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class RuleTable:
    canonical: str
    vocabulary: Vocabulary
    rows: tuple[Row, ...]
    rulesets: tuple[str, ...] = ()  # every ruleset name in the table, canonical first
    report: RuleReport = field(default_factory=RuleReport, compare=False)

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([csv_record(r) for r in self.rows], columns=list(CSV_COLUMNS))

    def to_dict(self) -> dict:
        return {
            "format": TABLE_FORMAT,
            "canonical": self.canonical,
            "rulesets": list(self.rulesets),
            "vocabulary": self.vocabulary.to_dict(),
            "rows": [r.to_dict() for r in self.rows],
            "coverage": [c.to_dict() for c in self.report.covered],
            "uncited": [u.to_dict() for u in self.report.missing],
        }

    @staticmethod
    def from_dict(d: Mapping) -> RuleTable:
        if d.get("format") != TABLE_FORMAT:
            raise RuleTableError(f"not a rule table (format {d.get('format')!r}, expected {TABLE_FORMAT!r})")
        rows = tuple(
            Row(
                r["ruleset"],
                r["game"],
                r["event"],
                tuple((k, tuple(vs)) for k, vs in r["facts"].items()),
                Ruling(r["outcome"], tuple(r["options"]), r["chooser"], tuple(r["penalties"])),
                tuple(Citation(c["law_id"], c["witness"], c["number"]) for c in r["citations"]),
                tuple(r.get("dissent", ())),
                r.get("note", ""),
                r.get("status", CURATED),
                r.get("confidence"),
            )
            for r in d["rows"]
        )
        return RuleTable(d["canonical"], Vocabulary.from_dict(d["vocabulary"]), rows, tuple(d["rulesets"]))


def csv_record(r: Row) -> dict:
    return {
        "ruleset": r.ruleset,
        "game": r.game,
        "event": r.event,
        "facts": r.facts_text(),
        "outcome": r.ruling.outcome or "",
        "options": ";".join(r.ruling.options),
        "chooser": r.ruling.chooser or "",
        "penalties": ";".join(r.ruling.penalties),
        "citations": ";".join(c.law_id for c in r.citations),
        "sources": ";".join(r.sources),
        "dissent": ";".join(r.dissent),
        "note": r.note,
        "status": r.status,
        "confidence": "" if r.confidence is None else f"{r.confidence:.2f}",
    }


@dataclass(frozen=True)
class RuleResources:
    vocabulary: Vocabulary
    annotations: tuple[Annotation, ...]
    rulesets: tuple[RulesetSpec, ...]
    patterns: tuple[PatternSpec, ...]


def load_rule_resources(corpus_dir: Path) -> RuleResources:
    corpus_dir = Path(corpus_dir)
    voc = load_vocabulary(corpus_dir)
    return RuleResources(voc, load_annotations(corpus_dir, voc), load_rulesets(corpus_dir), load_patterns(corpus_dir))


def rules_outputs(table: RuleTable) -> dict[str, bytes]:
    """Deterministic bytes of ``rules.csv``, ``rules.json`` and ``rules_report.txt`` for ``outputs/``."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in table.rows:
        w.writerow(csv_record(r))
    js = json.dumps(table.to_dict(), ensure_ascii=False, indent=1) + "\n"
    n_canon = sum(r.ruleset == table.canonical for r in table.rows)
    summary = (
        f"{len(table.rows)} rows ({n_canon} canonical '{table.canonical}', the rest per witness: "
        f"{', '.join(table.rulesets[1:])}); static checks {'pass' if table.report.ok else 'FAIL'}"
    )
    return {
        "rules.csv": buf.getvalue().encode("utf-8"),
        "rules.json": js.encode("utf-8"),
        "rules_report.txt": table.report.text(summary).encode("utf-8"),
    }


def laws_from_csv(path: Path) -> tuple[Law, ...]:
    """Read ``outputs/laws.csv`` (the build's law table) back into ``Law`` values."""
    import pandas as pd

    if not Path(path).is_file():
        raise RuleTableError(f"{path}: no such file; run the build first (make) or pass --laws")
    df = pd.read_csv(path, dtype=str, keep_default_na=False)

    def num(x: str) -> int | None:
        return int(float(x)) if x.strip() else None

    return tuple(
        Law(
            id=r["law_id"],
            witness_id=r["witness"],
            game=r["game"],
            lang=r["lang"],
            kind=r["kind"],
            number=num(r["number"]),
            printed=r["printed"],
            label=r["label"],
            order=num(r["order"]) or 0,
            start=num(r["start"]) or 0,
            end=num(r["end"]) or 0,
            text=r["text"],
            parent=r["parent"] or None,
            heading=r.get("heading", ""),
        )
        for r in df.to_dict("records")
    )
