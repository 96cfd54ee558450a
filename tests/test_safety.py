"""A user's data is never lost: the folders the commands may write into, an ``add`` that is all or nothing,
ids that cannot break the corpus, and one line (exit 2) instead of a traceback.

Every case runs the command line in process on real files, folders, links and signals, and checks that
whatever the pipeline did not make is byte-identical afterwards."""

from __future__ import annotations

import os
import shutil
import signal
import stat
from pathlib import Path

import pytest

from pipeline.__main__ import main

from conftest import small_corpus

ROOT = Path(__file__).resolve().parent.parent


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder`` (symlinks not followed): its kind and bytes, link target or mode."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = p.relative_to(folder).as_posix()
            if name == ".pipeline.lock":  # (the lock file is the pipeline's own)
                continue
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                out[rel] = ("file", p.read_bytes())
            else:
                out[rel] = ("other", stat.S_IFMT(st.st_mode))
    return out


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def user_folder(tmp_path: Path) -> Path:
    """A folder of the user's, with the kinds of entry a build once deleted or overwrote."""
    f = tmp_path / "mine"
    for rel in ("text/notes.txt", "tei/draft.xml", "figures/plot.svg", "laws.csv", "site/index.html", ".tmp-keep"):
        (f / rel).parent.mkdir(parents=True, exist_ok=True)
        (f / rel).write_text(f"the user's {rel}\n")
    (f / "empty").mkdir()
    os.mkfifo(f / "pipe")
    os.symlink("laws.csv", f / "link")
    return f


# --------------------------------------------------------------------------- --out and --cache


def test_out_refuses_a_folder_the_pipeline_did_not_make(capsys, tmp_corpus, tmp_path):
    mine = user_folder(tmp_path)
    before, corpus = snapshot(mine), snapshot(tmp_corpus)
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", mine, "--cache", tmp_path / "c", "build", "--quiet")
    assert code == 2 and err.count("\n") == 1 and "not made by the pipeline" in err
    assert snapshot(mine) == before and snapshot(tmp_corpus) == corpus
    assert not list(tmp_path.glob(".mine.*"))  # no staging folder or manifest beside it


@pytest.mark.parametrize("where", ["root", "corpus", "inside corpus", "checkout", "parent", "file"])
def test_out_refuses_the_root_the_corpus_the_checkout_their_parents_and_a_file(capsys, tmp_corpus, tmp_path, where):
    (tmp_path / "a-file.txt").write_text("the user's file\n")
    out = {
        "root": Path("/"),
        "corpus": tmp_corpus,
        "inside corpus": tmp_corpus / "raw",
        "checkout": tmp_corpus.parent,
        "parent": tmp_corpus.parent.parent,
        "file": tmp_path / "a-file.txt",
    }[where]
    before = snapshot(tmp_path)
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", out, "--cache", tmp_path / "c", "build", "--quiet")
    assert code == 2 and err.count("\n") == 1, err
    assert snapshot(tmp_path) == before


def test_out_may_not_be_the_code_checkout(capsys, tmp_corpus, tmp_path):
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", ROOT, "--cache", tmp_path / "c", "build", "--quiet")
    assert code == 2 and "would hold" in err


def test_cache_refuses_a_folder_the_pipeline_did_not_make(capsys, tmp_corpus, tmp_path):
    mine = tmp_path / "models"
    mine.mkdir()
    (mine / "model.pkl").write_bytes(b"weights")
    (mine / "corpus.settings.json").write_text("{}")
    before = snapshot(mine)
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", tmp_path / "o", "--cache", mine, "build", "--quiet")
    assert code == 2 and err.count("\n") == 1 and "--cache" in err
    assert snapshot(mine) == before and not (tmp_path / "o").exists()


def test_cache_may_not_be_inside_the_corpus(capsys, tmp_corpus, tmp_path):
    before = snapshot(tmp_corpus)
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", tmp_path / "o", "--cache", tmp_corpus / "c", "build")
    assert code == 2 and "inside the corpus" in err and snapshot(tmp_corpus) == before


def test_a_symlink_loop_as_out_is_one_line(capsys, tmp_corpus, tmp_path):
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", tmp_path / "loop", "--cache", tmp_path / "c", "build")
    assert code == 2 and "symlink" in err.lower()


def test_old_outputs_and_old_cache_without_marker_are_recognised_by_their_contents(tmp_path):
    from pipeline.publish import CACHE_MARKER, MARKER, cache_folder, is_old_outputs, outputs_folder

    old = tmp_path / "outputs"
    shutil.copytree(ROOT / "outputs", old, ignore=shutil.ignore_patterns(MARKER))
    assert is_old_outputs(old)
    (old / "my-notes.txt").write_text("mine")
    assert not is_old_outputs(old)  # a file that is no output's: not the pipeline's folder
    (old / "my-notes.txt").unlink()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    assert outputs_folder(old, corpus) == old.resolve() and (old / MARKER).is_file()

    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / f"fr-000.{'a' * 24}.pkl").write_bytes(b"x")
    (cache / f"corpus.{'b' * 24}.json").write_text("{}")
    (cache / "last_build.json").write_text("{}")
    assert cache_folder(cache, corpus) == cache.resolve() and (cache / CACHE_MARKER).is_file()


def test_an_outputs_folder_reached_through_a_symlink_is_published_into(tmp_path):
    from pipeline.publish import Staging, outputs_folder

    web = tmp_path / "web"
    web.mkdir()
    link = tmp_path / "outputs"
    os.symlink(web, link)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    out = outputs_folder(link, corpus)
    assert out == web.resolve()
    staging = Staging(out)
    staging.write("laws.csv", b"id\n")
    staging.commit(("text",))
    assert link.is_symlink() and (link / "laws.csv").read_bytes() == b"id\n"
    # a second build through the link: the link stays and shows the new tree
    staging = Staging(outputs_folder(link, corpus))
    staging.write("laws.csv", b"id\nx\n")
    staging.commit(("text",))
    assert link.is_symlink() and (web / "laws.csv").read_bytes() == b"id\nx\n"


def test_leftovers_beside_outputs_are_removed_only_if_the_pipeline_made_them(tmp_path):
    from pipeline.publish import recover

    mine = tmp_path / ".outputs.staging-999999999"  # a name like a dead build's, but the user's
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    recover(tmp_path / "outputs")
    assert (mine / "keep.txt").read_text() == "mine"


# --------------------------------------------------------------------------- the lock


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_the_lock_never_truncates_a_file_it_is_linked_to(capsys, tmp_corpus, tmp_path, kind):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    lock = tmp_corpus.parent / ".pipeline.lock"
    (os.symlink if kind == "symlink" else os.link)(victim, lock)
    code, err = run(capsys, "--corpus", tmp_corpus, "remove", "fr-000")
    assert code == 2 and err.count("\n") == 1 and ".pipeline.lock" in err
    assert victim.read_text() == "precious\n"


# --------------------------------------------------------------------------- add: all or nothing


def scan(tmp_path: Path, name: str = "scan.txt", text: str = "1. Le joueur qui renonce perd le point.\n") -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8"))
    return p


def add_args(corpus: Path, file: Path, wid: str = "fr-009", title: str = "Règles") -> list:
    return ["--corpus", corpus, "add", file, "--id", wid, "--game", "ecarte", "--lang", "fr", "--kind", "ocr"] + [
        "--title",
        title,
    ]


def test_add_interrupted_by_sigterm_during_the_copy_leaves_the_corpus_as_it_was(
    capsys, tmp_corpus, tmp_path, monkeypatch
):
    import pipeline.corpus as corpus_mod

    before = snapshot(tmp_corpus)
    real = shutil.copyfileobj

    def copy_then_killed(src, dst, length=0):
        dst.write(src.read(10))
        os.kill(os.getpid(), signal.SIGTERM)  # the CLI's handler unwinds the add
        real(src, dst, length)

    monkeypatch.setattr(corpus_mod.shutil, "copyfileobj", copy_then_killed)
    code, err = run(capsys, *add_args(tmp_corpus, scan(tmp_path)))
    assert code == 130 and "interrupted" in err
    assert snapshot(tmp_corpus) == before


def test_add_interrupted_before_the_metadata_is_written_takes_the_raw_file_back(
    capsys, tmp_corpus, tmp_path, monkeypatch
):
    import pipeline.corpus as corpus_mod

    before = snapshot(tmp_corpus)

    def killed(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(corpus_mod, "_write_metadata", killed)
    code, _ = run(capsys, *add_args(tmp_corpus, scan(tmp_path)))
    assert code == 130 and snapshot(tmp_corpus) == before


def test_the_copy_of_an_add_killed_outright_is_removed_by_the_next_add(capsys, tmp_corpus, tmp_path):
    import subprocess
    import sys

    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True).stdout)
    left = tmp_corpus / "raw" / f".add-{dead}-k1ll3d.tmp"  # what a SIGKILL during the copy leaves
    left.write_bytes(b"half a scan")
    assert run(capsys, *add_args(tmp_corpus, scan(tmp_path)))[0] == 0
    assert not left.exists() and (tmp_corpus / "raw" / "scan.txt").is_file()


def test_add_checks_the_bytes_it_copied_not_the_file_read_again(capsys, tmp_corpus, tmp_path, monkeypatch):
    import pipeline.corpus as corpus_mod

    source = scan(tmp_path)
    first = source.read_bytes()
    real = shutil.copyfileobj

    def copy_then_rewritten(src, dst, length=0):
        real(src, dst, length)
        source.write_bytes(os.urandom(3000))  # the scan is rewritten while add runs

    monkeypatch.setattr(corpus_mod.shutil, "copyfileobj", copy_then_rewritten)
    code, _ = run(capsys, *add_args(tmp_corpus, source))
    assert code == 0
    assert (tmp_corpus / "raw" / "scan.txt").read_bytes() == first
    assert not list((tmp_corpus / "raw").glob(".add-*"))


def test_add_refuses_a_too_long_file_name_and_bytes_that_are_not_utf8(capsys, tmp_corpus, tmp_path):
    before = snapshot(tmp_corpus)
    long_name = scan(tmp_path, "x" * 250 + ".txt")
    code, err = run(capsys, *add_args(tmp_corpus, long_name))
    assert code == 2 and err.count("\n") == 1 and "longer" in err
    bad_title = os.fsdecode(b"R\xe8gles")  # a Latin-1 terminal's byte, as argv hands it on
    code, err = run(capsys, *add_args(tmp_corpus, scan(tmp_path), title=bad_title))
    assert code == 2 and err.count("\n") == 1 and "UTF-8" in err
    bad_name = scan(tmp_path, os.fsdecode(b"sc\xe8n.txt"))
    code, err = run(capsys, *add_args(tmp_corpus, bad_name))
    assert code == 2 and err.count("\n") == 1 and "UTF-8" in err
    loop = tmp_path / "loop.txt"
    os.symlink(loop, loop)
    code, err = run(capsys, *add_args(tmp_corpus, loop))
    assert code == 2 and err.count("\n") == 1
    assert snapshot(tmp_corpus) == before


# --------------------------------------------------------------------------- ids


@pytest.mark.parametrize("wid", ["x" * 65, "alignments", "collation-ecarte", "collation-piquet", "Fr-1", "a--b"])
def test_add_refuses_an_id_that_would_break_the_corpus_or_an_output(capsys, tmp_corpus, tmp_path, wid):
    before = snapshot(tmp_corpus)
    code, err = run(capsys, *add_args(tmp_corpus, scan(tmp_path), wid=wid))
    assert code == 2 and err.count("\n") == 1 and "id" in err
    assert snapshot(tmp_corpus) == before


@pytest.mark.parametrize("wid", ['"x\\n"', '"alignments"', f'"{"a" * 299}"'])
def test_build_refuses_such_an_id_typed_in_the_metadata(capsys, tmp_corpus, tmp_path, wid):
    meta = tmp_corpus / "witnesses.toml"
    meta.write_text(meta.read_text("utf-8").replace('id = "fr-000"', f"id = {wid}", 1), "utf-8")
    code, err = run(capsys, "--corpus", tmp_corpus, "--out", tmp_path / "o", "--cache", tmp_path / "c", "build")
    assert code == 2 and err.count("\n") == 1 and "witness #1" in err
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------- one line instead of a traceback


def test_clean_with_standard_input_closed_is_one_line(capsys, monkeypatch):
    import sys

    monkeypatch.setattr(sys, "stdin", None)
    code, err = run(capsys, "clean", "-", "--lang", "en")
    assert code == 2 and "standard input" in err
    # the same from a shell: python -m pipeline clean - <&-
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "clean", "-", "--lang", "en"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(0),
        timeout=300,
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr and done.stderr.count(b"\n") == 1


# --------------------------------------------------------------------------- a witness cannot block the corpus


def test_line_separators_become_line_breaks_and_noncharacters_go_with_a_correction():
    from pipeline.clean.normalise import pass_control
    from pipeline.model import Correction, replay

    raw = "le coup.\x853. Si la\x0bcarte\ufffe est\u2028vue\x1con\u2029joue.\x85\nFin\ufdd0."
    edits = pass_control(raw)
    text = replay(raw, [Correction(e.start, e.end, raw[e.start : e.end], e.after, e.kind, e.method) for e in edits])
    assert text == "le coup.\n3. Si la\ncarte est\nvue\non\njoue.\nFin."
    assert all(e.evidence for e in edits)  # each one recorded with its reason


def test_a_witness_with_characters_xml_cannot_hold_builds_with_every_law(capsys, tmp_path):
    import csv

    from lxml import etree

    corpus = small_corpus(tmp_path / "corpus", ("en-002",))
    raw = corpus / "raw" / "002_abec79d8036d090d.txt"
    text = raw.read_text("utf-8")
    # the line breaks before three laws as other systems write them, and a noncharacter inside a law
    for number, sep in (("38.", "\x85"), ("39.", "\x0b"), ("40.", "\u2028")):
        text = text.replace(f"\n{number}", f"{sep}{number}", 1)
    text = text.replace("beginning at", "beginning\ufffe at", 1).replace("\n\n(b)", "\x1c(b)", 1)
    raw.write_text(text, "utf-8")
    out = tmp_path / "out"
    code, err = run(capsys, "--corpus", corpus, "--out", out, "--cache", tmp_path / "c", "build", "--quiet")
    assert code == 0, err
    tei = etree.parse(str(out / "tei" / "en-002.xml"))  # XML that parses
    assert tei.getroot() is not None
    rows = list(csv.DictReader((out / "laws.csv").open(encoding="utf-8")))
    expected = [r["law_id"] for r in csv.DictReader((ROOT / "outputs" / "laws.csv").open(encoding="utf-8"))]
    assert [r["law_id"] for r in rows] == [x for x in expected if ".en-002." in x]  # no law lost
    fixes = [r for r in csv.DictReader((out / "corrections.csv").open(encoding="utf-8")) if "U+" in r["evidence"]]
    assert {r["before"] for r in fixes} >= {"\x85", "\x0b", "\u2028", "\x1c", "\ufffe"}


def test_a_witness_that_fails_is_named_and_keep_going_builds_the_rest_never_silently(capsys, tmp_path, monkeypatch):
    import pipeline.build.witness as b  # (the module whose step calls it)

    corpus = small_corpus(tmp_path / "corpus", ("fr-001", "en-002", "en-003"))
    (corpus / "raw" / "003_30f2ea30674abb0f.txt").write_bytes(b"\xff\xfe\xfa binary \x00\x01")  # cannot be read
    real = b.process_witness

    def fails_on_fr_001(wt, corpus_dir, build_info):
        if wt.witness.id == "fr-001":
            raise ValueError("a stage failed")
        return real(wt, corpus_dir, build_info)

    monkeypatch.setattr(b, "process_witness", fails_on_fr_001)
    out, cache = tmp_path / "out", tmp_path / "cache"
    args = ["--corpus", corpus, "--out", out, "--cache", cache, "build", "--quiet"]
    code, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "003_30f2ea30674abb0f.txt" in err
    assert not (out / "laws.csv").exists()
    (corpus / "raw" / "003_30f2ea30674abb0f.txt").unlink()
    shutil.copy(ROOT / "corpus" / "raw" / "003_30f2ea30674abb0f.txt", corpus / "raw")
    code, err = run(capsys, *args)  # (now only fr-001 fails)
    assert code == 2 and err.count("\n") == 1
    assert "fr-001" in err and "raw/001_21f8114cbc522168.txt" in err and "--keep-going" in err
    (corpus / "raw" / "003_30f2ea30674abb0f.txt").write_bytes(b"\xff\xfe\xfa binary \x00\x01")
    code = main([str(a) for a in args + ["--keep-going"]])
    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err
    assert "fr-001" in captured.err and "en-003" in captured.err and "LEFT OUT" in captured.out
    assert (out / "text" / "en-002.txt").is_file() and not (out / "text" / "fr-001.txt").exists()
    # the next build tries the witnesses left out again (not "up to date")
    code = main([str(a) for a in args + ["--keep-going"]])
    assert code == 1 and "fr-001" in capsys.readouterr().err


# --------------------------------------------------------------------------- remove


def test_remove_takes_the_witness_out_of_every_output_at_the_next_build(capsys, tmp_path):
    import sqlite3

    corpus = small_corpus(tmp_path / "corpus", ("en-002", "en-003"))
    out, cache = tmp_path / "out", tmp_path / "cache"
    paths = ["--corpus", corpus, "--out", out, "--cache", cache]
    assert run(capsys, *paths, "build", "--quiet")[0] == 0
    assert b"en-003" in (out / "rules.json").read_bytes()  # (its curated rulings are cited)
    assert run(capsys, *paths, "remove", "en-003")[0] == 0
    assert run(capsys, *paths, "build", "--quiet")[0] == 0
    ghosts = [p for p in out.rglob("*") if p.is_file() and b"en-003" in p.read_bytes()]
    assert ghosts == []  # rule rows, citations, alignments, collations, TEI, site pages, tables
    with sqlite3.connect(out / "cardlaws.sqlite") as db:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_a_file_size_limit_while_writing_the_database_is_one_line(tmp_path):
    # ulimit -f: the write fails with EFBIG (Python ignores SIGXFSZ), inside SQLite
    import resource

    from pipeline.build import export_data
    from pipeline.errors import PipelineError
    from pipeline.publish import Staging

    staging = Staging(tmp_path / "out")
    for p in (ROOT / "outputs").glob("*.csv"):
        shutil.copy(p, staging.path(p.name))
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, hard))  # (the database is larger)
    try:
        with pytest.raises(PipelineError, match="ulimit -f"):
            export_data(staging, with_figures=False)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        staging.abort()


# --------------------------------------------------------------------------- clean on any size of input


def test_text_pieces_read_a_stream_as_the_whole_file_is_read(tmp_path):
    import io

    from pipeline.files import decode_scan, text_pieces

    text = "".join(f"{n}. Le joueur qui renonce\r\nperd la partie, cafe\u0301.\n\n" for n in range(400))
    data = text.encode("utf-8")
    pieces = list(text_pieces(io.BytesIO(data), "x", 1000, block=700))
    assert len(pieces) > 10 and all(len(p) <= 1000 for p in pieces)
    assert "".join(pieces) == decode_scan(data, "x")  # CRLF, NFC, the same text
    assert all(p.endswith("\n\n") for p in pieces)  # cut after a blank line
    utf16 = text.encode("utf-16")
    assert "".join(text_pieces(io.BytesIO(utf16), "x", 1000, block=700)) == decode_scan(utf16, "x")
    assert list(text_pieces(io.BytesIO(b"short\n"), "x", 1000)) == ["short\n"]
    long_line = "x" * 2500 + "\n"  # a line longer than a piece is kept whole (up to four pieces)
    assert list(text_pieces(io.BytesIO((long_line + "fin\n").encode()), "x", 1000, block=700)) == [long_line, "fin\n"]


@pytest.mark.parametrize("bad", [b"\xe8", b"\x00"])
def test_text_pieces_refuse_a_bad_byte_anywhere_in_one_line(bad):
    import io

    from pipeline.errors import InputFileError
    from pipeline.files import text_pieces

    data = b"Le joueur.\n" * 500 + bad + b"fin\n"
    with pytest.raises(InputFileError, match="byte 5500"):
        list(text_pieces(io.BytesIO(data), "x", 1000, block=700))


def test_clean_of_a_text_larger_than_a_piece_cleans_it_piece_by_piece(capsys, monkeypatch):
    import io
    import sys

    import pipeline.__main__ as cli

    raw = (ROOT / "corpus" / "raw" / "002_abec79d8036d090d.txt").read_text("utf-8")
    text = (raw.rstrip("\n") + "\n") * 3
    monkeypatch.setattr(cli, "PIECE_CHARS", 1500)
    outs = []
    for lines in (False, True):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
        assert main(["clean", "-", "--lang", "en", "--resources", "general"] + ["--lines"] * lines) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0].count("41. A player may not cut") == 3  # every piece cleaned and written, in order
    assert outs[1].count("\n") == text.count("\n")  # --lines: as many lines as the input
