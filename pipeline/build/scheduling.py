"""Scheduling the build's jobs: in this process or on Dask (``Mapper``), jobs made only when submitted
(``Deferred``), and cached jobs read here while the others run (``through_cache``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence, TypeVar

from .cache import MISSING, load_entry

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

T = TypeVar("T")


@dataclass(frozen=True)
class Deferred:
    """A job made only when it is submitted (``fn(*args)``): a library's inputs (raw texts, laws)
    are then never all in the build's memory at once."""

    fn: Callable
    args: tuple

    def __call__(self):
        return self.fn(*self.args)


def made(job):
    return job() if isinstance(job, Deferred) else job


def through_cache(
    mapper: "Mapper",
    func: Callable[..., tuple[T, bool]],
    jobs: Sequence,
    names: Sequence[str],
    cache: str | None,
    **shared,
) -> Iterator[tuple[T, bool]]:
    """``func`` over ``jobs`` in order, as (value, computed?): the jobs whose cache entry exists are read
    here, in turn (shipping them through a worker would cost more than reading them); the others are
    all submitted to the mapper at once."""
    hit = [(Path(cache) / n).is_file() if cache else False for n in names]
    todo = mapper.imap(func, [j for j, h in zip(jobs, hit) if not h], **shared)
    for job, name, h in zip(jobs, names, hit):
        if not h:
            yield next(todo)
            continue
        value = load_entry(cache, name)
        yield (value, False) if value is not MISSING else func(made(job), **shared)  # a corrupt entry: recompute here


class Mapper:
    """Maps per-witness functions in process or with Dask (see BuildOptions.scheduler).

    One instance per build, used as a context manager, so that a LocalCluster or a connection to a
    distributed scheduler is set up once and shared by every mapped stage.
    """

    connect_timeout = "10s"  # how long to wait for a distributed scheduler (tcp://host:port)
    restart_timeout = 900.0  # seconds to wait for the workers of a LocalCluster to come back after a restart

    def __init__(self, scheduler: str | None):
        self.scheduler = scheduler or os.environ.get("PIPELINE_SCHEDULER") or "sync"
        self._client: Client | None = None
        self._cluster: LocalCluster | None = None
        self._open: list = []  # the result generators of imap on a cluster
        self.scratch: Path | None = None  # a LocalCluster's scratch folder (None: Dask's default)
        if not (
            self.scheduler in ("sync", "threads", "processes")
            or self.scheduler.startswith("tcp://")
            or (self.scheduler.startswith("local:") and self.scheduler[6:].isdigit() and int(self.scheduler[6:]) > 0)
        ):
            from ..errors import PipelineError

            raise PipelineError(
                f"unknown scheduler {self.scheduler!r}; use sync, threads, processes, local:N or tcp://host:port"
            )

    def __enter__(self) -> "Mapper":
        if self.scheduler.startswith("local:") or self.scheduler.startswith("tcp://"):
            from distributed import Client, LocalCluster

            if self.scheduler.startswith("local:"):
                n = int(self.scheduler.split(":", 1)[1])
                # the scheduler's HTTP endpoint on a free port (":0"): the default 8787 may be taken by
                # another build; no dashboard is served (bokeh is not installed)
                # (the workers' scratch space in the build's cache folder, not in the system's temporary folder)
                scratch = {"local_directory": str(self.scratch)} if self.scratch else {}
                self._cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=40,
                    **scratch,
                )
                self._client = Client(self._cluster)
            else:
                try:
                    self._client = Client(self.scheduler, timeout=self.connect_timeout)
                except (OSError, TimeoutError) as exc:
                    from ..errors import PipelineError

                    raise PipelineError(
                        f"cannot reach the Dask scheduler at {self.scheduler} ({type(exc).__name__}); "
                        "start it, or use --scheduler local:N"
                    ) from None
        return self

    def __exit__(self, *exc) -> None:
        """Shut a cluster down in order: the workers this build started are retired first (so none is left
        heartbeating into a closed scheduler: the ``CommClosedError`` tracebacks), then the client closes,
        then the cluster; what distributed logs while it stops is not shown (the build's result is known)."""
        import contextlib
        import logging

        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        if client is None and cluster is None:
            return
        # a consumer that stopped early (or read exactly its items, never the end) leaves its generator
        # suspended: closed now, while the client is open; else the garbage collector closes it later on
        # a closed event loop ("Exception ignored ... RuntimeError: IOLoop is closed" at shutdown)
        for gen in self._open:
            with contextlib.suppress(Exception):
                gen.close()
        self._open.clear()
        loggers = [
            logging.getLogger(n)
            for n in (
                "distributed",
                "distributed.worker",
                "distributed.nanny",
                "distributed.core",
                "distributed.comm",
                "distributed.scheduler",
                "distributed.client",
                "distributed.batched",
                "tornado",
            )
        ]
        levels = [lg.level for lg in loggers]
        for lg in loggers:
            lg.setLevel(logging.CRITICAL)
        try:
            if client is not None and cluster is not None:
                with contextlib.suppress(Exception):
                    client.retire_workers(close_workers=True)
            if client is not None:
                with contextlib.suppress(Exception):
                    client.close()
            if cluster is not None:
                with contextlib.suppress(Exception):
                    cluster.close()
        finally:
            for lg, level in zip(loggers, levels):
                lg.setLevel(level)

    in_flight_per_worker = 4  # tasks submitted ahead of the one being consumed, per worker thread

    def imap(self, func: Callable, items: Sequence, **shared) -> Iterator:
        """``func(item, **shared)`` over ``items``, results yielded in order. On a cluster, tasks are
        submitted ahead of the consumer (``in_flight_per_worker`` per worker thread: the scheduler never
        holds the inputs of a whole library), ``shared`` values are sent to each worker once, and each
        result is released as soon as it is consumed. ``Deferred`` items are made only when submitted."""
        items = list(items)
        if self._client is not None and items:
            scattered = {k: self._client.scatter(v, broadcast=True, hash=False) for k, v in shared.items()}
            window = self.in_flight_per_worker * max(1, sum(self._client.nthreads().values()))
            gen = self._windowed(func, items, window, scattered)
            self._open.append(gen)  # closed before the client is (see __exit__)
            return gen
        if self.scheduler == "sync" or len(items) <= 1 or shared:
            return (func(made(x), **shared) for x in items)
        return iter(self.map(func, [made(x) for x in items]))

    def _windowed(self, func: Callable, items: list, window: int, shared: dict) -> Iterator:
        from collections import deque

        assert self._client is not None  # (imap windows only on a cluster)
        pending: deque = deque()
        nxt = 0
        try:
            while nxt < len(items) or pending:
                while nxt < len(items) and len(pending) < window:
                    pending.append(self._client.submit(func, made(items[nxt]), pure=False, **shared))
                    items[nxt] = None  # the scheduler has it now
                    nxt += 1
                fut = pending.popleft()
                yield fut.result()
                fut.release()
        finally:
            import contextlib

            for fut in pending:
                with contextlib.suppress(Exception):
                    fut.cancel()

    def fresh_workers(self) -> None:
        """Restart the workers of the cluster this build started (not a shared tcp:// one), so that
        the models one stage loaded (the cleaner's lexicons) do not stay in memory through the next."""
        if self._cluster is not None and self._client is not None:
            n = len(self._client.scheduler_info().get("workers", {})) or 1
            # (not waiting inside restart(): on a loaded machine a worker that held a book takes longer than
            # its 120 s to come back, and the build died of that TimeoutError; the build waits for them here)
            self._client.restart(wait_for_workers=False)
            try:
                self._client.wait_for_workers(n, timeout=self.restart_timeout)
            except TimeoutError:
                from ..errors import PipelineError

                raise PipelineError(
                    f"the Dask workers did not come back within {self.restart_timeout:g} s of a "
                    "restart; the machine may be out of memory (try fewer workers)"
                ) from None

    def map(self, func: Callable, items: Sequence) -> list:
        if not items:
            return []
        if self._client is not None:
            futures = self._client.map(func, list(items), pure=False)
            return list(self._client.gather(futures))
        if self.scheduler == "sync" or len(items) == 1:
            return [func(x) for x in items]
        import dask

        return list(dask.compute(*[dask.delayed(func, pure=False)(x) for x in items], scheduler=self.scheduler))
