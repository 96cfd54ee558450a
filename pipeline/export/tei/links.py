"""The stand-off alignment file: each part of the links as data (``link_fragments``), streamed into one
file by ``AlignmentsWriter`` (``alignments_tei`` for one part)."""

from __future__ import annotations

import io
import pickle
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lxml import etree

from ...model import Law, Link
from .config import BuildInfo, TeiConfig, TeiError, cert_level
from .header import application, law_pointer, publication_stmt, title_stmt, witness_file, xml_model
from .xml import (
    TEI_NS,
    XML_ID,
    XML_LANG,
    XML_NS,
    T,
    indent_tree,
    safe_xml_text,
    serialize,
    subelement,
    tei_element,
    teidata_word,
)

NO_COUNTERPART = "no_counterpart"  # the linkGrp of laws with no counterpart in another witness (ptr elements)


@dataclass(frozen=True)
class LinkFragments:
    """One part of the alignment file, as data: per (game, kind) group, the attributes of its ``link``
    elements and of its ``certainty`` elements (with the ``desc`` text), in the order the file lists
    them, and the link count.  ``AlignmentsWriter`` turns them into elements."""

    groups: tuple[tuple[tuple[str, str], tuple[dict[str, str], ...], tuple[tuple[dict[str, str], str], ...]], ...]
    count: int


def link_fragments(
    links: Sequence[Link], witness_of: Mapping[str, str], config: TeiConfig = TeiConfig(), unaligned: Sequence = ()
) -> LinkFragments:
    """The TEI of one part of the links (see ``AlignmentsWriter``): a pure function of the part, so
    that it can be made where the part was computed and cached with it.  ``unaligned`` (align.Unaligned): laws with
    no counterpart in another witness, as ``ptr`` elements in a linkGrp of type "no_counterpart" (the reason in a
    certainty element, as for links)."""
    missing = sorted({x for k in links for x in (k.a, k.b) if x not in witness_of})
    if missing:
        raise TeiError(f"alignments_tei: links point to laws that are not given: {', '.join(missing[:5])}")
    used: dict[str, int] = {}
    groups: dict[tuple[str, str], tuple[list[dict[str, str]], list[tuple[dict[str, str], str]]]] = {}
    types = dict(config.link_types)
    for k in sorted(links, key=lambda k: (k.game, k.kind, k.a, k.b, k.score)):
        kind = teidata_word(types.get(k.kind, k.kind))
        lid = f"link.{kind}.{k.a}--{k.b}"
        used[lid] = used.get(lid, 0) + 1
        if used[lid] > 1:
            lid = f"{lid}.{used[lid]}"
        cert = k.band or cert_level(k.score, config)  # the aligner's calibrated band (pipeline/align.py)
        target = f"{law_pointer(k.a, witness_of[k.a])} {law_pointer(k.b, witness_of[k.b])}"
        out = groups.setdefault((k.game, kind), ([], []))
        out[0].append({"target": target, "cert": cert, XML_ID: lid})
        desc = safe_xml_text(k.evidence or f"{kind} link, score {_degree(k.score)}")
        out[1].append(({"target": "#" + lid, "locus": "location", "cert": cert, "degree": _degree(k.score)}, desc))
    for u in sorted(unaligned, key=lambda u: (u.game, u.law, u.other_witness)):
        pid = f"nocp.{u.law}--{u.other_witness}"
        out = groups.setdefault((u.game, NO_COUNTERPART), ([], []))
        out[0].append(
            {"target": law_pointer(u.law, u.witness), "type": NO_COUNTERPART, "n": u.other_witness, XML_ID: pid}
        )
        desc = safe_xml_text(f"no counterpart in {u.other_witness}: {u.reason}; reading: {u.reading}")
        out[1].append(({"target": "#" + pid, "locus": "location", "cert": "medium"}, desc))
    return LinkFragments(tuple((g, tuple(a), tuple(b)) for g, (a, b) in groups.items()), len(links))


def _spool_records(spool, records: Sequence) -> None:
    pickle.dump(tuple(records), spool, protocol=pickle.HIGHEST_PROTOCOL)


def _read_records(spool):
    spool.seek(0)
    while True:
        try:
            chunk = pickle.load(spool)
        except EOFError:
            return
        yield from chunk


def _stream(xf, e: etree._Element) -> None:
    """Write the element ``e`` (with its content, without its tail) through ``xf`` as nested elements,
    so that the namespaces declared by the enclosing ``xf.element`` are not declared again."""
    with xf.element(e.tag, dict(e.attrib)):
        if e.text:
            xf.write(e.text)
        for ch in e:
            _stream(xf, ch)
            if ch.tail:
                xf.write(ch.tail)


class AlignmentsWriter:
    """The stand-off alignment file, written from links given part by part.

    A large library has millions of links: they are never held together. ``add`` keeps each part's
    links as records in one spool per link group (SpooledTemporaryFile: memory while small, disk
    beyond); ``write`` streams the header, the groups and the certainty elements into a file with
    ``lxml.etree.xmlfile``, one element at a time. Within a group the links of a part are sorted by
    (law a, law b, score); parts keep the order they were added in. ``alignments_tei`` is the same
    writer over one part.
    """

    SPOOL_BYTES = 4 * 2**20

    def __init__(self, config: TeiConfig = TeiConfig()):
        self.config = config
        self.links = 0
        self._groups: dict[
            tuple[str, str], tuple[tempfile.SpooledTemporaryFile[bytes], tempfile.SpooledTemporaryFile[bytes]]
        ] = {}
        self._witnesses: dict[str, tuple[str, str]] = {}  # witness id -> (game, lang)

    def witness(self, witness_id: str, game: str, lang: str) -> None:
        """Declare a witness (listWit lists every witness that has laws)."""
        self._witnesses[witness_id] = (game, lang)

    def add(self, links: Sequence[Link], witness_of: Mapping[str, str]) -> None:
        self.add_fragments(link_fragments(links, witness_of, self.config))

    def add_fragments(self, fragments: "LinkFragments") -> None:
        """Add one part made beforehand (``link_fragments``, for example on a worker)."""
        for group, links, certs in fragments.groups:
            spool = self._groups.get(group)
            if spool is None:
                spool = self._groups[group] = (
                    tempfile.SpooledTemporaryFile(self.SPOOL_BYTES),
                    tempfile.SpooledTemporaryFile(self.SPOOL_BYTES),
                )
            _spool_records(spool[0], links)
            _spool_records(spool[1], certs)
        self.links += fragments.count

    def header(self, build: BuildInfo) -> etree._Element:
        h = tei_element("teiHeader")
        fd = subelement(h, "fileDesc")
        title_stmt(fd, "Alignments of the laws across witnesses", build)
        publication_stmt(fd, build, "tei/alignments.xml")
        sd = subelement(fd, "sourceDesc")
        lw = subelement(sd, "listWit")
        for wid in sorted(self._witnesses):
            game, lang = self._witnesses[wid]
            wit = subelement(lw, "witness", {"corresp": witness_file(wid), "n": wid})
            wit.set(XML_ID, f"wit.{wid}")
            wit.text = f"{wid} ({game}, {lang})"
        if not self._witnesses:
            subelement(sd, "p", text="No witnesses.")
        ed = subelement(h, "encodingDesc")
        application(ed, build)
        subelement(
            ed,
            "p",
            text="One linkGrp per game (@subtype) and kind of link (@type). link/@target points to two laws "
            "as <witness>.xml#<law id>; link/@cert is high, medium or low; the exact score (0..1) and the "
            "evidence are in a certainty element whose @target points to the link. The kinds say how "
            "two laws correspond, never that one descends from the other: same_source (two readings of "
            "one printed source), parallel_other_language (corresponding provisions in two languages), "
            "parallel_same_language (corresponding provisions of two sources in one language). A linkGrp "
            "of type no_counterpart lists, as ptr elements, the laws the aligner found no counterpart for "
            "in the witness named by ptr/@n, the reason in its certainty element.",
        )
        rd = subelement(h, "revisionDesc")
        attrs = {"who": build.resp, "n": build.version}
        if build.date:
            attrs["when"] = build.date
        subelement(
            rd, "change", attrs, f"Built by pipeline version {build.version}, build {build.build}: {self.links} links."
        )
        return h

    def write(self, out, build: BuildInfo) -> None:
        """Write the whole file to the binary file object ``out``."""
        header = self.header(build)
        if not self._groups:
            root = tei_element("TEI")
            root.set(XML_LANG, "en")
            root.set("n", "alignments")
            root.append(header)
            # standOff needs content: an empty link group would be invalid, so say so in a note
            subelement(subelement(root, "standOff"), "listAnnotation").append(
                tei_element("note", text="No alignment links in this build.")
            )
            xml_model(root)
            out.write(serialize(root, self.config))
            return
        unit = self.config.indent
        indent_tree(header, 1, unit)
        with etree.xmlfile(out, encoding="UTF-8") as xf:
            xf.write_declaration()
            root = tei_element("TEI")
            xml_model(root)
            xf.write(root.getprevious())
            with xf.element(T + "TEI", {XML_LANG: "en", "n": "alignments"}, nsmap={None: TEI_NS, "xml": XML_NS}):
                xf.write("\n" + unit)
                _stream(xf, header)
                xf.write("\n" + unit)
                with xf.element(T + "standOff"):
                    groups = sorted(self._groups.items())
                    types = dict(self.config.link_types)
                    for (game, kind), (links, _) in groups:
                        g, t = teidata_word(game), teidata_word(types.get(kind, kind))
                        xf.write("\n" + unit * 2)
                        with xf.element(T + "linkGrp", {"type": t, "subtype": g, XML_ID: f"links.{g}.{t}"}):
                            for attrs in _read_records(links):
                                xf.write("\n" + unit * 3)
                                with xf.element(T + ("ptr" if kind == NO_COUNTERPART else "link"), attrs):
                                    pass
                            xf.write("\n" + unit * 2)
                    for _, (_, certs) in groups:
                        for attrs, desc in _read_records(certs):
                            xf.write("\n" + unit * 2)
                            with xf.element(T + "certainty", attrs):
                                xf.write("\n" + unit * 3)
                                with xf.element(T + "desc"):
                                    xf.write(desc)
                                xf.write("\n" + unit * 2)
                    xf.write("\n" + unit)
                xf.write("\n")
            xf.flush()
        out.write(b"\n")

    def close(self) -> None:
        for a, b in self._groups.values():
            a.close()
            b.close()
        self._groups.clear()


def alignments_tei(
    links: Sequence[Link], laws: Sequence[Law], build: BuildInfo, config: TeiConfig = TeiConfig()
) -> bytes:
    """The stand-off alignment file: one linkGrp per game and kind.

    Each ``link/@target`` holds two pointers ``<witness>.xml#<law id>``.  The score is kept twice:
    ``link/@cert`` is the categorical high/medium/low (the TEI ``teidata.certainty`` words that
    readers filter on), and a ``certainty`` element in the same standOff points at the link with
    ``@target`` and gives the exact score in ``@degree`` (``teidata.probability``, 0..1) plus the
    evidence in ``desc``.  ``certainty/@degree`` is the attribute TEI defines for a numeric
    probability of an assertion, so the number needs no private convention (``@n`` would be a
    label, and an ``interp`` per link would only add indirection).
    """
    writer = AlignmentsWriter(config)
    for law in laws:
        writer.witness(law.witness_id, law.game, law.lang)
    writer.add(links, {law.id: law.witness_id for law in laws})
    buf = io.BytesIO()
    try:
        writer.write(buf, build)
    finally:
        writer.close()
    return buf.getvalue()


def _degree(score: float) -> str:
    s = min(1.0, max(0.0, float(score)))
    return f"{s:.4f}".rstrip("0").rstrip(".") if s not in (0.0, 1.0) else ("0" if s == 0 else "1")
