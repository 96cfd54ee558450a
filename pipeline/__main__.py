"""Command line: ``python -m pipeline {build,add,remove,status,clean,repair,play,referee}``.

A thin wrapper: argument parsing and I/O only; the work is done by the stage modules.
Any ``PipelineError`` becomes one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import io
import itertools
import os
import sys
from pathlib import Path
from typing import BinaryIO

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
                keep_going=args.keep_going,
            )
        )
    for line in report.failed:  # (--keep-going: never silently)
        print(f"error: {line}; left out of this build", file=sys.stderr)
    print(report.summary())
    return 1 if report.failed else 0


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
    from .clean.memo import freeze_loaded
    from .files import text_pieces

    name = "<stdin>" if args.file == "-" else args.file
    config = CleanConfig(join_hyphens=not args.keep_hyphens)
    if args.explain and args.lines:
        raise PipelineError("--explain explains the cleaning of the whole text: leave out --lines")
    with _open_input(args.file) as stream:
        # (a text larger than PIECE_CHARS is read and cleaned piece by piece, each cut after a line break:
        # memory stays bounded and time grows with the size; a smaller one is one piece, cleaned whole)
        pieces = text_pieces(stream, name, PIECE_CHARS)
        first = next(pieces)
        resources = resources_for(
            first, args.lang, "general" if args.general else args.resources, Path(args.corpus), config
        )
        freeze_loaded("clean")  # (speed only: the loaded resources out of the cyclic collector's walks)
        if args.explain:
            if next(pieces, None) is not None:
                raise PipelineError(
                    f"--explain lists the changes of a text up to {PIECE_CHARS // 1000} kB; give a part of it"
                )
            cleaned, log = explain_text(first, args.lang, resources, config)
            sys.stdout.write("".join(line + "\n" for line in explanation(cleaned, log)))
            return 0
        # progress on a terminal for a large input (tqdm writes to stderr; nothing when piped or --quiet)
        show = not args.quiet and sys.stderr.isatty() and len(first) >= PROGRESS_MIN_CHARS
        bar = None
        if show:
            from tqdm import tqdm

            if args.lines:
                bar = tqdm(desc="clean", unit="line", file=sys.stderr)
            else:  # (the passes of each piece in turn)
                bar = tqdm(total=len(REGISTRY), desc="clean", unit="pass", file=sys.stderr)

        def step(name: str) -> None:
            if bar is not None:
                bar.set_postfix_str(name)
                bar.update()

        gone: list[tuple[int, str]] = []
        line_no, carry = 0, ""
        for text in itertools.chain([first], pieces):
            if args.lines:
                lines = (carry + text).split("\n")
                carry = lines.pop()  # (a line a piece cut is finished by the next piece)
                for line in lines:
                    sys.stdout.write("".join(t + "\n" for t in clean_lines([line], args.lang, resources, config)))
                    if bar is not None:
                        bar.update()
                continue
            if not text.strip():
                sys.stdout.write(text)
            else:
                if bar is not None:
                    bar.reset()
                cleaned, _log = explain_text(text, args.lang, resources, config, step if bar is not None else None)
                sys.stdout.write(cleaned.text)
                gone += [(line_no + n, why) for n, why in removed_lines(cleaned)]
            line_no += text.count("\n")
        if carry:
            sys.stdout.write("".join(t + "\n" for t in clean_lines([carry], args.lang, resources, config)))
        if not args.lines and not text.endswith("\n"):
            sys.stdout.write("\n")
        if bar is not None:
            bar.close()
    if gone:
        # nothing is dropped silently: each removed line is a Correction with its reason (--explain lists them)
        shown = "; ".join(f"line {n}: {why}" for n, why in gone[:3]) + ("; ..." if len(gone) > 3 else "")
        print(
            f"clean: removed {len(gone)} line{'s' if len(gone) != 1 else ''} ({shown}); --explain lists every change",
            file=sys.stderr,
        )
    return 0


PROGRESS_MIN_CHARS = 100_000  # inputs this long show a progress bar on a terminal
# a text longer than this (in bytes) is cleaned piece by piece, each piece about this many characters cut
# after a line break: bounded memory on any size of input (a piece's running heads, repeated phrases and
# word pairs are read within the piece)
PIECE_CHARS = 1_000_000


def _cmd_repair(args: argparse.Namespace) -> int:
    from .clean.hipe import LANGUAGES, RecordError, filled, read_record, record_line, repair_text
    from .errors import InputFileError
    from .files import write_atomic
    from .progress import quiet, track

    try:  # (JSON lines as written: no normalisation of the records' other fields)
        with _open_input(args.file) as f:
            lines = f.read().decode("utf-8-sig").split("\n")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{args.file}: not valid UTF-8 (byte {exc.start}); JSON lines are UTF-8") from None
    out, skipped, copied = [], 0, 0
    with quiet(args.quiet):
        for n, line in track(enumerate(lines, 1), len(lines), "repair", "record"):
            if not line.strip():
                continue
            try:
                unit = read_record(line, n)
            except RecordError as e:  # reported and skipped: the other records are still repaired
                print(f"repair: {e}; skipped", file=sys.stderr)
                skipped += 1
                continue
            text = unit.ocr
            if unit.lang in LANGUAGES:
                text = repair_text(unit.ocr, unit.lang)
            else:
                print(
                    f"repair: line {n}: language {unit.lang!r} has no word lists; OCR copied unchanged", file=sys.stderr
                )
                copied += 1
            out.append(record_line(filled(unit, text)))
    write_atomic(Path(args.output), "".join(out))
    print(
        f"repair: {len(out)} record{'s' if len(out) != 1 else ''} written to {args.output}"
        f"{f'; {copied} copied unchanged' if copied else ''}{f'; {skipped} malformed skipped' if skipped else ''}",
        file=sys.stderr,
    )
    return 1 if skipped else 0


def _open_input(file: str) -> BinaryIO:
    """The bytes of ``file``, or of standard input for ``-`` (a one-line error when it is closed or missing)."""
    from .errors import InputFileError

    if file != "-":
        path = Path(file)
        if not path.is_file():
            raise InputFileError(f"{path}: no such file")
        return path.open("rb")
    if sys.stdin is None:
        raise InputFileError("<stdin>: standard input is closed; pipe the text in, or give a file")
    try:
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    except (OSError, ValueError, AttributeError):
        pass
    try:
        return io.BytesIO(sys.stdin.buffer.read())  # (a standard input without a file descriptor: tests)
    except (OSError, ValueError, AttributeError) as exc:
        raise InputFileError(f"<stdin>: cannot read standard input ({exc}); pipe the text in, or give a file") from None


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
        "--keep-going",
        action="store_true",
        help="build the edition without a witness that cannot be read or built (each one is reported, "
        "and the exit status is 1)",
    )
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

    rp = sub.add_parser("repair", help="repair the OCR of HIPE-OCRepair records (JSON lines) with general resources")
    rp.add_argument("file", help="a JSON-lines file of records (ocr_hypothesis, document_metadata.language)")
    rp.add_argument("-o", "--output", required=True, help="where to write the records with their repaired text")
    rp.add_argument("--quiet", action="store_true", help="no progress display")
    rp.set_defaults(func=_cmd_repair)
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


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM (``kill``, a closing terminal's SIGHUP) ends a command as Ctrl-C does: the code in flight
    unwinds, so a half-made file is removed and the corpus and outputs are left as they were."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = make_parser()
    import signal
    import threading

    before = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            before[sig] = signal.signal(sig, _terminated)
    try:
        return _main(parser, argv)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _main(parser: argparse.ArgumentParser, argv: list[str]) -> int:
    try:
        i = _command_index(argv)
        if i is not None and argv[i] == "referee":
            return _cmd_referee(argv[i + 1 :])
        args = parser.parse_args(argv)
        return args.func(args)
    except PipelineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (`| head`): what it read is all it wanted, as for cat
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (no second error when Python flushes)
        return 0
    except OSError as exc:  # the file system refused (read-only, permissions, full disk): not a bug
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted; outputs/ is unchanged or complete (files are written atomically)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
