"""Scale: Dask execution gives the same edition; large games align through a pivot, linearly."""

from __future__ import annotations

import hashlib
import random
import shutil
from pathlib import Path

import pytest

from measure.benchcorpus import NoiseModel, SourceLaws, renoise, write_bench_corpus
from pipeline.build import BuildOptions, build
from pipeline.model import Law
from pipeline.pivot import PivotConfig, align_to_pivot, make_pivot

from conftest import CORPUS

pytestmark = pytest.mark.integration

NOISE = NoiseModel(rate=0.03, edits=(("e", "c", 5), ("n", "u", 3), ("m", "rn", 2), ("i", "l", 2), ("", "^", 1)))

CODE = [
    "He who does not show his cut loses the deal.",
    "The deal is good though the pack be found incorrect afterwards.",
    "If a card is faced in the pack during the first deal, the deal is void.",
    "If the dealer shows any of his own cards in dealing, the deal goes on.",
    "If the dealer deals out of turn, the cards are put in reserve for the next hand.",
    "If the dealer shows more than one card in turning up for trump, the adversary may call a new deal.",
    "Any one playing with more than five cards in his hand loses a point and cannot score the king.",
    "A card played out of turn may be taken up if not played to.",
    "A card falling accidentally from the hand is played if it covers the adversary's card.",
    "The player who looks over his adversary's cards must play out the hand with his own cards exposed.",
]


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def law(wid: str, n: int, text: str, order: int) -> Law:
    return Law(
        id=f"ecarte.{wid}.law-{n}",
        witness_id=wid,
        game="ecarte",
        lang="en",
        kind="law",
        number=n,
        printed=f"{n}.",
        label=str(n),
        order=order,
        start=0,
        end=len(text),
        text=text,
    )


@pytest.fixture(scope="module")
def cluster_address():
    """A 2-worker LocalCluster started by the test, reached as a shared cluster is (``tcp://host:port``):
    the build neither starts nor restarts its workers."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
    ) as cluster:
        yield cluster.scheduler_address


def test_local_cluster_with_two_workers_builds_the_same_edition(fresh_build, built_copy, tmp_path, cluster_address):
    """The witnesses the cluster reads (one of each language; the others come from the fresh build's cache)
    give, with the game steps over all of them, the edition the sync build gave. (A build that starts its
    own LocalCluster, ``local:N``, restarts its workers between stages: tests/test_robust.py runs that
    cycle.)"""
    out, _ = fresh_build
    _, cache = built_copy
    on_cluster = ("en-002", "fr-001")
    for wid in on_cluster:
        (entry,) = cache.glob(f"{wid}.*.pkl")
        entry.unlink()
    report = build(
        BuildOptions(corpus_dir=CORPUS, out_dir=tmp_path / "new", cache_dir=cache, scheduler=cluster_address)
    )
    assert report.witnesses == 6 and sorted(report.processed) == list(on_cluster)
    assert tree(tmp_path / "new") == tree(out)


def test_a_shuffled_renumbered_noisy_copy_aligns_back_through_the_pivot():
    pivot_laws = {"en-a": tuple(law("en-a", i + 1, t, i) for i, t in enumerate(CODE))}
    pivot = make_pivot("ecarte", pivot_laws, ["en-a"], PivotConfig(pivot_witnesses=1))
    rng = random.Random(7)
    order = list(range(len(CODE)))
    rng.shuffle(order)
    copy = tuple(law("en-b", k + 1, renoise(CODE[i], NOISE, rng), k) for k, i in enumerate(order))
    from pipeline.align import load_resources

    links = align_to_pivot(copy, pivot, load_resources(CORPUS))
    got = {(k.a, k.b) for k in links}
    expected = {(f"ecarte.en-a.law-{i + 1}", f"ecarte.en-b.law-{k + 1}") for k, i in enumerate(order)}
    assert expected <= got
    assert len(got - expected) <= 1  # at most one extra partial (1:n) link
    assert all(k.kind == "edition" or k.kind == "same_code" for k in links)


def test_a_large_game_is_aligned_linearly_and_a_new_witness_costs_only_itself(tmp_path, cluster_address):
    corpus = tmp_path / "corpus"
    for name in ("lexicon", "annotations"):
        shutil.copytree(CORPUS / name, corpus / name)
    shutil.copy(CORPUS / "glossary.csv", corpus / "glossary.csv")
    n = PivotConfig().pairwise_max_witnesses + 3
    write_bench_corpus(corpus, [SourceLaws("ecarte", "en", tuple(CODE))], NOISE, n, target_bytes=1500, seed=3)
    cache, out = tmp_path / "cache", tmp_path / "out"
    first = build(BuildOptions(corpus_dir=corpus, out_dir=out, cache_dir=cache, site=False))
    assert len(first.processed) == n
    # the same library on a 2-worker cluster (the pivot is sent to each worker once): same edition
    on_cluster = build(
        BuildOptions(corpus_dir=corpus, out_dir=tmp_path / "out2", scheduler=cluster_address, site=False)
    )
    assert len(on_cluster.processed) == n
    assert tree(tmp_path / "out2") == tree(out)
    import pandas as pd

    links = pd.read_csv(out / "alignments.csv")
    pivot = sorted(set(links["witness_a"]) | set(links["witness_b"]))
    # every link touches one of the pivot witnesses: no all-pairs alignment
    pivot_ids = set(pd.read_csv(out / "witnesses.csv")["id"][: PivotConfig().pivot_witnesses])
    assert all(a in pivot_ids or b in pivot_ids for a, b in zip(links["witness_a"], links["witness_b"]))
    assert len(pivot) == n
    extra = tmp_path / "extra.txt"
    extra.write_text(
        "1. He who does not show his cut loses the deal.\n2. A card played out of turn may be taken up.\n",
        encoding="utf-8",
    )
    from pipeline.corpus import add_witness

    add_witness(corpus, extra, id="en-extra", game="ecarte", lang="en", kind="ocr", title="extra")
    second = build(BuildOptions(corpus_dir=corpus, out_dir=out, cache_dir=cache, site=False))
    assert second.processed == ("en-extra",)
    links = pd.read_csv(out / "alignments.csv")
    assert (links["witness_b"] == "en-extra").sum() >= 2
    # "no counterpart" in pivot mode too: the pivot laws the two-law witness does not state are reported
    unaligned = pd.read_csv(out / "unaligned.csv")
    assert ((unaligned["other_witness"] == "en-extra") & unaligned["witness"].isin(pivot_ids)).sum() >= 6


def test_a_witness_aligns_the_same_whatever_the_worker_aligned_before():
    """Workers share one pivot model: a witness's links must not depend on the witnesses before it."""
    pivot_laws = {"en-a": tuple(law("en-a", i + 1, t, i) for i, t in enumerate(CODE))}
    pivot = make_pivot("ecarte", pivot_laws, ["en-a"], PivotConfig(pivot_witnesses=1))
    rng = random.Random(11)
    copies = []
    for wid in ("en-b", "en-c", "en-d"):
        order = list(range(len(CODE)))
        rng.shuffle(order)
        laws = [law(wid, k + 1, renoise(CODE[i], NOISE, rng), k) for k, i in enumerate(order)]
        # and provisions the pivot does not have: their words are new to the pivot's concept space
        laws.append(
            law(
                wid,
                11,
                "The player who revokes loses three points and the trick, and cannot score honours "
                "in that deal; a misdeal loses the deal.",
                10,
            )
        )
        copies.append(tuple(laws))
    from pipeline.align import load_resources

    import pipeline.pivot

    res = load_resources(CORPUS)
    pipeline.pivot._MODELS.clear()  # a fresh worker
    alone = align_to_pivot(copies[2], pivot, res)
    pipeline.pivot._MODELS.clear()  # another fresh worker, which aligns two other witnesses first
    for c in copies[:2]:
        align_to_pivot(c, pivot, res)
    (model,) = pipeline.pivot._MODELS.values()
    assert len(model.analyses) == len(CODE), "the worker's model keeps the laws of witnesses it aligned"
    after_others = align_to_pivot(copies[2], pivot, res)
    assert alone == after_others


def test_a_bench_size_measured_in_two_sittings_keeps_both_builds_and_their_speed_up():
    from measure.bench_build import merge

    def build_(workers, wall, commit):
        return {"workers": workers, "commit": commit, "wall_s": wall, "peak_mem_mib": 1000}

    size = {"witnesses": 1000, "ocr_mb": 101.9, "witness_bytes": 100_000}
    old = {
        "date": "d0",
        "machine": "m",
        "sizes": [
            {
                **size,
                "one_worker": None,
                "two_workers": build_(2, 100.0, "a"),
                "add_one": build_(2, 4.0, "a"),
                "add_one_fraction_of_full": 0.04,
                "speedup_2_over_1": None,
            },
            {
                **size,
                "witnesses": 10,
                "ocr_mb": 1.0,
                "one_worker": build_(1, 9.0, "a"),
                "two_workers": build_(2, 5.0, "a"),
                "add_one": build_(2, 1.0, "a"),
            },
        ],
    }
    new = {"date": "d1", "machine": "m", "sizes": [{**size, "one_worker": build_(1, 180.0, "b")}]}
    merged = merge(old, new)
    big = [s for s in merged["sizes"] if s["witnesses"] == 1000][0]
    assert big["two_workers"]["commit"] == "a" and big["one_worker"]["commit"] == "b"
    assert big["speedup_2_over_1"] == 1.8 and big["add_one_fraction_of_full"] == 0.04
    assert [s["witnesses"] for s in merged["sizes"]] == [10, 1000]  # the other size is kept
    # another corpus under the same size keeps nothing of the earlier one
    other = {"date": "d2", "machine": "m", "sizes": [{**size, "ocr_mb": 50.0, "one_worker": build_(1, 90.0, "c")}]}
    again = [s for s in merge(merged, other)["sizes"] if s["witnesses"] == 1000][0]
    assert again.get("two_workers") is None and again["speedup_2_over_1"] is None


def test_a_book_series_of_one_kind_keeps_the_other_kind_measured_earlier():
    from measure.bench_build import BOOK_MAX_WORKER_MIB, merge

    def row(kind, mb, wall, peak, commit, ratio=None):
        r = {"mb": mb, "ocr_mb": mb, "wall_s": wall, "cpu_s": wall, "worker_peak_mib": peak, "laws": 10}
        r.update({"commit": commit, **({"kind": kind} if kind else {}), **({"time_ratio": ratio} if ratio else {})})
        return r

    # an earlier run measured the numbered books (its rows say no kind) and a prose book that failed
    old_rows = [row(None, 0.5, 40.0, 700, "a"), row(None, 1.0, 80.0, 900, "a", 2.0)]
    old = {"sizes": [], "books": {"source": "whist/en", "sizes": old_rows, "failed": [{"kind": "prose", "mb": 0.5}]}}
    prose = [row("prose", 0.5, 30.0, 600, "b"), row("prose", 1.0, 90.0, BOOK_MAX_WORKER_MIB + 1, "b", 3.0)]
    new = {"sizes": [], "books": {"source": "whist/en", "sizes": prose, "failed": []}}
    books = merge(old, new)["books"]
    assert [(r.get("kind", "numbered"), r["mb"], r["commit"]) for r in books["sizes"]] == [
        ("numbered", 0.5, "a"),
        ("numbered", 1.0, "a"),
        ("prose", 0.5, "b"),
        ("prose", 1.0, "b"),
    ]
    assert books["failed"] == []  # the prose series measured now replaces the failure of the earlier one
    assert books["max_time_ratio"] == 3.0 and books["max_worker_peak_mib"] == BOOK_MAX_WORKER_MIB + 1
    assert books["within_bounds"] is False  # the bounds are those of every kind
    # a run without the book series keeps the series as it was
    assert merge(merge(old, new), {"sizes": []})["books"] == books
