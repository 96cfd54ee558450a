"""Rulings read from the laws: the rule table's rows for every law no person has reviewed.

For each law without a curated entry, the structured reading of :mod:`pipeline.align.provisions` (the reading the aligner
uses: its events, conditions and outcome terms) becomes an ``Annotation`` with status ``extracted``: the first
event of the law that is an event of the vocabulary (by weight, then name), the conditions that are facts of that
event, and the ruling its outcome terms state (a choice between two outcomes or more is given to the party the
curated rulings of that game and event most often give it to, :func:`commonest_choosers`: the non-dealer in Écarté,
the adversaries in Whist; the adversaries where no curated ruling says). A law whose reading names no event of the
vocabulary, or an event and no outcome, becomes an extracted ``no_ruling`` entry whose note says why (the topics of
``corpus/annotations/topics.toml``: a definition, the score, a procedure, etiquette ...). A law that rules
through its clauses is represented by them.

A law that rules on no irregularity (no event of the vocabulary with an outcome) but lays down how the game is
conducted is read as a norm: its event is the procedure (``[procedures]`` of the vocabulary) its reading names,
the procedure of the irregularity it reads, or its section heading's (``corpus/annotations/norms.toml``), with the
fact ``force`` and the ruling ``required``, ``forbidden`` or ``permitted`` that the first cue of its wording states,
or ``stated`` (``unmarked_force`` of norms.toml) where the wording has no cue and reads no irregularity: "the
dealer gives five cards, by two and three" lays down the procedure as plainly as "must".
A norm's force is not measured against curation: its confidence is None.

The confidence of an extracted entry is measured, not assumed: the share of the curated laws of the same game
(those with a ruling) on which the same reading gives a curated (event, ruling) pair, among those on which it
gives a ruling at all (its precision; the patterns were written on those laws, so it is an in-sample figure).

Public API::

    extracted = extract_annotations(laws, resources)   # rules.RuleResources; curated entries win in the table
    quality = measure(laws, resources)                  # {game: Quality}: event and ruling agreement with curation
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .model import Law
from .align.provisions import Provision, lead_ins, read_provisions
from .cases import law_cases, load_cues, piece_laws, stated_facts
from .rules import CURATED, EXTRACTED, PROCEDURE, Annotation, EventSpec, RuleResources, Ruling, Vocabulary

ROOT = Path(__file__).resolve().parent.parent
CHOICE = "choice"  # the outcome term of the patterns that says a party chooses between the outcomes stated
DEFAULT_CHOOSER = "adversaries"
NORM_NOTE = "a norm: its force read from the wording"


@dataclass(frozen=True)
class Reading:
    """What the reading of one law gives the rule table: an event and a ruling, or the reason it gives none."""

    law_id: str
    event: str | None = None
    facts: tuple[tuple[str, tuple[str, ...]], ...] = ()
    ruling: Ruling | None = None
    reason: str = ""
    topic: str = ""  # without an event of the vocabulary: the topic read (an event id of the structured reading)
    norm: bool = False  # the ruling is the force of a norm on a procedure, not the remedy of an irregularity
    cases: tuple[tuple[tuple[tuple[str, tuple[str, ...]], ...], Ruling], ...] = ()  # further cases: (facts, ruling)

    def rulings(self) -> tuple[tuple[tuple[tuple[str, tuple[str, ...]], ...], Ruling], ...]:
        """(facts, ruling) of every case the reading gives, the first case first; () without a ruling."""
        return ((self.facts, self.ruling), *self.cases) if self.ruling is not None else ()


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


@dataclass(frozen=True)
class Norms:
    """The cues of a norm (``corpus/annotations/norms.toml``): the force a wording states, per language; the
    procedure a topic of the reading or a section heading names, per game."""

    force: tuple[tuple[str, tuple[tuple[str, re.Pattern[str]], ...]], ...] = ()  # (lang, ((value, cue), ...))
    topics: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # (game, ((topic, procedure), ...))
    headings: tuple[tuple[str, tuple[tuple[re.Pattern[str], str], ...]], ...] = ()  # (game, ((cue, procedure), ...))
    families: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # (game, ((irregularity, procedure), ...))
    facts: tuple[tuple[str, str], ...] = ()  # (a condition of the reading, the vocabulary's fact of that name)
    unmarked: str = ""  # the force of a law on a procedure whose wording has no cue (a plain statement); "" = no norm


def load_norms(corpus_dir: Path = ROOT / "corpus") -> Norms:
    path = Path(corpus_dir) / "annotations" / "norms.toml"
    if not path.is_file():
        return Norms()
    with open(path, "rb") as fh:
        d = tomllib.load(fh)
    force = tuple(
        (lang, tuple((value, re.compile(rf"\b(?:{cue})\b")) for value, cues in values.items() for cue in cues))
        for lang, values in d.get("force", {}).items()
    )
    topics = tuple((game, tuple(m.items())) for game, m in d.get("topics", {}).items())
    headings = tuple(
        (game, tuple((re.compile(cue), proc) for cue, proc in m.items())) for game, m in d.get("headings", {}).items()
    )
    families = tuple(
        (game, tuple((e, proc) for proc, events in m.items() for e in events))
        for game, m in d.get("families", {}).items()
    )
    return Norms(force, topics, headings, families, tuple(d.get("facts", {}).items()), str(d.get("unmarked_force", "")))


def force_of(text: str, lang: str, norms: Norms) -> str | None:
    """The force the wording of a law states: its first cue (the longest at one position), or None."""
    low = text.lower()
    best: tuple[int, int, str] | None = None
    for value, cue in dict(norms.force).get(lang, ()):
        m = cue.search(low)
        if m and (best is None or (m.start(), -(m.end() - m.start())) < (best[0], best[1])):
            best = (m.start(), -(m.end() - m.start()), value)
    return best[2] if best else None


def commonest_choosers(annotations: Sequence[Annotation]) -> dict[tuple[str, str], str]:
    """The party that chooses between remedies as the curated rulings say it most often, per (game, event) and per
    (game, "") for a game's events with none: a law's words seldom name him ("he may either ..."), and "the
    adversary" of an Écarté code is the non-dealer where the dealer erred. Ties go to the first one curated."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for a in annotations:
        if a.status == CURATED and a.ruling is not None and a.ruling.chooser and a.event:
            for key in ((a.game, a.event), (a.game, "")):
                counts.setdefault(key, Counter())[a.ruling.chooser] += 1
    return {k: c.most_common(1)[0][0] for k, c in counts.items()}


def procedure_of(law: Law, read: Sequence[str], voc: Vocabulary, norms: Norms) -> str | None:
    """The procedure a law is about: the first its reading names (directly or through a topic), else the one of the
    first irregularity it reads (its family), else its heading's."""
    aliases = dict(dict(norms.topics).get(law.game, ()))
    for e in read:
        name = aliases.get(e, e)
        spec = voc.event(law.game, name)
        if spec is not None and spec.kind == PROCEDURE:
            return name
    families = dict(dict(norms.families).get(law.game, ()))
    for e in read:
        if e in families and voc.event(law.game, families[e]) is not None:
            return families[e]
    heading = law.heading.lower()
    for cue, proc in dict(norms.headings).get(law.game, ()):
        if heading and cue.search(heading) and voc.event(law.game, proc) is not None:
            return proc
    return None


def reading(
    law: Law,
    p: Provision,
    voc: Vocabulary,
    topics: Mapping[str, Mapping[str, str]],
    norms: Norms = Norms(),
    choosers: Mapping[tuple[str, str], str] | None = None,
) -> Reading:
    """The rule-table reading of one law from its structured reading (see the module docstring); ``choosers``: of
    :func:`commonest_choosers` (default: the adversaries choose)."""
    events = sorted(p.events, key=lambda e: (-e[1], e[0]))
    specs = [voc.event(law.game, e) for e, _, _ in events]
    spec = next((s for s in specs if s is not None and s.kind != PROCEDURE), None)
    if spec is not None:
        ch = choosers or {}
        chooser = ch.get((law.game, spec.name)) or ch.get((law.game, "")) or DEFAULT_CHOOSER
        remedy = _remedy(law, p, voc, spec, dict(norms.facts), chooser)
        if remedy.ruling is not None:
            return remedy
    read = [e for e, _, _ in events]
    proc = procedure_of(law, read, voc, norms)
    force = force_of(law.text, law.lang, norms) if proc else None
    if proc is not None and force is None and spec is None:
        force = norms.unmarked or None  # "The dealer gives five cards": how the game is played, stated plainly
    if proc is not None and force is not None and voc.norm is not None:
        topic = spec.name if spec is not None else proc  # the irregularity the norm is about, where one is read
        return Reading(law.id, proc, ((voc.norm.name, (force,)),), Ruling(force), topic=topic, norm=True)
    if spec is not None:
        return Reading(law.id, spec.name, reason=f"reads {spec.name} but no outcome", topic=spec.name)
    own = topics.get(law.game, {})
    topic = next((e for e in read if e in own), "") or (proc if proc and proc in own else "")
    if topic or proc:
        described = next((e.description for e in voc.events_of(law.game) if e.name == proc), "")
        why = own.get(topic) or described.removeprefix(f"({PROCEDURE}) ").rstrip(".").lower() or str(proc)
        return Reading(law.id, reason=f"{why}; no duty, prohibition or permission stated", topic=topic or proc or "")
    return Reading(
        law.id,
        reason=f"reads {', '.join(read)}: no event of the vocabulary" if read else "no event read",
        topic=read[0] if read else "",
    )


def affirmed(text: str, outcomes: Sequence[tuple[str, str]], penalties: Sequence[str] = ()) -> list[str]:
    """The outcome terms of ``outcomes`` ((term, words read)) that ``text`` does not deny (:func:`_denied`): "it is
    not deemed to be played", "may not be withdrawn", "no fresh deal can be demanded" state the opposite of the words
    read.  A penalty is never denied: its words are often the denial itself ("cannot mark the king")."""
    low = text.lower()
    return [t for t, words in outcomes if t in penalties or not _denied(low, words.lower())]


def _denied(low: str, words: str) -> bool:
    """``words`` are denied in ``low`` ("not deemed to be played"), and not as "not ... unless" (only if: "is not
    held to be played unless it lies partly upon the adversary's card" states when it is played)."""
    cues = load_cues()
    m = re.search(rf"\b(?:{cues.denial})\s+(?:\w+\s+)?{re.escape(words)}", low)
    return m is not None and not cues.unless.search(low, m.end())


def _ruling(terms: Sequence[str], voc: Vocabulary, chooser: str) -> Ruling | None:
    """The ruling outcome terms state: a choice given to ``chooser`` between two outcomes or more where a choice is
    read, else the first outcome stated; the penalties stated with it.  An outcome another read outcome states in
    substance (the vocabulary's [implies]: the suit named played is the card taken up) is not an option of its own."""
    implied = {i for t in terms for i in dict(voc.implies).get(t, ())}
    terms = [t for t in terms if t not in implied]
    outcomes = [t for t in voc.outcomes if t in terms]
    penalties = tuple(t for t in voc.penalties if t in terms)
    if CHOICE in terms and len(outcomes) >= 2:
        return Ruling(None, tuple(outcomes), chooser, penalties)
    if outcomes:
        return Ruling(min(outcomes, key=list(terms).index), (), None, penalties)
    if penalties:
        return Ruling(None, (), None, penalties)
    return None


def _remedy(
    law: Law, p: Provision, voc: Vocabulary, spec: EventSpec, names: Mapping[str, str], chooser: str = DEFAULT_CHOOSER
) -> Reading:
    """The ruling an irregularity's law states with its outcome terms (a choice given to ``chooser``), or none; a law
    whose clauses state two cases with remedies of their own (:func:`pipeline.cases.law_cases`) gives one ruling per
    case."""
    ruling = _ruling(affirmed(law.text, p.outcomes, voc.penalties), voc, chooser)
    if ruling is None:
        return Reading(law.id, spec.name)
    domains = {f.name: tuple(f.values) for f in spec.facts}

    def renamed(conditions: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        return [(names.get(f, f), v, words) for f, v, words in conditions]  # (the reading's names -> the facts')

    stated = stated_facts(law.text, renamed(p.conditions), domains, tuple(words for _, words in p.outcomes))
    facts = [(f.name, tuple(v for v in f.values if v in stated[f.name])) for f in spec.facts if f.name in stated]

    def read(texts: Sequence[str]) -> list[tuple[list[tuple[str, str, str]], list[str]]]:
        pls = piece_laws(law, texts)
        got = read_provisions(pls)
        return [
            (
                renamed(got[pl.id].conditions),
                affirmed(pl.text, got[pl.id].outcomes, voc.penalties),
            )
            for pl in pls
        ]

    cases = []
    for case_facts, terms in law_cases(law, domains, frozenset(voc.outcomes) | frozenset(voc.penalties), read):
        r = _ruling(terms, voc, chooser)
        if r is not None:
            cases.append((case_facts, r))
    if len(cases) >= 2:
        return Reading(law.id, spec.name, cases[0][0], cases[0][1], cases=tuple(cases[1:]))
    return Reading(law.id, spec.name, tuple(facts), ruling)


def read_laws(
    laws: Sequence[Law],
    voc: Vocabulary,
    corpus_dir: Path = ROOT / "corpus",
    with_norms: bool = True,
    choosers: Mapping[tuple[str, str], str] | None = None,
    leads: Mapping[str, str] | None = None,
) -> dict[str, Reading]:
    """The rule-table reading of each law (by id); without norms, the remedies of irregularities only; ``choosers``:
    who chooses between remedies (:func:`commonest_choosers` of the curation; default: the adversaries); ``leads``:
    the lead-ins of clauses (:func:`pipeline.align.provisions.lead_ins`), read with a clause that reads no event."""
    provisions = read_provisions(laws, leads=leads)
    topics, norms = load_topics(corpus_dir), load_norms(corpus_dir) if with_norms else Norms()
    return {law.id: reading(law, provisions[law.id], voc, topics, norms, choosers) for law in laws}


def measure(
    laws: Sequence[Law],
    resources: RuleResources,
    corpus_dir: Path = ROOT / "corpus",
    choosers: Mapping[tuple[str, str], str] | None = None,
) -> dict[str, Quality]:
    """Per game: how often the reading of a curated law gives its curated event, and a curated ruling."""
    curated: dict[str, list[Annotation]] = {}
    for a in resources.annotations:
        if a.status == CURATED and a.ruling is not None:
            curated.setdefault(a.law_id, []).append(a)
    subject = [law for law in laws if law.id in curated]
    if choosers is None:  # (learnt from the same curation: an in-sample figure)
        choosers = commonest_choosers(resources.annotations)
    readings = read_laws(subject, resources.vocabulary, corpus_dir, with_norms=False, choosers=choosers)
    out: dict[str, list[int]] = {}
    for law in subject:
        r, anns = readings[law.id], curated[law.id]
        q = out.setdefault(law.game, [0, 0, 0, 0])
        q[0] += 1
        q[1] += any(a.event == r.event for a in anns)
        if r.ruling is not None:
            q[2] += 1
            q[3] += any(a.event == r.event and a.ruling in {ru for _, ru in r.rulings()} for a in anns)
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
    choosers = commonest_choosers(resources.annotations)
    measured = measure(laws if measured_on is None else measured_on, resources, corpus_dir, choosers)
    confidence = {g: q.confidence for g, q in measured.items()}
    out = []
    readings = read_laws(todo, resources.vocabulary, corpus_dir, choosers=choosers, leads=lead_ins(laws))
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
        elif r.norm:  # a norm: its force read from the wording, which no curation measures
            out.append(Annotation(event=r.event, facts=r.facts, ruling=r.ruling, note=NORM_NOTE, **common))  # type: ignore[arg-type]
        else:
            conf = confidence.get(law.game, 0.0)
            note = f"one of {len(r.cases) + 1} cases its clauses state" if r.cases else ""
            out.extend(
                Annotation(event=r.event, facts=facts, ruling=ruling, confidence=conf, note=note, **common)  # type: ignore[arg-type]
                for facts, ruling in r.rulings()
            )
    return tuple(out)
