"""The curation: the rulings people reviewed (``corpus/annotations/*.toml``, each keyed by law id and checked
against a hash of the law text it was read against) and the named canonical rulesets
(``corpus/annotations/canonical.toml``: per game, the witnesses in order of precedence)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import Law
from .vocabulary import CURATED, AnnotationError, Pattern, Ruling, Vocabulary, load_vocabulary, read_toml

_LAW_ID = re.compile(
    r"^(?P<game>[a-z]+)\.(?P<witness>[a-z0-9-]+)\.(?:law-(?P<n>\d+)(?P<letter>[a-z])?(?:-(?P<occurrence>\d+))?(?:\.(?P<clause>[a-z]+))?"
    r"|rule-(?P<k>\d+))$"
)


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
    """``"ecarte.fr-000.law-6"`` -> ``("ecarte", "fr-000", 6)``; clauses give the law's number, rules None. The k-th
    law of one number in a witness whose numbering restarts (``law-2-3``, see :mod:`pipeline.segment`) gives its
    number too."""
    m = _LAW_ID.match(law_id)
    if not m:
        raise AnnotationError(
            f"malformed law id {law_id!r}; expected <game>.<witness>.law-<n>[<letter>][-<k>][.<x>] or <game>.<witness>.rule-<k>"
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
        d = read_toml(path)
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
    d = read_toml(path)
    out = []
    for name, spec in d.get("ruleset", {}).items():
        prec = tuple((g, tuple(ws)) for g, ws in spec.items() if isinstance(ws, list) and g != "prefer")
        prefer = tuple((p["game"], p["event"], tuple(p["witnesses"])) for p in spec.get("prefer", []))
        out.append(RulesetSpec(name, prec, prefer, spec.get("description", "")))
    if not out:
        raise AnnotationError(f"{path}: no [ruleset.<name>] defined")
    return tuple(out)


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
