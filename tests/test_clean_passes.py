"""The clean stage as a registry of passes: one signature, config switches, and ``clean --explain``."""

from __future__ import annotations

import io
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest

from pipeline.__main__ import main
from pipeline.clean import REGISTRY, CleanConfig, explain_text, general_resources, load_resources
from pipeline.clean.edits import Edit
from pipeline.clean.passes import Pass, PassResult
from pipeline.clean.stage import _run
from pipeline.model import replay

ROOT = Path(__file__).resolve().parent.parent

TEXT = "Le joueur qui a une cartc de trop perd la partie.\nDE L’ÉCARTÉ. 11\nIl fandra donc jouer.\n"


def test_every_pass_is_named_once_and_switched_by_real_config_fields():
    names = [p.name for p in REGISTRY]
    assert len(names) == len(set(names)) and len(names) >= 15
    bools = {f.name for f in fields(CleanConfig) if f.type in ("bool", bool, "str", str)}
    for p in REGISTRY:
        assert all(s in bools for s in p.switches), p.name
        assert not p.rounds or isinstance(getattr(CleanConfig(), p.rounds), int)


def test_explain_says_which_pass_made_which_change():
    cleaned, log = explain_text(TEXT, "fr", load_resources(ROOT / "corpus", "fr"))
    made = {(e.name, c.before, c.after) for e in log for c in e.changes}
    assert ("words", "cartc", "carte") in made and ("words", "fandra", "faudra") in made
    assert any(name == "running-heads" and "11" in before and after == "" for name, before, after in made)
    assert replay(cleaned.raw, cleaned.corrections) == cleaned.text
    # each pass's log is its own: the passes that changed nothing are there with no change
    ran = [e.name for e in log]
    assert ran.index("running-heads") < ran.index("words") and all(not e.changes for e in log if e.name == "control")


def test_a_switched_off_pass_does_not_run():
    res = load_resources(ROOT / "corpus", "fr")
    _, log = explain_text(TEXT, "fr", res, CleanConfig(repair_words=False, remove_layout=False))
    ran = {e.name for e in log}
    assert not ran & {"words", "phrases", "elision", "running-heads", "debris-lines"}
    assert "control" in ran and "debris-chars" in ran


def test_a_new_pass_is_one_object_in_the_registry():
    # a pass the orchestrator has never seen runs with the others, and its change is a Correction
    def shout(text, ctx):
        i = text.find("partie")
        return PassResult(
            [Edit(i, i + len("partie"), "PARTIE", "casing", "test:shout", 1.0, (), "test pass")] if i >= 0 else []
        )

    extra = Pass("shout", shout, ("repair_words",))
    res = general_resources("fr")
    run = _run(TEXT, res, CleanConfig(), REGISTRY + (extra,))
    assert "la PARTIE." in run.buf.text
    assert [c.after for c in run.buf.corrections if c.method == "test:shout"] == ["PARTIE"]
    assert [e.name for e in run.log][-1] == "shout"
    off = _run(TEXT, res, replace(CleanConfig(), repair_words=False), REGISTRY + (extra,))
    assert "la partie." in off.buf.text


def test_clean_explain_on_the_command_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode("utf-8")), encoding="utf-8"))
    assert main(["clean", "-", "--lang", "fr", "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [ln.split("\t") for ln in out[:-1]]
    assert ["words", "line 1", "'cartc' -> 'carte'"] in [r[:3] for r in rows]
    assert ["words", "line 3", "'fandra' -> 'faudra'"] in [r[:3] for r in rows]
    assert any(r[0] == "running-heads" and r[1] == "line 2" for r in rows)
    assert out[-1].startswith("3 changes by 2 passes (running-heads, words)")


def test_clean_explain_refuses_lines_mode_in_one_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x\n"), encoding="utf-8"))
    assert main(["clean", "-", "--lang", "fr", "--explain", "--lines"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize("name", [p.name for p in REGISTRY])
def test_each_pass_keeps_replay_exact(name):
    # every pass alone after the ones before it: the corrections still replay to the text
    upto = REGISTRY[: [p.name for p in REGISTRY].index(name) + 1]
    res = load_resources(ROOT / "corpus", "fr")
    run = _run(TEXT + "qu*il l*adversaire dHin ^ soa choix\n", res, CleanConfig(), upto)
    assert replay(TEXT + "qu*il l*adversaire dHin ^ soa choix\n", run.buf.corrections) == run.buf.text
