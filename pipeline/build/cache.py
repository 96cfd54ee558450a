"""The build's cache: the hashes that key it (the package's code, the corpus's data files, a witness's
text) and its entries (pickles under the cache folder, each read, written or pruned as one unit)."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from ..files import write_atomic
from ..model import WitnessText

T = TypeVar("T")

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the pipeline package, whose source keys the cache


def _hash_files(paths: Iterable[Path], base: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        if p.is_file():
            h.update(str(p.relative_to(base)).encode())
            h.update(b"\0")
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


# what an editor, a merge or the desktop leaves beside the data: never part of what keys the cache or names the build
_STRAY_SUFFIXES = ("~", ".swp", ".swo", ".orig", ".rej", ".bak", ".tmp")


def _is_stray(path: Path, base: Path) -> bool:
    parts = path.relative_to(base).parts
    return any(p.startswith(".") or p == "__pycache__" for p in parts) or path.name.endswith(_STRAY_SUFFIXES)


def code_version() -> str:
    """Hash of the package's source: any code change invalidates the cache."""
    return _hash_files((p for p in PACKAGE_DIR.rglob("*.py") if not _is_stray(p, PACKAGE_DIR)), PACKAGE_DIR)[:16]


def resources_version(corpus_dir: Path) -> str:
    """Hash of the data files (lexicons, glossary, annotations): everything under corpus/ but raw scans, hidden
    files and an editor's backups (``laws.toml~``, ``.laws.toml.swp``)."""
    files = [
        p
        for p in corpus_dir.rglob("*")
        if p.is_file()
        and p.name != "witnesses.toml"
        and "raw" not in p.relative_to(corpus_dir).parts
        and not _is_stray(p, corpus_dir)
    ]
    return _hash_files(files, corpus_dir)[:16]


def witness_key(wt: WitnessText, code: str, resources: str) -> str:
    h = hashlib.sha256()
    h.update(repr(wt.witness).encode())
    h.update(wt.raw.encode())
    h.update(code.encode())
    h.update(resources.encode())
    return h.hexdigest()[:24]


def cache_path(cache_dir: Path, witness_id: str, key: str) -> Path:
    return cache_dir / f"{witness_id}.{key}.pkl"


MISSING = object()


def load_entry(cache_dir: str | None, name: str) -> Any:
    """The cached value ``name``, or ``MISSING`` (no cache, no entry, or a corrupt one: recomputed)."""
    path = Path(cache_dir) / name if cache_dir else None
    if path is None or not path.is_file():
        return MISSING
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except Exception:
        return MISSING


def cached(cache_dir: str | None, name: str, compute_it: Callable[[], T]) -> tuple[T, bool]:
    """Load ``name`` from the cache, or compute and store it; returns (value, computed?)."""
    value = load_entry(cache_dir, name)
    if value is not MISSING:
        return value, False
    value = compute_it()
    if cache_dir:
        write_atomic(Path(cache_dir) / name, pickle.dumps(value, protocol=5))
    return value, True


def prune_cache(cache_dir: Path, keep: frozenset[str]) -> None:
    """Forget cache entries that the last build did not use (older versions of changed witnesses)."""
    if not keep:
        return
    for p in list(cache_dir.glob("*.pkl")) + list(cache_dir.glob("corpus.*.json")):
        if p.name not in keep:
            p.unlink(missing_ok=True)
