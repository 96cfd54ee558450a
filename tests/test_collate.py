"""Word-level collation (pipeline/export/collate.py) and its TEI parallel segmentation."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from pipeline.export.collate import collate, tokens
from pipeline.export.tei.xml import TEI_NS


ROOT = Path(__file__).resolve().parent.parent
NS = {"t": TEI_NS}


def _lcs(a, b) -> int:
    """Length of a longest common subsequence: what a plain token diff keeps (dynamic programming)."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def _check(a_text: str, b_text: str) -> None:
    a, b = tokens(a_text), tokens(b_text)
    segs = collate(a_text, b_text)
    # the collation gives back both texts, token for token
    assert tuple(t for s in segs for t in s.a) == a and tuple(t for s in segs for t in s.b) == b
    agreed = sum(len(s.a) for s in segs if not s.variant)
    # every difference a token diff has (the tokens outside a longest common subsequence), none it lacks
    assert agreed == _lcs(a, b)
    assert all(s.a == s.b for s in segs if not s.variant)
    assert all(s.a or s.b for s in segs)


@pytest.mark.parametrize(
    "a,b",
    [
        ("the deal is good", "the deal is good"),
        ("he must take the lowest", "he must take the highest card"),
        ("p>ack during the first deal", "pack during the first deal"),
        ("", "Consult me"),
        ("a b c a b c", "c b a"),
    ],
)
def test_collation_is_a_token_diff(a, b):
    _check(a, b)


@pytest.fixture(scope="module")
def built(fresh_build):
    out, _ = fresh_build
    return out


def test_en003_against_en003m_shows_every_difference_and_none_other(built):
    doc = etree.parse(str(built / "tei" / "collation-ecarte.xml"))
    divs = {d.get("corresp"): d for d in doc.iter(f"{{{TEI_NS}}}div") if d.get("type") == "collation"}
    pairs = [c for c in divs if c.startswith("en-003.xml#") and " en-003m.xml#" in c]
    assert len(pairs) >= 10
    n_variants = 0
    for corresp in pairs:
        ab = divs[corresp].find("t:ab", NS)
        rdgs = [list(app) for app in ab.iter(f"{{{TEI_NS}}}app")]
        n_variants += len(rdgs)
        a_text = "".join(_side(ab, 0))
        b_text = "".join(_side(ab, 1))
        _check(a_text, b_text)
        for r in rdgs:  # each app: the base witness's lem, the other's rdg, and they differ
            assert [etree.QName(x).localname for x in r] == ["lem", "rdg"]
            assert [x.get("wit") for x in r] == ["#col.ecarte.en-003", "#col.ecarte.en-003m"]
            assert tokens(r[0].text or "") != tokens(r[1].text or "")
    assert n_variants >= 3  # the OCR's p>ack, ^ny, be against the modernized pack, any, he


def _side(ab, k: int):
    yield ab.text or ""
    for app in ab:
        yield " " + (list(app)[k].text or "") + " "
        yield app.tail or ""
