"""The reading edition (pipeline/export/site/).

Unit tests render small hand-built witnesses (a piquet code in the manner of 19th-century French
treatises, an English translation of it, and a hostile witness whose text holds markup) and read the
HTML back with lxml. Browser tests (``integration``) open the pages from disk in headless Chromium
(Debian's /usr/bin/chromium driven by Playwright): the real build's Écarté synoptic table, the hover
and focus text of a repaired word, the reading/diplomatic toggle, escaping (no dialog fires), and a
screenshot in test-artifacts/site.png.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.model import (
    CORRECTION_KINDS,
    Cleaned,
    Correction,
    Flag,
    Law,
    Link,
    PageBreak,
    Segment,
    Segmented,
    Witness,
    WitnessResult,
    replay,
)
from pipeline.export.site.render import render_site
from pipeline.export.site.rows import synoptic_rows

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
HOSTILE = "<script>alert(1)</script> & co"


# ----------------------------------------------------------------------------------------------
# hand-built witnesses


def _corr(raw: str, before: str, after: str, kind: str, confidence: float = 1.0, nth: int = 0, **kw) -> Correction:
    start = -1
    for _ in range(nth + 1):
        start = raw.index(before, start + 1)
    return Correction(start, start + len(before), before, after, kind, kw.pop("method", "test"), confidence, **kw)


def _result(
    witness: Witness, raw: str, corrections: list[Correction], page_breaks=(), flags=(), heading_end: int = 0
) -> WitnessResult:
    """A WitnessResult whose laws start at each 'N. ' at a line start of the cleaned text."""
    corrections = sorted(corrections, key=lambda c: c.start)
    text = replay(raw, corrections)
    cleaned = Cleaned(witness.id, raw, text, tuple(corrections), tuple(page_breaks), tuple(flags))
    starts = [m.start() for m in re.finditer(r"(?m)^(\d+)\. ", text)]
    laws, segments = [], []
    if starts and starts[0] > 0:
        segments.append(Segment("heading", 0, starts[0]))
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(text)
        n = int(re.match(r"\d+", text[s:]).group())
        law_id = f"{witness.game}.{witness.id}.law-{n}"
        body = " ".join(text[s:e].split()[1:])
        laws.append(Law(law_id, witness.id, witness.game, witness.lang, "law", n, f"{n}.", str(n), i, s, e, body))
        segments.append(Segment("law", s, e, law_id))
    if not starts:
        segments.append(Segment("other", 0, len(text)))
    return WitnessResult(witness, cleaned, Segmented(witness.id, tuple(laws), tuple(segments)))


FR = Witness("fr-900", "raw/x.txt", "piquet", "fr", "ocr", "Règles du piquet")
EN = Witness("en-901", "raw/y.txt", "piquet", "en", "transcription", "Laws of Piquet")
BAD = Witness("en-902", "raw/z.txt", "piquet", "en", "ocr", 'Tricky "title" <b>bold</b> & co')

FR_RAW = (
    "DU PIQUET.\n"
    "1. Le joueur qui donne mal perd la main ; les cartcs sont\nrebat-\n12 DU PIQUET.\ntues.\n"
    "2. Si l^on tourne une carte en donnant, le coup est nul.\n"
    "3. Celui qui a plus de douze cartes perd la partie.\n"
)
EN_RAW = (
    "1. If a card is faced in the deal, there must be a new deal.\n"
    "2. A misdeal loses the deal.\n"
    "3. The elder hand may discard up to five cards.\n"
)


def _fr() -> WitnessResult:
    raw = FR_RAW
    corrs = [
        _corr(raw, "cartcs", "cartes", "spelling", 0.87, candidates=("cartes", "cartels"), evidence="confusion c/e"),
        _corr(raw, "-\n", "", "hyphenation", 0.95),
        _corr(raw, "12 DU PIQUET.\n", "", "running_head", 1.0),
        _corr(raw, "l^on", "l'on", "elision", 0.9),
    ]
    rh = raw.index("12 DU PIQUET.\n")
    tmp_text = replay(raw, sorted(corrs, key=lambda c: c.start))
    pb = PageBreak(rh, rh + len("12 DU PIQUET.\n"), tmp_text.index("tues."), "12", "DU PIQUET.", "12 DU PIQUET.")
    t0 = raw.index("tourne")
    flag = Flag(t0, t0 + len("tourne"), "tourne", ("retourne",), 0.4, "real word, context unsure")
    return _result(FR, raw, corrs, [pb], [flag])


def _en() -> WitnessResult:
    return _result(EN, EN_RAW, [])


def _bad() -> WitnessResult:
    raw = f'1. {HOSTILE} said "hi".\n2. Fo<o> & ba\'r.\n'
    corrs = [_corr(raw, "Fo<o>", 'F"o<o>', "spelling", 0.5)]
    return _result(BAD, raw, corrs)


LINKS = (
    Link("piquet", "piquet.fr-900.law-2", "piquet.en-901.law-1", 0.81, "translation", "carte=card; donner=deal"),
    Link("piquet", "piquet.fr-900.law-1", "piquet.en-901.law-2", 0.64, "translation", "mal donner=misdeal"),
    Link("piquet", "piquet.fr-900.law-1", "piquet.en-901.law-1", 0.31, "translation", "weak"),
)
RULES = [
    {
        "rule_id": "misdeal",
        "law_id": "piquet.fr-900.law-1",
        "outcome": "the dealer loses the deal",
        "citations": "piquet.fr-900.law-1;piquet.en-901.law-2",
        "note": "x < y & z",
    },
]


@pytest.fixture(scope="module")
def site() -> dict[str, bytes]:
    return render_site([_fr(), _en(), _bad()], LINKS, RULES)


def _doc(site, path):
    return lxml.html.fromstring(site[path].decode("utf-8"))


def _tips(doc, xpath):
    return [el.get("title") for el in doc.xpath(xpath)]


# ----------------------------------------------------------------------------------------------
# unit tests


def test_site_files_are_local_and_deterministic(site):
    again = render_site([_fr(), _en(), _bad()], LINKS, RULES)
    assert again == site
    assert {"index.html", "assets/site.css", "assets/site.js", "witness/fr-900.html", "witness/en-901.html"} <= set(
        site
    )
    for path, data in site.items():
        if path.endswith(".html"):
            page = data.decode("utf-8")
            assert '<meta name="viewport"' in page
            assert "http://" not in page and "https://" not in page, f"{path} refers to the network"
            doc = lxml.html.fromstring(page)
            for ref in doc.xpath("//@href | //@src"):
                if not ref.startswith("#"):
                    target = (Path(path).parent / ref.split("#")[0]).as_posix()
                    target = str(Path(target)).replace("\\", "/")
                    norm = re.sub(r"[^/]+/\.\./", "", target)
                    assert not norm.startswith("../"), f"{path} links outside the site: {ref}"
                    if norm.startswith("data/"):  # a download: an output of the edition, copied into site/data/
                        assert re.fullmatch(
                            r"data/(tei/[\w.-]+\.xml|text/[\w.-]+\.txt|[\w.-]+\.(csv|json|sqlite)"
                            r"|figures/[\w.-]+\.svg)",
                            norm,
                        ), f"{path} links to {ref}"
                        continue
                    assert norm in site, f"{path} links to missing {ref}"


def test_corpus_text_is_escaped_everywhere(site):
    for path, data in site.items():
        page = data.decode("utf-8")
        assert "<script>alert" not in page
        assert "<b>bold</b>" not in page
        assert "Fo<o>" not in page
    doc = _doc(site, "witness/en-902.html")
    reading = doc.get_element_by_id("reading").text_content()
    assert HOSTILE in reading  # shown as text
    assert 'Tricky "title" <b>bold</b> & co' in doc.findtext(".//h1")
    # only the site's own script element exists
    assert [s.get("src") for s in doc.iter("script")] == ["../assets/site.js"]
    # an attribute holding quotes and angle brackets survives as text
    tips = _tips(doc, "//*[@id='reading']//mark[contains(@class,'corr')]")
    assert any("printed: “Fo<o>”" in t for t in tips), tips
    cell = _doc(site, "index.html").xpath("//div[@data-law-id='piquet.en-902.law-1']")[0]
    assert HOSTILE in cell.text_content()


def test_repaired_word_carries_printed_form_kind_and_confidence(site):
    doc = _doc(site, "witness/fr-900.html")
    marks = {m.text_content(): m for m in doc.xpath("//*[@id='reading']//mark[contains(@class,'corr')]")}
    m = marks["cartes"]
    assert m.get("tabindex") == "0"  # reachable by keyboard
    tip = m.get("title")
    assert tip == m.get("data-tip")  # the same text on hover (title) and on focus (CSS tooltip)
    assert "printed: “cartcs”" in tip and "spelling" in tip and "confidence 0.87" in tip
    assert m.get("data-kind") == "spelling" and m.get("data-confidence") == "0.87"
    # a partial repair is widened to its word: "l^on" -> "l'on"
    assert "printed: “l^on”" in marks["l'on"].get("title") and "elision" in marks["l'on"].get("title")
    # a word joined across a line-break hyphen and a running head: printed form shows both, head cut out
    joined = marks["rebattues"].get("title")
    assert "printed: “rebat-⏎|tues”" in joined and "hyphenation (confidence 0.95)" in joined


def test_flagged_word_and_page_break_are_marked(site):
    doc = _doc(site, "witness/fr-900.html")
    flags = doc.xpath("//*[@id='reading']//*[contains(@class,'flag')]")
    assert [f.text_content() for f in flags] == ["tourne"]
    assert "flagged for review" in flags[0].get("title") and "retourne" in flags[0].get("title")
    assert flags[0].get("tabindex") == "0"
    pbs = doc.xpath("//*[@id='reading']//*[contains(@class,'pb')]")
    assert [p.get("data-page") for p in pbs] == ["12"]
    assert "DU PIQUET." in pbs[0].get("title")
    # the reading text has the repaired words and no running head
    law1 = doc.xpath("//*[@id='reading']//section[@data-law-id='piquet.fr-900.law-1']")[0].text_content()
    assert "les cartes sont rebattues." in " ".join(law1.split())
    assert "12 DU PIQUET" not in law1


def test_diplomatic_view_keeps_the_print(site):
    doc = _doc(site, "witness/fr-900.html")
    dip = doc.get_element_by_id("diplomatic")
    assert dip.get("hidden") is not None and doc.get_element_by_id("reading").get("hidden") is None
    assert dip.text_content() == FR_RAW  # the printed text, character for character (markers are CSS only)
    fw = dip.xpath(".//*[contains(@class,'fw')]")
    assert [f.text_content() for f in fw] == ["12 DU PIQUET.\n"] and fw[0].get("data-page") == "12"
    hy = dip.xpath(".//*[contains(@class,'hyphen')]")
    assert [h.text_content() for h in hy] == ["-\n"]
    sic = {s.text_content(): s.get("title") for s in dip.xpath(".//*[contains(@class,'sic')]")}
    assert "reads: “cartes”" in sic["cartcs"]
    assert [d.get("data-law-id") for d in dip.xpath(".//*[@data-law-id]")] == [
        "piquet.fr-900.law-1",
        "piquet.fr-900.law-2",
        "piquet.fr-900.law-3",
    ]
    btn = doc.get_element_by_id("view-toggle")
    assert btn.tag == "button" and btn.get("aria-pressed") == "false"


def test_synoptic_rows_place_aligned_laws_side_by_side(site):
    doc = _doc(site, "index.html")
    rows = doc.xpath("//table[@data-game='piquet']/tbody/tr")

    def row_of(law_id):
        (tr,) = [tr for tr in rows if tr.xpath(f".//*[@data-law-id='{law_id}']")]
        return tr

    assert row_of("piquet.fr-900.law-2") is row_of("piquet.en-901.law-1")
    assert row_of("piquet.fr-900.law-1") is row_of("piquet.en-901.law-2")
    # unmatched laws have their own rows, with "—" in the other columns
    r3 = row_of("piquet.fr-900.law-3")
    assert r3 is not row_of("piquet.en-901.law-3")
    assert r3.xpath("td[@data-witness='en-901']")[0].text_content().strip() == "—"
    assert r3.get("data-unmatched") == "1"
    # rows follow the first witness's order
    order = [tr.get("data-laws").split()[0] for tr in rows]
    assert order.index("piquet.fr-900.law-1") < order.index("piquet.fr-900.law-2") < order.index("piquet.fr-900.law-3")
    # each link's score and evidence on demand
    li = doc.xpath("//div[@data-law-id='piquet.fr-900.law-2']/details[@class='links']//li[@data-score]")
    assert [x.get("data-score") for x in li] == ["0.81"]
    assert "carte=card" in li[0].text_content()
    # the weaker n:m link: en law 1 is referred to from fr law 1's row
    refs = row_of("piquet.fr-900.law-1").xpath(".//*[@data-ref-law-id]")
    assert [r.get("data-ref-law-id") for r in refs] == ["piquet.en-901.law-1"]


def test_synoptic_rows_insert_unmatched_laws_in_printed_order():
    def laws(w, n):
        return [
            Law(f"g.{w}.law-{i}", w, "g", "en", "law", i, f"{i}.", str(i), i - 1, 0, 0, "x") for i in range(1, n + 1)
        ]

    a, b = laws("a", 3), laws("b", 5)
    links = [
        Link("g", "g.a.law-1", "g.b.law-3", 0.9, "translation"),
        Link("g", "g.a.law-3", "g.b.law-4", 0.7, "translation"),
    ]
    rows = synoptic_rows(["a", "b"], {"a": a, "b": b}, links)
    got = [tuple(x.id for ls in r.laws.values() for x in ls) for r in rows]
    assert got == [
        ("g.b.law-1",),
        ("g.b.law-2",),
        ("g.a.law-1", "g.b.law-3"),
        ("g.a.law-2",),
        ("g.a.law-3", "g.b.law-4"),
        ("g.b.law-5",),
    ]


def test_law_shows_its_ruling_and_aligned_laws(site):
    doc = _doc(site, "witness/fr-900.html")
    sec = doc.xpath("//section[@data-law-id='piquet.fr-900.law-1']")[0]
    info = sec.xpath(".//details[contains(@class,'info')]")[0].text_content()
    assert "the dealer loses the deal" in info and "x < y & z" in info
    assert "en-901 · Law 2" in info and "0.64" in info
    # the English law cited by the same rule row shows it too
    en = _doc(site, "witness/en-901.html").xpath("//section[@data-law-id='piquet.en-901.law-2']")[0]
    assert "the dealer loses the deal" in en.text_content()
    # a law nobody cites says so
    sec3 = doc.xpath("//section[@data-law-id='piquet.fr-900.law-3']")[0]
    assert "No row of the rule table cites this law" in sec3.text_content()


@pytest.mark.parametrize("rules", [None, [], {"rows": []}, [{"unexpected": 1}], {"weird": "shape"}])
def test_rules_table_is_optional_and_free_in_shape(rules):
    out = render_site([_fr(), _en()], LINKS, rules)
    assert b"No row of the rule table cites this law" in out["witness/fr-900.html"]


def test_filters_are_keyboard_controls(site):
    doc = _doc(site, "index.html")
    assert doc.xpath("//select[@id='f-game']/option/@value") == ["", "piquet"]
    assert doc.xpath("//input[@class='wfilter']/@value") == ["fr-900", "en-901", "en-902"]
    assert doc.xpath("//input[@id='f-text']/@type") == ["search"]
    for el in doc.xpath(
        "//mark[contains(@class,'corr')] | //*[contains(@class,'flag')][not(ancestor::p[@class='legend'])]"
    ):
        assert el.get("tabindex") == "0"


# ----------------------------------------------------------------------------------------------
# browser tests


def _write(site: dict[str, bytes], dest: Path) -> Path:
    for rel, data in site.items():
        p = dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return dest


@pytest.fixture(scope="session")
def real_site(fresh_build, tmp_path_factory) -> Path:
    """outputs/site/ of a fresh build; rendered from the stage results if build.py does not write it yet."""
    out, _ = fresh_build
    if (out / "site" / "index.html").is_file():
        return out / "site"
    from pipeline.build import align_corpus, process_witness
    from pipeline.corpus import load_witnesses, witness_text

    corpus = ROOT / "corpus"
    from pipeline.export.tei.config import BuildInfo

    results = [
        process_witness(witness_text(corpus, w), corpus, BuildInfo.for_inputs(version="0"))
        for w in load_witnesses(corpus)
    ]
    links = align_corpus([b.result for b in results], corpus)
    rules_path = out / "rules.json"
    rules = json.loads(rules_path.read_text("utf-8")) if rules_path.is_file() else None
    return _write(render_site([b.result for b in results], links, rules), tmp_path_factory.mktemp("site"))


def _open(browser, path: Path, **kw):
    page = browser.new_page(**kw)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return page, dialogs, errors


def _after(page, selector):
    return page.eval_on_selector(selector, "el => getComputedStyle(el, '::after').content")


@pytest.mark.integration
def test_browser_escapes_markup_and_shows_hover_text(browser, site, tmp_path):
    root = _write(site, tmp_path / "site")
    page, dialogs, errors = _open(browser, root / "witness" / "en-902.html")
    assert HOSTILE in page.inner_text("#reading")
    assert page.locator("#reading script").count() == 0
    page2, dialogs2, errors2 = _open(browser, root / "index.html")
    assert HOSTILE in page2.inner_text("[data-law-id='piquet.en-902.law-1']")
    page.close(), page2.close()

    page, d3, e3 = _open(browser, root / "witness" / "fr-900.html")
    sel = "#reading mark.corr[data-kind='spelling']"
    assert _after(page, sel) in ("none", "normal")  # no tooltip before hover or focus
    page.focus(sel)  # keyboard focus shows the tooltip
    tip = _after(page, sel)
    assert "cartcs" in tip and "spelling" in tip and "0.87" in tip
    page.locator("body").click(position={"x": 1, "y": 1})
    page.hover(sel)
    assert "cartcs" in _after(page, sel)
    assert page.get_attribute(sel, "title").startswith("printed: “cartcs”")
    assert not (dialogs + dialogs2 + d3), "a dialog fired: corpus text ran as script"
    assert not (errors + errors2 + e3)
    page.close()


@pytest.mark.integration
def test_browser_real_ecarte_synoptic(browser, real_site):
    page, dialogs, errors = _open(browser, real_site / "index.html", viewport={"width": 1400, "height": 1000})

    def same_row(a, b):
        row = page.locator(f"table.synoptic tbody tr:has([data-law-id='{a}'])")
        assert row.count() == 1, f"{a} is not in exactly one row"
        assert row.locator(f"[data-law-id='{b}']").count() == 1, f"{b} is not beside {a}"
        return row

    row = same_row("ecarte.fr-000.law-13", "ecarte.en-003.law-10")
    assert row.is_visible()
    same_row("ecarte.fr-000.law-6", "ecarte.en-003.law-9")
    # each law of every witness is placed exactly once
    ids = page.eval_on_selector_all("table.synoptic [data-law-id]", "els => els.map(e => e.dataset.lawId)")
    assert len(ids) == len(set(ids)) and "ecarte.en-003m.law-10" in ids
    # the score of a link on demand
    row.locator("[data-law-id='ecarte.fr-000.law-13'] details.links summary").click()
    score = row.locator(
        "[data-law-id='ecarte.fr-000.law-13'] li[data-link-b='ecarte.en-003.law-10'], "
        "[data-law-id='ecarte.fr-000.law-13'] li[data-link-a='ecarte.en-003.law-10']"
    )
    assert score.first.is_visible() and re.fullmatch(r"[01]\.\d\d", score.first.get_attribute("data-score"))
    # filters: game and text search
    page.fill("#f-text", "talon")
    visible = page.locator("table.synoptic tbody tr:visible")
    assert 0 < visible.count() < page.locator("table.synoptic tbody tr").count()
    page.fill("#f-text", "")
    page.select_option("#f-game", "whist")
    assert not page.locator("section.game[data-game='ecarte']").is_visible()
    page.select_option("#f-game", "ecarte")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site.png"), full_page=False)
    assert (ARTIFACTS / "site.png").stat().st_size > 10_000
    # readable on a phone: no horizontal scrolling
    phone, _, _ = _open(browser, real_site / "index.html", viewport={"width": 390, "height": 844})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    assert not dialogs and not errors
    page.close(), phone.close()


@pytest.mark.integration
def test_browser_real_witness_hover_and_toggle(browser, real_site):
    page, dialogs, errors = _open(browser, real_site / "witness" / "fr-000.html")
    marks = page.locator("#reading mark.corr")
    assert marks.count() > 5
    first = marks.first
    first.focus()
    tip = page.evaluate("() => getComputedStyle(document.activeElement, '::after').content")
    m = re.search(r"printed: “(.+?)” — (\w+) \(confidence (\d\.\d\d)\)", tip)
    assert m, tip
    assert m.group(2) in CORRECTION_KINDS and m.group(1) != first.inner_text()
    # the toggle: reading -> diplomatic -> reading
    assert page.locator("#reading").is_visible() and not page.locator("#diplomatic").is_visible()
    page.click("#view-toggle")
    assert page.locator("#diplomatic").is_visible() and not page.locator("#reading").is_visible()
    assert page.get_attribute("#view-toggle", "aria-pressed") == "true"
    dip = page.inner_text("#diplomatic")
    assert "DB l'Écarté" in dip and "car-" in dip  # the running head and the line-break hyphen as printed
    assert page.locator("#diplomatic .fw").count() >= 1
    page.keyboard.press("Enter")  # the focused button toggles back with the keyboard
    assert page.locator("#reading").is_visible()
    assert not dialogs and not errors
    page.close()


# ----------------------------------------------------------------------------------------------
# anchors that land in view, search across languages, cite boxes and downloads


def test_synoptic_anchors_are_stable_and_variants_marked(site):
    doc = _doc(site, "index.html")
    for tr in doc.xpath("//table[@class='synoptic']/tbody/tr"):
        assert tr.get("id") == "row." + tr.get("data-laws").split()[0]  # named after a law, not a position
    assert doc.xpath("//div[@id='syn.piquet.fr-900.law-2']")


def test_rulings_are_sentences_and_labels_use_the_number_as_read(site):
    doc = _doc(site, "witness/fr-900.html")
    sec = doc.xpath("//section[@data-law-id='piquet.fr-900.law-1']")[0]
    ruling = sec.xpath(".//p[@class='ruling']")[0].text_content()
    assert ruling.endswith(".") and "the dealer loses the deal" in ruling and not sec.xpath(".//dl[@class='rule']")
    for s in doc.xpath("//section[contains(@class,'law')]"):
        label = s.xpath(".//a[@class='lawlabel']")[0].text_content()
        text = s.xpath(".//p[@class='lawtext']")[0].text_content()
        assert re.fullmatch(r"Law \d+|[A-Z].*", label)
        number = label.split()[-1]
        assert not text[len(label) :].lstrip().startswith(number), text  # no "Law 38 38."


@pytest.mark.integration
def test_browser_law_link_lands_with_its_label_visible(browser, real_site):
    for path, anchor, label in (
        ("witness/en-003.html", "ecarte.en-003.law-9", "section[id='ecarte.en-003.law-9'] .lawlabel"),
        ("index.html", "syn.ecarte.en-003.law-9", "div[id='syn.ecarte.en-003.law-9'] .lawlabel"),
    ):
        page = browser.new_page(viewport={"width": 1200, "height": 700})
        page.goto((real_site / path).as_uri() + "#" + anchor)
        page.wait_for_timeout(200)
        box = page.locator(label).bounding_box()
        bars = page.evaluate("""() => Array.from(document.querySelectorAll('.viewbar, form.filters, thead'))
            .map(e => e.getBoundingClientRect()).filter(r => r.top <= 1).map(r => r.bottom)""")
        covered = max([0, *bars])
        assert box is not None and covered <= box["y"] and box["y"] + box["height"] <= 700, (path, box, covered)
        assert page.evaluate("() => document.querySelector(':target') !== null")
        page.close()


@pytest.mark.integration
def test_browser_search_crosses_languages_and_finds_printed_forms(browser, real_site):
    page, dialogs, errors = _open(browser, real_site / "index.html", viewport={"width": 1400, "height": 1000})

    def rows(q):
        page.fill("#f-text", q)
        return set(
            page.eval_on_selector_all("table.synoptic tbody tr:not(.hidden-by-filter)", "els => els.map(e => e.id)")
        )

    trump, atout = rows("trump"), rows("atout")
    assert trump and trump <= atout
    assert rows("celuj")  # a printed (OCR) form finds its law too
    assert not rows("zzzzqx")
    assert not dialogs and not errors
    page.close()


@pytest.mark.integration
def test_browser_every_law_has_a_cite_box_and_downloads(browser, real_site):
    for wp in sorted((real_site / "witness").glob("*.html")):
        page = browser.new_page()
        page.goto(wp.as_uri())
        n = page.locator("section.law").count()
        assert n > 0
        assert page.locator("section.law details.cite").count() == n
        page.locator("section.law details.cite summary").first.click()
        cite = page.locator("section.law details.cite .citation").first.inner_text()
        assert wp.stem in cite and "version" in cite and re.search(r"\d{4}-\d\d-\d\d", cite), cite
        hrefs = page.eval_on_selector_all("section.law .law-downloads a", "els => els.map(e => e.getAttribute('href'))")
        assert len(hrefs) >= 2 * n
        for h in set(hrefs):
            assert (wp.parent / h).resolve().is_file(), h  # the TEI, the text, the table exist beside the site
        page.close()


@pytest.mark.integration
def test_browser_witness_headers_stay_visible_deep_in_the_table(browser, real_site):
    page, dialogs, errors = _open(browser, real_site / "index.html", viewport={"width": 1400, "height": 800})
    wrap = page.locator("section.game[data-game='ecarte'] .table-wrap")
    wrap.scroll_into_view_if_needed()
    wrap.evaluate("el => { el.scrollTop = el.scrollHeight; }")  # deep in the table
    page.wait_for_timeout(100)
    th = page.locator("section.game[data-game='ecarte'] thead th[data-witness='en-003']").bounding_box()
    box = wrap.bounding_box()
    assert wrap.evaluate("el => el.scrollTop") > 0
    assert th is not None and abs(th["y"] - box["y"]) <= 2, (th, box)  # stuck to the top of the scrolled table
    assert not dialogs and not errors
    page.close()


# a book: the search key of its cells is found in one pass over each cell, with the same answer as a
# regular expression per glossary term


def _search_key_by_regex(texts, glossary):
    from pipeline.textnorm import fold

    hay = " ".join(fold(t) for t in texts if t)
    extra: list[str] = []
    pending = [tuple(fold(t) for t in (*fr, *en)) for fr, en in glossary]
    found = hay
    while True:
        hit = [ts for ts in pending if any(re.search(r"(?<!\w)" + re.escape(t), found) for t in ts)]
        if not hit:
            return " ".join([hay] + extra)
        pending = [ts for ts in pending if ts not in hit]
        extra.extend(dict.fromkeys(t for ts in hit for t in ts if t not in extra))
        found = " ".join([hay] + extra)


GLOSSARY = ((("atout",), ("trump",)), (("retourne",), ("turn-up", "trump card")), (("donne",), ("deal",)))


def test_search_key_crosses_languages_from_the_start_of_a_word_only():
    from pipeline.export.site.search import search_key

    assert "atout" in search_key(["Trumps are hearts."], GLOSSARY).split()
    # through "trump card": a pair found by a term the first pair added (to a fixed point)
    assert "retourne" in search_key(["the trump card is turned"], GLOSSARY)
    assert "atout" not in search_key(["a redeal"], GLOSSARY) and "donne" not in search_key(["a redeal"], GLOSSARY)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="atoutrumpdelcáé -'", max_size=40), max_size=3))
def test_search_key_equals_a_regex_per_term(texts):
    from pipeline.export.site.search import search_key

    assert search_key(texts, GLOSSARY) == _search_key_by_regex(texts, GLOSSARY)


def test_diplomatic_view_shows_a_control_character_of_the_scan_as_its_picture():
    # (a form feed between pdftotext's pages, a vertical tab: HTML can show neither, the page shows ␌ and ␋)
    raw = "1. If a card is faced in the deal,\x0b there must be a new deal.\n\x0c\n2. A misdeal loses the deal.\n"
    corrs = [_corr(raw, "\x0b", "", "normalisation"), _corr(raw, "\x0c\n", "", "normalisation")]
    page = render_site([_result(EN, raw, corrs)], ())["witness/en-901.html"].decode("utf-8")
    dip = lxml.html.fromstring(page).get_element_by_id("diplomatic")
    assert dip.text_content() == raw.replace("\x0b", "\u240b").replace("\x0c", "\u240c")
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", page)


def test_a_norm_of_the_rule_table_reads_as_a_sentence_on_the_site():
    from pipeline.export.site.views import ruling_sentence

    norm = {"game": "whist", "ruleset": "canonical", "event": "shuffling", "facts": {"force": "forbidden"}}
    assert (
        ruling_sentence({**norm, "outcome": "forbidden"}) == "In the canonical rules of whist, shuffling is forbidden."
    )
    remedy = {"game": "ecarte", "event": "cut_not_shown", "outcome": "lose_deal"}
    assert ruling_sentence(remedy) == "Of ecarte, when cut not shown, the outcome is: lose deal."
