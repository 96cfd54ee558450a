"""A witness's text as units for its page: stretches of plain text and of repaired, flagged or
layout-removed text (reading and diplomatic views), their tooltips and page markers, as plain view data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from ...model import Correction, Flag, offset_maps
from ..tei.xml import XML_ILLEGAL
from .rows import SiteConfig

# ----------------------------------------------------------------------------------------------
# small functions


def printed_form(s: str) -> str:
    """A printed form for a tooltip: line breaks shown as ⏎, other whitespace runs as one space."""
    s = s.replace("\r\n", "\n").replace("\n", "⏎")
    return re.sub(r"[ \t\f\v]+", " ", s)


def shown_raw(raw: str) -> str:
    """The raw text for the page: a character HTML and XML cannot show (a form feed between pdftotext's pages,
    a stray control code) as its Unicode control picture (␌ for U+000C), one for one, so offsets hold."""
    return XML_ILLEGAL.sub(lambda m: chr(0x2400 + ord(m.group())) if m.group() < " " else "\ufffd", raw)


def conf_text(x: float) -> str:
    return f"{x:.2f}"


# ----------------------------------------------------------------------------------------------
# annotations: repaired words, flags and layout on the cleaned or the raw text


@dataclass
class Unit:
    """A highlighted span (of the cleaned text in the reading view, of the raw text in the diplomatic)."""

    start: int
    end: int
    corrections: list[Correction] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    pages: list = field(default_factory=list)  # PageBreak
    printed: str = ""  # the printed form (reading view)
    reads: str = ""  # the reading (diplomatic view)


def _merge(units: list[Unit]) -> list[Unit]:
    """Merge overlapping (or, for non-empty spans, touching-free overlapping) units, sorted by start."""
    out: list[Unit] = []
    for u in sorted(units, key=lambda u: (u.start, u.end)):
        if out and (u.start < out[-1].end or (u.start == out[-1].start and u.end == out[-1].end)):
            last = out[-1]
            last.end = max(last.end, u.end)
            last.corrections += [c for c in u.corrections if c not in last.corrections]
            last.flags += [f for f in u.flags if f not in last.flags]
            last.pages += [p for p in u.pages if p not in last.pages]
        else:
            out.append(Unit(u.start, u.end, list(u.corrections), list(u.flags), list(u.pages)))
    return out


def _is_word_char(ch: str, config: SiteConfig) -> bool:
    return ch.isalnum() or ch in config.word_chars


def _widen(text: str, start: int, end: int, config: SiteConfig) -> tuple[int, int]:
    while start > 0 and _is_word_char(text[start - 1], config):
        start -= 1
    while end < len(text) and _is_word_char(text[end], config):
        end += 1
    return start, end


def reading_units(cleaned, config: SiteConfig = SiteConfig()) -> list[Unit]:
    """Highlights of the cleaned text: repaired words (widened to whole words) and flagged words."""
    text, raw = cleaned.text, cleaned.raw
    c2r, r2c = offset_maps(raw, cleaned.corrections)
    layout = sorted(
        {(c.start, c.end) for c in cleaned.corrections if c.kind in config.layout_kinds}
        | {(p.raw_start, p.raw_end) for p in cleaned.page_breaks if p.raw_end > p.raw_start}
    )
    units: list[Unit] = []
    for c in cleaned.corrections:
        if c.kind in config.quiet_kinds or c.kind in config.layout_kinds:
            continue
        cs = r2c[c.start]
        ce = cs + len(c.after)
        ws, we = _widen(text, cs, ce, config)
        units.append(Unit(ws, we, [c]))
    for f in cleaned.flags:
        fs, fe = r2c[min(f.start, len(raw))], r2c[min(f.end, len(raw))]
        if fe <= fs:
            fe = fs + len(f.text) if text[fs : fs + len(f.text)] == f.text else fs
        units.append(Unit(fs, fe, flags=[f]))
    merged = _merge(units)
    for u in merged:
        # the printed form: the raw text from the first to the last character of the word
        rs = min([c2r[u.start]] + [c.start for c in u.corrections] + [f.start for f in u.flags])
        if u.end >= len(text):
            re_ = len(raw)
        else:
            re_ = c2r[u.end]
        re_ = max([re_] + [c.end for c in u.corrections] + [f.end for f in u.flags])
        u.printed = _cut_layout(raw, rs, re_, layout)
    return merged


def _cut_layout(raw: str, start: int, end: int, layout: Sequence[tuple[int, int]]) -> str:
    """raw[start:end] with running heads / page numbers inside it shown as a single '|'."""
    out, pos = [], start
    for s, e in layout:
        if s >= pos and e <= end and e > s:
            out.append(raw[pos:s])
            out.append("|")
            pos = e
    out.append(raw[pos:end])
    return "".join(out)


def correction_tip(u: Unit, printed_label: str, printed: str) -> str:
    parts = []
    if u.corrections:
        kinds = "; ".join(f"{c.kind} (confidence {conf_text(c.confidence)})" for c in u.corrections)
        parts.append(f"{printed_label}: “{printed_form(printed)}” — {kinds}")
        methods = ", ".join(dict.fromkeys(c.method for c in u.corrections if c.method))
        evidence = "; ".join(dict.fromkeys(c.evidence for c in u.corrections if c.evidence))
        if methods:
            parts.append(f"method: {methods}")
        if evidence:
            parts.append(f"evidence: {evidence}")
    for f in u.flags:
        cands = ", ".join(f.candidates) if f.candidates else "none"
        line = (
            f"flagged for review: “{printed_form(f.text)}”, candidates {cands} (confidence {conf_text(f.confidence)})"
        )
        parts.append(line + (f": {f.reason}" if f.reason else ""))
    for p in u.pages:
        parts.append(page_tip(p))
    return "\n".join(parts)


def page_tip(p) -> str:
    s = f"page {p.page}" if p.page else "page break"
    if p.head:
        s += f" — running head “{p.head}”"
    if p.printed:
        s += f" — printed “{printed_form(p.printed)}”"
    return s


def unit_view(u: Unit, tip: str, text: str, extra_class: str = "", tag: str = "span") -> dict:
    """What the templates need to draw one highlighted span (``inline`` macro)."""
    classes = ["tip"]
    if u.corrections:
        classes.append("corr")
    if u.flags:
        classes.append("flag")
    if extra_class:
        classes.append(extra_class)
    view: dict[str, Any] = {
        "kind": "unit",
        "tag": tag,
        "classes": " ".join(classes),
        "tip": tip,
        "text": text,
        "kinds": "",
        "confidence": "",
        "page": "",
        "page_label": None,
    }
    if u.corrections:
        view["kinds"] = " ".join(dict.fromkeys(c.kind for c in u.corrections))
        view["confidence"] = conf_text(min(c.confidence for c in u.corrections))
    return view


def _text_piece(s: str) -> dict:
    return {"kind": "text", "text": s}


def text_pieces(
    text: str, a: int, b: int, units: Sequence[Unit], points: Sequence[tuple[int, dict]], render_unit
) -> list[dict]:
    """The pieces of text[a:b]: plain text, the units (clipped to a..b) and the point markers.

    A point that falls inside a unit is emitted right after the unit; a point at ``b`` belongs to the
    next span, unless ``b`` is the end of the text.
    """
    at_end = b == len(text)
    pts = sorted((p for p in points if a <= p[0] < b or (at_end and p[0] == b)), key=lambda p: p[0])
    spans = []
    for u in units:
        if u.start == u.end:
            if a <= u.start < b:
                spans.append((u.start, u.end, u))
        elif u.start < b and u.end > a:
            spans.append((max(u.start, a), min(u.end, b), u))
    spans.sort(key=lambda t: (t[0], t[1]))
    out: list[dict] = []

    def add_text(x: str) -> None:
        if x:
            out.append(_text_piece(x))

    pos, pi = a, 0
    for s, e, u in spans:
        if s < pos:
            continue
        while pi < len(pts) and pts[pi][0] <= s:
            q = max(pts[pi][0], pos)
            add_text(text[pos:q])
            out.append(pts[pi][1])
            pos, pi = q, pi + 1
        add_text(text[pos:s])
        out.append(render_unit(u, text[s:e]))
        pos = e
        while pi < len(pts) and pts[pi][0] < e:
            out.append(pts[pi][1])
            pi += 1
    while pi < len(pts):
        q = max(pts[pi][0], pos)
        add_text(text[pos:q])
        out.append(pts[pi][1])
        pos, pi = q, pi + 1
    add_text(text[pos:b])
    return out


def strip_pieces(pieces: list[dict]) -> list[dict]:
    """Pieces without the whitespace at both ends of their text (markup is never whitespace)."""
    out = list(pieces)
    while out and out[0]["kind"] == "text":
        t = out[0]["text"].lstrip()
        if t:
            out[0] = _text_piece(t)
            break
        out.pop(0)
    while out and out[-1]["kind"] == "text":
        t = out[-1]["text"].rstrip()
        if t:
            out[-1] = _text_piece(t)
            break
        out.pop()
    return out


def page_marker(p) -> dict:
    label = f"p. {p.page}" if p.page else "page break"
    return {"kind": "page", "page": p.page, "label": label, "tip": page_tip(p)}


def diplomatic_units(cleaned, config: SiteConfig = SiteConfig()) -> list[Unit]:
    """Highlights of the raw text: every printed form the pipeline changed, and running heads."""
    units: list[Unit] = []
    for c in cleaned.corrections:
        if c.kind in config.quiet_kinds:
            continue
        units.append(Unit(c.start, c.end, [c]))
    for f in cleaned.flags:
        units.append(Unit(f.start, f.end, flags=[f]))
    for p in cleaned.page_breaks:
        if p.raw_end > p.raw_start:
            units.append(Unit(p.raw_start, p.raw_end, pages=[p]))
    merged = _merge([u for u in units if u.end > u.start])
    for u in merged:
        u.reads = "".join(c.after for c in sorted(u.corrections, key=lambda c: c.start))
    return merged
