"""The corpus metadata and raw files: strict validation, one-line errors, nothing half-written."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.__main__ import main
from pipeline.corpus import load_witnesses, witness_text
from pipeline.errors import CorpusError

from conftest import CORPUS, SHARED


def snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_corpus_has_the_five_seed_witnesses_of_four_files_and_the_revised_code():
    ws = load_witnesses(CORPUS)
    assert [w.id for w in ws] == ["fr-000", "fr-001", "en-002", "en-003", "en-003m", "en-004"]
    assert len({w.file for w in ws}) == 5
    en004 = ws[-1]
    assert (en004.game, en004.lang, en004.kind) == ("whist", "en", "transcription")
    assert (CORPUS / en004.file).read_bytes() == (SHARED / "witnesses" / "whist-en-revised-code-1900.txt").read_bytes()
    assert {w.game for w in ws} == {"ecarte", "whist"}


def test_raw_files_are_the_seeds_as_received(shared_dir):
    for seed in sorted((shared_dir / "seeds").glob("*.txt")):
        assert (CORPUS / "raw" / seed.name).read_bytes() == seed.read_bytes()


def test_one_file_two_witnesses_split_at_the_marker_line():
    ws = {w.id: w for w in load_witnesses(CORPUS)}
    ocr = witness_text(CORPUS, ws["en-003"])
    modern = witness_text(CORPUS, ws["en-003m"])
    assert "AI-modernized" not in ocr.raw and "AI-modernized" not in modern.raw
    assert ocr.raw.lstrip().startswith("Laws of the Game")
    assert modern.raw.lstrip().startswith("Laws of the Game")
    assert modern.offset > len(ocr.raw)
    assert "p>ack" in ocr.raw and "p>ack" not in modern.raw


def _set_entry(corpus: Path, old: str, new: str) -> None:
    meta = corpus / "witnesses.toml"
    text = meta.read_text(encoding="utf-8")
    assert old in text
    meta.write_text(text.replace(old, new, 1), encoding="utf-8")


BAD_INPUTS = {
    "missing raw file": (lambda c: (c / "raw" / "001_21f8114cbc522168.txt").unlink(), "no such file"),
    "not UTF-8": (
        lambda c: (c / "raw" / "001_21f8114cbc522168.txt").write_bytes("Règle donnée".encode("latin-1")),
        "not valid UTF-8",
    ),
    "binary file": (lambda c: (c / "raw" / "001_21f8114cbc522168.txt").write_bytes(b"\x89PNG\x00\x00\x01"), "binary"),
    "empty file": (lambda c: (c / "raw" / "001_21f8114cbc522168.txt").write_bytes(b"\n  \n"), "empty"),
    "web page": (
        lambda c: (c / "raw" / "001_21f8114cbc522168.txt").write_bytes(
            b"\xef\xbb\xbf\n<!DOCTYPE html>\n<html><body><p>1. If a card is faced...</p></body></html>\n"
        ),
        "this is an HTML page, not the scan's plain text",
    ),
    "ALTO XML": (
        lambda c: (c / "raw" / "001_21f8114cbc522168.txt").write_bytes(
            b'<?xml version="1.0" encoding="UTF-8"?>\n<alto xmlns="http://www.loc.gov/standards/alto/ns-v4#"/>\n'
        ),
        "this is an XML document (<?xml",
    ),
    "unknown field": (
        lambda c: _set_entry(c, 'id = "fr-001"', 'id = "fr-001"\ncolour = "red"'),
        "unknown field 'colour'",
    ),
    "missing required field": (
        lambda c: _set_entry(c, 'lang = "en"\nkind = "transcription"', 'kind = "transcription"'),
        "missing required field 'lang'",
    ),
    "duplicate id": (lambda c: _set_entry(c, 'id = "en-002"', 'id = "fr-001"'), "two witnesses have the id 'fr-001'"),
    "malformed metadata": (lambda c: _set_entry(c, 'game = "whist"', 'game = "whist'), "malformed TOML"),
    "bad value": (lambda c: _set_entry(c, 'game = "whist"', 'game = "bridge"'), "not one of ecarte, whist"),
    "marker not found": (
        lambda c: _set_entry(c, 'end_before = "AI-modernized', 'end_before = "No such marker'),
        "not found",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_error_and_outputs_unchanged(case, tmp_corpus, tmp_path, capsys):
    out = tmp_path / "outputs"
    out.mkdir()
    (out / "laws.csv").write_text("law_id\nprevious\n", encoding="utf-8")
    before = snapshot(out)
    damage, message = BAD_INPUTS[case]
    damage(tmp_corpus)
    status = main(
        ["--corpus", str(tmp_corpus), "--out", str(out), "--cache", str(tmp_path / "cache"), "build", "--quiet"]
    )
    err = capsys.readouterr().err
    assert status != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert message in lines[0]
    assert snapshot(out) == before


def test_add_refuses_non_utf8_and_duplicates_without_writing(tmp_corpus, tmp_path, capsys):
    meta_before = (tmp_corpus / "witnesses.toml").read_bytes()
    raw_before = sorted(p.name for p in (tmp_corpus / "raw").iterdir())
    bad = tmp_path / "scan.txt"
    bad.write_bytes("Loi première".encode("cp1252"))
    common = ["--game", "ecarte", "--lang", "fr", "--kind", "ocr", "--title", "T"]
    assert main(["--corpus", str(tmp_corpus), "add", str(bad), "--id", "fr-900", *common]) == 2
    assert "not valid UTF-8" in capsys.readouterr().err
    dup = tmp_path / "copy.txt"
    dup.write_bytes((CORPUS / "raw" / "000_c07e0ee7da536d04.txt").read_bytes())
    assert main(["--corpus", str(tmp_corpus), "add", str(dup), "--id", "fr-900", *common]) == 2
    assert "already in the corpus" in capsys.readouterr().err
    page = tmp_path / "page.html"
    page.write_text("<html>\n<body>1. Une loi.</body></html>\n", encoding="utf-8")
    assert main(["--corpus", str(tmp_corpus), "add", str(page), "--id", "fr-900", *common]) == 2
    assert "HTML page" in capsys.readouterr().err
    good = tmp_path / "new.txt"
    good.write_text("1. Une loi.\n", encoding="utf-8")
    assert main(["--corpus", str(tmp_corpus), "add", str(good), "--id", "fr-000", *common]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_corpus / "witnesses.toml").read_bytes() == meta_before
    assert sorted(p.name for p in (tmp_corpus / "raw").iterdir()) == raw_before


def test_add_registers_a_scan_that_then_loads(tmp_corpus, tmp_path):
    scan = tmp_path / "whist_1850.txt"
    scan.write_text("LOIS DU WHIST\n1. On coupe.\n2. On donne.\n", encoding="utf-8")
    status = main(
        [
            "--corpus",
            str(tmp_corpus),
            "add",
            str(scan),
            "--id",
            "fr-900",
            "--game",
            "whist",
            "--lang",
            "fr",
            "--kind",
            "ocr",
            "--title",
            "Lois du whist",
            "--year",
            "1850",
        ]
    )
    assert status == 0
    ws = {w.id: w for w in load_witnesses(tmp_corpus)}
    assert ws["fr-900"].year == 1850 and ws["fr-900"].file == "raw/whist_1850.txt"
    assert witness_text(tmp_corpus, ws["fr-900"]).raw.startswith("LOIS DU WHIST")


def test_unknown_witness_error_lists_known_ids():
    from pipeline.corpus import get_witness
    from pipeline.errors import UnknownWitnessError

    with pytest.raises(UnknownWitnessError, match="known witnesses: fr-000, fr-001"):
        get_witness(load_witnesses(CORPUS), "fr-999")


def test_metadata_errors_name_the_file(tmp_corpus):
    (tmp_corpus / "witnesses.toml").write_text("[[witness]]\nid = 'x'\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"witnesses\.toml: witness #1: missing required field 'file'"):
        load_witnesses(tmp_corpus)


def test_a_scan_with_markup_inside_its_text_is_still_read_as_text():
    from pipeline.files import decode_scan

    # (web debris and an OCR's stray brackets inside the text are the cleaner's work, not a refusal)
    for text in ("1. Le <b>joueur</b> donne.\n", "<1> LAWS OF WHIST\n<html> as printed in a footnote\n"):
        assert decode_scan(text.encode("utf-8"), "scan.txt") == text


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_a_scan_saved_with_a_unicode_byte_order_mark_reads_as_its_utf8_copy(tmp_corpus, encoding):
    # (Windows Notepad's "Unicode" is UTF-16 with a BOM: its NUL bytes once made it "a binary file")
    ws = {w.id: w for w in load_witnesses(tmp_corpus)}
    before = witness_text(tmp_corpus, ws["fr-001"])
    path = tmp_corpus / ws["fr-001"].file
    path.write_bytes(path.read_text("utf-8").encode(encoding))
    assert witness_text(tmp_corpus, ws["fr-001"]) == before
