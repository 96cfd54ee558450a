"""The Écarté model: the regular game, and irregularities resolved by the referee from the rule table."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import ecarte
from pipeline.ecarte import IllegalMove, Irregularity, State, apply, check_legal, deal, legal_plays, new_game, resolve
from rules_support import table


@pytest.fixture(scope="module")
def ruler():
    return ecarte.referee_for(table())


PACK = tuple(ecarte.PACK)


def ordered(*cards):
    rest = [c for c in PACK if c not in cards]
    return tuple(cards) + tuple(rest)


def test_deal_gives_to_the_non_dealer_first_by_2_3_and_turns_up_the_eleventh_card():
    pack = ordered("7S", "8S", "9S", "TS", "AS", "JS", "QS", "7H", "8H", "9H", "7D")
    s = deal(new_game(dealer=0), random.Random(1), (2, 3), pack=pack)
    assert s.hands[1] == ("7S", "8S", "AS", "JS", "QS")  # non-dealer: 2 then 3
    assert s.hands[0] == ("9S", "TS", "7H", "8H", "9H")
    assert s.turnup == "7D" and len(s.stock) == 21 and s.to_move == 1 and not check_legal(s)
    s32 = deal(new_game(dealer=0), random.Random(1), (3, 2), pack=pack)
    assert s32.hands[1] == ("7S", "8S", "9S", "QS", "7H") and s32.hands[0] == ("TS", "AS", "JS", "8H", "9H")


def test_a_king_turned_up_scores_one_for_the_dealer():
    pack = ordered("7S", "8S", "9S", "TS", "AS", "JS", "QS", "7H", "8H", "9H", "KD")
    s = deal(new_game(dealer=1), random.Random(1), pack=pack)
    assert s.scores == (0, 1)


def test_follow_suit_and_win_the_trick_if_able_else_trump():
    s = replace(
        new_game(), phase="play", turnup="7C", hands=(("QH", "8H", "KC"), ("9D",)), table=((1, "JH"),), to_move=0
    )
    assert set(legal_plays(s, 0)) == {"QH"}  # must overtake
    s2 = replace(s, hands=(("8H", "7H", "KC"), ("9D",)))
    assert set(legal_plays(s2, 0)) == {"8H", "7H"}  # must follow though he cannot win
    s3 = replace(s, hands=(("KC", "8C", "9S"), ("9D",)))
    assert set(legal_plays(s3, 0)) == {"KC", "8C"}  # void: must trump


def test_the_king_counts_only_if_announced_before_the_first_card():
    pack = ordered("KS", "8S", "9S", "TS", "AS", "JS", "QS", "7H", "8H", "9H", "7S")
    s = deal(new_game(dealer=0), random.Random(1), pack=pack)  # non-dealer holds the king of trumps (spades)
    s = apply(s, ("play",))
    assert ("announce_king",) in ecarte.legal_actions(s)
    after = apply(s, ("play_card", s.hands[1][1]))
    while after.to_move != 1 and after.phase == "play":
        after = apply(after, ecarte.legal_actions(after)[0])
    assert ("announce_king",) not in ecarte.legal_actions(after)
    assert apply(s, ("announce_king",)).scores == (0, 1)


def _finish(s: State, player_wins: int) -> State:
    return ecarte._end_hand(replace(s, tricks=(player_wins, 5 - player_wins)))


def test_the_point_the_vole_and_the_penalty_for_playing_without_proposing():
    base = replace(new_game(dealer=1), phase="play", turnup="7C")
    assert _finish(base, 3).scores == (1, 0)
    assert _finish(base, 5).scores == (2, 0)  # the vole
    # player 0 (non-dealer) played without proposing and lost: dealer scores 2, not more even with the vole
    assert _finish(replace(base, refused_by=0), 2).scores == (0, 2)
    assert _finish(replace(base, refused_by=0), 0).scores == (0, 2)
    # the dealer (1) refused and lost: the non-dealer scores 2
    assert _finish(replace(base, refused_by=1), 3).scores == (2, 0)


def test_illegal_actions_are_refused():
    s = deal(new_game(), random.Random(3))
    with pytest.raises(IllegalMove):
        apply(s, ("accept",))


def test_deal_out_of_turn_found_after_the_turn_up_reserves_the_cards_for_the_next_deal(ruler):
    rng = random.Random(5)
    wrong = deal(new_game(dealer=1), rng)  # player 1 deals though it was player 0's turn
    s, decision = resolve(wrong, Irregularity("deal_out_of_turn", (("discovered", "after_trump"),), 1), ruler, rng)
    assert decision.ruling.outcome == "cards_reserved_for_next_deal"
    assert {c.law_id for c in decision.citations} == {
        "ecarte.fr-000.law-6",
        "ecarte.en-003.law-9",
        "ecarte.en-003m.law-9",
    }
    assert s.dealer == 0 and s.reserved is not None and not check_legal(s)
    nxt = deal(replace(s, phase="over", dealer=1), rng)  # the next hand is the reserved one
    assert sorted(nxt.hands[0] + nxt.hands[1]) == sorted(wrong.hands[0] + wrong.hands[1])


def test_the_game_applies_whatever_the_table_says(ruler):
    """The same irregularity is resolved differently when the rule table says otherwise."""
    rng = random.Random(2)
    s = deal(new_game(dealer=0), rng)
    irr = Irregularity("several_cards_turned_for_trump", (), 0)
    for source, expected in (("fr-000", {"rectify", "new_deal"}), ("en-003", {"rectify", "new_deal"})):
        from pipeline.referee import adjudicate

        by_source = lambda e, f, src=source: adjudicate(table(), "ecarte", e, f, src)  # noqa: E731
        seen = set()
        for _ in range(4):
            _, d = resolve(s, irr, by_source, rng, choose=lambda st, who, opts, r: (seen.update(opts), opts[-1])[1])
            assert who_is_chooser(d) == "non_dealer"
        assert seen == expected


def who_is_chooser(decision):
    return decision.ruling.chooser


def test_penalties_are_applied_lose_point_and_king_not_scored(ruler):
    rng = random.Random(11)
    s = deal(new_game(dealer=0), rng)
    s = apply(apply(s, ("propose",)), ("accept",))
    got = ecarte.inject(s, "discard_error", rng)
    assert got is not None
    bad, irr = got
    fixed, d = resolve(bad, irr, ruler, rng)
    assert d.ruling.penalties == ("lose_point", "king_not_scored")
    assert fixed.scores[s.dealer] == s.scores[s.dealer] + 1 and fixed.king_barred[s.non_dealer]
    assert len(fixed.hands[s.non_dealer]) == ecarte.HAND_SIZE or fixed.phase == "propose"
    assert not check_legal(fixed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rate=st.floats(0.0, 0.6))
def test_random_games_with_random_irregularities_never_reach_an_illegal_state(ruler, seed, rate):
    states = []
    final = ecarte.play_game(seed, ruler, rate, on_state=states.append)
    assert final.winner is not None and max(final.scores) >= ecarte.GAME_POINTS
    for s in states:
        assert not check_legal(s), (seed, check_legal(s), s.log[-3:])


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), event=st.sampled_from(ecarte.INJECTABLE), moves=st.integers(0, 12))
def test_every_ruling_applied_leaves_a_legal_state(ruler, seed, event, moves):
    rng = random.Random(seed)
    s = deal(new_game(dealer=rng.randrange(2)), rng)
    for _ in range(moves):
        if s.phase == "over":
            break
        s = apply(s, rng.choice(ecarte.legal_actions(s)))
    if s.phase == "over":
        return
    got = ecarte.inject(s, event, rng)
    if got is None:
        return
    after, decision = resolve(*got, ruler, rng)
    assert decision.citations, "every ruling rests on laws"
    assert not check_legal(after), (event, dict(got[1].facts), check_legal(after))
