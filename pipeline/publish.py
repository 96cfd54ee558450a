"""Publishing the outputs all or nothing.

A build writes every output into a staging folder beside ``outputs/`` (``.outputs.staging-<pid>``).
Once the whole new tree is there (the files a build does not make, such as ``outputs/eval`` and
``outputs/bench``, carried over from the old tree), the staging folder and ``outputs/`` are swapped
in one step: ``renameat2(RENAME_EXCHANGE)`` on Linux, else two renames with the old tree restored on
failure (and by the next build, if the process dies in between). A failure at any moment before the
swap leaves the old outputs whole; a failure after it leaves the new ones whole.

Leftovers of dead builds (staging folders, the previous tree of a swap that could not be removed)
are removed by the next build. The manifest of the published tree (``{file: sha256}``) is kept beside
it (``.outputs.manifest.json``), so that ``status`` can say which outputs are missing or edited.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Sequence

from .errors import PipelineError


class PublishError(PipelineError):
    """The outputs folder cannot be written or replaced (read-only file system, permissions)."""


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _managed_files(out_dir: Path, managed: Sequence[str]) -> list[str]:
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
        elif _sha256(p) != digest:
            edited.append(rel)
    return missing, edited


def _pid_alive(pid: int) -> bool:
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
            if p.is_dir() and tail.isdigit():
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
        if pid != mine and _pid_alive(pid):
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
        manifest = {rel: _sha256(self.dir / rel) for rel in sorted(self.files)}
        old = self.out if self.out.is_dir() else None
        written, removed = [], []
        for rel, digest in manifest.items():
            os.chmod(self.dir / rel, 0o644)
            dst = self.out / rel
            if not (
                old
                and dst.is_file()
                and dst.stat().st_size == (self.dir / rel).stat().st_size
                and _sha256(dst) == digest
            ):
                written.append(rel)
        if old:
            prefixes = tuple(f"{m}/" for m in managed)
            for rel in _all_files(old):
                if rel in manifest or rel.startswith(".tmp"):
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
