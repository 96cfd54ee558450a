"""The TEI document of one witness: its laws, clauses and headings as nested divs over the encoded
text, and the back matter of flagged words (``witness_tei``)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lxml import etree

from ...model import Cleaned, Flag, Law, Segmented, Witness
from .config import BuildInfo, TeiConfig, TeiError, cert_level
from .header import witness_header, xml_model
from .text import CorrectionEncoder, Token, witness_tokens
from .xml import (
    LAW_KINDS,
    XML_ID,
    XML_LANG,
    T,
    append_node,
    append_text,
    collapse,
    safe_xml_text,
    serialize,
    subelement,
    tei_element,
    teidata_word,
)

# --------------------------------------------------------------------------- witness TEI

NUMBER_TERMINATORS = ".-—–:) \t"  # what may follow a printed law number ("10.--", "3)")


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
        if collapse(text[off : law.end]) == law.text:
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


def read_number(printed: str, law: Law) -> str | None:
    """The number of a law as read, with its printed terminator ("10." for "io»."), when its printed form in the
    reading text is not that number ("io»", ".$", "1 2$"); None when it is (the cleaning may have repaired it)."""
    printed = printed.strip()
    if law.kind != "law" or law.number is None or not printed:
        return None
    core = printed.rstrip(NUMBER_TERMINATORS)
    label = law.label if law.label[:1].isdigit() else str(law.number)
    if not core or core == label or core.endswith(" " + label):  # "12a", "Law 37", "Art. 12"
        return None
    return label + printed[len(core) :]


def _is_markup(t: Token) -> bool:
    return t.kind == "edit" and bool(t.corrs) and all(c.kind == "markup" for c in t.corrs) and t.before == "_"


def _italic_maker(parent: etree._Element) -> etree._Element:
    return subelement(parent, "hi", {"rend": "italic"})


def _walk(wraps: list["_Wrap"]):
    for w in wraps:
        yield w
        yield from _walk(w.children)


@dataclass
class _Wrap:
    i: int
    j: int
    prio: int
    make: Callable[[etree._Element], etree._Element]  # callable(parent) -> element that receives the content
    children: list


def _range(toks: list[Token], lo: int, hi: int, a: int, b: int, clean: bool) -> tuple[int, int] | None:
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


class _Content:
    """The mixed content of blocks: tokens as text and correction markup, with the num / reg / flag /
    footnote wrappers around them.  Collects the flagged words for the back matter."""

    def __init__(
        self,
        cleaned: Cleaned,
        toks: list[Token],
        build: BuildInfo,
        config: TeiConfig,
        ocr: bool = False,
        notes: tuple[tuple[str, str], ...] = (),
    ):
        self.c, self.toks, self.b, self.cfg = cleaned, toks, build, config
        self.enc = CorrectionEncoder(build, config, ocr=ocr, notes=notes, note_prefix=cleaned.witness_id)
        self.italic_marks: set[int] = set()  # the tokens of the underscores an hi stands for (not emitted)
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
                    wraps.append(_Wrap(r[0], r[1], 0, self._num_maker(law, self.c.text[law.start : end]), []))
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
        marks = [k for k in range(lo, hi) if _is_markup(self.toks[k])]
        for a, b in zip(marks[0::2], marks[1::2]):  # the underscores of Markdown italics, in pairs
            wraps.append(_Wrap(a, b + 1, 4, _italic_maker, []))
        forest = _forest(wraps)
        self.italic_marks |= {k for w in _walk(forest) if w.make is _italic_maker for k in (w.i, w.j - 1)}
        self.emit(parent, lo, hi, forest)

    def emit(self, parent: etree._Element, i: int, j: int, wraps: list[_Wrap]) -> None:
        k = i
        wi = 0
        buf: list[str] = []

        def flush():
            if buf:
                append_text(parent, safe_xml_text("".join(buf)))
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
            elif t.kind == "edit" and k in self.italic_marks:
                pass  # an underscore of Markdown italics: the hi around its text stands for it
            elif t.kind == "edit":
                flush()
                for node in self.enc.encode(t):
                    append_node(parent, node)
            elif t.kind == "pb":
                flush()
                for node in self.enc.page(t.pbs[0], ""):
                    append_node(parent, node)
            k += 1
        flush()

    def _num_maker(self, law: Law, printed: str):
        def make(parent):
            attrs = {"type": law.kind}
            if law.number is not None and law.kind == "law":
                attrs["value"] = str(law.number)
            num = subelement(parent, "num", attrs)
            reg = read_number(printed, law)
            if reg is None:
                return num
            choice = subelement(num, "choice")  # a number misread by the OCR: as printed, and as read
            orig = subelement(choice, "orig")
            subelement(choice, "reg", {"resp": self.b.resp, "type": "number"}, reg)
            return orig

        return make

    def _reg_maker(self, reg):
        def make(parent):
            ch = subelement(parent, "choice")
            orig = subelement(ch, "orig")
            subelement(ch, "reg", {"resp": self.b.resp, "type": "modern"}, safe_xml_text(reg.reg))
            return orig

        return make

    def _flag_maker(self, f):
        def make(parent):
            fid = f"flag.{self.c.witness_id}.{len(self.flag_notes) + 1}"
            self.flag_notes.append((fid, f))
            seg = subelement(parent, "seg", {"type": "flag", "cert": cert_level(f.confidence, self.cfg)})
            seg.set(XML_ID, fid)
            return seg

        return make

    def _ref_maker(self, n: str):
        def make(parent):
            return subelement(parent, "ref", {"type": "footnote", "n": n})

        return make


class _Structure:
    """The divisions of the body: one div per law / clause / rule (nested as the laws are), sections
    for headings, paragraphs split at blank lines; their content is left to ``_Content``."""

    def __init__(self, cleaned: Cleaned, segmented: Segmented, toks: list[Token], content: _Content):
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
                section = subelement(body, "div", {"type": "section"})
                head = subelement(section, "head")
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
                div = subelement(
                    section if section is not None else body, "div", {"type": teidata_word(g.kind, "other")}
                )
                self.blocks(div, idx, None)

    def open_div(self, parent: etree._Element, law: Law) -> etree._Element:
        attrs = {"type": law.kind if law.kind in LAW_KINDS else "law", "n": div_n(law)}
        div = subelement(parent, "div", attrs)
        count = self.emitted_ids.get(law.id, 0) + 1
        self.emitted_ids[law.id] = count
        if count == 1:
            div.set(XML_ID, law.id)
            if law.kind in ("law", "rule") and not law.printed:  # no number printed: the editor's head
                head = subelement(div, "head", {"n": div_n(law)})
                reason = "unnumbered rule" if law.kind == "rule" else "number not printed in the witness"
                subelement(head, "supplied", {"reason": teidata_word(reason), "resp": self.content.b.resp}, law.label)
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
                        head = subelement(div, "head", {"n": div_n(law)})
                        self.content.fill(head, para[:cut], law)
                        self.last_block = head
                        para = para[cut:]
                        law = None  # its number is in the head
                        if not para:
                            continue
                p = subelement(div, "p")
            self.content.fill(p, para, law if pi == 0 else None)
            self.last_block = p


class _WitnessWriter:
    """One witness file: header, body structure and content, back matter (each its own job above)."""

    def __init__(self, witness: Witness, cleaned: Cleaned, segmented: Segmented, build: BuildInfo, config: TeiConfig):
        self.w, self.c, self.s, self.b, self.cfg = witness, cleaned, segmented, build, config
        self.toks = witness_tokens(cleaned, config)
        self.content = _Content(
            cleaned, self.toks, build, config, ocr=witness.kind in config.ocr_kinds, notes=witness.footnotes
        )
        self.structure = _Structure(cleaned, segmented, self.toks, self.content)
        self.omitted = [t for t in self.toks if t.kind == "omit"]

    def _starts_with_page_break(self) -> bool:
        """The text opens with a page break of its own (a transcription's "{166}"): that pb is the first page's."""
        for t in self.toks:
            if t.pbs:
                return True
            if t.kind == "omit" or (t.kind == "char" and not t.text.strip()):
                continue
            return False
        return False

    def build(self) -> bytes:
        w = self.w
        root = tei_element("TEI")
        root.set(XML_LANG, "en")
        root.set("n", w.id)
        text = subelement(root, "text")
        text.set(XML_LANG, w.lang)
        body = subelement(text, "body")
        if not self._starts_with_page_break():  # the first page (later pages: where they break)
            subelement(body, "pb", {"n": w.page} if w.page else {})
        self.structure.body(body)
        if all(child.tag == T + "pb" for child in body):  # no text: an empty paragraph keeps the body valid
            subelement(body, "p")
        if self.content.flag_notes:
            back = subelement(text, "back")
            div = subelement(back, "div", {"type": "flags"})
            subelement(div, "head", text="Words left as printed and flagged for review")
            lst = subelement(div, "list")
            for fid, f in self.content.flag_notes:
                item = subelement(lst, "item")
                subelement(item, "ref", {"target": "#" + fid}, safe_xml_text(f.text))
                cands = ", ".join(f.candidates)
                item[-1].tail = safe_xml_text(
                    f": confidence {f.confidence:.3f}"
                    + (f"; candidates: {cands}" if cands else "")
                    + (f"; {f.reason}" if f.reason else "")
                )
        used: dict[str, set[str]] = {"type": set(), "subtype": set()}
        for e in text.iter(T + "corr", T + "app", T + "reg"):
            for attr in used:
                if e.get(attr):
                    used[attr].add(e.get(attr))
        root.insert(0, witness_header(w, self.b, self.c, self.s, self.omitted, used, self.content.enc.ocr))
        xml_model(root)
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
