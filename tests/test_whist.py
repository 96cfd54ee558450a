"""The Whist model of the Revised Code of 1900: the regular game, the score, and irregularities resolved by the
referee from the rule table, the state legal after every ruling."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import whist
from pipeline.__main__ import main as cli
from pipeline.play import play_games
from pipeline.whist import IllegalMove, Irregularity, State, apply, check_legal, deal, legal_plays, resolve
from rules_support import table


@pytest.fixture(scope="module")
def rule_table():
    return table()


@pytest.fixture(scope="module")
def ruler(rule_table):
    return whist.referee_for(rule_table)


def test_deal_gives_one_card_at_a_time_from_the_dealers_left_and_turns_the_last_for_trump():
    pack = whist.PACK
    s = deal(State(dealer=2), random.Random(0), pack=pack)
    assert s.hands[3][:2] == (pack[0], pack[4]) and s.hands[0][0] == pack[1]
    assert s.trump_card == pack[-1] and pack[-1] in s.hands[2]  # the trump card is the dealer's
    assert s.leader == 3 and s.to_move == 3 and not check_legal(s)


def test_one_must_follow_suit_and_a_card_not_allowed_is_refused():
    s = deal(State(dealer=3), random.Random(0), pack=whist.PACK)
    s = apply(s, next(c for c in s.hands[0] if c[1] == "S"))
    follow = legal_plays(s, 1)
    assert all(c[1] == "S" for c in follow)
    other = next(c for c in s.hands[1] if c[1] != "S")
    with pytest.raises(IllegalMove):
        apply(s, other)


def test_score_tricks_above_six_honours_and_the_revoke_first():
    s = State(dealer=0, phase="play", scores=(0, 0), scores_at_deal=(0, 0), tricks=(9, 4), honours_at_deal=(4, 0))
    end = whist._end_hand(s)  # nine tricks: three points; four honours: four more; the game is five
    assert end.scores == (7, 0) and end.phase == "done" and "treble" in end.log[-1]
    barred = whist._end_hand(replace(s, barred=(0,), revoke_penalties=((0, "deduct_three_points"),)))
    assert barred.scores == (4, 0) and barred.phase == "over"  # the revoking side scores at most four (law 86)
    at_four = whist._end_hand(replace(s, scores=(4, 0), scores_at_deal=(4, 0), tricks=(6, 7), honours_at_deal=(3, 1)))
    assert at_four.scores == (4, 1)  # at four when the deal began: no honours (law 49)


def test_an_established_revoke_costs_three_tricks_or_three_points_by_the_1900_code(ruler):
    rng = random.Random(5)
    s = deal(State(dealer=3), rng, pack=whist.PACK)
    s = apply(s, next(c for c in s.hands[0] if c[1] == "S"))
    got = whist.inject(s, "revoke", rng)
    while got is None or dict(got[1].facts)["established"] != "yes":
        got = whist.inject(s, "revoke", rng)
    after, decision = resolve(*got, ruler, rng)
    assert decision.ruling.options == ("take_three_tricks", "deduct_three_points", "add_three_points")
    assert {c.law_id for c in decision.citations} >= {"whist.en-004.law-75.i", "whist.en-004.law-77"}
    assert after.revoke_penalties and after.barred == (whist.side(got[1].offender),) and not check_legal(after)


def test_a_lead_out_of_turn_not_followed_is_taken_back_and_called(ruler):
    rng = random.Random(2)
    s = deal(State(dealer=3), rng, pack=whist.PACK)
    irr = Irregularity("lead_out_of_turn", (("followed", "none"),), 2, s.hands[2][0], before=s)
    bad = replace(whist.play_card(replace(s, leader=2), 2, s.hands[2][0]))
    after, decision = resolve(bad, irr, ruler, rng, choose=lambda st, who, opts, rg: "call_card")
    assert after.table == () and after.leader == 0 and (2, s.hands[2][0]) in after.exposed
    assert not check_legal(after) and decision.citations[0].law_id == "whist.en-004.law-64"
    assert legal_plays(replace(after, leader=2), 2) == (s.hands[2][0],)  # called as soon as it can be played


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_the_state_is_legal_after_every_ruling(ruler, seed):
    seen: list[str] = []

    def on_ruling(irr, decision, why):
        assert decision is not None, f"{irr.event}: {why}"
        assert decision.citations
        seen.append(irr.event)

    def on_state(s):
        assert check_legal(s) == [], s.log[-3:]

    final = whist.play_game(seed, ruler, irregularity_rate=0.2, on_state=on_state, on_ruling=on_ruling)
    assert final.winner is not None


def test_play_summary_resolves_every_kind_with_a_citation(rule_table):
    summary = play_games("whist", 20, 3, rule_table)
    assert summary.irregularities > 20 and summary.resolved == summary.irregularities
    assert len(summary.kinds) >= 8 and "revoke" in dict(summary.kinds)
    ecarte = play_games("ecarte", 20, 3, rule_table)
    assert len(ecarte.kinds) >= 6 and ecarte.resolved == ecarte.irregularities


def test_play_command_prints_the_json_summary(capsys):
    assert cli(["play", "whist", "--games", "3", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"games", "irregularities", "resolved", "kinds", "unresolved"} and out["games"] == 3
    assert cli(["play", "whist", "--games", "0"]) == 2
