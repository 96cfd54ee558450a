"""A benchmark corpus made from the real witnesses: book-length, re-noised, as many as asked.

Each synthetic witness takes the laws of one real witness (game and language kept), shuffles them,
renumbers them, repeats them to about ``target_bytes``, lays them out in printed lines with
end-of-line hyphens and running heads with page numbers, and re-noises the characters with the OCR
confusions measured on the gold (raw seed against its hand-corrected text), at the measured rate.
Deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import tomli_w
from rapidfuzz.distance import Levenshtein

from pipeline.files import write_atomic


@dataclass(frozen=True)
class NoiseModel:
    """Character confusions measured on gold: (printed-as-gold, read-as-OCR) pairs with counts."""

    rate: float  # edits per character
    edits: tuple[tuple[str, str, int], ...]  # (gold chars, ocr chars, count)


@dataclass(frozen=True)
class SourceLaws:
    game: str
    lang: str
    laws: tuple[str, ...]  # cleaned law texts without numbers


def measure_noise(pairs: Sequence[tuple[str, str]]) -> NoiseModel:
    """Measure OCR edits from (gold, raw OCR) text pairs; whitespace-only edits are left out."""
    counts: Counter = Counter()
    chars = 0
    for gold, raw in pairs:
        g, r = " ".join(gold.split()), " ".join(raw.split())
        chars += len(g)
        for op in Levenshtein.opcodes(g, r):
            if op.tag == "equal":
                continue
            a, b = g[op.src_start : op.src_end], r[op.dest_start : op.dest_end]
            if a.strip() == b.strip() or len(a) > 3 or len(b) > 3:
                continue
            counts[(a, b)] += 1
    edits = tuple(sorted(((a, b, n) for (a, b), n in counts.items()), key=lambda e: (-e[2], e[0], e[1])))
    return NoiseModel(rate=sum(counts.values()) / max(1, chars), edits=edits)


def renoise(text: str, model: NoiseModel, rng: random.Random) -> str:
    """Apply measured confusions at the measured rate (substitutions keyed by the gold characters)."""
    by_src: dict[str, list[tuple[str, int]]] = {}
    for a, b, n in model.edits:
        if a:
            by_src.setdefault(a[0], []).append((b + a[1:] if len(a) > 1 else b, n))
    inserts = [(b, n) for a, b, n in model.edits if not a]
    out: list[str] = []
    for ch in text:
        if ch != " " and rng.random() < model.rate:
            options = by_src.get(ch)
            if options:
                out.append(rng.choices([o for o, _ in options], [n for _, n in options])[0])
                continue
            if inserts:
                out.append(ch + rng.choices([o for o, _ in inserts], [n for _, n in inserts])[0])
                continue
        out.append(ch)
    return "".join(out)


def layout(
    paragraphs: Sequence[str], head: str, first_page: int, rng: random.Random, width: int = 62, lines_per_page: int = 38
) -> str:
    """Print paragraphs in lines of about ``width`` characters, with hyphenation and running heads."""
    lines: list[str] = []
    page = first_page
    for para in paragraphs:
        line = ""
        for word in para.split():
            if len(line) + 1 + len(word) <= width:
                line = f"{line} {word}" if line else word
                continue
            if len(word) > 6 and rng.random() < 0.3:
                cut = rng.randint(3, len(word) - 3)
                lines.append(f"{line} {word[:cut]}-" if line else f"{word[:cut]}-")
                line = word[cut:]
            else:
                lines.append(line)
                line = word
            if len(lines) % lines_per_page == 0:
                page += 1
                lines.append(f"{page} {head}" if page % 2 == 0 else f"{head} {page}")
        if line:
            lines.append(line)
    return "\n".join(lines) + "\n"


def synthetic_witness(
    source: SourceLaws, model: NoiseModel, seed: int, target_bytes: int, sections: bool = False, prose: bool = False
) -> str:
    """The source's laws shuffled, numbered, repeated to about ``target_bytes``, laid out and re-noised;
    ``sections``: each pass through the laws is a section of its own with a heading, numbered from 1 again,
    as a book of several codes prints them (without, a book numbers its laws past any real code's);
    ``prose``: no number at all, two to five laws to a paragraph, as a treatise tells the rules."""
    rng = random.Random(seed)
    laws = list(source.laws)
    paras: list[str] = []
    size = 0
    n = 0
    rounds = 0
    while size < target_bytes:
        rng.shuffle(laws)
        rounds += 1
        if sections:
            n = 0
            paras.append(f"SECTION {rounds}.")
        units = laws
        if prose:
            units, i = [], 0
            while i < len(laws):
                k = rng.randint(2, 5)
                units.append(" ".join(laws[i : i + k]))
                i += k
        for text in units:
            n += 1
            para = text if prose else f"{n}. {text}"
            paras.append(para)
            size += len(para.encode("utf-8")) + 1
            if size >= target_bytes:
                break
    head = (
        "DE L'ÉCARTÉ."
        if source.game == "ecarte" and source.lang == "fr"
        else ("DU WHIST." if source.lang == "fr" else "CARDS")
    )
    text = layout(paras, head, first_page=rng.randint(5, 200), rng=rng)
    return renoise(text, model, rng)


def write_bench_corpus(
    dest: Path,
    sources: Sequence[SourceLaws],
    model: NoiseModel,
    n: int,
    target_bytes: int = 100_000,
    seed: int = 0,
    sections: bool = False,
    prose: bool = False,
) -> Path:
    """Write ``n`` synthetic witnesses under ``dest`` (raw/ and witnesses.toml); return ``dest``
    (``sections``, ``prose``: see :func:`synthetic_witness`)."""
    dest = Path(dest)
    entries = []
    for i in range(n):
        src = sources[i % len(sources)]
        wid = f"{src.lang}-b{i:05d}"
        name = f"bench_{i:05d}.txt"
        write_atomic(
            dest / "raw" / name, synthetic_witness(src, model, seed * 1_000_003 + i, target_bytes, sections, prose)
        )
        entries.append(
            {
                "id": wid,
                "file": f"raw/{name}",
                "game": src.game,
                "lang": src.lang,
                "kind": "ocr",
                "title": f"Benchmark witness {i} ({src.game}, {src.lang})",
                "source": f"bench-{i}",
            }
        )
    write_atomic(dest / "witnesses.toml", tomli_w.dumps({"witness": entries}))
    return dest
