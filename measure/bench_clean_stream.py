"""Cleaning large input: `python -m pipeline clean -` on 1 MB to 50 MB, its time and its memory.

The input is the ICDAR 2017 English dev OCR lines (``$SHARED_DIR/ocr-data``), repeated to each size, one line each,
paragraphs of 20 lines; without the shared folder, the corpus's raw files. Each size runs as a user runs it:
``python -m pipeline clean - --lang en --quiet`` in a subprocess under an address-space limit (``prlimit --as``,
4 GB by default), input on standard input, output to /dev/null. Recorded per size: wall time, CPU time of the
child, its peak resident memory, whether it finished. Repeated lines help the cleaner's per-word caches, so text
that never repeats takes longer per megabyte: the figure is one of linearity and memory, not of speed.

Writes ``outputs/bench/clean_stream.json``. Usage: ``python -m measure.bench_clean_stream [--sizes 1 5 50]
[--limit-gb 4]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .evaluate_clean import read_icdar, shared_dir, write_json_atomic

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "outputs" / "bench" / "clean_stream.json"


def source_lines() -> tuple[str, list[str]]:
    """The lines repeated to make each input, and where they come from."""
    tsv = shared_dir() / "ocr-data" / "icdar2017-fr-en-sentence-pairs" / "ICDAR2017_eng_periodical_dev.tsv"
    if tsv.is_file():
        return "ICDAR 2017 English dev OCR", [ocr.replace("\n", " ") for ocr, _ in read_icdar(tsv)]
    lines = [ln for p in sorted((ROOT / "corpus" / "raw").glob("*.txt")) for ln in p.read_text("utf-8").splitlines()]
    return "the corpus's raw files", [ln for ln in lines if ln.strip()]


def make_input(path: Path, lines: list[str], size: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        written, k = 0, 0
        while written < size:
            line = lines[k % len(lines)] + ("\n\n" if k % 20 == 19 else "\n")
            f.write(line)
            written += len(line.encode("utf-8"))
            k += 1


def run_one(path: Path, limit: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = ["prlimit", f"--as={limit}", sys.executable, "-m", "pipeline", "clean", "-", "--lang", "en", "--quiet"]
    t0 = time.perf_counter()
    with open(path, "rb") as stdin:
        proc = subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "bytes": path.stat().st_size,
        "exit": proc.returncode,
        "wall_s": float(f"{wall:.1f}"),
        "cpu_s": float(f"{cpu:.1f}"),
        "peak_rss_gb": float(f"{after.ru_maxrss / 1024**2:.2f}"),  # the largest child so far (kB on Linux)
        "stderr": proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if proc.returncode else [],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=float, nargs="+", default=[1, 5, 50], help="input sizes in MB")
    ap.add_argument("--limit-gb", type=float, default=4.0, help="address-space limit of the clean process")
    args = ap.parse_args(argv)
    where, lines = source_lines()
    limit = int(args.limit_gb * 1e9)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sorted(args.sizes):
            path = Path(tmp) / f"in-{mb}.txt"
            make_input(path, lines, int(mb * 1e6))
            r = run_one(path, limit) | {"mb": mb}
            print(json.dumps(r), flush=True)
            runs.append(r)
            path.unlink()
    ok = [r for r in runs if r["exit"] == 0]
    per_mb = [r["cpu_s"] / (r["bytes"] / 1e6) for r in ok]
    result = {
        "what": "python -m pipeline clean - --lang en, input on stdin, under prlimit --as",
        "input": where,
        "limit_gb": args.limit_gb,
        "cores": os.cpu_count(),
        "load_average_at_end": float(f"{os.getloadavg()[0]:.1f}"),
        "runs": runs,
        "cpu_s_per_mb": [float(f"{x:.1f}") for x in per_mb],
    }
    write_json_atomic(OUT, result)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0 if len(ok) == len(runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
