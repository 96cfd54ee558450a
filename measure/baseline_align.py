"""The plain alternative the aligner is measured beside (``make eval``): TF-IDF cosine of the law texts.

Each law of the two witnesses a gold names is a bag of its lower-cased words, weighted by TF-IDF over the laws of
those two witnesses (idf = log(N / df) + 1, the common smoothing-free form); two laws are linked when each is the
other's best match by cosine and the cosine is at least ``TFIDF_FLOOR``.  No glossary, no lemmas, no reading of
events: what a reader would get from an off-the-shelf text-similarity tool, so the aligner's figures have a plain
figure beside them.  Across languages it has only the words the two texts share (numbers, names, cognates).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from pipeline.model import Law, Link

WORD = re.compile(r"\w+")
TFIDF_FLOOR = 0.1  # a fixed floor, not tuned: below it two laws share almost no weighted word


def tfidf_vectors(texts: Sequence[str]) -> list[dict[str, float]]:
    """Unit TF-IDF vectors of ``texts`` (idf over these texts)."""
    bags = [Counter(WORD.findall(t.lower())) for t in texts]
    df = Counter(w for bag in bags for w in bag)
    n = len(bags)
    out = []
    for bag in bags:
        vec = {w: c * (math.log(n / df[w]) + 1.0) for w, c in bag.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        out.append({w: v / norm for w, v in vec.items()})
    return out


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(b) < len(a):
        a, b = b, a
    return sum(v * b.get(w, 0.0) for w, v in a.items())


def tfidf_links(laws: Sequence[Law], wa: str, wb: str, floor: float = TFIDF_FLOOR) -> tuple[Link, ...]:
    """Mutual-best links by TF-IDF cosine between the laws of witnesses ``wa`` and ``wb`` (``floor`` at least)."""
    la = [l for l in laws if l.witness_id == wa]
    lb = [l for l in laws if l.witness_id == wb]
    if not la or not lb:
        return ()
    vecs = tfidf_vectors([l.text for l in (*la, *lb)])
    va, vb = vecs[: len(la)], vecs[len(la) :]
    sim = [[cosine(x, y) for y in vb] for x in va]
    best_b = [max(range(len(lb)), key=lambda j: row[j]) for row in sim]
    best_a = [max(range(len(la)), key=lambda i: sim[i][j]) for j in range(len(lb))]
    return tuple(
        Link(
            game=la[i].game, a=la[i].id, b=lb[j].id, score=float(f"{sim[i][j]:.4f}"), kind="baseline", evidence="tf-idf"
        )
        for i, j in enumerate(best_b)
        if best_a[j] == i and sim[i][j] >= floor
    )
