"""The reading edition: a static web site rendered from the stage results.

``render_site(results, links, rules)`` returns ``{relative path under outputs/site/: bytes}``:

* ``index.html``: the witnesses, and one *synoptic table* per game: one row per provision, one
  column per witness, aligned laws side by side, laws without a counterpart on their own row, the
  score, kind and evidence of every alignment link in a details toggle; filters by game, witness
  and text (a small local script).
* ``witness/<id>.html``: one page per witness with a *reading view* (the cleaned text, one law per
  paragraph, repaired words highlighted, words flagged for review marked, page breaks in the margin,
  and under each law its rulings from the rule table and its aligned laws) and a *diplomatic view*
  (the text as printed: line breaks, line-break hyphens, running heads and page numbers, OCR
  debris), switched by a toggle button.
* ``assets/site.css``, ``assets/site.js``: local assets (``pipeline/site_assets/``); no CDN, no
  server: the site opens from disk (``file://``).

Everything that comes from the corpus is escaped with :func:`html.escape` (text and attributes);
no corpus text is ever put inside a ``<script>``.  The output is deterministic (no timestamps, every
collection sorted or in corpus order), so a rebuild gives the same bytes.

How rows of the synoptic table are formed (:func:`synoptic_rows`): the witnesses of a game are
taken in corpus order; the first witness that has laws anchors the rows (one row per law, in its
order).  Each law of a following witness joins the row of its best-scoring link to a law already
placed (any earlier witness, so a modernized reading follows the OCR it modernizes); a law with no
link to a placed law gets a row of its own, inserted after the row of the previous law of its
witness (before the first placed one when it has no predecessor), so every column keeps its printed
order as far as the links allow.  A law linked to laws of more than one row (an n:m link) sits in
its best row and is *referred to* (``data-ref-law-id``, "see also") in the others.
"""
from __future__ import annotations

import html
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence
from urllib.parse import quote

from .model import Correction, Flag, Law, Link, WitnessResult, offset_maps

ASSETS_DIR = Path(__file__).resolve().parent / "site_assets"
ASSET_FILES = ("site.css", "site.js")


@dataclass(frozen=True)
class SiteConfig:
    """What the edition shows and how (all named, all documented)."""

    # corrections of these kinds are not highlighted as repaired words on their own (they are
    # typography or layout); inside a highlighted word they still show in its printed form
    quiet_kinds: tuple[str, ...] = ("whitespace", "normalisation")
    # corrections of these kinds removed layout (running heads, page numbers): shown as page breaks
    layout_kinds: tuple[str, ...] = ("running_head",)
    # characters that belong to a word when a highlight is widened to whole words
    word_chars: str = "'’-"
    # display names of games (others: the game id, capitalised)
    game_titles: tuple[tuple[str, str], ...] = (("ecarte", "Écarté"), ("whist", "Whist"))
    # display names of languages
    lang_titles: tuple[tuple[str, str], ...] = (("fr", "French"), ("en", "English"))
    score_digits: int = 2
    title: str = "Laws of Écarté and Whist: a reading edition"


# ----------------------------------------------------------------------------------------------
# small helpers


def esc(value: Any) -> str:
    """Escape a value for HTML text and double-quoted attributes."""
    return html.escape("" if value is None else str(value), quote=True)


def _printed(s: str) -> str:
    """A printed form for a tooltip: line breaks shown as ⏎, other whitespace runs as one space."""
    s = s.replace("\r\n", "\n").replace("\n", "⏎")
    return re.sub(r"[ \t\f\v]+", " ", s)


def _conf(x: float) -> str:
    return f"{x:.2f}"


def witness_href(witness_id: str, law_id: str | None = None, prefix: str = "") -> str:
    url = f"{prefix}witness/{quote(witness_id)}.html"
    return url + (f"#{quote(law_id, safe='.-_')}" if law_id else "")


def law_label(law: Law) -> str:
    label = law.label or (str(law.number) if law.number is not None else law.id)
    if label[:1].isdigit():
        return f"Law {label}"
    return label[:1].upper() + label[1:]


def _fold(s: str) -> str:
    """Lower case without accents (what the search box compares)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", s.lower()) if not unicodedata.combining(ch))


# ----------------------------------------------------------------------------------------------
# annotations: repaired words, flags and layout on the cleaned or the raw text


@dataclass
class _Unit:
    """A highlighted span (of the cleaned text in the reading view, of the raw text in the diplomatic)."""

    start: int
    end: int
    corrections: list[Correction] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    pages: list = field(default_factory=list)  # PageBreak
    printed: str = ""  # the printed form (reading view)
    reads: str = ""  # the reading (diplomatic view)


def _merge(units: list[_Unit]) -> list[_Unit]:
    """Merge overlapping (or, for non-empty spans, touching-free overlapping) units, sorted by start."""
    out: list[_Unit] = []
    for u in sorted(units, key=lambda u: (u.start, u.end)):
        if out and (u.start < out[-1].end or (u.start == out[-1].start and u.end == out[-1].end)):
            last = out[-1]
            last.end = max(last.end, u.end)
            last.corrections += [c for c in u.corrections if c not in last.corrections]
            last.flags += [f for f in u.flags if f not in last.flags]
            last.pages += [p for p in u.pages if p not in last.pages]
        else:
            out.append(_Unit(u.start, u.end, list(u.corrections), list(u.flags), list(u.pages)))
    return out


def _is_word_char(ch: str, config: SiteConfig) -> bool:
    return ch.isalnum() or ch in config.word_chars


def _widen(text: str, start: int, end: int, config: SiteConfig) -> tuple[int, int]:
    while start > 0 and _is_word_char(text[start - 1], config):
        start -= 1
    while end < len(text) and _is_word_char(text[end], config):
        end += 1
    return start, end


def reading_units(cleaned, config: SiteConfig = SiteConfig()) -> list[_Unit]:
    """Highlights of the cleaned text: repaired words (widened to whole words) and flagged words."""
    text, raw = cleaned.text, cleaned.raw
    c2r, r2c = offset_maps(raw, cleaned.corrections)
    layout = sorted({(c.start, c.end) for c in cleaned.corrections if c.kind in config.layout_kinds}
                    | {(p.raw_start, p.raw_end) for p in cleaned.page_breaks if p.raw_end > p.raw_start})
    units: list[_Unit] = []
    for c in cleaned.corrections:
        if c.kind in config.quiet_kinds or c.kind in config.layout_kinds:
            continue
        cs = r2c[c.start]
        ce = cs + len(c.after)
        ws, we = _widen(text, cs, ce, config)
        units.append(_Unit(ws, we, [c]))
    for f in cleaned.flags:
        fs, fe = r2c[min(f.start, len(raw))], r2c[min(f.end, len(raw))]
        if fe <= fs:
            fe = fs + len(f.text) if text[fs : fs + len(f.text)] == f.text else fs
        units.append(_Unit(fs, fe, flags=[f]))
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


def _correction_tip(u: _Unit, printed_label: str, printed: str) -> str:
    parts = []
    if u.corrections:
        kinds = "; ".join(f"{c.kind} (confidence {_conf(c.confidence)})" for c in u.corrections)
        parts.append(f"{printed_label}: “{_printed(printed)}” — {kinds}")
        methods = ", ".join(dict.fromkeys(c.method for c in u.corrections if c.method))
        evidence = "; ".join(dict.fromkeys(c.evidence for c in u.corrections if c.evidence))
        if methods:
            parts.append(f"method: {methods}")
        if evidence:
            parts.append(f"evidence: {evidence}")
    for f in u.flags:
        cands = ", ".join(f.candidates) if f.candidates else "none"
        line = f"flagged for review: “{_printed(f.text)}”, candidates {cands} (confidence {_conf(f.confidence)})"
        parts.append(line + (f": {f.reason}" if f.reason else ""))
    for p in u.pages:
        parts.append(_page_tip(p))
    return "\n".join(parts)


def _page_tip(p) -> str:
    s = f"page {p.page}" if p.page else "page break"
    if p.head:
        s += f" — running head “{p.head}”"
    if p.printed:
        s += f" — printed “{_printed(p.printed)}”"
    return s


def _unit_attrs(u: _Unit, tip: str, extra_class: str = "") -> str:
    classes = ["tip"]
    if u.corrections:
        classes.append("corr")
    if u.flags:
        classes.append("flag")
    if extra_class:
        classes.append(extra_class)
    attrs = [
        f'class="{" ".join(classes)}"',
        'tabindex="0"',
        f'title="{esc(tip)}"',
        f'data-tip="{esc(tip)}"',
    ]
    if u.corrections:
        attrs.append(f'data-kind="{esc(" ".join(dict.fromkeys(c.kind for c in u.corrections)))}"')
        attrs.append(f'data-confidence="{esc(_conf(min(c.confidence for c in u.corrections)))}"')
    return " ".join(attrs)


def _emit(text: str, a: int, b: int, units: Sequence[_Unit], points: Sequence[tuple[int, str]], render_unit) -> str:
    """HTML of text[a:b] with the units (clipped to a..b) wrapped and the point markers inserted.

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
    out: list[str] = []
    pos, pi = a, 0
    for s, e, u in spans:
        if s < pos:
            continue
        while pi < len(pts) and pts[pi][0] <= s:
            q = max(pts[pi][0], pos)
            out.append(esc(text[pos:q]))
            out.append(pts[pi][1])
            pos, pi = q, pi + 1
        out.append(esc(text[pos:s]))
        out.append(render_unit(u, text[s:e]))
        pos = e
        while pi < len(pts) and pts[pi][0] < e:
            out.append(pts[pi][1])
            pi += 1
    while pi < len(pts):
        q = max(pts[pi][0], pos)
        out.append(esc(text[pos:q]))
        out.append(pts[pi][1])
        pos, pi = q, pi + 1
    out.append(esc(text[pos:b]))
    return "".join(out)


def _page_marker(p, view: str) -> str:
    label = f"p. {p.page}" if p.page else "page break"
    return (
        f'<span class="pb tip" tabindex="0" data-page="{esc(p.page)}" data-label="{esc(label)}" '
        f'title="{esc(_page_tip(p))}" data-tip="{esc(_page_tip(p))}" aria-label="{esc(label)}"></span>'
    )


# ----------------------------------------------------------------------------------------------
# rules and links per law


def rule_rows(rules: Any) -> list[Mapping]:
    """The rows of the rule table (a list of dicts, or a dict holding one under rows/rules/table/data)."""
    if rules is None:
        return []
    if isinstance(rules, Mapping):
        for key in ("rows", "rules", "table", "data"):
            if isinstance(rules.get(key), list):
                rules = rules[key]
                break
        else:
            return []
    return [r for r in rules if isinstance(r, Mapping)]


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def rules_by_law(rules: Any, law_ids: Iterable[str]) -> dict[str, list[Mapping]]:
    """The rows of the rule table that name each law (in any field: law id, citations, sources...)."""
    known = set(law_ids)
    out: dict[str, list[Mapping]] = defaultdict(list)
    for row in rule_rows(rules):
        found: list[str] = []
        for s in _strings(dict(row)):
            for tok in re.findall(r"[\w.\-]+", s):
                if tok in known and tok not in found:
                    found.append(tok)
        for law_id in found:
            out[law_id].append(row)
    return out


def _value_html(value: Any) -> str:
    if isinstance(value, Mapping):
        return "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{_value_html(v)}</dd>" for k, v in value.items()) + "</dl>"
    if isinstance(value, (list, tuple)):
        return "<ul>" + "".join(f"<li>{_value_html(v)}</li>" for v in value) + "</ul>" if value else "—"
    if isinstance(value, float):
        return esc(f"{value:g}")
    return esc(value)


def _rule_html(row: Mapping) -> str:
    items = [(k, v) for k, v in row.items() if v not in (None, "", [], {})]
    body = "".join(f"<dt>{esc(k)}</dt><dd>{_value_html(v)}</dd>" for k, v in items)
    return f'<dl class="rule">{body}</dl>'


# ----------------------------------------------------------------------------------------------
# the synoptic table


@dataclass
class SynopticRow:
    """One provision: for each witness the laws placed in this row, and the laws referred to."""

    laws: dict[str, list[Law]] = field(default_factory=dict)  # witness id -> laws placed here
    refs: dict[str, list[tuple[Law, Link]]] = field(default_factory=dict)  # witness id -> (law, link)

    def law_ids(self) -> list[str]:
        return [law.id for ls in self.laws.values() for law in ls]


def synoptic_rows(witness_ids: Sequence[str], laws_of: Mapping[str, Sequence[Law]],
                  links: Sequence[Link]) -> list[SynopticRow]:
    """Group the laws of one game into provisions (see the module docstring)."""
    score: dict[str, dict[str, Link]] = defaultdict(dict)
    law_witness = {law.id: w for w in witness_ids for law in laws_of.get(w, ())}
    for k in links:
        if k.a in law_witness and k.b in law_witness and law_witness[k.a] != law_witness[k.b]:
            for x, y in ((k.a, k.b), (k.b, k.a)):
                if y not in score[x] or k.score > score[x][y].score:
                    score[x][y] = k
    rows: list[SynopticRow] = []
    row_of: dict[str, SynopticRow] = {}
    for w in witness_ids:
        laws = sorted(laws_of.get(w, ()), key=lambda law: law.order)
        if not laws:
            continue
        best: dict[str, SynopticRow | None] = {}
        for law in laws:
            cands = [(k.score, -rows.index(row_of[other])) for other, k in score[law.id].items() if other in row_of]
            if cands:
                # highest score; ties broken by the earlier row
                best[law.id] = rows[-max(cands)[1]]
            else:
                best[law.id] = None
        placed = [law for law in laws if best[law.id] is not None]
        pointer: int | None = None
        pending: list[Law] = []  # unplaced laws before the first placed one
        for law in laws:
            r = best[law.id]
            if r is not None:
                idx = rows.index(r)
                if pointer is None and pending:
                    for j, p in enumerate(pending):
                        nr = SynopticRow(laws={w: [p]})
                        rows.insert(idx + j, nr)
                        row_of[p.id] = nr
                    pending = []
                    idx = rows.index(r)
                r.laws.setdefault(w, []).append(law)
                row_of[law.id] = r
                pointer = idx
            elif pointer is None and placed:
                pending.append(law)
            else:
                nr = SynopticRow(laws={w: [law]})
                at = len(rows) if pointer is None else pointer + 1
                rows.insert(at, nr)
                row_of[law.id] = nr
                pointer = at
    # references: a law linked to a law of another row
    for law_id, others in score.items():
        if law_id not in row_of:
            continue
        for other, k in others.items():
            r = row_of.get(other)
            if r is None or r is row_of[law_id]:
                continue
            w = law_witness[law_id]
            law = next(x for x in laws_of[w] if x.id == law_id)
            refs = r.refs.setdefault(w, [])
            if all(x.id != law_id for x, _ in refs):
                refs.append((law, k))
    for r in rows:
        for w in r.refs:
            r.refs[w].sort(key=lambda t: t[0].order)
    return rows


# ----------------------------------------------------------------------------------------------
# pages


def _page(title: str, body: str, prefix: str, config: SiteConfig, page_class: str) -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        f'<link rel="stylesheet" href="{prefix}assets/site.css">\n'
        f'<script src="{prefix}assets/site.js" defer></script>\n'
        f'</head>\n<body class="{page_class}">\n'
        '<a class="skip" href="#main">Skip to content</a>\n'
        f'<header class="top"><a href="{prefix}index.html" class="home">{esc(config.title)}</a></header>\n'
        f'<main id="main">\n{body}\n</main>\n'
        "<footer><p>Generated by the card-laws pipeline from the scans in <code>corpus/raw/</code>. "
        "Highlighted words were repaired by the pipeline; hover or focus them (Tab) for the printed form.</p></footer>\n"
        "</body>\n</html>\n"
    )


def _game_title(game: str, config: SiteConfig) -> str:
    return dict(config.game_titles).get(game, game.capitalize())


def _lang_title(lang: str, config: SiteConfig) -> str:
    return dict(config.lang_titles).get(lang, lang)


def _link_item(k: Link, other: Law, prefix: str, config: SiteConfig) -> str:
    sc = f"{k.score:.{config.score_digits}f}"
    tip = f"score {sc} · {k.kind}" + (f" · {k.evidence}" if k.evidence else "")
    return (
        f'<li data-link-a="{esc(k.a)}" data-link-b="{esc(k.b)}" data-score="{esc(sc)}" data-link-kind="{esc(k.kind)}">'
        f'<a href="{esc(witness_href(other.witness_id, other.id, prefix))}">{esc(other.witness_id)} · {esc(law_label(other))}</a> '
        f'<span class="score" title="{esc(tip)}">{esc(sc)}</span> <span class="kind">{esc(k.kind)}</span>'
        + (f'<div class="evidence">{esc(k.evidence)}</div>' if k.evidence else "")
        + "</li>"
    )


def _links_of(law_id: str, links: Sequence[Link]) -> list[tuple[Link, str]]:
    out = []
    for k in links:
        if k.a == law_id:
            out.append((k, k.b))
        elif k.b == law_id:
            out.append((k, k.a))
    return sorted(out, key=lambda t: (-t[0].score, t[1]))


def _excerpt_fold(law: Law) -> str:
    return _fold(f"{law.label} {law.text}")


def _synoptic_html(game: str, results: Sequence[WitnessResult], links: Sequence[Link],
                   law_by_id: Mapping[str, Law], config: SiteConfig) -> str:
    wids = [r.witness.id for r in results]
    laws_of = {r.witness.id: r.segmented.laws for r in results}
    game_links = [k for k in links if k.a in law_by_id and k.b in law_by_id]
    rows = synoptic_rows(wids, laws_of, game_links)
    head = "".join(
        f'<th scope="col" data-witness="{esc(r.witness.id)}"><a href="{esc(witness_href(r.witness.id))}">{esc(r.witness.id)}</a>'
        f'<span class="meta">{esc(_lang_title(r.witness.lang, config))} · {esc(r.witness.kind)}</span></th>'
        for r in results
    )
    body = []
    for i, row in enumerate(rows, 1):
        rid = f"{game}-p{i}"
        cells = []
        for r in results:
            w = r.witness.id
            label = f"{w} ({_lang_title(r.witness.lang, config)}, {r.witness.kind})"
            parts = []
            for law in row.laws.get(w, []):
                ls = _links_of(law.id, game_links)
                items = "".join(_link_item(k, law_by_id[o], "", config) for k, o in ls)
                best = f"{ls[0][0].score:.{config.score_digits}f}" if ls else ""
                flags = []
                if not law.printed:
                    flags.append('<span class="badge" title="the number is not printed: inferred from the order">number inferred</span>')
                if not law.complete:
                    flags.append('<span class="badge" title="the law starts before or ends after the excerpt">fragment</span>')
                links_html = (
                    f'<details class="links"><summary title="best link score {esc(best)}">'
                    f'{len(ls)} link{"s" if len(ls) != 1 else ""} · best {esc(best)}</summary><ul>{items}</ul></details>'
                    if ls else '<p class="nolink" data-no-counterpart="1">no counterpart (unaligned)</p>'
                )
                parts.append(
                    f'<div class="law" data-law-id="{esc(law.id)}" data-witness="{esc(w)}">'
                    f'<a class="lawlabel" href="{esc(witness_href(w, law.id))}">{esc(law_label(law))}</a> {"".join(flags)}'
                    f'<p class="lt" lang="{esc(law.lang)}">{esc(law.text)}</p>{links_html}</div>'
                )
            for law, k in row.refs.get(w, []):
                sc = f"{k.score:.{config.score_digits}f}"
                parts.append(
                    f'<div class="ref" data-ref-law-id="{esc(law.id)}">see also '
                    f'<a href="{esc(witness_href(w, law.id))}">{esc(law_label(law))}</a> '
                    f'<span class="score" title="{esc(f"score {sc} · {k.kind} · {k.evidence}")}">{esc(sc)}</span></div>'
                )
            if parts:
                cells.append(f'<td data-witness="{esc(w)}" data-label="{esc(label)}">{"".join(parts)}</td>')
            else:
                cells.append(f'<td data-witness="{esc(w)}" data-label="{esc(label)}" class="empty">'
                             f'<span aria-label="no law in this witness">—</span></td>')
        single = sum(1 for ls in row.laws.values() if ls) == 1
        unmatched = ' data-unmatched="1"' if single else ""
        body.append(
            f'<tr id="{esc(rid)}" data-row="{esc(rid)}" data-game="{esc(game)}" data-laws="{esc(" ".join(row.law_ids()))}"'
            f'{unmatched}>'
            f'<th scope="row">{i}</th>{"".join(cells)}</tr>'
        )
    title = _game_title(game, config)
    return (
        f'<section class="game" data-game="{esc(game)}" id="game-{esc(game)}" aria-labelledby="h-{esc(game)}">\n'
        f'<h2 id="h-{esc(game)}">{esc(title)}: synoptic table</h2>\n'
        f'<p class="note">{len(rows)} provisions; rows with a single law have no aligned law in another witness.</p>\n'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{esc(title)} synoptic table">'
        f'<table class="synoptic" data-game="{esc(game)}"><thead><tr><th scope="col">#</th>{head}</tr></thead>\n'
        f'<tbody>\n' + "\n".join(body) + "\n</tbody></table></div>\n</section>"
    )


def _index_html(results: Sequence[WitnessResult], links: Sequence[Link], law_by_id: Mapping[str, Law],
                config: SiteConfig) -> str:
    games = list(dict.fromkeys(r.witness.game for r in results))
    wit_items = []
    for r in results:
        w = r.witness
        meta = " · ".join(x for x in (_game_title(w.game, config), _lang_title(w.lang, config), w.kind,
                                        w.author, str(w.year or ""), f"p. {w.page}" if w.page else "") if x)
        wit_items.append(
            f'<li data-witness="{esc(w.id)}" data-game="{esc(w.game)}"><a href="{esc(witness_href(w.id))}">'
            f'<strong>{esc(w.id)}</strong> {esc(w.title)}</a><br><span class="meta">{esc(meta)}; '
            f'{len(r.segmented.laws)} laws, {len(r.cleaned.corrections)} corrections, {len(r.cleaned.flags)} flagged</span></li>'
        )
    game_opts = "".join(f'<option value="{esc(g)}">{esc(_game_title(g, config))}</option>' for g in games)
    wit_boxes = "".join(
        f'<label data-game="{esc(r.witness.game)}"><input type="checkbox" class="wfilter" value="{esc(r.witness.id)}" checked> '
        f'{esc(r.witness.id)}</label> '
        for r in results
    )
    filters = (
        '<form class="filters" role="search" aria-label="Filter the synoptic tables" onsubmit="return false">'
        f'<label>Game <select id="f-game"><option value="">all games</option>{game_opts}</select></label>'
        f'<fieldset><legend>Witnesses</legend>{wit_boxes}</fieldset>'
        '<label>Search <input id="f-text" type="search" placeholder="word in a law (accents optional)" autocomplete="off"></label>'
        '<output id="f-count" aria-live="polite"></output></form>'
    )
    sections = []
    for g in games:
        rs = [r for r in results if r.witness.game == g]
        sections.append(_synoptic_html(g, rs, links, {k: v for k, v in law_by_id.items() if v.game == g}, config))
    body = (
        f"<h1>{esc(config.title)}</h1>\n"
        "<p>French and English codes of the laws of card games, read from 19th-century prints. "
        "Each table puts the laws of all witnesses of a game side by side, one row per provision; open a witness for its "
        "reading and diplomatic texts, the pipeline's repairs, and each law's ruling.</p>\n"
        f'<h2>Witnesses</h2>\n<ul class="witnesses">{"".join(wit_items)}</ul>\n'
        f"{filters}\n" + "\n".join(sections)
    )
    return _page(config.title, body, "", config, "index")


def _reading_view(r: WitnessResult, links: Sequence[Link], law_by_id: Mapping[str, Law],
                  rules_of: Mapping[str, list], config: SiteConfig) -> str:
    cleaned, seg = r.cleaned, r.segmented
    text = cleaned.text
    units = reading_units(cleaned, config)
    points = [(p.clean_offset, _page_marker(p, "reading")) for p in cleaned.page_breaks]
    laws = {law.id: law for law in seg.laws}
    segments = list(seg.segments) or []
    if not segments:
        from .model import Segment

        segments = [Segment("other", 0, len(text))]

    def render(u: _Unit, inner: str) -> str:
        tip = _correction_tip(u, "printed", u.printed)
        if not inner:  # a deletion between words
            return f'<span {_unit_attrs(u, tip, "del")}></span>'
        return f"<mark {_unit_attrs(u, tip)}>{esc(inner)}</mark>"

    out = []
    for s in segments:
        inner = _emit(text, s.start, s.end, units, points, render).strip()
        law = laws.get(s.law_id) if s.law_id else None
        if law is None:
            if inner:
                cls = "heading" if s.kind == "heading" else "other"
                out.append(f'<p class="seg {cls}" data-seg-kind="{esc(s.kind)}">{inner}</p>')
            continue
        info = []
        ls = _links_of(law.id, links)
        if ls:
            info.append('<h4>Aligned laws</h4><ul class="aligned">'
                        + "".join(_link_item(k, law_by_id[o], "../", config) for k, o in ls if o in law_by_id) + "</ul>")
        else:
            info.append('<p class="nolink">No aligned law in another witness.</p>')
        rows = rules_of.get(law.id, [])
        if rows:
            info.append("<h4>Ruling and citations (rule table)</h4>" + "".join(_rule_html(x) for x in rows))
        else:
            info.append('<p class="norule">No row of the rule table cites this law.</p>')
        pages = ", ".join(law.pages)
        meta = " · ".join(x for x in (
            f"id {law.id}", f"printed “{law.printed}”" if law.printed else "number not printed",
            f"page {pages}" if pages else "", "fragment" if not law.complete else "",
            f"boundary confidence {_conf(law.confidence)}") if x)
        out.append(
            f'<section class="law" id="{esc(law.id)}" data-law-id="{esc(law.id)}" lang="{esc(law.lang)}">'
            f'<p class="lawtext"><a class="lawlabel" href="#{esc(law.id)}" title="{esc(meta)}">{esc(law_label(law))}</a> {inner}</p>'
            f'<details class="info"><summary>Ruling and aligned laws</summary>{"".join(info)}</details></section>'
        )
    return "\n".join(out)


def diplomatic_units(cleaned, config: SiteConfig = SiteConfig()) -> list[_Unit]:
    """Highlights of the raw text: every printed form the pipeline changed, and running heads."""
    units: list[_Unit] = []
    for c in cleaned.corrections:
        if c.kind in config.quiet_kinds:
            continue
        units.append(_Unit(c.start, c.end, [c]))
    for f in cleaned.flags:
        units.append(_Unit(f.start, f.end, flags=[f]))
    for p in cleaned.page_breaks:
        if p.raw_end > p.raw_start:
            units.append(_Unit(p.raw_start, p.raw_end, pages=[p]))
    merged = _merge([u for u in units if u.end > u.start])
    for u in merged:
        u.reads = "".join(c.after for c in sorted(u.corrections, key=lambda c: c.start))
    return merged


def _diplomatic_view(r: WitnessResult, config: SiteConfig) -> str:
    cleaned, seg = r.cleaned, r.segmented
    raw = cleaned.raw
    c2r, _ = offset_maps(raw, cleaned.corrections)
    units = diplomatic_units(cleaned, config)
    # page breaks without a printed line: a marker at their raw position
    points = [(p.raw_start, _page_marker(p, "diplomatic")) for p in cleaned.page_breaks if p.raw_end <= p.raw_start]

    def render(u: _Unit, inner: str) -> str:
        kinds = {c.kind for c in u.corrections}
        if u.pages or kinds & set(config.layout_kinds):
            cls = "fw"
        elif "hyphenation" in kinds:
            cls = "hyphen"
        elif "debris" in kinds:
            cls = "debris"
        else:
            cls = "sic"
        tip_parts = []
        if u.corrections:
            reading = u.reads if u.reads.strip() else "(removed)"
            tip_parts.append(_correction_tip(_Unit(u.start, u.end, u.corrections), "printed", inner)
                             + f"\nreads: “{_printed(reading)}”")
        if u.flags:
            tip_parts.append(_correction_tip(_Unit(u.start, u.end, flags=u.flags), "printed", inner))
        tip_parts += [_page_tip(p) for p in u.pages]
        tip = "\n".join(tip_parts)
        page = ""
        if u.pages:
            p = u.pages[0]
            page = f' data-page="{esc(p.page)}" data-label="{esc(f"p. {p.page}" if p.page else "page break")}"'
        return f"<span {_unit_attrs(u, tip, cls)}{page}>{esc(inner)}</span>"

    # segments tile the cleaned text; their raw spans tile the raw text
    segs = list(seg.segments)
    bounds = [0] + [c2r[s.start] for s in segs[1:]] + [len(raw)] if segs else [0, len(raw)]
    out = []
    for i in range(len(bounds) - 1):
        a, b = bounds[i], bounds[i + 1]
        if b < a:
            continue
        inner = _emit(raw, a, b, units, points, render)
        s = segs[i] if segs else None
        if s is not None and s.law_id:
            out.append(f'<span class="dlaw" data-law-id="{esc(s.law_id)}">{inner}</span>')
        else:
            out.append(f'<span class="dseg">{inner}</span>')
    return "".join(out)


def _witness_html(r: WitnessResult, links: Sequence[Link], law_by_id: Mapping[str, Law],
                  rules_of: Mapping[str, list], config: SiteConfig) -> str:
    w = r.witness
    meta_rows = [
        ("Game", _game_title(w.game, config)), ("Language", _lang_title(w.lang, config)), ("Kind", w.kind),
        ("Title", w.title), ("Author", w.author), ("Year", w.year or ""), ("Source", w.source),
        ("First page", w.page), ("File", w.file), ("Note", w.note),
        ("Laws", len(r.segmented.laws)), ("Corrections", len(r.cleaned.corrections)),
        ("Flagged for review", len(r.cleaned.flags)), ("Page breaks", len(r.cleaned.page_breaks)),
    ]
    meta = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in meta_rows if v not in ("", None))
    kinds: dict[str, int] = defaultdict(int)
    for c in r.cleaned.corrections:
        kinds[c.kind] += 1
    kind_list = ", ".join(f"{esc(k)} {n}" for k, n in sorted(kinds.items()))
    body = (
        f'<h1>{esc(w.id)}: {esc(w.title)}</h1>\n'
        f'<p><a href="../index.html#game-{esc(w.game)}">← synoptic table of {esc(_game_title(w.game, config))}</a></p>\n'
        f'<details class="witness-meta"><summary>About this witness</summary><dl>{meta}</dl>'
        f'<p>Corrections by kind: {kind_list or "none"}</p></details>\n'
        '<div class="viewbar"><button type="button" id="view-toggle" aria-pressed="false" aria-controls="reading diplomatic">'
        'Show diplomatic view</button> <span id="view-name" aria-live="polite">Reading view</span></div>\n'
        '<p class="legend"><mark class="corr">repaired word</mark> <span class="flag">flagged for review</span> '
        '<span class="pb" data-label="p. 10"></span> page break · hover or focus (Tab) a marked word for details</p>\n'
        f'<article id="reading" class="view reading" lang="{esc(w.lang)}" aria-label="Reading view">\n'
        f"{_reading_view(r, links, law_by_id, rules_of, config)}\n</article>\n"
        f'<article id="diplomatic" class="view diplomatic" lang="{esc(w.lang)}" aria-label="Diplomatic view" hidden>'
        f'<pre class="dipl">{_diplomatic_view(r, config)}</pre></article>'
    )
    return _page(f"{w.id}: {w.title}", body, "../", config, "witness")


def render_site(results: Sequence[WitnessResult], links: Sequence[Link], rules: Mapping | Sequence | None = None,
                config: SiteConfig = SiteConfig()) -> dict[str, bytes]:
    """The static site: {relative path under outputs/site/: bytes} (pure and deterministic)."""
    law_by_id = {law.id: law for r in results for law in r.segmented.laws}
    links = sorted(links, key=lambda k: (k.game, k.a, k.b))
    rules_of = rules_by_law(rules, law_by_id)
    out: dict[str, bytes] = {}
    out["index.html"] = _index_html(results, links, law_by_id, config).encode("utf-8")
    for r in results:
        out[f"witness/{r.witness.id}.html"] = _witness_html(r, links, law_by_id, rules_of, config).encode("utf-8")
    for name in ASSET_FILES:
        out[f"assets/{name}"] = (ASSETS_DIR / name).read_bytes()
    return out
