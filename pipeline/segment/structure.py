"""Structure of a numbered witness (step 3 of `pipeline.segment`): opening material, headings, laws and their
clauses, pages, and the segments that tile the text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Cleaned, Law, PageBreak, Segment, Witness
from .markers import Reading, SegmentConfig, roman_value
from .numbering import Chosen

# --------------------------------------------------------------------------------------------
# Small text functions


def collapse(s: str) -> str:
    return " ".join(s.split())


def rstrip_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def line_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each non-empty line in text[start:end], ends without the newline."""
    out = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        e = end if nl < 0 else nl
        if text[pos:e].strip():
            s2 = pos + (len(text[pos:e]) - len(text[pos:e].lstrip()))
            out.append((s2, rstrip_end(text, s2, e)))
        pos = e + 1
    return out


def is_caps_heading(s: str, cfg: SegmentConfig) -> bool:
    s = s.strip()
    letters = [c for c in s if c.isalpha()]
    if len(s) > cfg.heading_max_chars or len(letters) < cfg.heading_min_letters:
        return False
    return sum(c.isupper() for c in letters) / len(letters) >= cfg.heading_upper_ratio


def _is_title_heading(s: str, cfg: SegmentConfig) -> bool:
    s = s.strip().rstrip(" —–-:")
    words = s.split()
    if not words or len(s) > cfg.heading_max_chars or len(words) > cfg.heading_max_words:
        return False
    first = next((c for c in s if c.isalpha()), "")
    if not first.isupper() or s[-1:] in ",;" or len([c for c in s if c.isalpha()]) < cfg.heading_min_letters:
        return False
    content = [w for w in words if sum(c.isalpha() for c in w) >= cfg.heading_content_word_letters]
    capitalised = sum(1 for w in content if first_letter(w).isupper())
    return not content or capitalised / len(content) >= cfg.heading_capitalised_ratio


def _is_section_heading(line: str, before: str, cfg: SegmentConfig) -> bool:
    """A short title-case line after a finished sentence, between two laws ("A Misdeal.", "Cutting for Deal.").

    Stricter than a heading before the first law: every word of ``heading_content_word_letters`` letters or more
    is capitalised, at least one is, no digit or comma, at most ``section_heading_max_words`` words; the line
    before it ends a sentence (a hard-wrapped "... may claim a / New Deal." is the law's own text).
    """
    s = line.strip()
    words = s.rstrip(" .:—–-").split()
    if not words or len(words) > cfg.section_heading_max_words or any(c.isdigit() or c in ",;" for c in s):
        return False
    if before.rstrip()[-1:] not in ".!?:;»\"')" or not first_letter(s).isupper():
        return False
    content = [w for w in words if sum(c.isalpha() for c in w) >= cfg.heading_content_word_letters]
    return bool(content) and all(first_letter(w).isupper() for w in content)


def first_letter(s: str) -> str:
    return next((c for c in s if c.isalpha()), "")


def _is_fragment(s: str, cfg: SegmentConfig) -> bool:
    if first_letter(s).islower():
        return True
    words = [w for w in s.split() if any(c.isalpha() for c in w)]
    if len(words) < cfg.fragment_min_words:
        return False
    lower = sum(1 for w in words if first_letter(w).islower())
    return lower / len(words) >= cfg.fragment_lower_ratio


def _stops_mid_sentence(s: str) -> bool:
    """The text ends on a word or a comma: its last sentence is cut off (a page or scan that stops mid-law)."""
    s = s.rstrip()
    return bool(s) and (s[-1].isalpha() or s[-1] in ",;-")


def heading_text(s: str) -> str:
    return collapse(s).rstrip(" —–-")


# --------------------------------------------------------------------------------------------
# Clauses


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int  # end of the marker
    body: int
    printed: str
    key: str  # "a", "iii"
    system: str  # "letter" | "roman"


_CLAUSE_RE = re.compile(r"\((?P<pl>[a-z])\)|(?P<l>[a-z])\)(?=\s)|\((?P<pr>[ivxl]+)\.?\)|(?P<R>[IVXL]+)\.(?=\s)")


def _clause_candidates(text: str, start: int, end: int) -> list[_Clause]:
    out = []
    for m in _CLAUSE_RE.finditer(text, start, end):
        p = m.start()
        i = p - 1
        while i >= start and text[i] in " \t":
            i -= 1
        at_line = i < 0 or text[i] == "\n" or i < start
        after_colon = i >= 0 and text[i] in ":;—" and m.group("pl") is not None
        if not (at_line or after_colon):
            continue
        if m.group("R") is not None and not at_line:
            continue
        j = m.end()
        while j < len(text) and text[j] in " \t":
            j += 1
        if m.group("pl") or m.group("l"):
            key, system = (m.group("pl") or m.group("l")), "letter"
        else:
            key, system = (m.group("pr") or m.group("R")).lower(), "roman"
        out.append(_Clause(p, m.end(), j, m.group(), key, system))
    return out


def _clause_sequence(cands: list[_Clause]) -> list[_Clause]:
    """The longer of the lettered (a, b, c ...) and roman (i, ii, iii ...) sequences starting at the first."""
    letters: list[_Clause] = []
    romans: list[_Clause] = []
    for c in cands:
        want_letter = chr(ord("a") + len(letters))
        if c.key == want_letter and (c.system == "letter" or c.key in "ivxl" and len(c.key) == 1):
            if c.printed.startswith("(") or c.system == "letter":
                letters.append(_Clause(c.start, c.end, c.body, c.printed, c.key, "letter"))
                continue
        v = roman_value(c.key)
        if v is not None and v == len(romans) + 1 and c.system == "roman":
            romans.append(c)
        elif v is not None and v == len(romans) + 1 and c.key == "i" and not letters:
            romans.append(_Clause(c.start, c.end, c.body, c.printed, c.key, "roman"))
    return letters if len(letters) >= len(romans) else romans


# --------------------------------------------------------------------------------------------
# Pages


def _page_of(breaks: tuple[PageBreak, ...], first_page: str, offset: int) -> str:
    page = first_page
    for b in breaks:
        if b.clean_offset <= offset:
            page = b.page
        else:
            break
    return page


def _first_page(breaks: tuple[PageBreak, ...], witness: Witness) -> str:
    if breaks:
        p = breaks[0].page
        return str(int(p) - 1) if p.isdigit() and int(p) > 1 else (witness.page if not p.isdigit() else "")
    return witness.page


def _pages(cleaned: Cleaned, witness: Witness, start: int, end: int) -> tuple[str, ...]:
    breaks = tuple(sorted(cleaned.page_breaks, key=lambda b: b.clean_offset))
    first = _first_page(breaks, witness)
    pages = [_page_of(breaks, first, start)]
    for b in breaks:
        if start < b.clean_offset < end:
            pages.append(b.page)
    return tuple(dict.fromkeys(p for p in pages if p))


# --------------------------------------------------------------------------------------------
# Assembly


@dataclass
class Builder:
    cleaned: Cleaned
    witness: Witness
    cfg: SegmentConfig
    laws: list[Law]
    bounds: list[tuple[int, str, str | None]]  # (start, segment kind, law id)
    heading: str = ""
    pending_heading: str = ""  # a heading found after the current law: applies from the next law on

    @property
    def text(self) -> str:
        return self.cleaned.text

    def mark(self, pos: int, kind: str, law_id: str | None = None) -> None:
        self.bounds.append((pos, kind, law_id))

    def add_law(self, **kw) -> Law:
        w = self.witness
        law = Law(
            witness_id=w.id,
            game=w.game,
            lang=w.lang,
            order=len(self.laws),
            pages=_pages(self.cleaned, w, kw["start"], kw["end"]),
            heading=self.heading,
            **kw,
        )
        self.laws.append(law)
        return law

    def next_unit(self) -> None:
        if self.pending_heading:
            self.heading, self.pending_heading = self.pending_heading, ""

    def segments(self) -> tuple[Segment, ...]:
        n = len(self.text)
        bounds = sorted(self.bounds, key=lambda b: b[0])
        if not bounds or bounds[0][0] > 0:
            bounds.insert(0, (0, "other", None))
        segs: list[Segment] = []
        for (s, kind, lid), nxt in zip(bounds, bounds[1:] + [(n, "", None)]):
            e = nxt[0]
            if e <= s:
                continue
            if segs and segs[-1].kind == kind and segs[-1].law_id == lid:
                segs[-1] = Segment(kind, segs[-1].start, e, lid)
            else:
                segs.append(Segment(kind, s, e, lid))
        if not segs and n:
            segs.append(Segment("other", 0, n, None))
        return tuple(segs)


def _classify_opening(b: Builder, start: int, end: int) -> tuple[int, int] | None:
    """Mark headings / front matter in text[start:end]; return the span of a trailing prose fragment, if any.

    The fragment itself is not marked: the caller decides whether it becomes a law or front matter.
    """
    text, cfg = b.text, b.cfg
    blocks: list[tuple[str, int, int]] = []  # (kind, start, end) with kind heading|prose
    lines = line_spans(text, start, end)
    for k, (ls, le) in enumerate(lines):
        line = text[ls:le]
        kind = "heading" if (is_caps_heading(line, cfg) or _is_title_heading(line, cfg)) else "prose"
        if kind == "heading" and k + 1 < len(lines) and first_letter(text[lines[k + 1][0] : lines[k + 1][1]]).islower():
            kind = "prose"  # a line continued by a lower-case line is the start of a paragraph
        if blocks and blocks[-1][0] == "prose" and kind == "prose":
            blocks[-1] = ("prose", blocks[-1][1], le)
        else:
            blocks.append((kind, ls, le))
    fragment = None
    for idx, (kind, s, e) in enumerate(blocks):
        at = s if idx else start
        if kind == "heading":
            b.mark(at, "heading")
            b.heading = heading_text(text[s:e])
        elif idx == len(blocks) - 1 and _is_fragment(text[s:e], cfg):
            fragment = (at, e)
        else:
            b.mark(at, "front")
    return fragment


def _tail_split(b: Builder, start: int, end: int, is_last: bool) -> int:
    """Split trailing heading lines (and, after the last law, short debris paragraphs) off a law span.

    Returns the new end of the law's span; the split-off lines are marked as segments.
    """
    text, cfg = b.text, b.cfg
    lines = line_spans(text, start, end)
    cut = end
    tail: list[tuple[str, int]] = []
    for k in range(len(lines) - 1, 0, -1):
        ls, le = lines[k]
        line = text[ls:le]
        # a title-case section heading heads the next law: after the last law, such a line is debris ("Consult me")
        section = not is_last and _is_section_heading(line, text[lines[k - 1][0] : lines[k - 1][1]], cfg)
        if is_caps_heading(line, cfg) or section:
            tail.append(("heading", ls))
        elif (
            is_last
            and not tail
            and len(line) <= cfg.tail_debris_max_chars
            and line[-1:] not in ".;:!?"
            and text[start:ls].rstrip(" \t").endswith("\n\n")
            and not first_letter(line).islower()
        ):
            tail.append(("other", ls))
        else:
            break
        cut = ls
    for kind, ls in reversed(tail):
        b.mark(ls, kind)
        if kind == "heading":
            b.pending_heading = heading_text(text[ls : text.find("\n", ls) if "\n" in text[ls:end] else end])
    return cut


def emit_numbered(b: Builder, style_path: list[Chosen]) -> None:
    text, cfg, w = b.text, b.cfg, b.witness
    prefix = f"{w.game}.{w.id}."
    seen: dict[int, int] = {}

    def law_id(n: int, letter: str = "") -> str:
        if letter:
            return f"{prefix}law-{n}{letter}"
        seen[n] = seen.get(n, 0) + 1
        return f"{prefix}law-{n}" + (f"-{seen[n]}" if seen[n] > 1 else "")

    first = style_path[0]
    first_start = first.cand.start
    opening_clauses = _clause_sequence(_clause_candidates(text, 0, first_start))
    open_end = opening_clauses[0].start if opening_clauses else first_start
    fragment = _classify_opening(b, 0, open_end)
    inferred_n = first.reading.number - 1
    has_inferred = bool(fragment or opening_clauses) and inferred_n >= 1
    if has_inferred:
        p_start = fragment[0] if fragment else opening_clauses[0].start
        p_end = _tail_split(b, p_start, first_start, False)
        lid = law_id(inferred_n)
        b.mark(p_start, "law", lid)
        what = "opening fragment" if fragment else "clauses"
        _emit_law_body(
            b,
            lid=lid,
            number=inferred_n,
            start=p_start,
            body=p_start,
            end=p_end,
            printed="",
            confidence=cfg.inferred_confidence,
            complete=False,
            evidence=(
                f"unnumbered {what} before law {first.reading.number} ({first.cand.printed!r}):"
                f" number inferred as {inferred_n}; the law starts before the witness"
            ),
            clauses=opening_clauses,
        )
        b.next_unit()
    elif fragment:
        b.mark(fragment[0], "front")
    for idx, ch in enumerate(style_path):
        c, r = ch.cand, ch.reading
        nxt = style_path[idx + 1].cand.start if idx + 1 < len(style_path) else len(text)
        end = _tail_split(b, c.start, nxt, idx + 1 == len(style_path))
        lid = law_id(r.number, r.letter)
        prev = style_path[idx - 1].reading if idx else None
        nxt_r = style_path[idx + 1].reading if idx + 1 < len(style_path) else None
        prev_n = prev.number if prev else (inferred_n if has_inferred else None)
        next_n = nxt_r.number if nxt_r else None
        conf = 1.0 - cfg.confidence_per_cost * r.cost
        if c.context not in ("line start", "sentence start", "after a dash"):
            conf -= cfg.weak_context_confidence
        # a lettered law ("12a") follows its number: 12 → 12a → 13 has no gap
        gap_before = prev_n is not None and prev_n not in (r.number - 1, r.number if r.letter else -1)
        gap_after = next_n is not None and next_n != r.number + 1 and not (nxt_r and nxt_r.letter)
        if gap_before or gap_after:
            conf -= cfg.gap_confidence

        def label(x: Reading | None, n: int | None) -> str | None:
            return f"{x.number}{x.letter}" if x else (str(n) if n is not None else None)

        seq = "→".join(x for x in (label(prev, prev_n), label(r, r.number), label(nxt_r, next_n)) if x is not None)
        how = f" ({', '.join(r.notes)})" if r.notes else ""
        evidence = f"marker {c.printed!r} read as {r.number}{how}; {c.context}; sequence {seq}"
        cut_off = idx + 1 == len(style_path) and _stops_mid_sentence(text[c.body : end])
        if cut_off:
            evidence += "; the witness stops mid-sentence: the law goes on beyond it"
        b.mark(c.start, "law", lid)
        clauses = _clause_sequence(_clause_candidates(text, c.body, end)) if c.style == "arabic" else []
        _emit_law_body(
            b,
            lid=lid,
            number=r.number,
            start=c.start,
            body=c.body,
            end=end,
            printed=c.printed.strip(),
            label=f"{r.number}{r.letter}",
            confidence=max(cfg.min_confidence, min(1.0, conf)),
            complete=not cut_off,
            evidence=evidence,
            clauses=clauses,
        )
        b.next_unit()


def _emit_law_body(
    b: Builder,
    *,
    lid: str,
    number: int,
    start: int,
    body: int,
    end: int,
    printed: str,
    confidence: float,
    complete: bool,
    evidence: str,
    clauses: list[_Clause],
    label: str = "",
) -> None:
    text, cfg = b.text, b.cfg
    end = rstrip_end(text, start, end)
    b.add_law(
        id=lid,
        kind="law",
        number=number,
        printed=printed,
        label=label or str(number),
        start=start,
        end=end,
        text=collapse(text[body:end]),
        confidence=confidence,
        complete=complete,
        evidence=evidence,
    )
    for k, cl in enumerate(clauses):
        c_end = clauses[k + 1].start if k + 1 < len(clauses) else end
        back_to_parent = None
        if k + 1 == len(clauses):
            # an unnumbered paragraph after the last clause that starts upper-case belongs to the law
            para = text.find("\n\n", cl.body, c_end)
            while para >= 0:
                j = para
                while j < c_end and text[j].isspace():
                    j += 1
                if j < c_end and first_letter(text[j : j + 5]).isupper():
                    back_to_parent = j
                    break
                para = text.find("\n\n", j, c_end)
        if back_to_parent is not None:
            c_end = back_to_parent
        c_end = rstrip_end(text, cl.start, c_end)
        cid = f"{lid}.{cl.key}"
        b.mark(cl.start, "clause", cid)
        if back_to_parent is not None:
            b.mark(back_to_parent, "law", lid)
        b.add_law(
            id=cid,
            kind="clause",
            number=number,
            printed=cl.printed,
            label=f"{number}({cl.key})",
            start=cl.start,
            end=c_end,
            text=collapse(text[cl.body : c_end]),
            confidence=cfg.clause_confidence,
            complete=True,
            parent=lid,
            evidence=f"clause marker {cl.printed!r} ({cl.system} sequence, item {k + 1}) inside law {number}",
        )
