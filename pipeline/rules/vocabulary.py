"""The rule table's vocabulary: the games, parties, outcomes, penalties and events (with their facts) of
``corpus/annotations/vocabulary.toml``, and a ruling stated in its terms.

Every annotation, every extracted reading and every referee query is checked against it; any other term is an
``AnnotationError``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import PipelineError

CURATED, EXTRACTED = "curated", "extracted"  # a row's status: read by a person, or by the patterns only
IRREGULARITY, PROCEDURE = "irregularity", "procedure"  # an event's kind (vocabulary.toml [events] or [procedures])


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
    kind: str = IRREGULARITY  # or PROCEDURE: a law on it lays down a norm (its force) rather than a remedy

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
    norm: FactSpec | None = None  # the fact of every procedure: the force of the law (its values are outcomes too)

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
            **(
                {"procedures": {g: [e.name for e in self.events_of(g) if e.kind == PROCEDURE] for g in self.games}}
                if any(e.kind == PROCEDURE for e in self.events)
                else {}
            ),
        }

    @staticmethod
    def from_dict(d: Mapping) -> Vocabulary:
        procedures = {(g, name) for g, names in d.get("procedures", {}).items() for name in names}
        events = tuple(
            EventSpec(
                g,
                name,
                tuple(FactSpec(fn, tuple(fs["values"]), fs.get("default")) for fn, fs in facts.items()),
                kind=PROCEDURE if (g, name) in procedures else IRREGULARITY,
            )
            for g, evs in d["events"].items()
            for name, facts in evs.items()
        )
        return Vocabulary(tuple(d["games"]), tuple(d["parties"]), tuple(d["outcomes"]), tuple(d["penalties"]), events)


def load_vocabulary(corpus_dir: Path) -> Vocabulary:
    path = Path(corpus_dir) / "annotations" / "vocabulary.toml"
    d = read_toml(path)
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
        norm = None
        if "norms" in d:
            n = d["norms"]
            norm = FactSpec(n["fact"], tuple(n["values"]), None, n.get("description", ""))
            if not set(norm.values) <= set(d["outcomes"]):
                raise AnnotationError(f"{path}: [norms] values {list(norm.values)} must be outcomes")
        for game, procs in d.get("procedures", {}).items():
            if game not in d["games"] or norm is None:
                raise AnnotationError(f"{path}: [procedures.{game}]: unknown game, or no [norms] section")
            for name, description in procs.items():
                if any(e.game == game and e.name == name for e in events):
                    raise AnnotationError(f"{path}: {game}.{name} is both an event and a procedure")
                events.append(EventSpec(game, name, (norm,), description, PROCEDURE))
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
            norm,
        )
    except KeyError as exc:
        raise AnnotationError(f"{path}: missing section or key {exc}") from None


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


def read_toml(path: Path) -> dict:
    """A TOML data file, or a one-line ``AnnotationError`` (missing, or not valid TOML)."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise AnnotationError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise AnnotationError(f"{path}: not valid TOML: {exc}") from None
