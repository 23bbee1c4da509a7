"""The heuristic bot in team games reads its partner's public play: checked on
the decisions of many 4- and 6-seat games of random play (engine only),
against the same bot with partner reading turned off."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from arena.engine.actions import ENVIDO_CALLS, Kind
from arena.engine.observation import Observation
from arena.engine.options import make_options
from arena.referee import Referee
from sample_bots._play import UniformBot
from sample_bots.heuristic import DEFAULT_PARAMS, Ctx, HeuristicBot, Params, decide

SOLO = Params(team_play=False)


def _observations(seats: int, games: int) -> Iterator[Observation]:
    """Every decision's observation in ``games`` games of uniformly random play."""
    options = make_options("argentino", {"seats": seats, "target": 15})
    for seed in range(games):
        bots = [UniformBot(seed * 10 + s) for s in range(seats)]
        referee = Referee(options, seed)
        list(referee.start())
        while (decision := referee.decision()) is not None:
            yield decision.observation
            referee.play(bots[decision.seat].choose(decision.observation))


def _partner_wins_trick(ctx: Ctx) -> bool:
    if not ctx.current:
        return False
    best = max(ctx.rank[c.index] for _, c in ctx.current)
    return {s % 2 for s, c in ctx.current if ctx.rank[c.index] == best} == {ctx.team}


@pytest.mark.parametrize("seats", [4, 6])
def test_it_never_overtakes_a_partner_who_wins_the_trick_when_no_opponent_is_left(seats: int) -> None:
    checked = 0
    for obs in _observations(seats, 80):
        if obs.pending is not None or not obs.hand or obs.pico:
            continue
        ctx = Ctx(obs)
        if not _partner_wins_trick(ctx) or any(s % 2 != ctx.team for s in ctx.still_to_play()):
            continue
        action = decide(obs, random.Random(0))
        if action.kind is Kind.PLAY:
            checked += 1
            assert action.card == ctx.mine[-1], (obs.tricks, obs.hand)  # its lowest card
    assert checked >= 5


@pytest.mark.parametrize("seats", [4, 6])
def test_it_lets_a_partners_envido_stand(seats: int) -> None:
    """Facing the rivals' raise of an envido its partner called, it accepts or
    declines but never raises further; with partner reading off it would."""
    found = solo_raises = 0
    for obs in _observations(seats, 300):
        pend = obs.pending
        if pend is None or pend.chain != "envido" or obs.pico:
            continue
        if not Ctx(obs).partner_called(ENVIDO_CALLS):
            continue
        found += 1
        for seed in range(3):
            team = decide(obs, random.Random(seed), DEFAULT_PARAMS)
            assert team.kind not in ENVIDO_CALLS and team.kind is not Kind.RAISE, (obs.history, team)
            solo_raises += decide(obs, random.Random(seed), SOLO).kind in ENVIDO_CALLS
    assert found >= 10 and solo_raises >= 1


def test_it_does_not_bluff_an_envido_in_a_team() -> None:
    """Opening an envido in a team game happens only on real chances."""
    opened = 0
    for obs in _observations(4, 60):
        if obs.pending is not None or obs.pico or not any(a.kind is Kind.ENVIDO for a in obs.legal):
            continue
        ctx = Ctx(obs)
        for seed in range(5):
            action = decide(obs, random.Random(seed))
            if action.kind in ENVIDO_CALLS:
                opened += 1
                assert ctx.p_envido() >= 0.35, (obs.dealt, action)
    assert opened >= 5


def test_team_reading_is_off_in_two_seat_games() -> None:
    for obs in _observations(2, 10):
        assert Ctx(obs).partners == ()
    assert HeuristicBot(1).params.team_play
