"""The build: corpus/ -> outputs/, deterministic and incremental.

Per-witness stages (clean, segment) are pure functions of (witness metadata, raw text, code,
configuration, data files); their result is cached under a hash of all of these, so a rebuild
after adding one scan reprocesses that scan only. Per-game stages (alignment) and the exports
are cheap and rerun from the cached per-witness results. Every output is produced in memory
first and then written file by file atomically; on any error nothing under outputs/ changes.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import sqlite3
import sys
import time
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, TypeVar

import pandas as pd

from . import __version__
from .corpus import load_witnesses, witness_text
from .errors import PipelineError
from .files import file_sha256, real_path, write_atomic
from .publish import (
    Staging,
    _managed_files,
    cache_folder,
    outputs_folder,
    read_manifest,
    recover,
    write_manifest,
)
from .model import Law, Link, Witness, WitnessResult, WitnessText, offset_maps
from .export.tables import ALIGNMENTS, CORRECTIONS, FLAGS, LAWS, PAGES, UNALIGNED, WITNESSES, Table, arrow_schema, typed

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

    from .export.tei.links import LinkFragments

T = TypeVar("T")

PACKAGE_DIR = Path(__file__).resolve().parent
MANAGED_DIRS = ("text", "tei", "site", "figures")  # output folders whose stale files a build removes


@dataclass(frozen=True)
class BuildOptions:
    """What to build and where.

    corpus_dir: the corpus (witnesses.toml, raw/, lexicon/, glossary.csv, annotations/)
    out_dir:    where outputs go (committed; rebuilt byte for byte)
    cache_dir:  per-witness stage cache (None: no cache, recompute everything)
    scheduler:  None/'sync' runs in this process; 'threads', 'processes', 'local:N' or a
                dask.distributed address 'tcp://host:port' maps the per-witness stages with Dask
                (env PIPELINE_SCHEDULER when None)
    progress:   print one line per step on stderr
    site:       also render the static reading edition into outputs/site/
    keep_going: a witness that cannot be read or built is left out of the edition (each one reported in
                ``BuildReport.failed``) instead of stopping the build (default: stop, one line naming it)
    """

    corpus_dir: Path
    out_dir: Path
    cache_dir: Path | None = None
    scheduler: str | None = None
    progress: bool = False
    site: bool = True
    keep_going: bool = False


@dataclass(frozen=True)
class BuildReport:
    witnesses: int
    processed: tuple[str, ...]  # witness ids whose per-witness stages ran (not from cache)
    cached: tuple[str, ...]
    written: tuple[str, ...]  # output files that changed
    removed: tuple[str, ...]
    laws: int
    links: int
    seconds: float
    timings: dict = field(default_factory=dict, compare=False)
    cache_files: frozenset = frozenset()  # the cache entries this build used
    failed: tuple[str, ...] = ()  # with keep_going: one line per witness left out (its id, file and error)

    def summary(self) -> str:
        left_out = f"; {len(self.failed)} witnesses LEFT OUT (see the errors above)" if self.failed else ""
        return (
            f"built {self.witnesses} witnesses ({len(self.processed)} reprocessed, {len(self.cached)} from cache), "
            f"{self.laws} laws, {self.links} alignment links; {len(self.written)} output files changed, "
            f"{len(self.removed)} removed; {self.seconds:.1f} s{left_out}"
        )


class WitnessError(PipelineError):
    """One witness cannot be built (its id and file named); the rest can, with ``--keep-going``."""


@dataclass(frozen=True)
class Failed:
    """A witness left out of a ``keep_going`` build: the one-line reason, naming its id and file."""

    witness_id: str
    message: str


def witness_failure(w: Witness, exc: BaseException) -> str:
    """The one line that says witness ``w`` cannot be built, and why."""
    why = str(exc) if isinstance(exc, PipelineError) else f"{type(exc).__name__}: {exc}"
    return f"witness {w.id} ({w.file}) cannot be built: {' '.join(why.split())}"


# --------------------------------------------------------------------------- hashing / cache


def _hash_files(paths: Iterable[Path], base: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        if p.is_file():
            h.update(str(p.relative_to(base)).encode())
            h.update(b"\0")
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def code_version() -> str:
    """Hash of the package's source: any code change invalidates the cache."""
    return _hash_files(PACKAGE_DIR.rglob("*.py"), PACKAGE_DIR)[:16]


def resources_version(corpus_dir: Path) -> str:
    """Hash of the data files (lexicons, glossary, annotations): everything under corpus/ but raw scans."""
    files = [p for p in corpus_dir.rglob("*") if p.is_file() and "raw" not in p.relative_to(corpus_dir).parts]
    files = [p for p in files if p.name != "witnesses.toml"]
    return _hash_files(files, corpus_dir)[:16]


def witness_key(wt: WitnessText, code: str, resources: str) -> str:
    h = hashlib.sha256()
    h.update(repr(wt.witness).encode())
    h.update(wt.raw.encode())
    h.update(code.encode())
    h.update(resources.encode())
    return h.hexdigest()[:24]


def _cache_path(cache_dir: Path, witness_id: str, key: str) -> Path:
    return cache_dir / f"{witness_id}.{key}.pkl"


# --------------------------------------------------------------------------- per-witness stage


@dataclass(frozen=True)
class WitnessBuild:
    """Everything built for one witness by the per-witness stage (cached as one unit).

    ``tables`` holds the witness's rows of each table, already formatted (CSV rows without the
    header, JSON records without the brackets) and ``laws_frame`` its rows of laws.parquet, so the
    build writes a library's tables by concatenation, never holding them whole."""

    result: WitnessResult
    tei: bytes  # outputs/tei/<witness>.xml
    text: bytes  # outputs/text/<witness>.txt
    suggestions: tuple = ()  # rulings the spaCy patterns suggest for its laws (rules.Suggestion)
    tables: dict = field(default_factory=dict)  # table file name -> this witness's rows (bytes)
    laws_frame: pd.DataFrame | None = None


def witness_tables(result: WitnessResult) -> tuple[dict[str, bytes], pd.DataFrame]:
    """One witness's rows of every per-witness table, formatted as in the whole table."""
    laws = laws_frame([result])
    tables = {
        "laws.csv": _csv_rows(laws),
        "laws.json": _json_items(laws),
        "corrections.csv": _csv_rows(corrections_frame([result])),
        "flags.csv": _csv_rows(flags_frame([result])),
        "pages.csv": _csv_rows(pages_frame([result])),
    }
    return tables, laws


def process_witness(wt: WitnessText, corpus_dir: Path, build_info) -> WitnessBuild:
    """Clean, segment and export one witness (pure apart from reading the data files under corpus/)."""
    from .clean import clean, load_resources
    from .provisions import event_suggestions
    from .rules import load_patterns, suggest_rulings
    from .segment import segment
    from .export.tei.witness import witness_tei

    from .clean.memo import fewer_collections, freeze_loaded
    from .progress import MIN_CHARS, bar

    # (a book shows which stage it is in, on a terminal; the stages show their own bars inside; the cyclic
    # collector runs less often meanwhile: a book's TEI tokens made it walk the heap again and again, a
    # fifth of the TEI stage of a 2 MB witness)
    with (
        fewer_collections(),
        bar(5, f"{wt.witness.id}: clean", unit="stage", min_total=0, disable_if_empty=len(wt.raw) < MIN_CHARS) as shown,
    ):
        t0 = time.perf_counter()
        res = load_resources(corpus_dir, wt.witness.lang)
        freeze_loaded(("clean", wt.witness.lang))  # (speed only: once per language and process)
        cleaned = clean(wt, res)
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: segment")
        t1 = time.perf_counter()
        segmented = segment(cleaned, wt.witness)
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: TEI")
        t2 = time.perf_counter()
        result = WitnessResult(wt.witness, cleaned, segmented)
        tei = witness_tei(wt.witness, cleaned, segmented, build_info)
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: rule terms")
        t3 = time.perf_counter()
        suggestions = suggest_rulings(segmented.laws, load_patterns(corpus_dir))
        suggestions += event_suggestions(segmented.laws, corpus_dir)  # the events the aligner reads, for the rule table
        shown.update(1)
        shown.set_description(f"{wt.witness.id}: tables")
        t4 = time.perf_counter()
        tables, laws = witness_tables(result)
        t5 = time.perf_counter()
    result.stats.update({"clean": t1 - t0, "segment": t2 - t1, "tei": t3 - t2, "suggest": t4 - t3, "tables": t5 - t4})
    return WitnessBuild(result, tei, reading_text(result).encode("utf-8"), suggestions, tables, laws)


_MISSING = object()


def _load_entry(cache_dir: str | None, name: str) -> Any:
    """The cached value ``name``, or ``_MISSING`` (no cache, no entry, or a corrupt one: recomputed)."""
    path = Path(cache_dir) / name if cache_dir else None
    if path is None or not path.is_file():
        return _MISSING
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except Exception:
        return _MISSING


def _cached(cache_dir: str | None, name: str, compute_it: Callable[[], T]) -> tuple[T, bool]:
    """Load ``name`` from the cache, or compute and store it; returns (value, computed?)."""
    value = _load_entry(cache_dir, name)
    if value is not _MISSING:
        return value, False
    value = compute_it()
    if cache_dir:
        write_atomic(Path(cache_dir) / name, pickle.dumps(value, protocol=5))
    return value, True


@dataclass(frozen=True)
class Deferred:
    """A job made only when it is submitted (``fn(*args)``): a library's inputs (raw texts, laws)
    are then never all in the build's memory at once."""

    fn: Callable
    args: tuple

    def __call__(self):
        return self.fn(*self.args)


def _made(job):
    return job() if isinstance(job, Deferred) else job


def _witness_job(w: Witness, corpus_dir: str, cache: str | None, key: str, build_info, code: str, res: str) -> tuple:
    """The stage-1 job of ``w``: its raw text is read again when the job is submitted, and must be
    the text the build's cache key was computed from."""
    wt = witness_text(Path(corpus_dir), w)
    if witness_key(wt, code, res) != key:
        raise PipelineError(f"{w.file} changed while the build was running; run the build again")
    return (wt, corpus_dir, cache, key, build_info)


def _run_witness(args: tuple) -> tuple[WitnessBuild | Failed, bool]:
    """A witness's stages (from the cache, or run and cached); a failure is returned as a :class:`Failed`
    naming the witness and its file (never cached), for the build to stop on or leave out: a worker of a
    cluster then logs no traceback of its own."""
    wt, corpus_dir, cache_dir, key, build_info = args
    try:
        return _cached(
            cache_dir, f"{wt.witness.id}.{key}.pkl", lambda: process_witness(wt, Path(corpus_dir), build_info)
        )
    except Exception as exc:  # (any failure of one witness's stages: the others may still build)
        return Failed(wt.witness.id, witness_failure(wt.witness, exc)), True


def _through_cache(
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
        value = _load_entry(cache, name)
        yield (value, False) if value is not _MISSING else func(_made(job), **shared)  # a corrupt entry: recompute here


def _pivot_job(laws: Iterable[Law], *rest) -> tuple:
    return (tuple(laws), *rest)


@dataclass(frozen=True)
class AlignedPart:
    """One part of the corpus's links (sorted by game, law a, law b) with its rows of alignments.csv
    and its TEI fragments, formatted where the part was computed and cached with it: a rebuild that
    adds one witness to a library only copies the other parts' bytes."""

    links: tuple[Link, ...]
    csv: bytes
    tei: LinkFragments
    unaligned_csv: bytes = b""  # rows of unaligned.csv (laws with no counterpart in another witness)

    @classmethod
    def of(cls, links: Iterable[Link], laws: Iterable[Law], unaligned: Sequence = ()) -> "AlignedPart":
        from .export.tei.links import link_fragments

        links = _sorted(links)
        witness_of = {law.id: law.witness_id for law in laws}
        return cls(
            links,
            _csv_rows(alignments_frame(links, witness_of)),
            link_fragments(links, witness_of, unaligned=unaligned),
            _csv_rows(unaligned_frame(unaligned)) if unaligned else b"",
        )


def _run_pivot(args: tuple, pivot=None) -> tuple[AlignedPart, bool]:
    laws, corpus_dir, cache_dir, key, witnesses = args
    from .pivot import align_to_pivot_full

    def run() -> AlignedPart:
        links, unaligned = align_to_pivot_full(laws, pivot, _align_resources(corpus_dir), witnesses=witnesses)
        return AlignedPart.of(links, (*laws, *pivot.laws), unaligned)

    return _cached(cache_dir, f"{laws[0].witness_id}.align.{key}.pkl", run)


def _run_pivot_links(args: tuple) -> tuple[AlignedPart, bool]:
    pivot, corpus_dir, cache_dir, name, witnesses = args
    from .pivot import align_pivot_full

    def run() -> AlignedPart:
        links, unaligned = align_pivot_full(pivot, _align_resources(corpus_dir), witnesses=witnesses)
        return AlignedPart.of(links, pivot.laws, unaligned)

    return _cached(cache_dir, name, run)


_ALIGN_RESOURCES: dict[str, object] = {}


def _align_resources(corpus_dir: str):
    from .align import load_resources

    if corpus_dir not in _ALIGN_RESOURCES:
        _ALIGN_RESOURCES[corpus_dir] = load_resources(Path(corpus_dir))
    return _ALIGN_RESOURCES[corpus_dir]


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
            from .errors import PipelineError

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
                    from .errors import PipelineError

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
            return (func(_made(x), **shared) for x in items)
        return iter(self.map(func, [_made(x) for x in items]))

    def _windowed(self, func: Callable, items: list, window: int, shared: dict) -> Iterator:
        from collections import deque

        assert self._client is not None  # (imap windows only on a cluster)
        pending: deque = deque()
        nxt = 0
        try:
            while nxt < len(items) or pending:
                while nxt < len(items) and len(pending) < window:
                    pending.append(self._client.submit(func, _made(items[nxt]), pure=False, **shared))
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
                from .errors import PipelineError

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


# --------------------------------------------------------------------------- tables


def _csv(df: pd.DataFrame) -> bytes:
    buf = io.StringIO()
    df.to_csv(buf, index=False, lineterminator="\n")
    return buf.getvalue().encode("utf-8")


def _parquet(df: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf, index=False, engine="pyarrow", compression="zstd")
    return buf.getvalue()


def _json_records(df: pd.DataFrame) -> bytes:
    records = json.loads(df.to_json(orient="records", force_ascii=False))
    return (json.dumps(records, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _csv_rows(df: pd.DataFrame) -> bytes:
    """``df``'s rows as in ``_csv(df)`` but without the header (for concatenation)."""
    if df.empty:
        return b""
    buf = io.StringIO()
    df.to_csv(buf, index=False, header=False, lineterminator="\n")
    return buf.getvalue().encode("utf-8")


def _json_items(df: pd.DataFrame) -> bytes:
    """``df``'s records as in ``_json_records(df)`` but without the brackets (joined with ``,\\n``)."""
    if df.empty:
        return b""
    return _json_records(df)[2:-3]  # strip "[\n" and "\n]\n"


def _law_schema():
    return arrow_schema(LAWS)


# the columns and types of every table are declared once, in pipeline/export/tables.py
LAW_COLUMNS = LAWS.column_names
CORRECTION_COLUMNS = CORRECTIONS.column_names
FLAG_COLUMNS = FLAGS.column_names
PAGE_COLUMNS = PAGES.column_names
ALIGNMENT_COLUMNS = ALIGNMENTS.column_names
UNALIGNED_COLUMNS = UNALIGNED.column_names
WITNESS_COLUMNS = WITNESSES.column_names


def laws_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    rows = []
    for r in results:
        c2r, _ = offset_maps(r.cleaned.raw, r.cleaned.corrections)
        for law in r.segmented.laws:
            rows.append(
                {
                    "law_id": law.id,
                    "witness": law.witness_id,
                    "game": law.game,
                    "lang": law.lang,
                    "kind": law.kind,
                    "number": law.number,
                    "printed": law.printed,
                    "label": law.label,
                    "parent": law.parent or "",
                    "order": law.order,
                    "text": law.text,
                    "start": law.start,
                    "end": law.end,
                    "raw_start": c2r[law.start],
                    "raw_end": c2r[law.end] if law.end < len(c2r) - 1 else len(r.cleaned.raw),
                    "pages": ";".join(law.pages),
                    "confidence": round(law.confidence, 3),
                    "complete": law.complete,
                    "heading": law.heading,
                    "text_hash": law.text_hash,
                    "evidence": law.evidence,
                }
            )
    return typed(pd.DataFrame(rows, columns=LAW_COLUMNS), LAWS)


def _cell(value):
    if isinstance(value, tuple):
        return "|".join(value)
    if isinstance(value, float):
        return round(value, 3)
    return value


def _records_frame(results: Sequence[WitnessResult], attr: str, table: Table) -> pd.DataFrame:
    """One row per record of ``Cleaned.<attr>`` (corrections, flags, page breaks) of every witness."""
    columns = table.column_names
    rows = [
        {"witness": r.witness.id, **{c: _cell(getattr(x, c)) for c in columns[1:]}}
        for r in results
        for x in getattr(r.cleaned, attr)
    ]
    return typed(pd.DataFrame(rows, columns=columns), table)


def corrections_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "corrections", CORRECTIONS)


def flags_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "flags", FLAGS)


def pages_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "page_breaks", PAGES)


def alignments_frame(links: Sequence[Link], witness_of: dict[str, str]) -> pd.DataFrame:
    rows = [
        {
            "game": k.game,
            "law_a": k.a,
            "law_b": k.b,
            "witness_a": witness_of[k.a],
            "witness_b": witness_of[k.b],
            "score": round(k.score, 3),
            "band": k.band,
            "kind": k.kind,
            "evidence": k.evidence,
        }
        for k in links
    ]
    return typed(pd.DataFrame(rows, columns=ALIGNMENT_COLUMNS), ALIGNMENTS)


def unaligned_frame(unaligned: Sequence) -> pd.DataFrame:
    """outputs/unaligned.csv: one row per (law, other witness of its game) where the law has no counterpart."""
    rows = [
        {
            "game": u.game,
            "law": u.law,
            "witness": u.witness,
            "other_witness": u.other_witness,
            "best_candidate": u.best,
            "best_score": round(u.best_score, 3),
            "reason": u.reason,
            "reading": u.reading,
        }
        for u in unaligned
    ]
    return typed(pd.DataFrame(rows, columns=UNALIGNED_COLUMNS), UNALIGNED)


def witnesses_frame(members: Sequence) -> pd.DataFrame:
    """One row per witness; ``members`` have ``witness``, ``laws``, ``corrections`` and ``flags`` (counts)."""
    rows = []
    for m in members:
        w = m.witness
        rows.append(
            {
                "id": w.id,
                "file": w.file,
                "game": w.game,
                "lang": w.lang,
                "kind": w.kind,
                "title": w.title,
                "author": w.author,
                "year": w.year,
                "source": w.source,
                "page": w.page,
                "note": w.note,
                "laws": len(m.laws),
                "corrections": m.corrections,
                "flags": m.flags,
            }
        )
    return typed(pd.DataFrame(rows, columns=WITNESS_COLUMNS), WITNESSES)


def reading_text(result: WitnessResult) -> str:
    """The reading text of a witness: headings on their own line, one law (clause, rule) per paragraph."""
    text = result.cleaned.text
    laws = {law.id: law for law in result.segmented.laws}
    parents = {law.parent for law in result.segmented.laws if law.parent}
    paras: list[str] = []
    for seg in result.segmented.segments:
        if seg.law_id and seg.law_id in laws:
            law = laws[seg.law_id]
            if law.kind == "law" and law.printed and law.number is not None:
                body = law.text
                if law.id in parents:
                    # (its clauses follow as paragraphs of their own: the law's paragraph is the text before
                    # the first of them, its segment, not the whole law's text with the clauses in it again)
                    lead = " ".join(text[seg.start : seg.end].split())
                    lead = lead[len(law.printed) :].strip() if lead.startswith(law.printed) else lead
                    if law.text.startswith(lead):  # (empty: the law opens with its first clause)
                        body = lead
                number = law.label if law.label[:1].isdigit() else law.number  # "12a" for a lettered law
                paras.append(f"{number}. {body}".strip())
            elif law.kind == "clause" and law.printed:
                paras.append(f"({law.label.split('(')[-1].rstrip(')')}) {law.text}".strip())
            elif law.text:
                paras.append(law.text)
        else:
            chunk = " ".join(text[seg.start : seg.end].split())
            if chunk:
                paras.append(chunk)
    return "\n\n".join(paras) + "\n"


# --------------------------------------------------------------------------- the build


def _log(opts: BuildOptions, msg: str) -> None:
    if opts.progress:
        print(msg, file=sys.stderr, flush=True)


def _unchanged(out_dir: Path, manifest: dict[str, str]) -> bool:
    """True if ``out_dir`` holds exactly the outputs of ``manifest`` (nothing edited, lost or stale)."""
    for rel, digest in manifest.items():
        p = out_dir / rel
        if not p.is_file() or file_sha256(p) != digest:
            return False
    return all(rel in manifest for rel in _managed_files(out_dir, MANAGED_DIRS))


@dataclass
class _Tables:
    """The table files being written into the staging folder, one witness at a time."""

    staging: Staging

    def __post_init__(self) -> None:
        import pyarrow.parquet as pq

        self.csv = {name: self.staging.open(name) for name in ("laws.csv", "corrections.csv", "flags.csv", "pages.csv")}
        for name, cols in (
            ("laws.csv", LAW_COLUMNS),
            ("corrections.csv", CORRECTION_COLUMNS),
            ("flags.csv", FLAG_COLUMNS),
            ("pages.csv", PAGE_COLUMNS),
        ):
            self.csv[name].write(_csv(pd.DataFrame(columns=cols)))
        self.json = self.staging.open("laws.json")
        self.json_first = True
        self.schema = _law_schema()
        self.parquet = pq.ParquetWriter(self.staging.path("laws.parquet"), self.schema, compression="zstd")

    def add(self, b: WitnessBuild) -> None:
        import pyarrow as pa

        for name, fh in self.csv.items():
            fh.write(b.tables.get(name, b""))
        item = b.tables.get("laws.json", b"")
        if item:
            self.json.write((b"[\n" if self.json_first else b",\n") + item)
            self.json_first = False
        if b.laws_frame is not None and len(b.laws_frame):
            self.parquet.write_table(pa.Table.from_pandas(b.laws_frame, schema=self.schema, preserve_index=False))

    def close(self) -> None:
        import pyarrow as pa

        for fh in self.csv.values():
            fh.close()
        self.json.write(b"[]\n" if self.json_first else b"\n]\n")
        self.json.close()
        if self.json_first:  # no laws at all: an empty table with the schema
            self.parquet.write_table(pa.Table.from_pylist([], schema=self.schema))
        self.parquet.close()


@dataclass(frozen=True)
class StoredLaws:
    """A witness's laws kept on disk (a pickle in the staging folder) while the build runs: read
    back each time they are iterated, so that a library's laws are not all held in memory."""

    path: Path
    count: int

    @classmethod
    def put(cls, folder: Path, witness_id: str, laws: Sequence[Law]) -> "StoredLaws":
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{witness_id}.pkl"
        path.write_bytes(pickle.dumps(tuple(laws), protocol=pickle.HIGHEST_PROTOCOL))
        return cls(path, len(laws))

    def __iter__(self) -> Iterator[Law]:
        return iter(pickle.loads(self.path.read_bytes()) if self.count else ())

    def __len__(self) -> int:
        return self.count


@dataclass(frozen=True)
class _Slim:
    """What the build keeps of a witness once its files are written: its laws (on disk) and its counts."""

    witness: Witness
    laws: StoredLaws
    suggestions: tuple
    corrections: int
    flags: int
    result: WitnessResult | None = None  # kept only when the site is rendered


def build(opts: BuildOptions) -> BuildReport:
    """Build everything; outputs/ only changes once every output has been computed."""
    from .export.tei.config import BuildInfo, load_edition

    t0 = time.perf_counter()
    mapper = Mapper(opts.scheduler)  # checks the scheduler's name before any work
    corpus_dir = Path(opts.corpus_dir)
    witnesses = load_witnesses(corpus_dir)
    texts, failed = _read_witnesses(corpus_dir, witnesses, opts.keep_going)  # all inputs checked before any work
    # (the folders are checked before any work: the build writes and deletes only in folders it made)
    # (checked only: the outputs folder is made by publishing, the cache once the scheduler is reached)
    cache_dir = cache_folder(opts.cache_dir, corpus_dir, create=False) if opts.cache_dir else None
    protected = (PACKAGE_DIR.parent,) + ((cache_dir,) if cache_dir else ())
    out_dir = outputs_folder(opts.out_dir, corpus_dir, protected, create=False)
    opts = dataclasses.replace(opts, out_dir=out_dir, cache_dir=cache_dir)
    mapper.scratch = cache_dir / "dask-scratch" if cache_dir else None
    code, res = code_version(), resources_version(corpus_dir)
    build_info = BuildInfo.for_inputs(
        version=__version__,
        digest=hashlib.sha256((code + res).encode()).hexdigest()[:12],
        edition=load_edition(corpus_dir),
    )
    cache = str(opts.cache_dir) if opts.cache_dir else None
    # (each raw text is read again when its job is submitted: the texts of a library are not all held)
    jobs = [
        Deferred(
            _witness_job,
            (wt.witness, str(corpus_dir), cache, witness_key(wt, code, res), build_info, code, res),
        )
        for wt in texts
    ]
    del texts
    recover(Path(opts.out_dir))  # what a dead build left beside outputs/ (see pipeline.publish)
    corpus_key = hashlib.sha256(f"{opts.site}\0".encode() + "\0".join(j.args[3] for j in jobs).encode()).hexdigest()[
        :24
    ]
    manifest_name = f"corpus.{corpus_key}.json"
    if cache and not failed and (Path(cache) / manifest_name).is_file():
        try:
            last = json.loads((Path(cache) / manifest_name).read_text("utf-8"))
            if _unchanged(Path(opts.out_dir), last["outputs"]):
                _log(opts, "nothing changed since the last build: outputs are up to date")
                if read_manifest(Path(opts.out_dir)) != last["outputs"]:  # (outputs built before it was kept)
                    write_manifest(Path(opts.out_dir), last["outputs"])
                return BuildReport(
                    witnesses=last["witnesses"],
                    processed=(),
                    cached=tuple(last["ids"]),
                    written=(),
                    removed=(),
                    laws=last["laws"],
                    links=last["links"],
                    seconds=time.perf_counter() - t0,
                    cache_files=frozenset(last["cache_files"]),
                )
        except (ValueError, KeyError, OSError):  # a corrupt manifest: rebuild
            pass
    staging = Staging(opts.out_dir)
    try:
        report, manifest = _build_into(staging, opts, mapper, jobs, corpus_dir, cache, code + res, build_info, t0)
    except BaseException:
        staging.abort()
        raise
    report = dataclasses.replace(report, failed=tuple(failed) + report.failed)
    if cache and report.failed:  # (not "up to date" next time: the witnesses left out are tried again)
        (Path(cache) / manifest_name).unlink(missing_ok=True)
    elif cache:
        keep = report.cache_files | {manifest_name}
        write_atomic(
            Path(cache) / manifest_name,
            json.dumps(
                {
                    "outputs": manifest,
                    "witnesses": report.witnesses,
                    "ids": [j.args[0].id for j in jobs],
                    "laws": report.laws,
                    "links": report.links,
                    "cache_files": sorted(keep),
                },
                indent=0,
            ),
        )
        prune_cache(Path(cache), keep=frozenset(keep))
        write_atomic(
            Path(cache) / "last_build.json",
            json.dumps({"processed": report.processed, "cached": report.cached, "timings": report.timings}, indent=1),
        )
    return report


def _build_into(
    staging: Staging,
    opts: BuildOptions,
    mapper: "Mapper",
    jobs: list,
    corpus_dir: Path,
    cache: str | None,
    version: str,
    build_info,
    t0: float,
) -> tuple[BuildReport, dict[str, str]]:
    from .rules import first_suggestions

    tables = _Tables(staging)
    from .export.collate import witness_readings
    from .export.tei.collation import collation_files

    slims: list[_Slim] = []
    failed: list[str] = []
    readings: dict[str, str] = {}  # law id -> its text as the witness gives it (pipeline/export/collate.py)
    processed: list[str] = []
    cached: list[str] = []
    laws: StoredLaws | list[Law]  # a witness's, then all of them (stage 4)
    stage: dict[str, float] = {}
    with mapper:
        if cache:
            cache_folder(Path(cache), corpus_dir)  # (made, with its marker, before its first entry)
        _log(opts, f"[1/5] clean + segment + TEI: {len(jobs)} witnesses")
        names = [f"{j.args[0].id}.{j.args[3]}.pkl" for j in jobs]
        from .progress import track

        for b, ran in track(
            _through_cache(mapper, _run_witness, jobs, names, cache), len(jobs), "witnesses", "witness", min_total=10
        ):
            if isinstance(b, Failed):  # (keep_going: left out, and said)
                if not opts.keep_going:
                    raise WitnessError(f"{b.message}; fix it, or build the rest with --keep-going")
                failed.append(b.message)
                _log(opts, f"      {b.witness_id}: LEFT OUT")
                continue
            r = b.result
            wid = r.witness.id
            (processed if ran else cached).append(wid)
            if ran:
                for k, v in r.stats.items():
                    stage[k] = stage.get(k, 0.0) + v
            staging.write(f"text/{wid}.txt", b.text)
            staging.write(f"tei/{wid}.xml", b.tei)
            tables.add(b)
            laws = StoredLaws.put(staging.dir / ".laws", wid, r.segmented.laws)  # (not an output: never committed)
            readings.update(witness_readings(r))  # each law as its witness gives it, for the collation
            slims.append(
                _Slim(
                    r.witness,
                    laws,
                    first_suggestions(b.suggestions),
                    len(r.cleaned.corrections),
                    len(r.cleaned.flags),
                    r if opts.site else None,
                )
            )
            if len(jobs) <= 50:
                _log(opts, f"      {wid}: {'processed' if ran else 'cached'}, {len(r.segmented.laws)} laws")
            del b, r
        tables.close()
        t1 = time.perf_counter()

        if processed:
            mapper.fresh_workers()  # the cleaner's lexicons (~0.5 GB a worker) are not needed to align
        _log(opts, "[2/5] align laws per game")
        from .rules import load_rule_resources
        from .export.tei.links import AlignmentsWriter

        rule_resources = load_rule_resources(corpus_dir)
        annotated = {a.law_id for a in rule_resources.annotations}
        used = set(names)
        writer = AlignmentsWriter()
        for s in slims:
            if s.laws:
                writer.witness(s.witness.id, s.witness.game, s.witness.lang)
        kept: list[Link] = []  # the links the rule table (and the site) need
        same_lang: list[Link] = []  # the links between laws of one language (word-level collation)
        lang_of = {law.id: law.lang for s in slims for law in s.laws}
        try:
            with staging.open("alignments.csv") as csv_out, staging.open("unaligned.csv") as un_out:
                csv_out.write(_csv(pd.DataFrame(columns=ALIGNMENT_COLUMNS)))
                un_out.write(_csv(typed(pd.DataFrame(columns=UNALIGNED_COLUMNS), UNALIGNED)))
                for part in align_parts([(s.witness, s.laws) for s in slims], corpus_dir, mapper, cache, version, used):
                    csv_out.write(part.csv)
                    un_out.write(part.unaligned_csv)
                    writer.add_fragments(part.tei)
                    kept.extend(k for k in part.links if opts.site or k.a in annotated or k.b in annotated)
                    same_lang.extend(k for k in part.links if lang_of.get(k.a) == lang_of.get(k.b))  # collated
            t2 = time.perf_counter()
            _log(opts, "[3/5] export tables")
            with staging.open("tei/alignments.xml") as fh:
                writer.write(fh, build_info)
            n_links = writer.links
        finally:
            writer.close()
    staging.write("witnesses.csv", _csv(witnesses_frame(slims)))
    t3 = time.perf_counter()

    _log(opts, "[4/5] rule table")
    laws = [law for s in slims for law in s.laws]
    for rel, data in collation_files(laws, same_lang, readings, build_info).items():
        staging.write(rel, data)
    for rel, data in export_rules(
        laws, [x for s in slims for x in s.suggestions], kept, corpus_dir, rule_resources, [s.witness.id for s in slims]
    ).items():
        staging.write(rel, data)
    export_data(staging, with_figures=opts.site)
    t4 = time.perf_counter()
    if opts.site:
        _log(opts, "[5/5] reading edition (site)")
        from .export.site.render import render_site

        rules = json.loads((staging.dir / "rules.json").read_bytes())
        from .export.site.search import load_glossary

        data_files = sorted(
            str(p.relative_to(staging.dir))
            for pat in ("figures/*.svg", "datapackage.json", "*.sqlite")
            for p in staging.dir.glob(pat)
        )  # the figures, data package and database, when this build has them
        for rel, data in render_site(
            [s.result for s in slims if s.result is not None],
            kept,
            rules,
            glossary=load_glossary(corpus_dir / "glossary.csv"),
            edition=build_info.edition,
            data_files=data_files,
            teis={s.witness.id: (staging.dir / "tei" / f"{s.witness.id}.xml").read_bytes() for s in slims},
        ).items():
            staging.write(f"site/{rel}", data)
    t5 = time.perf_counter()
    written, removed, manifest = staging.commit(MANAGED_DIRS)
    report = BuildReport(
        witnesses=len(slims),
        processed=tuple(processed),
        cached=tuple(cached),
        written=written,
        removed=removed,
        laws=len(laws),
        links=n_links,
        seconds=time.perf_counter() - t0,
        cache_files=frozenset(used),
        failed=tuple(failed),
        timings={
            "per-witness (wall)": t1 - t0,
            **{
                f"{k} (cpu, processed only)": stage.get(k, 0.0)
                for k in ("clean", "segment", "tei", "suggest", "tables")
            },
            "align": t2 - t1,
            "tables": t3 - t2,
            "rules": t4 - t3,
            "site": t5 - t4,
        },
    )
    return report, manifest


def _read_witnesses(
    corpus_dir: Path, witnesses: Sequence[Witness], keep_going: bool
) -> tuple[list[WitnessText], list[str]]:
    """Each witness's text read and cut out of its raw file; with ``keep_going`` a witness that cannot be
    read is left out (its one-line reason returned) instead of stopping the build."""
    texts, failed = [], []
    for w in witnesses:
        try:
            texts.append(witness_text(corpus_dir, w))
        except PipelineError as exc:
            if not keep_going:
                raise
            failed.append(witness_failure(w, exc))
    if not texts:
        raise PipelineError("no witness can be read; " + "; ".join(failed))
    return texts, failed


def export_data(staging: Staging, with_figures: bool) -> None:
    """From the tables in the staging folder: the SQLite database, the figures (with the site) and,
    last, the data package that describes the tables (their sizes and hashes)."""
    from .export.database import build_database
    from .export.tables import datapackage

    try:
        build_database(staging.dir, staging.path("cardlaws.sqlite"))
    except sqlite3.Error as exc:  # (a full disk, a file size limit: ulimit -f)
        raise PipelineError(
            f"cannot write the SQLite database ({exc}); check the free space and the file size limit "
            "(ulimit -f); the old outputs are unchanged"
        ) from None
    if with_figures:
        from .export.figures import render_figures

        for rel, data in render_figures(staging.dir).items():
            staging.write(rel, data)
    staging.write("datapackage.json", datapackage(staging.dir, __version__))


def align_parts(
    members: Sequence[tuple[Witness, Iterable[Law]]],
    corpus_dir: Path,
    mapper: "Mapper | None" = None,
    cache: str | None = None,
    version: str = "",
    used: set[str] | None = None,
) -> Iterator[AlignedPart]:
    """The alignment links of the corpus, part by part (``AlignedPart``: links sorted by game, law a, law b):
    one part per game aligned all pairs; for a game aligned through a pivot, the pivot's own links
    and then one part per other witness, each computed (and cached) on its own."""
    from .align import align_full
    from .pivot import PivotConfig, make_pivot

    config = PivotConfig()
    mapper = mapper or Mapper("sync")
    witnesses = {w.id: w for w, _ in members}
    laws: Iterable[Law]
    for game in sorted({w.game for w, _ in members}):
        group = [(w, laws) for w, laws in members if w.game == game]
        if len(group) <= config.pairwise_max_witnesses:
            laws = [law for _, ls in group for law in ls]
            links, unaligned = align_full(laws, _align_resources(str(corpus_dir)), witnesses=witnesses)
            yield AlignedPart.of(links, laws, unaligned)
            continue
        pivot = make_pivot(game, {w.id: laws for w, laws in group}, [w.id for w, _ in group], config)
        name = f"{game}.pivot.{hashlib.sha256((pivot.key + version).encode()).hexdigest()[:24]}.pkl"
        if used is not None:
            used.add(name)
        # on a worker, like the rest: the build process itself then never loads a language model
        ((part, _),) = _through_cache(
            mapper, _run_pivot_links, [(pivot, str(corpus_dir), cache, name, witnesses)], [name], cache
        )
        yield part
        jobs, names = [], []
        for w, laws in group:
            if w.id in pivot.witness_ids or not laws:
                continue
            h = hashlib.sha256((pivot.key + version).encode())
            for law in laws:
                h.update(f"{law.id}\0{law.text_hash}\0{law.number}\0{law.order}\0".encode())
            key = h.hexdigest()[:24]
            # (the laws are read again when the job is submitted: a game's laws are not all held at once)
            jobs.append(
                Deferred(
                    _pivot_job,
                    (laws, str(corpus_dir), cache, key, {x: witnesses[x] for x in (*pivot.witness_ids, w.id)}),
                )
            )
            names.append(f"{w.id}.align.{key}.pkl")
        if used is not None:
            used.update(names)
        for part, _ in _through_cache(mapper, _run_pivot, jobs, names, cache, pivot=pivot):
            yield part


def _sorted(links: Iterable[Link]) -> tuple[Link, ...]:
    return tuple(sorted(links, key=lambda k: (k.game, k.a, k.b)))


def align_corpus(
    results: Sequence[WitnessResult],
    corpus_dir: Path,
    mapper: "Mapper | None" = None,
    cache: str | None = None,
    version: str = "",
    used: set[str] | None = None,
) -> tuple[Link, ...]:
    """All the alignment links of the corpus (see ``align_parts``) in one tuple."""
    members = [(r.witness, r.segmented.laws) for r in results]
    return tuple(k for part in align_parts(members, corpus_dir, mapper, cache, version, used) for k in part.links)


def export_rules(
    laws: Sequence[Law],
    suggestions: Sequence,
    links: Sequence[Link],
    corpus_dir: Path,
    resources=None,
    witness_ids: Iterable[str] | None = None,
) -> dict[str, bytes]:
    """The rule table from the curated annotations, the rulings read from the laws no one reviewed (status
    extracted), the per-witness suggestions and the links. With ``witness_ids`` (the witnesses of the build), the
    annotations of any other witness (one removed from the corpus, or left out of the build) are not used: no row
    or citation of it reaches the rule table or the referee."""
    from .extract import extract_annotations
    from .rules import build_rule_table, load_rule_resources, rules_outputs

    resources = resources or load_rule_resources(corpus_dir)
    if witness_ids is not None:
        present = set(witness_ids)
        resources = dataclasses.replace(
            resources, annotations=tuple(a for a in resources.annotations if a.witness in present)
        )
    suggestions = tuple(sorted(suggestions, key=lambda s: (s.law_id, s.start, s.term)))
    annotations = resources.annotations + extract_annotations(laws, resources, corpus_dir)
    return rules_outputs(build_rule_table(laws, annotations, suggestions, links, resources=resources))


def prune_cache(cache_dir: Path, keep: frozenset[str]) -> None:
    """Forget cache entries that the last build did not use (older versions of changed witnesses)."""
    if not keep:
        return
    for p in list(cache_dir.glob("*.pkl")) + list(cache_dir.glob("corpus.*.json")):
        if p.name not in keep:
            p.unlink(missing_ok=True)


def status(opts: BuildOptions) -> list[str]:
    """One line per witness (id, game, language, kind, state), then what the outputs lack.

    A witness is "up to date" when its cached stages are current and its outputs are those of the last
    build (``publish.read_manifest``); otherwise "stale", "outputs missing" or "outputs edited". The
    last lines name the outputs missing from or edited in ``out_dir`` since the last build."""
    from .publish import check_outputs, read_manifest

    corpus_dir = Path(opts.corpus_dir)
    witnesses = load_witnesses(corpus_dir)
    code, res = code_version(), resources_version(corpus_dir)
    out_dir = real_path(opts.out_dir, "--out")  # (a symlinked outputs folder: its manifest is beside its target)
    manifest = read_manifest(out_dir)
    missing, edited = check_outputs(out_dir, manifest) if manifest is not None else ([], [])
    bad = set(missing) | set(edited)
    lines = [f"{'witness':<12} {'game':<7} {'lang':<4} {'kind':<13} state"]
    for w in witnesses:
        wt = witness_text(corpus_dir, w)
        key = witness_key(wt, code, res)
        fresh = _cache_path(Path(opts.cache_dir), w.id, key).is_file() if opts.cache_dir else False
        own = (f"text/{w.id}.txt", f"tei/{w.id}.xml")
        if not fresh:
            state = "stale"
        elif manifest is None or any(rel not in manifest for rel in own):
            state = "stale (not in the last build's outputs)"
        elif any(rel in missing for rel in own):
            state = "outputs missing"
        elif any(rel in bad for rel in own):
            state = "outputs edited"
        else:
            state = "up to date"
        lines.append(f"{w.id:<12} {w.game:<7} {w.lang:<4} {w.kind:<13} {state}")
    if manifest is None:
        lines.append(f"outputs: no record of a build into {opts.out_dir}; run `make`")
    else:
        gone = sorted(
            {rel.split("/")[1].rsplit(".", 1)[0] for rel in manifest if rel.startswith("text/")}
            - {w.id for w in witnesses}
        )
        if gone:
            lines.append(f"outputs: still hold removed witnesses {', '.join(gone)}; run `make`")
        if missing:
            lines.append(
                f"outputs: {len(missing)} missing since the last build: {', '.join(missing[:5])}"
                + (" ..." if len(missing) > 5 else "")
                + "; run `make`"
            )
        if edited:
            lines.append(
                f"outputs: {len(edited)} edited since the last build: {', '.join(edited[:5])}"
                + (" ..." if len(edited) > 5 else "")
                + "; run `make` to restore them"
            )
        if not (gone or missing or edited):
            lines.append(f"outputs: all {len(manifest)} files as the last build wrote them")
    return lines
