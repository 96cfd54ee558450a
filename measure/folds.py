"""Fold-based tuning: whatever is learnt from an evaluation set is learnt on folds and scored on the
fold held out, by document.

:func:`doc_folds` cuts ``n`` documents into ``k`` contiguous blocks (neighbouring sentences of a
periodical come from the same page: a random split would let one page be learnt and scored at once).
:func:`cross_validate` picks, for each fold, the setting of ``grid`` with the lowest loss on the other
folds' documents and scores it on the held-out one; the figure to report is the pooled held-out score
(:func:`pooled`), never the loss of the best setting on the whole set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Sequence, TypeVar

T = TypeVar("T")
P = TypeVar("P")


@dataclass(frozen=True)
class Fold(Generic[P]):
    """One fold: the held-out documents (indexes), the setting learnt without them, its losses."""

    test: tuple[int, ...]
    setting: P
    train_loss: float
    test_outputs: tuple


def doc_folds(n: int, k: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(train, test) document indexes of ``k`` contiguous folds over ``n`` documents (``k`` is cut to
    ``n``; the fold sizes differ by one at most)."""
    if n < 2:
        raise ValueError(f"{n} document(s): cross-validation needs at least 2")
    k = max(2, min(k, n))
    bounds = [round(i * n / k) for i in range(k + 1)]
    out = []
    for a, b in zip(bounds, bounds[1:]):
        test = tuple(range(a, b))
        train = tuple(i for i in range(n) if not a <= i < b)
        out.append((train, test))
    return out


def cross_validate(
    docs: Sequence[T],
    grid: Sequence[P],
    run: Callable[[Sequence[T], P], list],
    loss: Callable[[Sequence[T], list], float],
    k: int = 5,
) -> list[Fold[P]]:
    """For each of ``k`` folds: ``run(docs, setting)`` -> one output per document; the setting of ``grid``
    whose outputs on the training documents have the lowest ``loss(docs, outputs)`` is applied to the
    held-out documents.  Ties go to the earlier setting of ``grid`` (put the most conservative first)."""
    if not grid:
        raise ValueError("an empty grid")
    # every setting's outputs on every document, computed once (the folds only regroup them)
    outs = [run(docs, p) for p in grid]
    folds = []
    for train, test in doc_folds(len(docs), k):
        tr_docs = [docs[i] for i in train]
        best = None
        for j, p in enumerate(grid):
            lv = loss(tr_docs, [outs[j][i] for i in train])
            if best is None or lv < best[0]:
                best = (lv, j)
        assert best is not None  # (the grid is never empty)
        lv, j = best
        folds.append(Fold(test, grid[j], lv, tuple(outs[j][i] for i in test)))
    return folds


def pooled(n: int, folds: Sequence[Fold]) -> list:
    """The held-out outputs of all folds, in document order (one per document)."""
    out: list = [None] * n
    for f in folds:
        for i, o in zip(f.test, f.test_outputs):
            out[i] = o
    return out
