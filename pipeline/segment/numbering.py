"""Sequence decoding (step 2 of `pipeline.segment`): the best increasing numbering over the candidate markers,
one-number gaps filled by a misread marker the sequence needs, lettered laws (``12a``) after their number."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markers import Candidate, Reading, SegmentConfig, candidates, follow


@dataclass(frozen=True)
class Chosen:
    cand: Candidate
    reading: Reading


def _decode(cands: list[Candidate], cfg: SegmentConfig) -> tuple[float, list[Chosen]]:
    """Best increasing numbering over the candidates (Viterbi over (candidate, reading) states)."""
    items = [(c, r) for c in cands for r in c.readings]
    items.sort(key=lambda it: (it[0].start, it[1].cost))
    best: list[float] = [0.0] * len(items)
    back: list[int | None] = [None] * len(items)
    table: dict[int, tuple[float, int]] = {}  # number -> best path score ending with that number (committed)
    pending: list[int] = []  # items not yet committed (their marker ends after the current position)
    global_best: tuple[float, int] | None = None
    for j, (c, r) in enumerate(items):
        still = []
        for i in pending:
            if items[i][0].end <= c.start:
                n = items[i][1].number
                if n not in table or best[i] > table[n][0]:
                    table[n] = (best[i], i)
                if global_best is None or best[i] > global_best[0]:
                    global_best = (best[i], i)
            else:
                still.append(i)
        pending = still
        own = c.score - r.cost
        score, prev = own, None  # start a new path here
        n = r.number
        for m, (s, i) in table.items():
            if m == n - 1:
                t = s + cfg.consecutive_bonus
            elif m < n - 1:
                t = s - min(cfg.gap_penalty * (n - m - 1), cfg.max_gap_penalty)
            elif n <= cfg.restart_max:
                t = s - cfg.restart_penalty
            else:
                continue
            if own + t > score:
                score, prev = own + t, i
        best[j], back[j] = score, prev
        pending.append(j)
    if not items:
        return 0.0, []
    j = max(range(len(items)), key=lambda k: (best[k], -k))
    if best[j] <= 0:
        return best[j], []
    path: list[Chosen] = []
    k: int | None = j
    while k is not None:
        path.append(Chosen(*items[k]))
        k = back[k]
    path.reverse()
    return best[j], path


def decode_numbering(text: str, config: SegmentConfig = SegmentConfig()) -> tuple[str, list[tuple[int, str, int]]]:
    """The decoded numbering of a text: (style, [(number, printed marker, start offset), ...])."""
    style, path = best_path(text, config)
    return style, [(c.reading.number, c.cand.printed, c.cand.start) for c in path]


def _gap_fillers(text: str, a: Chosen, b: Chosen, cfg: SegmentConfig) -> list[Candidate]:
    """Markers between two chosen laws two apart that can only be the missing number, misread by OCR."""
    shapes = re.escape(cfg.lexicon().gap_fill_shapes)
    pat = re.compile(rf"(?m)^[ \t]*(?P<tok>[{shapes}]{{1,2}})(?P<term>\.)[ \t]+(?=[^\W\d_])")
    n = a.reading.number + 1
    out = []
    for m in pat.finditer(text, a.cand.end, b.cand.start):
        fscore, body = follow(text, m.end("term"), ".", cfg)
        if text[body : body + 1].islower():
            continue
        note = f"misread: printed {m.group('tok')!r}, the sequence {a.reading.number}→?→{n + 1} needs {n}"
        reading = Reading(n, cfg.gap_fill_cost, (note,))
        start, end = m.start("tok"), m.end("term")
        out.append(
            Candidate(
                start, end, body, text[start:end], "arabic", (reading,), cfg.line_start_score + fscore, "line start"
            )
        )
    return out


def _fill_gaps(text: str, path: list[Chosen], cfg: SegmentConfig) -> list[Chosen]:
    """The decoded path with each one-number gap filled by its only possible misread marker."""
    out: list[Chosen] = []
    for a, b in zip(path, path[1:] + [None]):
        out.append(a)
        if b is None or b.reading.number - a.reading.number != 2 or a.cand.style != "arabic":
            continue
        fillers = _gap_fillers(text, a, b, cfg)
        if len(fillers) == 1:
            out.append(Chosen(fillers[0], fillers[0].readings[0]))
    return out


def _lettered(text: str, path: list[Chosen], cfg: SegmentConfig) -> list[Chosen]:
    """The path with lettered laws inserted after their number ("12a.--" between 12 and 13), in letter order."""
    terms = "|".join(re.escape(t) for t, _ in cfg.lexicon().terminators)
    out: list[Chosen] = []
    for a, b in zip(path, path[1:] + [None]):
        out.append(a)
        n, stop = a.reading.number, (b.cand.start if b else len(text))
        letter = "a"
        pat = re.compile(rf"(?m)^[ \t]*(?P<tok>{n}(?P<letter>[a-z]))(?P<term>{terms})")
        for m in pat.finditer(text, a.cand.end, stop):
            if m["letter"] != letter:
                break
            fscore, body = follow(text, m.end("term"), m["term"], cfg)
            if text[body : body + 1].islower():
                continue
            reading = Reading(n, 0.0, (f"lettered law {n}{letter}",), letter)
            start, end = m.start("tok"), m.end("term")
            cand = Candidate(
                start, end, body, text[start:end], "arabic", (reading,), cfg.line_start_score + fscore, "line start"
            )
            out.append(Chosen(cand, reading))
            letter = chr(ord(letter) + 1)
    return out


def best_path(text: str, cfg: SegmentConfig) -> tuple[str, list[Chosen]]:
    cands = candidates(text, cfg)
    results = []
    for style in ("arabic", "roman"):
        score, path = _decode([c for c in cands if c.style == style], cfg)
        results.append((score, style == "arabic", style, path))
    arabic = results[0][3]
    printed_digits = [c for c in arabic if any(ch.isdigit() for ch in c.cand.printed)]
    if len(printed_digits) >= cfg.min_numbered_laws:
        # a code numbered in digits; roman numerals inside its laws are clauses
        score, _, style, path = results[0]
    else:
        score, _, style, path = max(results, key=lambda r: (r[0], r[1]))
    if len(path) < cfg.min_numbered_laws:
        return "none", []
    if style == "arabic":
        path = _lettered(text, _fill_gaps(text, path, cfg) if cfg.gap_fill else path, cfg)
    return style, path
