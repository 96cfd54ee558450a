"""One build at a time per checkout: an OS file lock around ``build``, ``add`` and ``remove``.

The lock is ``fcntl.flock`` on a file beside the corpus folder (``<checkout>/.pipeline.lock``, not
inside corpus/: every file there is part of the data's hash). It is opened without following a
symlink and must be a regular file of its own (``open_lock``): a lock file prepared as a link to
another file is refused, never truncated. The kernel releases it when the process
dies, however it dies, so a killed build never leaves a stale lock. A second command waits for the
first with one message on stderr (or, with ``wait=False`` / a timeout, refuses in one line).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import sys
import time
from pathlib import Path
from typing import Iterator

from .errors import PipelineError

LOCK_NAME = ".pipeline.lock"


class BusyError(PipelineError):
    """Another build, add or remove holds the checkout's lock."""


class LockFileError(PipelineError):
    """The lock file's place holds something the pipeline did not make (a symlink, a hard link, a folder)."""


def lock_path(corpus_dir: Path) -> Path:
    """The lock file of the checkout whose corpus is ``corpus_dir``."""
    return Path(corpus_dir).resolve().parent / LOCK_NAME


@contextlib.contextmanager
def checkout_lock(
    corpus_dir: Path, what: str, wait: bool = True, timeout: float | None = None, poll: float = 0.2
) -> Iterator[None]:
    """Hold the checkout's lock while the block runs (``what``: the command, for the messages).

    Waits for another holder (saying so once on stderr) unless ``wait`` is False; with ``timeout``
    (seconds) it gives up after that long. Refusing is a ``BusyError`` (one line)."""
    path = lock_path(corpus_dir)
    fd = open_lock(path)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            if not wait:
                raise BusyError(
                    f"another command ({holder}) is changing this checkout; wait for it to finish"
                ) from None
            print(f"waiting for another command ({holder}) to finish before {what} ...", file=sys.stderr, flush=True)
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise BusyError(
                            f"another command ({holder}) still holds {path} after {timeout:g} s; "
                            "try again when it has finished"
                        ) from None
                    time.sleep(poll)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{what} pid {os.getpid()}\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def open_lock(path: Path) -> int:
    """The lock file ``path`` opened for writing, only if it is the checkout's own: never through a symlink
    (``O_NOFOLLOW``), and only a regular file with no other name (a hard link): the lock is truncated and
    written, and must never reach a file outside the checkout."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise LockFileError(f"{path} is a symlink; remove it (the pipeline makes its own lock file)") from None
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
        os.close(fd)
        raise LockFileError(
            f"{path} is not the pipeline's lock file ({'a hard link' if stat.S_ISREG(st.st_mode) else 'not a file'}); "
            "remove it (the pipeline makes its own)"
        )
    return fd


def _holder(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "unknown"
    except OSError:
        return "unknown"
