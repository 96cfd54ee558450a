"""What repair leaves wrong: the residual differences of a repaired text against its gold, by kind.

Both texts are normalised as cMER is (:func:`measure.evaluate_repair.cmer_normalise`), cut into words and
aligned word by word (``Levenshtein.opcodes`` over the word lists); each differing block is put in one class
(:func:`classify`) with the character errors it costs (:func:`measure.evaluate_repair.match_errors` of the
block's two sides):

* ``split``: one gold word printed as two or more (``con clusion``), the letters otherwise equal;
  ``split+edit``: the same with letters wrong too;
* ``merged``: two or more gold words run together (``withthe``); ``merged+edit``;
* ``multi-letter``: one word for one, a confusion of a glyph group (``li``/``h``, ``rn``/``m``: a block of two
  or more letters on one side);
* ``one-letter``: one word for one, every block a single letter for a single letter;
* ``letter lost`` / ``letter added``: one word for one, a letter missing or extra;
* ``digits``: a block whose gold side holds a digit;
* ``far``: one word for one, more than a third of its letters wrong;
* ``words lost`` / ``words added``: gold words with nothing printed for them, or printed words the gold lacks;
* ``other``: the rest (blocks of several words each side).

``python -m measure.repair_residuals [--lang en]`` repairs the impresso snippets held out by fold as
:mod:`measure.evaluate_repair` does (slow: its grid) and prints the classes of the raw OCR and of the repair,
with examples.  The classes sum to the texts' cMER errors up to the alignment of the words.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Sequence

from rapidfuzz.distance import Levenshtein

from measure.evaluate_repair import cmer_normalise, match_errors
from measure.learn_confusions import blocks

CLASSES = (
    "split",
    "split+edit",
    "merged",
    "merged+edit",
    "multi-letter",
    "one-letter",
    "letter lost",
    "letter added",
    "digits",
    "far",
    "words lost",
    "words added",
    "other",
)


@dataclass(frozen=True)
class Residual:
    """One differing block: its class, the printed and gold words, the character errors it costs."""

    kind: str
    printed: str
    gold: str
    errors: int


def classify(printed: Sequence[str], gold: Sequence[str]) -> str:
    """The class of a block of differing words (printed words for gold words)."""
    p, g = " ".join(printed), " ".join(gold)
    if not printed:
        return "words lost"
    if not gold:
        return "words added"
    if any(c.isdigit() for c in g):
        return "digits"
    if len(gold) == 1 and len(printed) > 1:
        return "split" if "".join(printed) == g else "split+edit"
    if len(printed) == 1 and len(gold) > 1:
        return "merged" if p == "".join(gold) else "merged+edit"
    if len(printed) == 1 and len(gold) == 1:
        if Levenshtein.distance(p, g) > max(1, len(g) // 3):
            return "far"
        bs = [(a, b) for a, b in _all_blocks(p, g)]
        if any(len(a) > 1 or len(b) > 1 for a, b in bs):
            return "multi-letter"
        if bs and all(len(a) == 1 and len(b) == 1 for a, b in bs):
            return "one-letter"
        if len(p) < len(g):
            return "letter lost"
        return "letter added"
    return "other"


def _all_blocks(a: str, b: str) -> list[tuple[str, str]]:
    """The edit blocks of ``a`` against ``b``, the word's last letters included (unlike
    :func:`measure.learn_confusions.blocks`, which leaves an ending out)."""
    out = blocks(a, b)
    return out or ([(a, b)] if a != b else [])


def residuals(hyp: str, gold: str) -> list[Residual]:
    """The differing blocks of ``hyp`` against ``gold``, both normalised as cMER is."""
    ht, gt = cmer_normalise(hyp).split(), cmer_normalise(gold).split()
    out = []
    for ps, gs in _blocks(ht, gt):
        if len(ps) == len(gs) and len(ps) > 1 and all(a != b for a, b in zip(ps, gs)):
            pieces = [([a], [b]) for a, b in zip(ps, gs)]  # (word for word)
        elif len(ps) > 1 or len(gs) > 1:
            pieces = _regroup(ps, gs)
        else:
            pieces = [(ps, gs)]
        for a, b in pieces:
            e, _t = match_errors(" ".join(a), " ".join(b))
            out.append(Residual(classify(a, b), " ".join(a), " ".join(b), e))
    return out


def _blocks(ht: list[str], gt: list[str]) -> list[tuple[list[str], list[str]]]:
    """The runs of differing words of the two word lists (adjacent edits of the alignment merged)."""
    out: list[tuple[list[str], list[str]]] = []
    cur: tuple[list[str], list[str]] | None = None
    for op in Levenshtein.opcodes(ht, gt):
        if op.tag == "equal":
            cur = None
            continue
        if cur is None:
            cur = ([], [])
            out.append(cur)
        cur[0].extend(ht[op.src_start : op.src_end])
        cur[1].extend(gt[op.dest_start : op.dest_end])
    return out


def _regroup(ps: list[str], gs: list[str]) -> list[tuple[list[str], list[str]]]:
    """A block of several words each side cut where the letters align (a split beside a word for word)."""
    pj, gj = " ".join(ps), " ".join(gs)
    # the word boundaries of each side, mapped through the character alignment
    cuts = []
    pi = gi = 0
    pw, gw = 0, 0
    for op in Levenshtein.opcodes(pj, gj):
        if op.tag != "equal":
            continue
        for k in range(op.src_end - op.src_start):
            a, b = op.src_start + k, op.dest_start + k
            if pj[a] == " " and gj[b] == " ":
                pw = pj[:a].count(" ") + 1
                gw = gj[:b].count(" ") + 1
                cuts.append((pw, gw))
    out = []
    for pw, gw in cuts + [(len(ps), len(gs))]:
        if pw > pi and gw > gi:
            out.append((ps[pi:pw], gs[gi:gw]))
            pi, gi = pw, gw
    if pi < len(ps) or gi < len(gs):
        out.append((ps[pi:], gs[gi:]))
    return out


def tally(pairs: Sequence[tuple[str, str]]) -> tuple[Counter[str], Counter[str], dict[str, Counter[str]]]:
    """Over (text, gold) pairs: character errors by class, blocks by class, and each class's blocks."""
    errors: Counter[str] = Counter()
    count: Counter[str] = Counter()
    examples: dict[str, Counter[str]] = defaultdict(Counter)
    for hyp, gold in pairs:
        for r in residuals(hyp, gold):
            errors[r.kind] += r.errors
            count[r.kind] += 1
            examples[r.kind][f"{r.printed} / {r.gold}"] += 1
    return errors, count, examples


def report(name: str, pairs: Sequence[tuple[str, str]], show: int = 12) -> None:
    errors, count, examples = tally(pairs)
    total = sum(errors.values())
    print(f"\n{name}: {total} character errors in {sum(count.values())} blocks")
    for k in CLASSES:
        if count[k]:
            ex = "; ".join(e for e, _n in examples[k].most_common(show))
            print(f"  {k:13} {errors[k]:5d} ({errors[k] / max(1, total) * 100:4.1f} %) {count[k]:4d} blocks  {ex}")


def main(argv: list[str] | None = None) -> int:
    import argparse

    from measure.evaluate_repair import LANGS, held_out, impresso_path, read_units

    p = argparse.ArgumentParser(prog="python -m measure.repair_residuals", description=__doc__.splitlines()[0])
    p.add_argument("--lang", choices=LANGS, action="append", help="a language (default: both)")
    p.add_argument("--show", type=int, default=12, help="examples per class")
    args = p.parse_args(argv)
    for lang in args.lang or LANGS:
        units = read_units(impresso_path(lang))
        ocr = [o for _l, o, _g in units]
        gold = [g for _l, _o, g in units]
        ours, _plain, _chosen = held_out(lang, ocr, gold)
        report(f"{lang} raw OCR", list(zip(ocr, gold)), args.show)
        report(f"{lang} repair (held out)", list(zip(ours, gold)), args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
