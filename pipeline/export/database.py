"""outputs/cardlaws.sqlite: the tables in one SQLite database (sqlite-utils), for Datasette or any SQL client.

Every table of pipeline/export/tables.py becomes a table of the same name and columns, typed (TEXT, INTEGER,
REAL; booleans as 0/1), with its primary key, its foreign keys (``laws.witness`` -> ``witnesses.id``,
``alignments.law_a`` -> ``laws.law_id``, ...) and an index on each foreign key column; the law texts
get an FTS5 full-text index (``laws_fts``: text, label, heading; diacritics folded, so ``ecarte``
finds ``écarté``) that Datasette's search box and ``?_search=`` use as it is. The rule table's rows
are numbered (``rules.rule``, the row of rules.csv) and ``rule_citations`` (rule, law_id, role:
citation or dissent) joins each ruling to the laws it cites, with foreign keys to both.

The database is built from the CSV files of a build (streamed row by row: a library's tables are
never all in memory) into a fresh file, in table order and row order, then VACUUMed: the same tables
give the same bytes.
"""

from __future__ import annotations

import csv
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .tables import TABLES, Table

SQL_TYPES = {"string": str, "integer": int, "number": float, "boolean": int}


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


def _value(raw: str, type_: str):
    if raw == "":
        return None
    if type_ == "integer":
        return int(raw)
    if type_ == "number":
        return float(raw)
    if type_ == "boolean":
        return 1 if raw == "True" else 0
    return raw


def _rows(path: Path, table: Table) -> Iterator[dict]:
    types = [c.type for c in table.columns]
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
                for law_id in dict.fromkeys(x.strip() for x in (ids or "").split(";") if x.strip()):
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
