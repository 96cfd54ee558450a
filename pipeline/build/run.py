"""A build from start to end: its options and report, the five steps in order (per witness, per game, tables,
rule table, site) written into a staging folder, and the outputs published all or nothing."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import shutil
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import pandas as pd

from .. import __version__
from ..corpus import load_witnesses, witness_text
from ..errors import PipelineError
from ..export.tables import UNALIGNED, typed
from ..export.tei.config import EditionInfo
from ..files import file_sha256, write_atomic
from ..model import Law, Link, Witness, WitnessResult, WitnessText
from ..publish import Staging, cache_folder, managed_files, outputs_folder, read_manifest, recover, write_manifest
from .cache import PACKAGE_DIR, code_version, prune_cache, resources_version, witness_key
from .frames import ALIGNMENT_COLUMNS, UNALIGNED_COLUMNS, TableFiles, csv_bytes, witnesses_frame
from .game import align_parts, export_rules
from .scheduling import Deferred, Mapper, through_cache
from .witness import Failed, WitnessError, run_witness, witness_failure, witness_job

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


def _log(opts: BuildOptions, msg: str) -> None:
    if opts.progress:
        print(msg, file=sys.stderr, flush=True)


def _unchanged(out_dir: Path, manifest: dict[str, str]) -> bool:
    """True if ``out_dir`` holds exactly the outputs of ``manifest`` (nothing edited, lost or stale)."""
    for rel, digest in manifest.items():
        p = out_dir / rel
        if not p.is_file() or file_sha256(p) != digest:
            return False
    return all(rel in manifest for rel in managed_files(out_dir, MANAGED_DIRS))


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
    from ..export.tei.config import BuildInfo, load_edition

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
            witness_job,
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
    from ..rules import first_suggestions

    tables = TableFiles(staging)
    from ..export.collate import witness_readings
    from ..export.tei.collation import collation_files

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
        from ..progress import track

        for b, ran in track(
            through_cache(mapper, run_witness, jobs, names, cache), len(jobs), "witnesses", "witness", min_total=10
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
        from ..rules import load_rule_resources
        from ..export.tei.links import AlignmentsWriter

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
                csv_out.write(csv_bytes(pd.DataFrame(columns=ALIGNMENT_COLUMNS)))
                un_out.write(csv_bytes(typed(pd.DataFrame(columns=UNALIGNED_COLUMNS), UNALIGNED)))
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
    staging.write("witnesses.csv", csv_bytes(witnesses_frame(slims)))
    t3 = time.perf_counter()

    _log(opts, "[4/5] rule table")
    laws = [law for s in slims for law in s.laws]
    for rel, data in collation_files(laws, same_lang, readings, build_info).items():
        staging.write(rel, data)
    for rel, data in export_rules(
        laws, [x for s in slims for x in s.suggestions], kept, corpus_dir, rule_resources, [s.witness.id for s in slims]
    ).items():
        staging.write(rel, data)
    export_data(staging, with_figures=opts.site, edition=build_info.edition)
    t4 = time.perf_counter()
    if opts.site:
        _log(opts, "[5/5] reading edition (site)")
        from ..export.site.render import render_site, site_copies

        rules = json.loads((staging.dir / "rules.json").read_bytes())
        from ..export.site.search import load_glossary

        data_files = sorted(
            str(p.relative_to(staging.dir))
            for pat in ("figures/*.svg", "datapackage.json", "*.sqlite", "metadata.json")
            for p in staging.dir.glob(pat)
        )  # the figures, data package and database, when this build has them
        site_results = [s.result for s in slims if s.result is not None]
        for rel, data in render_site(
            site_results,
            kept,
            rules,
            glossary=load_glossary(corpus_dir / "glossary.csv"),
            edition=build_info.edition,
            data_files=data_files,
            teis={s.witness.id: (staging.dir / "tei" / f"{s.witness.id}.xml").read_bytes() for s in slims},
        ).items():
            staging.write(f"site/{rel}", data)
        for src, dest in site_copies(site_results, data_files):  # what the pages link to, inside site/
            if (staging.dir / src).is_file():
                shutil.copyfile(staging.dir / src, staging.path(f"site/{dest}"))
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


def export_data(staging: Staging, with_figures: bool, edition: EditionInfo | None = None) -> None:
    """From the tables in the staging folder: the SQLite database and its Datasette metadata, the figures
    (with the site) and, last, the data package that describes the tables (their sizes and hashes)."""
    from ..export.database import build_database, datasette_metadata
    from ..export.tables import datapackage, package_info

    info = package_info(edition or EditionInfo())

    try:
        build_database(staging.dir, staging.path("cardlaws.sqlite"))
    except sqlite3.Error as exc:  # (a full disk, a file size limit: ulimit -f)
        raise PipelineError(
            f"cannot write the SQLite database ({exc}); check the free space and the file size limit "
            "(ulimit -f); the old outputs are unchanged"
        ) from None
    if with_figures:
        from ..export.figures import render_figures

        for rel, data in render_figures(staging.dir).items():
            staging.write(rel, data)
    staging.write("metadata.json", datasette_metadata(staging.dir, info))
    staging.write("datapackage.json", datapackage(staging.dir, __version__, info=info))
