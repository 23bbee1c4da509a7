"""In-process matches between bots through the referee (no networking).

Used by the bot tests and ``benchmarks/bot_strength.py``; also handy for a bot
author who wants to try a bot quickly::

    from sample_bots._play import play_game, duplicate_match
    result = play_game([HeuristicBot(seed=1), SimulationBot(seed=2)], "uruguayo", seed=7)

A game is dealt from ``Game.new_state(seed=...)``, so the same seed gives the
same deals; ``duplicate_match`` plays every seed twice with the bots' seats
swapped, which removes most of the luck of the cards from a comparison.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.engine import Game
from arena.referee import BadMoveError, HandEnd, Referee
from sdk.bot import Bot, GameInfo, HandSummary


def _summary(h: HandEnd) -> HandSummary:
    """The referee's summary for one seat, as the SDK hands it to a bot (the
    same values the SDK decodes from the arena's HandEnd)."""
    return HandSummary(h.hand_number, h.scores, h.shown, h.history, h.trick_winners, h.events)


class IllegalChoiceError(AssertionError):
    """A bot returned an action that is not in ``state.legal_actions()``."""


@dataclass(frozen=True)
class GameResult:
    winner: int
    """Winning team."""
    scores: tuple[int, int]
    hands: int
    actions: int


def play_game(
    bots: Sequence[Bot],
    variant: str = "argentino",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 20_000,
) -> GameResult:
    """Play one full game; ``bots[s]`` plays seat ``s`` (so ``len(bots)`` seats).

    Every returned action is checked against ``state.legal_actions()``; an
    illegal one raises ``IllegalChoiceError`` naming the seat, the action and the
    observation's legal list.
    """
    overrides = dict(options or {})
    overrides.setdefault("seats", len(bots))
    game = Game(variant, **overrides)
    referee = Referee(game.options, seed)
    game_id = f"{variant}-{seed}"
    names = tuple(b.name for b in bots)
    for start in referee.start():
        bot = bots[start.seat]
        bot.on_game_info(GameInfo(game_id, start.seat, start.options, names, 10.0, 60.0))
        bot.on_game_start(game_id, start.seat, variant)
    wants = [type(b).on_hand_end is not Bot.on_hand_end for b in bots]

    def tell(summaries: Sequence[HandEnd]) -> None:
        for h in summaries:
            if wants[h.seat]:
                bots[h.seat].on_hand_end(game_id, _summary(h))

    n = 0
    while (decision := referee.decision()) is not None:
        seat = decision.seat
        action = bots[seat].choose(decision.observation)
        try:
            tell(referee.play(action))
        except BadMoveError:
            obs = decision.observation
            raise IllegalChoiceError(
                f"{variant} seed {seed}: seat {seat} ({type(bots[seat]).__name__}) chose {action!s}, "
                f"legal: {decision.legal_texts}; history: {[f'{s} {a}' for s, a in obs.history]}"
            ) from None
        n += 1
        if n > max_actions:
            raise AssertionError(f"{variant} seed {seed}: game did not end after {max_actions} actions")
    outcome = referee.outcome()
    cut_short = referee.cut_short(outcome)
    if cut_short is not None:
        tell(cut_short)
    assert outcome.winner is not None
    for end in referee.end(outcome):
        bots[end.seat].on_game_end(game_id, end.won, outcome.scores)
    return GameResult(outcome.winner, outcome.scores, outcome.hands_played, n)


@dataclass
class MatchStats:
    """Result of a duplicate match from bot A's point of view."""

    games: int = 0
    wins: int = 0
    pair_scores: list[float] | None = None
    """Per seed: A's wins in the pair / 2."""
    points_for: int = 0
    points_against: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Normal 95% interval of A's win rate, with the variance taken over
        duplicate pairs (the two games of a seed are not independent)."""
        xs = self.pair_scores or []
        m = len(xs)
        if m < 2:
            return (0.0, 1.0)
        mean = sum(xs) / m
        var = sum((x - mean) ** 2 for x in xs) / (m - 1)
        half = z * math.sqrt(var / m)
        return (max(0.0, mean - half), min(1.0, mean + half))


def duplicate_match(
    make_a: Callable[[int], Bot],
    make_b: Callable[[int], Bot],
    variant: str,
    seeds: Sequence[int],
    options: Mapping[str, Any] | None = None,
    on_game: Callable[[int, int, GameResult], None] | None = None,
) -> MatchStats:
    """Two-seat duplicate match: each seed once with A in seat 0, once in seat 1.

    ``make_a(k)``/``make_b(k)`` build a fresh bot for game k (their own seeds).
    ``on_game(seed, a_seat, result)`` is called after every game.
    """
    st = MatchStats(pair_scores=[])
    assert st.pair_scores is not None
    for seed in seeds:
        pair = 0.0
        for a_seat in (0, 1):
            k = 2 * seed + a_seat
            a, b = make_a(k), make_b(k + 1_000_003)
            bots = [a, b] if a_seat == 0 else [b, a]
            res = play_game(bots, variant, seed, options)
            st.games += 1
            won = res.winner == a_seat
            st.wins += won
            pair += won / 2
            st.points_for += res.scores[a_seat]
            st.points_against += res.scores[1 - a_seat]
            if on_game is not None:
                on_game(seed, a_seat, res)
        st.pair_scores.append(pair)
    return st


class UniformBot(Bot):
    """Picks uniformly among the legal actions (a baseline for the tests and
    benchmarks; ``sample_bots/random_bot.py`` is the networked sample)."""

    name = "uniform"

    def __init__(self, seed: int | None = None) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, obs: Any) -> Any:
        return self.rng.choice(obs.legal)
