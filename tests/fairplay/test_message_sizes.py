"""Message sizes say nothing about a seat's cards. Someone who sees only the
encrypted stream of a seat (its size per message) once guessed how many
10s, 11s and 12s it held 68-72% of the time against 39-49% by chance, and a
flor showed as extra legal actions. Now every Decision and HandEnd is padded
to a size that depends on the public state alone: here thousands of
decisions from random games of every variant are grouped by everything
public about them, and within a group every hand gives the same size."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from public_state import public_key

from arena.engine import Action, Game, Kind, make_options
from arena.protocol import arena_pb2 as pb
from arena.referee import Referee
from arena.server.convert import batch_pb, decision_pb, hand_end_pb

CONFIGS = [("argentino", 2), ("argentino", 4), ("uruguayo", 2), ("venezolano", 2)]
LONG = ("10", "11", "12")


def long_cards(msg: pb.PlayResponse) -> int:
    return sum(c[:2] in LONG for c in msg.decision.observation.hand)


def public_first(actions: list[Action]) -> list[Action]:
    """Prefer calls to plays, so that many games share their first decisions."""
    calls = [a for a in actions if a.kind not in (Kind.PLAY, Kind.MAZO, Kind.FLOR) and not a.con_flor]
    return calls or actions


@pytest.mark.parametrize("variant,seats", CONFIGS, ids=[f"{v}-{s}" for v, s in CONFIGS])
def test_every_hand_in_the_same_public_state_gives_the_same_size(variant: str, seats: int) -> None:
    options = make_options(variant, {"seats": seats})
    game = Game(options)
    groups: dict[bytes, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    flor_offered = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(6):  # the first decisions of the game: the same public states recur across deals
            if state.is_terminal():
                break
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_actions()
            msg = decision_pb("0" * 24, 7, state.observation(seat), [a.text for a in legal], 1.0, 30.0, options)
            flor_offered += any(a.kind is Kind.FLOR or a.con_flor for a in legal)
            groups[public_key(msg.decision)][long_cards(msg)].add(len(msg.SerializeToString()))
            state.apply(rng.choice(public_first(list(legal))))
    shared = [g for g in groups.values() if len(g) > 1]
    assert len(shared) >= 5, "too few public states seen with different hands"
    for g in shared:
        sizes = set().union(*g.values())
        assert len(sizes) == 1, f"sizes by number of 10/11/12 held: {dict(g)}"
    if options.flor:
        assert flor_offered > 0  # the states with a flor to declare were among them


def test_a_hand_summary_is_the_same_size_whatever_the_seat_held() -> None:
    """The first hand of each deal ends at once (the mano goes to the deck):
    the same public hand, and each seat's summary has its own cards in it."""
    options = make_options("argentino", {"seats": 2})
    sizes: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for seed in range(300):
        referee = Referee(options, seed)
        referee.start()
        d = referee.decision()
        assert d is not None
        for h in referee.play(next(a for a in d.legal if a.kind is Kind.MAZO)):
            msg = hand_end_pb("0" * 24, h)
            held = next(e for e in h.events if e.startswith(f"seat {h.seat} holds "))
            sizes[h.seat][sum(c[:2] in LONG for c in held.split()[3:])].add(len(msg.SerializeToString()))
    for seat, by_long in sizes.items():
        assert len(by_long) > 1
        assert len(set().union(*by_long.values())) == 1, f"seat {seat}: sizes by 10/11/12 held: {dict(by_long)}"


def test_a_batch_is_the_same_size_whatever_the_seat_held() -> None:
    """Protocol 3 sends a HandEnd in one Batch with the seat's next Decision:
    the Batch's size depends on the public state alone, as each message's does."""
    options = make_options("argentino", {"seats": 2})
    sizes: dict[bytes, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for seed in range(300):
        referee = Referee(options, seed)
        referee.start()
        d = referee.decision()
        assert d is not None
        ends = {h.seat: h for h in referee.play(next(a for a in d.legal if a.kind is Kind.MAZO))}
        d = referee.decision()  # the next hand's first Decision
        assert d is not None
        h = ends[d.seat]
        decision = decision_pb("0" * 24, 7, d.observation, d.legal_texts, 1.0, 30.0, options)
        batch = batch_pb([hand_end_pb("0" * 24, h)], decision)
        held = next(e for e in h.events if e.startswith(f"seat {h.seat} holds ")).split()[3:]
        long_held = sum(c[:2] in LONG for c in held) + 10 * long_cards(decision)
        sizes[public_key(decision.decision)][long_held].add(len(batch.SerializeToString()))
    shared = [g for g in sizes.values() if len(g) > 1]
    assert shared, "no public state seen with different hands"
    for g in shared:
        assert len(set().union(*g.values())) == 1, f"Batch sizes by 10/11/12 held: {dict(g)}"
