"""One build at a time per checkout: an OS file lock around ``build``, ``add`` and ``remove``.

The lock is ``fcntl.flock`` on a file beside the corpus folder (``<checkout>/.pipeline.lock``, not
inside corpus/: every file there is part of the data's hash). The kernel releases it when the process
dies, however it dies, so a killed build never leaves a stale lock. A second command waits for the
first with one message on stderr (or, with ``wait=False`` / a timeout, refuses in one line).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path
from typing import Iterator

from .errors import PipelineError

LOCK_NAME = ".pipeline.lock"


class BusyError(PipelineError):
    """Another build, add or remove holds the checkout's lock."""


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
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
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


def _holder(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "unknown"
    except OSError:
        return "unknown"
