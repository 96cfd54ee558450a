"""docs/RESULTS.md is rendered from the committed figures (outputs/eval, outputs/bench), never typed by hand."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from measure.results import RESULTS, render

from conftest import OUTPUTS


def test_the_committed_results_page_is_what_the_committed_figures_render():
    assert RESULTS.read_text(encoding="utf-8") == render(OUTPUTS / "eval", OUTPUTS / "bench"), (
        "docs/RESULTS.md is stale: run `make results` and commit it"
    )


def test_a_changed_figure_changes_the_page(tmp_path: Path):
    for sub in ("eval", "bench"):
        shutil.copytree(OUTPUTS / sub, tmp_path / sub)
    bench = tmp_path / "bench" / "cleaning.json"
    data = json.loads(bench.read_text(encoding="utf-8"))
    data["first_pass"]["median_ratio"] = 1.234
    bench.write_text(json.dumps(data), encoding="utf-8")
    page = render(tmp_path / "eval", tmp_path / "bench")
    assert "**1.23×**" in page and page != render(OUTPUTS / "eval", OUTPUTS / "bench")


def test_every_figure_file_is_rendered_and_a_missing_one_is_said_missing(tmp_path: Path):
    page = render(OUTPUTS / "eval", OUTPUTS / "bench")
    for name in ("eval/cleaning.json", "eval/lm.json", "eval/settings.json", "eval/alignment.json"):
        assert f"`outputs/{name}`" in page, name
    for name in ("bench/cleaning.json", "bench/build.json"):
        assert f"`outputs/{name}`" in page, name
    (tmp_path / "eval").mkdir()
    (tmp_path / "bench").mkdir()
    empty = render(tmp_path / "eval", tmp_path / "bench")
    assert "`outputs/eval/cleaning.json` is not in this checkout" in empty
    assert "`outputs/bench/build.json` is not in this checkout" in empty


def test_the_alignment_baseline_links_copies_and_nothing_without_shared_words():
    from measure.baseline_align import tfidf_links
    from pipeline.model import Law

    def law(wit: str, n: int, text: str) -> Law:
        return Law(f"whist.{wit}.law-{n}", wit, "whist", "en", "law", n, "", str(n), n, 0, len(text), text)

    code = ["If the dealer exposes a card, the adversaries may call a new deal.", "A revoke costs three tricks."]
    laws = [law("a", i, t) for i, t in enumerate(code)] + [law("b", i, t) for i, t in enumerate(reversed(code))]
    assert {(l.a, l.b) for l in tfidf_links(laws, "a", "b")} == {
        ("whist.a.law-0", "whist.b.law-1"),
        ("whist.a.law-1", "whist.b.law-0"),
    }
    other = [law("c", 0, "Le joueur qui renonce perd la partie.")]
    assert tfidf_links(laws + other, "a", "c") == ()


def test_the_readme_headline_figures_are_figures_of_the_results_page():
    """The README's headline table is written by hand: each of its bold figures must be one the outputs give."""
    import re

    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Headline figures$(.*?)^## ", readme, re.S | re.M)
    assert section, "README has no 'Headline figures' section"
    figures = [f.removeprefix("F1 ") for f in re.findall(r"\*\*([^*]+)\*\*", section.group(1))]
    assert len(figures) >= 6
    page = RESULTS.read_text(encoding="utf-8")
    stale = [f for f in figures if f not in page]
    assert not stale, f"README headline figures not in docs/RESULTS.md: {stale}"
