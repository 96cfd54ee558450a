"""Progress bars for long work (tqdm), shown on a terminal only.

A bar is drawn on stderr when stderr is a terminal, the work is large enough to need one (``min_total``)
and progress is not switched off: ``--quiet`` (or ``PIPELINE_PROGRESS=0``) switches it off, and so does a
stderr that is a file or a pipe (a log, ``make`` in CI). On a Dask worker stderr is not a terminal: the
build shows its own bar over the witnesses instead.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterable, Iterator, TypeVar

ENV = "PIPELINE_PROGRESS"  # "0": no bars; set by --quiet
MIN_CHARS = 200_000  # a witness shorter than this is done before a bar would be worth drawing

T = TypeVar("T")


def enabled() -> bool:
    """Whether bars may be drawn in this process (a terminal, and not switched off)."""
    if os.environ.get(ENV, "") == "0":
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def quiet(on: bool = True) -> Iterator[None]:
    """No bars in this process and the processes it starts while the block runs (``--quiet``)."""
    before = os.environ.get(ENV)
    if on:
        os.environ[ENV] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


def bar(total: int, desc: str, unit: str = "char", min_total: int = MIN_CHARS, disable_if_empty: bool = False):
    """A tqdm bar of ``total`` units (disabled off a terminal, below ``min_total``, or with
    ``disable_if_empty``); use as a context manager and call ``update(n)``."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        unit_scale=True,
        leave=False,
        file=sys.stderr,
        disable=disable_if_empty or not enabled() or total < min_total,
        dynamic_ncols=True,
    )


def track(items: Iterable[T], total: int, desc: str, unit: str = "item", min_total: int = 2) -> Iterator[T]:
    """``items`` passed through with a bar over their count."""
    with bar(total, desc, unit, min_total) as b:
        for x in items:
            yield x
            b.update(1)
