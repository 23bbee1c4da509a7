"""The shared world sampler: every sampled world agrees with what the
observer knows, in particular every envido and flor total the rival announced
and a flor it declared."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game, hierarchy
from arena.engine.cards import DECK, Card
from arena.engine.observation import Observation
from sample_bots.heuristic import HeuristicBot
from sample_bots.worlds import World, agrees_with_announcements, extend_world, game_for, sample_world


def _observations_with_announcements(variant: str, games: int) -> list[tuple[Observation, tuple[Card, ...]]]:
    """Seat decisions (2 seats, heuristic play) where the rival has announced
    points or declared a flor, with the rival's true hand."""
    game = Game(variant)
    found = []
    for seed in range(games):
        state = game.new_state(seed=seed)
        bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            obs = state.observation(seat, log=False)
            rival = 1 - seat
            if any(s == rival for _, s, _ in obs.announced) or rival in obs.flor_declared:
                found.append((obs, state.hand.dealt[rival]))
            state.apply(bots[seat].choose(obs))
    return found


@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_bots_worlds_agree_with_announced_points(variant: str) -> None:
    cases = _observations_with_announcements(variant, 25)
    kinds = {what for obs, _ in cases for what, s, _ in obs.announced if s == 1 - obs.seat}
    # both kinds of announcement are exercised (in argentino flor totals are
    # compared only in a contraflor, which these seeds do not reach)
    assert kinds == ({"envido"} if variant == "argentino" else {"envido", "flor"}), kinds
    assert any(1 - obs.seat in obs.flor_declared for obs, _ in cases)
    rng = random.Random(3)
    cache: dict[tuple[str, int], Game] = {}
    sampled = 0
    for obs, true_hand in cases[::3]:
        rival = 1 - obs.seat
        assert agrees_with_announcements(obs, true_hand)  # the real deal is always consistent
        t = hierarchy.table(obs.variant, obs.up_card)
        game = game_for(obs, {}, cache)
        for _ in range(60):
            world = sample_world(obs, game, rng)
            if world is None:
                continue
            sampled += 1
            hand = world.rival_hand
            assert world.deal.hands[rival] == hand and world.deal.hands[obs.seat] == obs.dealt
            assert not set(hand) & set(obs.dealt) and obs.up_card not in hand
            for what, s, pts in obs.announced:
                if s == rival and what == "envido":
                    assert hierarchy.envido_points(t, hand)[0] == pts
                if s == rival and what == "flor":
                    assert hierarchy.flor_points(t, hand) == pts
            if rival in obs.flor_declared:
                assert hierarchy.flor_kind(t, hand) == "flor"
            played = [c for trick in obs.tricks for s, c in trick if s == rival]
            assert set(played) <= set(hand)
            assert world.state.current_player() == obs.seat
            assert set(world.state.legal_actions()) == set(obs.legal)
    assert sampled > 100


def test_bots_worlds_reject_a_hand_with_other_points() -> None:
    cases = _observations_with_announcements("argentino", 25)
    obs, true_hand = next((o, h) for o, h in cases
                          if any(w == "envido" and s == 1 - o.seat for w, s, _ in o.announced))
    t = hierarchy.table(obs.variant, obs.up_card)
    pts = next(p for w, s, p in obs.announced if w == "envido" and s == 1 - obs.seat)
    seen = set(obs.dealt) | set(true_hand)
    other = next(h for h in ((a, b, c) for a in DECK for b in DECK for c in DECK
                             if len({a, b, c}) == 3 and not {a, b, c} & seen)
                 if hierarchy.envido_points(t, h)[0] != pts)
    assert not agrees_with_announcements(obs, other)


def _check_world(obs: Observation, world: World) -> None:
    """``world`` agrees with everything ``obs.seat`` knows."""
    rival = 1 - obs.seat
    t = hierarchy.table(obs.variant, obs.up_card)
    hand = world.rival_hand
    assert world.deal.hands[rival] == hand and world.deal.hands[obs.seat] == obs.dealt
    for what, s, pts in obs.announced:
        if s == rival and what == "envido":
            assert hierarchy.envido_points(t, hand)[0] == pts
        if s == rival and what == "flor":
            assert hierarchy.flor_points(t, hand) == pts
    if rival in obs.flor_declared:
        assert hierarchy.flor_kind(t, hand) == "flor"
    assert {c for trick in obs.tricks for s, c in trick if s == rival} <= set(hand)
    assert world.state.current_player() == obs.seat
    assert set(world.state.legal_actions()) == set(obs.legal)
    assert world.state.observation(obs.seat, log=False).history == obs.history


def _hands_by_seat(variant: str, games: int) -> list[list[Observation]]:
    """Every seat's successive decisions within one hand (heuristic play),
    for the hands where that seat decided at least twice."""
    game = Game(variant)
    out = []
    for seed in range(games):
        state = game.new_state(seed=seed)
        bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
        current: dict[tuple[int, int], list[Observation]] = {}
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            obs = state.observation(seat, log=False)
            current.setdefault((obs.hand_number, seat), []).append(obs)
            state.apply(bots[seat].choose(obs))
        out += [obs_list for obs_list in current.values() if len(obs_list) > 1]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["uruguayo", "venezolano"])
@pytest.mark.parametrize("soft", [1.0, 0.15])
def test_bots_worlds_early_rejection_and_carried_worlds_agree_with_what_is_known(variant: str,
                                                                                soft: float) -> None:
    # Worlds drawn with early rejection at one decision, then carried to the
    # seat's later decisions of the same hand, agree at every step with what
    # the seat knows then, announced envido and flor totals included.
    rng = random.Random(5)
    cache: dict[tuple[str, int], Game] = {}
    carried = dropped = announced_since = 0
    for decisions in _hands_by_seat(variant, 12):
        first = decisions[0]
        game = game_for(first, {}, cache)
        worlds = [w for w in (sample_world(first, game, rng, soft, early=True) for _ in range(30)) if w]
        for w in worlds:
            _check_world(first, w)
        previous = first
        for obs in decisions[1:]:
            if len(obs.announced) > len(previous.announced):
                announced_since += 1
            kept = []
            for w in worlds:
                moved = extend_world(w, obs, len(previous.history), rng, soft)
                if moved is None:
                    dropped += 1
                    continue
                _check_world(obs, moved)
                kept.append(moved)
            carried += len(kept)
            worlds, previous = kept, obs
    assert carried > 200 and dropped > 10 and announced_since > 0, (carried, dropped, announced_since)


def test_bots_worlds_carried_world_is_dropped_when_new_points_contradict_it() -> None:
    # A world whose rival hand has other envido points than the rival then
    # announced cannot be carried past that announcement.
    for decisions in _hands_by_seat("uruguayo", 25):
        for before, after in zip(decisions, decisions[1:]):
            rival = 1 - after.seat
            new = [p for w, s, p in after.announced[len(before.announced):] if w == "envido" and s == rival]
            if not new:
                continue
            game = game_for(before, {}, {})
            rng = random.Random(9)
            t = hierarchy.table(before.variant, before.up_card)
            for _ in range(400):
                w = sample_world(before, game, rng)
                if w is not None and hierarchy.envido_points(t, w.rival_hand)[0] != new[0]:
                    assert extend_world(w, after, len(before.history), rng) is None
                    return
    raise AssertionError("no decision pair with an envido announced in between")
