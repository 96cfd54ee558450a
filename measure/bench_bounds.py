"""Time budgets of bounded work (``make bench``): the wall-clock limits that the tests leave to a benchmark.

The tests check what these cases produce (outputs, one-line errors, memory); how long they take depends on
the machine and its load, so it is measured here, where a slow shared core gives a slow figure, not a
failed test. Each case is timed once after a warm-up and compared with its budget; the script prints one
line per case and exits 1 when a case is over budget (``--no-fail``: print only).

- ``align-15x15``: aligning two witnesses of 15 laws (en-003, fr-000 from the shared gold), spaCy warm.
- ``align-100-laws``: aligning a code of more than 100 laws (en-004) with its French counterpart (fr-001).
- ``billion-laughs``: a TEI document with nested entity declarations refused by the safe reader.
- ``token-5000``, ``token-1mb``: the command-line cleaner on one 5,000-letter token and one 1 MB token,
  against a one-line sentence (each its own process, as a user runs it).
- ``short-lines``: 12,000 short lines against 3,000 (four times the lines: about four times the time).
- ``mojibake-line``: one long line of mojibake repaired.
- ``one-witness-build``: a whole build of one small witness.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@dataclass(frozen=True)
class Budget:
    """One case: its seconds against the most it may take."""

    name: str
    seconds: float
    limit: float

    @property
    def ok(self) -> bool:
        return self.seconds <= self.limit


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def cli_clean_seconds(stdin: str) -> float:
    """Seconds of ``python -m pipeline clean - --lang en`` over ``stdin`` (start-up included)."""
    cmd = [sys.executable, "-m", "pipeline", "clean", "-", "--lang", "en"]
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, input=stdin.encode("utf-8"), capture_output=True, check=True)
    return time.perf_counter() - t0


def align_cases() -> list[Budget]:
    from pipeline.align import align, load_resources

    from .evaluate_align import gold_laws, load_witness_meta, segmented_laws, shared_dir

    resources = load_resources(CORPUS)
    dev = [law for law in gold_laws(shared_dir(), load_witness_meta(CORPUS)) if law.witness_id in ("en-003", "fr-000")]
    align(dev, resources)  # warm up spaCy
    big = segmented_laws(CORPUS, ["en-004"]) + segmented_laws(CORPUS, ["fr-001"])
    return [
        Budget("align-15x15", timed(lambda: align(dev, resources)), 1.0),
        Budget("align-100-laws", timed(lambda: align(big, resources)), 20.0),
    ]


def billion_laughs() -> Budget:
    from pipeline.export.tei.config import TeiError
    from pipeline.export.tei.read import read_tei

    entities = b"".join(
        b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10)
    )
    doc = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        + entities
        + b']><TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><p>&lol9;</p></body></text></TEI>'
    )

    def refuse() -> None:
        try:
            read_tei(doc)
        except TeiError:
            return
        raise AssertionError("the billion laughs were read")

    return Budget("billion-laughs", timed(refuse), 1.0)


def clean_cases() -> list[Budget]:
    import random
    import string

    from pipeline.clean import explain_text, general_resources

    base = cli_clean_seconds("The revoke is tbe penalty.\n")
    letters = "".join(random.Random(5).choice(string.ascii_lowercase) for _ in range(5000))
    en, fr = general_resources("en"), general_resources("fr")

    def lines(n: int) -> float:
        return timed(lambda: explain_text("\n".join(f"ABC {i % 300}" for i in range(n)), "en", en))

    lines(200)
    small, big = lines(3000), lines(12000)
    return [
        Budget("token-5000", cli_clean_seconds(letters + "\n"), base + 5.0),
        Budget("token-1mb", cli_clean_seconds("x" * 1_000_000 + "\n"), base + 10.0),
        Budget("short-lines", big, 4 * small * 2.0 + 0.5),
        Budget("mojibake-line", timed(lambda: explain_text("Ã©tÃ© " * 4000, "fr", fr)), 20.0),
    ]


def one_witness_build() -> Budget:
    from pipeline.build import BuildOptions, build

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"  # the corpus's data files and one small witness of its own
        shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns("raw", "witnesses.toml"))
        (corpus / "raw").mkdir()
        (corpus / "raw" / "one.txt").write_text("1. The dealer deals.\n2. A card faced is void.\n", "utf-8")
        (corpus / "witnesses.toml").write_text(
            '[[witness]]\nid = "on-1"\nfile = "raw/one.txt"\ngame = "whist"\nlang = "en"\nkind = "ocr"\n'
            'title = "One"\n',
            "utf-8",
        )
        return Budget(
            "one-witness-build", timed(lambda: build(BuildOptions(corpus_dir=corpus, out_dir=Path(tmp) / "out"))), 120.0
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-fail", action="store_true", help="print only, exit 0 even over budget")
    args = ap.parse_args(argv)
    cases = [*align_cases(), billion_laughs(), *clean_cases(), one_witness_build()]
    for c in cases:
        print(f"{c.name:18} {c.seconds:8.2f} s  (budget {c.limit:.2f} s){'' if c.ok else '  OVER BUDGET'}")
    return 0 if args.no_fail or all(c.ok for c in cases) else 1


if __name__ == "__main__":
    sys.exit(main())
