"""Reading a TEI witness file back: its reading and diplomatic views and its laws (``read_tei``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree

from .config import TeiConfig, TeiError
from .xml import CONTROL_G, LAW_KINDS, XML_ID, XML_LANG, T, collapse, local_name, parse_safe

# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class TeiLaw:
    id: str
    kind: str
    n: str
    number: int | None
    text: str
    parent: str | None = None


@dataclass(frozen=True)
class TeiWitness:
    witness_id: str
    lang: str
    reading_text: str  # corr, orig, joined hyphens, no fw: the cleaned text
    diplomatic_text: str  # sic, printed hyphens and line breaks, running heads: the raw text minus omitted debris
    laws: tuple[TeiLaw, ...]
    pages: tuple[tuple[str, str], ...] = ()  # (pb/@n, running head as read) in order


def _views(e: etree._Element, hyph: Mapping[str, str], skip=()) -> tuple[str, str]:
    """(reading, diplomatic) of an element's content including its text, excluding its tail."""
    tag = local_name(e)
    if tag == "choice":
        kids = {local_name(c): c for c in e if isinstance(c.tag, str)}
        if "sic" in kids or "corr" in kids:
            r = _views(kids["corr"], hyph, skip)[0] if "corr" in kids else ""
            d = _views(kids["sic"], hyph, skip)[1] if "sic" in kids else ""
            return r, d
        if "orig" in kids:
            r, d = _views(kids["orig"], hyph, skip)
            return r, d
        raise TeiError("choice without sic/corr or orig/reg")
    if tag == "app":  # an OCR misreading: the page's reading in lem, the OCR's in rdg
        kids = {local_name(c): c for c in e if isinstance(c.tag, str)}
        r = _views(kids["lem"], hyph, skip)[0] if "lem" in kids else ""
        d = _views(kids["rdg"], hyph, skip)[1] if "rdg" in kids else ""
        return r, d
    if tag == "lb":
        rend = e.get("rend")
        if rend and rend not in hyph:
            raise TeiError(f"lb/@rend={rend!r} names no known hyphen")
        return ("" if e.get("break") == "no" else " "), (hyph.get(rend, "") if rend else "") + "\n"
    if tag in ("pb", "note", "supplied"):  # the page, a footnote's text, the editor's words: not the witness's
        return "", ""
    if tag == "hi" and e.get("rend") == "italic":  # italics a transcription typed as Markdown: "_a_"
        r, d = _content(e, hyph, skip)
        return r, f"_{d}_"
    if tag == "g" and e.get("type") == CONTROL_G:  # (a character of the scan XML cannot hold: fill_diplomatic)
        n = e.get("n", "")
        if not re.fullmatch(r"U\+[0-9A-F]{4,6}", n):
            raise TeiError(f"g[@type='control']/@n={n!r} is no code point (U+000C)")
        return "", chr(int(n[2:], 16))
    if tag == "fw":
        return "", _content(e, hyph, skip)[1]
    if any(e is x for x in skip):
        return "", ""
    return _content(e, hyph, skip)


def _content(e: etree._Element, hyph, skip=()) -> tuple[str, str]:
    r, d = [e.text or ""], [e.text or ""]
    for ch in e:
        if isinstance(ch.tag, str):
            cr, cd = _views(ch, hyph, skip)
            r.append(cr)
            d.append(cd)
        r.append(ch.tail or "")
        d.append(ch.tail or "")
    return "".join(r), "".join(d)


BLOCKS = ("p", "ab", "head")


def _blocks(body: etree._Element) -> list[etree._Element]:
    out = []
    for e in body.iter(T + "p", T + "ab", T + "head"):
        if not any(local_name(a) in BLOCKS for a in e.iterancestors()):
            out.append(e)
    return out


def _law_text(div: etree._Element, hyph) -> str:
    """Reading text of a law's div: its blocks and nested divs, without the div's own num."""
    own = tuple(n for n in div.iter(T + "num") if next(n.iterancestors(T + "div")) is div)  # kept alive: lxml proxies
    return collapse("".join(_content(b, hyph, skip=own)[0] for b in _blocks(div)))


def read_tei(data: bytes, config: TeiConfig = TeiConfig()) -> TeiWitness:
    """Read a witness TEI back: reading view, diplomatic view and laws."""
    tree = parse_safe(data)
    root = tree.getroot()
    if root.tag != T + "TEI":
        raise TeiError(f"not a TEI document: the root element is {root.tag!r}")
    text = root.find(T + "text")
    body = text.find(T + "body") if text is not None else None
    if body is None:
        raise TeiError("TEI document has no text/body")
    hyph = {v: k for k, v in config.hyphens}
    reading, diplomatic = [], []
    for b in _blocks(body):
        r, d = _content(b, hyph)
        reading.append(r)
        diplomatic.append(d)
    laws: list[TeiLaw] = []
    parts: dict[str, int] = {}
    for div in body.iter(T + "div"):
        kind = div.get("type")
        if kind not in LAW_KINDS:
            continue
        lid = div.get(XML_ID)
        prev = div.get("prev")
        if prev:  # a later part of an interrupted law: append to it
            base = prev[1:].split(".part-")[0]
            if base in parts:
                i = parts[base]
                old = laws[i]
                laws[i] = TeiLaw(
                    old.id, old.kind, old.n, old.number, collapse(old.text + " " + _law_text(div, hyph)), old.parent
                )
            continue
        if not lid:
            continue
        num = next(
            (
                n
                for n in div.iter(T + "num")
                if next(div.iterancestors(T + "div"), None) is not None and next(n.iterancestors(T + "div")) is div
            ),
            None,
        )
        number = None
        if num is not None and num.get("value"):
            number = int(float(num.get("value")))
        n = div.get("n", "")
        parent_div = next((a for a in div.iterancestors(T + "div") if a.get("type") in LAW_KINDS), None)
        parent = None
        if parent_div is not None:
            parent = parent_div.get(XML_ID)
        if number is None and kind == "law" and n.isdigit():
            number = int(n)
        if number is None and kind == "clause" and parent is not None and parent in parts:
            number = laws[parts[parent]].number
        parts[lid] = len(laws)
        laws.append(TeiLaw(lid, kind, n, number, _law_text(div, hyph), parent))
    pages = []
    for pb in body.iter(T + "pb"):
        fw = pb.getnext()
        head = ""
        if fw is not None and local_name(fw) == "fw" and fw.get("type") == "header":
            corrs = [c for c in fw.iter(T + "corr") if next(c.iterancestors(T + "fw")) is fw]
            nums = tuple(fw.iter(T + "fw"))[1:]  # nested pageNum fws, kept alive for the skip test
            head = collapse(corrs[0].text or "") if corrs else collapse(_content(fw, hyph, skip=nums)[1])
        pages.append((pb.get("n", ""), head))
    return TeiWitness(
        witness_id=root.get("n", ""),
        lang=text.get(XML_LANG, ""),
        reading_text="".join(reading),
        diplomatic_text="".join(diplomatic),
        laws=tuple(laws),
        pages=tuple(pages),
    )
