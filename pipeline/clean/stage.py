"""The orchestrator of the clean stage: the passes of :mod:`pipeline.clean.registry` run in order on one
text, each where its configuration switches it on, and what each changed is recorded (``clean
--explain`` prints it).  Raw OCR / transcription text -> reading text + every change as a Correction,
``replay(raw, corrections) == text``.

General mode (``general_resources``: no domain lexicon) is measured on ICDAR 2017: French repairs there are
conservative (no guessed splits/elisions; non-word repairs only with a clearly unique candidate), and the
passes that need a book's own evidence or were measured harmful on press text are off (the ``general_*``
fields and comments of :class:`~pipeline.clean.config.CleanConfig`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Callable

from ..model import Cleaned, Flag, PageBreak, Regularisation, Witness, WitnessText, offset_maps
from .config import CleanConfig
from .edits import EditBuffer
from .guards import cut_off_flag, guarded, known_words_kept
from .layout import PendingBreak, form_feed_breaks
from .memo import fewer_collections
from .passes import FlagSpec, Pass, PassContext, PassResult, RegSpec
from .registry import REGISTRY
from .resources import CleanResources, general_resources


@dataclass(frozen=True)
class PassChange:
    """One edit a pass made: the raw span it covers (before the pass), the text it replaced, its result."""

    start: int
    end: int
    before: str
    after: str
    kind: str
    method: str
    evidence: str


@dataclass(frozen=True)
class PassLog:
    """What one run of a pass changed (a pass of several rounds has one log per round)."""

    name: str
    changes: tuple[PassChange, ...]
    flags: int = 0


@dataclass(frozen=True)
class _Run:
    buf: EditBuffer
    breaks: tuple[PendingBreak, ...]
    flags: tuple[Flag, ...]
    regs: tuple[Regularisation, ...]
    log: tuple[PassLog, ...]


def _logged(p: Pass, buf: EditBuffer, r: PassResult) -> PassLog:
    changes = []
    for e in r.edits:
        rs, re_ = buf.raw_span(e.start, e.end)
        changes.append(PassChange(rs, re_, buf.text[e.start : e.end], e.after, e.kind, e.method, e.evidence))
    return PassLog(p.name, tuple(changes), len(r.flags))


def _run(
    raw: str,
    resources: CleanResources,
    config: CleanConfig,
    passes: tuple[Pass, ...] = REGISTRY,
    on_pass: Callable[[str], None] | None = None,
    keep_known_words: bool = False,
) -> _Run:
    """The passes over ``raw``; ``keep_known_words``: a transcription's known words are flagged, not changed
    (:func:`pipeline.clean.guards.known_words_kept`)."""
    buf = EditBuffer(raw)
    ctx = PassContext(config, resources.lang, resources.lexdata, resources.repairer(config), buf)
    breaks: list[PendingBreak] = []
    flags: list[Flag] = []
    regs: list[Regularisation] = []
    log: list[PassLog] = []
    for p in passes:
        if on_pass is not None:
            on_pass(p.name)  # (progress: the pass about to run, or be skipped)
        if not p.enabled(ctx):
            continue
        for _round in range(p.n_rounds(config)):
            r = guarded(buf.text, p.run(buf.text, ctx), not resources.lexdata.domain)  # (see pipeline.clean.guards)
            if keep_known_words:
                r = known_words_kept(buf.text, r)
            log.append(_logged(p, buf, r))
            breaks.extend(r.breaks)
            buf.apply(r.edits)
            # flags/regs were found on the text before this pass's edits: recompute their raw spans
            # from the corrections (words kept as printed are not inside any correction)
            _flags_regs_from_prev(buf, r.flags, r.regs, flags, regs)
            if not (r.edits or r.flags or r.regs):
                break  # (a pass of several rounds: a round that changes nothing ends it)
    cut = cut_off_flag(buf.text, ctx.rep) if config.repair_words else None
    if cut is not None:
        _flags_regs_from_prev(buf, [cut], [], flags, regs)
    return _Run(buf, tuple(breaks), tuple(_exact_flags(flags, buf)), tuple(regs), tuple(log))


def _exact_flags(flags: list[Flag], buf: EditBuffer) -> list[Flag]:
    """One flag per flagged word (the first pass's), and none on a word a correction changed (the
    corrections are sorted and do not overlap: only the last one starting before the word's end can)."""
    starts = [c.start for c in buf.corrections]
    out, seen = [], set()
    for f in flags:
        k = bisect_left(starts, f.end) - 1
        c = buf.corrections[k] if k >= 0 else None
        if (f.start, f.end) in seen or (c is not None and (c.end > f.start or f.start < c.start == c.end)):
            continue
        seen.add((f.start, f.end))
        out.append(f)
    return out


def _flags_regs_from_prev(
    buf: EditBuffer, fl: list[FlagSpec], rg: list[RegSpec], flags: list[Flag], regs: list[Regularisation]
) -> None:
    # The spans were taken on the text before the pass; the pass only changed other words, so we
    # locate each flagged word by searching its text near the old position in the new text.
    for s, e, t, cands, conf, why in fl:
        pos = _relocate(buf.text, t, s)
        if pos is None:
            continue
        rs, re_ = buf.raw_span(pos, pos + len(t))
        if buf.raw[rs:re_] == t:
            flags.append(Flag(rs, re_, t, tuple(cands), conf, why))
    for s, e, t, reg in rg:
        pos = _relocate(buf.text, t, s)
        if pos is None:
            continue
        rs, re_ = buf.raw_span(pos, pos + len(t))
        if buf.raw[rs:re_] == t:
            regs.append(Regularisation(rs, re_, t, reg))


def _relocate(text: str, t: str, s: int) -> int | None:
    lo = max(0, s - 200)
    best = None
    i = text.find(t, lo, s + 200 + len(t))
    while i != -1 and i <= s + 200:
        if best is None or abs(i - s) < abs(best - s):
            best = i
        i = text.find(t, i + 1, s + 200 + len(t))
    return best


def clean_explained(
    text: WitnessText,
    resources: CleanResources,
    config: CleanConfig = CleanConfig(),
    on_pass: Callable[[str], None] | None = None,
    passes: tuple[Pass, ...] = REGISTRY,
) -> tuple[Cleaned, tuple[PassLog, ...]]:
    """:func:`clean`, with what each pass changed, in the order the passes ran (``on_pass`` is called
    with each pass's name before it runs: a progress display; ``passes``: these of the registry only)."""
    raw = text.raw
    with fewer_collections():  # (speed only: the cyclic collector's thresholds, see pipeline.clean.memo)
        keep = config.transcription_keeps_known_words and text.witness.kind == "transcription"
        run = _run(raw, resources, config, passes, on_pass=on_pass, keep_known_words=keep)
    corrections = tuple(run.buf.corrections)
    _, raw_to_clean = offset_maps(raw, corrections)
    breaks = tuple(
        PageBreak(p.raw_start, p.raw_end, raw_to_clean[p.raw_start], p.page, p.head, p.printed)
        for p in run.breaks + form_feed_breaks(raw, run.breaks)
    )
    cleaned = Cleaned(
        witness_id=text.witness.id,
        raw=raw,
        text=run.buf.text,
        corrections=corrections,
        page_breaks=breaks,
        flags=tuple(sorted(run.flags, key=lambda f: f.start)),
        regularisations=tuple(sorted(run.regs, key=lambda r: r.start)),
    )
    return cleaned, run.log


def clean(text: WitnessText, resources: CleanResources, config: CleanConfig = CleanConfig()) -> Cleaned:
    """Clean one witness.  ``replay(text.raw, result.corrections) == result.text``."""
    return clean_explained(text, resources, config)[0]


def _text_witness(s: str, lang: str) -> WitnessText:
    w = Witness(id="text", file="-", game="ecarte", lang=lang, kind="ocr", title="text")
    return WitnessText(w, s)


def clean_text(
    s: str,
    lang: str,
    resources: CleanResources | None = None,
    config: CleanConfig = CleanConfig(),
    passes: tuple[Pass, ...] = REGISTRY,
) -> str:
    """Clean any text (general resources when none are given; ``passes``: these of the registry only)."""
    res = resources if resources is not None else general_resources(lang)
    return clean_explained(_text_witness(s, lang), res, config, passes=passes)[0].text


def explain_text(
    s: str,
    lang: str,
    resources: CleanResources | None = None,
    config: CleanConfig = CleanConfig(),
    on_pass: Callable[[str], None] | None = None,
) -> tuple[Cleaned, tuple[PassLog, ...]]:
    """:func:`clean_text` with the result in full and what each pass changed (``clean --explain``)."""
    res = resources if resources is not None else general_resources(lang)
    return clean_explained(_text_witness(s, lang), res, config, on_pass)


def clean_lines(
    lines: list[str], lang: str, resources: CleanResources | None = None, config: CleanConfig = CleanConfig()
) -> list[str]:
    """Clean each line on its own (the ``--lines`` mode): exactly as many lines out as in.

    Layout removal and hyphen joins across lines are off; a line that cleans to nothing stays empty.
    """
    cfg = replace(config, remove_layout=False) if config.remove_layout else config
    out = []
    for line in lines:
        t = clean_text(line.rstrip("\n"), lang, resources, cfg)
        out.append(t.replace("\n", " "))
    return out


def removed_lines(cleaned: Cleaned) -> list[tuple[int, str]]:
    """The raw lines a pass removed whole (web debris, running heads, page numbers): (line number, reason)
    of each line whose printed text lies inside a correction that leaves nothing of it."""
    out = []
    raw = cleaned.raw
    for c in cleaned.corrections:
        if c.after.strip() or not c.before.strip():
            continue
        pos = c.start
        for line in c.before.split("\n"):
            s, e = pos, pos + len(line)
            ls = raw.rfind("\n", 0, s) + 1
            le = raw.find("\n", e)
            le = len(raw) if le == -1 else le
            full = raw[ls:le]
            lead = len(full) - len(full.lstrip())
            if line.strip() and ls + lead >= c.start and ls + len(full.rstrip()) <= c.end:
                out.append((raw.count("\n", 0, ls) + 1, c.evidence))
            pos = e + 1
    return out


def explanation(cleaned: Cleaned, log: tuple[PassLog, ...]) -> list[str]:
    """The lines ``clean --explain`` prints: each change as ``pass, raw line, before -> after, kind,
    method, evidence`` (tab-separated) in the order the passes made them, each flagged word, and a
    summary line."""

    def line_of(pos: int) -> int:
        return cleaned.raw.count("\n", 0, pos) + 1

    out = []
    for entry in log:
        for ch in entry.changes:
            out.append(
                f"{entry.name}\tline {line_of(ch.start)}\t{ch.before!r} -> {ch.after!r}\t{ch.kind}\t{ch.method}\t{ch.evidence}"
            )
    for f in cleaned.flags:
        out.append(
            f"flagged\tline {line_of(f.start)}\t{f.text!r} kept as printed\tcandidates {', '.join(f.candidates) or '-'}\t"
            f"confidence {f.confidence:.2f}\t{f.reason}"
        )
    passes = sorted({e.name for e in log if e.changes})
    n = sum(len(e.changes) for e in log)
    out.append(
        f"{n} change{'s' if n != 1 else ''} by {len(passes)} pass{'es' if len(passes) != 1 else ''}"
        f"{' (' + ', '.join(passes) + ')' if passes else ''}; {len(cleaned.flags)} word{'s' if len(cleaned.flags) != 1 else ''} flagged; "
        f"{len(cleaned.corrections)} correction{'s' if len(cleaned.corrections) != 1 else ''} on the raw text"
    )
    return out
