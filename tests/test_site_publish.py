"""The reading edition as a publication: every link of every page resolves (files and fragment ids), nothing
points outside site/ (so the folder is published on its own), the licence is in every page's footer, each law
has a "cite this law" box with an absolute URL built from corpus/edition.toml, and a jump to a law of a
synoptic table leaves the table's witness headers in view below the sticky filter bar."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import lxml.html
import pandas as pd
import pytest

from pipeline.export.site.render import render_site, site_copies
from pipeline.export.tei.config import EditionInfo, Editor, load_edition

from conftest import CORPUS
import test_site
from test_site import LINKS, RULES, _bad, _en, _fr

real_site = test_site.real_site  # the fixture: outputs/site/ of a fresh build


def check_links(site: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """Every ``href`` and ``src`` of every page under ``site``: (dead, outside site/, external), each a list of
    (page, reference). A reference is dead when its file is missing or, on a page, its fragment names no id."""
    site = site.resolve()
    ids: dict[Path, set[str]] = {}

    def ids_of(page: Path) -> set[str]:
        if page not in ids:
            ids[page] = set(lxml.html.fromstring(page.read_bytes()).xpath("//@id"))
        return ids[page]

    dead, outside, external = [], [], []
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site).as_posix()
        doc = lxml.html.fromstring(page.read_bytes())
        for ref in doc.xpath("//@href | //@src"):
            parts = urlsplit(ref)
            if parts.scheme or parts.netloc:
                external.append((name, ref))
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if site not in target.parents:
                outside.append((name, ref))
            if not target.is_file():
                dead.append((name, ref))
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids_of(target):
                dead.append((name, ref))
    return dead, outside, external


def test_the_link_check_finds_dead_files_fragments_and_links_outside(tmp_path):
    site = tmp_path / "site"
    (site / "w").mkdir(parents=True)
    (site / "w" / "a.html").write_text('<p id="x">x</p><a href="#x">ok</a><a href="#nope">dead</a>', "utf-8")
    (site / "index.html").write_text(
        '<a href="w/a.html#x">ok</a><a href="w/a.html#y">dead</a><a href="w/b.html">dead</a>'
        '<a href="../laws.csv">outside</a><img src="https://example.org/i.png">',
        "utf-8",
    )
    (tmp_path / "laws.csv").write_text("a\n", "utf-8")
    dead, outside, external = check_links(site)
    assert sorted(r for _, r in dead) == ["#nope", "w/a.html#y", "w/b.html"]
    assert outside == [("index.html", "../laws.csv")]
    assert external == [("index.html", "https://example.org/i.png")]


@pytest.mark.integration
def test_every_link_of_the_built_site_resolves_inside_it(real_site):
    dead, outside, external = check_links(real_site)
    assert dead == [], dead[:10]
    assert outside == [], outside[:10]  # site/ is published on its own: downloads are copies inside it
    edition = load_edition(CORPUS)
    assert {r for _, r in external} <= {edition.licence_url}, sorted({r for _, r in external})
    # every law of the tables has an address on its witness's page (a law whose text is all its clauses too)
    laws = pd.read_csv(real_site.parent / "laws.csv", dtype=str, keep_default_na=False)
    for witness, ids in laws.groupby("witness")["law_id"]:
        page = lxml.html.fromstring((real_site / "witness" / f"{witness}.html").read_bytes())
        missing = set(ids) - set(page.xpath("//@id"))
        assert not missing, f"witness/{witness}.html has no anchor for {sorted(missing)[:5]}"
    # the copies are the outputs themselves
    for rel in ("laws.csv", "datapackage.json", "tei/en-004.xml"):
        assert (real_site / "data" / rel).read_bytes() == (real_site.parent / rel).read_bytes(), rel


@pytest.mark.integration
def test_the_copied_data_package_is_valid_inside_the_site(real_site):
    from frictionless import validate

    report = validate(real_site / "data" / "datapackage.json")
    assert report.valid, report.flatten(["type", "note"])[:5]


def test_site_copies_name_what_the_pages_link_to():
    site = render_site([_fr(), _en()], LINKS, RULES, data_files=["datapackage.json", "figures/a.svg"])
    copies = dict((dest, src) for src, dest in site_copies([_fr(), _en()], ["datapackage.json", "figures/a.svg"]))
    linked = set()
    for path, data in site.items():
        if path.endswith(".html"):
            for ref in lxml.html.fromstring(data.decode("utf-8")).xpath("//@href | //@src"):
                target = (Path("/site") / Path(path).parent / urlsplit(ref).path).resolve().as_posix()
                if target.startswith("/site/data/"):
                    linked.add(target.removeprefix("/site/"))
    assert linked and linked <= set(copies), sorted(linked - set(copies))
    assert (
        copies["data/tei/fr-900.xml"] == "tei/fr-900.xml" and "data/laws.csv" in copies and "data/rules.csv" in copies
    )


EDITION = EditionInfo(
    title="Laws of Piquet",
    version="2.1.0",
    date="2026-11-30",
    base_url="https://laws.example.org/edition/",
    licence_name="CC0 1.0",
    licence_url="https://creativecommons.org/publicdomain/zero/1.0/",
    editors=(Editor("Ada Editor", "review"), Editor("the pipeline", "encoding", "#pipeline")),
)


def test_cite_box_gives_an_absolute_url_editors_version_and_date_from_the_edition():
    site = render_site([_fr(), _en()], LINKS, RULES, edition=EDITION)
    doc = lxml.html.fromstring(site["witness/fr-900.html"].decode("utf-8"))
    box = doc.xpath("//section[@id='piquet.fr-900.law-1']//details[@class='cite']")[0]
    text = box.xpath(".//p[@class='citation']")[0].text_content()
    url = "https://laws.example.org/edition/site/witness/fr-900.html#piquet.fr-900.law-1"
    assert url in text and "Ada Editor" in text and "2.1.0" in text and "2026-11-30" in text, text
    assert "the pipeline" not in text  # a software agent is not an editor of the citation
    assert {a.get("href") for a in box.xpath(".//a[@class='cite-url']")} == {url}
    assert not box.xpath(".//a[@data-absolute]")  # nothing left for the script to fill in


def test_without_a_base_url_the_page_writes_its_own_address():
    site = render_site([_fr()], [], RULES, edition=EditionInfo(title="t", version="1", date="2026-01-01"))
    doc = lxml.html.fromstring(site["witness/fr-900.html"].decode("utf-8"))
    links = doc.xpath("//details[@class='cite']//a[@class='cite-url']")
    assert links and all(a.get("data-absolute") == "from-page" for a in links)
    assert all(a.get("href").startswith("../witness/fr-900.html#") for a in links)


def test_the_licence_is_in_every_pages_footer():
    site = render_site([_fr(), _en(), _bad()], LINKS, RULES, edition=EDITION)
    pages = [p for p in site if p.endswith(".html")]
    assert len(pages) >= 4
    for path in pages:
        footer = lxml.html.fromstring(site[path].decode("utf-8")).xpath("//footer")[0]
        assert footer.xpath(".//a[@rel='license']/@href") == [EDITION.licence_url], path
        assert "2.1.0" in footer.text_content()


@pytest.mark.integration
def test_browser_cite_box_shows_an_absolute_url(browser, real_site):
    page = browser.new_page()
    page.goto((real_site / "witness" / "en-003.html").as_uri())
    page.locator("section.law details.cite summary").first.click()
    shown = page.locator("section.law details.cite .citation a.cite-url").first.inner_text()
    assert re.match(r"(https?|file)://", shown) and shown.endswith("witness/en-003.html#ecarte.en-003.law-1"), shown
    page.close()


@pytest.mark.integration
@pytest.mark.parametrize("size", [(1200, 700), (1400, 1000)])
def test_browser_a_jump_to_a_law_leaves_the_synoptic_headers_in_view(browser, real_site, size):
    index = lxml.html.fromstring((real_site / "index.html").read_bytes())
    anchors = []
    for game in index.xpath("//section[@class='game']"):
        laws = game.xpath(".//div[@class='law']/@id")
        rows = game.xpath(".//tbody/tr/@id")
        anchors += [laws[len(laws) // 2], laws[-1], rows[len(rows) // 3]]
    width, height = size
    # one page per size: the first anchor is a page opened on it, the others jumps inside the page (as its links do)
    page = browser.new_page(viewport={"width": width, "height": height})
    for anchor in anchors:
        page.goto((real_site / "index.html").as_uri() + "#" + anchor)
        page.wait_for_timeout(150)
        box = page.evaluate(
            """(id) => {
              const t = document.getElementById(id), sec = t.closest('section.game');
              const th = sec.querySelector('thead th[data-witness]').getBoundingClientRect();
              const bar = document.querySelector('form.filters').getBoundingClientRect();
              const r = t.getBoundingClientRect();
              return {thTop: th.top, thBottom: th.bottom, barBottom: bar.bottom, top: r.top};
            }""",
            anchor,
        )
        assert box["thTop"] >= box["barBottom"] - 1, (anchor, size, box)  # the headers are not under the bar
        assert box["thBottom"] <= box["top"] + 1 and box["top"] < height, (anchor, size, box)  # the law below them
    page.close()
