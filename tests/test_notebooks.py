"""The notebooks (notebooks/*.py, jupytext percent scripts paired with .ipynb) run end to end.

Each notebook is executed with nbclient on the venv's ipykernel against a fresh build's outputs
(PIPELINE_OUTPUTS), every cell must run without error, and each notebook's last cell (its checks)
must print its "checks passed" line. The committed .ipynb must hold the same cells as its .py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SCRIPTS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
EXPECTED = {
    "01_corpus": "corpus checks passed",
    "02_cleaning": "cleaning checks passed",
    "03_alignment": "alignment checks passed",
    "04_rules": "rule-table checks passed",
    "05_scale": "scale checks passed",
}


def _sources(nb) -> list[tuple[str, str]]:
    return [(c.cell_type, c.source.strip()) for c in nb.cells]


def test_notebooks_are_paired_and_in_sync():
    assert [p.stem for p in SCRIPTS] == sorted(EXPECTED)
    for py in SCRIPTS:
        ipynb = py.with_suffix(".ipynb")
        assert ipynb.is_file(), f"{ipynb.name} is missing: run `jupytext --sync {py.relative_to(ROOT)}`"
        assert _sources(jupytext.read(py)) == _sources(jupytext.read(ipynb)), (
            f"{py.name} and {ipynb.name} differ: run `jupytext --sync {py.relative_to(ROOT)}`"
        )


@pytest.fixture(scope="module")
def outputs_dir(fresh_build) -> Path:
    out, _ = fresh_build
    return out


def _execute(script: Path, outputs_dir: Path, monkeypatch, then_without_gold: Path | None = None):
    """Run the notebook; with ``then_without_gold``, run it a second time in the same kernel after
    clearing its namespace (``%reset -f``: nothing a cell of the first run defined is left, only the
    modules it imported stay loaded) with ``SHARED_DIR`` pointing there, as in a checkout without
    ../shared. The returned notebook holds the cells of both runs: the first run's end and the second's start
    are ``first_end`` and ``second`` in its metadata."""
    # the kernel inherits this process's environment: the outputs of the fresh build, the venv's Python
    monkeypatch.setenv("PIPELINE_OUTPUTS", str(outputs_dir))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # and this checkout's package, whatever copy of it the venv has installed
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])))
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    nb = jupytext.read(script)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["first_end"] = second = len(nb.cells)
    if then_without_gold is not None:
        reset = nbformat.v4.new_code_cell(
            f"%reset -f\nimport os\nos.environ['SHARED_DIR'] = {str(then_without_gold)!r}"
        )
        nb.cells = [*nb.cells, reset, *(nbformat.from_dict(c) for c in jupytext.read(script).cells)]
        second += 1
    nb.metadata["second"] = second
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    return nb


def _printed(cells) -> str:
    return "".join(o.get("text", "") for c in cells if c.cell_type == "code" for o in c.get("outputs", []))


# the notebooks that read the gold folder: each runs with it, then again without it (a fresh clone without ../shared
# runs them too, and they say what they skip)
USE_GOLD = ("02_cleaning", "03_alignment")


@pytest.mark.integration
@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_notebook_runs_end_to_end(script: Path, outputs_dir: Path, monkeypatch, tmp_path):
    nb = _execute(script, outputs_dir, monkeypatch, tmp_path / "no-shared" if script.stem in USE_GOLD else None)
    first, second = nb.cells[: nb.metadata["first_end"]], nb.cells[nb.metadata["second"] :]
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    last = [c for c in first if c.cell_type == "code"][-1]
    text = "".join(o.get("text", "") for o in last.outputs if o.output_type == "stream")
    assert EXPECTED[script.stem] in text, text
    assert "set SHARED_DIR" not in _printed(first)  # (the gold folder is beside the checkout here)
    # the figures were drawn (the cleaning and alignment notebooks' plots are their point)
    images = sum("image/png" in o.get("data", {}) for c in first for o in c.get("outputs", []))
    assert images >= (0 if script.stem == "04_rules" else 1)
    nbformat.validate(nb)
    if script.stem in USE_GOLD:  # the run without the gold folder
        text = _printed(second)
        assert EXPECTED[script.stem] in text
        assert "set SHARED_DIR" in text
        assert "precision 0.00" not in text
