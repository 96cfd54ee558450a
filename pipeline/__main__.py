"""Command line: ``python -m pipeline {build,add,remove,status,clean,play,referee}``.

A thin wrapper: argument parsing and I/O only; the work is done by the stage modules.
Any ``PipelineError`` becomes one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import PipelineError

ROOT = Path(__file__).resolve().parent.parent


def _locked(args: argparse.Namespace, what: str):
    """The checkout's lock (one build, add or remove at a time; see pipeline.lock)."""
    from .lock import checkout_lock

    return checkout_lock(Path(args.corpus), what)


def _cmd_build(args: argparse.Namespace) -> int:
    from .build import BuildOptions, build
    from .progress import quiet

    with quiet(args.quiet), _locked(args, "build"):
        report = build(
            BuildOptions(
                corpus_dir=Path(args.corpus),
                out_dir=Path(args.out),
                cache_dir=None if args.no_cache else Path(args.cache),
                scheduler=args.scheduler,
                progress=not args.quiet,
            )
        )
    print(report.summary())
    return 0


def _cmd_status(args: argparse.Namespace) -> int:
    from .build import BuildOptions, status

    for line in status(BuildOptions(corpus_dir=Path(args.corpus), out_dir=Path(args.out), cache_dir=Path(args.cache))):
        print(line)
    return 0


def _cmd_add(args: argparse.Namespace) -> int:
    with _locked(args, "add"):
        w = _add(args)
    print(f"added witness {w.id} ({w.game}, {w.lang}, {w.kind}) from {w.file}; run `make` to rebuild")
    return 0


def _add(args: argparse.Namespace):
    from .corpus import add_witness

    return add_witness(
        Path(args.corpus),
        Path(args.file),
        id=args.id,
        game=args.game,
        lang=args.lang,
        kind=args.kind,
        title=args.title,
        author=args.author,
        year=args.year,
        source=args.source,
        page=args.page,
        note=args.note,
    )


def _cmd_remove(args: argparse.Namespace) -> int:
    from .corpus import remove_witness

    with _locked(args, "remove"):
        w, deleted = remove_witness(Path(args.corpus), args.id, delete_raw=args.delete_raw)
    kept = "" if deleted or not args.delete_raw else f" (kept {w.file}: another witness is cut from it)"
    gone = f" and deleted {w.file}" if deleted else ""
    print(f"removed witness {w.id} from the corpus metadata{gone}{kept}; its outputs go at the next `make`")
    return 0


def _cmd_clean(args: argparse.Namespace) -> int:
    from .clean import REGISTRY, CleanConfig, clean_lines, explain_text, explanation, removed_lines, resources_for
    from .files import decode_scan

    data = sys.stdin.buffer.read() if args.file == "-" else _read_bytes(Path(args.file))
    text = decode_scan(data, "<stdin>" if args.file == "-" else args.file)
    config = CleanConfig(join_hyphens=not args.keep_hyphens)
    resources = resources_for(text, args.lang, "general" if args.general else args.resources, Path(args.corpus), config)
    from .clean.memo import freeze_loaded

    freeze_loaded("clean")  # (speed only: the loaded resources out of the cyclic collector's walks)
    if args.explain:
        if args.lines:
            raise PipelineError("--explain explains the cleaning of the whole text: leave out --lines")
        cleaned, log = explain_text(text, args.lang, resources, config)
        sys.stdout.write("".join(line + "\n" for line in explanation(cleaned, log)))
        return 0
    # progress on a terminal for a large input (tqdm writes to stderr; nothing when piped or --quiet)
    show = not args.quiet and sys.stderr.isatty() and len(text) >= PROGRESS_MIN_CHARS
    if args.lines:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines = lines[:-1]
        if show:
            from tqdm import tqdm

            lines = tqdm(lines, desc="clean", unit="line", file=sys.stderr)
        out = [t for line in lines for t in clean_lines([line], args.lang, resources, config)]
        sys.stdout.write("".join(line + "\n" for line in out))
        return 0
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=len(REGISTRY), desc="clean", unit="pass", file=sys.stderr)

    def step(name: str) -> None:
        if bar is not None:
            bar.set_postfix_str(name)
            bar.update()

    cleaned, _log = explain_text(text, args.lang, resources, config, step if bar is not None else None)
    if bar is not None:
        bar.close()
    sys.stdout.write(cleaned.text)
    if not text.endswith("\n"):
        sys.stdout.write("\n")
    gone = removed_lines(cleaned)
    if gone:
        # nothing is dropped silently: each removed line is a Correction with its reason (--explain lists them)
        shown = "; ".join(f"line {n}: {why}" for n, why in gone[:3]) + ("; ..." if len(gone) > 3 else "")
        print(
            f"clean: removed {len(gone)} line{'s' if len(gone) != 1 else ''} ({shown}); --explain lists every change",
            file=sys.stderr,
        )
    return 0


PROGRESS_MIN_CHARS = 100_000  # inputs this long show a progress bar on a terminal


def _read_bytes(path: Path) -> bytes:
    from .errors import InputFileError

    if not path.is_file():
        raise InputFileError(f"{path}: no such file")
    return path.read_bytes()


def _cmd_referee(argv: list[str]) -> int:
    from .referee import main as referee_main

    return referee_main(argv)


def _cmd_play(args: argparse.Namespace) -> int:
    from .play import main as play_main

    return play_main(args.game, args.games, args.seed, args.json, Path(args.rules or Path(args.out) / "rules.json"))


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pipeline", description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default=str(ROOT / "corpus"), help="corpus folder (default: %(default)s)")
    p.add_argument("--out", default=str(ROOT / "outputs"), help="outputs folder (default: %(default)s)")
    p.add_argument("--cache", default=str(ROOT / ".cache" / "pipeline"), help="stage cache (default: %(default)s)")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build the whole edition from corpus/ into outputs/")
    b.add_argument("--no-cache", action="store_true", help="recompute every stage")
    b.add_argument("--quiet", action="store_true", help="no progress display (bars are drawn on a terminal only)")
    b.add_argument(
        "--scheduler",
        default=None,
        help="'sync' (default), 'threads', 'processes', 'local:N' (a LocalCluster of N workers) or "
        "tcp://host:port of a dask.distributed scheduler (or env PIPELINE_SCHEDULER)",
    )
    b.set_defaults(func=_cmd_build)

    s = sub.add_parser("status", help="list witnesses and which are stale")
    s.set_defaults(func=_cmd_status)

    a = sub.add_parser("add", help="register a new scan: copy it into corpus/raw/ and write its metadata")
    a.add_argument("file", help="the scan's OCR text, UTF-8")
    a.add_argument("--id", required=True, help="witness id, e.g. fr-004")
    a.add_argument("--game", required=True, choices=["ecarte", "whist"])
    a.add_argument("--lang", required=True, choices=["fr", "en"])
    a.add_argument("--kind", required=True, choices=["ocr", "transcription", "modernized"])
    a.add_argument("--title", required=True)
    a.add_argument("--author", default="")
    a.add_argument("--year", type=int, default=None)
    a.add_argument("--source", default="", help="shared by witnesses of one printed source")
    a.add_argument("--page", default="", help="first printed page of the excerpt")
    a.add_argument("--note", default="")
    a.set_defaults(func=_cmd_add)

    rm = sub.add_parser("remove", help="take a witness out of the corpus (its outputs go at the next build)")
    rm.add_argument("id", help="the witness id")
    rm.add_argument("--delete-raw", action="store_true", help="also delete its raw file under corpus/raw/")
    rm.set_defaults(func=_cmd_remove)

    c = sub.add_parser("clean", help="print the cleaned reading text of any text")
    c.add_argument("file", help="a UTF-8 text file, or - for standard input")
    c.add_argument("--lang", required=True, choices=["fr", "en"])
    c.add_argument("--lines", action="store_true", help="clean each line on its own; output has as many lines")
    c.add_argument("--keep-hyphens", action="store_true", help="do not join end-of-line hyphens")
    c.add_argument(
        "--resources",
        choices=["auto", "domain", "general"],
        default="auto",
        help="card-game lexicon and witness rules (domain), word lists and OCR data only (general), "
        "or domain only when the text is mostly card-game terms (auto, the default)",
    )
    c.add_argument("--general", action="store_true", help="the same as --resources general")
    c.add_argument("--quiet", action="store_true", help="no progress display")
    c.add_argument(
        "--explain",
        action="store_true",
        help="print which pass made which change (pass, line, before -> after, kind, method, evidence) instead of the text",
    )
    c.set_defaults(func=_cmd_clean)

    pl = sub.add_parser(
        "play", help="play seeded games with irregularities injected and resolved by the referee; print a summary"
    )
    pl.add_argument("game", choices=["ecarte", "whist"])
    pl.add_argument("--games", type=int, default=10, help="how many games (default: %(default)s)")
    pl.add_argument(
        "--seed", type=int, default=0, help="the first game's seed; game i has seed+i (default: %(default)s)"
    )
    pl.add_argument(
        "--json",
        action="store_true",
        help='print {"games", "irregularities", "resolved", "kinds", "unresolved"} as JSON',
    )
    pl.add_argument("--rules", default=None, help="the rule table (default: rules.json of --out)")
    pl.set_defaults(func=_cmd_play)

    r = sub.add_parser("referee", help="adjudicate an irregularity by the laws (see: referee --help)", add_help=False)
    r.add_argument("rest", nargs=argparse.REMAINDER)
    r.set_defaults(func=None)
    return p


def _command_index(argv: list[str]) -> int | None:
    """Index of the subcommand in argv, skipping the global options and their values."""
    i = 0
    while i < len(argv):
        if argv[i] in ("--corpus", "--out", "--cache"):
            i += 2
        elif argv[i].startswith("-"):
            i += 1
        else:
            return i
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = make_parser()
    try:
        i = _command_index(argv)
        if i is not None and argv[i] == "referee":
            return _cmd_referee(argv[i + 1 :])
        args = parser.parse_args(argv)
        return args.func(args)
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the file system refused (read-only, permissions, full disk): not a bug
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted; outputs/ is unchanged or complete (files are written atomically)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
