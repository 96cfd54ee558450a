"""The reading edition's settings and its rows: names and addresses of witnesses and laws, the rulings
under each law, and the rows of the synoptic table (``synoptic_rows``, the rule explained in
``pipeline/export/site/__init__.py``)."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence
from urllib.parse import quote

from ...model import Law, Link


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
    # the folder of site/ that holds copies of the outputs the pages link to (tables, TEI, texts, figures, the
    # database), in the layout of outputs/, so that site/ is published on its own and links to nothing outside it
    data_dir: str = "data/"
    title: str = "Laws of Écarté and Whist: a reading edition"


def witness_href(witness_id: str, law_id: str | None = None, prefix: str = "") -> str:
    url = f"{prefix}witness/{quote(witness_id)}.html"
    return url + (f"#{quote(law_id, safe='.-_')}" if law_id else "")


def data_href(rel: str, prefix: str = "", config: SiteConfig = SiteConfig()) -> str:
    """The address of an output (``tei/fr-000.xml``, relative to outputs/) as copied into the site, from a page
    whose way back to the site's folder is ``prefix`` (``""`` for the index, ``"../"`` for a witness page)."""
    return prefix + config.data_dir + quote(rel)


def law_label(law: Law) -> str:
    """The label of a law from its number *as read* ("Law 38"), never the printed form (".$.", "38.")."""
    if law.kind == "law" and law.number is not None:
        return f"Law {law.label if law.label[:1].isdigit() else law.number}"  # "Law 12a" for a lettered law
    label = law.label or (str(law.number) if law.number is not None else law.id)
    if label[:1].isdigit():
        return f"Law {label}"
    return label[:1].upper() + label[1:]


def row_anchor(law_ids: Sequence[str]) -> str:
    """The anchor of a synoptic row: named after its first law, so it stays when rows are added."""
    return f"row.{law_ids[0]}" if law_ids else "row"


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
