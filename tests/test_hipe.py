"""The field's format in and out (``python -m pipeline repair``) and its metric (cMER)."""

from __future__ import annotations

import json

import pytest

from measure.evaluate_repair import cmer_normalise, match_errors, scores
from pipeline.__main__ import main


def _record(doc: str, lang: str, ocr: str, gold: str = "") -> dict:
    return {
        "document_metadata": {"document_id": doc, "language": lang},
        "ocr_hypothesis": {"transcription_unit": ocr},
        "ground_truth": {"transcription_unit": gold},
    }


def test_cmer_normalisation_is_the_benchmarks():
    assert cmer_normalise("Cham¬\nbre ITALIENNE,  l'œuvre — Straße_x") == "chambre italienne l oeuvre strasse x"
    assert match_errors("chambre", "chambre") == (0, 7)
    # one substitution and one insertion against a 7-letter reference: (S+D+I)/(H+S+D+I) = 2/8
    assert match_errors("chxambrf", "chambre") == (2, 8)


def test_scores_count_units_better_and_worse():
    s = scores(["tbe cat", "the dog"], ["the cat", "tbe dog"], ["the cat", "the dog"])
    assert (s.better, s.worse) == (1, 1)
    assert s.cmer == pytest.approx(1 / 14)


def test_repair_fills_every_good_record_and_reports_a_malformed_one(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    good = _record("a", "en", "The Cham-\nber of Commerce met on Tuesday\nand the meeting was adjourned.")
    other = _record("b", "de", "Die Sitzung wurde vertagt.")
    src.write_text(
        json.dumps(good, ensure_ascii=False) + "\n" + '{"document_metadata": 3}\n' + json.dumps(other) + "\nnot json\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    assert main(["repair", str(src), "-o", str(out), "--quiet"]) == 1  # something was skipped: not a clean run
    err = capsys.readouterr().err
    assert "line 2: no document_metadata or ocr_hypothesis object; skipped" in err
    assert "line 4: not JSON" in err
    assert "language 'de'" in err
    recs = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["document_metadata"]["document_id"] for r in recs] == ["a", "b"]
    text = recs[0]["ocr_postcorrection_output"]["transcription_unit"]
    # the joined line-break hyphen is written as the benchmark's mark: the lines stay lines
    assert text.count("\n") == 2 and "Cham¬\nber" in text
    assert recs[0]["ground_truth"] == good["ground_truth"]
    assert recs[1]["ocr_postcorrection_output"]["transcription_unit"] == "Die Sitzung wurde vertagt."


def test_repair_refuses_a_file_that_is_not_utf8(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(b'{"a": "\xff"}\n')
    out = tmp_path / "out.jsonl"
    assert main(["repair", str(src), "-o", str(out)]) == 2
    assert "not valid UTF-8" in capsys.readouterr().err
    assert not out.exists()
