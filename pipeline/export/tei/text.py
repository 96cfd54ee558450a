"""A witness's text as tokens for the TEI: raw characters kept as they are, correction groups, omitted
lines of debris and page breaks, and the encoding of each correction group as TEI nodes."""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from ...model import Cleaned, Correction, PageBreak, replay
from ...textnorm import common_affixes
from .config import BuildInfo, TeiConfig, TeiError, cert_level
from .xml import (
    XML_ID,
    XML_ILLEGAL,
    append_node,
    append_text,
    collapse,
    fill_diplomatic,
    safe_xml_text,
    subelement,
    tei_element,
    teidata_word,
)

LAYOUT_KINDS = ("hyphenation", "whitespace", "running_head")  # may become lb / pb / fw
MARKER_KINDS = ("debris", "footnote")  # a footnote marker these took out of the text is a ref (and its note)


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


Token = _Tok | _Char


def is_debris_line(raw: str, c: Correction) -> bool:
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


def witness_tokens(cleaned: Cleaned, config: TeiConfig) -> list[Token]:
    raw, text = cleaned.raw, cleaned.text
    try:
        replayed = replay(raw, cleaned.corrections)
    except ValueError as e:
        raise TeiError(f"witness {cleaned.witness_id}: corrections do not apply to the raw text ({e})") from None
    if replayed != text:
        raise TeiError(f"witness {cleaned.witness_id}: replaying the corrections does not give the cleaned text")
    toks: list[Token] = []
    pos = cpos = 0
    for g in _groups(cleaned.corrections):
        start, end = g[0].start, g[-1].end
        for i in range(pos, start):
            toks.append(_Char(i, cpos, raw[i]))
            cpos += 1
        after = "".join(c.after for c in g)
        kind = "omit" if config.omit_debris_lines and len(g) == 1 and is_debris_line(raw, g[0]) else "edit"
        toks.append(_Tok(kind, start, end, cpos, cpos + len(after), corrs=g))
        pos, cpos = end, cpos + len(after)
    for i in range(pos, len(raw)):
        toks.append(_Char(i, cpos, raw[i]))
        cpos += 1
    return _with_page_breaks(toks, cleaned.page_breaks, len(text))


def _with_page_breaks(toks: list[Token], page_breaks: Sequence[PageBreak], text_len: int) -> list[Token]:
    """Page breaks placed among the tokens: inside the edit that removed their line, else a bare pb before their
    position (after the pbs placed there before it).  The host edit and the position are found by bisection over
    the tokens' raw offsets (a book has thousands of pages and millions of tokens: a scan per page was quadratic)."""
    starts = [t.rs for t in toks]
    edits = [t for t in toks if t.kind == "edit"]
    e_starts, e_ends = [t.rs for t in edits], [t.re for t in edits]
    ordered = all(a <= b for a, b in zip(starts, starts[1:])) and all(a <= b for a, b in zip(e_ends, e_ends[1:]))
    before: dict[int, list[Token]] = {}  # token index -> the bare pbs placed before it, in order
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
    out: list[Token] = []
    for k, t in enumerate(toks):
        out.extend(before.get(k, ()))
        out.append(t)
    out.extend(before.get(len(toks), ()))
    return out


# --------------------------------------------------------------------------- correction encoding


class CorrectionEncoder:
    """Encodes one correction group as TEI nodes (str or elements)."""

    def __init__(
        self,
        build: BuildInfo,
        config: TeiConfig,
        ocr: bool = False,
        notes: Sequence[tuple[str, str]] = (),
        note_prefix: str = "note",
    ):
        self.build = build
        self.config = config
        self.ocr = ocr  # repairs are OCR misreadings: app/lem/rdg, not sic/corr
        self.rend_of = dict(config.hyphens)
        self.footnote = re.compile(config.footnote_pattern)
        self.italic = re.compile(config.italic_pattern)
        self.notes = dict(notes)  # marker number -> the note's text (the witness's notes file)
        self.note_prefix = note_prefix
        self.notes_placed: set[str] = set()

    def note_id(self, n: str) -> str:
        return f"{self.note_prefix}.note-{n}"

    def marker(self, parent: etree._Element, d: str) -> bool:
        """A footnote marker as printed ("[49]") as a ref to its note, if ``d`` is one."""
        m = self.footnote.fullmatch(d)
        if not m:
            return False
        attrs = {"type": "footnote", "n": m.group(1)}
        if m.group(1) in self.notes:
            attrs["target"] = "#" + self.note_id(m.group(1))
        subelement(parent, "ref", attrs, d)
        return True

    def note(self, n: str) -> etree._Element:
        """The footnote ``n`` at its marker: note[@place='foot'], its paragraphs as p, its italics as hi."""
        note = tei_element("note", {"type": "footnote", "place": "foot", "n": n})
        if n not in self.notes_placed:  # (a marker printed twice: one note, the second points back)
            note.set(XML_ID, self.note_id(n))
        self.notes_placed.add(n)
        paras = self.notes[n].split("\n\n")
        for para in paras:
            self._italics(note if len(paras) == 1 else subelement(note, "p"), para)
        return note

    def _italics(self, el: etree._Element, s: str) -> None:
        pos = 0
        for m in self.italic.finditer(s):
            append_text(el, safe_xml_text(s[pos : m.start()]))
            subelement(el, "hi", {"rend": "italic"}, safe_xml_text(m.group(1)))
            pos = m.end()
        append_text(el, safe_xml_text(s[pos:]))

    def lb(self, d: str, r: str) -> etree._Element | None:
        """lb for a printed line break (optionally after a hyphen) read as "" or " "."""
        if not d.endswith("\n") or d.count("\n") != 1:
            return None
        hy = d[:-1]
        if hy == "":
            if r == "":
                return tei_element("lb", {"break": "no"})
            if r == " ":
                return tei_element("lb")
            return None
        if hy in self.rend_of and r == "":
            return tei_element("lb", {"break": "no", "rend": self.rend_of[hy]})
        return None

    def choice(self, d: str, r: str, corrs: Sequence[Correction]) -> etree._Element:
        kind = next((c.kind for c in corrs if c.kind != "whitespace"), corrs[0].kind) if corrs else "normalisation"
        conf = min((c.confidence for c in corrs), default=1.0)
        method = corrs[0].method if corrs else ""
        if self.ocr:
            return self.app(d, r, kind, method, conf)
        ch = tei_element("choice")
        sic = subelement(ch, "sic")
        if not (kind in MARKER_KINDS and self.marker(sic, d)):
            fill_diplomatic(sic, d)
        attrs = {"resp": self.build.resp, "cert": cert_level(conf, self.config), "type": teidata_word(kind)}
        if method:
            attrs["subtype"] = teidata_word(method)
        subelement(ch, "corr", attrs, safe_xml_text(r) or None)
        return ch

    def app(self, d: str, r: str, kind: str, method: str, conf: float) -> etree._Element:
        """An OCR misreading: the page's reading in lem, the OCR's in rdg[@wit='#ocr'].  A line-end
        hyphen that the OCR kept inside its line is read as the page prints it: lb[@break='no']."""
        attrs = {"type": teidata_word(kind)}
        if method:
            attrs["subtype"] = teidata_word(method)
        app = tei_element("app", attrs)
        lem = subelement(app, "lem", {"resp": self.build.resp, "cert": cert_level(conf, self.config)})
        hy = d.strip()
        if kind == "hyphenation" and r == "" and hy and "\n" not in d:
            lem.append(
                tei_element("lb", {"break": "no", "rend": self.rend_of[hy]} if hy in self.rend_of else {"break": "no"})
            )
        else:
            lem.text = safe_xml_text(r) or None
        rdg = subelement(app, "rdg", {"wit": "#ocr"})
        if not (kind in MARKER_KINDS and self.marker(rdg, d)):
            fill_diplomatic(rdg, d)
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

    def encode(self, tok: Token) -> list:
        d, r = tok.before, tok.after
        if not tok.pbs:
            nodes = self.plain(d, r, tok.corrs)[0]
        else:
            nodes = self._with_pbs(d, r, tok.rs, sorted(tok.pbs, key=lambda p: p.raw_start), tok.corrs)[0]
        m = self.footnote.fullmatch(d.strip())
        if m and m.group(1) in self.notes and any(c.kind == "footnote" for c in tok.corrs):
            nodes.append(self.note(m.group(1)))  # the note at its marker's place
        return nodes

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
        nodes: list = [tei_element("pb", attrs)]
        printed = XML_ILLEGAL.sub("", printed)
        if not printed:
            return nodes
        head = pb.head.strip()
        fw = tei_element("fw", {"type": "header" if head or not pb.page else "pageNum", "place": "top"})
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
            append_text(fw, trail)
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
            if target and collapse(printed) != target:
                fw.append(self.fix(printed, target))
            else:
                fw.text = printed
        else:
            before, after = "".join(parts[:k]), "".join(parts[k + 1 :])
            num = parts[k]
            if before:
                for node in self._head_part(before, head, at_start=True, other=after):
                    append_node(fw, node)
            pn = subelement(fw, "fw", {"type": "pageNum"})
            if num == pb.page:
                pn.text = num
            else:
                pn.append(self.fix(num, pb.page))
            if after:
                for node in self._head_part(after, head, at_start=False, other=before):
                    append_node(fw, node)
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
        ch = tei_element("choice")
        subelement(ch, "sic", text=printed)
        subelement(ch, "corr", {"resp": self.build.resp, "type": "running_head"}, reading)
        return ch
