"""The whole build: deterministic, incremental, committed outputs reproducible byte for byte."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.__main__ import main
from pipeline.build import BuildOptions, build

from conftest import FRESH_CACHE, OUTPUTS

pytestmark = pytest.mark.integration


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "eval" not in p.relative_to(folder).parts and "bench" not in p.relative_to(folder).parts
    }


def test_committed_outputs_are_rebuilt_byte_for_byte(fresh_build):
    out, _ = fresh_build
    built, committed = tree(out), tree(OUTPUTS)
    assert sorted(built) == sorted(committed), "run `make` and commit outputs/"
    changed = [k for k in built if built[k] != committed[k]]
    assert not changed, f"outputs differ from a fresh build: {changed[:5]} (run `make` and commit outputs/)"


def test_every_witness_has_a_reading_text_and_a_row(fresh_build):
    out, report = fresh_build
    witnesses = pd.read_csv(out / "witnesses.csv")
    assert list(witnesses["id"]) == ["fr-000", "fr-001", "en-002", "en-003", "en-003m", "en-004"]
    for wid in witnesses["id"]:
        text = (out / "text" / f"{wid}.txt").read_text(encoding="utf-8")
        assert len(text) > 500
    assert report.witnesses == 6


def test_a_law_with_clauses_reads_each_clause_once(fresh_build):
    # the reading text prints a law's own words, then each clause as a paragraph of its own: a clause's text
    # is never printed twice (once inside its law's paragraph, once as its own)
    out, _ = fresh_build
    laws = pd.read_csv(out / "laws.csv", keep_default_na=False)
    clauses = laws[laws["kind"] == "clause"]
    assert len(clauses) >= 3 and set(clauses["parent"]) <= set(laws["law_id"])
    for wid, group in clauses.groupby("witness"):
        text = (out / "text" / f"{wid}.txt").read_text(encoding="utf-8")
        for clause in group["text"]:
            assert text.count(clause) == 1, (wid, clause[:60])


def test_law_ids_are_shared_by_tables_tei_and_alignments(fresh_build):
    out, _ = fresh_build
    laws = set(pd.read_csv(out / "laws.csv")["law_id"])
    links = pd.read_csv(out / "alignments.csv")
    assert set(links["law_a"]) <= laws and set(links["law_b"]) <= laws
    tei = (out / "tei" / "fr-000.xml").read_text(encoding="utf-8")
    assert 'xml:id="ecarte.fr-000.law-13"' in tei


def test_adding_a_scan_reprocesses_only_that_scan(fresh_build, built_copy, tmp_corpus, tmp_path, capsys):
    first = fresh_build[1]  # (built from an empty cache; ``built_copy`` holds a copy of its outputs and cache)
    assert sorted(first.processed) == ["en-002", "en-003", "en-003m", "en-004", "fr-000", "fr-001"]
    out, cache = built_copy
    again = build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache))
    assert again.processed == () and again.written == ()
    scan = tmp_path / "ecarte_1890.txt"
    scan.write_text(
        "RÈGLES DE L'ÉCARTÉ\n1. Celui qui donne mal perd la main.\n"
        "2. Si une carte est retournée en donnant, le coup est bon.\n"
        "3. Celui qui joue avec plus de cinq cartes perd un point.\n",
        encoding="utf-8",
    )
    assert (
        main(
            [
                "--corpus",
                str(tmp_corpus),
                "add",
                str(scan),
                "--id",
                "fr-900",
                "--game",
                "ecarte",
                "--lang",
                "fr",
                "--kind",
                "ocr",
                "--title",
                "Règles de l'Écarté",
            ]
        )
        == 0
    )
    third = build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache))
    assert third.processed == ("fr-900",)
    laws = pd.read_csv(out / "laws.csv")
    assert list(laws.loc[laws["witness"] == "fr-900", "number"]) == [1, 2, 3]
    assert (out / "tei" / "fr-900.xml").is_file()


def test_status_reports_stale_witnesses(fresh_build, tmp_corpus, tmp_path, capsys):
    cache = tmp_path / "cache"
    assert main(["--corpus", str(tmp_corpus), "--cache", str(cache), "status"]) == 0
    assert capsys.readouterr().out.count("stale") == 6
    shutil.copytree(fresh_build[0].parent / FRESH_CACHE, cache)  # (the per-witness results of the fresh build)
    build(BuildOptions(corpus_dir=tmp_corpus, out_dir=tmp_path / "out", cache_dir=cache))
    assert main(["--corpus", str(tmp_corpus), "--out", str(tmp_path / "out"), "--cache", str(cache), "status"]) == 0
    assert "stale" not in capsys.readouterr().out.split("\n", 1)[1]


def test_an_editors_backup_beside_the_data_leaves_the_build_fresh(fresh_build, tmp_corpus, tmp_path, capsys):
    """A swap file or a ``~`` backup in corpus/ is not data: it neither invalidates the cache nor renames the build."""
    cache = tmp_path / "cache"
    shutil.copytree(fresh_build[0].parent / FRESH_CACHE, cache)
    build(BuildOptions(corpus_dir=tmp_corpus, out_dir=tmp_path / "out", cache_dir=cache))
    lexicon = next(p for p in sorted((tmp_corpus / "annotations").glob("*.toml")))
    (lexicon.parent / (lexicon.name + "~")).write_text("stale copy\n", encoding="utf-8")
    (lexicon.parent / f".{lexicon.name}.swp").write_bytes(b"\0swap")
    capsys.readouterr()
    assert main(["--corpus", str(tmp_corpus), "--out", str(tmp_path / "out"), "--cache", str(cache), "status"]) == 0
    assert "stale" not in capsys.readouterr().out.split("\n", 1)[1]
    lexicon.write_text(lexicon.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert main(["--corpus", str(tmp_corpus), "--out", str(tmp_path / "out"), "--cache", str(cache), "status"]) == 0
    assert "stale" in capsys.readouterr().out.split("\n", 1)[1]


def test_a_build_that_fails_half_way_changes_no_output(built_copy, tmp_corpus, tmp_path, monkeypatch):
    out, cache = built_copy
    build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache, site=False))
    before = tree(out)
    (tmp_corpus / "raw" / "ecarte_1890.txt").write_text("1. Celui qui donne mal perd la main.\n", encoding="utf-8")
    with (tmp_corpus / "witnesses.toml").open("a", encoding="utf-8") as fh:
        fh.write(
            '\n[[witness]]\nid = "fr-900"\nfile = "raw/ecarte_1890.txt"\ngame = "ecarte"\nlang = "fr"\n'
            'kind = "ocr"\ntitle = "Règles"\n'
        )

    def fail(*args, **kwargs):
        raise RuntimeError("the rule stage broke")

    import pipeline.build.run as b  # (the module whose steps call it)

    monkeypatch.setattr(b, "export_rules", fail)  # after the TEI, texts and tables of fr-900 were produced
    with pytest.raises(RuntimeError):
        build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache, site=False))
    assert tree(out) == before
    assert not [p for p in tmp_path.iterdir() if "staging" in p.name], "the staging folder is left behind"


def test_an_output_edited_by_hand_is_restored_by_the_next_build(built_copy, tmp_corpus, tmp_path):
    out, cache = built_copy
    build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache, site=False))
    good = (out / "laws.csv").read_bytes()
    (out / "laws.csv").write_text("law_id\n", encoding="utf-8")
    (out / "text" / "stray.txt").write_text("not ours", encoding="utf-8")
    again = build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache, site=False))
    assert again.processed == ()  # the per-witness stages come from the cache
    assert (out / "laws.csv").read_bytes() == good
    assert "laws.csv" in again.written and "text/stray.txt" in again.removed


def test_a_scan_edited_while_the_build_runs_stops_it_and_changes_no_output(built_copy, tmp_corpus, monkeypatch):
    # the build reads each raw text twice (to key it, then when its job is submitted, so that a
    # library's texts are never all in memory): an edit in between must not mix two versions
    from pipeline.errors import PipelineError
    import pipeline.build.run as b  # (the module whose steps call it)

    out, cache = built_copy
    build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, cache_dir=cache, site=False))
    before = tree(out)
    keyed = b.witness_key

    def key_then_edit(wt, code, res):
        key = keyed(wt, code, res)
        path = tmp_corpus / wt.witness.file
        if wt.witness.id == "fr-000" and "edited" not in path.read_text(encoding="utf-8"):
            path.write_text(path.read_text(encoding="utf-8") + "\nedited\n", encoding="utf-8")
        return key

    monkeypatch.setattr(b, "witness_key", key_then_edit)
    with pytest.raises(PipelineError, match="changed while the build was running"):
        build(BuildOptions(corpus_dir=tmp_corpus, out_dir=out, site=False))
    assert tree(out) == before
