"""The output tables' schemas: one declaration per table, used by every format the build writes.

Each table (``outputs/<name>.csv``) has typed columns: ``string``, ``integer``, ``number``,
``boolean`` or ``list`` (the Frictionless Table Schema types; a list's items are strings). In memory a table is a
pandas frame of the nullable dtypes (``string``, ``Int64``, ``Float64``, ``boolean``; a list is held as its CSV
cell, the items joined by the column's delimiter); a missing value is null in every
format (an empty CSV field, a Parquet null, a JSON ``null``), never an empty string beside a null: an
empty string is written as a missing value. So ``laws.number`` reads back as the integer ``4``
(never ``4.0``), ``witnesses.page`` as the string printed (``"9"``, or ``"ix"``), and
``read_table(path)`` gives back the frame that was written.

A list column (``laws.pages``, ``corrections.candidates``, ``rules.citations`` ...) is written in CSV as its
items joined by the column's delimiter (``9;10``, ``celui|ce lui``), the Frictionless ``list`` type with that
``delimiter``; in JSON and SQLite as a JSON array (``["9", "10"]``, so Datasette facets on its items), in
Parquet as a list of strings (``list_items`` / ``json_ready`` / ``arrow_table``). No item holds its delimiter.

``datapackage(folder)`` describes the tables of a build as a Frictionless Data Package (schema per
table with primary and foreign keys, the file's size and sha256), the same declarations again.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import pandas as pd

from ..files import file_sha256
from .tei.config import EditionInfo

PANDAS_DTYPES = {"string": "string", "integer": "Int64", "number": "Float64", "boolean": "boolean", "list": "string"}


@dataclass(frozen=True)
class Column:
    name: str
    type: str = "string"  # a Table Schema type: string, integer, number, boolean, list (of strings)
    required: bool = False  # never null
    description: str = ""
    delimiter: str = ";"  # of a list: what joins its items in a CSV cell


@dataclass(frozen=True)
class ForeignKey:
    fields: tuple[str, ...]
    table: str  # the referenced table's name (itself for a self-reference)
    reference: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    name: str  # the Data Package resource name; the file is outputs/<name>.csv
    title: str
    description: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()

    @property
    def path(self) -> str:
        return f"{self.name}.csv"

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def dtypes(self) -> dict[str, str]:
        return {c.name: PANDAS_DTYPES[c.type] for c in self.columns}


def _c(name: str, type_: str = "string", required: bool = False, description: str = "", delimiter: str = ";") -> Column:
    return Column(name, type_, required, description, delimiter)


def _list(name: str, description: str, delimiter: str = ";") -> Column:
    return Column(name, "list", False, description, delimiter)


_WITNESS_FK = ForeignKey(("witness",), "witnesses", ("id",))
_WITNESS = _c("witness", required=True, description="the witness id (witnesses.id)")
_GAME = "the game: ecarte or whist"

WITNESSES = Table(
    "witnesses",
    "Witnesses",
    "One row per witness (a printed text of one game in one language: OCR, transcription "
    "or modernized reading), with its bibliographic description from corpus/witnesses.toml.",
    (
        _c("id", required=True, description="witness id: <lang>-<number>, a modernized reading ending in m"),
        _c("file", required=True, description="raw file, relative to corpus/"),
        _c("game", required=True, description=_GAME),
        _c("lang", required=True, description="the language: fr or en"),
        _c("kind", required=True, description="ocr, transcription or modernized"),
        _c("title", description="title of the printed text (or of the excerpt)"),
        _c("author", description="author of the printed text"),
        _c("year", "integer", description="year of the edition"),
        _c("source", description="printed source shared by witnesses of one text"),
        _c("page", description="first printed page of the excerpt, as printed"),
        _c("note", description="what the witness is and what is known of it"),
        _c("laws", "integer", required=True, description="number of laws, clauses and rules found"),
        _c("corrections", "integer", required=True, description="number of recorded changes from raw to reading text"),
        _c("flags", "integer", required=True, description="number of words left as printed and flagged for review"),
    ),
    primary_key=("id",),
)
LAWS = Table(
    "laws",
    "Laws",
    "One row per law, clause or unnumbered rule of every witness (also as laws.parquet and laws.json).",
    (
        _c(
            "law_id",
            required=True,
            description="stable id <game>.<witness>.law-<n>; clauses law-<n>.<x>, rules rule-<k>",
        ),
        _WITNESS,
        _c("game", required=True, description=_GAME),
        _c("lang", required=True, description="the language: fr or en"),
        _c("kind", required=True, description="law, clause or rule (unnumbered)"),
        _c("number", "integer", description="the number as read (null for unnumbered rules)"),
        _c("printed", description="the number as printed, e.g. io». (null when inferred)"),
        _c("label", required=True, description="the law's label: 10, 12a, 37(c), rule 3"),
        _c("parent", description="law_id of a clause's parent law"),
        _c("order", "integer", required=True, description="0-based order in the witness"),
        _c("text", description="cleaned law text without its number"),
        _c("start", "integer", required=True, description="start of the law in the reading text (characters)"),
        _c("end", "integer", required=True, description="end of the law in the reading text (characters)"),
        _c("raw_start", "integer", required=True, description="start of the law in the raw witness text"),
        _c("raw_end", "integer", required=True, description="end of the law in the raw witness text"),
        _list("pages", "printed pages the law spans (CSV: ';'-separated, 9;10)"),
        _c("confidence", "number", required=True, description="confidence of the boundary and number reading (0-1)"),
        _c(
            "complete",
            "boolean",
            required=True,
            description="false when the law begins before or ends after the excerpt",
        ),
        _c("heading", description="the heading the law stands under"),
        _c(
            "text_hash",
            required=True,
            description="hash of the law text (a curated reading goes stale when it changes)",
        ),
        _c("evidence", description="how the boundary and number were decided"),
    ),
    primary_key=("law_id",),
    foreign_keys=(_WITNESS_FK, ForeignKey(("parent",), "laws", ("law_id",))),
)
CORRECTIONS = Table(
    "corrections",
    "Corrections",
    "Every change from the raw witness text to the reading text, with its evidence "
    "(an empty 'after' is a removal, an empty 'before' an insertion).",
    (
        _WITNESS,
        _c("start", "integer", required=True, description="start of the changed span in the raw witness text"),
        _c("end", "integer", required=True, description="end of the changed span in the raw witness text"),
        _c("before", description="the characters as printed (null: an insertion)"),
        _c("after", description="what the reading text has instead (null: a removal)"),
        _c(
            "kind",
            required=True,
            description="normalisation, debris, running_head, hyphenation, spelling, real_word, ...",
        ),
        _c(
            "method",
            required=True,
            description="what decided it (lexicon and weighted edit distance, context, pattern)",
        ),
        _c("confidence", "number", required=True, description="confidence of the change (0-1)"),
        _list("candidates", "candidates considered, best first (CSV: '|'-separated)", "|"),
        _c("evidence", description="why, in words"),
    ),
    foreign_keys=(_WITNESS_FK,),
)
FLAGS = Table(
    "flags",
    "Flagged words",
    "Words left as printed and flagged for review.",
    (
        _WITNESS,
        _c("start", "integer", required=True, description="start of the word in the raw witness text"),
        _c("end", "integer", required=True, description="end of the word in the raw witness text"),
        _c("text", description="the word as printed"),
        _list("candidates", "readings considered and not applied, best first (CSV: '|'-separated)", "|"),
        _c("confidence", "number", required=True, description="confidence of the best candidate (0-1)"),
        _c("reason", description="why the word is flagged"),
    ),
    foreign_keys=(_WITNESS_FK,),
)
PAGES = Table(
    "pages",
    "Page breaks",
    "Page breaks inside the witnesses' texts.",
    (
        _WITNESS,
        _c("page", description="page number as read"),
        _c("head", description="the running head as read"),
        _c("printed", description="the running head or page number line as printed"),
        _c("raw_start", "integer", required=True, description="start of the running head line in the raw text"),
        _c("raw_end", "integer", required=True, description="end of the running head line in the raw text"),
        _c("clean_offset", "integer", required=True, description="where the new page begins in the reading text"),
    ),
    foreign_keys=(_WITNESS_FK,),
)
ALIGNMENTS = Table(
    "alignments",
    "Alignment links",
    "Links between laws of one game across witnesses, with scores and evidence.",
    (
        _c("game", required=True, description=_GAME),
        _c("law_a", required=True, description="the first linked law (laws.law_id)"),
        _c("law_b", required=True, description="the second linked law (laws.law_id)"),
        _c("witness_a", required=True, description="the witness of law_a"),
        _c("witness_b", required=True, description="the witness of law_b"),
        _c(
            "score",
            "number",
            required=True,
            description="0-1: the overlap of the two laws' events and their similarity",
        ),
        _c("band", required=True, description="high, medium or low (calibrated against the alignment gold)"),
        _c("kind", required=True, description="same_text, edition, same_code or translation"),
        _c("evidence", description="what the two readings share (event, conditions, outcome, terms, position)"),
    ),
    primary_key=("law_a", "law_b"),
    foreign_keys=(
        ForeignKey(("law_a",), "laws", ("law_id",)),
        ForeignKey(("law_b",), "laws", ("law_id",)),
        ForeignKey(("witness_a",), "witnesses", ("id",)),
        ForeignKey(("witness_b",), "witnesses", ("id",)),
    ),
)
UNALIGNED = Table(
    "unaligned",
    "Laws with no counterpart",
    "One row per law and other witness of its game where the aligner found "
    "no counterpart: the best candidate it rejected and why.",
    (
        _c("game", required=True, description=_GAME),
        _c("law", required=True, description="the law with no counterpart (laws.law_id)"),
        _c("witness", required=True, description="its witness"),
        _c("other_witness", required=True, description="the witness in which it has no counterpart"),
        _c("best_candidate", description="the law of the other witness that scored highest (null: none above 0)"),
        _c("best_score", "number", description="that candidate's score (0-1)"),
        _c("reason", required=True, description="why that is not a link"),
        _c("reading", description="the law's structured reading: events [fact=value] -> outcomes"),
    ),
    primary_key=("law", "other_witness"),
    foreign_keys=(
        ForeignKey(("law",), "laws", ("law_id",)),
        ForeignKey(("best_candidate",), "laws", ("law_id",)),
        ForeignKey(("witness",), "witnesses", ("id",)),
        ForeignKey(("other_witness",), "witnesses", ("id",)),
    ),
)
RULES = Table(
    "rules",
    "Rule table",
    "Structured rulings: one row per ruleset (canonical or a witness), game, event and facts, "
    "citing the laws (also as rules.json with the vocabulary).",
    (
        _c(
            "ruleset",
            required=True,
            description="canonical (the named canonical ruleset) or the witness whose reading the row is",
        ),
        _c("game", required=True, description=_GAME),
        _c("event", required=True, description="the irregularity ruled on (corpus/annotations/vocabulary.toml)"),
        _list(
            "facts", "the fact pattern, key=value|value items (CSV: ';'-separated); a fact not listed takes any value"
        ),
        _c("outcome", description="the outcome (null when the ruling is a choice or penalties only)"),
        _list("options", "the outcomes one party chooses between (CSV: ';'-separated)"),
        _c("chooser", description="who chooses between the options"),
        _list("penalties", "the penalties (CSV: ';'-separated)"),
        _list("citations", "the law ids of every witness that gives this ruling on these facts (CSV: ';'-separated)"),
        _list("sources", "the witnesses of the cited laws (CSV: ';'-separated)"),
        _list("dissent", "law ids of witnesses that rule otherwise on these facts (CSV: ';'-separated)"),
        _c("note", description="the ruling in a sentence"),
        _c("status", description="curated (reviewed by a person) or extracted (read by the patterns only)"),
        _c("confidence", "number", description="of an extracted row: the measured precision of such readings"),
    ),
)

TABLES: dict[str, Table] = {
    t.name: t for t in (WITNESSES, LAWS, CORRECTIONS, FLAGS, PAGES, ALIGNMENTS, UNALIGNED, RULES)
}


def table_for(path: str | Path) -> Table:
    """The declared table of ``outputs/<name>.csv``."""
    name = Path(path).name.removesuffix(".csv")
    if name not in TABLES:
        raise KeyError(f"no declared table {name!r}: known {sorted(TABLES)}")
    return TABLES[name]


# --------------------------------------------------------------------------- frames


def typed(df: pd.DataFrame, table: Table) -> pd.DataFrame:
    """``df`` with the table's columns in order and its nullable dtypes; empty strings become null."""
    out = df.reindex(columns=table.column_names).copy()
    for c in table.columns:
        col = out[c.name]
        if c.type in ("string", "list"):
            col = col.astype("string")
            col = col.mask(col == "")
        out[c.name] = col.astype(PANDAS_DTYPES[c.type])
    return out


def list_items(cell: object, column: Column) -> list[str] | None:
    """The items of a list column's cell (its CSV form, ``9;10``): ``["9", "10"]``; null stays None."""
    if cell is None or cell is pd.NA or (isinstance(cell, float) and cell != cell) or cell == "":
        return None
    return [x for x in str(cell).split(column.delimiter) if x != ""]


def list_cell(items: Iterable[str] | None, column: Column) -> str | None:
    """A list column's CSV cell from its items (the inverse of ``list_items``)."""
    if items is None:
        return None
    return column.delimiter.join(str(x) for x in items) or None


def json_ready(df: pd.DataFrame, table: Table) -> pd.DataFrame:
    """``df`` with its list columns as Python lists (null: None), for JSON records and Parquet lists."""
    out = df.copy()
    for c in table.columns:
        if c.type == "list" and c.name in out:
            out[c.name] = pd.Series([list_items(v, c) for v in out[c.name]], index=out.index, dtype=object)
    return out


def empty_frame(table: Table) -> pd.DataFrame:
    return typed(pd.DataFrame(columns=table.column_names), table)


def csv_bytes(df: pd.DataFrame, header: bool = True) -> bytes:
    """The CSV form of a typed frame (nulls as empty fields, integers without a decimal point)."""
    if not header and df.empty:
        return b""
    buf = io.StringIO()
    df.to_csv(buf, index=False, header=header, lineterminator="\n")
    return buf.getvalue().encode("utf-8")


def read_table(path: str | Path, table: Table | None = None) -> pd.DataFrame:
    """A table read back with its declared types (the frame the build wrote)."""
    table = table or table_for(path)
    df = pd.read_csv(path, dtype=table.dtypes, keep_default_na=False, na_values=[""])
    if list(df.columns) != table.column_names:
        raise ValueError(f"{path}: columns {list(df.columns)} are not the declared {table.column_names}")
    return df


def read_parquet(path: str | Path, table: Table) -> pd.DataFrame:
    """A Parquet table read back as the frame that was written (the declared dtypes; lists as their CSV cells)."""
    df = pd.read_parquet(path)
    for c in table.columns:
        if c.type == "list":
            df[c.name] = [list_cell(None if v is None else list(v), c) for v in df[c.name]]
    return df.astype(table.dtypes)


def arrow_schema(table: Table):
    import pyarrow as pa

    types = {
        "string": pa.large_string(),
        "integer": pa.int64(),
        "number": pa.float64(),
        "boolean": pa.bool_(),
        "list": pa.list_(pa.large_string()),
    }
    # (every field nullable: a required column's nulls are reported by the data package's validation, not by a failed build)
    schema = pa.schema([pa.field(c.name, types[c.type]) for c in table.columns])
    # with pandas' metadata, so that a plain pd.read_parquet gives back the nullable dtypes (Int64, string, boolean)
    return pa.Table.from_pandas(json_ready(empty_frame(table), table), schema=schema, preserve_index=False).schema


def arrow_table(df: pd.DataFrame, table: Table):
    """A typed frame as an Arrow table of ``arrow_schema(table)`` (list columns as lists of strings)."""
    import pyarrow as pa

    return pa.Table.from_pandas(json_ready(df, table), schema=arrow_schema(table), preserve_index=False)


# --------------------------------------------------------------------------- the data package


@dataclass(frozen=True)
class PackageInfo:
    """The Data Package's own description (the licences are those of LICENSE-DATA and LICENSE); ``package_info``
    fills it from ``corpus/edition.toml``."""

    name: str = "cardlaws"
    title: str = "Card-game laws: a digital edition of 19th-century French and English laws of Écarté and Whist"
    description: str = (
        "Laws, corrections, page breaks, flagged words, alignment links and rulings of the edition; "
        "the same tables are in cardlaws.sqlite (with full-text search on law texts)."
    )
    data_license: str = "CC0-1.0"  # an SPDX id
    data_license_title: str = "CC0 1.0 Universal (public domain dedication)"
    data_license_path: str = "https://creativecommons.org/publicdomain/zero/1.0/"
    homepage: str = ""
    contributors: tuple[tuple[str, str], ...] = ()  # (name, role: author, publisher, contributor)


def package_info(edition: EditionInfo) -> PackageInfo:
    """The package described by the edition: its title, licence, address, editors and publisher."""
    default = PackageInfo()
    people = [(e.name, "author") for e in edition.editors]
    if edition.publisher and edition.publisher not in {n for n, _ in people}:
        people.append((edition.publisher, "publisher"))
    return PackageInfo(
        title=edition.title or default.title,
        data_license_title=edition.licence_name or default.data_license_title,
        data_license_path=edition.licence_url or default.data_license_path,
        homepage=edition.base_url,
        contributors=tuple(people),
    )


def package_sources(folder: Path) -> list[dict]:
    """The printed sources of the witnesses (``witnesses.csv``): one entry per source, naming its witnesses."""
    path = Path(folder) / WITNESSES.path
    if not path.is_file():
        return []
    by_source: dict[str, tuple[str, list[str]]] = {}
    for w in read_table(path, WITNESSES).to_dict("records"):
        key = w["source"] if isinstance(w["source"], str) else w["id"]
        parts = (w["author"], w["title"], w["year"])
        title = ", ".join(str(x) for x in parts if isinstance(x, (str, int)) and not pd.isna(x))
        by_source.setdefault(key, (title, []))[1].append(w["id"])
    return [{"title": f"{title} (witnesses {', '.join(ids)})"} for title, ids in by_source.values()]


def _field(c: Column) -> dict:
    f: dict = {"name": c.name, "type": c.type}
    if c.description:
        f["description"] = c.description
    if c.type == "list":
        f["delimiter"], f["itemType"] = c.delimiter, "string"
    if c.type == "boolean":
        f["trueValues"], f["falseValues"] = ["True"], ["False"]
    if c.required:
        f["constraints"] = {"required": True}
    return f


def table_schema(table: Table) -> dict:
    """The table's Frictionless Table Schema."""
    schema: dict = {"fields": [_field(c) for c in table.columns], "missingValues": [""]}
    if table.primary_key:
        schema["primaryKey"] = list(table.primary_key)
    if table.foreign_keys:
        schema["foreignKeys"] = [
            {
                "fields": list(fk.fields),
                "reference": {"resource": "" if fk.table == table.name else fk.table, "fields": list(fk.reference)},
            }
            for fk in table.foreign_keys
        ]
    return schema


def datapackage(
    folder: Path, version: str, tables: Iterable[Table] | None = None, info: PackageInfo = PackageInfo()
) -> bytes:
    """``datapackage.json`` for the tables present in ``folder`` (deterministic: no dates, sorted keys)."""
    resources = []
    for t in tables or TABLES.values():
        p = Path(folder) / t.path
        if not p.is_file():
            continue
        resources.append(
            {
                "name": t.name,
                "path": t.path,
                "title": t.title,
                "description": t.description,
                "profile": "tabular-data-resource",
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "bytes": p.stat().st_size,
                "hash": f"sha256:{file_sha256(p)}",
                "dialect": {"delimiter": ",", "quoteChar": '"', "doubleQuote": True, "header": True},
                "schema": table_schema(t),
            }
        )
    package = {
        "profile": "tabular-data-package",
        "name": info.name,
        "title": info.title,
        "version": version,
        "licenses": [{"name": info.data_license, "title": info.data_license_title, "path": info.data_license_path}],
        "description": info.description,
        "resources": resources,
    }
    if info.contributors:
        package["contributors"] = [{"title": name, "role": role} for name, role in info.contributors]
    sources = package_sources(folder)
    if sources:
        package["sources"] = sources
    if info.homepage:
        package["homepage"] = info.homepage
    return (json.dumps(package, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
