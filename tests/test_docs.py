"""The README documents every command, and docs/OUTPUTS.md every column of every table the build writes."""

from __future__ import annotations

import re

import pandas as pd

from pipeline.__main__ import make_parser

from conftest import OUTPUTS, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
OUTPUTS_DOC = (ROOT / "docs" / "OUTPUTS.md").read_text(encoding="utf-8")


def documented_columns(table: str) -> set[str]:
    m = re.search(rf"^### `outputs/{re.escape(table)}`.*?$(.*?)(?=^### |^## |\Z)", OUTPUTS_DOC, re.S | re.M)
    assert m, f"docs/OUTPUTS.md has no section for outputs/{table}"
    cols: set[str] = set()
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0] not in ("column", "---"):
            cols.update(c.strip() for c in cells[0].split(","))
    return cols


def test_every_column_of_every_table_is_documented():
    tables = sorted(p.name for p in OUTPUTS.glob("*.csv"))
    assert "laws.csv" in tables and "corrections.csv" in tables
    for table in tables:
        columns = set(pd.read_csv(OUTPUTS / table, nrows=0).columns)
        missing = columns - documented_columns(table)
        assert not missing, f"docs/OUTPUTS.md does not document {sorted(missing)} of outputs/{table}"


def test_every_subcommand_is_documented():
    sub = next(a for a in make_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"python -m pipeline {name}" in README, f"README does not show `python -m pipeline {name}`"


def test_every_make_target_is_in_make_help():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("all", "install", "build", "test", "eval", "bench", "results", "status"):
        assert re.search(rf"^{target}:.*## ", makefile, re.M), f"make {target} has no help text"
