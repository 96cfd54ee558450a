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
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import pandas as pd

from . import __version__
from .corpus import load_witnesses, witness_text
from .files import write_atomic
from .model import Cleaned, Law, Link, Segmented, Witness, WitnessResult, WitnessText, offset_maps

PACKAGE_DIR = Path(__file__).resolve().parent
MANAGED_DIRS = ("text", "tei", "site")  # output folders whose stale files a build removes


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
    """

    corpus_dir: Path
    out_dir: Path
    cache_dir: Path | None = None
    scheduler: str | None = None
    progress: bool = False
    site: bool = True


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

    def summary(self) -> str:
        return (
            f"built {self.witnesses} witnesses ({len(self.processed)} reprocessed, {len(self.cached)} from cache), "
            f"{self.laws} laws, {self.links} alignment links; {len(self.written)} output files changed, "
            f"{len(self.removed)} removed; {self.seconds:.1f} s"
        )


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
    """Everything built for one witness by the per-witness stage (cached as one unit)."""

    result: WitnessResult
    tei: bytes  # outputs/tei/<witness>.xml
    text: bytes  # outputs/text/<witness>.txt
    suggestions: tuple = ()  # rulings the spaCy patterns suggest for its laws (rules.Suggestion)


def process_witness(wt: WitnessText, corpus_dir: Path, build_info) -> WitnessBuild:
    """Clean, segment and export one witness (pure apart from reading the data files under corpus/)."""
    from .clean import clean, load_resources
    from .rules import load_patterns, suggest_rulings
    from .segment import segment
    from .tei import witness_tei

    t0 = time.perf_counter()
    cleaned = clean(wt, load_resources(corpus_dir, wt.witness.lang))
    t1 = time.perf_counter()
    segmented = segment(cleaned, wt.witness)
    t2 = time.perf_counter()
    result = WitnessResult(wt.witness, cleaned, segmented)
    tei = witness_tei(wt.witness, cleaned, segmented, build_info)
    t3 = time.perf_counter()
    suggestions = suggest_rulings(segmented.laws, load_patterns(corpus_dir))
    t4 = time.perf_counter()
    result.stats.update({"clean": t1 - t0, "segment": t2 - t1, "tei": t3 - t2, "suggest": t4 - t3})
    return WitnessBuild(result, tei, reading_text(result).encode("utf-8"), suggestions)


def _cached(cache_dir: str | None, name: str, compute_it: Callable[[], object]) -> tuple[object, bool]:
    """Load ``name`` from the cache, or compute and store it; returns (value, computed?)."""
    if cache_dir:
        path = Path(cache_dir) / name
        if path.is_file():
            try:
                with path.open("rb") as fh:
                    return pickle.load(fh), False
            except Exception:  # a corrupt cache entry is recomputed
                pass
    value = compute_it()
    if cache_dir:
        write_atomic(Path(cache_dir) / name, pickle.dumps(value, protocol=5))
    return value, True


def _run_witness(args: tuple) -> tuple[WitnessBuild, bool]:
    wt, corpus_dir, cache_dir, key, build_info = args
    return _cached(cache_dir, f"{wt.witness.id}.{key}.pkl", lambda: process_witness(wt, Path(corpus_dir), build_info))


def _run_pivot(args: tuple) -> tuple[tuple[Link, ...], bool]:
    laws, pivot, corpus_dir, cache_dir, key, witnesses = args
    from .align import load_resources
    from .pivot import align_to_pivot

    def run() -> tuple[Link, ...]:
        return align_to_pivot(laws, pivot, _align_resources(corpus_dir), witnesses=witnesses)

    return _cached(cache_dir, f"{laws[0].witness_id}.align.{key}.pkl", run)


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

    def __init__(self, scheduler: str | None):
        self.scheduler = scheduler or os.environ.get("PIPELINE_SCHEDULER") or "sync"
        self._client = None
        self._cluster = None
        if not (self.scheduler in ("sync", "threads", "processes") or self.scheduler.startswith("tcp://")
                or (self.scheduler.startswith("local:") and self.scheduler[6:].isdigit() and int(self.scheduler[6:]) > 0)):
            from .errors import PipelineError

            raise PipelineError(
                f"unknown scheduler {self.scheduler!r}; use sync, threads, processes, local:N or tcp://host:port"
            )

    def __enter__(self) -> "Mapper":
        if self.scheduler.startswith("local:") or self.scheduler.startswith("tcp://"):
            from distributed import Client, LocalCluster

            if self.scheduler.startswith("local:"):
                n = int(self.scheduler.split(":", 1)[1])
                self._cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=40)
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
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

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


LAW_COLUMNS = (
    "law_id witness game lang kind number printed label parent order text start end raw_start raw_end "
    "pages confidence complete heading text_hash evidence"
).split()
CORRECTION_COLUMNS = "witness start end before after kind method confidence candidates evidence".split()
FLAG_COLUMNS = "witness start end text candidates confidence reason".split()
PAGE_COLUMNS = "witness page head printed raw_start raw_end clean_offset".split()
ALIGNMENT_COLUMNS = "game law_a law_b witness_a witness_b score kind evidence".split()
WITNESS_COLUMNS = "id file game lang kind title author year source page note laws corrections flags".split()


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
    df = pd.DataFrame(rows, columns=LAW_COLUMNS)
    df["number"] = df["number"].astype("Int64")
    return df


def _cell(value):
    if isinstance(value, tuple):
        return "|".join(value)
    if isinstance(value, float):
        return round(value, 3)
    return value


def _records_frame(results: Sequence[WitnessResult], attr: str, columns: list[str]) -> pd.DataFrame:
    """One row per record of ``Cleaned.<attr>`` (corrections, flags, page breaks) of every witness."""
    rows = [
        {"witness": r.witness.id, **{c: _cell(getattr(x, c)) for c in columns[1:]}}
        for r in results
        for x in getattr(r.cleaned, attr)
    ]
    return pd.DataFrame(rows, columns=columns)


def corrections_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "corrections", CORRECTION_COLUMNS)


def flags_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "flags", FLAG_COLUMNS)


def pages_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    return _records_frame(results, "page_breaks", PAGE_COLUMNS)


def alignments_frame(links: Sequence[Link], witness_of: dict[str, str]) -> pd.DataFrame:
    rows = [
        {
            "game": k.game,
            "law_a": k.a,
            "law_b": k.b,
            "witness_a": witness_of[k.a],
            "witness_b": witness_of[k.b],
            "score": round(k.score, 3),
            "kind": k.kind,
            "evidence": k.evidence,
        }
        for k in links
    ]
    return pd.DataFrame(rows, columns=ALIGNMENT_COLUMNS)


def witnesses_frame(results: Sequence[WitnessResult]) -> pd.DataFrame:
    rows = []
    for r in results:
        w = r.witness
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
                "laws": len(r.segmented.laws),
                "corrections": len(r.cleaned.corrections),
                "flags": len(r.cleaned.flags),
            }
        )
    df = pd.DataFrame(rows, columns=WITNESS_COLUMNS)
    df["year"] = df["year"].astype("Int64")
    return df


def reading_text(result: WitnessResult) -> str:
    """The reading text of a witness: headings on their own line, one law (clause, rule) per paragraph."""
    text = result.cleaned.text
    laws = {law.id: law for law in result.segmented.laws}
    paras: list[str] = []
    for seg in result.segmented.segments:
        if seg.law_id and seg.law_id in laws:
            law = laws[seg.law_id]
            if law.kind == "law" and law.printed and law.number is not None:
                paras.append(f"{law.number}. {law.text}".strip())
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


def compute(opts: BuildOptions) -> tuple[dict[str, bytes], BuildReport]:
    """Compute every output in memory: {relative path: bytes}. Reads only; writes only the cache."""
    from .tei import BuildInfo

    t0 = time.perf_counter()
    mapper = Mapper(opts.scheduler)  # checks the scheduler's name before any work
    corpus_dir = Path(opts.corpus_dir)
    witnesses = load_witnesses(corpus_dir)
    texts = [witness_text(corpus_dir, w) for w in witnesses]  # all inputs checked before any work
    code, res = code_version(), resources_version(corpus_dir)
    build_info = BuildInfo.for_inputs(version=__version__, digest=hashlib.sha256((code + res).encode()).hexdigest()[:12])
    cache = str(opts.cache_dir) if opts.cache_dir else None
    jobs = [(wt, str(corpus_dir), cache, witness_key(wt, code, res), build_info) for wt in texts]
    corpus_key = hashlib.sha256(f"{opts.site}\0".encode() + "\0".join(j[3] for j in jobs).encode()).hexdigest()[:24]
    if cache:
        path = Path(cache) / f"corpus.{corpus_key}.pkl"
        if path.is_file():
            try:
                with path.open("rb") as fh:
                    outputs, report = pickle.load(fh)
                _log(opts, "nothing changed since the last build: outputs come from the cache")
                return outputs, BuildReport(**{**report.__dict__, "processed": (), "cached": report.processed + report.cached,
                                              "seconds": time.perf_counter() - t0, "cache_files": frozenset()})
            except Exception:  # a corrupt cache entry: rebuild
                pass
    with mapper:
        _log(opts, f"[1/5] clean + segment + TEI: {len(jobs)} witnesses")
        pairs = mapper.map(_run_witness, jobs)
        builds = [b for b, _ in pairs]
        results = [b.result for b in builds]
        processed = tuple(b.result.witness.id for b, ran in pairs if ran)
        cached = tuple(b.result.witness.id for b, ran in pairs if not ran)
        if len(pairs) <= 50:
            for b, ran in pairs:
                _log(opts, f"      {b.result.witness.id}: {'processed' if ran else 'cached'}, "
                     f"{len(b.result.segmented.laws)} laws")
        t1 = time.perf_counter()

        _log(opts, "[2/5] align laws per game")
        used = {f"{j[0].witness.id}.{j[3]}.pkl" for j in jobs} | {f"corpus.{corpus_key}.pkl"}
        links = align_corpus(results, corpus_dir, mapper, cache, code + res, used)
        t2 = time.perf_counter()

    _log(opts, "[3/5] export tables")
    outputs: dict[str, bytes] = {}
    laws_df = laws_frame(results)
    outputs["witnesses.csv"] = _csv(witnesses_frame(results))
    outputs["laws.csv"] = _csv(laws_df)
    outputs["laws.parquet"] = _parquet(laws_df)
    outputs["laws.json"] = _json_records(laws_df)
    outputs["corrections.csv"] = _csv(corrections_frame(results))
    outputs["flags.csv"] = _csv(flags_frame(results))
    outputs["pages.csv"] = _csv(pages_frame(results))
    witness_of = {law.id: law.witness_id for r in results for law in r.segmented.laws}
    outputs["alignments.csv"] = _csv(alignments_frame(links, witness_of))
    for b in builds:
        outputs[f"text/{b.result.witness.id}.txt"] = b.text
        outputs[f"tei/{b.result.witness.id}.xml"] = b.tei
    from .tei import alignments_tei

    outputs["tei/alignments.xml"] = alignments_tei(links, [law for r in results for law in r.segmented.laws], build_info)
    t3 = time.perf_counter()

    _log(opts, "[4/5] rule table")
    outputs.update(export_rules(results, [x for b in builds for x in b.suggestions], links, corpus_dir))
    t4 = time.perf_counter()
    if opts.site:
        _log(opts, "[5/5] reading edition (site)")
        from .site import render_site

        rules = json.loads(outputs["rules.json"])
        outputs.update({f"site/{k}": v for k, v in render_site(results, links, rules).items()})
    t5 = time.perf_counter()
    ran = set(processed)
    stage = {k: sum(r.stats.get(k, 0.0) for r in results if r.witness.id in ran)
             for k in ("clean", "segment", "tei", "suggest")}
    report = BuildReport(
        witnesses=len(results),
        processed=processed,
        cached=cached,
        written=(),
        removed=(),
        laws=len(laws_df),
        links=len(links),
        seconds=t5 - t0,
        cache_files=frozenset(used),
        timings={"per-witness (wall)": t1 - t0, **{f"{k} (cpu, processed only)": v for k, v in stage.items()},
                 "align": t2 - t1, "tables": t3 - t2, "rules": t4 - t3, "site": t5 - t4},
    )
    if cache:
        write_atomic(Path(cache) / f"corpus.{corpus_key}.pkl", pickle.dumps((outputs, report), protocol=5))
    return outputs, report


def align_corpus(results: Sequence[WitnessResult], corpus_dir: Path, mapper: Mapper | None = None,
                 cache: str | None = None, version: str = "", used: set[str] | None = None) -> tuple[Link, ...]:
    """Align the laws of each game: all pairs for a small game, through a pivot for a large one."""
    from .align import align
    from .pivot import PivotConfig, align_pivot, make_pivot

    config = PivotConfig()
    mapper = mapper or Mapper("sync")
    resources = _align_resources(str(corpus_dir))
    witnesses = {r.witness.id: r.witness for r in results}
    links: list[Link] = []
    for game in sorted({r.witness.game for r in results}):
        members = [r for r in results if r.witness.game == game]
        if len(members) <= config.pairwise_max_witnesses:
            laws = [law for r in members for law in r.segmented.laws]
            links.extend(align(laws, resources, witnesses=witnesses))
            continue
        by_witness = {r.witness.id: r.segmented.laws for r in members}
        pivot = make_pivot(game, by_witness, [r.witness.id for r in members], config)
        links.extend(align_pivot(pivot, resources, witnesses=witnesses))
        jobs = []
        for r in members:
            if r.witness.id in pivot.witness_ids or not r.segmented.laws:
                continue
            h = hashlib.sha256((pivot.key + version).encode())
            for law in r.segmented.laws:
                h.update(f"{law.id}\0{law.text_hash}\0{law.number}\0{law.order}\0".encode())
            jobs.append((r.segmented.laws, pivot, str(corpus_dir), cache, h.hexdigest()[:24],
                         {w: witnesses[w] for w in (*pivot.witness_ids, r.witness.id)}))
            if used is not None:
                used.add(f"{r.witness.id}.align.{h.hexdigest()[:24]}.pkl")
        for found, _ in mapper.map(_run_pivot, jobs):
            links.extend(found)
    return tuple(sorted(links, key=lambda k: (k.game, k.a, k.b)))


def export_rules(results: Sequence[WitnessResult], suggestions: Sequence, links: Sequence[Link],
                 corpus_dir: Path) -> dict[str, bytes]:
    """The rule table from the curated annotations, the per-witness suggestions and the links."""
    from .rules import build_rule_table, load_rule_resources, rules_outputs

    laws = [law for r in results for law in r.segmented.laws]
    resources = load_rule_resources(corpus_dir)
    suggestions = tuple(sorted(suggestions, key=lambda s: (s.law_id, s.start, s.term)))
    return rules_outputs(build_rule_table(laws, resources.annotations, suggestions, links, resources=resources))


def write_outputs(out_dir: Path, outputs: dict[str, bytes]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Write each output atomically; remove stale files from the managed folders."""
    out_dir = Path(out_dir)
    written = tuple(rel for rel, data in sorted(outputs.items()) if write_atomic(out_dir / rel, data))
    removed = []
    for sub in MANAGED_DIRS:
        for p in sorted((out_dir / sub).rglob("*")) if (out_dir / sub).is_dir() else []:
            rel = p.relative_to(out_dir).as_posix()
            if p.is_file() and rel not in outputs:
                p.unlink()
                removed.append(rel)
    return written, tuple(removed)


def prune_cache(cache_dir: Path, keep: frozenset[str]) -> None:
    """Forget cache entries that the last build did not use (older versions of changed witnesses)."""
    if not keep:
        return
    for p in cache_dir.glob("*.pkl"):
        if p.name not in keep:
            p.unlink(missing_ok=True)


def build(opts: BuildOptions) -> BuildReport:
    """Build everything; outputs/ is only touched once every output has been computed."""
    outputs, report = compute(opts)
    written, removed = write_outputs(opts.out_dir, outputs)
    report = BuildReport(**{**report.__dict__, "written": written, "removed": removed})
    if opts.cache_dir:
        prune_cache(Path(opts.cache_dir), keep=report.cache_files)
        write_atomic(
            Path(opts.cache_dir) / "last_build.json",
            json.dumps({"processed": report.processed, "cached": report.cached, "timings": report.timings}, indent=1),
        )
    return report


def status(opts: BuildOptions) -> list[str]:
    """One line per witness: id, game, language, kind, and whether its cached stages are stale."""
    corpus_dir = Path(opts.corpus_dir)
    witnesses = load_witnesses(corpus_dir)
    code, res = code_version(), resources_version(corpus_dir)
    lines = [f"{'witness':<12} {'game':<7} {'lang':<4} {'kind':<13} state"]
    for w in witnesses:
        wt = witness_text(corpus_dir, w)
        key = witness_key(wt, code, res)
        fresh = bool(opts.cache_dir) and _cache_path(Path(opts.cache_dir), w.id, key).is_file()
        lines.append(f"{w.id:<12} {w.game:<7} {w.lang:<4} {w.kind:<13} {'up to date' if fresh else 'stale'}")
    return lines
