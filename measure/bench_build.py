"""Benchmark of the whole build at scale: ``make bench`` (``python -m measure.bench_build``).

Generates benchmark corpora from the real witnesses (see ``measure.benchcorpus``: laws shuffled,
renumbered, repeated to book length, re-noised with the OCR confusions measured on the gold) of
10, 100 and 1,000 witnesses, and measures for each: wall time and per-stage time of a full build,
peak memory (this process and its worker processes, sampled), the speed-up of a 2-worker
``LocalCluster`` over a 1-worker one, and the cost of adding one witness to the corpus (an
incremental rebuild that must reprocess only it). Then the book series: one witness of 0.5, 1, 2 and
4 MB built alone, a book of numbered laws and a book of prose of each size (time per doubling at most
2.2x, the worker's peak memory at most 2 GiB at every size).
Writes ``outputs/bench/build.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd
import psutil

from .benchcorpus import SourceLaws, measure_noise, synthetic_witness, write_bench_corpus
from pipeline.build import BuildOptions, build
from pipeline.corpus import load_witnesses, witness_text
from pipeline.errors import PipelineError
from pipeline.files import write_atomic

ROOT = Path(__file__).resolve().parent.parent


class PeakMemory:
    """Samples the resident memory of this process and all its children; ``peak`` in bytes (the sum),
    ``worker_peak`` the largest of one child process (a Dask worker)."""

    def __init__(self, interval: float = 0.1):
        self.interval, self.peak, self.worker_peak, self._stop = interval, 0, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            total = 0
            for p in [me, *me.children(recursive=True)]:
                try:
                    rss = p.memory_info().rss
                except psutil.Error:
                    continue
                total += rss
                if p.pid != me.pid:
                    self.worker_peak = max(self.worker_peak, rss)
            self.peak = max(self.peak, total)
            self._stop.wait(self.interval)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def bench_sources(corpus_dir: Path, shared_dir: Path):
    """Source laws per real witness, and the noise model measured on the gold of the seeds."""
    from pipeline.clean import clean, load_resources
    from pipeline.segment import segment

    sources = []
    for w in load_witnesses(corpus_dir):
        wt = witness_text(corpus_dir, w)
        seg = segment(clean(wt, load_resources(corpus_dir, w.lang)), w)
        texts = tuple(law.text for law in seg.laws if law.text and law.kind != "clause")
        if len(texts) >= 5:
            sources.append(SourceLaws(w.game, w.lang, texts))
    pairs = []
    gold_dir = shared_dir / "gold"
    for w in load_witnesses(corpus_dir):
        stem = Path(w.file).stem
        gold = gold_dir / f"{stem}.gold.txt"
        if w.kind == "ocr" and gold.is_file():
            pairs.append((gold.read_text(encoding="utf-8"), witness_text(corpus_dir, w).raw))
    return sources, measure_noise(pairs)


def prepare_corpus(
    dest: Path, n: int, sources, model, target_bytes: int, sections: bool = False, prose: bool = False
) -> Path:
    """A benchmark corpus of ``n`` witnesses, with the real corpus's data files (lexicons, glossary…)."""
    if dest.exists():
        shutil.rmtree(dest)
    for name in ("lexicon", "annotations"):
        if (ROOT / "corpus" / name).is_dir():
            shutil.copytree(ROOT / "corpus" / name, dest / name)
    for name in ("glossary.csv",):
        if (ROOT / "corpus" / name).is_file():
            shutil.copy(ROOT / "corpus" / name, dest / name)
    return write_bench_corpus(dest, sources, model, n, target_bytes=target_bytes, sections=sections, prose=prose)


def timed_build(corpus: Path, workers: int, cache: Path | None, out: Path | None = None) -> dict:
    """One build on a ``workers``-worker LocalCluster into ``out`` (a scratch folder, removed after,
    when None); ``workers=0``: in this process (it is then the worker whose peak is measured)."""
    keep = out is not None
    out = out or Path(tempfile.mkdtemp(prefix="bench-out-"))
    try:
        with PeakMemory() as mem:
            t0, c0 = time.perf_counter(), time.process_time()
            report = build(
                BuildOptions(
                    corpus_dir=corpus,
                    out_dir=out,
                    cache_dir=cache,
                    scheduler=f"local:{workers}" if workers else "sync",
                    site=False,
                )
            )
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if not workers:
            mem.worker_peak = mem.peak
        return {
            "workers": workers,
            "commit": commit(),
            "wall_s": round(wall, 2),
            # (this process's CPU seconds: the whole build when it runs here, workers=0; less sensitive to
            # other load on the machine than the wall time)
            "cpu_s": round(cpu, 2),
            "peak_mem_mib": round(mem.peak / 2**20),
            "worker_peak_mib": round(mem.worker_peak / 2**20),
            "stages_s": {k: round(v, 2) for k, v in report.timings.items()},
            "processed": len(report.processed),
            "laws": report.laws,
            "links": report.links,
        }
    finally:
        if not keep:
            shutil.rmtree(out, ignore_errors=True)


def commit() -> str:
    """The git commit of the code being measured ("" outside a git checkout)."""
    import subprocess

    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        return out.stdout.strip() if out.returncode == 0 else ""
    except OSError:
        return ""


def machine() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, "
        f"{round(psutil.virtual_memory().total / 2**30)} GiB, Python {platform.python_version()}"
    )


BOOK_KINDS = ("numbered", "prose")  # a book of numbered laws in sections, and a book of prose (no number at all)


def run(
    sizes: list[int],
    target_bytes: int,
    shared_dir: Path,
    work: Path,
    one_worker: bool = True,
    two_workers: bool = True,
    books: list[float] | None = None,
    book_kinds: tuple[str, ...] = BOOK_KINDS,
) -> dict:
    # in a child process: the language resources it loads must not count in the builds' memory
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        sources, model = pool.submit(bench_sources, ROOT / "corpus", shared_dir).result()
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": machine(),
        "witness_bytes": target_bytes,
        "noise_rate": round(model.rate, 4),
        "sizes": [],
    }
    for n in sizes:
        corpus = prepare_corpus(work / f"corpus-{n}", n, sources, model, target_bytes)
        mb = sum(p.stat().st_size for p in (corpus / "raw").iterdir()) / 1e6
        print(f"[bench] {n} witnesses, {mb:.1f} MB of OCR", flush=True)
        one = timed_build(corpus, 1, None) if one_worker else None
        if one:
            print(f"        1 worker : {one['wall_s']} s, peak {one['peak_mem_mib']} MiB", flush=True)
        row = {
            "witnesses": n,
            "ocr_mb": round(mb, 1),
            "date": result["date"],
            "machine": result["machine"],
            "commit": commit(),
            "witness_bytes": target_bytes,
            "one_worker": one,
        }
        result["sizes"].append(row)
        if not two_workers:
            continue
        cache = work / f"cache-{n}"
        shutil.rmtree(cache, ignore_errors=True)
        out = work / f"out-{n}"  # the add-one build updates the outputs of the full build, as a user's would
        shutil.rmtree(out, ignore_errors=True)
        two = timed_build(corpus, 2, cache, out)
        print(f"        2 workers: {two['wall_s']} s, peak {two['peak_mem_mib']} MiB", flush=True)
        if one:  # (computed here too: the figure must not depend on merging with an earlier results file)
            row["speedup_2_over_1"] = round(one["wall_s"] / max(two["wall_s"], 1e-9), 2)
        # add one witness and rebuild incrementally
        i = n
        src = sources[i % len(sources)]
        extra = work / f"extra-{n}.txt"
        extra.write_text(synthetic_witness(src, model, 999_983 + i, target_bytes), encoding="utf-8")
        from pipeline.corpus import add_witness

        add_witness(
            corpus, extra, id=f"{src.lang}-x{i:05d}", game=src.game, lang=src.lang, kind="ocr", title="added witness"
        )
        inc = timed_build(corpus, 2, cache, out)
        shutil.rmtree(out, ignore_errors=True)
        print(f"        add one  : {inc['wall_s']} s ({inc['processed']} reprocessed)", flush=True)
        row.update(
            {
                "two_workers": two,
                "add_one": inc,
                "add_one_fraction_of_full": round(inc["wall_s"] / max(two["wall_s"], 1e-9), 3),
            }
        )
    if books:
        result["books"] = book_series(books, sources, model, work, book_kinds)
    return result


BOOK_MB = (0.5, 1.0, 2.0, 4.0)  # the book series: one witness of each size, built alone
BOOK_MAX_RATIO = 2.2  # time per doubling of the witness, at most (the book series' bound)
BOOK_MAX_WORKER_MIB = 2048  # peak memory of the worker at every size up to 4 MB, at most


def book_series(sizes_mb: list[float], sources, model, work: Path, kinds: tuple[str, ...] = BOOK_KINDS) -> dict:
    """One witness of each size (MB) and kind built alone, in this process (a one-witness build maps nothing; a
    cluster's worker restart between stages failed on this loaded machine): wall time, peak memory, and the time
    ratio per doubling. Each book is the laws of the longest real witness shuffled, repeated and re-noised as the
    bench corpus is; a ``numbered`` book prints each pass through them as a section numbered from 1, as a book of
    several codes is printed (numbered on past any code's numbers, a book became one law of megabytes); a
    ``prose`` book prints them as running text, two to five laws to a paragraph and no number at all."""
    src = max(sources, key=lambda s: sum(map(len, s.laws)))
    rows: list[dict] = []
    failed: list[dict] = []
    for kind in kinds:
        before: dict | None = None
        for mb in sizes_mb:
            corpus = prepare_corpus(
                work / f"book-{kind}-{mb:g}",
                1,
                [src],
                model,
                int(mb * 1_000_000),
                sections=kind == "numbered",
                prose=kind == "prose",
            )
            size = sum(p.stat().st_size for p in (corpus / "raw").iterdir()) / 1e6
            print(f"[bench] one {kind} book of {size:.2f} MB ({src.game}, {src.lang})", flush=True)
            try:
                b = timed_build(corpus, 0, None)
            except PipelineError as exc:  # (a book the pipeline cannot build: said, and the series goes on)
                print(f"        FAILED: {exc}", flush=True)
                failed.append({"kind": kind, "mb": mb, "ocr_mb": float(f"{size:.2f}"), "error": str(exc)})
                before = None
                continue
            row = {
                "kind": kind,
                "mb": mb,
                "ocr_mb": float(f"{size:.2f}"),
                "wall_s": b["wall_s"],
                "cpu_s": b["cpu_s"],
                "worker_peak_mib": b["worker_peak_mib"],
                "peak_mem_mib": b["peak_mem_mib"],
                "laws": b["laws"],
                "commit": b["commit"],
                "stages_s": b["stages_s"],
            }
            if before:
                row["time_ratio"] = float(f"{b['wall_s'] / max(before['wall_s'], 1e-9):.2f}")
                row["cpu_ratio"] = float(f"{b['cpu_s'] / max(before['cpu_s'], 1e-9):.2f}")
            rows.append(row)
            before = row
            print(
                f"        {b['wall_s']} s ({b['cpu_s']} s CPU), worker peak {b['worker_peak_mib']} MiB"
                + (f", x{row['time_ratio']} the time of the size before" if "time_ratio" in row else ""),
                flush=True,
            )
    return book_summary(f"{src.game}/{src.lang}", rows, failed)


def book_summary(source: str, rows: list[dict], failed: list[dict]) -> dict:
    """The book series' rows with their bounds: the largest time ratio per doubling, the largest worker peak."""
    ratios = [r["time_ratio"] for r in rows if "time_ratio" in r]
    largest = max((r["mb"] for r in rows), default=None)
    return {
        "source": source,
        "sizes": rows,
        "max_time_ratio": max(ratios) if ratios else None,
        "max_cpu_ratio": max((r["cpu_ratio"] for r in rows if "cpu_ratio" in r), default=None),
        "worker_peak_mib_at_largest": max((r["worker_peak_mib"] for r in rows if r["mb"] == largest), default=None),
        "max_worker_peak_mib": max((r["worker_peak_mib"] for r in rows), default=None),
        "failed": failed,
        "within_bounds": bool(rows)
        and not failed
        and all(x <= BOOK_MAX_RATIO for x in ratios)
        and all(r["worker_peak_mib"] <= BOOK_MAX_WORKER_MIB for r in rows),
    }


def book_kind(row: dict) -> str:
    return row.get("kind", "numbered")  # (a row measured before the prose series has no kind)


def merge_books(old: dict | None, new: dict | None) -> dict | None:
    """``new``'s series of each kind it measured replaces ``old``'s series of that kind; the other kinds are kept (a
    run of the prose series keeps the numbered one measured earlier, each row with the commit it measured)."""
    if not new or not old or old.get("source") != new.get("source"):
        return new or old
    kinds = {book_kind(r) for r in new["sizes"]} | {f["kind"] for f in new.get("failed", [])}
    rows = [r for r in old["sizes"] if book_kind(r) not in kinds] + new["sizes"]
    failed = [f for f in old.get("failed", []) if f["kind"] not in kinds] + new.get("failed", [])
    order = {k: i for i, k in enumerate(BOOK_KINDS)}
    rows.sort(key=lambda r: (order.get(book_kind(r), len(order)), r["mb"]))
    return book_summary(new["source"], rows, failed)


def merge(old: dict, new: dict) -> dict:
    """``new``'s sizes replace the same sizes of ``old``; a size measured now with only one of its builds
    (``--only-one-worker``) keeps the other build measured earlier. Each build carries the commit it measured."""
    before = {
        s["witnesses"]: {"date": old.get("date"), "machine": old.get("machine"), **s} for s in old.get("sizes", [])
    }
    for s in new["sizes"]:
        prev = before.get(s["witnesses"], {})
        if (
            prev.get("ocr_mb") != s["ocr_mb"]
            or prev.get("witness_bytes", old.get("witness_bytes")) != s["witness_bytes"]
        ):
            prev = {}  # another corpus: nothing earlier to keep
        for key in ("one_worker", "two_workers", "add_one", "add_one_fraction_of_full"):
            if s.get(key) is None and prev.get(key) is not None:
                s[key] = prev[key]
        before[s["witnesses"]] = s
    for s in before.values():
        one, two = s.get("one_worker"), s.get("two_workers")
        s["speedup_2_over_1"] = round(one["wall_s"] / max(two["wall_s"], 1e-9), 2) if one and two else None
    books = merge_books(old.get("books"), new.get("books"))  # a run without the book series keeps the last one
    return {
        **new,
        "sizes": sorted(before.values(), key=lambda s: s["witnesses"]),
        **({"books": books} if books else {}),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m measure.bench_build", description=__doc__.splitlines()[0])
    p.add_argument(
        "--sizes",
        default="10,100",
        help="comma-separated corpus sizes (default %(default)s, about 15 minutes here; "
        "1000 takes about two hours, 1.4 of them the 1-worker build)",
    )
    p.add_argument("--witness-bytes", type=int, default=100_000, help="size of each witness (default %(default)s)")
    p.add_argument("--work", default=str(ROOT / ".cache" / "bench"), help="scratch folder (default %(default)s)")
    p.add_argument(
        "--out",
        default=str(ROOT / "outputs" / "bench" / "build.json"),
        help="results file; sizes measured now replace the same sizes there, others are kept",
    )
    p.add_argument("--no-one-worker", action="store_true", help="skip the 1-worker build (no speed-up figure)")
    p.add_argument(
        "--only-one-worker",
        action="store_true",
        help="time only the 1-worker build; the 2-worker and add-one figures measured earlier on the "
        "same corpus are kept (a long size can be measured in two sittings)",
    )
    p.add_argument(
        "--books",
        default=",".join(f"{x:g}" for x in BOOK_MB),
        help="sizes in MB of the book series, one witness built alone each (default %(default)s; 'none' to skip)",
    )
    p.add_argument(
        "--book-kinds",
        default=",".join(BOOK_KINDS),
        help="kinds of book in the series (default %(default)s); the kinds measured now replace the same kinds in the "
        "results file, the others are kept",
    )
    args = p.parse_args(argv)
    shared = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if args.no_one_worker and args.only_one_worker:
        p.error("--no-one-worker and --only-one-worker leave nothing to measure")
    sizes = [] if args.sizes in ("", "none") else [int(x) for x in args.sizes.split(",")]
    books = [] if args.books in ("", "none") else [float(x) for x in args.books.split(",")]
    kinds = tuple(k for k in args.book_kinds.split(",") if k)
    if not set(kinds) <= set(BOOK_KINDS):
        p.error(f"--book-kinds: each of {', '.join(BOOK_KINDS)}")
    result = run(
        sizes, args.witness_bytes, shared, work, not args.no_one_worker, not args.only_one_worker, books, kinds
    )
    out = Path(args.out)
    old: dict = {}
    if out.is_file():  # keep the sizes measured earlier (each carries its date and machine)
        try:
            old = json.loads(out.read_text(encoding="utf-8"))
        except ValueError:
            old = {}
    try:
        result = merge(old if isinstance(old, dict) else {}, result)
    except (KeyError, TypeError):
        result = merge({}, result)  # a results file of another layout: the speed-up is still computed
    write_atomic(out, json.dumps(result, indent=1) + "\n")
    rows = [
        {
            "witnesses": s["witnesses"],
            "MB": s["ocr_mb"],
            "1 worker s": s["one_worker"]["wall_s"] if s.get("one_worker") else None,
            "2 workers s": (s.get("two_workers") or {}).get("wall_s"),
            "speed-up": s.get("speedup_2_over_1"),
            "peak MiB": max(
                x["peak_mem_mib"] for x in (s.get("one_worker"), s.get("two_workers"), s.get("add_one")) if x
            ),
            "add one s": (s.get("add_one") or {}).get("wall_s"),
            "add one / full": s.get("add_one_fraction_of_full"),
        }
        for s in result["sizes"]
    ]
    if rows:
        print(pd.DataFrame(rows).to_string(index=False))
    if result.get("books"):
        bk = result["books"]
        print(
            pd.DataFrame(
                [
                    {
                        "book": r.get("kind", "numbered"),
                        "MB": r["ocr_mb"],
                        "s": r["wall_s"],
                        "x per doubling": r.get("time_ratio"),
                        "CPU s": r.get("cpu_s"),
                        "CPU x per doubling": r.get("cpu_ratio"),
                        "worker peak MiB": r["worker_peak_mib"],
                        "laws": r["laws"],
                    }
                    for r in bk["sizes"]
                ]
            ).to_string(index=False)
        )
        print(
            f"book series: at most x{bk['max_time_ratio']} per doubling (bound {BOOK_MAX_RATIO}), worker peak "
            f"{bk.get('max_worker_peak_mib')} MiB at most (bound {BOOK_MAX_WORKER_MIB} at every size)"
            + ("" if bk["within_bounds"] else "  -- OUT OF BOUNDS")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
