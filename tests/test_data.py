"""Data a scholar can cite and query: typed tables that read back as written, a valid Frictionless
Data Package, a deterministic SQLite database that Datasette serves with full-text search, figures
as deterministic SVG, licences and a valid CITATION.cff."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import unicodedata
import urllib.parse
import urllib.request
import importlib.util
from pathlib import Path

import tomllib

import pandas as pd
import pytest

from pipeline import __version__
from pipeline.export.database import build_database
from pipeline.export.figures import draw_figures, render_figures
from pipeline.export.tables import (
    LAWS,
    PANDAS_DTYPES,
    TABLES,
    csv_bytes,
    datapackage,
    json_ready,
    list_items,
    read_parquet,
    read_table,
)
from pipeline.export.tei.config import load_edition

from conftest import ROOT
from test_docs import documented_columns

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def out(fresh_build) -> Path:
    return fresh_build[0]


# --------------------------------------------------------------------------- typed tables


def test_every_table_reads_back_with_its_types(out):
    for table in TABLES.values():
        path = out / table.path
        assert path.is_file(), f"the build wrote no {table.path}"
        df = read_table(path)
        assert {c: str(t) for c, t in df.dtypes.items()} == {
            c.name: str(pd.Series(dtype=PANDAS_DTYPES[c.type]).dtype) for c in table.columns
        }
        # written again from what was read, the file is the same bytes: nothing was lost or retyped
        assert csv_bytes(df) == path.read_bytes(), f"{table.path} does not read back as written"
        for c in table.columns:
            if c.type in ("string", "list"):
                assert not (df[c.name] == "").any(), f"{table.path}.{c.name}: an empty string beside nulls"
            if c.required:
                assert df[c.name].notna().all(), f"{table.path}.{c.name} is declared required but has nulls"


def test_integers_are_written_as_integers_and_pages_as_printed(out):
    laws = pd.read_csv(out / "laws.csv", dtype=str, keep_default_na=False)
    witnesses = pd.read_csv(out / "witnesses.csv", dtype=str, keep_default_na=False)
    for table, df in (("laws", laws), ("witnesses", witnesses)):
        for c in TABLES[table].columns:
            if c.type == "integer":
                bad = df[c.name][~df[c.name].str.fullmatch(r"-?\d*")]
                assert bad.empty, f"{table}.{c.name} has non-integer cells {bad.tolist()[:3]}"
    assert "4" in set(laws["number"]) and "" in set(laws["number"])  # a number, and a rule without one
    declared = {
        str(w["year"])
        for w in tomllib.loads((ROOT / "corpus" / "witnesses.toml").read_text("utf-8"))["witness"]
        if w.get("year")
    }
    assert declared and set(witnesses["year"]) - {""} == declared  # the years as declared: 1897, not 1897.0
    typed = read_table(out / "witnesses.csv")
    assert typed["page"].dropna().map(type).eq(str).all()
    assert (
        read_table(out / "laws.csv")["number"].dropna().map(lambda v: isinstance(v, int) or float(v).is_integer()).all()
    )
    assert str(read_table(out / "laws.csv")["number"].dtype) == "Int64"


def test_parquet_and_json_hold_the_same_laws_with_proper_nulls(out):
    csv = read_table(out / "laws.csv")
    parquet = pd.read_parquet(out / "laws.parquet")  # plain pandas: the nullable dtypes come back
    scalars = [c.name for c in LAWS.columns if c.type != "list"]
    pd.testing.assert_frame_equal(parquet[scalars], csv[scalars])
    # a list column is a list in Parquet and JSON: the pages a law spans, each as printed
    assert [None if v is None else list(v) for v in parquet["pages"]] == [
        list_items(v, LAWS.columns[LAWS.column_names.index("pages")]) for v in csv["pages"]
    ]
    assert any(v is not None and len(v) == 2 for v in parquet["pages"])
    pd.testing.assert_frame_equal(read_parquet(out / "laws.parquet", LAWS), csv)
    for c in LAWS.columns:
        if c.type == "string":
            assert not (parquet[c.name] == "").any(), f"laws.parquet mixes '' and null in {c.name}"
    records = json.loads((out / "laws.json").read_text(encoding="utf-8"))
    expected = json.loads(json_ready(csv, LAWS).to_json(orient="records", force_ascii=False))
    assert records == expected
    assert all(r["pages"] is None or isinstance(r["pages"], list) for r in records)
    assert any(r["printed"] is None for r in records) and all(r["printed"] != "" for r in records)
    assert all(isinstance(r["number"], int) for r in records if r["number"] is not None)


def test_every_declared_column_is_documented_in_the_data_dictionary():
    for table in TABLES.values():
        missing = set(table.column_names) - documented_columns(table.path)
        assert not missing, f"docs/OUTPUTS.md does not document {sorted(missing)} of outputs/{table.path}"


# --------------------------------------------------------------------------- the data package


def test_the_data_package_validates_with_frictionless(out):
    from frictionless import Package, validate

    report = validate(out / "datapackage.json")
    assert report.valid, report.flatten(["type", "note"])[:5]
    package = Package(out / "datapackage.json")
    assert sorted(r.name for r in package.resources) == sorted(TABLES)
    laws = package.get_resource("laws")
    assert laws.schema.primary_key == ["law_id"]
    assert {"fields": ["witness"], "reference": {"resource": "witnesses", "fields": ["id"]}} in laws.schema.foreign_keys
    links = package.get_resource("alignments").schema.foreign_keys
    assert {"fields": ["law_a"], "reference": {"resource": "laws", "fields": ["law_id"]}} in links
    rows = laws.read_rows()
    assert isinstance(rows[0]["number"], int) and isinstance(rows[0]["complete"], bool)
    assert package.licenses[0]["name"] == "CC0-1.0" and package.version == __version__
    # every field is described; list columns are lists, read back as lists of their items
    fields = [f for r in package.resources for f in r.schema.fields]
    assert [f"{f.name}" for f in fields if not f.description] == []
    lists = {(r.name, f.name) for r in package.resources for f in r.schema.fields if f.type == "list"}
    assert {("laws", "pages"), ("corrections", "candidates"), ("rules", "citations")} <= lists
    spans = [row["pages"] for row in rows if row["pages"] and len(row["pages"]) > 1]
    assert spans and all(isinstance(p, str) for p in spans[0])
    # who made it and from what
    edition = load_edition(ROOT / "corpus")
    assert {c["title"] for c in package.contributors} >= {e.name for e in edition.editors}
    witnesses = read_table(out / "witnesses.csv")
    assert len(package.sources) == witnesses["source"].fillna(witnesses["id"]).nunique()
    assert all(any(w in s["title"] for s in package.sources) for w in witnesses["id"])


def test_the_data_package_catches_a_law_of_an_unknown_witness(out, tmp_path):
    from frictionless import validate

    copy = tmp_path / "out"
    copy.mkdir()
    for t in TABLES.values():
        shutil.copy(out / t.path, copy / t.path)
    laws = read_table(copy / "laws.csv")
    laws.loc[0, "witness"] = "xx-999"
    (copy / "laws.csv").write_bytes(csv_bytes(laws))
    (copy / "datapackage.json").write_bytes(datapackage(copy, __version__))
    report = validate(copy / "datapackage.json")
    assert not report.valid
    assert "foreign-key" in {e[0] for e in report.flatten(["type"])}


# --------------------------------------------------------------------------- the database


def test_the_database_is_built_byte_for_byte_and_holds_the_tables(out, tmp_path):
    first, second = build_database(out, tmp_path / "a.sqlite"), build_database(out, tmp_path / "b.sqlite")
    assert first.read_bytes() == second.read_bytes() == (out / "cardlaws.sqlite").read_bytes()
    db = sqlite3.connect(out / "cardlaws.sqlite")
    try:
        for table in TABLES.values():
            assert db.execute(f"select count(*) from [{table.name}]").fetchone()[0] == len(read_table(out / table.path))
        fks = {(r[2], r[3], r[4]) for r in db.execute("select * from pragma_foreign_key_list('laws')")}
        assert ("witnesses", "witness", "id") in fks and ("laws", "parent", "law_id") in fks
        assert db.execute("select typeof(number) from laws where number is not null limit 1").fetchone() == ("integer",)
        assert db.execute("pragma foreign_key_check").fetchall() == []
        # every law a ruling cites is a row of rule_citations, joined to the law
        rules = read_table(out / "rules.csv")
        cited = {(i, x) for i, c in enumerate(rules["citations"].fillna(""), 1) for x in c.split(";") if x}
        assert cited and cited == set(
            db.execute(
                "select c.rule, l.law_id from rule_citations c join laws l using (law_id) where c.role = 'citation'"
            )
        )
        # every table of the database (FTS5 shadow tables aside) is documented in docs/OUTPUTS.md
        section = re.search(
            r"^### `outputs/cardlaws.sqlite`.*?(?=^### )",
            (ROOT / "docs" / "OUTPUTS.md").read_text(encoding="utf-8"),
            re.S | re.M,
        ).group(0)
        for (name,) in db.execute("select name from sqlite_master where type = 'table' and name not like 'laws_fts_%'"):
            assert re.search(rf"\b{name}\b", section), f"docs/OUTPUTS.md does not document the database table {name}"
        hits = db.execute("select rowid from laws_fts where laws_fts match 'ecarte'").fetchall()
        assert hits, "full-text search does not fold the accents of 'écarté'"
    finally:
        db.close()


def test_datasette_opens_the_database_with_its_metadata_and_facets_on_a_list(out):
    """In process, as ``datasette outputs/`` serves it: the metadata's licence and descriptions on the pages, a
    facet over the items of a list column (the pages a law spans), the canned queries answering."""
    import asyncio
    import concurrent.futures

    from datasette.app import Datasette

    meta = json.loads((out / "metadata.json").read_text(encoding="utf-8"))
    tables = meta["databases"]["cardlaws"]["tables"]
    db = sqlite3.connect(out / "cardlaws.sqlite")
    try:
        names = {n for (n,) in db.execute("select name from sqlite_master where type = 'table'")}
        columns = {n: [r[1] for r in db.execute(f"pragma table_info([{n}])")] for n in names}
    finally:
        db.close()
    for name in names - {n for n in names if n.startswith("laws_fts")}:
        assert tables[name]["description"], f"metadata.json does not describe the table {name}"
        assert set(tables[name]["columns"]) == set(columns[name]), f"metadata.json: columns of {name}"
        assert all(tables[name]["columns"].values()), f"metadata.json: a column of {name} has no description"
    assert meta["license"] == "CC0-1.0" and meta["license_url"].startswith("https://")
    laws = read_table(out / "laws.csv")
    on_page: dict[str, int] = {}
    for cell in laws["pages"].dropna():
        for p in cell.split(";"):
            on_page[p] = on_page.get(p, 0) + 1

    async def visit():
        ds = Datasette([str(out / "cardlaws.sqlite")], metadata=meta)
        page = await ds.client.get("/cardlaws/laws")
        facets = (await ds.client.get("/cardlaws/laws.json?_facet_array=pages&_size=0")).json()["facet_results"]
        default = (await ds.client.get("/cardlaws/rules.json?_size=0")).json()["facet_results"]
        query = await ds.client.get("/cardlaws/laws_on_a_page.json?_shape=array&witness=en-004&page=171")
        return page, facets, default, query

    # in a thread of its own: a browser test of the same worker may leave an event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        page, facets, default, query = pool.submit(asyncio.run, visit()).result()
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert (
        meta["license"] in text and tables["laws"]["description"] in text and tables["laws"]["columns"]["pages"] in text
    )
    counts = {r["value"]: r["count"] for r in facets["pages"]["results"]}
    assert counts and all(counts[p] == on_page[p] for p in counts)
    assert {"sources", "penalties"} <= set(default)  # list columns faceted by their items by default
    assert query.status_code == 200
    expected = laws[(laws["witness"] == "en-004") & laws["pages"].fillna("").str.split(";").map(lambda p: "171" in p)]
    assert sorted(r["law_id"] for r in query.json()) == sorted(expected["law_id"])


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read().decode("utf-8"))


def test_datasette_serves_the_database_and_answers_a_full_text_query(out):
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "datasette",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--immutable",
            str(out / "cardlaws.sqlite"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get_json(f"{base}/-/versions.json")
                break
            except OSError:
                assert proc.poll() is None, f"datasette exited: {proc.stderr.read().decode()[-500:]}"
                assert time.monotonic() < deadline, "datasette did not answer within 60 s"
                time.sleep(0.3)
        laws = read_table(out / "laws.csv")
        words = laws["text"].fillna("").map(lambda t: set(re.findall(r"\w+", _fold(t))))
        for term in ("trump", "ecart"):  # English; French without its accent (écart)
            query = urllib.parse.urlencode({"_search": term, "_shape": "array", "_col": "text", "_size": "max"})
            rows = _get_json(f"{base}/cardlaws/laws.json?{query}")
            assert rows, f"no law found for {term!r}"
            # exactly the laws that have the word, accents folded
            assert sorted(r["law_id"] for r in rows) == sorted(laws.loc[words.map(lambda w: term in w), "law_id"])
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------- figures, licences, citation


def test_figures_are_deterministic_svg_drawn_from_the_tables(out):
    again = draw_figures(out)  # (drawn: not the figures this process may keep for the same tables)
    assert {"figures/law-lengths.svg", "figures/corrections-by-kind.svg", "figures/link-scores.svg"} <= set(again)
    for rel, data in again.items():
        assert (out / rel).read_bytes() == data, f"{rel} is not the same bytes when drawn again"
        text = data.decode("utf-8")
        assert text.lstrip().startswith("<?xml") and "<svg" in text
        assert "<dc:date>" not in text, f"{rel} carries a date"
    assert render_figures(out) == again  # (kept or drawn: the same bytes)


def test_figures_kept_for_unchanged_tables_are_drawn_again_when_a_table_changes(out, tmp_path):
    copy = tmp_path / "tables"
    copy.mkdir()
    for t in TABLES.values():
        shutil.copy(out / t.path, copy / t.path)
    first = render_figures(copy)
    read_table(copy / "laws.csv").iloc[:-3].to_csv(copy / "laws.csv", index=False)  # three laws fewer
    second = render_figures(copy)
    assert second["figures/law-lengths.svg"] != first["figures/law-lengths.svg"]
    assert second["figures/link-scores.svg"] == first["figures/link-scores.svg"]  # (its table is unchanged)


def test_licences_and_a_valid_citation_file():
    import jsonschema
    import yaml

    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "CC0 1.0 Universal" in (ROOT / "LICENSE-DATA").read_text(encoding="utf-8")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # the schema file cffconvert ships (found without importing cffconvert, whose validators need pykwalify)
    spec = importlib.util.find_spec("cffconvert")
    assert spec is not None, "cffconvert (the CFF schema) is not installed: make install"
    schema = json.loads((Path(spec.origin).parent / "schemas" / "1.2.0" / "schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = sorted(e.message for e in validator.iter_errors(cff))
    assert not errors, errors[:3]
    assert cff["cff-version"] == "1.2.0" and cff["version"] == __version__
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "LICENSE-DATA" in readme and "CITATION.cff" in readme


def test_another_process_writes_the_same_database_figures_and_package(out, tmp_path):
    """Nothing in these outputs depends on the process (hash seed, time, paths): a second process,
    with another hash seed, writes the same bytes from the same tables."""
    copy = tmp_path / "tables"
    copy.mkdir()
    for t in TABLES.values():
        shutil.copy(out / t.path, copy / t.path)
    script = (
        "import sys; from pathlib import Path\n"
        "from pipeline import __version__\n"
        "from pipeline.export.database import build_database\n"
        "from pipeline.export.figures import render_figures\n"
        "from pipeline.export.database import datasette_metadata\n"
        "from pipeline.export.tables import datapackage, package_info\n"
        "from pipeline.export.tei.config import load_edition\n"
        "d = Path(sys.argv[1]); build_database(d, d / 'cardlaws.sqlite')\n"
        "for rel, data in render_figures(d).items():\n"
        "    (d / rel).parent.mkdir(exist_ok=True); (d / rel).write_bytes(data)\n"
        "info = package_info(load_edition(sys.argv[2]))\n"
        "(d / 'datapackage.json').write_bytes(datapackage(d, __version__, info=info))\n"
        "(d / 'metadata.json').write_bytes(datasette_metadata(d, info))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run(
        [sys.executable, "-c", script, str(copy), str(ROOT / "corpus")], check=True, env=env, cwd=ROOT, timeout=300
    )
    for rel in [
        "cardlaws.sqlite",
        "datapackage.json",
        "metadata.json",
        *(p.relative_to(out).as_posix() for p in (out / "figures").glob("*.svg")),
    ]:
        assert (copy / rel).read_bytes() == (out / rel).read_bytes(), f"{rel} differs when written by another process"


def test_the_database_holds_a_law_longer_than_the_csv_modules_field_limit(out, tmp_path):
    """A book printed as one line gives cells of hundreds of kilobytes (the build had stopped with
    `field larger than field limit (131072)`)."""
    copy = tmp_path / "tables"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("site", "tei", "text", "figures", "*.sqlite"))
    laws = read_table(copy / "laws.csv")
    long_text = "the dealer deals again " * 20_000  # 460 kB in one cell
    laws.loc[0, "text"] = long_text
    (copy / "laws.csv").write_bytes(csv_bytes(laws))
    db = sqlite3.connect(build_database(copy, tmp_path / "long.sqlite"))
    try:
        assert db.execute("select text from laws where law_id = ?", (laws.loc[0, "law_id"],)).fetchone() == (long_text,)
    finally:
        db.close()
