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

The markup lives in Jinja2 templates (``pipeline/templates/``: ``base.html`` the page layout,
``index.html`` and ``synoptic.html`` the index and its tables, ``witness.html`` a witness page,
``macros.html`` the shared pieces); this module only builds plain view data (dicts of strings) for
them.  Autoescaping is on for every template, so everything that comes from the corpus is escaped
(text and attributes); no corpus text is ever put inside a ``<script>``.  The output is deterministic (no timestamps, every
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

import bisect
import csv
import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence
from urllib.parse import quote

import jinja2

from .export.collate import collate, collation_pairs, join_tokens, witness_readings
from .model import Correction, Flag, Law, Link, Segment, WitnessResult, offset_maps
from .export.tei.config import EditionInfo
from .export.tei.xml import XML_ILLEGAL
from .textnorm import fold

ASSETS_DIR = Path(__file__).resolve().parent / "site_assets"
ASSET_FILES = ("site.css", "site.js")
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


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
    # the tables a reader can download (paths relative to outputs/)
    tables: tuple[str, ...] = ("laws.csv", "witnesses.csv", "corrections.csv", "alignments.csv", "rules.csv")
    title: str = "Laws of Écarté and Whist: a reading edition"


# ----------------------------------------------------------------------------------------------
# small helpers


def _printed(s: str) -> str:
    """A printed form for a tooltip: line breaks shown as ⏎, other whitespace runs as one space."""
    s = s.replace("\r\n", "\n").replace("\n", "⏎")
    return re.sub(r"[ \t\f\v]+", " ", s)


def _shown(raw: str) -> str:
    """The raw text for the page: a character HTML and XML cannot show (a form feed between pdftotext's pages,
    a stray control code) as its Unicode control picture (␌ for U+000C), one for one, so offsets hold."""
    return XML_ILLEGAL.sub(lambda m: chr(0x2400 + ord(m.group())) if m.group() < " " else "\ufffd", raw)


def _conf(x: float) -> str:
    return f"{x:.2f}"


def witness_href(witness_id: str, law_id: str | None = None, prefix: str = "") -> str:
    url = f"{prefix}witness/{quote(witness_id)}.html"
    return url + (f"#{quote(law_id, safe='.-_')}" if law_id else "")


def law_label(law: Law) -> str:
    """The label of a law from its number *as read* ("Law 38"), never the printed form (".$.", "38.")."""
    if law.kind == "law" and law.number is not None:
        return f"Law {law.number}"
    label = law.label or (str(law.number) if law.number is not None else law.id)
    if label[:1].isdigit():
        return f"Law {label}"
    return label[:1].upper() + label[1:]


def row_anchor(law_ids: Sequence[str]) -> str:
    """The anchor of a synoptic row: named after its first law, so it stays when rows are added."""
    return f"row.{law_ids[0]}" if law_ids else "row"


def load_glossary(path: str | Path) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The French/English pairs of ``corpus/glossary.csv`` (alternatives split on "|"); () without the file."""
    p = Path(path)
    if not p.is_file():
        return ()
    lines = [line for line in p.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    out = []
    for row in csv.DictReader(lines):
        fr = tuple(x.strip() for x in (row.get("fr") or "").split("|") if x.strip())
        en = tuple(x.strip() for x in (row.get("en") or "").split("|") if x.strip())
        if fr and en:
            out.append((fr, en))
    return tuple(out)


class _TermIndex:
    """The folded terms of a glossary indexed by their first characters, to find every term that begins a word of
    a text in one pass over the text (a regular expression per term and cell was quadratic in a book's cells)."""

    def __init__(self, glossary: Sequence[tuple[Sequence[str], Sequence[str]]]):
        self.pairs = [tuple(fold(t) for t in (*fr, *en)) for fr, en in glossary]
        self.by_prefix: dict[str, list[tuple[str, int]]] = {}
        self.always = {i for i, terms in enumerate(self.pairs) if "" in terms}  # (an empty term begins any text)
        for i, terms in enumerate(self.pairs):
            for t in terms:
                if t:
                    self.by_prefix.setdefault(t[:_PREFIX], []).append((t, i))
        self.lengths = sorted({len(k) for k in self.by_prefix})

    def pairs_in(self, text: str) -> set[int]:
        """The pairs one of whose terms occurs in ``text`` at the start of a word (not after a word character)."""
        hit = set(self.always)
        n = len(text)
        for m in _WORD_START.finditer(text):
            p = m.start()
            for k in self.lengths:
                if p + k > n:
                    break
                for t, i in self.by_prefix.get(text[p : p + k], ()):
                    if i not in hit and text.startswith(t, p):
                        hit.add(i)
        return hit


_PREFIX = 3  # characters of a term its index keys on
_WORD_START = re.compile(r"(?<!\w)(?=.)", re.S)  # a position not after a word character


@functools.lru_cache(maxsize=8)
def _term_index(glossary: tuple) -> _TermIndex:
    return _TermIndex(glossary)


def search_key(texts: Iterable[str], glossary: Sequence[tuple[Sequence[str], Sequence[str]]]) -> str:
    """What the search box compares for one cell: its texts (reading and printed forms) folded, plus
    the terms of every glossary pair one of whose terms begins a word of them or of the terms so added, so a
    search for a term finds every cell that a search for its equivalent finds (atout and trump)."""
    hay = " ".join(fold(t) for t in texts if t)
    index = _term_index(tuple((tuple(fr), tuple(en)) for fr, en in glossary))
    extra: list[str] = []
    done: set[int] = set()
    found = hay
    while True:  # to a fixed point: a term added by one pair brings the pairs it belongs to (trump -> atout)
        # (a term at the start of a word: its inflected forms too, trumps and atouts, as the box's
        # substring search finds them)
        hit = sorted(index.pairs_in(found) - done)
        if not hit:
            break
        done.update(hit)
        new = [t for i in hit for t in index.pairs[i] if t not in extra]
        extra.extend(dict.fromkeys(new))
        found = " ".join([hay] + extra)
    return " ".join([hay] + extra)


def _words(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value if v not in (None, "", [], {}))
    if isinstance(value, Mapping):
        return ", ".join(f"{_words(k)} {_words(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("_", " ") if value is not None else ""


def ruling_sentence(row: Mapping) -> str:
    """A row of the rule table said as a sentence ("In the canonical rules of écarté, when the cut is
    not shown, the outcome is: lose deal.")."""
    if not isinstance(row, Mapping):
        return ""
    parts = []
    lead = " ".join(
        x
        for x in (
            f"In the {_words(row['ruleset'])} rules" if row.get("ruleset") else "",
            f"of {_words(row['game'])}" if row.get("game") else "",
        )
        if x
    )
    when = _words(row.get("event") or row.get("rule_id") or "")
    facts = _words(row.get("facts") or "")
    cond = f"when {when}" + (f" ({facts})" if facts else "") if when else ""
    head = ", ".join(x for x in (lead, cond) if x)
    outcome = _words(row.get("outcome") or "")
    if outcome:
        parts.append((head + ", the outcome is: " if head else "The outcome is: ") + outcome)
    elif head:
        parts.append(head)
    if row.get("options"):
        parts.append(
            "the options are "
            + _words(row["options"])
            + (f", chosen by the {_words(row['chooser'])}" if row.get("chooser") else "")
        )
    if row.get("penalties"):
        parts.append("penalties: " + _words(row["penalties"]))
    if row.get("dissent"):
        parts.append("witnesses that rule otherwise: " + _words(row["dissent"]))
    known = {
        "ruleset",
        "game",
        "event",
        "rule_id",
        "facts",
        "outcome",
        "options",
        "chooser",
        "penalties",
        "dissent",
        "note",
        "citations",
        "sources",
        "law_id",
    }
    for k, v in row.items():
        if k not in known and v not in (None, "", [], {}):
            parts.append(f"{_words(k)}: {_words(v)}")
    sentence = "; ".join(parts)
    return (sentence[:1].upper() + sentence[1:] + ".") if sentence else ""


def _citations(row: Mapping) -> list[str]:
    cites = row.get("citations") if isinstance(row, Mapping) else None
    out: list[str] = []
    if isinstance(cites, str):
        out = [c.strip() for c in re.split(r"[;,\s]+", cites) if c.strip()]
    elif isinstance(cites, (list, tuple)):
        for c in cites:
            if isinstance(c, Mapping) and c.get("law_id"):
                out.append(str(c["law_id"]))
            elif isinstance(c, str):
                out.append(c)
    return out


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
    layout = sorted(
        {(c.start, c.end) for c in cleaned.corrections if c.kind in config.layout_kinds}
        | {(p.raw_start, p.raw_end) for p in cleaned.page_breaks if p.raw_end > p.raw_start}
    )
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


def _unit_view(u: _Unit, tip: str, text: str, extra_class: str = "", tag: str = "span") -> dict:
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
        view["confidence"] = _conf(min(c.confidence for c in u.corrections))
    return view


def _text_piece(s: str) -> dict:
    return {"kind": "text", "text": s}


def _pieces(
    text: str, a: int, b: int, units: Sequence[_Unit], points: Sequence[tuple[int, dict]], render_unit
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


def _strip_pieces(pieces: list[dict]) -> list[dict]:
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


def _page_marker(p) -> dict:
    label = f"p. {p.page}" if p.page else "page break"
    return {"kind": "page", "page": p.page, "label": label, "tip": _page_tip(p)}


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


def _rule_view(row: Mapping, law_by_id: Mapping[str, Law], prefix: str) -> dict:
    """A ruling as the page says it: a sentence, the rule table's note, the laws it cites (links)."""
    cites = []
    for lid in _citations(row):
        law = law_by_id.get(lid)
        if law is not None:
            cites.append(
                {"href": witness_href(law.witness_id, law.id, prefix), "label": f"{law.witness_id} · {law_label(law)}"}
            )
    return {"sentence": ruling_sentence(row), "note": str(row.get("note") or ""), "citations": cites}


# ----------------------------------------------------------------------------------------------
# the synoptic table


@dataclass
class SynopticRow:
    """One provision: for each witness the laws placed in this row, and the laws referred to."""

    laws: dict[str, list[Law]] = field(default_factory=dict)  # witness id -> laws placed here
    refs: dict[str, list[tuple[Law, Link]]] = field(default_factory=dict)  # witness id -> (law, link)

    def law_ids(self) -> list[str]:
        return [law.id for ls in self.laws.values() for law in ls]


def synoptic_rows(
    witness_ids: Sequence[str], laws_of: Mapping[str, Sequence[Law]], links: Sequence[Link]
) -> list[SynopticRow]:
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


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    """The template environment: templates from ``pipeline/templates/``, autoescaping on for all of them."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _render(template: str, **view: Any) -> str:
    return _env().get_template(template).render(**view)


def _game_title(game: str, config: SiteConfig) -> str:
    return dict(config.game_titles).get(game, game.capitalize())


def _lang_title(lang: str, config: SiteConfig) -> str:
    return dict(config.lang_titles).get(lang, lang)


def _link_view(k: Link, other: Law, prefix: str, config: SiteConfig) -> dict:
    sc = f"{k.score:.{config.score_digits}f}"
    return {
        "a": k.a,
        "b": k.b,
        "score": sc,
        "kind": k.kind,
        "evidence": k.evidence,
        "href": witness_href(other.witness_id, other.id, prefix),
        "other_witness": other.witness_id,
        "other_label": law_label(other),
        "tip": f"score {sc} · {k.kind}" + (f" · {k.evidence}" if k.evidence else ""),
    }


def _links_of(law_id: str, links: Sequence[Link]) -> list[tuple[Link, str]]:
    out = []
    for k in links:
        if k.a == law_id:
            out.append((k, k.b))
        elif k.b == law_id:
            out.append((k, k.a))
    return sorted(out, key=lambda t: (-t[0].score, t[1]))


def _printed_forms(r: WitnessResult) -> dict[str, list[str]]:
    """Per law, the printed forms of the words the pipeline repaired in it (what the search also finds)."""
    _, r2c = offset_maps(r.cleaned.raw, r.cleaned.corrections)
    laws = sorted(r.segmented.laws, key=lambda law: law.start)
    starts = [law.start for law in laws]
    out: dict[str, list[str]] = defaultdict(list)
    for c in r.cleaned.corrections:
        if not c.before.strip() or c.kind in ("running_head", "whitespace"):
            continue
        at = r2c[c.start]
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0 and laws[i].start <= at < laws[i].end:
            out[laws[i].id].append(" ".join(c.before.split()))
    return out


def _collation_view(a: Law, b: Law, readings: Mapping[str, str]) -> dict:
    """Law ``a`` as its witness gives it, token by token, its variants against law ``b`` marked."""
    toks = []
    for seg in collate(readings.get(a.id, a.text), readings.get(b.id, b.text)):
        if seg.variant:
            toks.append({"var": True, "text": join_tokens(seg.a), "other": join_tokens(seg.b) or "(nothing)"})
        else:
            toks.append({"var": False, "text": join_tokens(seg.a), "other": ""})
    return {"against": b.witness_id, "tokens": toks, "variants": sum(1 for t in toks if t["var"])}


def _synoptic_view(
    game: str,
    results: Sequence[WitnessResult],
    links: Sequence[Link],
    law_by_id: Mapping[str, Law],
    config: SiteConfig,
    glossary: Sequence = (),
) -> dict:
    wids = [r.witness.id for r in results]
    laws_of = {r.witness.id: r.segmented.laws for r in results}
    game_links = [k for k in links if k.a in law_by_id and k.b in law_by_id]
    rows = synoptic_rows(wids, laws_of, game_links)
    pairs = {frozenset((a.id, b.id)) for _, a, b in collation_pairs(list(law_by_id.values()), game_links)}
    collated = {x for pr in pairs for x in pr}
    readings: dict[str, str] = {}
    printed: dict[str, list[str]] = {}
    for r in results:
        if any(law.id in collated for law in r.segmented.laws):
            readings.update(witness_readings(r))
        printed.update(_printed_forms(r))
    columns = [
        {
            "id": r.witness.id,
            "href": witness_href(r.witness.id),
            "lang": _lang_title(r.witness.lang, config),
            "kind": r.witness.kind,
        }
        for r in results
    ]
    row_views = []
    for i, row in enumerate(rows, 1):
        cells = []
        for r in results:
            w = r.witness.id
            laws = []
            texts: list[str] = []
            row_laws = [x for ls in row.laws.values() for x in ls]
            for law in row.laws.get(w, []):
                ls = _links_of(law.id, game_links)
                laws.append(
                    {
                        "id": law.id,
                        "href": witness_href(w, law.id),
                        "label": law_label(law),
                        "lang": law.lang,
                        "text": law.text,
                        "printed": bool(law.printed),
                        "complete": law.complete,
                        "links": [_link_view(k, law_by_id[o], "", config) for k, o in ls],
                        "best": f"{ls[0][0].score:.{config.score_digits}f}" if ls else "",
                        "collations": [
                            _collation_view(law, o, readings) for o in row_laws if frozenset((law.id, o.id)) in pairs
                        ],
                    }
                )
                texts += [law.text, *printed.get(law.id, ())]
            refs = []
            for law, k in row.refs.get(w, []):
                sc = f"{k.score:.{config.score_digits}f}"
                refs.append(
                    {
                        "id": law.id,
                        "href": witness_href(w, law.id),
                        "label": law_label(law),
                        "score": sc,
                        "tip": f"score {sc} · {k.kind} · {k.evidence}",
                    }
                )
            cells.append(
                {
                    "witness": w,
                    "label": f"{w} ({_lang_title(r.witness.lang, config)}, {r.witness.kind})",
                    "laws": laws,
                    "refs": refs,
                    "search": search_key(texts, glossary) if texts else "",
                }
            )
        row_views.append(
            {
                "id": row_anchor(row.law_ids()),
                "n": i,
                "laws": " ".join(row.law_ids()),
                "cells": cells,
                "unmatched": sum(1 for ls in row.laws.values() if ls) == 1,
            }
        )
    return {"game": game, "title": _game_title(game, config), "columns": columns, "rows": row_views}


def _index_html(
    results: Sequence[WitnessResult],
    links: Sequence[Link],
    law_by_id: Mapping[str, Law],
    config: SiteConfig,
    glossary: Sequence = (),
    data_files: Sequence[str] = (),
    edition: EditionInfo = EditionInfo(),
) -> str:
    games = list(dict.fromkeys(r.witness.game for r in results))
    witnesses = []
    for r in results:
        w = r.witness
        meta = " · ".join(
            x
            for x in (
                _game_title(w.game, config),
                _lang_title(w.lang, config),
                w.kind,
                w.author,
                str(w.year or ""),
                f"p. {w.page}" if w.page else "",
            )
            if x
        )
        witnesses.append(
            {
                "id": w.id,
                "game": w.game,
                "href": witness_href(w.id),
                "title": w.title,
                "meta": meta,
                "laws": len(r.segmented.laws),
                "corrections": len(r.cleaned.corrections),
                "flags": len(r.cleaned.flags),
                "downloads": _downloads(w.id, "../"),
            }
        )
    sections = []
    for g in games:
        rs = [r for r in results if r.witness.game == g]
        sections.append(
            _synoptic_view(g, rs, links, {k: v for k, v in law_by_id.items() if v.game == g}, config, glossary)
        )
    data = [{"href": "../" + f, "name": f, "what": _data_what(f)} for f in data_files]
    data += [
        {
            "href": f"../tei/collation-{g}.xml",
            "name": f"tei/collation-{g}.xml",
            "what": f"word-level collation of the aligned laws of {_game_title(g, config)} (TEI)",
        }
        for g in games
    ]
    return _render(
        "index.html",
        title=config.title,
        site_title=config.title,
        prefix="",
        page_class="index",
        witnesses=witnesses,
        games=[{"id": g, "title": _game_title(g, config)} for g in games],
        sections=sections,
        data=data,
        tables=[{"href": "../" + t, "name": t} for t in config.tables],
        edition=edition,
    )


def _data_what(name: str) -> str:
    if name.endswith(".svg"):
        return "figure"
    if name.endswith("datapackage.json"):
        return "Frictionless data package: the tables with their schemas"
    if name.endswith(".sqlite"):
        return "SQLite database of the tables (opens in Datasette)"
    return "data"


def _downloads(witness_id: str, prefix: str) -> list[dict]:
    """What one can download of a witness (relative to the site's folder given by ``prefix``)."""
    return [
        {"href": f"{prefix}tei/{quote(witness_id)}.xml", "name": "TEI"},
        {"href": f"{prefix}text/{quote(witness_id)}.txt", "name": "text"},
    ]


def _number_end(text: str, law: Law) -> int:
    """Where the law's text begins after its printed number (the label replaces the number)."""
    for o in range(law.start, min(law.end, law.start + 64) + 1):
        if " ".join(text[o : law.end].split()) == law.text:
            return o
    return law.start


def _citation(r: WitnessResult, law: Law, edition: EditionInfo, config: SiteConfig) -> dict:
    w = r.witness
    path = witness_href(w.id, law.id)
    # the URL where the edition is published; without one, the page's path in the edition's folder
    url = edition.base_url + "site/" + path if edition.base_url else "site/" + path
    href = url if edition.base_url else "../" + path
    source = ", ".join(x for x in (w.author, w.title, w.place, w.publisher, str(w.year or "")) if x)
    parts = [
        f"{law_label(law)} [{law.id}]",
        f"witness {w.id}",
        source,
        f"{edition.title}"
        + (f", version {edition.version}" if edition.version else "")
        + (f" ({edition.date})" if edition.date else ""),
        url,
    ]
    return {
        "text": ". ".join(x for x in parts if x) + ".",
        "url": url,
        "href": href,
        "law_id": law.id,
        "witness": w.id,
        "source": source,
        "version": edition.version,
        "date": edition.date,
    }


def _reading_view(
    r: WitnessResult,
    links: Sequence[Link],
    law_by_id: Mapping[str, Law],
    rules_of: Mapping[str, list],
    config: SiteConfig,
    edition: EditionInfo = EditionInfo(),
) -> list[dict]:
    cleaned, seg = r.cleaned, r.segmented
    text = cleaned.text
    units = reading_units(cleaned, config)
    points = [(p.clean_offset, _page_marker(p)) for p in cleaned.page_breaks]
    laws = {law.id: law for law in seg.laws}
    segments = list(seg.segments) or [Segment("other", 0, len(text))]

    def render(u: _Unit, inner: str) -> dict:
        tip = _correction_tip(u, "printed", u.printed)
        if not inner:  # a deletion between words
            return _unit_view(u, tip, "", "del")
        return _unit_view(u, tip, inner, tag="mark")

    out: list[dict] = []
    for s in segments:
        law = laws.get(s.law_id) if s.law_id else None
        start = _number_end(text, law) if law is not None and law.start == s.start else s.start
        pieces = _strip_pieces(_pieces(text, start, s.end, units, points, render))
        if law is None:
            if pieces:
                out.append(
                    {
                        "law": None,
                        "kind": s.kind,
                        "cls": "heading" if s.kind == "heading" else "other",
                        "pieces": pieces,
                    }
                )
            continue
        pages = ", ".join(law.pages)
        meta = " · ".join(
            x
            for x in (
                f"id {law.id}",
                f"printed “{law.printed}”" if law.printed else "number not printed",
                f"page {pages}" if pages else "",
                "fragment" if not law.complete else "",
                f"boundary confidence {_conf(law.confidence)}",
            )
            if x
        )
        out.append(
            {
                "law": {
                    "id": law.id,
                    "lang": law.lang,
                    "label": law_label(law),
                    "meta": meta,
                    "links": [
                        _link_view(k, law_by_id[o], "../", config)
                        for k, o in _links_of(law.id, links)
                        if o in law_by_id
                    ],
                    "rules": [_rule_view(x, law_by_id, "../") for x in rules_of.get(law.id, [])],
                    "cite": _citation(r, law, edition, config),
                    "downloads": _downloads(r.witness.id, "../../"),
                    "tables": [{"href": "../../" + t, "name": t} for t in config.tables],
                },
                "pieces": pieces,
            }
        )
    return out


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


def _diplomatic_view(r: WitnessResult, config: SiteConfig) -> list[dict]:
    cleaned, seg = r.cleaned, r.segmented
    c2r, _ = offset_maps(cleaned.raw, cleaned.corrections)
    raw = _shown(cleaned.raw)
    units = diplomatic_units(cleaned, config)
    # page breaks without a printed line: a marker at their raw position
    points = [(p.raw_start, _page_marker(p)) for p in cleaned.page_breaks if p.raw_end <= p.raw_start]

    def render(u: _Unit, inner: str) -> dict:
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
            tip_parts.append(
                _correction_tip(_Unit(u.start, u.end, u.corrections), "printed", inner)
                + f"\nreads: “{_printed(reading)}”"
            )
        if u.flags:
            tip_parts.append(_correction_tip(_Unit(u.start, u.end, flags=u.flags), "printed", inner))
        tip_parts += [_page_tip(p) for p in u.pages]
        view = _unit_view(u, "\n".join(tip_parts), inner, cls)
        if u.pages:
            p = u.pages[0]
            view["page"], view["page_label"] = p.page, (f"p. {p.page}" if p.page else "page break")
        return view

    # segments tile the cleaned text; their raw spans tile the raw text
    segs = list(seg.segments)
    bounds = [0] + [c2r[s.start] for s in segs[1:]] + [len(raw)] if segs else [0, len(raw)]
    out = []
    for i in range(len(bounds) - 1):
        a, b = bounds[i], bounds[i + 1]
        if b < a:
            continue
        s = segs[i] if segs else None
        out.append({"law_id": s.law_id if s is not None else None, "pieces": _pieces(raw, a, b, units, points, render)})
    return out


def _witness_html(
    r: WitnessResult,
    links: Sequence[Link],
    law_by_id: Mapping[str, Law],
    rules_of: Mapping[str, list],
    config: SiteConfig,
    edition: EditionInfo = EditionInfo(),
) -> str:
    w = r.witness
    meta_rows = [
        ("Game", _game_title(w.game, config)),
        ("Language", _lang_title(w.lang, config)),
        ("Kind", w.kind),
        ("Title", w.title),
        ("Author", w.author),
        ("Year", w.year or ""),
        ("Source", w.source),
        ("First page", w.page),
        ("File", w.file),
        ("Note", w.note),
        ("Laws", len(r.segmented.laws)),
        ("Corrections", len(r.cleaned.corrections)),
        ("Flagged for review", len(r.cleaned.flags)),
        ("Page breaks", len(r.cleaned.page_breaks)),
    ]
    kinds: dict[str, int] = defaultdict(int)
    for c in r.cleaned.corrections:
        kinds[c.kind] += 1
    view: dict[str, Any] = {
        "id": w.id,
        "title": w.title,
        "game": w.game,
        "game_title": _game_title(w.game, config),
        "lang": w.lang,
        "meta": [(k, v) for k, v in meta_rows if v not in ("", None)],
        "kinds": ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
    }
    view["downloads"] = _downloads(w.id, "../../")
    view["tables"] = [{"href": "../../" + t, "name": t} for t in config.tables]
    return _render(
        "witness.html",
        title=f"{w.id}: {w.title}",
        site_title=config.title,
        prefix="../",
        page_class="witness",
        w=view,
        reading=_reading_view(r, links, law_by_id, rules_of, config, edition),
        diplomatic=_diplomatic_view(r, config),
    )


def render_site(
    results: Sequence[WitnessResult],
    links: Sequence[Link],
    rules: Mapping | Sequence | None = None,
    config: SiteConfig = SiteConfig(),
    *,
    glossary: Sequence = (),
    edition: EditionInfo = EditionInfo(),
    data_files: Sequence[str] = (),
) -> dict[str, bytes]:
    """The static site: {relative path under outputs/site/: bytes} (pure and deterministic).

    ``glossary`` (``load_glossary``) lets the search find a law through the other language's terms;
    ``edition`` names the edition in the "cite this law" boxes; ``data_files`` (paths relative to
    outputs/, e.g. ``figures/x.svg``, ``datapackage.json``) are linked from the index's data section."""
    law_by_id = {law.id: law for r in results for law in r.segmented.laws}
    links = sorted(links, key=lambda k: (k.game, k.a, k.b))
    rules_of = rules_by_law(rules, law_by_id)
    out: dict[str, bytes] = {}
    out["index.html"] = _index_html(results, links, law_by_id, config, glossary, data_files, edition).encode("utf-8")
    for r in results:
        out[f"witness/{r.witness.id}.html"] = _witness_html(r, links, law_by_id, rules_of, config, edition).encode(
            "utf-8"
        )
    for name in ASSET_FILES:
        out[f"assets/{name}"] = (ASSETS_DIR / name).read_bytes()
    return out
