"""``python -m pipeline.rules hashes|check``: review the curated rulings against the laws of the build."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import PipelineError
from .compile import build_rule_table
from .curation import hash_lines
from .suggest import suggest_rulings
from .table import laws_from_csv, load_rule_resources, rules_outputs

ROOT = Path(__file__).resolve().parent.parent.parent


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m pipeline.rules", description="Review the curated rulings against the laws of the build."
    )
    p.add_argument(
        "command",
        choices=["hashes", "check"],
        help="hashes: print the current text hash of every curated law (to paste after review); check: print the rule table report",
    )
    p.add_argument(
        "--laws", default=str(ROOT / "outputs" / "laws.csv"), help="the build's law table (default: %(default)s)"
    )
    p.add_argument("--corpus", default=str(ROOT / "corpus"))
    args = p.parse_args(argv)
    try:
        laws = laws_from_csv(Path(args.laws))
        resources = load_rule_resources(Path(args.corpus))
        if args.command == "hashes":
            print("\n".join(hash_lines(laws, resources.annotations)))
        else:
            table = build_rule_table(
                laws, resources.annotations, suggest_rulings(laws, resources.patterns), (), resources=resources
            )
            sys.stdout.write(rules_outputs(table)["rules_report.txt"].decode("utf-8"))
            return 0 if table.report.ok else 1
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
