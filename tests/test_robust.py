"""Hostile input, two commands at once, failures while publishing. Each numbered case below is a failure
that was seen, and its test reproduces it (the cleaning's own bounds are tested with the cleaning)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.__main__ import main
from pipeline.build import BuildOptions, build
from pipeline.corpus import add_witness, load_witnesses, remove_witness, witness_text
from pipeline.errors import CorpusError, PipelineError

from conftest import CORPUS, ROOT, SMALL, small_corpus


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def one_line_error(err: str) -> None:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err


# ------------------------------------------------------------------ case 3: one build at a time


def test_the_lock_refuses_or_waits_and_dies_with_its_holder(tmp_path):
    from pipeline.lock import BusyError, checkout_lock

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time; sys.path.insert(0, sys.argv[1]); from pathlib import Path\n"
                "from pipeline.lock import checkout_lock\n"
                "with checkout_lock(Path(sys.argv[2]), 'build'):\n    print('locked', flush=True); time.sleep(60)"
            ),
            str(ROOT),
            str(corpus),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(BusyError, match="another command"):
            with checkout_lock(corpus, "add", wait=False):
                pass
        with pytest.raises(BusyError, match="still holds"):
            with checkout_lock(corpus, "add", timeout=0.5):
                pass
        holder.kill()  # the kernel releases the lock of a dead process: no stale lock
        holder.wait()
        with checkout_lock(corpus, "add", wait=False):
            pass
    finally:
        holder.kill()


def test_add_during_a_build_waits_for_it_and_the_next_build_keeps_the_new_witness(tmp_path, capsys):
    # case 3: build --no-cache, add a second later, then a second build: nothing may interleave (the build
    # runs in a process of its own, the add and the commands after it in this one)
    corpus, out, cache = small_corpus(tmp_path / "corpus"), tmp_path / "out", tmp_path / "cache"
    paths = ["--corpus", str(corpus), "--out", str(out), "--cache", str(cache)]
    first = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *paths, "build", "--no-cache", "--quiet"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lock = tmp_path / ".pipeline.lock"
    deadline = time.monotonic() + 60
    while not (lock.is_file() and lock.read_text().startswith("build")) and time.monotonic() < deadline:
        time.sleep(0.05)
    scan = tmp_path / "w1.txt"
    scan.write_text("Law 1. The revoke is a penalty of three tricks.\n", encoding="utf-8")
    added = main(
        [*paths, "add", str(scan), "--id", "w1", "--game", "whist", "--lang", "en", "--kind", "ocr", "--title", "Hoyle"]
    )
    added_err = capsys.readouterr().err
    assert first.wait() == 0 and added == 0, added_err
    assert "waiting for another command (build pid" in added_err
    second = main([*paths, "build", "--quiet"])
    assert second == 0, capsys.readouterr().err
    assert (out / "text" / "w1.txt").is_file() and (out / "tei" / "w1.xml").is_file()
    assert main([*paths, "status"]) == 0
    status = capsys.readouterr().out
    assert "w1 " in status and "stale" not in status and "missing" not in status


# ------------------------------------------------------------------ case 5: publishing all or nothing


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A small corpus built once (with a cache): later builds of it are fast."""
    base = tmp_path_factory.mktemp("built")
    corpus, out, cache = small_corpus(base / "corpus"), base / "out", base / "cache"
    build(BuildOptions(corpus_dir=corpus, out_dir=out, cache_dir=cache))
    return corpus, out, cache


def _copy_built(built, tmp_path):
    corpus, out, cache = built
    shutil.copytree(corpus, tmp_path / "corpus")
    shutil.copytree(out, tmp_path / "out")
    shutil.copytree(cache, tmp_path / "cache")
    shutil.copy(out.parent / ".out.manifest.json", tmp_path / ".out.manifest.json")
    return tmp_path / "corpus", tmp_path / "out", tmp_path / "cache"


def _add_small(corpus: Path, tmp_path: Path, wid: str = "w1") -> None:
    scan = tmp_path / f"{wid}.txt"
    scan.write_text("1. Whoever deals out of turn loses the deal.\n2. A revoke costs three tricks.\n", "utf-8")
    add_witness(corpus, scan, id=wid, game="whist", lang="en", kind="ocr", title="Hoyle")


@pytest.mark.parametrize("when", ["tables", "tei", "site", "carry", "swap"])
def test_a_failure_at_any_moment_of_publishing_leaves_the_old_outputs_whole(built, tmp_path, monkeypatch, when):
    import pipeline.build.run as b  # (the module whose steps call it)
    import pipeline.publish as publish

    corpus, out, cache = _copy_built(built, tmp_path)
    (out / "eval").mkdir()
    (out / "eval" / "kept.txt").write_text("a file the build does not make", "utf-8")
    before = tree(out)
    _add_small(corpus, tmp_path)

    def boom(*a, **k):
        raise PermissionError(13, "Permission denied", str(out / "site" / "witness"))

    real_write = publish.Staging.write
    if when == "tables":
        monkeypatch.setattr(b, "witnesses_frame", boom)
    elif when in ("tei", "site"):
        monkeypatch.setattr(
            publish.Staging,
            "write",
            lambda self, rel, data: boom() if rel.startswith(when + "/") else real_write(self, rel, data),
        )
    elif when == "carry":
        monkeypatch.setattr(publish, "_carry", boom)
    else:
        monkeypatch.setattr(publish.os, "rename", boom)
        monkeypatch.setattr(publish, "_exchange", lambda a, b: boom())
    assert main(["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "build", "--quiet"]) == 2
    assert tree(out) == before
    assert not [p for p in tmp_path.iterdir() if ".staging-" in p.name or ".old-" in p.name]


def test_a_read_only_subfolder_does_not_mix_old_and_new_outputs(built, tmp_path, capsys):
    # case 5 (chattr +i outputs/site/witness): with a directory swap the new tree is whole, the old one goes
    corpus, out, cache = _copy_built(built, tmp_path)
    _add_small(corpus, tmp_path)
    frozen = out / "site" / "witness"
    immutable = subprocess.run(["chattr", "+i", str(frozen)], capture_output=True).returncode == 0
    try:
        if not immutable:
            os.chmod(frozen, 0o555)
        assert main(["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "build", "--quiet"]) == 0
    finally:
        for p in tmp_path.glob(".out.*-*"):  # the old tree, if it could not be removed
            subprocess.run(["chattr", "-R", "-i", str(p)], capture_output=True)
        subprocess.run(["chattr", "-i", str(frozen)], capture_output=True)
    index = (out / "site" / "index.html").read_text("utf-8")
    assert "w1" in index and (out / "site" / "witness" / "w1.html").is_file()
    assert "w1" in (out / "witnesses.csv").read_text("utf-8") and (out / "tei" / "w1.xml").is_file()


def test_outputs_that_cannot_be_replaced_are_one_line_error_and_stay_whole(built, tmp_path, capsys, monkeypatch):
    # case 9: outputs on a read-only file system
    import pipeline.publish as publish

    corpus, out, cache = _copy_built(built, tmp_path)
    before = tree(out)
    _add_small(corpus, tmp_path)

    def erofs(*a, **k):
        raise OSError(30, "Read-only file system", str(out))

    monkeypatch.setattr(publish.Path, "mkdir", erofs)
    assert main(["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "build", "--quiet"]) == 2
    one_line_error(capsys.readouterr().err)
    monkeypatch.undo()
    monkeypatch.setattr(publish, "swap_in", erofs)
    assert main(["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "build", "--quiet"]) == 2
    err = capsys.readouterr().err
    one_line_error(err)
    assert "Read-only file system" in err and "old outputs are unchanged" in err
    assert tree(out) == before


def test_leftovers_of_dead_builds_are_removed_or_restored_by_the_next_build(built, tmp_path):
    corpus, out, cache = _copy_built(built, tmp_path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    (tmp_path / f".out.staging-{pid}" / "text").mkdir(parents=True)
    (tmp_path / f".out.staging-{pid}" / "text" / "half.txt").write_text("half", "utf-8")
    (tmp_path / f".out.staging-{pid}" / ".cardlaws-outputs").write_text("", "utf-8")  # (as a build's staging has)
    build(BuildOptions(corpus_dir=corpus, out_dir=out, cache_dir=cache))
    assert not (tmp_path / f".out.staging-{pid}").exists()
    # a two-rename swap that died half-way: outputs/ gone, the old tree beside it
    whole = tree(out)
    out.rename(tmp_path / f".out.old-{pid}")
    build(BuildOptions(corpus_dir=corpus, out_dir=out, cache_dir=cache))
    assert tree(out) == whole and not (tmp_path / f".out.old-{pid}").exists()


def test_status_checks_the_outputs_against_the_last_build(built, tmp_path, capsys):
    # case 5: after an interrupted build status said "up to date" for a witness missing from outputs/
    corpus, out, cache = _copy_built(built, tmp_path)
    args = ["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "status"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert f"{SMALL}" in text and "up to date" in text and "as the last build wrote them" in text
    (out / "text" / f"{SMALL}.txt").unlink()
    (out / "laws.csv").write_text("edited\n", "utf-8")
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "outputs missing" in text and "text/en-002.txt" in text
    assert "1 edited since the last build: laws.csv" in text
    # outputs built before the manifest was kept: a build with nothing to do records it
    assert main(["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "build", "--quiet"]) == 0
    (tmp_path / ".out.manifest.json").unlink()
    assert main(["--corpus", str(corpus), "--out", str(out), "--cache", str(cache), "build", "--quiet"]) == 0
    capsys.readouterr()
    assert main(args) == 0
    assert "as the last build wrote them" in capsys.readouterr().out


# ------------------------------------------------------------------ case 4: add, remove


def test_add_with_short_fields_writes_metadata_that_reads_back(tmp_corpus, tmp_path):
    # case 4: tomli_w wrote `witness = [ {...} ]`, read by TOML as a field of the previous witness
    scan = tmp_path / "w1.txt"
    scan.write_text("Law 1. The revoke.\n", "utf-8")
    before = load_witnesses(tmp_corpus)
    assert (
        main(
            [
                "--corpus",
                str(tmp_corpus),
                "add",
                str(scan),
                "--id",
                "w1",
                "--game",
                "whist",
                "--lang",
                "en",
                "--kind",
                "ocr",
                "--title",
                "Hoyle",
            ]
        )
        == 0
    )
    after = load_witnesses(tmp_corpus)
    assert after[:-1] == before and after[-1].id == "w1" and after[-1].title == "Hoyle"
    scan2 = tmp_path / "w2.txt"
    scan2.write_text("Law 2. The deal.\n", "utf-8")
    add_witness(tmp_corpus, scan2, id="w2", game="whist", lang="en", kind="ocr", title="H")
    assert [w.id for w in load_witnesses(tmp_corpus)][-2:] == ["w1", "w2"]


safe_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(str.strip)
file_names = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=30
).filter(lambda s: s not in (".", "..") and len(s.encode()) < 200)
ids = st.from_regex(r"\A[a-z0-9]{1,6}(-[a-z0-9]{1,4}){0,2}\Z")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wid=ids, title=safe_text, author=safe_text, note=st.text(max_size=40), name=file_names)
def test_add_writes_entries_that_read_back_exactly(tmp_path_factory, wid, title, author, note, name):
    corpus = tmp_path_factory.mktemp("c")
    (corpus / "raw").mkdir()
    (corpus / "raw" / "a.txt").write_text("1. A law.\n", "utf-8")
    (corpus / "witnesses.toml").write_text(
        '# a comment\n[[witness]]\nid = "zz-0"\nfile = "raw/a.txt"\ngame = "whist"\nlang = "en"\nkind = "ocr"\n'
        'title = "T"\n',
        "utf-8",
    )
    scan = tmp_path_factory.mktemp("s") / name
    scan.write_text(f"1. {title}\n", "utf-8")
    try:
        w = add_witness(
            corpus, scan, id=wid, game="whist", lang="en", kind="ocr", title=title, author=author, note=note
        )
    except CorpusError as exc:  # refused: then nothing was written
        assert "already" in str(exc) or "control characters" in str(exc), exc
        return
    got = load_witnesses(corpus)
    assert len(got) == 2 and got[1] == w
    nfc = lambda s: unicodedata.normalize("NFC", s)  # noqa: E731 (every text file is read NFC-normalised)
    assert (got[1].id, got[1].title, got[1].author, got[1].note, got[1].file) == (
        wid,
        nfc(title),
        nfc(author),
        nfc(note),
        f"raw/{nfc(name)}",
    )
    assert witness_text(corpus, got[1]).raw == f"1. {nfc(title)}\n"
    assert (corpus / got[1].file).read_bytes() == scan.read_bytes()


def test_add_refuses_a_whitespace_only_scan(tmp_corpus, tmp_path, capsys):
    before = (tmp_corpus / "witnesses.toml").read_bytes()
    for i, blank in enumerate(["   \n\t\n", "\ufeff\n", "\u3000\u00a0\n\n"]):
        scan = tmp_path / f"blank{i}.txt"
        scan.write_text(blank, "utf-8")
        assert (
            main(
                [
                    "--corpus",
                    str(tmp_corpus),
                    "add",
                    str(scan),
                    "--id",
                    f"b{i}",
                    "--game",
                    "whist",
                    "--lang",
                    "en",
                    "--kind",
                    "ocr",
                    "--title",
                    "Blank",
                ]
            )
            == 2
        )
        one_line_error(capsys.readouterr().err)
        assert not (tmp_corpus / "raw" / scan.name).exists()
    assert (tmp_corpus / "witnesses.toml").read_bytes() == before


def test_remove_takes_a_witness_out_and_its_outputs_go_at_the_next_build(built, tmp_path, capsys):
    corpus, out, cache = _copy_built(built, tmp_path)
    original = (corpus / "witnesses.toml").read_text("utf-8")
    _add_small(corpus, tmp_path)
    args = ["--corpus", str(corpus), "--out", str(out), "--cache", str(cache)]
    assert main([*args, "build", "--quiet"]) == 0
    assert (out / "text" / "w1.txt").is_file()
    assert main([*args, "remove", "w1"]) == 0
    assert (corpus / "witnesses.toml").read_text("utf-8").rstrip("\n") == original.rstrip("\n")
    assert (corpus / "raw" / "w1.txt").is_file()  # the raw file stays unless asked
    assert main([*args, "status"]) == 0
    assert "still hold removed witnesses w1" in capsys.readouterr().out
    assert main([*args, "build", "--quiet"]) == 0
    assert not (out / "text" / "w1.txt").exists() and not (out / "tei" / "w1.xml").exists()
    assert "w1" not in (out / "witnesses.csv").read_text("utf-8")
    capsys.readouterr()
    assert main([*args, "remove", "w1"]) == 2
    one_line_error(capsys.readouterr().err)


def test_remove_keeps_comments_and_a_raw_file_another_witness_uses(tmp_corpus):
    text = (tmp_corpus / "witnesses.toml").read_text("utf-8")
    before = [x.id for x in load_witnesses(tmp_corpus)]
    w, deleted = remove_witness(tmp_corpus, "en-003m", delete_raw=True)  # cut from the file of en-003
    assert deleted is None and (tmp_corpus / w.file).is_file()
    ids = [x.id for x in load_witnesses(tmp_corpus)]
    assert "en-003m" not in ids and len(ids) == len(before) - 1
    assert (tmp_corpus / "witnesses.toml").read_text("utf-8").startswith(text.split("[[witness]]")[0])
    w, deleted = remove_witness(tmp_corpus, "fr-000", delete_raw=True)
    assert deleted is not None and not deleted.exists()
    assert [x.id for x in load_witnesses(tmp_corpus)] == [i for i in ids if i != "fr-000"]


# ------------------------------------------------------------------ case 6: paths stay inside corpus/


@pytest.mark.parametrize("target", ["/etc/os-release", "../../../../etc/hostname", "raw/../../x.txt", "link"])
def test_a_witness_file_outside_the_corpus_is_a_one_line_error(tmp_corpus, tmp_path, capsys, target):
    if target == "link":
        (tmp_corpus / "raw" / "link.txt").symlink_to("/etc/hostname")
        target = "raw/link.txt"
    meta = tmp_corpus / "witnesses.toml"
    meta.write_text(
        meta.read_text("utf-8") + f'\n[[witness]]\nid = "x-1"\nfile = "{target}"\ngame = "whist"\n'
        'lang = "en"\nkind = "ocr"\ntitle = "Escape"\n',
        "utf-8",
    )
    for command in (["build", "--quiet"], ["status"]):
        assert main(["--corpus", str(tmp_corpus), "--out", str(tmp_path / "out"), *command]) == 2
        err = capsys.readouterr().err
        one_line_error(err)
        assert "outside the corpus" in err or "relative to the corpus" in err
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ case 9: the referee


def test_referee_on_a_json_list_and_a_fact_given_twice_are_one_line_errors(tmp_path, capsys):
    rules = tmp_path / "rules.json"
    rules.write_text("[1, 2]\n", "utf-8")
    assert main(["referee", "ecarte", "deal_out_of_turn", "--rules", str(rules)]) == 2
    one_line_error(capsys.readouterr().err)
    assert main(["referee", "ecarte", "deal_out_of_turn", "discovered=before_turn_up", "discovered=after_turn_up"]) == 2
    err = capsys.readouterr().err
    one_line_error(err)
    assert "given twice" in err


# ------------------------------------------------------------------ case 2: books of any length


@settings(max_examples=200, deadline=None)
@given(text=st.text(st.sampled_from("ab .\n!,"), max_size=400), max_chars=st.integers(2, 50))
def test_pieces_cover_the_text_in_bounded_order(text, max_chars):
    from pipeline.nlp import pieces

    got = list(pieces(text, max_chars))
    assert "".join(text[a:b] for a, b in got) == text
    assert all(0 < b - a <= max_chars for a, b in got) or text == ""
    assert all(b == c for (_, b), (c, _) in zip(got, got[1:]))


def test_every_spacy_call_gets_bounded_pieces_of_a_text_past_spacys_limit(monkeypatch):
    # case 2: spaCy's E088 at 1,000,000 characters stopped the build of a 1.2 MB witness
    from pipeline import nlp as shared
    from pipeline.model import Law
    from pipeline.rules import load_patterns, suggest_rulings
    from pipeline.segment import SegmentConfig, sentences

    sizes: list[int] = []
    real_pieces = shared.pieces

    def spy(text, max_chars=shared.MAX_CHARS, start=0, end=None):
        for a, b in real_pieces(text, max_chars, start, end):
            sizes.append(b - a)
            yield a, b

    monkeypatch.setattr(shared, "pieces", spy)
    book = "The elder hand may ask for cards, and the dealer may refuse them. " * 20_000  # 1.3 MB, one line
    assert len(book) > 1_000_000
    starts = sentences(book, 0, len(book), "en", SegmentConfig())
    assert len(starts) == 20_000 and starts[1] == book.index("The", 1)
    law = Law(
        id="bk.law-1",
        witness_id="bk",
        game="ecarte",
        lang="en",
        kind="law",
        number=1,
        printed="1",
        label="1",
        order=0,
        text=book,
        start=0,
        end=len(book),
        pages=(),
        confidence=1.0,
        complete=True,
        heading="",
        evidence="",
    )
    suggest_rulings([law], load_patterns(CORPUS))
    assert sizes and max(sizes) <= shared.MAX_CHARS


def test_progress_bars_show_on_a_terminal_only(tmp_path, capsys, monkeypatch):
    import pty
    import struct
    import termios
    import fcntl

    code = (
        "from pipeline import nlp\nn = nlp.blank('en'); n.add_pipe('sentencizer')\n"
        # (212,500 characters: past the length from which a bar is drawn, pipeline.progress.MIN_CHARS)
        "import time\nfor _ in nlp.docs(n, 'The deal passes. ' * 12500, desc='segment: sentences'):\n"
        "    time.sleep(0.01)\n"
    )

    def run(env_extra: dict) -> bytes:
        """What the code writes on its stderr, a terminal."""
        env = {**os.environ, "PIPELINE_PROGRESS": "", **env_extra}
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        p = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stderr=slave, stdout=subprocess.DEVNULL)
        os.close(slave)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        p.wait()
        os.close(master)
        return out

    assert b"segment: sentences" in run({})

    # the other two cases in this process: --quiet on a terminal, and no terminal
    import io

    from pipeline import nlp

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    import spacy

    n = spacy.blank("en")  # (not the process's shared blank pipeline: a sentencizer of its own)
    n.add_pipe("sentencizer")
    text = "The deal passes. " * 12500
    monkeypatch.setenv("PIPELINE_PROGRESS", "0")  # --quiet
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert sum(1 for _ in nlp.docs(n, text, desc="segment: sentences")) > 1
    assert "segment: sentences" not in sys.stderr.getvalue()
    monkeypatch.undo()
    monkeypatch.setenv("PIPELINE_PROGRESS", "")
    assert sum(1 for _ in nlp.docs(n, text, desc="segment: sentences")) > 1
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------ fuzz: a one-witness build of any text


@pytest.fixture(scope="module")
def fuzz_corpus(tmp_path_factory):
    return small_corpus(tmp_path_factory.mktemp("fuzz") / "corpus")


letters = st.sampled_from("abcdefghijklmnopqrstuvwxyzéèàçœ")
hostile = st.one_of(
    st.text(max_size=400),  # any code point, surrogates and controls included
    st.lists(st.text(letters, min_size=1, max_size=80), min_size=1, max_size=30).map(" ".join),  # long tokens
    st.text(letters, min_size=50, max_size=120),  # no spaces at all
    st.text(st.sampled_from("1234567890.()§ \n\t-—ﬁæ«»IVXLCivx\x0c\u00ad\u200b"), max_size=400),  # numbering debris
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(text=hostile, lang=st.sampled_from(["en", "fr"]))
@example(text="=0\x1f–\n0", lang="en")  # (a control character in a running head's raw text: lxml refused its fw)
def test_a_one_witness_build_of_any_text_ends_in_outputs_or_a_one_line_error(fuzz_corpus, tmp_path_factory, text, lang):
    import resource

    raw = fuzz_corpus / "raw" / "fuzz.txt"
    raw.write_bytes(text.encode("utf-8", "surrogatepass"))
    (fuzz_corpus / "witnesses.toml").write_text(
        f'[[witness]]\nid = "fz-1"\nfile = "raw/fuzz.txt"\ngame = "whist"\nlang = "{lang}"\nkind = "ocr"\n'
        'title = "Fuzz"\n',
        "utf-8",
    )
    out = tmp_path_factory.mktemp("fuzz-out") / "out"
    try:  # (a build of one small witness takes well under 120 s: measured by `make bench`)
        report = build(BuildOptions(corpus_dir=fuzz_corpus, out_dir=out))
    except PipelineError as exc:  # a user's error: one line, outputs untouched
        assert "\n" not in str(exc) and not out.exists()
    else:
        assert report.witnesses == 1 and (out / "text" / "fz-1.txt").is_file() and (out / "tei" / "fz-1.xml").is_file()
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 3 * 2**20  # KiB: 3 GiB for the whole test process


# ------------------------------------------------------------------ case 8: make bench


def test_a_local_cluster_shuts_down_without_tracebacks(tmp_path):
    # a consumer that reads exactly its results (never the generator's end), or stops early with tasks in
    # flight, left a suspended generator that the garbage collector closed on a closed event loop
    code = (
        "from pipeline.build import Mapper\n"
        "def slow(x):\n    import time; time.sleep(1); return x\n"
        "if __name__ == '__main__':\n"
        "    with Mapper('local:2') as m:\n"
        "        it = m.imap(abs, [-1, -2, -3])\n"
        "        assert [next(it) for _ in range(3)] == [1, 2, 3]\n"
        "        m.fresh_workers()\n"
        "        it = m.imap(slow, list(range(8)))\n"
        "        assert next(it) == 0\n"
        "    print('closed')\n"
    )
    script = tmp_path / "shutdown_check.py"  # (not beside .cache/pipeline, a folder that would shadow the package)
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(code, "utf-8")
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        script.unlink()
    assert done.returncode == 0 and done.stdout.strip() == "closed", done.stderr
    assert "Traceback" not in done.stderr and "CommClosedError" not in done.stderr, done.stderr


def test_bench_prints_the_speed_up_whatever_the_results_file_holds(tmp_path, monkeypatch, capsys):
    import measure.bench_build as bench

    def fake_run(sizes, target_bytes, shared, work, one, two, books, book_kinds):
        b = lambda w, s: {"workers": w, "commit": "c", "wall_s": s, "peak_mem_mib": 900, "worker_peak_mib": 500}  # noqa: E731
        return {
            "date": "d",
            "machine": "m",
            "witness_bytes": 100_000,
            "sizes": [
                {
                    "witnesses": 100,
                    "ocr_mb": 10.2,
                    "witness_bytes": 100_000,
                    "one_worker": b(1, 326.0),
                    "two_workers": b(2, 189.0),
                    "add_one": b(2, 20.0),
                    "add_one_fraction_of_full": 0.1,
                }
            ],
        }

    monkeypatch.setattr(bench, "run", fake_run)
    results = tmp_path / "build.json"
    for old in (None, '{"sizes": [{"witnesses": 100}]}', "[]"):  # none, another layout, not an object
        if old is not None:
            results.write_text(old, "utf-8")
        assert bench.main(["--out", str(results), "--work", str(tmp_path / "w"), "--books", "none"]) == 0
        table = capsys.readouterr().out
        assert "1.72" in table and "None" not in table.split("speed-up", 1)[1].splitlines()[1]
        assert json.loads(results.read_text("utf-8"))["sizes"][0]["speedup_2_over_1"] == 1.72
