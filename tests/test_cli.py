"""The command line: cleaning any text, and the one-line errors of every subcommand."""

from __future__ import annotations

import io
import json
import sys


from pipeline.__main__ import main


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_clean_lines_keeps_one_output_line_per_input_line(capsys, monkeypatch):
    text = "The dealer shows his cnrds\n\nA card played out of turn may be taken up\nfaced cards are discovered in dealing\n"
    status, out, _ = run(["clean", "-", "--lang", "en", "--lines", "--keep-hyphens"], capsys, text, monkeypatch)
    assert status == 0
    assert len(out.splitlines()) == len(text.splitlines())
    assert out.splitlines()[2] == "A card played out of turn may be taken up"


def test_clean_repairs_text_from_outside_the_corpus(capsys, monkeypatch):
    status, out, _ = run(
        ["clean", "-", "--lang", "fr"], capsys, "Le joueur qui a une cartc de trop perd la partie.\n", monkeypatch
    )
    assert status == 0 and "une carte de trop" in out


def test_clean_uses_the_card_game_lexicon_only_on_card_game_text(capsys, monkeypatch):
    # --resources auto (the default): the domain resources (here: an unknown word's only accent variant is
    # that word, a witness-text rule) for a text of card-game terms, the general ones for any other text,
    # since the rules tuned for rule books damage press text (ICDAR 2017 French: 7.14 -> 7.32 % CER)
    game = "Le joueur qui s'apercevrâit d'une carte de trop perd la partie.\n"
    press = "Le ministre s'apercevrâit bientôt du budget de la marine.\n"
    assert run(["clean", "-", "--lang", "fr"], capsys, game, monkeypatch)[1] == game.replace("â", "a")
    assert run(["clean", "-", "--lang", "fr"], capsys, press, monkeypatch)[1] == press
    assert run(["clean", "-", "--lang", "fr", "--general"], capsys, game, monkeypatch)[1] == game
    assert run(["clean", "-", "--lang", "fr", "--resources", "domain"], capsys, press, monkeypatch)[1] == press.replace(
        "â", "a"
    )


def test_clean_refuses_a_missing_file_and_non_utf8_input(capsys, monkeypatch, tmp_path):
    status, _, err = run(["clean", str(tmp_path / "nope.txt"), "--lang", "fr"], capsys)
    assert status == 2 and err.count("\n") == 1 and "no such file" in err
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Règle".encode("latin-1"))
    status, _, err = run(["clean", str(bad), "--lang", "fr"], capsys)
    assert status == 2 and "not valid UTF-8" in err


def test_referee_answers_from_the_rule_table_and_errors_in_one_line(capsys):
    status, out, _ = run(["referee", "ecarte", "deal_out_of_turn", "discovered=after_trump", "--json"], capsys)
    assert status == 0
    answer = json.loads(out)
    assert answer["ruling"]["outcome"] == "cards_reserved_for_next_deal"
    cited = {c["law_id"] for c in answer["citations"]}
    assert {"ecarte.fr-000.law-6", "ecarte.en-003.law-9"} <= cited
    status, _, err = run(["referee", "ecarte", "deal_out_of_turn"], capsys)
    assert status != 0 and err.count("\n") == 1 and "discovered" in err


def test_unknown_scheduler_is_a_one_line_error(capsys, tmp_path):
    status, _, err = run(["--out", str(tmp_path / "o"), "build", "--quiet", "--scheduler", "carrier-pigeon"], capsys)
    assert status == 2 and "unknown scheduler" in err and not (tmp_path / "o").exists()


def test_unreachable_scheduler_is_a_one_line_error_and_outputs_untouched(capsys, tmp_path, monkeypatch):
    from pipeline.build.scheduling import Mapper

    monkeypatch.setattr(Mapper, "connect_timeout", "2s")  # (nothing listens there: no need to wait the 10 s)
    status, _, err = run(
        [
            "--out",
            str(tmp_path / "o"),
            "--cache",
            str(tmp_path / "c"),
            "build",
            "--quiet",
            "--scheduler",
            "tcp://127.0.0.1:9",
        ],
        capsys,
    )
    assert status == 2 and err.count("\n") == 1 and "cannot reach the Dask scheduler" in err
    assert not (tmp_path / "o").exists()


def test_evaluate_scores_other_ocr_sets_the_same_way(capsys, tmp_path, monkeypatch):
    # an ICDAR 2019 post-OCR file: @ pads the alignment, # marks characters without gold (cut from both)
    import measure.evaluate_clean as evaluate_clean
    from measure.evaluate_clean import main as evaluate, read_icdar2019

    # (symspellpy's row over the 2,000 commonest words: this test reads our rows; its 100,000-word dictionary
    # takes longer to build than the rest of the test)
    whole = evaluate_clean.symspell_for
    monkeypatch.setattr(evaluate_clean, "symspell_for", lambda lang, top_n=2_000: whole(lang, top_n))

    d = tmp_path / "english"
    d.mkdir()
    (d / "1.txt").write_text(
        "[OCR_toInput] Xy The dealer tbe card was faced\n"
        "[OCR_aligned] Xy The dealer tbe card was faced\n"
        "[ GS_aligned] ## The dealer the card was faced\n",
        encoding="utf-8",
    )
    assert read_icdar2019(d / "1.txt") == (" The dealer tbe card was faced", " The dealer the card was faced")
    assert evaluate(["--sets", str(d)]) == 0  # language read from the folder's name
    out = capsys.readouterr().out
    row = [ln for ln in out.splitlines() if ln.startswith("english") and " clean " in ln][0]
    assert row.split()[2:4] == ["3.45%", "0.00%"]  # 1 error in 29 gold characters, repaired
    ceiling = [ln for ln in out.splitlines() if ln.startswith("english") and "ceiling" in ln][0]
    assert ceiling.split()[2:4] == ["3.45%", "0.00%"]
    (tmp_path / "set").mkdir()
    assert evaluate(["--sets", str(tmp_path / "set")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PATH:fr or PATH:en" in err
    (tmp_path / "set" / "bad.txt").write_text("no format here\n", encoding="utf-8")
    assert evaluate(["--sets", str(tmp_path / "set") + ":en"]) == 2
    assert "not an ICDAR 2019 post-OCR file" in capsys.readouterr().err


def test_word_ceiling_puts_in_near_misses_only():
    # the measure of what a word corrector can reach: near misses aligned one to one take the gold's word;
    # text the gold leaves out, merged words and far misreadings stay as printed
    from measure.evaluate_clean import word_ceiling

    ocr = "Tbe dealer turncd up two carda for trump, ami tbe eldest hand lcd ."
    gold = "The dealer turned up two cards for trump, and the eldest hand led."
    assert word_ceiling(ocr, gold) == "The dealer turned up two cards for trump, ami the eldest hand led."
    assert word_ceiling("garbage lost the dealer tumed", "the dealer turned") == "garbage lost the dealer turned"
    assert word_ceiling("thedealer turned", "the dealer turned") == "thedealer turned"


def test_unmatched_ocr_share_counts_only_text_the_gold_leaves_out():
    # the part of a set's raw error no cleaning can reach: OCR runs (4+ characters) the gold has nothing for
    from measure.evaluate_clean import unmatched_ocr_share

    assert unmatched_ocr_share([("the dealer Mr Rider Haggard, deals", "the dealer deals")]) == 1.0
    assert unmatched_ocr_share([("tbe dealer dcals", "the dealer deals")]) == 0.0
    half = unmatched_ocr_share([("tbe dealer dcals", "the dealer deals"), ("a b cdef", "a b")])
    assert 0.5 < half < 1.0


def test_a_reader_that_stops_early_is_not_an_error():
    # `python -m pipeline play whist --json | head -c 50`: when the reader has gone before the command writes, the
    # command stops quietly, as cat does, not with "error: Broken pipe"
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    cmd = [sys.executable, "-m", "pipeline", "play", "whist", "--games", "5", "--seed", "3", "--json"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the games are played
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0, err
    assert "Broken pipe" not in err and "Traceback" not in err
