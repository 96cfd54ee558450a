"""A playable model of Whist by the Revised Code of 1900, whose irregularities are resolved by the referee.

The regular game (the laws of the code in brackets): four players, two partnerships (players 0 and 2 against 1
and 3); a pack of 52, the ace high in play and low in cutting [4]; the four cut, the lowest deals [25]; the pack
is shuffled and cut by the dealer's right-hand adversary, leaving at least four cards in each packet [26]; the
dealer deals one card at a time in rotation from his left, the last card turned up for trump and his [37]; the
player on the dealer's left leads; each must follow suit if he can (a revoke otherwise [74]); the highest trump,
or the highest card of the suit led, wins the trick. The score [46-54]: a game is five points, each trick above
six scores one; honours (ace, king, queen and knave of trumps) score four to the side that held all four, two to
a side that held three, except to a side at four when the deal began; the revoke's penalty comes first, then
tricks, then honours [50]; the game's value is a treble, a double or a single as the losers scored nothing, one
or two, three or four [53]. The deal passes to the left [25].

Irregularities (``Irregularity``) are injected into a hand (``inject``); ``resolve`` asks the referee for the
ruling (``adjudicate`` on a rule table) and applies it: the outcome, or the option the party the ruling names
chooses, and its penalties. ``check_legal(state)`` states what a legal state is; every ruling leaves one.

State is a frozen dataclass and every transition a pure function; randomness comes from a seeded
``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import PipelineError

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")  # high to low in play
PACK = tuple(r + s for s in SUITS for r in RANKS)
PLAYERS = 4
HAND_SIZE = 13
HONOURS = ("A", "K", "Q", "J")

Ruler = Callable[[str, Mapping[str, str]], Any]  # (event, facts) -> Decision (pipeline.referee.Decision)


@dataclass(frozen=True)
class WhistRules:
    """The figures of the score and the deal, as the Revised Code of 1900 states them (law numbers)."""

    game_points: int = 5  # law 47: a game consists of five points
    book: int = 6  # law 47: each trick above six counts one
    four_honours: int = 4  # law 48: the four honours score four
    three_honours: int = 2  # law 48: any three honours score two
    no_honours_at: int = 4  # law 49: players at four when the deal begins cannot score honours
    revoke_tricks: int = 3  # law 75: three tricks taken, three points deducted or added
    revoke_cap: int = 4  # law 86: the revoking side cannot win the game by that hand; it scores at most four
    min_packet: int = 4  # law 26: the cut leaves at least four cards in each packet


RULES = WhistRules()


class IllegalMove(PipelineError):
    """An action that the rules of the game do not allow in this state."""


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def side(player: int) -> int:
    return player % 2


def left(player: int) -> int:
    return (player + 1) % PLAYERS


@dataclass(frozen=True)
class State:
    scores: tuple[int, int] = (0, 0)  # points of the two sides (0: players 0 and 2; 1: players 1 and 3)
    dealer: int = 0
    phase: str = "over"  # "play" during a hand, "over" between hands, "done" when the game is won
    hands: tuple[tuple[str, ...], ...] = ((), (), (), ())
    trump_card: str | None = None
    table: tuple[tuple[int, str], ...] = ()  # the current trick: (player, card) in the order played
    quitted: tuple[str, ...] = ()  # the cards of the tricks turned and quitted
    leader: int = 1
    tricks: tuple[int, int] = (0, 0)  # tricks won by each side this hand
    honours_at_deal: tuple[int, int] = (0, 0)  # honours of trumps each side held when the hand was dealt
    scores_at_deal: tuple[int, int] = (0, 0)
    exposed: tuple[tuple[int, str], ...] = ()  # exposed cards liable to be called: (owner, card)
    called_suit: tuple[int, str] | None = None  # (side, suit): the suit the adversaries call at that side's lead
    win_or_not: tuple[int, str] | None = None  # (player, "win"|"lose"): how he must play to the current trick
    revoke_penalties: tuple[tuple[int, str], ...] = ()  # (revoking side, the penalty chosen), paid at the end
    barred: tuple[int, ...] = ()  # sides that cannot win the game by this hand (law 86)
    log: tuple[str, ...] = ()

    @property
    def trump(self) -> str | None:
        return suit(self.trump_card) if self.trump_card else None

    @property
    def winner(self) -> int | None:
        return next((x for x in (0, 1) if self.scores[x] >= RULES.game_points), None)

    @property
    def to_move(self) -> int:
        """The next player in rotation from the leader who has not played to the trick."""
        played = {p for p, _ in self.table}
        return next((self.leader + i) % PLAYERS for i in range(PLAYERS) if (self.leader + i) % PLAYERS not in played)

    @property
    def tricks_played(self) -> int:
        return sum(self.tricks)


# ---------------------------------------------------------------- the regular game


def new_game(rng: random.Random) -> State:
    """The four cut for the deal: the lowest deals (the ace low in cutting, law 4; equal cards cut again)."""
    while True:
        cut = rng.sample(PACK, PLAYERS)
        low = [(_cut_value(c), p) for p, c in enumerate(cut)]
        lowest = min(v for v, _ in low)
        if sum(v == lowest for v, _ in low) == 1:
            dealer = next(p for v, p in low if v == lowest)
            return State(dealer=dealer, log=(f"cut for deal {cut}: player {dealer} deals",))


def _cut_value(card: str) -> int:
    return 0 if card[0] == "A" else len(RANKS) - rank(card)


def shuffled_and_cut(rng: random.Random) -> tuple[str, ...]:
    """A shuffled pack cut by the dealer's right-hand adversary, at least four cards in each packet (law 26)."""
    pack = tuple(rng.sample(PACK, len(PACK)))
    at = rng.randint(RULES.min_packet, len(PACK) - RULES.min_packet)
    return pack[at:] + pack[:at]


def deal(s: State, rng: random.Random, pack: tuple[str, ...] | None = None) -> State:
    """Deal one card at a time in rotation from the dealer's left; the last card, the dealer's, is the trump."""
    pack = pack or shuffled_and_cut(rng)
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for i, card in enumerate(pack):
        hands[(s.dealer + 1 + i) % PLAYERS].append(card)
    trump_card = pack[-1]
    held = [0, 0]
    for p in range(PLAYERS):
        held[side(p)] += sum(1 for c in hands[p] if suit(c) == suit(trump_card) and c[0] in HONOURS)
    return replace(
        s,
        phase="play",
        hands=tuple(tuple(h) for h in hands),
        trump_card=trump_card,
        table=(),
        quitted=(),
        leader=left(s.dealer),
        tricks=(0, 0),
        honours_at_deal=(held[0], held[1]),
        scores_at_deal=s.scores,
        exposed=(),
        called_suit=None,
        win_or_not=None,
        revoke_penalties=(),
        barred=(),
        log=s.log + (f"player {s.dealer} deals; trump card {trump_card}",),
    )


def _follow(s: State, player: int) -> tuple[str, ...]:
    """The cards ``player`` may play by the rule of following suit."""
    hand = s.hands[player]
    if not s.table:
        return hand
    led = suit(s.table[0][1])
    same = tuple(c for c in hand if suit(c) == led)
    return same or hand


def legal_plays(s: State, player: int) -> tuple[str, ...]:
    """Follow suit if able; a called suit at the lead, a called exposed card, and a demand to win or not to win
    the trick are obeyed when the player can obey them without revoking (law 67)."""
    plays = _follow(s, player)
    if not s.table and s.called_suit and s.called_suit[0] == side(player):
        called = tuple(c for c in plays if suit(c) == s.called_suit[1])
        plays = called or plays  # none of the suit: the penalty is paid (law 69)
    exposed = tuple(c for p, c in s.exposed if p == player and c in plays)
    if exposed:
        plays = exposed[:1]  # the adversaries call the exposed card as soon as it can be played
    if s.win_or_not and s.win_or_not[0] == player and s.table:
        wanted = tuple(c for c in plays if _wins(s, c) == (s.win_or_not[1] == "win"))
        plays = wanted or plays
    return plays


def _wins(s: State, card: str) -> bool:
    best = _best(s.table, s.trump)
    return _beats(card, best[1], suit(s.table[0][1]), s.trump)


def _beats(a: str, b: str, led: str, trump: str | None) -> bool:
    if suit(a) == suit(b):
        return rank(a) < rank(b)
    if suit(a) == trump:
        return True
    return False if suit(b) == trump else suit(a) == led and suit(b) != led


def _best(table: tuple[tuple[int, str], ...], trump: str | None) -> tuple[int, str]:
    best = table[0]
    for p, c in table[1:]:
        if _beats(c, best[1], suit(table[0][1]), trump):
            best = (p, c)
    return best


def play_card(s: State, player: int, card: str) -> State:
    """``player`` plays ``card`` to the trick (no check: ``apply`` checks; irregularities use this directly)."""
    if card not in s.hands[player]:
        raise IllegalMove(f"player {player} does not hold {card}")
    hands = list(s.hands)
    hands[player] = tuple(c for c in hands[player] if c != card)
    called = None if (not s.table and s.called_suit and s.called_suit[0] == side(player)) else s.called_suit
    s = replace(
        s,
        hands=tuple(hands),
        table=s.table + ((player, card),),
        exposed=tuple(x for x in s.exposed if x != (player, card)),
        called_suit=called,
        win_or_not=None if s.win_or_not and s.win_or_not[0] == player else s.win_or_not,
    )
    return _quit_trick(s) if len(s.table) == PLAYERS else s


def _quit_trick(s: State) -> State:
    w, _ = _best(s.table, s.trump)
    tricks = list(s.tricks)
    tricks[side(w)] += 1
    s = replace(s, table=(), quitted=s.quitted + tuple(c for _, c in s.table), tricks=(tricks[0], tricks[1]), leader=w)
    return _end_hand(s) if all(not h for h in s.hands) else s


def apply(s: State, card: str) -> State:
    """The regular move: the player to move plays ``card``; raises ``IllegalMove`` if the rules forbid it."""
    if s.phase != "play":
        raise IllegalMove(f"no card is played in phase {s.phase}")
    p = s.to_move
    if card not in legal_plays(s, p):
        raise IllegalMove(f"player {p} may not play {card} (legal: {', '.join(legal_plays(s, p))})")
    return play_card(s, p, card)


def _add(scores: tuple[int, int], x: int, n: int) -> tuple[int, int]:
    out = list(scores)
    out[x] = max(0, out[x] + n)  # a deduction stops at nothing
    return (out[0], out[1])


def _end_hand(s: State) -> State:
    """The score of the hand: the revoke's penalty first, then tricks, then honours (law 50)."""
    scores, tricks, log = s.scores, list(s.tricks), list(s.log)
    for rs, penalty in s.revoke_penalties:
        other = 1 - rs
        if penalty == "take_three_tricks":
            moved = min(RULES.revoke_tricks, tricks[rs])
            tricks[rs] -= moved
            tricks[other] += moved
        elif penalty == "deduct_three_points":
            scores = _add(scores, rs, -RULES.revoke_tricks)
        else:
            scores = _add(scores, other, RULES.revoke_tricks)
        log.append(f"revoke penalty against side {rs}: {penalty}")
    for x in (0, 1):
        if tricks[x] > RULES.book:
            scores = _add(scores, x, tricks[x] - RULES.book)
    for x in (0, 1):
        held = s.honours_at_deal[x]
        if s.scores_at_deal[x] < RULES.no_honours_at and held >= 3:
            scores = _add(scores, x, RULES.four_honours if held == 4 else RULES.three_honours)
    for x in s.barred:  # the revoking side cannot win the game by this hand
        if scores[x] >= RULES.game_points:
            scores = (RULES.revoke_cap, scores[1]) if x == 0 else (scores[0], RULES.revoke_cap)
    log.append(f"hand over: tricks {tricks}, score {scores}")
    done = next((x for x in (0, 1) if scores[x] >= RULES.game_points), None)
    if done is not None:
        loser = scores[1 - done]
        value = 3 if loser == 0 else 2 if loser <= 2 else 1  # law 53: treble, double, single
        log.append(f"side {done} wins the game ({('single', 'double', 'treble')[value - 1]})")
    return replace(
        s,
        scores=scores,
        tricks=(tricks[0], tricks[1]),
        phase="done" if done is not None else "over",
        dealer=left(s.dealer),
        revoke_penalties=(),
        log=tuple(log),
    )


# ---------------------------------------------------------------- legality


def check_legal(s: State) -> list[str]:
    """What is wrong with a state (empty: legal): every card of the pack in exactly one place during a hand;
    each player holds thirteen cards less the tricks quitted less his card on the table; exposed cards are in
    their owners' hands; a called suit and a demand name a side and a player; scores are not negative."""
    errs = []
    if s.phase not in ("play", "over", "done"):
        errs.append(f"unknown phase {s.phase}")
    if s.phase == "play":
        places = [c for h in s.hands for c in h] + [c for _, c in s.table] + list(s.quitted)
        if len(places) != len(PACK) or set(places) != set(PACK):
            errs.append(f"cards: {len(places)} placed, {len(set(places))} distinct; expected the pack once each")
        if len(s.quitted) != PLAYERS * s.tricks_played:
            errs.append(f"{len(s.quitted)} cards quitted for {s.tricks_played} tricks")
        on_table = {p for p, _ in s.table}
        if len(on_table) != len(s.table):
            errs.append("a player has two cards on the table")
        for p in range(PLAYERS):
            expect = HAND_SIZE - len(s.quitted) // PLAYERS - (1 if p in on_table else 0)
            if len(s.hands[p]) != expect:
                errs.append(f"player {p} holds {len(s.hands[p])} cards, expected {expect}")
        for p, c in s.exposed:
            if c not in s.hands[p]:
                errs.append(f"exposed card {c} is not in player {p}'s hand")
        if s.trump_card is None:
            errs.append("no trump card in a hand being played")
    if any(x < 0 for x in s.scores):
        errs.append(f"scores {s.scores}")
    if s.called_suit and (s.called_suit[0] not in (0, 1) or s.called_suit[1] not in SUITS):
        errs.append(f"called suit {s.called_suit}")
    return errs


# ---------------------------------------------------------------- irregularities, resolved by the referee


@dataclass(frozen=True)
class Irregularity:
    event: str
    facts: tuple[tuple[str, str], ...] = ()
    offender: int | None = None  # the player at fault, where the event has one
    card: str | None = None  # the card the irregularity concerns, where it has one
    before: State | None = None  # the state just before the irregularity (a deal to do again starts from it)


def referee_for(table) -> Ruler:
    """A ruler for the game from a rule table (``RuleTable``, DataFrame, or a path to rules.json)."""
    from .referee import ruler_for

    return ruler_for(table, "whist")


def _chooser(s: State, name: str | None, irr: Irregularity) -> int:
    """The player who chooses for the party a ruling names (a side chooses through one of its players)."""
    if name == "dealer":
        return s.dealer
    if name == "adversaries":
        return left(irr.offender if irr.offender is not None else s.dealer)
    raise IllegalMove(f"ruling names chooser {name!r}, which this game cannot place")


def resolve(
    s: State, irr: Irregularity, ruler: Ruler, rng: random.Random, choose: Callable | None = None
) -> tuple[State, Any]:
    """Ask the referee about ``irr`` and apply the ruling to the state in which it was discovered.
    Returns ``(new state, decision)``."""
    decision = ruler(irr.event, dict(irr.facts))
    r = decision.ruling
    outcome = r.outcome
    if r.options:
        who = _chooser(s, r.chooser, irr)
        outcome = (choose or (lambda st, w, opts, rg: rg.choice(opts)))(s, who, list(r.options), rng)
    cites = ", ".join(c.law_id for c in decision.citations)
    s = replace(s, log=s.log + (f"{irr.event} {dict(irr.facts)} -> {outcome or '-'} {list(r.penalties)} ({cites})",))
    s = _apply_outcome(s, irr, outcome, rng)
    for pen in r.penalties:
        s = _apply_penalty(s, irr, pen, rng)
    return s, decision


def _redeal(s: State, dealer: int, rng: random.Random) -> State:
    """The cards are thrown in and ``dealer`` deals again (the score is untouched: no hand was scored)."""
    return deal(replace(s, dealer=dealer, phase="over"), rng)


def _apply_outcome(s: State, irr: Irregularity, outcome: str | None, rng: random.Random) -> State:
    o = irr.offender
    proper = (irr.before or s).dealer  # the dealer whose deal it was (not one who dealt out of turn)
    if outcome in ("new_deal", "fresh_cut"):  # by the same dealer; after a deal out of turn, by the right one
        return _redeal(s, proper, rng)
    if outcome == "lose_deal":  # the deal passes to the player on the dealer's left
        return _redeal(s, left(proper), rng)
    if outcome in (None, "deal_stands", "card_stands", "claim_barred", "rectify"):
        return _settle(s, irr, outcome, rng)
    if outcome == "call_card":
        s = _take_back(s, irr) if irr.card and any(c == irr.card for _, c in s.table) else s
        if o is None or irr.card is None or irr.card not in s.hands[o]:
            raise IllegalMove(f"{irr.event}: no card to call")
        return replace(s, exposed=s.exposed + ((o, irr.card),))
    if outcome == "call_suit":
        s = _take_back(s, irr)
        assert o is not None
        return replace(s, called_suit=(side(o), rng.choice(SUITS)))
    if outcome == "call_highest_or_lowest":  # the revoke saved: he plays his highest or lowest of the suit led
        s = _take_back(s, irr)
        assert o is not None
        led = suit(s.table[0][1])
        same = sorted((c for c in s.hands[o] if suit(c) == led), key=rank)
        return play_card(s, o, same[0] if rng.random() < 0.5 else same[-1])
    if outcome == "take_back_card":
        return s
    if outcome in ("take_three_tricks", "deduct_three_points", "add_three_points"):
        assert o is not None
        return replace(s, revoke_penalties=s.revoke_penalties + ((side(o), outcome),))
    raise IllegalMove(f"the game cannot apply outcome {outcome!r}")


def _apply_penalty(s: State, irr: Irregularity, pen: str, rng: random.Random) -> State:
    o = irr.offender
    assert o is not None  # every penalty of the vocabulary falls on an offender
    if pen == "cannot_win_game":
        return replace(s, barred=tuple(sorted(set(s.barred) | {side(o)})))
    if pen == "exposed_card":
        return replace(s, exposed=s.exposed + ((o, irr.card),)) if irr.card in s.hands[o] else s
    if pen == "partner_must_win_or_not":
        partner = (o + 2) % PLAYERS
        if any(p == partner for p, _ in s.table) or s.phase != "play":
            return s
        return replace(s, win_or_not=(partner, rng.choice(["win", "lose"])))
    raise IllegalMove(f"the game cannot apply penalty {pen!r}")


def _take_back(s: State, irr: Irregularity) -> State:
    """The offender's card goes back into his hand, with any card played after it to the trick."""
    o = irr.offender
    idx = next((i for i, (p, c) in enumerate(s.table) if p == o and c == irr.card), None)
    if idx is None:
        return s
    hands = [list(h) for h in s.hands]
    for p, c in s.table[idx:]:
        hands[p].append(c)
    table = s.table[:idx]
    leader = s.leader if table else (irr.before.leader if irr.before else s.leader)
    return replace(s, hands=tuple(tuple(h) for h in hands), table=table, leader=leader)


def _settle(s: State, irr: Irregularity, outcome: str | None, rng: random.Random) -> State:
    """After a ruling that lets play go on."""
    if irr.event == "fails_to_play_to_trick":  # the surplus card counts as played to the imperfect trick
        o = irr.offender
        assert o is not None
        card = s.hands[o][-1]
        hands = list(s.hands)
        hands[o] = tuple(c for c in hands[o] if c != card)
        s = replace(
            s, hands=tuple(hands), quitted=s.quitted + (card,), exposed=tuple(x for x in s.exposed if x[1] != card)
        )
        return _end_hand(s) if all(not h for h in s.hands) and not s.table else s
    if irr.event == "two_cards_to_trick" and outcome == "rectify" and irr.card:  # the card too many goes back
        o = irr.offender
        assert o is not None
        hands = list(s.hands)
        hands[o] = hands[o] + (irr.card,)
        return replace(s, hands=tuple(hands), table=tuple(x for x in s.table if x != (o, irr.card)))
    return s  # (a deal out of turn that stands: the game proceeds as if no mistake had been made)


def _random_play(s: State, rng: random.Random) -> State:
    return play_card(s, s.to_move, rng.choice(legal_plays(s, s.to_move)))


def _deal_event(s: State, event: str, rng: random.Random) -> tuple[State, Irregularity] | None:
    """Irregularities of the cut and the deal: ``s`` is between hands."""
    dealt = deal(s, rng)
    d = s.dealer
    if event in ("misdeal", "card_exposed_in_dealing"):
        by = rng.choice(["dealer", "adversaries"])
        return dealt, Irregularity(event, (("caused_by", by),), d if by == "dealer" else left(d), before=s)
    if event == "faced_card_in_pack":
        return dealt, Irregularity(event, (("card", "other"),), d, before=s)
    if event in ("deal_out_of_turn", "pack_not_cut", "dealt_with_wrong_pack"):
        wrong = (d + rng.choice([1, 2, 3])) % PLAYERS if event == "deal_out_of_turn" else d
        when = rng.choice(["before_trump", "after_trump"])
        return deal(replace(s, dealer=wrong), rng), Irregularity(event, (("discovered", when),), wrong, before=s)
    if event == "wrong_card_count":  # one hand with fourteen, another with twelve
        a, b = rng.sample(range(PLAYERS), 2)
        hands = [list(h) for h in dealt.hands]
        hands[a].append(hands[b].pop())
        bad = replace(dealt, hands=tuple(tuple(h) for h in hands))
        return bad, Irregularity(event, (("error", "one_too_many_one_too_few"),), d, before=s)
    if event == "incorrect_pack":
        return dealt, Irregularity(event, (("discovered", "during_deal"),), d, before=s)
    if event in ("looks_at_trump_in_dealing", "shuffle_after_cut", "card_exposed_in_cutting"):
        offender = (d + 3) % PLAYERS if event == "card_exposed_in_cutting" else d  # the cut is the right adversary's
        return dealt, Irregularity(event, (), offender, before=s)
    return None


def _play_event(s: State, event: str, rng: random.Random) -> tuple[State, Irregularity] | None:
    """Irregularities of the play: ``s`` is a hand being played."""
    p = s.to_move
    early = s.tricks_played <= HAND_SIZE - 2  # a trick still to come after this one
    if event == "lead_out_of_turn" and not s.table and early:
        wrong = (s.leader + rng.choice([1, 2, 3])) % PLAYERS
        card = rng.choice(s.hands[wrong])
        out = play_card(replace(s, leader=wrong), wrong, card)
        followed = rng.choice(["none", "some", "all"])
        for _ in range({"none": 0, "some": rng.choice([1, 2]), "all": 3}[followed]):
            out = _random_play(out, rng)
        return out, Irregularity(event, (("followed", followed),), wrong, card, before=s)
    if event == "played_out_of_order" and len(s.table) == 1:
        hand = rng.choice(["third", "fourth"])
        who = (s.leader + (2 if hand == "third" else 3)) % PLAYERS
        card = rng.choice(_follow(s, who))
        return play_card(s, who, card), Irregularity(event, (("hand", hand),), who, card, before=s)
    if event == "revoke" and s.table and early:
        led = suit(s.table[0][1])
        off = [c for c in s.hands[p] if suit(c) != led]
        if not off or len(off) == len(s.hands[p]):
            return None
        card = rng.choice(off)
        out = play_card(s, p, card)
        # (the fourth hand's card completes the trick, which is then turned and quitted: the revoke is established)
        established = "yes" if len(s.table) == PLAYERS - 1 else rng.choice(["yes", "no"])
        if established == "yes":  # the trick is turned and quitted before the revoke is claimed
            while out.table:
                out = _random_play(out, rng)
        return out, Irregularity(event, (("established", established),), p, card, before=s)
    if event in ("exposed_card", "card_dropped"):
        owner = rng.randrange(PLAYERS)
        if not s.hands[owner]:
            return None
        card = rng.choice(s.hands[owner])
        if event == "exposed_card":
            facts: tuple[tuple[str, str], ...] = (("how", rng.choice(["dropped_face_up", "named", "thrown_down"])),)
        else:
            facts = (("where", rng.choice(["on_table", "below_table"])),)
        return s, Irregularity(event, facts, owner, card, before=s)
    if event == "two_cards_to_trick" and len(s.table) <= 2 and len(s.hands[p]) >= 2:
        first = rng.choice(_follow(s, p))
        extra = rng.choice([c for c in s.hands[p] if c != first])
        out = play_card(s, p, first)
        hands = list(out.hands)
        hands[p] = tuple(c for c in hands[p] if c != extra)
        out = replace(out, hands=tuple(hands), table=out.table + ((p, extra),))
        return out, Irregularity(event, (("discovered", "during_play"),), p, extra, before=s)
    if event == "fails_to_play_to_trick" and not s.table and early:
        skipped = rng.choice([x for x in range(PLAYERS) if x != s.leader])
        held = [list(h) for h in s.hands]
        table: list[tuple[int, str]] = []
        for i in range(PLAYERS):
            q = (s.leader + i) % PLAYERS
            if q == skipped:  # he omits to play: the trick is played by the other three and quitted
                continue
            same = [c for c in held[q] if table and suit(c) == suit(table[0][1])]
            card = rng.choice(same or held[q])
            held[q].remove(card)
            table.append((q, card))
        w, _ = _best(tuple(table), s.trump)
        tricks = list(s.tricks)
        tricks[side(w)] += 1
        out = replace(
            s,
            hands=tuple(tuple(h) for h in held),
            quitted=s.quitted + tuple(c for _, c in table),
            tricks=(tricks[0], tricks[1]),
            leader=w,
            exposed=tuple(x for x in s.exposed if x[1] in held[x[0]]),
        )
        return out, Irregularity(event, (), skipped, before=s)
    return None


def inject(s: State, event: str, rng: random.Random) -> tuple[State, Irregularity] | None:
    """Produce irregularity ``event`` in state ``s`` (with random facts) and return the state as it stands when
    the irregularity is discovered, or None if it cannot happen here."""
    if s.phase == "over":
        return _deal_event(s, event, rng)
    if s.phase == "play":
        return _play_event(s, event, rng)
    return None


DEAL_EVENTS = (
    "misdeal",
    "card_exposed_in_dealing",
    "faced_card_in_pack",
    "deal_out_of_turn",
    "pack_not_cut",
    "dealt_with_wrong_pack",
    "wrong_card_count",
    "incorrect_pack",
    "looks_at_trump_in_dealing",
    "shuffle_after_cut",
    "card_exposed_in_cutting",
)
PLAY_EVENTS = (
    "lead_out_of_turn",
    "played_out_of_order",
    "revoke",
    "exposed_card",
    "card_dropped",
    "two_cards_to_trick",
    "fails_to_play_to_trick",
)
INJECTABLE = DEAL_EVENTS + PLAY_EVENTS

Observer = Callable[[Irregularity, Any, str], None]  # (irregularity, decision or None, why unresolved or "")


def play_game(
    seed: int,
    ruler: Ruler,
    irregularity_rate: float = 0.05,
    max_steps: int = 5000,
    deal_rate: float = 0.4,
    on_state: Callable[[State], None] | None = None,
    on_ruling: Observer | None = None,
) -> State:
    """Play a game to five points with random legal cards; with probability ``irregularity_rate`` per step an
    irregularity is injected and resolved by the referee (between hands, with probability ``deal_rate``, one of
    the cut and the deal). One the referee cannot rule on is reported to
    ``on_ruling`` with its reason and undone (play resumes from the state before it)."""
    from .referee import resolve_reported

    rng = random.Random(seed)
    s = new_game(rng)
    for _ in range(max_steps):
        if on_state:
            on_state(s)
        if s.phase == "done":
            return s
        if rng.random() < (deal_rate if s.phase == "over" else irregularity_rate):
            pool = DEAL_EVENTS if s.phase == "over" else PLAY_EVENTS
            got = inject(s, rng.choice(pool), rng)
            if got is not None:
                # an irregular state: only the ruling makes it legal again (unruled, it is undone)
                s = resolve_reported(resolve, *got, ruler, rng, on_ruling) or s
                continue
        s = deal(s, rng) if s.phase == "over" else _random_play(s, rng)
    raise IllegalMove(f"game with seed {seed} did not finish in {max_steps} steps")
