"""Word-level collation of aligned laws of one language, and its TEI (parallel segmentation).

Public API::

    tokens(text) -> tuple[str, ...]                          # words and punctuation marks, in order
    collate(a_text, b_text) -> tuple[Segment, ...]           # agreements and variants, in reading order
    witness_readings(result) -> {law id: text}               # each law as its witness gives it
    collation_pairs(laws, links) -> list[(Link, Law, Law)]   # the same-language links to collate, per game
    collation_tei(game, pairs, readings, build) -> bytes     # outputs/tei/collation-<game>.xml
    collation_files(laws, links, readings, build) -> {"tei/collation-<game>.xml": bytes}

Two laws aligned across editions of one text (an OCR and its modernized reading, two printings of one
code) are collated token by token, each *as its witness gives it*: the raw text of the law with only
the layout undone (line-end hyphens joined, running heads, line breaks and lines of web-page debris
removed), not the pipeline's
word repairs, so that what one witness prints differently from the other shows (the reading texts of
en-003 and en-003m are the same once both are repaired).  The alignment is the longest common subsequence of the two token
sequences, computed by rapidfuzz's ``Indel.opcodes`` (C++, already a dependency of the pipeline):
every token outside it is a variant, every token inside it an agreement, so the variants are exactly
what a plain token diff shows.  CollateX (PyPI ``collatex``) was considered: it brings its own
dependencies (networkx, prettytable) for a multi-witness variant graph and transposition detection that
pairs of laws do not need, and its last release is from 2023; for two witnesses its alignment is the
same token alignment.

The TEI is parallel segmentation (Guidelines, chapter 12): one ``div`` per aligned pair whose
``@corresp`` points to the two laws, holding an ``ab`` in which agreed text is plain and each variant is
``app`` with one ``rdg`` per witness (``@wit`` pointing into the header's ``listWit``; an empty ``rdg`` is
an omission).  The Versioning Machine and EVT read this form.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import regex
from rapidfuzz.distance import Indel

from .model import Correction, Law, Link, WitnessResult, offset_maps, replay
from .tei import (
    BuildInfo,
    XML_ID,
    XML_LANG,
    _el,
    _is_debris_line,
    _publication_stmt,
    _safe_xml_text,
    _sub,
    _title_stmt,
    _version_number,
    _word,
    _xml_model,
    serialize,
    witness_file,
)

TOKEN = regex.compile(r"[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]")


@dataclass(frozen=True)
class Segment:
    """A stretch of the two texts: an agreement (``a == b``) or a variant (``a != b``)."""

    a: tuple[str, ...]
    b: tuple[str, ...]

    @property
    def variant(self) -> bool:
        return self.a != self.b


def tokens(text: str) -> tuple[str, ...]:
    """Words (letters and digits, with inner apostrophes and hyphens) and punctuation marks."""
    return tuple(m.group() for m in TOKEN.finditer(text))


def collate(a_text: str, b_text: str) -> tuple[Segment, ...]:
    """Agreements and variants of two texts, token by token, in reading order."""
    a, b = tokens(a_text), tokens(b_text)
    out: list[Segment] = []
    pa = pb = 0
    for op in Indel.opcodes(list(a), list(b)):
        if op.tag != "equal":
            continue
        if op.src_start > pa or op.dest_start > pb:
            out.append(Segment(a[pa : op.src_start], b[pb : op.dest_start]))
        out.append(Segment(a[op.src_start : op.src_end], b[op.dest_start : op.dest_end]))
        pa, pb = op.src_end, op.dest_end
    if pa < len(a) or pb < len(b):
        out.append(Segment(a[pa:], b[pb:]))
    return tuple(out)


LAYOUT_KINDS = ("hyphenation", "running_head", "whitespace")  # repairs of layout, undone in a witness reading


def witness_readings(result: WitnessResult, layout_kinds: Sequence[str] = LAYOUT_KINDS) -> dict[str, str]:
    """Each law's text as its witness gives it: its raw span (without the printed number) with only the
    layout repairs applied, whitespace collapsed."""
    cleaned = result.cleaned
    raw, text = cleaned.raw, cleaned.text
    c2r, _ = offset_maps(raw, cleaned.corrections)
    layout = [c for c in cleaned.corrections if c.kind in layout_kinds or _is_debris_line(raw, c)]
    starts = [c.start for c in layout]
    out: dict[str, str] = {}
    for law in result.segmented.laws:
        off = law.start
        for o in range(law.start, min(law.end, law.start + 64) + 1):  # skip the printed number
            if " ".join(text[o : law.end].split()) == law.text:
                off = o
                break
        rs, re_ = c2r[off], c2r[law.end]
        lo = bisect.bisect_left(starts, rs)
        hi = bisect.bisect_left(starts, re_)
        inner = [
            Correction(c.start - rs, c.end - rs, c.before, c.after, c.kind, c.method)
            for c in layout[lo:hi]
            if c.end <= re_
        ]
        out[law.id] = " ".join(replay(raw[rs:re_], inner).split())
    return out


def collation_pairs(laws: Sequence[Law], links: Sequence[Link]) -> list[tuple[Link, Law, Law]]:
    """The links between laws of one language (editions of one text), in a stable order."""
    by_id = {law.id: law for law in laws}
    out = []
    for k in sorted(links, key=lambda k: (k.game, k.a, k.b, k.kind)):
        a, b = by_id.get(k.a), by_id.get(k.b)
        if a is not None and b is not None and a.lang == b.lang and a.witness_id != b.witness_id:
            out.append((k, a, b))
    return out


def join_tokens(toks: Sequence[str]) -> str:
    """Tokens as text: a space between words, none before closing punctuation."""
    out = ""
    for t in toks:
        if out and not (len(t) == 1 and t in ",.;:!?)]»’”") and not out.endswith(("(", "[", "«", "‘", "“")):
            out += " "
        out += t
    return out


def collation_tei(
    game: str, pairs: Sequence[tuple[Link, Law, Law]], readings: Mapping[str, str], build: BuildInfo
) -> bytes:
    """The TEI parallel-segmentation file of one game's same-language collations."""
    witnesses = sorted({law.witness_id for _, a, b in pairs for law in (a, b)})
    langs = sorted({a.lang for _, a, _ in pairs})
    root = _el("TEI")
    root.set(XML_LANG, "en")
    root.set("n", f"collation-{game}")
    h = _sub(root, "teiHeader")
    fd = _sub(h, "fileDesc")
    _title_stmt(fd, f"Word-level collation of the aligned laws of {game} (one language)", build)
    _publication_stmt(fd, build, f"tei/collation-{_word(game)}.xml")
    sd = _sub(fd, "sourceDesc")
    lw = _sub(sd, "listWit") if witnesses else None
    for wid in witnesses:
        wit = _sub(lw, "witness", {"corresp": witness_file(wid)}, wid)
        wit.set(XML_ID, f"col.{_word(game)}.{wid}")
    if not witnesses:
        _sub(sd, "p", text="No two laws of one language are aligned in this game.")
    ed = _sub(h, "encodingDesc")
    app = _sub(
        _sub(ed, "appInfo"), "application", {"ident": "card-laws-pipeline", "version": _version_number(build.version)}
    )
    app.set(XML_ID, build.resp_id)
    _sub(app, "label", text=f"digitization pipeline {build.version} (build {build.build})")
    _sub(ed, "variantEncoding", {"method": "parallel-segmentation", "location": "internal"})
    _sub(
        ed,
        "p",
        text="One div per pair of aligned laws of one language (@corresp: the two laws). Text both "
        "witnesses share is plain; each variant is an app with one rdg per witness (an empty rdg: "
        "the witness has no token there). Tokens are words and punctuation marks; the alignment is "
        "a longest common subsequence of the two token sequences.",
    )
    if langs:
        lu = _sub(_sub(h, "profileDesc"), "langUsage")
        for lang in langs:
            _sub(lu, "language", {"ident": lang}, lang)
    rd = _sub(h, "revisionDesc")
    attrs = {"who": build.resp, "n": build.version}
    if build.date:
        attrs["when"] = build.date
    _sub(rd, "change", attrs, f"Built by pipeline version {build.version}, build {build.build}: {len(pairs)} pairs.")
    body = _sub(_sub(root, "text"), "body")
    for k, a, b in pairs:
        div = _sub(
            body,
            "div",
            {
                "type": "collation",
                "corresp": f"{witness_file(a.witness_id)}#{a.id} {witness_file(b.witness_id)}#{b.id}",
            },
        )
        div.set(XML_ID, f"collation.{a.id}--{b.id}")
        div.set(XML_LANG, a.lang)
        ab = _sub(div, "ab")
        first = True
        for seg in collate(readings.get(a.id, a.text), readings.get(b.id, b.text)):
            if not first:
                _text(ab, " ")
            first = False
            if not seg.variant:
                _text(ab, join_tokens(seg.a))
                continue
            ap = _sub(ab, "app")
            for wid, toks in ((a.witness_id, seg.a), (b.witness_id, seg.b)):
                _sub(ap, "rdg", {"wit": f"#col.{_word(game)}.{wid}"}, _safe_xml_text(join_tokens(toks)) or None)
    if not len(body):
        _sub(body, "p", text="No two laws of one language are aligned in this game.")
    _xml_model(root)
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
        f"tei/collation-{_word(g)}.xml": collation_tei(g, [p for p in pairs if p[0].game == g], readings, build)
        for g in games
    }


__all__ = ["Segment", "tokens", "collate", "collation_pairs", "collation_tei", "collation_files"]
