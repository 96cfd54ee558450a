"""Shared fixtures: project paths, the shared data folder, and one full build per test session."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
OUTPUTS = ROOT / "outputs"
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    assert SHARED.is_dir(), f"the shared data folder {SHARED} is missing (set SHARED_DIR)"
    return SHARED


@pytest.fixture()
def tmp_corpus(tmp_path: Path) -> Path:
    """A private copy of the corpus that a test may change."""
    dest = tmp_path / "corpus"
    shutil.copytree(CORPUS, dest)
    return dest


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory):
    """The whole edition rebuilt from corpus/ into a temporary folder (no cache), once per session."""
    from pipeline.build import BuildOptions, build

    out = tmp_path_factory.mktemp("outputs")
    report = build(BuildOptions(corpus_dir=CORPUS, out_dir=out, cache_dir=None))
    return out, report
