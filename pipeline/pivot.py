"""Alignment at scale: every witness against a pivot, so that a new witness costs work in proportion to itself.

A game with few witnesses (``PivotConfig.pairwise_max_witnesses``) is aligned pair by pair with
``pipeline.align.align`` (every pair of witnesses, concept weights fitted on all of the game's laws).
Beyond that, all-pairs alignment grows with the square of the witnesses, so the game is aligned
through a **pivot**: the first ``pivot_witnesses`` witnesses of the game in corpus order (the
reference codes a scholar lists first) are aligned among themselves; the concept weights are fitted
on their laws once; and every other witness is aligned against each pivot witness only, with the same
decision rule as ``align``. Two non-pivot witnesses are related through the pivot laws they link to
(the links are not materialised, which keeps the output linear in the number of witnesses).

``align_to_pivot`` is a pure function of (the witness's laws, the pivot): the build caches it per
witness and maps it over workers like the other per-witness stages.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .align import (
    AlignConfig,
    AlignModel,
    AlignResources,
    Unaligned,
    align_full,
    analyse,
    decide_links,
    link_kind,
    supported_secondary,
    unaligned_pair,
)
from .model import Law, Link, Witness


@dataclass(frozen=True)
class PivotConfig:
    """When and how to align through a pivot.

    pairwise_max_witnesses: a game with at most this many witnesses is aligned all pairs with all pairs
    pivot_witnesses: otherwise the first this-many witnesses of the game (corpus order) form the pivot
    """

    pairwise_max_witnesses: int = 12
    pivot_witnesses: int = 3


@dataclass(frozen=True)
class Pivot:
    """The pivot of one game: the pivot witnesses' laws (and their metadata) and a content key."""

    game: str
    witness_ids: tuple[str, ...]
    laws: tuple[Law, ...]
    key: str


def _eligible(laws: Sequence[Law], config: AlignConfig) -> list[Law]:
    laws = [law for law in laws if law.text.strip()]
    if config.skip_parents_with_clauses:
        parents = {law.parent for law in laws if law.parent}
        laws = [law for law in laws if law.id not in parents]
    return laws


def make_pivot(
    game: str, laws_by_witness: Mapping[str, Iterable[Law]], order: Sequence[str], config: PivotConfig = PivotConfig()
) -> Pivot:
    """The pivot of a game: the laws of its first ``config.pivot_witnesses`` witnesses in ``order``."""
    ids = tuple(w for w in order if w in laws_by_witness)[: config.pivot_witnesses]
    laws = tuple(law for w in ids for law in laws_by_witness[w])
    h = hashlib.sha256()
    for law in laws:
        h.update(f"{law.id}\0{law.text_hash}\0{law.number}\0{law.order}\0".encode())
    return Pivot(game=game, witness_ids=ids, laws=laws, key=h.hexdigest()[:16])


_MODELS: dict[tuple[str, int], AlignModel] = {}


def pivot_model(pivot: Pivot, resources: AlignResources, config: AlignConfig = AlignConfig()) -> AlignModel:
    """The concept space fitted on the pivot's laws (cached per process: workers fit it once)."""
    key = (pivot.key, hash(config))
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = AlignModel(_eligible(pivot.laws, config), resources, config)
    return model


def align_pivot(
    pivot: Pivot,
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[Link, ...]:
    """Links among the pivot witnesses themselves (all pairs: there are few)."""
    return align_pivot_full(pivot, resources, config, witnesses)[0]


def align_pivot_full(
    pivot: Pivot,
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[tuple[Link, ...], tuple[Unaligned, ...]]:
    """:func:`align_pivot` and the pivot laws with no counterpart in another pivot witness."""
    return align_full(list(pivot.laws), resources, config, witnesses=witnesses)


def align_to_pivot(
    laws: Sequence[Law],
    pivot: Pivot,
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[Link, ...]:
    """Link one witness's laws to the laws of each pivot witness (n:m, order-free, same decision rule)."""
    return align_to_pivot_full(laws, pivot, resources, config, witnesses)[0]


def align_to_pivot_full(
    laws: Sequence[Law],
    pivot: Pivot,
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[tuple[Link, ...], tuple[Unaligned, ...]]:
    """:func:`align_to_pivot` and the laws with no counterpart ("no counterpart" is an answer in pivot mode too): the
    witness's laws with no link to a pivot witness, and that pivot witness's laws with no link to this witness, one
    row per law and other witness as in all-pairs alignment.  (Two witnesses outside the pivot are related through
    the pivot laws they link to, and get no rows about each other: the output stays linear in the witnesses.)"""
    rows = sorted(_eligible(laws, config), key=lambda law: law.order)
    if not rows:
        return (), ()
    model = pivot_model(pivot, resources, config)
    fresh = [law for law in rows if law.id not in model.analyses]
    if fresh:
        model.analyses.update(analyse(fresh, resources, config))
    try:
        return _links_to_pivot(rows, pivot, model, config, witnesses)
    finally:
        # the model is shared by every witness a worker aligns: forget this witness's laws, so that
        # a witness's links never depend on which witnesses the same worker aligned before it (and a
        # worker's memory does not grow with the library)
        model.forget(law.id for law in fresh)


def _links_to_pivot(
    rows: Sequence[Law], pivot: Pivot, model: AlignModel, config: AlignConfig, witnesses: Mapping[str, Witness] | None
) -> tuple[tuple[Link, ...], tuple[Unaligned, ...]]:
    eligible_pivot = _eligible(pivot.laws, config)
    links: list[Link] = []
    lonely: list[Unaligned] = []
    for pw in pivot.witness_ids:
        cols = sorted((law for law in eligible_pivot if law.witness_id == pw), key=lambda law: law.order)
        if not cols:
            continue
        wa, wb = (witnesses or {}).get(pw), (witnesses or {}).get(rows[0].witness_id)
        kind = link_kind(wb, wa, rows[0].lang, cols[0].lang)
        S, R = model.matrices(rows, cols, kind)
        primary, secondary = decide_links(S.T, config, R.T)
        secondary = supported_secondary(model, cols, rows, secondary)
        for j, i in sorted(primary | secondary):
            a, b = cols[j], rows[i]
            score, evidence = model.score(a, b, witnesses, (len(cols), len(rows)))
            band = model.band(float(S[i, j]), model.reading(a, b, kind), (j, i) in primary)
            links.append(
                Link(
                    game=a.game,
                    a=a.id,
                    b=b.id,
                    score=round(float(S[i, j]), 4),
                    kind=link_kind(wa, wb, a.lang, b.lang),
                    evidence=evidence + "; via pivot",
                    band=band,
                )
            )
        lonely.extend(unaligned_pair(model, cols, rows, S.T.round(12).tolist(), primary | secondary, kind))
    return tuple(links), tuple(sorted(lonely, key=lambda u: (u.witness, u.other_witness, u.law)))
