"""The report to a curator: stale and unknown curated entries, suggestions that disagree with the curation,
laws without a ruling and why, per-witness coverage (the share of laws a row cites), aligned laws without a
ruling, and where witnesses disagree."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Law
from .curation import Annotation
from .table import Coverage, RuleReport, Row, Uncited
from .vocabulary import CURATED


def review_report(laws, annotations, suggestions, links, rows, resources, failures, differ) -> RuleReport:
    """Everything ``RuleReport`` lists, from the inputs and the compiled rows (``failures``: the static checks)."""
    law_by_id = {law.id: law for law in laws}
    by_law: dict[str, list[Annotation]] = {}
    for a in annotations:
        by_law.setdefault(a.law_id, []).append(a)
    stale, unknown = [], []
    for law_id, anns in sorted(by_law.items()):
        law = law_by_id.get(law_id)
        if law is None:
            unknown.append(f"{law_id} ({anns[0].file}): curated, but the build has no such law (segmentation changed?)")
            continue
        hashes = sorted({a.text_hash for a in anns})
        if hashes != [law.text_hash]:
            stale.append(
                f"{law_id}: reviewed against {','.join(h or '(none)' for h in hashes)}, text now {law.text_hash}"
            )
    curated_by_law = {k: [a for a in v if a.status == CURATED] for k, v in by_law.items()}
    unreviewed = [f"{law.id}: {law.text[:70]}" for law in laws if not curated_by_law.get(law.id)]
    no_ruling = [
        f"{law_id}: {anns[0].note}"
        for law_id, anns in sorted(curated_by_law.items())
        if anns and all(a.ruling is None for a in anns)
    ]
    covered, missing = uncited_laws(laws, annotations, rows)
    coverage = [c.text() for c in covered]
    uncited = [f"{u.witness} {u.law_id}: {u.reason}" for u in missing]
    # suggestions against curation
    terms_with_patterns = {(p.lang, p.term) for p in resources.patterns}
    found: dict[str, dict[str, str]] = {}
    for s in suggestions:
        found.setdefault(s.law_id, {}).setdefault(s.term, s.evidence)
    disagreements = []
    for law in laws:
        anns = by_law.get(law.id, [])
        if not anns:
            if found.get(law.id):
                disagreements.append(f"{law.id}: not curated; the patterns suggest {', '.join(sorted(found[law.id]))}")
            continue
        curated: set[str] = set()
        for a in anns:
            if a.ruling:
                curated |= a.ruling.terms() | ({"choice"} if a.ruling.options else set()) | {f"event:{a.event}"}
        implied = {t for c in curated for t in dict(resources.vocabulary.implies).get(c, ())}
        sug = found.get(law.id, {})
        for term in sorted(set(sug) - curated - implied):
            disagreements.append(f"{law.id}: the text suggests {term} ({sug[term]!r}), not in the curated rulings")
        for term in sorted(curated - set(sug)):
            if (law.lang, term) in terms_with_patterns or (
                term.startswith("event:") and any(t.startswith("event:") for t in sug)
            ):
                disagreements.append(f"{law.id}: curated {term} is not found in the text by the patterns")
    ruled = {a.law_id for a in annotations if a.ruling is not None}
    link_gaps = []
    for link in links:
        for x, y in ((link.a, link.b), (link.b, link.a)):
            if x in ruled and y not in by_law and y in law_by_id:
                link_gaps.append(
                    f"{y}: aligned with {x} ({link.kind}, {link.score:.2f}) which has a ruling; {y} has no curated entry"
                )
    return RuleReport(
        tuple(stale),
        tuple(unknown),
        tuple(unreviewed),
        tuple(no_ruling),
        tuple(disagreements),
        tuple(sorted(set(link_gaps))),
        tuple(differ),
        tuple(failures),
        tuple(uncited),
        tuple(coverage),
        covered,
        missing,
    )


def law_key_of(law: Law) -> str:
    """The law a citation counts for: a numbered law's number (its clauses count for it), else the rule's id."""
    return f"{law.witness_id}#{law.number}" if law.number is not None else law.id


def uncited_laws(
    laws: Sequence[Law], annotations: Sequence[Annotation], rows: Sequence[Row]
) -> tuple[tuple[Coverage, ...], tuple[Uncited, ...]]:
    """Per witness: how many of its laws (numbered laws and rules, their clauses counting for them) a row cites,
    and every law no row cites with the reason the curation or the reading gives."""
    by_law: dict[str, list[Annotation]] = {}
    for a in annotations:
        by_law.setdefault(a.law_id, []).append(a)
    cited_ids = {c.law_id for r in rows for c in r.citations}
    cited = {law_key_of(law) for law in laws if law.id in cited_ids}
    uncited, coverage = [], []
    for wit in dict.fromkeys(law.witness_id for law in laws):
        own = [law for law in laws if law.witness_id == wit and law.kind != "clause"]
        missing = [law for law in own if law_key_of(law) not in cited]
        coverage.append(Coverage(wit, len(own), len(own) - len(missing)))
        for law in missing:
            anns = by_law.get(law.id, []) or [
                a for k, v in by_law.items() if k.startswith(law.id + ".") for a in v
            ]  # a law that rules through its clauses: what they are about
            read = next((a for a in anns if a.ruling is not None and a.status != CURATED), None)
            notes = [a.note for a in anns if a.note]
            if read is not None and read.ruling is not None:
                rival = (
                    "a curated ruling of this code on the same facts comes first"
                    if any(a.status == CURATED and a.witness == wit and a.event == read.event for a in annotations)
                    else "another reading of this code on the same facts comes first (the one stating more facts)"
                )
                why = f"read as {read.event}: {read.ruling.describe()}; {rival}"
            else:
                why = notes[0] if notes else "not reviewed, and no event of the vocabulary read"
            uncited.append(Uncited(wit, law.id, why))
    return tuple(coverage), tuple(uncited)
