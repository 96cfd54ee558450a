"""The referee: facts about an irregularity in, a ruling out, with the laws it rests on.

It reads the rule table only (``outputs/rules.json``, or ``rules.csv``, or a ``RuleTable`` / DataFrame in
memory), never the law texts. Semantics, for the rows of one ruleset (the named canonical ruleset, or the
witness given as ``source``) and one game and event:

* every fact given must be a fact of the event with one of its values (else a one-line error listing them);
* a fact the caller omits is filled with its vocabulary default if it has one;
* the ruling is decided when every completion of the still-missing facts (over their values) is matched by a
  row with the same ruling; the citations are those rows' laws. A missing fact on which the ruling depends is
  an error that names it and its values; facts no row distinguishes may always be omitted.

Command line (wired as ``python -m pipeline referee``)::

    referee GAME EVENT [key=value ...] [--source WITNESS] [--json] [--rules PATH]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import PipelineError
from .rules import (
    CSV_COLUMNS,
    CURATED,
    Citation,
    EventSpec,
    FactSpec,
    Row,
    RuleTable,
    RuleTableError,
    Ruling,
    Vocabulary,
    parse_law_id,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RULES = ROOT / "outputs" / "rules.json"


class RefereeError(PipelineError):
    """A question the referee cannot answer as asked; the message says what is accepted."""


class UnknownGameError(RefereeError):
    pass


class UnknownEventError(RefereeError):
    pass


class UnknownFactError(RefereeError):
    pass


class UnknownValueError(RefereeError):
    pass


class UnknownSourceError(RefereeError):
    pass


class MissingFactError(RefereeError):
    """A fact the ruling depends on was not given."""


class NoRulingError(RefereeError):
    """The laws of the ruleset do not rule on these facts."""


@dataclass(frozen=True)
class Decision:
    game: str
    event: str
    facts: tuple[tuple[str, str], ...]  # as asked (in the event's fact order)
    source: str | None  # the witness asked for; None = the canonical ruleset
    ruling: Ruling
    citations: tuple[Citation, ...]
    ruleset: str = ""  # the ruleset that answered (not part of the JSON answer)
    note: str = ""
    status: str = CURATED  # "extracted": the ruling rests on a row read by the patterns, not reviewed
    confidence: float | None = None  # then: the measured accuracy of such readings (the lowest of its rows)
    dissent: tuple[str, ...] = ()  # laws of other witnesses that rule otherwise on these facts

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "event": self.event,
            "facts": dict(self.facts),
            "source": self.source,
            "ruling": self.ruling.to_dict(),
            "citations": [c.to_dict() for c in self.citations],
            "status": self.status,
            "confidence": self.confidence,
            "dissent": list(self.dissent),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def text(self) -> str:
        asked = " ".join(f"{k}={v}" for k, v in self.facts)
        r = self.ruling
        lines = [f"{self.game} / {self.event}{' ' + asked if asked else ''}  (ruleset: {self.ruleset})"]
        if r.outcome:
            lines.append(f"ruling:    {r.outcome}")
        if r.options:
            lines.append(f"options:   {', '.join(r.options)}  (chosen by {r.chooser})")
        if r.penalties:
            lines.append(f"penalties: {', '.join(r.penalties)}")
        lines.append("laws:      " + "; ".join(_cite_text(c) for c in self.citations))
        if self.status != CURATED:
            conf = "not measured" if self.confidence is None else self.confidence
            lines.append(f"status:    {self.status} (read by the patterns, not reviewed; confidence {conf})")
        if self.dissent:
            lines.append("otherwise: " + "; ".join(self.dissent) + "  (laws of other witnesses that rule otherwise)")
        if self.note:
            lines.append(f"note:      {self.note}")
        return "\n".join(lines)


def _cite_text(c: Citation) -> str:
    return f"{c.law_id} ({c.witness}{'' if c.number is None else f', law {c.number}'})"


# ---------------------------------------------------------------- loading


def load_rule_table(path: Path | str = DEFAULT_RULES) -> RuleTable:
    """Read a rule table written by the build: ``rules.json`` (complete) or ``rules.csv`` (the vocabulary is
    then inferred from the rows: defaults of facts are not known)."""
    path = Path(path)
    if not path.is_file():
        raise RuleTableError(f"{path}: no such rule table; run the build (make) or pass --rules PATH")
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise TypeError(f"the file holds a JSON {type(data).__name__}, not an object")
            return RuleTable.from_dict(data)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise RuleTableError(f"{path}: not a rule table ({exc}); pass the rules.json of a build") from None
    if path.suffix == ".csv":
        import pandas as pd

        return table_from_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
    raise RuleTableError(f"{path}: expected rules.json or rules.csv")


def table_from_frame(df) -> RuleTable:
    """A ``RuleTable`` from the DataFrame of ``RuleTable.to_frame()`` / ``rules.csv``."""
    missing = [c for c in CSV_COLUMNS if c not in df.columns]
    if missing:
        raise RuleTableError(f"not a rule table frame: missing column(s) {', '.join(missing)}")

    def split(x) -> tuple[str, ...]:
        return tuple(v for v in str(x or "").split(";") if v)

    rows = []
    for rec in df.to_dict("records"):
        facts = tuple((k, tuple(v.split("|"))) for k, v in (p.split("=", 1) for p in split(rec["facts"])))
        cites = tuple(Citation(i, parse_law_id(i)[1], parse_law_id(i)[2]) for i in split(rec["citations"]))
        ruling = Ruling(rec["outcome"] or None, split(rec["options"]), rec["chooser"] or None, split(rec["penalties"]))
        rows.append(
            Row(
                rec["ruleset"],
                rec["game"],
                rec["event"],
                facts,
                ruling,
                cites,
                split(rec["dissent"]),
                rec["note"] or "",
                rec.get("status") or CURATED,
                float(rec["confidence"]) if rec.get("confidence") else None,
            )
        )
    rulesets = list(dict.fromkeys(r.ruleset for r in rows))
    witnesses = {c.witness for r in rows for c in r.citations}
    canon = [rs for rs in rulesets if rs not in witnesses]
    if len(canon) != 1:
        raise RuleTableError(f"cannot tell the canonical ruleset among {', '.join(rulesets)}")
    games = tuple(dict.fromkeys(r.game for r in rows))
    events = []
    for game in games:
        for ev in dict.fromkeys(r.event for r in rows if r.game == game):
            values: dict[str, list[str]] = {}
            for r in rows:
                if r.game == game and r.event == ev:
                    for k, vs in r.facts:
                        values.setdefault(k, [])
                        values[k] += [v for v in vs if v not in values[k]]
            events.append(EventSpec(game, ev, tuple(FactSpec(k, tuple(v)) for k, v in values.items())))
    outcomes = tuple(dict.fromkeys(t for r in rows for t in [r.ruling.outcome, *r.ruling.options] if t))
    penalties = tuple(dict.fromkeys(p for r in rows for p in r.ruling.penalties))
    parties = tuple(dict.fromkeys(r.ruling.chooser for r in rows if r.ruling.chooser))
    voc = Vocabulary(games, parties, outcomes, penalties, tuple(events))
    # witness precedence as the canonical rows cite it (their citations are in precedence order)
    order: list[str] = []
    for r in sorted((r for r in rows if r.ruleset == canon[0]), key=lambda r: -len(r.sources)):
        order += [w for w in r.sources if w not in order]
    order += [w for w in rulesets if w not in order and w != canon[0]]
    return RuleTable(canon[0], voc, tuple(rows), (canon[0], *[w for w in order if w in rulesets]))


# ---------------------------------------------------------------- adjudication


def adjudicate(
    table, game: str, event: str, facts: Mapping[str, str] | None = None, source: str | None = None
) -> Decision:
    """Rule on an irregularity by the rule table (a ``RuleTable`` or its DataFrame). See the module docstring."""
    if not isinstance(table, RuleTable):
        table = table_from_frame(table)
    facts = dict(facts or {})
    voc = table.vocabulary
    if game not in voc.games:
        raise UnknownGameError(f"unknown game {game!r}; accepted: {', '.join(voc.games)}")
    spec = voc.event(game, event)
    if spec is None:
        raise UnknownEventError(
            f"unknown event {event!r} for {game}; accepted: {', '.join(e.name for e in voc.events_of(game))}"
        )
    accepted_facts = "; ".join(f"{f.name}={'|'.join(f.values)}" for f in spec.facts) or "no facts"
    for k, v in facts.items():
        f = spec.fact(k)
        if f is None:
            raise UnknownFactError(f"unknown fact {k!r} for {game}/{event}; accepted: {accepted_facts}")
        if v not in f.values:
            raise UnknownValueError(f"unknown value {k}={v!r} for {game}/{event}; accepted: {k}={'|'.join(f.values)}")
    game_rulesets = [rs for rs in table.rulesets if any(r.ruleset == rs and r.game == game for r in table.rows)]
    if source is not None and (source == table.canonical or source not in game_rulesets):
        witnesses = [rs for rs in game_rulesets if rs != table.canonical]
        raise UnknownSourceError(
            f"unknown source {source!r} for {game}; accepted: {', '.join(witnesses)} (or none: the canonical ruleset '{table.canonical}')"
        )
    ruleset = source or table.canonical
    rows = [r for r in table.rows if r.ruleset == ruleset and r.game == game and r.event == event]
    asked = tuple((f.name, facts[f.name]) for f in spec.facts if f.name in facts)
    if not rows:
        ruled = sorted({r.event for r in table.rows if r.ruleset == ruleset and r.game == game})
        raise NoRulingError(f"{ruleset} has no ruling on {game}/{event}; it rules on: {', '.join(ruled)}")
    used = [f for f in spec.facts if any(k == f.name for r in rows for k, _ in r.facts)]
    query = dict(facts)
    for f in used:
        if f.name not in query and f.default is not None:
            query[f.name] = f.default
    missing = [f for f in used if f.name not in query]
    outcomes: dict[tuple[str, ...], Row | None] = {}
    for combo in itertools.product(*[f.values for f in missing]):
        a = {**query, **{f.name: v for f, v in zip(missing, combo)}}
        hits = [r for r in rows if r.matches(a)]
        if len(hits) > 1:
            raise RuleTableError(f"rule table is inconsistent: {len(hits)} rows of {ruleset} match {game}/{event} {a}")
        outcomes[combo] = hits[0] if hits else None
    rulings = {None if r is None else r.ruling for r in outcomes.values()}
    if len(rulings) == 1 and None not in rulings:
        found = [r for r in outcomes.values() if r is not None]  # all of them: no outcome is None here
        ruling = rulings.pop()
        assert ruling is not None
        rank = {rs: i for i, rs in enumerate(table.rulesets)}
        cites = tuple(
            sorted(
                dict.fromkeys(c for r in found for c in r.citations),
                key=lambda c: (rank.get(c.witness, len(rank)), c.number is None, c.number or 0, c.law_id),
            )
        )
        note = " / ".join(dict.fromkeys(n for r in found for n in r.note.split(" / ") if n))
        extracted = [r for r in found if r.status != CURATED]
        measured = [r.confidence for r in extracted if r.confidence is not None]  # a norm's force is not measured
        status = "extracted" if extracted else CURATED
        dissent = tuple(dict.fromkeys(x for r in found for x in r.dissent))
        return Decision(
            game, event, asked, source, ruling, cites, ruleset, note, status, min(measured, default=None), dissent
        )
    if rulings == {None}:
        given = " ".join(f"{k}={v}" for k, v in query.items()) or "no facts"
        exist = " | ".join(r.facts_text() or "(any facts)" for r in rows)
        raise NoRulingError(f"{ruleset} has no ruling on {game}/{event} with {given}; it rules on: {exist}")
    deciding = []
    for i, f in enumerate(missing):
        for combo, r in outcomes.items():
            for v in f.values:
                other = outcomes[combo[:i] + (v,) + combo[i + 1 :]]
                if (None if r is None else r.ruling) != (None if other is None else other.ruling):
                    deciding.append(f)
                    break
            if deciding and deciding[-1] is f:
                break
    need = deciding or missing
    raise MissingFactError(
        f"the ruling on {game}/{event} depends on {', '.join(f.name for f in need)}; give "
        + " ".join(f"{f.name}={'|'.join(f.values)}" for f in need)
    )


def ruler_for(table, game: str) -> Callable[[str, Mapping[str, str]], Decision]:
    """``(event, facts) -> Decision`` for ``game`` from a rule table (``RuleTable``, DataFrame, or a path to
    rules.json): what a game model asks."""
    if isinstance(table, (str, Path)):
        table = load_rule_table(table)
    return lambda event, facts: adjudicate(table, game, event, dict(facts))


def resolve_reported(resolve: Callable, state: Any, irr: Any, ruler: Callable, rng: Any, on_ruling: Callable | None):
    """A game model's ``resolve(state, irr, ruler, rng) -> (state, decision)``, reported to ``on_ruling(irr,
    decision, "")``; a question the referee cannot answer is reported as ``on_ruling(irr, None, why)`` and gives
    None (the caller undoes the irregularity)."""
    try:
        after, decision = resolve(state, irr, ruler, rng)
    except RefereeError as exc:
        if on_ruling:
            on_ruling(irr, None, str(exc))
        return None
    if on_ruling:
        on_ruling(irr, decision, "")
    return after


# ---------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    """``referee GAME EVENT [key=value ...] [--source WITNESS] [--json] [--rules PATH]``; 0 on a ruling, 2 on an error."""
    p = argparse.ArgumentParser(
        prog="python -m pipeline referee",
        description="Rule on an irregularity by the rule table (outputs/rules.json); cites the laws of every witness that states the ruling.",
    )
    p.add_argument("game", help="ecarte | whist")
    p.add_argument("event", help="the irregularity, e.g. deal_out_of_turn")
    p.add_argument(
        "facts", nargs="*", metavar="key=value", help="facts of the irregularity, e.g. discovered=after_trump"
    )
    p.add_argument("--source", default=None, help="answer by this witness's laws (default: the canonical ruleset)")
    p.add_argument("--json", action="store_true", help="print the decision as JSON")
    p.add_argument("--rules", default=str(DEFAULT_RULES), help="the rule table (default: %(default)s)")
    args = p.parse_intermixed_args(list(sys.argv[1:] if argv is None else argv))
    try:
        facts: dict[str, str] = {}
        for item in args.facts:
            if "=" not in item:
                raise UnknownFactError(f"expected key=value, got {item!r}; e.g. discovered=after_trump")
            k, v = item.split("=", 1)
            if k in facts:
                raise UnknownFactError(f"fact {k!r} given twice ({k}={facts[k]} and {item}); give each fact once")
            facts[k] = v
        decision = adjudicate(load_rule_table(args.rules), args.game, args.event, facts, args.source)
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(decision.to_json() if args.json else decision.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
