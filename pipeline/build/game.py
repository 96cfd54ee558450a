"""The per-game step: the alignment links of each game (all pairs, or through a pivot witness part by part,
each part cached on its own) and the rule table built from the laws, suggestions and links."""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from ..model import Law, Link, Witness, WitnessResult
from .cache import cached
from .frames import alignments_frame, csv_rows, unaligned_frame
from .scheduling import Deferred, Mapper, through_cache

if TYPE_CHECKING:
    from ..export.tei.links import LinkFragments


def _pivot_job(laws: Iterable[Law], *rest) -> tuple:
    return (tuple(laws), *rest)


@dataclass(frozen=True)
class AlignedPart:
    """One part of the corpus's links (sorted by game, law a, law b) with its rows of alignments.csv
    and its TEI fragments, formatted where the part was computed and cached with it: a rebuild that
    adds one witness to a library only copies the other parts' bytes."""

    links: tuple[Link, ...]
    csv: bytes
    tei: LinkFragments
    unaligned_csv: bytes = b""  # rows of unaligned.csv (laws with no counterpart in another witness)

    @classmethod
    def of(cls, links: Iterable[Link], laws: Iterable[Law], unaligned: Sequence = ()) -> "AlignedPart":
        from ..export.tei.links import link_fragments

        links = _sorted(links)
        witness_of = {law.id: law.witness_id for law in laws}
        return cls(
            links,
            csv_rows(alignments_frame(links, witness_of)),
            link_fragments(links, witness_of, unaligned=unaligned),
            csv_rows(unaligned_frame(unaligned)) if unaligned else b"",
        )


def _run_pivot(args: tuple, pivot=None) -> tuple[AlignedPart, bool]:
    laws, corpus_dir, cache_dir, key, witnesses = args
    from ..pivot import align_to_pivot_full

    def run() -> AlignedPart:
        links, unaligned = align_to_pivot_full(laws, pivot, align_resources(corpus_dir), witnesses=witnesses)
        return AlignedPart.of(links, (*laws, *pivot.laws), unaligned)

    return cached(cache_dir, f"{laws[0].witness_id}.align.{key}.pkl", run)


def _run_pivot_links(args: tuple) -> tuple[AlignedPart, bool]:
    pivot, corpus_dir, cache_dir, name, witnesses = args
    from ..pivot import align_pivot_full

    def run() -> AlignedPart:
        links, unaligned = align_pivot_full(pivot, align_resources(corpus_dir), witnesses=witnesses)
        return AlignedPart.of(links, pivot.laws, unaligned)

    return cached(cache_dir, name, run)


_ALIGN_RESOURCES: dict[str, object] = {}


def align_resources(corpus_dir: str):
    from ..align import load_resources

    if corpus_dir not in _ALIGN_RESOURCES:
        _ALIGN_RESOURCES[corpus_dir] = load_resources(Path(corpus_dir))
    return _ALIGN_RESOURCES[corpus_dir]


def align_parts(
    members: Sequence[tuple[Witness, Iterable[Law]]],
    corpus_dir: Path,
    mapper: "Mapper | None" = None,
    cache: str | None = None,
    version: str = "",
    used: set[str] | None = None,
) -> Iterator[AlignedPart]:
    """The alignment links of the corpus, part by part (``AlignedPart``: links sorted by game, law a, law b):
    one part per game aligned all pairs; for a game aligned through a pivot, the pivot's own links
    and then one part per other witness, each computed (and cached) on its own."""
    from ..align import align_full
    from ..pivot import PivotConfig, make_pivot

    config = PivotConfig()
    mapper = mapper or Mapper("sync")
    witnesses = {w.id: w for w, _ in members}
    laws: Iterable[Law]
    for game in sorted({w.game for w, _ in members}):
        group = [(w, laws) for w, laws in members if w.game == game]
        if len(group) <= config.pairwise_max_witnesses:
            laws = [law for _, ls in group for law in ls]
            links, unaligned = align_full(laws, align_resources(str(corpus_dir)), witnesses=witnesses)
            yield AlignedPart.of(links, laws, unaligned)
            continue
        pivot = make_pivot(game, {w.id: laws for w, laws in group}, [w.id for w, _ in group], config)
        name = f"{game}.pivot.{hashlib.sha256((pivot.key + version).encode()).hexdigest()[:24]}.pkl"
        if used is not None:
            used.add(name)
        # on a worker, like the rest: the build process itself then never loads a language model
        ((part, _),) = through_cache(
            mapper, _run_pivot_links, [(pivot, str(corpus_dir), cache, name, witnesses)], [name], cache
        )
        yield part
        jobs, names = [], []
        for w, laws in group:
            if w.id in pivot.witness_ids or not laws:
                continue
            h = hashlib.sha256((pivot.key + version).encode())
            for law in laws:
                h.update(f"{law.id}\0{law.text_hash}\0{law.number}\0{law.order}\0".encode())
            key = h.hexdigest()[:24]
            # (the laws are read again when the job is submitted: a game's laws are not all held at once)
            jobs.append(
                Deferred(
                    _pivot_job,
                    (laws, str(corpus_dir), cache, key, {x: witnesses[x] for x in (*pivot.witness_ids, w.id)}),
                )
            )
            names.append(f"{w.id}.align.{key}.pkl")
        if used is not None:
            used.update(names)
        for part, _ in through_cache(mapper, _run_pivot, jobs, names, cache, pivot=pivot):
            yield part


def _sorted(links: Iterable[Link]) -> tuple[Link, ...]:
    return tuple(sorted(links, key=lambda k: (k.game, k.a, k.b)))


def align_corpus(
    results: Sequence[WitnessResult],
    corpus_dir: Path,
    mapper: "Mapper | None" = None,
    cache: str | None = None,
    version: str = "",
    used: set[str] | None = None,
) -> tuple[Link, ...]:
    """All the alignment links of the corpus (see ``align_parts``) in one tuple."""
    members = [(r.witness, r.segmented.laws) for r in results]
    return tuple(k for part in align_parts(members, corpus_dir, mapper, cache, version, used) for k in part.links)


def export_rules(
    laws: Sequence[Law],
    suggestions: Sequence,
    links: Sequence[Link],
    corpus_dir: Path,
    resources=None,
    witness_ids: Iterable[str] | None = None,
) -> dict[str, bytes]:
    """The rule table from the curated annotations, the rulings read from the laws no one reviewed (status
    extracted), the per-witness suggestions and the links. With ``witness_ids`` (the witnesses of the build), the
    annotations of any other witness (one removed from the corpus, or left out of the build) are not used: no row
    or citation of it reaches the rule table or the referee."""
    from ..extract import extract_annotations
    from ..rules import build_rule_table, load_rule_resources, rules_outputs

    resources = resources or load_rule_resources(corpus_dir)
    if witness_ids is not None:
        present = set(witness_ids)
        resources = dataclasses.replace(
            resources, annotations=tuple(a for a in resources.annotations if a.witness in present)
        )
    suggestions = tuple(sorted(suggestions, key=lambda s: (s.law_id, s.start, s.term)))
    annotations = resources.annotations + extract_annotations(laws, resources, corpus_dir)
    return rules_outputs(build_rule_table(laws, annotations, suggestions, links, resources=resources))
