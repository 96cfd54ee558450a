"""The view data the templates draw: rulings as sentences, links, the synoptic tables of a game, and the
reading and diplomatic views of a witness (plain dicts of strings)."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from typing import Any, Mapping, Sequence

from ...model import Law, Link, Segment, WitnessResult, offset_maps
from ..collate import collate, collation_pairs, join_tokens, witness_readings
from ..tei.config import EditionInfo
from .rows import SiteConfig, data_href, law_label, row_anchor, synoptic_rows, witness_href
from .search import search_key
from .units import (
    Unit,
    conf_text,
    correction_tip,
    diplomatic_units,
    page_marker,
    page_tip,
    printed_form,
    reading_units,
    shown_raw,
    strip_pieces,
    text_pieces,
    unit_view,
)


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
    raw_facts = row.get("facts")
    norm = ""
    if isinstance(raw_facts, Mapping) and "force" in raw_facts and when:
        # a norm, how the game is conducted: "In the canonical rules of whist, shuffling is forbidden"
        others = _words({k: v for k, v in raw_facts.items() if k != "force"})
        norm = f"{when} is {_words(raw_facts['force'])}" + (f" ({others})" if others else "")
    facts = _words(row.get("facts") or "")
    cond = f"when {when}" + (f" ({facts})" if facts else "") if when else ""
    head = ", ".join(x for x in (lead, cond) if x)
    outcome = _words(row.get("outcome") or "")
    if norm:
        parts.append(f"{lead}, {norm}" if lead else norm[:1].upper() + norm[1:])
    elif outcome:
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


def game_display(game: str, config: SiteConfig) -> str:
    return dict(config.game_titles).get(game, game.capitalize())


def lang_display(lang: str, config: SiteConfig) -> str:
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


def synoptic_view(
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
            "lang": lang_display(r.witness.lang, config),
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
                    "label": f"{w} ({lang_display(r.witness.lang, config)}, {r.witness.kind})",
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
    return {"game": game, "title": game_display(game, config), "columns": columns, "rows": row_views}


def data_what(name: str) -> str:
    if name.endswith(".svg"):
        return "figure"
    if name.endswith("datapackage.json"):
        return "Frictionless data package: the tables with their schemas"
    if name.endswith(".sqlite"):
        return "SQLite database of the tables (opens in Datasette)"
    if name.endswith("metadata.json"):
        return "Datasette's metadata for the database: tables and columns described, facets, canned queries"
    return "data"


def witness_files(witness_id: str) -> list[str]:
    """The outputs of one witness a reader can download (relative to outputs/)."""
    return [f"tei/{witness_id}.xml", f"text/{witness_id}.txt"]


def download_links(witness_id: str, prefix: str, config: SiteConfig = SiteConfig()) -> list[dict]:
    """What one can download of a witness (its copies in the site, from a page whose way back to the site's
    folder is ``prefix``)."""
    return [
        {"href": data_href(rel, prefix, config), "name": name}
        for rel, name in zip(witness_files(witness_id), ("TEI", "text"))
    ]


def table_links(prefix: str, config: SiteConfig = SiteConfig()) -> list[dict]:
    """The tables a reader can download (their copies in the site)."""
    return [{"href": data_href(t, prefix, config), "name": t} for t in config.tables]


def _number_end(text: str, law: Law) -> int:
    """Where the law's text begins after its printed number (the label replaces the number)."""
    for o in range(law.start, min(law.end, law.start + 64) + 1):
        if " ".join(text[o : law.end].split()) == law.text:
            return o
    return law.start


def _citation(r: WitnessResult, law: Law, edition: EditionInfo, config: SiteConfig) -> dict:
    """The "cite this law" box: the law, its witness and source, the edition (editors, title, version, date) and
    the law's absolute URL: under ``base_url`` of corpus/edition.toml (the site published at ``<base_url>site/``);
    without one, the page's script writes the address the page was opened from (``absolute`` False)."""
    w = r.witness
    path = witness_href(w.id, law.id)
    url = edition.base_url + "site/" + path if edition.base_url else "site/" + path
    href = url if edition.base_url else "../" + path
    source = ", ".join(x for x in (w.author, w.title, w.place, w.publisher, str(w.year or "")) if x)
    editors = ", ".join(e.name for e in edition.editors if not e.ref)
    parts = [
        f"{law_label(law)} [{law.id}]",
        f"witness {w.id}",
        source,
        (f"In {editors} (eds.), " if editors else "")
        + f"{edition.title}"
        + (f", version {edition.version}" if edition.version else "")
        + (f" ({edition.date})" if edition.date else ""),
    ]
    return {
        "text": ". ".join(x for x in parts if x) + ".",
        "url": url,
        "href": href,
        "absolute": bool(edition.base_url),
        "law_id": law.id,
        "witness": w.id,
        "source": source,
        "editors": editors,
        "version": edition.version,
        "date": edition.date,
    }


def _law_anchors(laws: Sequence[Law], segments: Sequence[Segment]) -> dict[int, list[str]]:
    """Laws with no segment of their own (a law whose text is all its clauses: ``37. (a) ... (b) ...``): the
    index of the segment where each is anchored, its first clause's or, failing that, the one it starts in;
    so every law of the tables and the synoptic view has an address on its witness's page."""
    own = {s.law_id for s in segments if s.law_id}
    first_of: dict[str, int] = {}
    for i, s in enumerate(segments):
        if s.law_id:
            first_of.setdefault(s.law_id, i)
    parent = {law.id: law.parent for law in laws}
    out: dict[int, list[str]] = defaultdict(list)
    for law in laws:
        if law.id in own or not segments:
            continue
        clauses = [first_of[k] for k, p in parent.items() if p == law.id and k in first_of]
        at = min(clauses) if clauses else None
        if at is None:
            starts = [s.start for s in segments]
            at = max(0, bisect.bisect_right(starts, law.start) - 1)
        out[at].append(law.id)
    return out


def reading_view(
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
    points = [(p.clean_offset, page_marker(p)) for p in cleaned.page_breaks]
    laws = {law.id: law for law in seg.laws}
    segments = list(seg.segments) or [Segment("other", 0, len(text))]

    def render(u: Unit, inner: str) -> dict:
        tip = correction_tip(u, "printed", u.printed)
        if not inner:  # a deletion between words
            return unit_view(u, tip, "", "del")
        return unit_view(u, tip, inner, tag="mark")

    anchors = _law_anchors(seg.laws, segments)
    out: list[dict] = []
    for i, s in enumerate(segments):
        law = laws.get(s.law_id) if s.law_id else None
        start = _number_end(text, law) if law is not None and law.start == s.start else s.start
        pieces = strip_pieces(text_pieces(text, start, s.end, units, points, render))
        if law is None:
            if pieces or anchors.get(i):
                out.append(
                    {
                        "law": None,
                        "kind": s.kind,
                        "cls": "heading" if s.kind == "heading" else "other",
                        "pieces": pieces,
                        "anchors": anchors.get(i, []),
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
                f"boundary confidence {conf_text(law.confidence)}",
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
                    "downloads": download_links(r.witness.id, "../", config),
                    "tables": table_links("../", config),
                },
                "anchors": anchors.get(i, []),
                "pieces": pieces,
            }
        )
    return out


def diplomatic_view(r: WitnessResult, config: SiteConfig) -> list[dict]:
    cleaned, seg = r.cleaned, r.segmented
    c2r, _ = offset_maps(cleaned.raw, cleaned.corrections)
    raw = shown_raw(cleaned.raw)
    units = diplomatic_units(cleaned, config)
    # page breaks without a printed line: a marker at their raw position
    points = [(p.raw_start, page_marker(p)) for p in cleaned.page_breaks if p.raw_end <= p.raw_start]

    def render(u: Unit, inner: str) -> dict:
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
                correction_tip(Unit(u.start, u.end, u.corrections), "printed", inner)
                + f"\nreads: “{printed_form(reading)}”"
            )
        if u.flags:
            tip_parts.append(correction_tip(Unit(u.start, u.end, flags=u.flags), "printed", inner))
        tip_parts += [page_tip(p) for p in u.pages]
        view = unit_view(u, "\n".join(tip_parts), inner, cls)
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
        out.append(
            {"law_id": s.law_id if s is not None else None, "pieces": text_pieces(raw, a, b, units, points, render)}
        )
    return out
