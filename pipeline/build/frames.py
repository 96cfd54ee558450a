"""The build's tables as pandas frames and bytes: one row per law, correction, flag, page, link, unaligned
law and witness (columns and types declared once, in pipeline/export/tables.py), and the table files of the
staging folder written one witness at a time."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import pandas as pd

from ..export.tables import (
    ALIGNMENTS,
    CORRECTIONS,
    FLAGS,
    LAWS,
    PAGES,
    UNALIGNED,
    WITNESSES,
    Table,
    arrow_schema,
    arrow_table,
    typed,
)
from ..model import Link, WitnessResult, offset_maps
from ..publish import Staging

if TYPE_CHECKING:
    from .witness import WitnessBuild


def csv_bytes(df: pd.DataFrame) -> bytes:
    buf = io.StringIO()
    df.to_csv(buf, index=False, lineterminator="\n")
    return buf.getvalue().encode("utf-8")


def parquet_bytes(df: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf, index=False, engine="pyarrow", compression="zstd")
    return buf.getvalue()


def json_records(df: pd.DataFrame) -> bytes:
    records = json.loads(df.to_json(orient="records", force_ascii=False))
    return (json.dumps(records, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def csv_rows(df: pd.DataFrame) -> bytes:
    """``df``'s rows as in ``csv_bytes(df)`` but without the header (for concatenation)."""
    if df.empty:
        return b""
    buf = io.StringIO()
    df.to_csv(buf, index=False, header=False, lineterminator="\n")
    return buf.getvalue().encode("utf-8")


def json_items(df: pd.DataFrame) -> bytes:
    """``df``'s records as in ``json_records(df)`` but without the brackets (joined with ``,\\n``)."""
    if df.empty:
        return b""
    return json_records(df)[2:-3]  # strip "[\n" and "\n]\n"


def law_schema():
    return arrow_schema(LAWS)


# the columns and types of every table are declared once, in pipeline/export/tables.py
LAW_COLUMNS = LAWS.column_names
CORRECTION_COLUMNS = CORRECTIONS.column_names
FLAG_COLUMNS = FLAGS.column_names
PAGE_COLUMNS = PAGES.column_names
ALIGNMENT_COLUMNS = ALIGNMENTS.column_names
UNALIGNED_COLUMNS = UNALIGNED.column_names
WITNESS_COLUMNS = WITNESSES.column_names


def laws_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    rows = []
    for r in results:
        c2r, _ = offset_maps(r.cleaned.raw, r.cleaned.corrections)
        for law in r.segmented.laws:
            rows.append(
                {
                    "law_id": law.id,
                    "witness": law.witness_id,
                    "game": law.game,
                    "lang": law.lang,
                    "kind": law.kind,
                    "number": law.number,
                    "printed": law.printed,
                    "label": law.label,
                    "parent": law.parent or "",
                    "order": law.order,
                    "text": law.text,
                    "start": law.start,
                    "end": law.end,
                    "raw_start": c2r[law.start],
                    "raw_end": c2r[law.end] if law.end < len(c2r) - 1 else len(r.cleaned.raw),
                    "pages": ";".join(law.pages),
                    "confidence": float(f"{law.confidence:.3f}"),
                    "complete": law.complete,
                    "heading": law.heading,
                    "text_hash": law.text_hash,
                    "evidence": law.evidence,
                }
            )
    return typed(pd.DataFrame(rows, columns=LAW_COLUMNS), LAWS)


def _cell(value):
    if isinstance(value, tuple):
        return "|".join(value)
    if isinstance(value, float):
        return float(f"{value:.3f}")
    return value


def _records_frame(results: Sequence[WitnessResult], attr: str, table: Table) -> pd.DataFrame:
    """One row per record of ``Cleaned.<attr>`` (corrections, flags, page breaks) of every witness."""
    columns = table.column_names
    rows = [
        {"witness": r.witness.id, **{c: _cell(getattr(x, c)) for c in columns[1:]}}
        for r in results
        for x in getattr(r.cleaned, attr)
    ]
    return typed(pd.DataFrame(rows, columns=columns), table)


def corrections_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "corrections", CORRECTIONS)


def flags_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "flags", FLAGS)


def pages_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "page_breaks", PAGES)


def alignments_frame(links: Sequence[Link], witness_of: dict[str, str]) -> pd.DataFrame:
    rows = [
        {
            "game": k.game,
            "law_a": k.a,
            "law_b": k.b,
            "witness_a": witness_of[k.a],
            "witness_b": witness_of[k.b],
            "score": float(f"{k.score:.3f}"),
            "band": k.band,
            "kind": k.kind,
            "evidence": k.evidence,
        }
        for k in links
    ]
    return typed(pd.DataFrame(rows, columns=ALIGNMENT_COLUMNS), ALIGNMENTS)


def unaligned_frame(unaligned: Sequence) -> pd.DataFrame:
    """outputs/unaligned.csv: one row per (law, other witness of its game) where the law has no counterpart."""
    rows = [
        {
            "game": u.game,
            "law": u.law,
            "witness": u.witness,
            "other_witness": u.other_witness,
            "best_candidate": u.best,
            "best_score": float(f"{u.best_score:.3f}"),
            "reason": u.reason,
            "reading": u.reading,
        }
        for u in unaligned
    ]
    return typed(pd.DataFrame(rows, columns=UNALIGNED_COLUMNS), UNALIGNED)


def witnesses_frame(members: Sequence) -> pd.DataFrame:
    """One row per witness; ``members`` have ``witness``, ``laws``, ``corrections`` and ``flags`` (counts)."""
    rows = []
    for m in members:
        w = m.witness
        rows.append(
            {
                "id": w.id,
                "file": w.file,
                "game": w.game,
                "lang": w.lang,
                "kind": w.kind,
                "title": w.title,
                "author": w.author,
                "year": w.year,
                "source": w.source,
                "page": w.page,
                "note": w.note,
                "laws": len(m.laws),
                "corrections": m.corrections,
                "flags": m.flags,
            }
        )
    return typed(pd.DataFrame(rows, columns=WITNESS_COLUMNS), WITNESSES)


@dataclass
class TableFiles:
    """The table files being written into the staging folder, one witness at a time."""

    staging: Staging

    def __post_init__(self) -> None:
        import pyarrow.parquet as pq

        self.csv = {name: self.staging.open(name) for name in ("laws.csv", "corrections.csv", "flags.csv", "pages.csv")}
        for name, cols in (
            ("laws.csv", LAW_COLUMNS),
            ("corrections.csv", CORRECTION_COLUMNS),
            ("flags.csv", FLAG_COLUMNS),
            ("pages.csv", PAGE_COLUMNS),
        ):
            self.csv[name].write(csv_bytes(pd.DataFrame(columns=cols)))
        self.json = self.staging.open("laws.json")
        self.json_first = True
        self.schema = law_schema()
        self.parquet = pq.ParquetWriter(self.staging.path("laws.parquet"), self.schema, compression="zstd")

    def add(self, b: WitnessBuild) -> None:
        for name, fh in self.csv.items():
            fh.write(b.tables.get(name, b""))
        item = b.tables.get("laws.json", b"")
        if item:
            self.json.write((b"[\n" if self.json_first else b",\n") + item)
            self.json_first = False
        if b.laws_frame is not None and len(b.laws_frame):
            self.parquet.write_table(arrow_table(b.laws_frame, LAWS))

    def close(self) -> None:
        import pyarrow as pa

        for fh in self.csv.values():
            fh.close()
        self.json.write(b"[]\n" if self.json_first else b"\n]\n")
        self.json.close()
        if self.json_first:  # no laws at all: an empty table with the schema
            self.parquet.write_table(pa.Table.from_pylist([], schema=self.schema))
        self.parquet.close()
