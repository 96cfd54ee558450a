"""TEI headers: the title and publication statements every file of the edition shares, the schema
processing instruction, file names and pointers, and the full ``teiHeader`` of a witness file."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from lxml import etree

from ...model import Cleaned, Segmented, Witness
from .config import BuildInfo, Editor
from .xml import XML_ID, append_text, subelement, tei_element, teidata_word, version_number

if TYPE_CHECKING:
    from .text import Token

LANGUAGE_NAMES = {"fr": "French", "en": "English"}


XML_MODEL = (
    ("href", "https://www.tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng"),
    ("type", "application/xml"),
    ("schematypens", "http://relaxng.org/ns/structure/1.0"),
)


def xml_model(root: etree._Element) -> None:
    """The ``<?xml-model?>`` processing instruction before the root: the schema the file is valid against."""
    root.addprevious(etree.ProcessingInstruction("xml-model", " ".join(f'{k}="{v}"' for k, v in XML_MODEL)))


def application(encoding_desc: etree._Element, b: BuildInfo) -> None:
    """The pipeline as the application that made the file (``appInfo``; ``@resp`` of the repairs points to it)."""
    app = subelement(
        subelement(encoding_desc, "appInfo"),
        "application",
        {"ident": "card-laws-pipeline", "version": version_number(b.version)},
    )
    app.set(XML_ID, b.resp_id)
    subelement(app, "label", text=f"digitization pipeline {b.version} (build {b.build})")


def title_stmt(parent: etree._Element, title: str, b: BuildInfo, author: str = "") -> None:
    ed = b.edition
    ts = subelement(parent, "titleStmt")
    subelement(ts, "title", {"type": "main"}, title)
    subelement(ts, "title", {"type": "sub"}, ed.title)
    if author:
        subelement(ts, "author", text=author)
    for e in ed.editors:
        if not e.ref:
            subelement(ts, "editor", text=e.name)
    for e in ed.editors or (
        Editor("digitization pipeline", "automatic cleaning, segmentation and TEI encoding", b.resp),
    ):
        rs = subelement(ts, "respStmt")
        subelement(rs, "resp", text=e.resp or "editing")
        subelement(rs, "name", {"ref": e.ref} if e.ref else {}, e.name)


def publication_stmt(parent: etree._Element, b: BuildInfo, path: str) -> None:
    ed = b.edition
    ps = subelement(parent, "publicationStmt")
    subelement(ps, "publisher", text=ed.publisher or "unpublished build of the cardlaws pipeline")
    if ed.pub_place:
        subelement(ps, "pubPlace", text=ed.pub_place)
    if b.date:
        subelement(ps, "date", {"when": b.date}, b.date)
    av = subelement(ps, "availability", {"status": "free" if ed.licence_url else "unknown"})
    if ed.licence_url:
        subelement(av, "licence", {"target": ed.licence_url}, ed.licence_name or ed.licence_url)
    else:
        subelement(av, "p", text="No licence is stated for this build.")
    kind, value = ed.idno(path)
    subelement(ps, "idno", {"type": teidata_word(kind)}, value)
    if ed.version:
        subelement(ps, "idno", {"type": "version"}, ed.version)


def _taxonomies(parent: etree._Element, b: BuildInfo, used: Mapping[str, set[str]]) -> None:
    """classDecl: one taxonomy per attribute whose values the file uses (each value a category)."""
    if not any(used.values()):
        return
    kinds = dict(b.edition.correction_kinds)
    cd = subelement(parent, "classDecl")
    for attr, what in (
        ("type", "Kinds of repair (corr/@type, app/@type, reg/@type)"),
        ("subtype", "Methods that decided a repair (corr/@subtype, app/@subtype)"),
    ):
        if not used.get(attr):
            continue
        tax = subelement(cd, "taxonomy")
        tax.set(XML_ID, f"taxonomy.{attr}")
        subelement(subelement(tax, "desc"), "label", text=what)
        for value in sorted(used[attr]):
            cat = subelement(tax, "category")
            cat.set(XML_ID, f"{attr}.{_ncname(value)}")
            desc = subelement(cat, "catDesc")
            subelement(desc, "term", text=value)
            if attr == "type":
                append_text(
                    desc,
                    ": "
                    + kinds.get(
                        value,
                        "modern form of a historical spelling"
                        if value == "modern"
                        else "a kind of repair of the pipeline",
                    ),
                )
            else:
                append_text(desc, ": the repair was decided by the pipeline's method of this name")


def _ncname(s: str) -> str:
    """A string usable as (part of) an xml:id."""
    return re.sub(r"[^\w.-]", "_", s)


def witness_header(
    w: Witness,
    b: BuildInfo,
    c: Cleaned,
    s: Segmented,
    omitted: Sequence[Token],
    used: Mapping[str, set[str]],
    ocr: bool,
) -> etree._Element:
    """The teiHeader of a witness file: what the edition is, from what, and how it is encoded."""
    h = tei_element("teiHeader")
    fd = subelement(h, "fileDesc")
    title_stmt(fd, w.title or w.id, b, w.author)
    publication_stmt(fd, b, f"tei/{witness_file(w.id)}")
    sd = subelement(fd, "sourceDesc")
    bibl = subelement(sd, "bibl")
    subelement(bibl, "title", text=w.title or w.id)
    if w.author:
        subelement(bibl, "author", text=w.author)
    if w.place:
        subelement(bibl, "pubPlace", text=w.place)
    if w.publisher:
        subelement(bibl, "publisher", text=w.publisher)
    if w.year is not None:
        subelement(bibl, "date", {"when": f"{w.year:04d}"}, str(w.year))
    if w.page:
        subelement(bibl, "biblScope", {"unit": "page", "from": w.page}, f"from p. {w.page}")
    if w.source:
        subelement(bibl, "idno", {"type": "source"}, w.source)
    subelement(bibl, "idno", {"type": "witness"}, w.id)
    subelement(bibl, "note", {"type": "kind"}, f"{w.kind} witness ({w.game}, {w.lang}); raw file {w.file}")
    missing = [
        x for x, v in (("place", w.place), ("publisher", w.publisher), ("date", w.year), ("author", w.author)) if not v
    ]
    if missing:
        subelement(bibl, "note", {"type": "unknown"}, "Not identified in the source file: " + ", ".join(missing) + ".")
    if w.derived_from:
        rel = subelement(bibl, "relatedItem", {"type": "derivedFrom", "target": witness_file(w.derived_from)})
        subelement(rel, "bibl", text=f"witness {w.derived_from}")
        subelement(
            bibl,
            "note",
            {"type": "derivation"},
            f"Made from witness {w.derived_from}" + (f" by {w.made_by}" if w.made_by else "") + ".",
        )
    if w.note:
        subelement(bibl, "note", text=w.note)
    if ocr:
        lw = subelement(sd, "listWit")
        wit = subelement(
            lw, "witness", text=f"The OCR output of the scan ({w.file}): its misreadings are rdg[@wit='#ocr']."
        )
        wit.set(XML_ID, "ocr")

    ed = subelement(h, "encodingDesc")
    application(ed, b)
    dec = subelement(ed, "editorialDecl")
    corr = subelement(dec, "correction", {"method": "markup"})
    if ocr:
        subelement(
            corr,
            "p",
            text="This text was read by OCR. What the OCR misread is not an error of the page, so it is not "
            "sic: each repair is an app whose lem is the reading of the page and whose rdg[@wit='#ocr'] "
            "is what the OCR gave; app/@type is the kind of repair, app/@subtype the method, lem/@cert "
            "high, medium or low from the repair's confidence. Removed debris has an empty lem. "
            "Errors of the printed page itself are choice/sic/corr. Words left as printed but doubtful "
            "are seg[@type='flag'], listed with their candidates in back.",
        )
    else:
        subelement(
            corr,
            "p",
            text="The text was transcribed or made, not read by OCR, so an error in it is an error of the "
            "source: each repair is choice/sic/corr with the source's form in sic; corr/@cert is high, "
            "medium or low from the repair's confidence, corr/@type the kind of repair and "
            "corr/@subtype the method. Removed debris characters have an empty corr. Words left as "
            "printed but doubtful are seg[@type='flag'], listed with their candidates in back.",
        )
    n_omit = len(omitted)
    if n_omit:
        where = "; ".join(f"raw {t.rs}-{t.re}" for t in omitted)
        subelement(
            subelement(corr, "p"),
            "note",
            {"type": "omitted"},
            f"{n_omit} line(s) of web-page debris omitted from the text ({where}).",
        )
    else:
        subelement(
            subelement(corr, "p"),
            "note",
            {"type": "omitted"},
            "No web-page debris lines were found; nothing was omitted.",
        )
    norm = subelement(dec, "normalization", {"method": "markup"})
    subelement(
        norm,
        "p",
        text="Historical spellings are kept in the reading text; where a modern form is known it is "
        "given as choice/orig/reg. Current British spellings (favourable, honour) are not "
        "regularised. Typographic normalisation (Unicode NFC, quotes, spacing) is marked like other "
        "repairs. A character of the scan that XML cannot hold (a form feed, a control code) is removed from "
        "the reading and kept in sic or rdg as g[@type='control'], its code point in @n (U+000C).",
    )
    hy = subelement(dec, "hyphenation", {"eol": "some"})
    subelement(
        hy,
        "p",
        text="End-of-line hyphens joined by the pipeline are lb[@break='no'] with @rend naming the printed "
        "hyphen (hyphen = '-'); a line break read as a space is lb. Where the OCR kept a line-end hyphen "
        "inside its line, the lb is the lem of an app whose rdg[@wit='#ocr'] is the OCR's form. Running "
        "heads and page numbers are pb followed by fw, where they fall in the text; the first page "
        "has a pb at the start of the body.",
    )
    seg = subelement(dec, "segmentation")
    subelement(
        seg,
        "p",
        text="One div per law (type law), clause (type clause, nested in its law) or unnumbered rule "
        "(type rule); xml:id is the law id, @n its number as read; the number as printed is the "
        "div's head (num/@value the number as read).",
    )
    _taxonomies(ed, b, used)
    pd = subelement(h, "profileDesc")
    lu = subelement(pd, "langUsage")
    subelement(lu, "language", {"ident": w.lang}, LANGUAGE_NAMES.get(w.lang, w.lang))
    if w.lang != "en":
        subelement(lu, "language", {"ident": "en"}, "English (header)")
    rd = subelement(h, "revisionDesc")
    attrs = {"who": b.resp, "n": b.version}
    if b.date:
        attrs["when"] = b.date
    subelement(
        rd,
        "change",
        attrs,
        f"Built by pipeline version {b.version}, build {b.build}: "
        f"{len(c.corrections)} corrections, {len(c.page_breaks)} page breaks, "
        f"{len(s.laws)} laws.",
    )
    return h


# --------------------------------------------------------------------------- file names and pointers


def witness_file(witness_id: str) -> str:
    """File name of a witness's TEI in the edition folder (the target convention)."""
    return f"{witness_id}.xml"


def law_pointer(law_id: str, witness_id: str) -> str:
    return f"{witness_file(witness_id)}#{law_id}"
