"""Publishing the outputs all or nothing.

A build writes every output into a staging folder beside ``outputs/`` (``.outputs.staging-<pid>``).
Once the whole new tree is there (the files a build does not make, such as ``outputs/eval`` and
``outputs/bench``, carried over from the old tree), the staging folder and ``outputs/`` are swapped
in one step: ``renameat2(RENAME_EXCHANGE)`` on Linux, else two renames with the old tree restored on
failure (and by the next build, if the process dies in between). A failure at any moment before the
swap leaves the old outputs whole; a failure after it leaves the new ones whole.

Leftovers of dead builds (staging folders, the previous tree of a swap that could not be removed)
are removed by the next build (only those holding the pipeline's marker file). The manifest of the published tree (``{file: sha256}``) is kept beside
it (``.outputs.manifest.json``), so that ``status`` can say which outputs are missing or edited.

The pipeline deletes only what it made. The outputs folder carries a marker file (``MARKER``) that
the pipeline wrote; :func:`outputs_folder` refuses a non-empty folder without it, a file, the file
system's root, the corpus, the checkout or a parent of either (one line, nothing touched). An outputs
folder of a build made before markers were kept is recognised by its contents (``is_old_outputs``: its
``datapackage.json`` is this pipeline's and every entry is an output's name) and gets its marker. A
folder given through a symlink is published into: the symlink stays and points at the new tree.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Sequence

from .errors import PipelineError
from .files import FolderError, claim_folder, file_sha256, marker_text, real_path

MARKER = ".cardlaws-outputs"  # the file that makes a folder the pipeline's outputs folder
PACKAGE_NAME = "cardlaws"  # datapackage.json's name in an outputs folder this pipeline wrote
# the entries of an outputs folder a build wrote before the marker was kept (``is_old_outputs``)
OUTPUT_NAMES = frozenset(
    """alignments.csv bench cardlaws.sqlite corrections.csv datapackage.json eval figures flags.csv laws.csv
    laws.json laws.parquet metadata.json pages.csv rules.csv rules.json rules_report.txt site tei text unaligned.csv
    witnesses.csv""".split()
)


class PublishError(PipelineError):
    """The outputs folder cannot be written or replaced (read-only file system, permissions)."""


def managed_files(out_dir: Path, managed: Sequence[str]) -> list[str]:
    return [
        p.relative_to(out_dir).as_posix()
        for sub in managed
        if (out_dir / sub).is_dir()
        for p in sorted((out_dir / sub).rglob("*"))
        if p.is_file()
    ]


def _all_files(folder: Path) -> list[str]:
    return [p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*")) if p.is_file()]


def manifest_path(out_dir: Path) -> Path:
    out = Path(out_dir)
    return out.parent / f".{out.name}.manifest.json"


def read_manifest(out_dir: Path) -> dict[str, str] | None:
    """The ``{file: sha256}`` of the last published build of ``out_dir`` (None: none, or unreadable)."""
    try:
        data = json.loads(manifest_path(out_dir).read_text("utf-8"))
        return dict(data["outputs"]) if isinstance(data.get("outputs"), dict) else None
    except (OSError, ValueError, AttributeError):
        return None


def write_manifest(out_dir: Path, manifest: dict[str, str]) -> None:
    """Record ``manifest`` as the last published build of ``out_dir`` (a failure only costs ``status``
    its check: the outputs themselves are published)."""
    from .files import write_atomic

    try:
        write_atomic(manifest_path(out_dir), json.dumps({"outputs": manifest}, indent=0, sort_keys=True))
    except OSError:
        pass


def check_outputs(out_dir: Path, manifest: dict[str, str]) -> tuple[list[str], list[str]]:
    """(missing, edited): the files of ``manifest`` absent from ``out_dir``, and those whose bytes differ."""
    missing, edited = [], []
    for rel, digest in sorted(manifest.items()):
        p = Path(out_dir) / rel
        if not p.is_file():
            missing.append(rel)
        elif file_sha256(p) != digest:
            edited.append(rel)
    return missing, edited


def is_old_outputs(folder: Path) -> bool:
    """True for an outputs folder written before the marker was kept: its ``datapackage.json`` names this
    pipeline's package and it holds nothing but the names of outputs (and the build's ``.tmp`` files)."""
    try:
        names = [p.name for p in Path(folder).iterdir()]
        package = json.loads((Path(folder) / "datapackage.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(package, dict)
        and package.get("name") == PACKAGE_NAME
        and all(n in OUTPUT_NAMES or n.startswith(".tmp") for n in names)
    )


def outputs_folder(out_dir: Path, corpus_dir: Path, protected: Sequence[Path] = (), create: bool = True) -> Path:
    """The real folder a build publishes ``out_dir`` into, checked (see the module's docstring): not the
    root, not a file, not the corpus (nor inside it), not the checkout that holds the corpus nor any
    folder of ``protected`` (the code's checkout, the cache), nor a parent of one of them; a non-empty
    folder must carry ``MARKER`` or be an old outputs folder. Raises FolderError; creates the folder
    (unless ``create`` is False)."""
    out = real_path(out_dir, "--out")
    corpus = real_path(corpus_dir, "--corpus")
    if out == Path(out.anchor):
        raise FolderError(f"--out {out_dir} is the root of the file system; give a folder of its own")
    if out.is_relative_to(corpus):
        raise FolderError(f"--out {out_dir} is inside the corpus {corpus}; give a folder outside it")
    for p in (corpus, corpus.parent, *protected):
        q = real_path(p, "folder")
        if q.is_relative_to(out):
            raise FolderError(
                f"--out {out_dir} would hold {q} (the corpus, the checkout or the cache); "
                "give a folder of its own, like outputs/"
            )
    return claim_folder(out, MARKER, "--out folder", is_old_outputs, create)


CACHE_MARKER = ".cardlaws-cache"  # the file that makes a folder the pipeline's stage cache
# the entries of a stage cache written before the marker was kept (``is_old_cache``): a witness's stages
# (``<id>.<key>.pkl``), its alignment (``<id>.align.<key>.pkl``), a pivot (``<game>.pivot.<key>.pkl``), a
# corpus's manifest (``corpus.<key>.json``), the last build's report, and write_atomic's temporary files
_OLD_CACHE_ENTRY = re.compile(
    r"(?:[a-z0-9-]+\.(?:align\.|pivot\.)?[0-9a-f]{24}\.pkl|corpus\.[0-9a-f]{24}\.json|last_build\.json|\.tmp-.*)\Z",
    re.S,
)


def is_old_cache(folder: Path) -> bool:
    """True for a stage cache written before the marker was kept: every entry is a file named as the build
    names its cache entries."""
    try:
        return all(p.is_file() and _OLD_CACHE_ENTRY.match(p.name) for p in Path(folder).iterdir())
    except OSError:
        return False


def cache_folder(cache_dir: Path, corpus_dir: Path, create: bool = True) -> Path:
    """The real folder of the stage cache ``cache_dir``, checked as an outputs folder is (its marker
    ``CACHE_MARKER``, or an old cache recognised by ``is_old_cache``; not inside the corpus ``corpus_dir``);
    created when missing."""
    corpus = real_path(corpus_dir, "--corpus")
    if real_path(cache_dir, "--cache").is_relative_to(corpus):
        raise FolderError(f"--cache {cache_dir} is inside the corpus {corpus}; give a folder outside it")
    return claim_folder(cache_dir, CACHE_MARKER, "--cache folder", is_old_cache, create)


def pid_alive(pid: int) -> bool:
    """True if a process ``pid`` runs (or exists under another user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _leftovers(out: Path) -> list[tuple[Path, int]]:
    found = []
    for kind in ("staging", "old"):
        for p in out.parent.glob(f".{out.name}.{kind}-*"):
            tail = p.name.rsplit("-", 1)[-1]
            if p.is_dir() and not p.is_symlink() and tail.isdigit() and (p / MARKER).is_file():
                found.append((p, int(tail)))
    return found


def recover(out_dir: Path) -> None:
    """Undo what a dead build left: a previous tree whose swap was cut short goes back in place (when
    ``out_dir`` is gone), and the staging folders and old trees of dead processes are removed."""
    out = Path(out_dir)
    if not out.parent.is_dir():
        return
    mine = os.getpid()
    for p, pid in _leftovers(out):
        if pid != mine and pid_alive(pid):
            continue
        if p.name.startswith(f".{out.name}.old-") and not out.exists():
            os.rename(p, out)  # a two-rename swap died half-way: the old outputs are whole again
            continue
        shutil.rmtree(p, ignore_errors=True)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False when the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_in(staging: Path, out: Path) -> Path | None:
    """Put the folder ``staging`` in place of ``out`` in one step; returns where the old tree now is
    (None if there was none). On failure ``out`` is unchanged."""
    if not out.exists():
        os.rename(staging, out)
        return None
    if _exchange(staging, out):
        return staging
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    os.rename(out, old)
    try:
        os.rename(staging, out)
    except BaseException:
        os.rename(old, out)
        raise
    return old


def _carry(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


class Staging:
    """The new outputs, written into a staging folder beside ``out_dir`` while the build runs and
    published by ``commit`` in one step (see the module's docstring); a large build never holds its
    outputs in memory."""

    scratch = ".laws"  # the build's own working files inside the staging folder (never published)

    def __init__(self, out_dir: Path):
        self.out = Path(out_dir)
        self.dir = self.out.parent / f".{self.out.name}.staging-{os.getpid()}"
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            recover(self.out)
            if self.dir.exists():
                shutil.rmtree(self.dir)
            self.dir.mkdir(parents=True)
            (self.dir / MARKER).write_text(marker_text("outputs folder"), "utf-8")
        except OSError as exc:
            raise PublishError(
                f"cannot write beside {self.out} ({exc.strerror or exc}); "
                "the outputs folder and its parent must be writable"
            ) from None
        self.files: list[str] = []

    def path(self, rel: str) -> Path:
        p = self.dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if rel not in self.files:
            self.files.append(rel)
        return p

    def write(self, rel: str, data: bytes) -> None:
        self.path(rel).write_bytes(data)

    def open(self, rel: str):
        return self.path(rel).open("wb")

    def commit(self, managed: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, str]]:
        """Publish the staging folder as ``out_dir``: files the build made replace the old ones, stale
        files of the ``managed`` folders go, every other old file is carried over. Returns (written,
        removed, {file: sha256} of every output the build made)."""
        try:
            return self._commit(managed)
        except OSError as exc:
            self.abort()
            raise PublishError(
                f"cannot publish the new outputs into {self.out} ({exc.strerror or exc}: "
                f"{exc.filename or self.out}); the old outputs are unchanged"
            ) from None

    def _commit(self, managed: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, str]]:
        shutil.rmtree(self.dir / self.scratch, ignore_errors=True)
        manifest = {rel: file_sha256(self.dir / rel) for rel in sorted(self.files)}
        old = self.out if self.out.is_dir() else None
        written, removed = [], []
        for rel, digest in manifest.items():
            os.chmod(self.dir / rel, 0o644)
            dst = self.out / rel
            if not (
                old
                and dst.is_file()
                and dst.stat().st_size == (self.dir / rel).stat().st_size
                and file_sha256(dst) == digest
            ):
                written.append(rel)
        if old:
            prefixes = tuple(f"{m}/" for m in managed)
            for rel in _all_files(old):
                if rel in manifest or rel.startswith(".tmp") or rel == MARKER:
                    continue
                if rel.startswith(prefixes):
                    removed.append(rel)
                else:
                    _carry(old / rel, self.dir / rel)
        self.dir.chmod(0o755)
        previous = swap_in(self.dir, self.out)
        self._write_manifest(manifest)
        if previous is not None:
            shutil.rmtree(previous, ignore_errors=True)
            if previous.exists():
                print(
                    f"warning: could not remove the previous outputs at {previous}; the next build removes it",
                    file=sys.stderr,
                )
        return tuple(written), tuple(removed), manifest

    def _write_manifest(self, manifest: dict[str, str]) -> None:
        write_manifest(self.out, manifest)

    def abort(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
