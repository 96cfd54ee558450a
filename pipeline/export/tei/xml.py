"""The TEI vocabulary every writer and reader of the export shares: namespaces, element builders, the
teidata values, text XML 1.0 can hold, serialisation and the safe parser."""

from __future__ import annotations

import re
from collections.abc import Mapping

from lxml import etree

from .config import TeiConfig, TeiError

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
T = f"{{{TEI_NS}}}"
LAW_KINDS = ("law", "clause", "rule")


# --------------------------------------------------------------------------- small functions


def tei_element(tag: str, attrib: Mapping[str, str] | None = None, text: str | None = None) -> etree._Element:
    e = etree.Element(T + tag, nsmap={None: TEI_NS})
    for k, v in (attrib or {}).items():
        e.set(k, v)
    if text:
        e.text = text
    return e


def subelement(parent: etree._Element, tag: str, attrib: Mapping[str, str] | None = None, text: str | None = None):
    e = tei_element(tag, attrib, text)
    parent.append(e)
    return e


def append_text(parent: etree._Element, s: str) -> None:
    if not s:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + s
    else:
        parent.text = (parent.text or "") + s


def append_node(parent: etree._Element, node) -> None:
    if isinstance(node, str):
        append_text(parent, node)
    else:
        parent.append(node)


def teidata_word(s: str, default: str = "unknown") -> str:
    """A teidata.word (no whitespace, no control characters) for @type values."""
    w = re.sub(r"[\s\x00-\x1f]+", "_", s.strip())
    return w or default


def version_number(v: str) -> str:
    """application/@version must be a teidata.versionNumber (1 to 4 dot-separated numbers)."""
    m = re.match(r"\d+(\.\d+){0,3}", v)
    return m.group() if m else "0"


def collapse(s: str) -> str:
    return " ".join(s.split())


XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # characters XML 1.0 cannot hold


def safe_xml_text(s: str) -> str:
    """Characters XML 1.0 cannot hold are refused with a clear error (never dropped silently)."""
    bad = XML_ILLEGAL.search(s)
    if bad:
        raise TeiError(
            f"text contains a control character U+{ord(bad.group()):04X} that XML cannot hold; "
            "the cleaner should normalise it"
        )
    return s


CONTROL_G = "control"  # g/@type of a character of the scan that XML cannot hold (its code point in @n, U+000C)


def fill_diplomatic(el: etree._Element, s: str) -> None:
    """``s`` as ``el``'s content, where ``s`` is what the scan prints (sic, rdg): a character XML 1.0 cannot
    hold (a form feed between pdftotext's pages, a stray control code) becomes ``<g type="control"
    n="U+000C"/>``, which :func:`read_tei` reads back as the character, so the diplomatic view stays the raw
    text whole."""
    parts = XML_ILLEGAL.split(s)
    el.text = parts[0] or None
    for ch, tail in zip(XML_ILLEGAL.findall(s), parts[1:]):
        g = subelement(el, "g", {"type": CONTROL_G, "n": f"U+{ord(ch):04X}"})
        g.tail = tail or None


# --------------------------------------------------------------------------- serialisation


STRUCTURAL = {
    "TEI",
    "teiHeader",
    "fileDesc",
    "titleStmt",
    "respStmt",
    "publicationStmt",
    "sourceDesc",
    "bibl",
    "listWit",
    "encodingDesc",
    "appInfo",
    "application",
    "editorialDecl",
    "correction",
    "normalization",
    "hyphenation",
    "segmentation",
    "profileDesc",
    "langUsage",
    "revisionDesc",
    "text",
    "body",
    "back",
    "div",
    "list",
    "standOff",
    "linkGrp",
    "certainty",
    "listAnnotation",
    "classDecl",
    "taxonomy",
    "category",
    "availability",
    "relatedItem",
}


def indent_tree(e: etree._Element, level: int, unit: str) -> None:
    """Pretty-print element-only containers; mixed content (p, head, fw, ...) is never touched."""
    tag = etree.QName(e).localname
    if tag not in STRUCTURAL or not len(e) or (e.text and e.text.strip()):
        return
    if any(ch.tail and ch.tail.strip() for ch in e):
        return
    pad = "\n" + unit * (level + 1)
    e.text = pad
    for ch in e:
        ch.tail = pad
        indent_tree(ch, level + 1, unit)
    e[-1].tail = "\n" + unit * level


def serialize(root: etree._Element, config: TeiConfig = TeiConfig()) -> bytes:
    indent_tree(root, 0, config.indent)
    return etree.tostring(root.getroottree(), encoding="UTF-8", xml_declaration=True) + b"\n"


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_blank_text=False
    )


def parse_safe(data: bytes, what: str = "TEI document") -> etree._ElementTree:
    """Parse without DTDs, network or entity expansion; DOCTYPEs and entities are refused."""
    if not isinstance(data, (bytes, bytearray)):
        raise TeiError(f"{what}: expected bytes, got {type(data).__name__}")
    try:
        tree = etree.fromstring(bytes(data), _parser()).getroottree()
    except etree.XMLSyntaxError as e:
        msg = str(e).splitlines()[0] if str(e) else "syntax error"
        raise TeiError(f"{what} is not well-formed XML: {msg}") from None
    di = tree.docinfo
    if di.doctype or di.internalDTD is not None or di.externalDTD is not None:
        raise TeiError(
            f"{what} has a DOCTYPE (entity declarations are never expanded); "
            "TEI files of this edition have none: remove it"
        )
    for node in tree.iter():
        if isinstance(node, etree._Entity):
            raise TeiError(f"{what} uses an entity reference &{node.name}; which is not expanded; remove it")
    return tree


def local_name(e) -> str:
    return etree.QName(e).localname if isinstance(e.tag, str) else ""
