"""Rulings read from the laws: the rule table's rows for every law no person has reviewed.

For each law without a curated entry, the structured reading of :mod:`pipeline.provisions` (the reading the aligner
uses: its events, conditions and outcome terms) becomes an ``Annotation`` with status ``extracted``: the first
event of the law that is an event of the vocabulary (by weight, then name), the conditions that are facts of that
event, and the ruling its outcome terms state (a choice between two outcomes or more is given to the adversaries,
the commonest chooser of the codes). A law whose reading names no event of the vocabulary, or an event and no
outcome, becomes an extracted ``no_ruling`` entry whose note says why (the topics of
``corpus/annotations/topics.toml``: a definition, the score, a procedure, etiquette ...). A law that rules
through its clauses is represented by them.

The confidence of an extracted entry is measured, not assumed: the share of the curated laws of the same game
(those with a ruling) on which the same reading gives a curated (event, ruling) pair, among those on which it
gives a ruling at all (its precision; the patterns were written on those laws, so it is an in-sample figure).

Public API::

    extracted = extract_annotations(laws, resources)   # rules.RuleResources; curated entries win in the table
    quality = measure(laws, resources)                  # {game: Quality}: event and ruling agreement with curation
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .model import Law
from .provisions import Provision, read_provisions
from .rules import CURATED, EXTRACTED, Annotation, RuleResources, Ruling, Vocabulary

ROOT = Path(__file__).resolve().parent.parent
CHOICE = "choice"  # the outcome term of the patterns that says a party chooses between the outcomes stated
DEFAULT_CHOOSER = "adversaries"


@dataclass(frozen=True)
class Reading:
    """What the reading of one law gives the rule table: an event and a ruling, or the reason it gives none."""

    law_id: str
    event: str | None = None
    facts: tuple[tuple[str, tuple[str, ...]], ...] = ()
    ruling: Ruling | None = None
    reason: str = ""
    topic: str = ""  # without an event of the vocabulary: the topic read (an event id of the structured reading)


@dataclass(frozen=True)
class Quality:
    """Agreement of the readings with the curation on the curated laws of one game."""

    laws: int  # curated laws with a ruling
    event_right: int  # the reading's event is an event the curation gives the law
    ruled: int  # the reading gives a ruling
    right: int  # ... and it is one the curation gives the law for that event

    @property
    def confidence(self) -> float:
        return round(self.right / self.ruled, 2) if self.ruled else 0.0


def load_topics(corpus_dir: Path = ROOT / "corpus") -> dict[str, dict[str, str]]:
    with open(Path(corpus_dir) / "annotations" / "topics.toml", "rb") as fh:
        return tomllib.load(fh)


def reading(law: Law, p: Provision, voc: Vocabulary, topics: Mapping[str, Mapping[str, str]]) -> Reading:
    """The rule-table reading of one law from its structured reading (see the module docstring)."""
    events = sorted(p.events, key=lambda e: (-e[1], e[0]))
    specs = [voc.event(law.game, e) for e, _, _ in events]
    spec = next((s for s in specs if s is not None), None)
    if spec is None:
        own = topics.get(law.game, {})
        topic = next((e for e, _, _ in events if e in own), "")
        read = ", ".join(e for e, _, _ in events)
        return Reading(
            law.id,
            reason=own[topic] if topic else (f"reads {read}: no event of the vocabulary" if read else "no event read"),
            topic=topic or (events[0][0] if events else ""),
        )
    terms = [t for t, _ in p.outcomes]
    outcomes = [t for t in voc.outcomes if t in terms]
    penalties = tuple(t for t in voc.penalties if t in terms)
    if CHOICE in terms and len(outcomes) >= 2:
        ruling = Ruling(None, tuple(outcomes), DEFAULT_CHOOSER, penalties)
    elif outcomes:
        first = min(outcomes, key=terms.index)
        ruling = Ruling(first, (), None, penalties)
    elif penalties:
        ruling = Ruling(None, (), None, penalties)
    else:
        return Reading(law.id, spec.name, reason=f"reads {spec.name} but no outcome")
    facts = []
    for f in spec.facts:
        vals = tuple(v for v in f.values if (f.name, v) in {(c[0], c[1]) for c in p.conditions})
        if vals:
            facts.append((f.name, vals))
    return Reading(law.id, spec.name, tuple(facts), ruling)


def read_laws(laws: Sequence[Law], voc: Vocabulary, corpus_dir: Path = ROOT / "corpus") -> dict[str, Reading]:
    """The rule-table reading of each law (by id)."""
    provisions = read_provisions(laws)
    topics = load_topics(corpus_dir)
    return {law.id: reading(law, provisions[law.id], voc, topics) for law in laws}


def measure(laws: Sequence[Law], resources: RuleResources, corpus_dir: Path = ROOT / "corpus") -> dict[str, Quality]:
    """Per game: how often the reading of a curated law gives its curated event, and a curated ruling."""
    curated: dict[str, list[Annotation]] = {}
    for a in resources.annotations:
        if a.status == CURATED and a.ruling is not None:
            curated.setdefault(a.law_id, []).append(a)
    subject = [law for law in laws if law.id in curated]
    readings = read_laws(subject, resources.vocabulary, corpus_dir)
    out: dict[str, list[int]] = {}
    for law in subject:
        r, anns = readings[law.id], curated[law.id]
        q = out.setdefault(law.game, [0, 0, 0, 0])
        q[0] += 1
        q[1] += any(a.event == r.event for a in anns)
        if r.ruling is not None:
            q[2] += 1
            q[3] += any(a.event == r.event and a.ruling == r.ruling for a in anns)
    return {g: Quality(*q) for g, q in out.items()}


def extract_annotations(
    laws: Sequence[Law],
    resources: RuleResources,
    corpus_dir: Path = ROOT / "corpus",
    measured_on: Sequence[Law] | None = None,
) -> tuple[Annotation, ...]:
    """Extracted entries (rulings and no-rulings) for the laws no curated entry covers; their confidence is
    measured on the curated laws among ``measured_on`` (default: ``laws``)."""
    covered = {a.law_id for a in resources.annotations if a.status == CURATED}
    parents = {law.parent for law in laws if law.parent}
    todo = [law for law in laws if law.id not in covered and law.id not in parents]
    measured = measure(laws if measured_on is None else measured_on, resources, corpus_dir)
    confidence = {g: q.confidence for g, q in measured.items()}
    out = []
    readings = read_laws(todo, resources.vocabulary, corpus_dir)
    for law in todo:
        r = readings[law.id]
        common = dict(
            law_id=law.id,
            text_hash=law.text_hash,
            game=law.game,
            witness=law.witness_id,
            status=EXTRACTED,
            file="(extracted)",
        )
        if r.ruling is None:
            out.append(Annotation(event=None, note=r.reason, **common))  # type: ignore[arg-type]
        else:
            conf = confidence.get(law.game, 0.0)
            out.append(
                Annotation(event=r.event, facts=r.facts, ruling=r.ruling, confidence=conf, note="", **common)  # type: ignore[arg-type]
            )
    return tuple(out)
