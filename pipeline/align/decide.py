"""The decision rule (which scored pairs become links, per pair of witnesses), the laws left without a counterpart
and why, and the alignment of all the laws of one game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..model import Law, Link, Witness
from .config import AlignConfig, AlignResources
from .provisions import lead_ins
from .scoring import AlignModel, link_kind


def _decide(S: "Sequence[Sequence[float]] | np.ndarray", config: AlignConfig, R=None) -> list[tuple[int, int]]:
    """The links of :func:`decide_links` (primary and secondary together)."""
    primary, secondary = decide_links(S, config, R)
    return sorted(primary | secondary)


def decide_links(
    S: "Sequence[Sequence[float]] | np.ndarray", config: AlignConfig, R=None
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Primary links by competitive linking, then secondary (1:n / n:1) links.

    Primary: pairs taken greedily by decreasing score, each law at most once, score >= ``min_score``
    and >= ``primary_ratio`` times the best score of each of its laws; a pair that is not the best of both its
    laws must also score >= ``floor`` (only a mutual best may be as weak as ``min_score``).
    Secondary: a pair that is the best of one of its laws, scores >= ``floor`` and >= ``ratio`` times
    the primary score of either of its laws (``orphan_ratio`` times when the law whose best it is has no
    primary link).

    ``S`` is a matrix (list of rows or 2-d numpy array).  Vectorised with numpy: whether a pair can be
    primary depends only on the scores (not on the links already taken), so only those candidates
    (usually about one per law) are sorted and linked greedily; and secondary links do not depend on
    one another, so they are decided all at once.  The result is the same as the pair-by-pair rule.

    ``R`` (same shape, default ``S``) is what the ratio tests compare (``primary_ratio``, ``ratio``, ``orphan_ratio``):
    the similarity gated by the readings (:meth:`AlignModel.matrices`).  Returns (primary links, secondary links)."""
    M = np.asarray(S, dtype=np.float64)
    if M.ndim != 2 or M.size == 0:
        return set(), set()
    Q = M if R is None else np.asarray(R, dtype=np.float64)
    bq_a, bq_b = Q.max(axis=1), Q.max(axis=0)
    eps = 1e-12
    na, nb = M.shape
    best_a = M.max(axis=1)
    best_b = M.max(axis=0)
    # primary candidates, then greedy by (-score, i, j)
    mutual = (M >= (best_a - eps)[:, None]) & (M >= (best_b - eps)[None, :])
    ci, cj = np.nonzero(
        (M >= config.min_score)
        & (mutual | (M >= config.floor))
        & ~(Q < config.primary_ratio * np.maximum(bq_a[:, None], bq_b[None, :]))
    )
    cs = M[ci, cj]
    prim_a = np.zeros(na)  # the primary score (ratio basis) of each law (0: none), as in the rule's max(..., 0.0)
    prim_b = np.zeros(nb)
    has_a = np.zeros(na, dtype=bool)
    has_b = np.zeros(nb, dtype=bool)
    links: set[tuple[int, int]] = set()
    for k in np.lexsort((cj, ci, -cs)).tolist():
        i, j = int(ci[k]), int(cj[k])
        if not has_a[i] and not has_b[j]:
            has_a[i] = has_b[j] = True
            prim_a[i] = prim_b[j] = Q[i, j]
            links.add((i, j))
    primary = set(links)
    # secondary links: each pair on its own
    best_of_a = M >= (best_a - eps)[:, None]
    best_of_b = M >= (best_b - eps)[None, :]
    orphan = (best_of_a & ~has_a[:, None]) | (best_of_b & ~has_b[None, :])
    need = np.where(orphan, config.orphan_ratio, config.ratio)
    ok = (M >= config.floor) & (best_of_a | best_of_b) & (Q >= need * np.maximum(prim_a[:, None], prim_b[None, :]))
    si, sj = np.nonzero(ok)
    return primary, set(zip(si.tolist(), sj.tolist())) - primary


def supported_secondary(
    model: "AlignModel", A: Sequence[Law], B: Sequence[Law], secondary: Iterable[tuple[int, int]]
) -> set[tuple[int, int]]:
    """The secondary links (i, j) of ``A`` x ``B`` that the decision keeps: across languages, only those whose laws
    share distinctive concepts (AlignConfig.secondary_needs_concepts); within one language, all of them."""
    return {
        (i, j)
        for i, j in secondary
        if not model.config.secondary_needs_concepts or A[i].lang == B[j].lang or model.shares_concepts(A[i], B[j])
    }


def case_links(
    model: "AlignModel",
    A: Sequence[Law],
    B: Sequence[Law],
    S: "Sequence[Sequence[float]]",
    chosen: Iterable[tuple[int, int]],
    kind: str,
) -> set[tuple[int, int]]:
    """Links to the other cases of a law of several cases (AlignConfig.case_links): a law left without a link whose
    best counterpart is linked to another law, when the two share an event the existing link does not (the case that
    link leaves out) and no condition that must agree is in conflict."""
    if not model.config.case_links:
        return set()
    links = set(chosen)
    out: set[tuple[int, int]] = set()
    for flip in (False, True):
        rows = len(B) if flip else len(A)
        cols = len(A) if flip else len(B)

        def score(i: int, j: int) -> float:
            return S[j][i] if flip else S[i][j]

        def pair(i: int, j: int) -> tuple[Law, Law]:
            return (B[i], A[j]) if flip else (A[i], B[j])

        linked = {(j, i) if flip else (i, j) for i, j in links}  # (row law, column law)
        for i in range(rows):
            if any(r == i for r, _ in linked) or cols == 0:
                continue
            j = max(range(cols), key=lambda c: score(i, c))
            if score(i, j) < model.config.floor:
                continue
            others = [r for r, c in linked if c == j]
            if not others:
                continue
            cmp = model.reading(*pair(i, j), kind)
            if cmp is None or cmp.agree_conflict or cmp.hard_conflict or not cmp.shared_events:
                continue
            covered: set[str] = set()
            for r in others:
                other = model.reading(*pair(r, j), kind)
                covered |= set(other.shared_events) if other is not None else set()
            if set(cmp.shared_events) - covered:
                out.add((j, i) if flip else (i, j))
    return out - links


@dataclass(frozen=True)
class Unaligned:
    """A law with no counterpart in another witness of its game: "no counterpart" is an answer.

    ``best`` is the law of the other witness that scored highest (empty when none scored above 0), ``reason`` says why
    it is not a link: it rules on another event, it is weak, or it is the counterpart of another law."""

    game: str
    law: str
    witness: str
    other_witness: str
    best: str
    best_score: float
    reason: str
    reading: str  # the law's structured reading (events [conditions] -> outcomes)


def _unaligned_reason(
    model: "AlignModel", a: Law, b: Law | None, score: float, kind: str, linked_b: bool, others: Sequence[Law] = ()
) -> str:
    if b is None or score <= 0:
        events = model.provisions[a.id].event_ids if a.id in model.provisions else frozenset()
        if (
            events
            and kind != "same_text"
            and not any(events & model.provisions[o.id].event_ids for o in others if o.id in model.provisions)
        ):
            return f"no law of the other witness rules on {', '.join(sorted(events))} (no candidate)"
        return "no candidate"
    cmp = model.reading(a, b, kind)
    if cmp is not None and cmp.event_overlap == 0:
        return "best candidate rules on another event (" + cmp.evidence() + ")"
    if linked_b:
        return f"best candidate ({score:.2f}) is linked to a law that matches it better"
    return (
        f"best candidate too weak ({score:.2f} < {model.config.min_score})"
        if score < model.config.min_score
        else f"best candidate not chosen by the decision rule ({score:.2f})"
    )


def align_full(
    laws: Sequence[Law],
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[tuple[Link, ...], tuple[Unaligned, ...]]:
    """:func:`align` and, for every pair of witnesses, the laws of either that got no link to the other."""
    laws = [l for l in laws if l.text.strip()]
    leads = lead_ins(laws)  # (a clause that reads no event is read with its law's lead-in)
    if config.skip_parents_with_clauses:
        parents = {l.parent for l in laws if l.parent}
        laws = [l for l in laws if l.id not in parents]
    if not laws:
        return (), ()
    games = {l.game for l in laws}
    if len(games) > 1:
        raise ValueError(f"align() takes the laws of one game, got {sorted(games)}")
    model = AlignModel(laws, resources, config, leads)
    by_wit: dict[str, list[Law]] = {}
    for l in laws:
        by_wit.setdefault(l.witness_id, []).append(l)
    for group in by_wit.values():
        group.sort(key=lambda l: l.order)
    wids = list(by_wit)
    out: list[Link] = []
    lonely: list[Unaligned] = []
    for x in range(len(wids)):
        for y in range(x + 1, len(wids)):
            A, B = by_wit[wids[x]], by_wit[wids[y]]
            wa, wb = (witnesses or {}).get(wids[x]), (witnesses or {}).get(wids[y])
            kind = link_kind(wa, wb, A[0].lang, B[0].lang)
            Sm, Rm = model.matrices(A, B, kind)
            S = np.around(Sm, 12).tolist()
            primary, secondary = decide_links(S, config, np.around(Rm, 12))
            chosen = sorted(primary | supported_secondary(model, A, B, secondary))
            chosen = sorted({*chosen, *case_links(model, A, B, S, chosen, kind)})
            for i, j in chosen:
                a, b = A[i], B[j]
                _, ev = model.score(a, b, witnesses, (len(A), len(B)))  # the evidence, for chosen links only
                band = model.band(S[i][j], model.reading(a, b, kind), (i, j) in primary)
                out.append(
                    Link(game=a.game, a=a.id, b=b.id, score=float(f"{S[i][j]:.4f}"), kind=kind, evidence=ev, band=band)
                )
            lonely.extend(unaligned_pair(model, A, B, S, chosen, kind))
    return tuple(out), tuple(sorted(lonely, key=lambda u: (u.witness, u.other_witness, u.law)))


def unaligned_pair(
    model: "AlignModel",
    A: Sequence[Law],
    B: Sequence[Law],
    S: "Sequence[Sequence[float]]",
    chosen: Iterable[tuple[int, int]],
    kind: str,
) -> list[Unaligned]:
    """The laws of witness ``A`` with no link to witness ``B`` and those of ``B`` with none to ``A`` (``S``: the
    score matrix of ``A`` x ``B``, ``chosen``: the (i, j) links decided on it), each with its best candidate and the
    reason it is not a link.  Used by all-pairs alignment and by the pivot mode (pipeline/pivot.py) alike.  Two
    readings of one printed text (``same_text``) give none: a missing reading is a segmentation matter."""
    if kind == "same_text":
        return []
    chosen = list(chosen)
    has_a, has_b = {i for i, _ in chosen}, {j for _, j in chosen}
    lonely: list[Unaligned] = []
    for rows, cols, has, has_other, mat in (
        (A, B, has_a, has_b, S),
        (B, A, has_b, has_a, [list(r) for r in zip(*S)]),
    ):
        for i, law in enumerate(rows):
            if i in has:
                continue
            j = max(range(len(cols)), key=lambda k: (mat[i][k], -k)) if cols else -1
            best, score = (cols[j], mat[i][j]) if j >= 0 else (None, 0.0)
            model.read([law])
            lonely.append(
                Unaligned(
                    law.game,
                    law.id,
                    law.witness_id,
                    cols[0].witness_id if cols else "",
                    best.id if best is not None and score > 0 else "",
                    float(f"{score:.4f}"),
                    _unaligned_reason(model, law, best, score, kind, j in has_other, cols),
                    model.provisions[law.id].summary(),
                )
            )
    return lonely


def align(
    laws: Sequence[Law],
    resources: AlignResources,
    config: AlignConfig = AlignConfig(),
    witnesses: Mapping[str, Witness] | None = None,
) -> tuple[Link, ...]:
    """Align all laws of one game across every pair of witnesses (n:m, order-free).

    ``witnesses`` (optional) gives each witness's metadata, used for the link kind (same ``source``
    = same_text).  Laws with an empty text are ignored, and so is a law whose clauses are among
    ``laws`` (``skip_parents_with_clauses``): its clauses are aligned instead.  Links go from the witness met first in
    ``laws`` to the other; they are sorted by witness pair, then by law order."""
    return align_full(laws, resources, config, witnesses)[0]
