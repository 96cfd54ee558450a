"""Compiling the rule table.

For each game and event, every fact assignment (the product of the fact values any annotation of the event uses)
gets, for each witness, the ruling of that witness's matching annotations, and for the canonical ruleset the
ruling of the first witness (by precedence) that rules on it, reviewed rulings first. Assignments with the same
result are merged into fact patterns, so the rows of one ruleset never overlap by construction; the static checks
verify it anyway, and report annotations of one witness that contradict each other.

Citations of a row are the laws of *every* witness whose ruling is the same on those facts; ``dissent`` lists
the laws of witnesses that rule otherwise.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..model import Law, Link
from .curation import Annotation, parse_law_id
from .report import review_report
from .suggest import Suggestion, suggest_rulings
from .table import Citation, Row, RuleResources, RuleTable, load_rule_resources
from .vocabulary import CURATED, EXTRACTED, AnnotationError, EventSpec, Pattern, Ruling, Vocabulary

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_CANONICAL = "canonical"


def assignments(spec: EventSpec, keys: Sequence[str]) -> list[dict[str, str]]:
    """Every assignment of values to ``keys`` (facts of ``spec``), in vocabulary order."""
    domains = []
    for k in keys:
        f = spec.fact(k)
        assert f is not None  # keys are facts of spec
        domains.append(f.values)
    return [dict(zip(keys, combo)) for combo in itertools.product(*domains)]


def build_rule_table(
    laws: Sequence[Law],
    annotations: Sequence[Annotation],
    suggestions: Sequence[Suggestion] = (),
    links: Sequence[Link] = (),
    canonical: str = DEFAULT_CANONICAL,
    *,
    resources: RuleResources | None = None,
) -> RuleTable:
    """Compile the curated rulings into the rule table (see the module docstring) and report on the curation.

    ``laws``: the laws of the build (their texts are hashed against the curation; their numbers go into the
    citations); curated laws not among them still give rows (from their ids) and are reported.
    ``resources``: vocabulary and rulesets (default: loaded from ``corpus/`` of this repository).
    """
    resources = resources or load_rule_resources(ROOT / "corpus")
    voc = resources.vocabulary
    spec_by_name = {r.name: r for r in resources.rulesets}
    if canonical not in spec_by_name:
        raise AnnotationError(
            f"unknown canonical ruleset {canonical!r}; defined in canonical.toml: {', '.join(spec_by_name)}"
        )
    canon = spec_by_name[canonical]
    law_by_id = {law.id: law for law in laws}
    rulings = [a for a in annotations if a.ruling is not None]
    failures: list[str] = []

    def law_key(law_id: str) -> tuple:
        game, wit, n = parse_law_id(law_id)
        law = law_by_id.get(law_id)
        return (law.order if law else (n or 0), law_id)

    def citation(law_id: str) -> Citation:
        game, wit, n = parse_law_id(law_id)
        law = law_by_id.get(law_id)
        return Citation(law_id, wit, law.number if law else n)

    rows: list[Row] = []
    differ: list[str] = []
    all_rulesets: list[str] = [canonical]
    for game in voc.games:
        all_rulesets += canon.order(game, "", sorted({a.witness for a in rulings if a.game == game}))
    for game in voc.games:
        witnesses = sorted({a.witness for a in rulings if a.game == game})
        for spec in voc.events_of(game):
            anns = [a for a in rulings if a.game == game and a.event == spec.name]
            if not anns:
                continue
            used = {k for a in anns for k, _ in a.facts}
            keys = [f.name for f in spec.facts if f.name in used]
            wits = [w for w in canon.order(game, "", witnesses) if any(a.witness == w for a in anns)]
            order = canon.order(game, spec.name, wits)
            wit_rank = {w: i for i, w in enumerate(canon.order(game, "", witnesses))}
            per: dict[str, dict[int, tuple[Ruling, tuple[Annotation, ...]]]] = {w: {} for w in wits}
            w: str | None  # a witness; None below where no witness rules on an assignment
            space = assignments(spec, keys)
            for i, a in enumerate(space):
                for w in wits:
                    hits = [x for x in anns if x.witness == w and x.matches(a)]
                    if not hits:
                        continue
                    curated = [x for x in hits if x.status == CURATED]
                    if not curated:  # readings of the patterns only: the one stating more of the facts first (a
                        #   law on the revoke claimed after the cut before one that names no time), then the most
                        #   confident
                        hits.sort(key=lambda x: (-len(x.facts), -(x.confidence or 0.0)))
                    hits = curated or hits
                    distinct = list(dict.fromkeys(x.ruling for x in hits))
                    if len(distinct) > 1 and curated:
                        failures.append(
                            f"{game}/{spec.name} {_fmt_assignment(a)}: annotations of {w} contradict each other: "
                            + "; ".join(f"{x.law_id} -> {x.ruling.describe()}" for x in hits if x.ruling is not None)
                        )
                    chosen = distinct[0]
                    assert chosen is not None  # hits are annotations with a ruling
                    per[w][i] = (chosen, tuple(x for x in hits if x.ruling == chosen))
                readings = {per[w][i][0] for w in wits if i in per[w]}
                if len(readings) > 1:
                    differ.append(
                        f"{game}/{spec.name} {_fmt_assignment(a)}: "
                        + "; ".join(f"{w}: {per[w][i][0].describe()}" for w in order if i in per[w])
                    )

            def result(i: int, w: str) -> tuple:
                ruling = per[w][i][0]
                extracted = [x.confidence for x in per[w][i][1] if x.status != CURATED]
                agree = [x for w in wits if i in per[w] and per[w][i][0] == ruling for x in per[w][i][1]]
                dis = [x.law_id for w in wits if i in per[w] and per[w][i][0] != ruling for x in per[w][i][1]]
                agree.sort(key=lambda x: (wit_rank.get(x.witness, 99), law_key(x.law_id)))
                cites = tuple(citation(x.law_id) for x in dict.fromkeys(agree))
                notes = " / ".join(dict.fromkeys(x.note for x in per[w][i][1] if x.note))
                status = EXTRACTED if extracted else CURATED
                conf = min((c for c in extracted if c is not None), default=None)  # a norm's force: not measured
                return ruling, cites, tuple(sorted(set(dis), key=law_key)), notes, status, conf

            def reviewed(i: int, w: str) -> bool:
                return any(x.status == CURATED for x in per[w][i][1])

            for rs in [canonical, *wits]:
                results: dict[int, tuple] = {}
                for i in range(len(space)):
                    if rs == canonical:  # curated rulings first, then by the precedence of the witnesses
                        w = next((w for w in order if i in per[w] and reviewed(i, w)), None)
                        w = w or next((w for w in order if i in per[w]), None)
                    else:
                        w = rs if i in per[rs] else None
                    if w is None:
                        continue
                    results[i] = result(i, w)
                for pattern, res in _compress(spec, keys, space, results):
                    ruling, cites, dis, note, status, conf = res
                    rows.append(Row(rs, game, spec.name, pattern, ruling, cites, dis, note, status, conf))

    rank = {rs: i for i, rs in enumerate(all_rulesets)}
    ev_rank = {(e.game, e.name): i for i, e in enumerate(voc.events)}
    rows.sort(key=lambda r: (ev_rank[(r.game, r.event)], rank[r.ruleset], _pattern_key(voc, r)))
    failures.extend(static_check_failures(rows, rulings, voc))
    report = review_report(laws, annotations, suggestions, links, rows, resources, failures, differ)
    return RuleTable(canonical, voc, tuple(rows), tuple(all_rulesets), report)


def _fmt_assignment(a: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in a.items()) or "(no facts)"


def _pattern_key(voc: Vocabulary, r: Row) -> tuple:
    spec = voc.event(r.game, r.event)
    assert spec is not None  # rows are built from the vocabulary's events
    out = []
    for f in spec.facts:
        vs = dict(r.facts).get(f.name)
        out.append(tuple(f.values.index(v) for v in vs) if vs else (-1,))
    return tuple(out)


def _compress(
    spec: EventSpec, keys: Sequence[str], space: list[dict], results: Mapping[int, tuple]
) -> list[tuple[Pattern, tuple]]:
    """Merge the assignments with the same result into disjoint cubes (fact patterns); drop full-domain facts."""
    cubes: list[tuple[dict[str, frozenset], tuple]] = [
        ({k: frozenset([space[i][k]]) for k in keys}, res) for i, res in sorted(results.items())
    ]
    merged = True
    while merged:
        merged = False
        for x, y in itertools.combinations(range(len(cubes)), 2):
            (cx, rx), (cy, ry) = cubes[x], cubes[y]
            if rx != ry:
                continue
            diff = [k for k in keys if cx[k] != cy[k]]
            if len(diff) == 1:
                k = diff[0]
                cubes[x] = ({**cx, k: cx[k] | cy[k]}, rx)
                del cubes[y]
                merged = True
                break
    domains: dict[str, tuple[str, ...]] = {}
    for k in keys:
        f = spec.fact(k)
        assert f is not None  # keys are facts of spec
        domains[k] = f.values
    out = []
    for cube, res in cubes:
        pattern = tuple(
            (k, tuple(v for v in domains[k] if v in cube[k])) for k in keys if cube[k] != frozenset(domains[k])
        )
        out.append((pattern, res))
    return out


def rows_overlap(a: Row, b: Row) -> bool:
    """Two rows overlap when some fact assignment matches both (facts a row omits take any value)."""
    fa, fb = dict(a.facts), dict(b.facts)
    return all(set(fa[k]) & set(fb[k]) for k in fa.keys() & fb.keys())


def static_check_failures(rows: Sequence[Row], rulings: Sequence[Annotation], voc: Vocabulary) -> list[str]:
    """No two rows of one ruleset overlap (for one game and event); every law with a ruling is cited by a row
    of its own witness's ruleset, for every event it rules on; every term is in the vocabulary."""
    out = []
    groups: dict[tuple, list[Row]] = {}
    for r in rows:
        groups.setdefault((r.ruleset, r.game, r.event), []).append(r)
    for (rs, game, event), rs_rows in groups.items():
        for a, b in itertools.combinations(rs_rows, 2):
            if rows_overlap(a, b):
                out.append(f"{rs} {game}/{event}: rows [{a.facts_text()}] and [{b.facts_text()}] overlap")
    cited = {(r.ruleset, r.event, c.law_id) for r in rows for c in r.citations}
    for ann in (a for a in rulings if a.status == CURATED):
        if (ann.witness, ann.event, ann.law_id) not in cited:
            out.append(f"{ann.law_id} rules on {ann.event} but no row of ruleset {ann.witness} cites it")
    for r in rows:
        terms = [t for t in [r.ruling.outcome, *r.ruling.options] if t]
        if any(t not in voc.outcomes for t in terms) or any(p not in voc.penalties for p in r.ruling.penalties):
            out.append(f"{r.ruleset} {r.game}/{r.event}: term outside the vocabulary in {r.ruling.describe()}")
    return sorted(set(out))


def make_rule_table(
    laws: Sequence[Law], links: Sequence[Link] = (), corpus_dir: Path | None = None, canonical: str = DEFAULT_CANONICAL
) -> RuleTable:
    """Everything the build needs in one call: load resources, suggest, build."""
    resources = load_rule_resources(Path(corpus_dir) if corpus_dir else ROOT / "corpus")
    suggestions = suggest_rulings(laws, resources.patterns)
    return build_rule_table(laws, resources.annotations, suggestions, links, canonical, resources=resources)
