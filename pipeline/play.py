"""Seeded games of the playable models with irregularities injected and resolved by the referee, and their summary.

``play_games("whist", 100, seed=3, table=rule_table)`` plays 100 games (the i-th with seed ``seed + i``) of
``pipeline.whist`` or ``pipeline.ecarte``; every irregularity goes to the referee, and the summary counts those
resolved (a ruling citing at least one law, after which the state is legal) and lists, once each, the kinds and
reasons of those that were not. Command line: ``python -m pipeline play GAME [--games N] [--seed S] [--json]``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .errors import PipelineError

GAMES = ("ecarte", "whist")


class PlayError(PipelineError):
    """A game the command cannot play as asked."""


@dataclass(frozen=True)
class PlaySummary:
    games: int
    irregularities: int
    resolved: int
    kinds: tuple[tuple[str, int], ...]  # (event, how many were injected), most frequent first
    unresolved: tuple[tuple[str, str], ...]  # (event, why), each distinct pair once

    def to_dict(self) -> dict:
        return {
            "games": self.games,
            "irregularities": self.irregularities,
            "resolved": self.resolved,
            "kinds": dict(self.kinds),
            "unresolved": [{"kind": k, "why": w} for k, w in self.unresolved],
        }

    def text(self, game: str) -> str:
        share = self.resolved / self.irregularities if self.irregularities else 1.0
        lines = [
            f"{game}: {self.games} games, {self.irregularities} irregularities, {self.resolved} resolved "
            f"with a citation ({share:.1%}), {len(self.kinds)} kinds",
            *(f"  {k:32} {n}" for k, n in self.kinds),
        ]
        if self.unresolved:
            lines.append("unresolved:")
            lines += [f"  {k}: {w}" for k, w in self.unresolved]
        return "\n".join(lines)


def _model(game: str) -> ModuleType:
    if game == "whist":
        from . import whist

        return whist
    if game == "ecarte":
        from . import ecarte

        return ecarte
    raise PlayError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")


def play_games(game: str, games: int, seed: int, table: Any) -> PlaySummary:
    """Play ``games`` seeded games of ``game`` with the referee of rule table ``table`` (see the module doc)."""
    if games < 1:
        raise PlayError(f"--games must be at least 1, not {games}")
    model = _model(game)
    ruler = model.referee_for(table)
    kinds: Counter[str] = Counter()
    unresolved: dict[tuple[str, str], None] = {}
    resolved = 0
    last: list[Any] = [None]  # the state the last ruling left

    def on_ruling(irr, decision, why: str) -> None:
        nonlocal resolved
        kinds[irr.event] += 1
        if decision is None:
            unresolved[(irr.event, why)] = None
        elif not decision.citations:
            unresolved[(irr.event, "the ruling cites no law")] = None
        else:
            resolved += 1
            last[0] = irr.event

    def on_state(s) -> None:
        if last[0] is None:
            return
        errs = model.check_legal(s)
        if errs:
            nonlocal resolved
            resolved -= 1
            unresolved[(last[0], "illegal state after the ruling: " + "; ".join(errs))] = None
        last[0] = None

    for i in range(games):
        model.play_game(seed + i, ruler, on_state=on_state, on_ruling=on_ruling)
    return PlaySummary(
        games,
        sum(kinds.values()),
        resolved,
        tuple(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
        tuple(unresolved),
    )


def main(game: str, games: int, seed: int, as_json: bool, rules: Path) -> int:
    from .referee import load_rule_table

    summary = play_games(game, games, seed, load_rule_table(rules))
    print(json.dumps(summary.to_dict(), ensure_ascii=False) if as_json else summary.text(game))
    return 0
