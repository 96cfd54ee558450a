"""The output tables' schemas: one declaration per table, used by every format the build writes.

Each table (``outputs/<name>.csv``) has typed columns: ``string``, ``integer``, ``number`` or
``boolean`` (the Frictionless Table Schema types). In memory a table is a pandas frame of the
nullable dtypes (``string``, ``Int64``, ``Float64``, ``boolean``); a missing value is null in every
format (an empty CSV field, a Parquet null, a JSON ``null``), never an empty string beside a null: an
empty string is written as a missing value. So ``laws.number`` reads back as the integer ``4``
(never ``4.0``), ``witnesses.page`` as the string printed (``"9"``, or ``"ix"``), and
``read_table(path)`` gives back the frame that was written.

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

PANDAS_DTYPES = {"string": "string", "integer": "Int64", "number": "Float64", "boolean": "boolean"}


@dataclass(frozen=True)
class Column:
    name: str
    type: str = "string"  # a Table Schema type: string, integer, number, boolean
    required: bool = False  # never null
    description: str = ""


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


def _cols(spec: str, type_: str = "string", required: bool = False) -> tuple[Column, ...]:
    return tuple(Column(n, type_, required) for n in spec.split())


def _c(name: str, type_: str = "string", required: bool = False, description: str = "") -> Column:
    return Column(name, type_, required, description)


_WITNESS_FK = ForeignKey(("witness",), "witnesses", ("id",))

WITNESSES = Table(
    "witnesses",
    "Witnesses",
    "One row per witness (a printed text of one game in one language: OCR, transcription "
    "or modernized reading), with its bibliographic description from corpus/witnesses.toml.",
    (
        _c("id", required=True, description="witness id"),
        _c("file", required=True, description="raw file, relative to corpus/"),
        *_cols("game lang kind", required=True),
        *_cols("title author"),
        _c("year", "integer", description="year of the edition"),
        _c("source", description="printed source shared by witnesses of one text"),
        _c("page", description="first printed page of the excerpt, as printed"),
        _c("note"),
        *_cols("laws corrections flags", "integer", required=True),
    ),
    primary_key=("id",),
)
LAWS = Table(
    "laws",
    "Laws",
    "One row per law, clause or unnumbered rule of every witness (also as laws.parquet and laws.json).",
    (
        _c("law_id", required=True, description="stable id <game>.<witness>.law-<n>"),
        *_cols("witness game lang kind", required=True),
        _c("number", "integer", description="the number as read (null for unnumbered rules)"),
        _c("printed", description="the number as printed (null when inferred)"),
        _c("label", required=True),
        _c("parent", description="law_id of a clause's parent law"),
        _c("order", "integer", required=True),
        _c("text", description="cleaned law text without its number"),
        *_cols("start end raw_start raw_end", "integer", required=True),
        _c("pages", description="printed pages, ';'-separated"),
        _c("confidence", "number", required=True),
        _c("complete", "boolean", required=True),
        _c("heading"),
        _c("text_hash", required=True),
        _c("evidence"),
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
        _c("witness", required=True),
        *_cols("start end", "integer", required=True),
        *_cols("before after"),
        *_cols("kind method", required=True),
        _c("confidence", "number", required=True),
        _c("candidates", description="'|'-separated, best first"),
        _c("evidence"),
    ),
    foreign_keys=(_WITNESS_FK,),
)
FLAGS = Table(
    "flags",
    "Flagged words",
    "Words left as printed and flagged for review.",
    (
        _c("witness", required=True),
        *_cols("start end", "integer", required=True),
        _c("text"),
        _c("candidates"),
        _c("confidence", "number", required=True),
        _c("reason"),
    ),
    foreign_keys=(_WITNESS_FK,),
)
PAGES = Table(
    "pages",
    "Page breaks",
    "Page breaks inside the witnesses' texts.",
    (
        _c("witness", required=True),
        _c("page", description="page number as read"),
        _c("head"),
        _c("printed"),
        *_cols("raw_start raw_end clean_offset", "integer", required=True),
    ),
    foreign_keys=(_WITNESS_FK,),
)
ALIGNMENTS = Table(
    "alignments",
    "Alignment links",
    "Links between laws of one game across witnesses, with scores and evidence.",
    (
        *_cols("game law_a law_b witness_a witness_b", required=True),
        _c("score", "number", required=True),
        _c("band", required=True),
        _c("kind", required=True),
        _c("evidence"),
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
        *_cols("game law witness other_witness", required=True),
        _c("best_candidate"),
        _c("best_score", "number"),
        _c("reason", required=True),
        _c("reading"),
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
    "citing the laws (citations: ';'-separated law ids; also as rules.json with the vocabulary).",
    (
        *_cols("ruleset game event", required=True),
        *_cols("facts outcome options chooser penalties citations sources dissent note"),
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
        if c.type == "string":
            col = col.astype("string")
            col = col.mask(col == "")
        out[c.name] = col.astype(PANDAS_DTYPES[c.type])
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
    """A Parquet table read back with the declared nullable dtypes."""
    return pd.read_parquet(path).astype(table.dtypes)


def arrow_schema(table: Table):
    import pyarrow as pa

    types = {"string": pa.large_string(), "integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_()}
    # (every field nullable: a required column's nulls are reported by the data package's validation, not by a failed build)
    schema = pa.schema([pa.field(c.name, types[c.type]) for c in table.columns])
    # with pandas' metadata, so that a plain pd.read_parquet gives back the nullable dtypes (Int64, string, boolean)
    return pa.Table.from_pandas(empty_frame(table), schema=schema, preserve_index=False).schema


# --------------------------------------------------------------------------- the data package


@dataclass(frozen=True)
class PackageInfo:
    """The Data Package's own description (the licences are those of LICENSE-DATA and LICENSE)."""

    name: str = "cardlaws"
    title: str = "Card-game laws: a digital edition of 19th-century French and English laws of Écarté and Whist"
    data_license: str = "CC0-1.0"
    data_license_title: str = "CC0 1.0 Universal (public domain dedication)"
    data_license_path: str = "https://creativecommons.org/publicdomain/zero/1.0/"
    homepage: str = ""


def _field(c: Column) -> dict:
    f: dict = {"name": c.name, "type": c.type}
    if c.description:
        f["description"] = c.description
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
        "description": "Laws, corrections, page breaks, flagged words, alignment links and rulings of the edition; "
        "the same tables are in cardlaws.sqlite (with full-text search on law texts).",
        "resources": resources,
    }
    if info.homepage:
        package["homepage"] = info.homepage
    return (json.dumps(package, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
