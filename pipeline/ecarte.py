"""A playable model of Écarté whose irregularities are resolved by the referee (the rule table drives the game).

The regular game: a pack of 32 (K Q J A 10 9 8 7 in each suit, king high, ace between jack and ten); the dealer
deals five cards each by 2-3 or 3-2, to the non-dealer first; the eleventh card is turned up for trump (a king
turned up scores 1 for the dealer); the non-dealer proposes (asks to exchange cards) or plays; the dealer
accepts or refuses; on acceptance both discard and draw from the talon (non-dealer first), and the non-dealer
may propose again; in play one must follow suit and win the trick if able, and trump if void; the king of
trumps scores 1 only if announced before its holder plays his first card. The point: 3 or 4 tricks score 1,
all five (the vole) 2; if the non-dealer played without proposing, or the dealer refused, and that side fails
to take 3 tricks, the other side scores 2 (never more than 2 for a hand). Game to five. The deal alternates.

Irregularities (``Irregularity``) are injected into a hand; ``resolve`` asks the referee (``adjudicate`` on a
rule table) for the ruling and applies it: the ruling's outcome, or an option chosen by the party the ruling
names, and its penalties. ``lose_point`` gives the adversary one point; ``king_not_scored`` bars the king.

State is a frozen dataclass and every transition a pure function; randomness comes from a seeded
``random.Random`` passed in. ``check_legal(state)`` states what a legal state is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, cast
from dataclasses import dataclass, replace

from .errors import PipelineError

SUITS = ("S", "H", "D", "C")
RANKS = ("K", "Q", "J", "A", "T", "9", "8", "7")  # high to low
PACK = tuple(r + s for s in SUITS for r in RANKS)
HAND_SIZE = 5
GAME_POINTS = 5
TRICKS_FOR_POINT = 3
PHASES = ("propose", "respond", "discard", "play", "over")

Ruler = Callable[[str, Mapping[str, str]], Any]  # (event, facts) -> Decision (pipeline.referee.Decision)


class IllegalMove(PipelineError):
    """An action that the rules of the game do not allow in this state."""


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


@dataclass(frozen=True)
class State:
    # (the per-player fields hold one entry per player, 0 and 1)
    scores: tuple[int, ...] = (0, 0)
    dealer: int = 0
    phase: str = "propose"
    hands: tuple[tuple[str, ...], ...] = ((), ())
    stock: tuple[str, ...] = ()
    turnup: str | None = None
    discards: tuple[str, ...] = ()
    played: tuple[str, ...] = ()  # cards of finished tricks
    table: tuple[tuple[int, str], ...] = ()  # the current trick: (player, card)
    leader: int = 1
    to_move: int = 1
    tricks: tuple[int, ...] = (0, 0)
    pending_discard: tuple[int, ...] = ()  # players still to discard in this exchange
    proposed: bool = False  # the non-dealer proposed at least once
    refused_by: int | None = None  # who played against the other's wish (played without proposing / refused)
    king_announced: tuple[bool, ...] = (False, False)
    king_barred: tuple[bool, ...] = (False, False)
    first_card_played: tuple[bool, ...] = (False, False)
    reserved: tuple[str, ...] | None = None  # a deal set aside for the next hand, as an ordered pack
    log: tuple[str, ...] = ()

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def trump(self) -> str | None:
        return suit(self.turnup) if self.turnup else None

    @property
    def winner(self) -> int | None:
        return next((p for p in (0, 1) if self.scores[p] >= GAME_POINTS), None)


# ---------------------------------------------------------------- the regular game


def new_game(dealer: int = 0) -> State:
    return State(dealer=dealer, phase="over")


def _score(s: State, player: int, points: int, why: str) -> State:
    scores = list(s.scores)
    scores[player] += points
    s = replace(s, scores=tuple(scores), log=s.log + (f"player {player} scores {points}: {why}",))
    return replace(s, phase="over") if s.winner is not None else s


def deal(s: State, rng: random.Random, split: tuple[int, int] = (2, 3), pack: tuple[str, ...] | None = None) -> State:
    """Deal a new hand by ``split`` (2-3 or 3-2), the non-dealer first; the 11th card is turned up."""
    if split not in ((2, 3), (3, 2)):
        raise IllegalMove(f"deal by 2-3 or 3-2, not {split}")
    if pack is None:
        pack = s.reserved if s.reserved else tuple(rng.sample(PACK, len(PACK)))
        s = replace(s, reserved=None)
    hands: list[list[str]] = [[], []]
    pos = 0
    for n in split:
        for p in (s.non_dealer, s.dealer):
            hands[p] += pack[pos : pos + n]
            pos += n
    s = replace(
        s,
        hands=(tuple(hands[0]), tuple(hands[1])),
        turnup=pack[pos],
        stock=tuple(pack[pos + 1 :]),
        discards=(),
        played=(),
        table=(),
        tricks=(0, 0),
        phase="propose",
        to_move=s.non_dealer,
        leader=s.non_dealer,
        pending_discard=(),
        proposed=False,
        refused_by=None,
        king_announced=(False, False),
        king_barred=(False, False),
        first_card_played=(False, False),
        log=s.log + (f"player {s.dealer} deals {split[0]}-{split[1]}; turn-up {pack[pos]}",),
    )
    if pack[pos][0] == "K":
        s = _score(s, s.dealer, 1, "king turned up")
    return s


def legal_plays(s: State, player: int) -> tuple[str, ...]:
    """Follow suit and win the trick if able; if void in the suit led, trump (and overtrump) if able."""
    hand = s.hands[player]
    if not s.table:
        return hand
    led = s.table[0][1]
    same = [c for c in hand if suit(c) == suit(led)]
    if same:
        higher = [c for c in same if rank(c) < rank(led)]
        return tuple(higher or same)
    trumps = [c for c in hand if suit(c) == s.trump]
    return tuple(trumps or hand)


def legal_actions(s: State) -> list[tuple[Any, ...]]:
    if s.phase == "propose":
        return [("propose",), ("play",)] if s.stock else [("play",)]
    if s.phase == "respond":
        return [("accept",), ("refuse",)]
    if s.phase == "discard":
        hand = s.hands[s.pending_discard[0]]
        room = len(s.stock) - (0 if s.pending_discard[0] == s.dealer else 1)  # leave the dealer at least one
        return [("discard", c) for n in range(1, min(HAND_SIZE, max(room, 0)) + 1) for c in _subsets(hand, n)] or [
            ("discard", ())
        ]
    if s.phase == "play":
        p = s.to_move
        acts: list[tuple[Any, ...]] = [("play_card", c) for c in legal_plays(s, p)]
        if _may_announce(s, p):
            acts.append(("announce_king",))
        return acts
    return []


def _subsets(hand: tuple[str, ...], n: int) -> list[tuple[str, ...]]:
    import itertools

    return list(itertools.combinations(hand, n))


def _may_announce(s: State, p: int) -> bool:
    king = f"K{s.trump}"
    return king in s.hands[p] and not s.first_card_played[p] and not s.king_announced[p] and not s.king_barred[p]


def apply(s: State, action: tuple) -> State:
    """The regular transitions; raises ``IllegalMove`` for anything the rules forbid."""
    if action not in legal_actions(s) and not (
        action[0] == "discard" and s.phase == "discard" and _discard_ok(s, action[1])
    ):
        raise IllegalMove(f"{action} is not legal in phase {s.phase}")
    kind = action[0]
    if kind == "propose":
        return replace(s, phase="respond", to_move=s.dealer, proposed=True)
    if kind == "play" and s.phase == "propose":
        return replace(s, phase="play", to_move=s.non_dealer, refused_by=None if s.proposed else s.non_dealer)
    if kind == "accept":
        return replace(s, phase="discard", pending_discard=(s.non_dealer, s.dealer), to_move=s.non_dealer)
    if kind == "refuse":
        return replace(s, phase="play", to_move=s.non_dealer, refused_by=s.dealer)
    if kind == "discard":
        p, cards = s.pending_discard[0], tuple(action[1])
        hand = [c for c in s.hands[p] if c not in cards]
        drawn, stock = s.stock[: len(cards)], s.stock[len(cards) :]
        hands = list(s.hands)
        hands[p] = tuple(hand) + drawn
        rest = s.pending_discard[1:]
        s = replace(s, hands=tuple(hands), stock=stock, discards=s.discards + cards, pending_discard=rest)
        if rest:
            return replace(s, to_move=rest[0])
        return replace(s, phase="propose" if s.stock else "play", to_move=s.non_dealer)
    if kind == "announce_king":
        ka = list(s.king_announced)
        ka[s.to_move] = True
        return _score(replace(s, king_announced=tuple(ka)), s.to_move, 1, "king announced")
    if kind == "play_card":
        return _play_card(s, s.to_move, action[1])
    raise IllegalMove(f"unknown action {action}")


def _discard_ok(s: State, cards) -> bool:
    p = s.pending_discard[0]
    return 0 < len(cards) <= len(s.stock) and set(cards) <= set(s.hands[p])


def _play_card(s: State, p: int, card: str) -> State:
    hands = list(s.hands)
    hands[p] = tuple(c for c in hands[p] if c != card)
    fc = list(s.first_card_played)
    fc[p] = True
    s = replace(s, hands=tuple(hands), table=s.table + ((p, card),), first_card_played=tuple(fc), to_move=1 - p)
    if len(s.table) < 2:
        return s
    (p1, c1), (p2, c2) = s.table
    wins_second = (suit(c2) == suit(c1) and rank(c2) < rank(c1)) or (suit(c2) == s.trump != suit(c1))
    w = p2 if wins_second else p1
    tricks = list(s.tricks)
    tricks[w] += 1
    s = replace(s, table=(), played=s.played + (c1, c2), tricks=tuple(tricks), leader=w, to_move=w)
    if sum(s.tricks) < HAND_SIZE:
        return s
    return _end_hand(s)


def _end_hand(s: State) -> State:
    w = 0 if s.tricks[0] >= TRICKS_FOR_POINT else 1
    if s.refused_by is not None and w != s.refused_by:
        pts, why = 2, "the other side played without proposing or refused, and lost"
    elif s.tricks[w] == HAND_SIZE:
        pts, why = 2, "the vole"
    else:
        pts, why = 1, "the point"
    s = _score(s, w, pts, why)
    return replace(s, phase="over", dealer=s.non_dealer)


# ---------------------------------------------------------------- legality


def check_legal(s: State) -> list[str]:
    """What is wrong with a state (empty: legal). Every card of the pack is in exactly one place; hands hold
    the right number of cards for the stage of the hand; scores are sane; a reserved deal is a whole pack."""
    errs = []
    places = (
        list(s.hands[0])
        + list(s.hands[1])
        + list(s.stock)
        + list(s.discards)
        + list(s.played)
        + [c for _, c in s.table]
    )
    places += [s.turnup] if s.turnup else []
    if s.turnup is not None and (len(places) != len(PACK) or set(places) != set(PACK)):
        errs.append(
            f"cards: {len(places)} placed, {len(set(places))} distinct, expected the {len(PACK)} of the pack once each"
        )
    if s.phase not in PHASES:
        errs.append(f"unknown phase {s.phase}")
    if s.phase in ("propose", "respond", "play") and s.turnup is not None:
        for p in (0, 1):
            expect = HAND_SIZE - sum(s.tricks) - (1 if any(q == p for q, _ in s.table) else 0)
            if len(s.hands[p]) != expect:
                errs.append(f"player {p} holds {len(s.hands[p])} cards, expected {expect}")
    if any(x < 0 for x in s.scores) or sum(s.tricks) > HAND_SIZE:
        errs.append(f"scores {s.scores} / tricks {s.tricks}")
    if s.reserved is not None and sorted(s.reserved) != sorted(PACK):
        errs.append("the reserved deal is not a whole pack")
    return errs


# ---------------------------------------------------------------- irregularities, resolved by the referee


@dataclass(frozen=True)
class Irregularity:
    event: str
    facts: tuple[tuple[str, str], ...] = ()
    offender: int | None = None  # the player at fault, where the event has one


def referee_for(table) -> Ruler:
    """A ruler for the game from a rule table (``RuleTable``, DataFrame, or a path to rules.json)."""
    from .referee import ruler_for

    return ruler_for(table, "ecarte")


def _party(s: State, name: str | None, offender: int | None) -> int:
    if name == "dealer":
        return s.dealer
    if name == "non_dealer":
        return s.non_dealer
    if name == "adversaries" and offender is not None:
        return 1 - offender
    raise IllegalMove(f"ruling names chooser {name!r}, which this game cannot place")


def resolve(
    s: State, irr: Irregularity, ruler: Ruler, rng: random.Random, choose: Callable | None = None
) -> tuple[State, object]:
    """Ask the referee about ``irr`` and apply the ruling to the state in which it was discovered.

    The state must be the one the irregularity produced (see ``inject``). Returns ``(new state, decision)``."""
    decision = ruler(irr.event, dict(irr.facts))
    r = decision.ruling
    outcome = r.outcome
    if r.options:
        chooser = _party(s, r.chooser, irr.offender)
        outcome = (choose or (lambda st, who, opts, rg: rg.choice(opts)))(s, chooser, list(r.options), rng)
    s = replace(
        s,
        log=s.log
        + (
            f"{irr.event} {dict(irr.facts)} -> {outcome or '-'} {list(r.penalties)} ({', '.join(c.law_id for c in decision.citations)})",
        ),
    )
    for pen in r.penalties:
        if irr.offender is None:
            raise IllegalMove(f"{irr.event}: penalty {pen} without an offender")
        if pen == "lose_point":
            s = _score(s, 1 - irr.offender, 1, f"{irr.event}: lose_point")
        elif pen == "king_not_scored":
            kb = list(s.king_barred)
            kb[irr.offender] = True
            s = replace(s, king_barred=tuple(kb))
    if s.phase == "over" and s.winner is not None:
        return s, decision
    return _apply_outcome(s, irr, outcome, rng, ruler), decision


def _apply_outcome(s: State, irr: Irregularity, outcome: str | None, rng: random.Random, ruler: Ruler) -> State:
    facts = dict(irr.facts)
    if outcome in (None, "deal_stands", "card_stands", "rectify") and irr.event != "wrong_card_count":
        return _settle(s, irr, rng, ruler)
    if outcome == "new_deal":
        # the right dealer deals again after a deal out of turn; the adversary deals ("en prenant la main")
        # after a wrong number of cards; otherwise the same dealer
        dealer = s.non_dealer if irr.event in ("deal_out_of_turn", "wrong_card_count") else s.dealer
        return deal(replace(s, dealer=dealer, phase="over"), rng)
    if outcome == "cards_reserved_for_next_deal":
        pack = _as_pack(s)
        right = replace(s, dealer=1 - s.dealer, phase="over", reserved=None)
        return replace(deal(right, rng, pack=tuple(rng.sample(PACK, len(PACK)))), reserved=pack)
    if outcome in ("rectify", "complete_from_stock", "draw_surplus", "discard_surplus"):
        return _fix_count(s, facts, outcome, rng)
    if outcome == "rectify_seen_card_under_stock":  # the card seen (the top of the talon) goes under the talon
        return replace(s, stock=s.stock[1:] + s.stock[:1])
    if outcome == "take_back_card":
        return _take_back(s)
    raise IllegalMove(f"the game cannot apply outcome {outcome!r}")


def _as_pack(s: State) -> tuple[str, ...]:
    """The cards of a deal as an ordered pack that ``deal`` (2-3) would give out again the same way."""
    nd, d = s.hands[s.non_dealer], s.hands[s.dealer]
    return nd[:2] + d[:2] + nd[2:5] + d[2:5] + (cast(str, s.turnup),) + s.stock  # (a dealt hand has its turn-up)


def _settle(s: State, irr: Irregularity, rng: random.Random, ruler: Ruler) -> State:
    """After a ruling that lets play go on: the discard error still leaves a wrong count, which the
    laws refer to the wrong-card-count laws (ask again)."""
    if irr.event == "discard_error":
        p = cast(int, irr.offender)  # (a discard error has its offender)
        n = len(s.hands[p]) - HAND_SIZE
        if n:
            follow = Irregularity(
                "wrong_card_count",
                (
                    ("holder", "dealer" if p == s.dealer else "non_dealer"),
                    ("error", "too_many" if n > 0 else "too_few"),
                    ("discovered", "after_seen"),
                ),
                p,
            )
            return resolve(s, follow, ruler, rng)[0]
    if irr.event == "card_dropped" and dict(irr.facts).get("touches_adversary_card") == "yes":
        return s  # the card was played (inject placed it)
    return s


def _fix_count(s: State, facts: Mapping[str, str], outcome: str, rng: random.Random) -> State:
    holder = s.dealer if facts.get("holder") == "dealer" else s.non_dealer
    hands = [list(h) for h in s.hands]
    stock = list(s.stock)
    discards = list(s.discards)
    while len(hands[holder]) < HAND_SIZE and stock:
        hands[holder].append(stock.pop(0))  # rectify / complete_from_stock: from the top of the talon
    while len(hands[holder]) > HAND_SIZE:
        if outcome == "rectify":
            stock.insert(0, hands[holder].pop())  # restore the order: the card goes back on the talon
        else:
            c = rng.choice(hands[holder])  # draw_surplus (at random) / discard_surplus (the holder's choice)
            hands[holder].remove(c)
            discards.append(c)
    return replace(s, hands=(tuple(hands[0]), tuple(hands[1])), stock=tuple(stock), discards=tuple(discards))


def _take_back(s: State) -> State:
    if not s.table:
        return s
    p, c = s.table[-1]
    hands = list(s.hands)
    hands[p] = hands[p] + (c,)
    return replace(s, hands=tuple(hands), table=s.table[:-1], to_move=p if len(s.table) > 1 else s.leader)


def inject(s: State, event: str, rng: random.Random) -> tuple[State, Irregularity] | None:
    """Produce irregularity ``event`` in state ``s`` (with random facts) and return the state as it stands when
    the irregularity is discovered, or None if it cannot happen here."""
    if event == "deal_out_of_turn" and s.phase == "propose" and not s.proposed and not s.discards:
        wrong = replace(s, dealer=s.non_dealer, phase="over")
        when = rng.choice(["before_trump", "after_trump", "after_play"])
        dealt = deal(wrong, rng)
        if dealt.phase == "over":
            return None
        return dealt, Irregularity(event, (("discovered", when),), wrong.dealer)
    if event == "dealer_exposes_card" and s.phase == "propose" and not s.proposed:
        owner = rng.choice(["dealer", "non_dealer"])
        return s, Irregularity(event, (("owner", owner),), s.dealer)
    if event == "faced_card_in_pack" and s.phase == "propose" and not s.proposed:
        return s, Irregularity(event, (("phase", "first_deal"), ("card", rng.choice(["trump", "other"]))), s.dealer)
    if event == "several_cards_turned_for_trump" and s.phase == "propose" and not s.proposed and s.stock:
        return s, Irregularity(event, (), s.dealer)
    if event == "wrong_card_count" and s.phase == "propose" and not s.proposed and s.stock:
        holder = rng.choice([s.dealer, s.non_dealer])
        error = rng.choice(["too_few", "too_many"])
        lists, stock = [list(h) for h in s.hands], list(s.stock)
        if error == "too_many":
            lists[holder].append(stock.pop(0))
        else:
            stock.insert(0, lists[holder].pop())
        s2 = replace(s, hands=(tuple(lists[0]), tuple(lists[1])), stock=tuple(stock))
        facts = (
            ("holder", "dealer" if holder == s.dealer else "non_dealer"),
            ("error", error),
            ("discovered", rng.choice(["before_seen", "after_seen"])),
        )
        return s2, Irregularity(event, facts, s.dealer)
    if (
        event == "discard_error"
        and s.phase == "discard"
        and s.pending_discard == (s.non_dealer, s.dealer)
        and len(s.stock) >= 3
    ):
        p = s.non_dealer
        cards = s.hands[p][:1]
        hands = list(s.hands)
        hands[p] = s.hands[p][1:] + s.stock[:2]  # asked for two, discarded one
        s2 = replace(
            s,
            hands=tuple(hands),
            stock=s.stock[2:],
            discards=s.discards + cards,
            pending_discard=(s.dealer,),
            to_move=s.dealer,
        )
        return s2, Irregularity(event, (("by", "non_dealer"),), p)
    if event == "card_led_out_of_turn" and s.phase == "play" and not s.table:
        p = 1 - s.to_move
        card = rng.choice(s.hands[p])
        hands = list(s.hands)
        hands[p] = tuple(c for c in s.hands[p] if c != card)
        s2 = replace(s, hands=tuple(hands), table=((p, card),), to_move=s.to_move, leader=s.leader)
        played_to = rng.choice(["yes", "no"])
        if played_to == "yes":  # the adversary answered: the out-of-turn lead is now the lead of the trick
            s2 = replace(s2, leader=p, to_move=1 - p)
            reply = rng.choice(legal_plays(s2, 1 - p))
            fc = list(s2.first_card_played)
            fc[p] = True
            return _play_card(replace(s2, first_card_played=tuple(fc)), 1 - p, reply), Irregularity(
                event, (("played_to", "yes"),), p
            )
        return s2, Irregularity(event, (("played_to", "no"),), p)
    if event == "card_dropped" and s.phase == "play" and s.table:
        p = s.to_move
        touches = rng.choice(["yes", "no"])
        card = rng.choice(legal_plays(s, p)) if touches == "yes" else rng.choice(s.hands[p])
        if touches == "yes":
            return _play_card(s, p, card), Irregularity(event, (("touches_adversary_card", "yes"),), p)
        hands = list(s.hands)
        hands[p] = tuple(c for c in s.hands[p] if c != card)
        return replace(s, hands=tuple(hands), table=s.table + ((p, card),)), Irregularity(
            event, (("touches_adversary_card", "no"),), p
        )
    return None


INJECTABLE = (
    "deal_out_of_turn",
    "dealer_exposes_card",
    "faced_card_in_pack",
    "several_cards_turned_for_trump",
    "wrong_card_count",
    "discard_error",
    "card_led_out_of_turn",
    "card_dropped",
)


def play_game(
    seed: int,
    ruler: Ruler,
    irregularity_rate: float = 0.2,
    max_steps: int = 2000,
    on_state: Callable[[State], None] | None = None,
    on_ruling: Callable[[Irregularity, Any, str], None] | None = None,
) -> State:
    """Play a whole game to five with random legal moves; with probability ``irregularity_rate`` per step an
    irregularity is injected and resolved by the referee. ``on_state`` sees every state reached; ``on_ruling``
    every irregularity with the referee's decision, or None and the reason the referee could not rule (the
    irregularity is then undone: play resumes from the state before it)."""
    from .referee import resolve_reported

    rng = random.Random(seed)
    s = new_game(dealer=rng.randrange(2))
    for _ in range(max_steps):
        if on_state:
            on_state(s)
        if s.winner is not None:
            return s
        if s.phase == "over":
            s = deal(s, rng, split=rng.choice([(2, 3), (3, 2)]))
            continue
        if rng.random() < irregularity_rate:
            got = inject(s, rng.choice(INJECTABLE), rng)
            if got is not None:
                # an irregular state: only the ruling makes it legal again (unruled, it is undone)
                s = resolve_reported(resolve, *got, ruler, rng, on_ruling) or s
                continue
        s = apply(s, rng.choice(legal_actions(s)))
    raise IllegalMove(f"game with seed {seed} did not finish in {max_steps} steps")
