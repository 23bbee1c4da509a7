"""The heuristic bot in team games reads its partner's public play: checked on
every decision of many 4- and 6-seat games (engine only), against the same
bot with partner reading turned off."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from arena.engine.actions import ENVIDO_CALLS, TRUCO_CALLS, Kind
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
def test_a_partners_call_makes_it_answer_as_a_side(seats: int) -> None:
    """Facing a raise of a call its partner made, the team-reading bot keeps
    in at least whenever the solo one would, and sometimes where it would not."""
    declining = (Kind.NO_QUIERO,)
    found = differ = 0
    for obs in _observations(seats, 150):
        pend = obs.pending
        if pend is None or pend.chain == "flor" or obs.pico:
            continue
        ctx = Ctx(obs)
        kinds = TRUCO_CALLS if pend.chain == "truco" else ENVIDO_CALLS
        if not ctx.partner_called(kinds):
            continue
        found += 1
        team = decide(obs, random.Random(1), DEFAULT_PARAMS)
        solo = decide(obs, random.Random(1), SOLO)
        if solo.kind not in declining:
            assert team.kind not in declining, (obs.history, solo, team)
        differ += solo.kind in declining and team.kind not in declining
    assert found >= 10 and differ >= 1


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
