"""The TEI of a game's word-level collation (``outputs/tei/collation-<game>.xml``).

Public API::

    collation_tei(game, pairs, readings, build) -> bytes     # outputs/tei/collation-<game>.xml
    collation_files(laws, links, readings, build) -> {"tei/collation-<game>.xml": bytes}

The TEI is parallel segmentation (Guidelines, chapter 12): one ``div`` per aligned pair whose
``@corresp`` points to the two laws, holding an ``ab`` in which agreed text is plain and each variant is
``app`` with the base witness's reading in ``lem`` (the pair's first witness, in corpus order) and the other's in
``rdg`` (``@wit`` pointing into the header's ``listWit``; an empty one is an omission), so tools that print the
lemma (TEI Publisher's default rules) keep the base text whole.  The Versioning Machine and EVT read this form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...model import Law, Link
from ..collate import collate, collation_pairs, join_tokens
from .config import BuildInfo
from .header import application, publication_stmt, title_stmt, witness_file, xml_model
from .xml import XML_ID, XML_LANG, safe_xml_text, serialize, subelement, tei_element, teidata_word


def collation_tei(
    game: str, pairs: Sequence[tuple[Link, Law, Law]], readings: Mapping[str, str], build: BuildInfo
) -> bytes:
    """The TEI parallel-segmentation file of one game's same-language collations."""
    witnesses = sorted({law.witness_id for _, a, b in pairs for law in (a, b)})
    langs = sorted({a.lang for _, a, _ in pairs})
    root = tei_element("TEI")
    root.set(XML_LANG, "en")
    root.set("n", f"collation-{game}")
    h = subelement(root, "teiHeader")
    fd = subelement(h, "fileDesc")
    title_stmt(fd, f"Word-level collation of the aligned laws of {game} (one language)", build)
    publication_stmt(fd, build, f"tei/collation-{teidata_word(game)}.xml")
    sd = subelement(fd, "sourceDesc")
    lw = subelement(sd, "listWit") if witnesses else None
    for wid in witnesses:
        wit = subelement(lw, "witness", {"corresp": witness_file(wid)}, wid)
        wit.set(XML_ID, f"col.{teidata_word(game)}.{wid}")
    if not witnesses:
        subelement(sd, "p", text="No two laws of one language are aligned in this game.")
    ed = subelement(h, "encodingDesc")
    application(ed, build)
    subelement(ed, "variantEncoding", {"method": "parallel-segmentation", "location": "internal"})
    subelement(
        ed,
        "p",
        text="One div per pair of aligned laws of one language (@corresp: the two laws). Text both "
        "witnesses share is plain; each variant is an app with the first witness's reading as lem (the "
        "base text) and the other's as rdg (an empty one: the witness has no token there). Tokens are words and punctuation marks; the alignment is "
        "a longest common subsequence of the two token sequences.",
    )
    if langs:
        lu = subelement(subelement(h, "profileDesc"), "langUsage")
        for lang in langs:
            subelement(lu, "language", {"ident": lang}, lang)
    rd = subelement(h, "revisionDesc")
    attrs = {"who": build.resp, "n": build.version}
    if build.date:
        attrs["when"] = build.date
    subelement(
        rd, "change", attrs, f"Built by pipeline version {build.version}, build {build.build}: {len(pairs)} pairs."
    )
    body = subelement(subelement(root, "text"), "body")
    for k, a, b in pairs:
        div = subelement(
            body,
            "div",
            {
                "type": "collation",
                "corresp": f"{witness_file(a.witness_id)}#{a.id} {witness_file(b.witness_id)}#{b.id}",
            },
        )
        div.set(XML_ID, f"collation.{a.id}--{b.id}")
        div.set(XML_LANG, a.lang)
        ab = subelement(div, "ab")
        first = True
        for seg in collate(readings.get(a.id, a.text), readings.get(b.id, b.text)):
            if not first:
                _text(ab, " ")
            first = False
            if not seg.variant:
                _text(ab, join_tokens(seg.a))
                continue
            ap = subelement(ab, "app")
            # the pair's first witness is the base text (lem); the other's reading is the variant (rdg)
            for tag, wid, toks in (("lem", a.witness_id, seg.a), ("rdg", b.witness_id, seg.b)):
                subelement(
                    ap, tag, {"wit": f"#col.{teidata_word(game)}.{wid}"}, safe_xml_text(join_tokens(toks)) or None
                )
    if not len(body):
        subelement(body, "p", text="No two laws of one language are aligned in this game.")
    xml_model(root)
    return serialize(root)


def _text(parent, s: str) -> None:
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + s
    else:
        parent.text = (parent.text or "") + s


def collation_files(
    laws: Sequence[Law], links: Sequence[Link], readings: Mapping[str, str], build: BuildInfo
) -> Mapping[str, bytes]:
    """``tei/collation-<game>.xml`` for every game that has laws (``readings``: ``witness_readings`` of
    the witnesses, law id -> text; a law without one is collated on its reading text)."""
    pairs = collation_pairs(laws, links)
    games = sorted({law.game for law in laws})
    return {
        f"tei/collation-{teidata_word(g)}.xml": collation_tei(g, [p for p in pairs if p[0].game == g], readings, build)
        for g in games
    }


__all__ = ["collation_tei", "collation_files"]
