"""outputs/cardlaws.sqlite: the tables in one SQLite database (sqlite-utils), for Datasette or any SQL client.

Every table of pipeline/export/tables.py becomes a table of the same name and columns, typed (TEXT, INTEGER,
REAL; booleans as 0/1; a list column as a JSON array, ``["9", "10"]``, which Datasette facets on with
``_facet_array``), with its primary key, its foreign keys (``laws.witness`` -> ``witnesses.id``,
``alignments.law_a`` -> ``laws.law_id``, ...) and an index on each foreign key column; the law texts
get an FTS5 full-text index (``laws_fts``: text, label, heading; diacritics folded, so ``ecarte``
finds ``écarté``) that Datasette's search box and ``?_search=`` use as it is. The rule table's rows
are numbered (``rules.rule``, the row of rules.csv) and ``rule_citations`` (rule, law_id, role:
citation or dissent) joins each ruling to the laws it cites, with foreign keys to both.

The database is built from the CSV files of a build (streamed row by row: a library's tables are
never all in memory) into a fresh file, in table order and row order, then VACUUMed: the same tables
give the same bytes.

``datasette_metadata`` is ``outputs/metadata.json``, Datasette's metadata for the database: title, description,
licence and source, every table and column described, facets and canned queries (``datasette outputs/`` or
``datasette outputs/cardlaws.sqlite -m outputs/metadata.json``).
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .tables import TABLES, Column, PackageInfo, Table, list_items, package_sources

SQL_TYPES = {"string": str, "integer": int, "number": float, "boolean": int, "list": str}


@dataclass(frozen=True)
class DatabaseConfig:
    """fts_columns: the columns of ``laws`` searched by full text; tokenizer: the FTS5 tokenizer
    (unicode61 with diacritics folded: ``atout`` / ``écarté`` are found without accents);
    batch_size: rows per insert."""

    fts_table: str = "laws"
    fts_columns: tuple[str, ...] = ("text", "label", "heading")
    tokenizer: str = "unicode61 remove_diacritics 2"
    batch_size: int = 2000
    rules_table: str = "rules"  # gets a row number column (rule_key) that rule_citations refers to
    rule_key: str = "rule"


MAX_FIELD = 2**31 - 1  # the largest cell the tables are read back with (the csv module's limit is 128 KiB)


def _value(raw: str, column: Column):
    if raw == "":
        return None
    if column.type == "integer":
        return int(raw)
    if column.type == "number":
        return float(raw)
    if column.type == "boolean":
        return 1 if raw == "True" else 0
    if column.type == "list":
        return json.dumps(list_items(raw, column), ensure_ascii=False)
    return raw


def _rows(path: Path, table: Table) -> Iterator[dict]:
    types = table.columns
    # (a cell holds a whole law or page: a book printed as one line has cells far over the csv module's 128 KiB)
    csv.field_size_limit(max(csv.field_size_limit(), MAX_FIELD))
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header != table.column_names:
            raise ValueError(f"{path}: columns {header} are not the declared {table.column_names}")
        for row in reader:
            yield {name: _value(v, t) for name, v, t in zip(header, row, types)}


def _rule_citations(db, config: DatabaseConfig) -> None:
    """One row per law a ruling cites (or rules otherwise: ``role`` dissent), keyed to both tables."""
    rules, key = config.rules_table, config.rule_key
    db.table("rule_citations").create(
        {key: int, "law_id": str, "role": str},
        pk=(key, "law_id", "role"),
        foreign_keys=[(key, rules, key), ("law_id", "laws", "law_id")],
    )

    def rows():
        for rule, citations, dissent in db.execute(
            f"select [{key}], citations, dissent from [{rules}] order by [{key}]"
        ):
            for role, ids in (("citation", citations), ("dissent", dissent)):
                for law_id in dict.fromkeys(x.strip() for x in json.loads(ids or "[]") if x.strip()):
                    yield {key: rule, "law_id": law_id, "role": role}

    db.table("rule_citations").insert_all(list(rows()), batch_size=config.batch_size)
    db.table("rule_citations").create_index(["law_id"], find_unique_name=True)


def build_database(folder: Path, dest: Path, config: DatabaseConfig = DatabaseConfig()) -> Path:
    """Write ``dest`` (replaced if it exists) from the table CSVs in ``folder``; returns ``dest``."""
    import sqlite_utils

    dest = Path(dest)
    dest.unlink(missing_ok=True)
    present = [t for t in TABLES.values() if (Path(folder) / t.path).is_file()]
    names = {t.name for t in present}
    conn = sqlite3.connect(dest)
    # a fresh file built in the staging folder and published whole: no per-insert fsync, no journal file
    # (neither setting is stored in the database)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA journal_mode = MEMORY")
    try:
        db = sqlite_utils.Database(conn)
        for t in present:  # referenced tables first: TABLES lists witnesses, then laws, then the rest
            fks = [(fk.fields[0], fk.table, fk.reference[0]) for fk in t.foreign_keys if fk.table in names]
            columns = {c.name: SQL_TYPES[c.type] for c in t.columns}
            pk = (t.primary_key[0] if len(t.primary_key) == 1 else list(t.primary_key)) or None
            rows = _rows(Path(folder) / t.path, t)
            if t.name == config.rules_table:  # numbered, for the rule_citations table
                columns, pk = {config.rule_key: int, **columns}, config.rule_key
                rows = ({config.rule_key: i, **r} for i, r in enumerate(rows, 1))
            db.table(t.name).create(
                columns, pk=pk, not_null={c.name for c in t.columns if c.required}, foreign_keys=fks
            )
            db.table(t.name).insert_all(rows, batch_size=config.batch_size)
            for column, _, _ in fks:
                db.table(t.name).create_index([column], find_unique_name=True)
        if {config.rules_table, "laws"} <= names:
            _rule_citations(db, config)
        if config.fts_table in names:
            db.table(config.fts_table).enable_fts(
                list(config.fts_columns), fts_version="FTS5", tokenize=config.tokenizer
            )
            db.table(f"{config.fts_table}_fts").optimize()
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()
    return dest


# --------------------------------------------------------------------------- Datasette's metadata


@dataclass(frozen=True)
class DatasetteConfig:
    """What Datasette shows first: the facets of each table (a list column as ``{"array": name}``), each table's
    sort and label columns, and the canned queries (name -> title, SQL; ``:name`` is a form field)."""

    database: str = "cardlaws"  # Datasette names a database after its file
    facets: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("witnesses", ("game", "lang", "kind")),
        ("laws", ("witness", "kind", "complete", "pages")),
        ("corrections", ("witness", "kind", "method")),
        ("flags", ("witness", "reason")),
        ("pages", ("witness",)),
        ("alignments", ("game", "band", "kind")),
        ("unaligned", ("game", "witness", "other_witness")),
        ("rules", ("game", "ruleset", "status", "event", "sources", "penalties")),
        ("rule_citations", ("role",)),
    )
    sort: tuple[tuple[str, str], ...] = (("laws", "order"), ("alignments", "law_a"))
    label_columns: tuple[tuple[str, str], ...] = (("witnesses", "id"), ("laws", "law_id"), ("rules", "note"))
    queries: tuple[tuple[str, str, str], ...] = (
        (
            "rulings_of_a_law",
            "The rulings that cite a law (law_id: <game>.<witness>.law-<n>)",
            "select r.rule, r.ruleset, r.game, r.event, r.outcome, r.note, c.role, r.status\n"
            "from rule_citations c join rules r using (rule)\nwhere c.law_id = :law_id\norder by r.rule",
        ),
        (
            "laws_on_a_page",
            "The laws printed on a page of a witness (witness: its id; page: the number as printed)",
            "select l.law_id, l.label, l.text\nfrom laws l, json_each(l.pages) p\n"
            "where l.witness = :witness and p.value = :page\norder by l.[order]",
        ),
        (
            "translations",
            "A French law and the English law it states, side by side (best links first)",
            "select a.score, a.band, fr.law_id as french, fr.text as french_text, en.law_id as english, en.text as "
            "english_text\nfrom alignments a\njoin laws fr on fr.law_id in (a.law_a, a.law_b) and fr.lang = 'fr'\n"
            "join laws en on en.law_id in (a.law_a, a.law_b) and en.lang = 'en'\nwhere a.kind = 'translation'\n"
            "order by a.score desc",
        ),
    )


def _db_tables(config: DatabaseConfig) -> dict[str, tuple[str, str, dict[str, str]]]:
    """Every table of the database: name -> (title, description, {column: description})."""
    out = {t.name: (t.title, t.description, {c.name: c.description for c in t.columns}) for t in TABLES.values()}
    title, desc, cols = out[config.rules_table]
    out[config.rules_table] = (title, desc, {config.rule_key: "the row number in rules.csv (primary key)", **cols})
    out["rule_citations"] = (
        "Laws cited by each ruling",
        "One row per law a ruling cites (role citation) or that rules otherwise on its facts (role dissent).",
        {
            config.rule_key: "the ruling (rules.rule)",
            "law_id": "the law (laws.law_id)",
            "role": "citation (the law gives this ruling) or dissent (it rules otherwise)",
        },
    )
    return out


def datasette_metadata(
    folder: Path,
    info: PackageInfo = PackageInfo(),
    config: DatabaseConfig = DatabaseConfig(),
    view: DatasetteConfig = DatasetteConfig(),
) -> bytes:
    """``metadata.json`` for Datasette over the database built from ``folder``'s tables (deterministic)."""
    present = {t.name for t in TABLES.values() if (Path(folder) / t.path).is_file()}
    if {config.rules_table, "laws"} <= present:
        present.add("rule_citations")
    facets, sort, labels = dict(view.facets), dict(view.sort), dict(view.label_columns)
    lists = {(t.name, c.name) for t in TABLES.values() for c in t.columns if c.type == "list"}
    tables: dict[str, dict] = {}
    for name, (title, description, columns) in _db_tables(config).items():
        if name not in present:
            continue
        entry: dict = {"title": title, "description": description, "columns": columns}
        if facets.get(name):
            entry["facets"] = [{"array": c} if (name, c) in lists else c for c in facets[name]]
        if name in sort:
            entry["sort"] = sort[name]
        if name in labels:
            entry["label_column"] = labels[name]
        tables[name] = entry
    if config.fts_table in present:
        tables[config.fts_table]["fts_table"] = f"{config.fts_table}_fts"
        tables[f"{config.fts_table}_fts"] = {"hidden": True}
    sources = "; ".join(s["title"] for s in package_sources(folder))
    meta: dict = {
        "title": info.title,
        "description": info.description,
        "license": info.data_license,
        "license_url": info.data_license_path,
        "source": "OCR and transcriptions of the printed codes: " + sources if sources else "the edition's witnesses",
        "databases": {
            view.database: {
                "title": info.title,
                "description": info.description,
                "tables": tables,
                "queries": {
                    name: {"title": title, "sql": sql}
                    for name, title, sql in view.queries
                    if set(re.findall(r"\b(?:from|join)\s+(\w+)", sql)) <= present
                },
            }
        },
    }
    if info.homepage:
        meta["source_url"] = info.homepage
        meta["about_url"] = info.homepage
    return (json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")
