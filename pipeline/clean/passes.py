"""What a cleaning pass is: a named object with one signature, ``run(text, ctx) -> PassResult``.

A pass reads the current text (the raw text with the corrections of the earlier passes applied) and the
shared :class:`PassContext`, and proposes edits in current-text offsets; the orchestrator
(:mod:`pipeline.clean.stage`) applies them.  A pass also names the :class:`~pipeline.clean.config.CleanConfig`
fields that switch it on (``switches``: all must be true), may narrow where it applies (``applies``: the
language, domain or general resources, a data file that is empty) and may run several rounds
(``rounds``: a config field; the rounds stop at the first that changes nothing).  The passes, in order,
are listed in :mod:`pipeline.clean.registry`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from .edits import Edit

if TYPE_CHECKING:
    from .config import CleanConfig
    from .edits import EditBuffer
    from .layout import PendingBreak
    from .lexicon import LexiconData
    from .repairer import Repairer

# a word left as printed and flagged: (start, end, token, candidates, confidence, evidence), current text
FlagSpec = tuple[int, int, str, tuple[str, ...], float, str]
# a historical spelling kept and regularised: (start, end, token, regularised form), current text
RegSpec = tuple[int, int, str, str]


@dataclass(frozen=True)
class PassResult:
    """What one run of a pass proposes: edits, flagged words, regularisations and page breaks."""

    edits: list[Edit] = field(default_factory=list)
    flags: list[FlagSpec] = field(default_factory=list)
    regs: list[RegSpec] = field(default_factory=list)
    breaks: list["PendingBreak"] = field(default_factory=list)


@dataclass(frozen=True)
class PassContext:
    """What every pass may read: the settings, the resources' data files and repair engine, and the edit
    buffer (for raw offsets: the running-head pass records the raw span of each page break)."""

    cfg: "CleanConfig"
    lang: str
    lex: "LexiconData"
    rep: "Repairer"
    buf: "EditBuffer"


def _always(ctx: PassContext) -> bool:
    return True


@dataclass(frozen=True)
class Pass:
    """One cleaning pass of the registry."""

    name: str
    run: Callable[[str, PassContext], PassResult]
    switches: tuple[str, ...] = ()  # CleanConfig fields that must all be true for the pass to run
    applies: Callable[[PassContext], bool] = _always  # further conditions (language, domain resources ...)
    rounds: str = ""  # a CleanConfig field: run up to this many times, until a round changes nothing
    doc: str = ""  # one line for ``clean --explain`` and the docs

    def enabled(self, ctx: PassContext) -> bool:
        return all(getattr(ctx.cfg, s) for s in self.switches) and self.applies(ctx)

    def n_rounds(self, cfg: "CleanConfig") -> int:
        return int(getattr(cfg, self.rounds)) if self.rounds else 1


def edits_only(fn: Callable[[str, PassContext], list[Edit]]) -> Callable[[str, PassContext], PassResult]:
    """A pass whose work is a list of edits."""

    def run(text: str, ctx: PassContext) -> PassResult:
        return PassResult(fn(text, ctx))

    run.__name__ = getattr(fn, "__name__", "run")
    run.__doc__ = fn.__doc__
    return run
