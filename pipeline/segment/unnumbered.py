"""Unnumbered rules (step 4 of `pipeline.segment`): one rule per line or paragraph, long or hard-wrapped
paragraphs split into sentences by spaCy."""

from __future__ import annotations

import re
from functools import lru_cache

from .markers import SegmentConfig
from .structure import Builder, collapse, first_letter, heading_text, is_caps_heading, line_spans, rstrip_end
# --------------------------------------------------------------------------------------------
# Unnumbered rules


@lru_cache(maxsize=4)
def _nlp(lang: str, model: str):
    import spacy  # lazy: only needed for long unnumbered paragraphs

    if model:
        try:
            return spacy.load(model, exclude=["ner", "lemmatizer", "attribute_ruler", "morphologizer"])
        except OSError:
            pass
    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    return nlp


def sentences(text: str, start: int, end: int, lang: str, cfg: SegmentConfig) -> list[int]:
    """Sentence start offsets inside text[start:end] (spaCy, on bounded pieces: a piece's start is a
    sentence start too)."""
    from ..nlp import docs

    nlp = _nlp(lang, dict(cfg.spacy_models).get(lang, ""))
    return [
        a + s.start_char
        for a, doc in docs(nlp, text, start=start, end=end, desc="segment: sentences")
        for s in doc.sents
        if s.text.strip()
    ]


def emit_rules(b: Builder) -> None:
    text, cfg, w = b.text, b.cfg, b.witness
    lines = line_spans(text, 0, len(text))
    paras = [p for p in re.finditer(r"\S(?:.|\n(?![ \t]*\n))*", text)]
    multi_line_paras = sum(1 for p in paras if "\n" in p.group().strip())
    units: list[tuple[int, int]]
    if len(paras) > 1 and multi_line_paras * 2 > len(paras):
        units = [(p.start(), rstrip_end(text, p.start(), p.end())) for p in paras]
    else:
        units = list(lines)
    # hard-wrapped lines: paragraphs are the units, split into sentences
    body_units = [u for u in units if not is_caps_heading(text[u[0] : u[1]], cfg)]
    ending = sum(1 for s, e in body_units if text[e - 1 : e] in ".;:!?»*'\"")
    wrapped = len(body_units) >= 3 and ending / len(body_units) < cfg.wrapped_lines_ratio
    if wrapped:
        units = [(p.start(), rstrip_end(text, p.start(), p.end())) for p in paras]
    pieces: list[tuple[int, int, bool]] = []  # (start, end, by_sentence)
    for s, e in units:
        if not is_caps_heading(text[s:e], cfg) and (wrapped or e - s > cfg.long_paragraph_chars):
            starts = sentences(text, s, e, w.lang, cfg)
            for k, ss in enumerate(starts):
                pieces.append((ss, rstrip_end(text, ss, starts[k + 1] if k + 1 < len(starts) else e), True))
        else:
            pieces.append((s, e, False))
    rules: list[dict] = []
    for s, e, by_sentence in pieces:
        piece = text[s:e]
        letters = sum(c.isalpha() for c in piece)
        if is_caps_heading(piece, cfg):
            b.mark(s, "heading")
            rules.append({"heading": heading_text(piece)})
            continue
        if letters < cfg.rule_min_letters:
            b.mark(s, "other")
            continue
        if first_letter(piece).islower() and rules and "start" in rules[-1]:
            rules[-1]["end"] = e
            rules[-1]["parts"].append(s)
            rules[-1]["continued"] = True
            continue
        rules.append({"start": s, "end": e, "by_sentence": by_sentence, "parts": [s], "continued": False})
    k = 0
    for r in rules:
        if "heading" in r:
            b.heading = r["heading"]
            continue
        k += 1
        rid = f"{w.game}.{w.id}.rule-{k}"
        for p in r["parts"]:
            b.mark(p, "rule", rid)
        how = "spaCy sentence" if r["by_sentence"] else "line/paragraph"
        if r["continued"]:
            how += ", continued by a line starting lower-case"
        b.add_law(
            id=rid,
            kind="rule",
            number=None,
            printed="",
            label=f"rule {k}",
            start=r["start"],
            end=r["end"],
            text=collapse(text[r["start"] : r["end"]]),
            confidence=cfg.sentence_rule_confidence if r["by_sentence"] else cfg.rule_confidence,
            complete=True,
            evidence=f"unnumbered rule {k} delimited by {how}; no consistent law numbering found",
        )
