"""Shared fixtures: project paths, the shared data folder, and one full build per test session."""

from __future__ import annotations

import fcntl
import os
import pickle
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


SMALL = "en-002"  # the smallest witness: a corpus of it alone builds in seconds


def small_corpus(dest: Path, ids: tuple[str, ...] = (SMALL,)) -> Path:
    """A copy of the corpus's data files with only the witnesses ``ids``."""
    import tomllib

    import tomli_w

    shutil.copytree(CORPUS, dest, ignore=shutil.ignore_patterns("raw", "witnesses.toml"))
    entries = [e for e in tomllib.loads((CORPUS / "witnesses.toml").read_text("utf-8"))["witness"] if e["id"] in ids]
    (dest / "raw").mkdir()
    for e in entries:
        shutil.copy(CORPUS / e["file"], dest / e["file"])
    (dest / "witnesses.toml").write_text("".join("[[witness]]\n" + tomli_w.dumps(e) + "\n" for e in entries), "utf-8")
    return dest


@pytest.fixture()
def tmp_corpus(tmp_path: Path) -> Path:
    """A private copy of the corpus that a test may change."""
    dest = tmp_path / "corpus"
    shutil.copytree(CORPUS, dest)
    return dest


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory):
    """The whole edition rebuilt from corpus/ into a temporary folder (from an empty cache), once per test run:
    under pytest-xdist the first worker that asks builds it into the run's shared temporary folder while the
    others wait on a file lock, then every worker reads the same edition. Its cache (``FRESH_CACHE`` beside
    the outputs) lets the tests that build the corpus again start from the per-witness results."""
    from pipeline.build import BuildOptions, build

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        out = tmp_path_factory.mktemp("outputs") / "fresh-build-outputs"
        return out, build(BuildOptions(corpus_dir=CORPUS, out_dir=out, cache_dir=out.parent / FRESH_CACHE))
    shared = tmp_path_factory.getbasetemp().parent  # one folder for all the workers of this run
    out, saved = shared / "fresh-build-outputs", shared / "fresh-build-report.pickle"
    with open(shared / "fresh-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not saved.is_file():
                report = build(BuildOptions(corpus_dir=CORPUS, out_dir=out, cache_dir=shared / FRESH_CACHE))
                saved.write_bytes(pickle.dumps(report))
            return out, pickle.loads(saved.read_bytes())
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


FRESH_CACHE = "fresh-build-cache"


@pytest.fixture()
def built_copy(fresh_build, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the fresh build's outputs (``tmp_path/out``, with the manifest a build keeps beside
    them) and of its cache (``tmp_path/cache``): a build of an unchanged copy of the corpus into them finds
    every witness in the cache."""
    out, _ = fresh_build
    shutil.copytree(out, tmp_path / "out")
    shutil.copy(out.parent / f".{out.name}.manifest.json", tmp_path / ".out.manifest.json")
    shutil.copytree(out.parent / FRESH_CACHE, tmp_path / "cache")
    return tmp_path / "out", tmp_path / "cache"


# the one headless Chromium of a test session (Playwright allows one sync driver per process): the site's
# browser tests and the TEI rendering through CETEIcean share it
@pytest.fixture(scope="session")
def browser():
    assert Path("/usr/bin/chromium").is_file(), (
        "Chromium is missing: install Debian's package (apt-get install -y chromium); `make test` does it"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


# Scheduling under pytest-xdist (``make test``: ``-n 2 --dist loadfile --no-loadscope-reorder``): the tests of one
# file run in one worker (they share its module fixtures) and the slowest files are handed out first, so that the
# two workers finish together instead of one of them taking a long file last while the other has nothing left
# (xdist's own order, the files of most tests first, took the files of a few slow tests last).
SLOWEST_FIRST = (
    "test_robust",
    "test_clean_bounds",
    "test_scale",
    "test_tei",
    "test_notebooks",
    "test_build",
    "test_align",
    "test_site",
    "test_safety",
    "test_collate",
    "test_cli",
    "test_data",
    "test_site_publish",
    "test_clean",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.path)).stem, len(rank)))  # (stable: each file keeps its order)
