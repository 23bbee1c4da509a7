"""In-process matches between bots, straight on the engine (no networking).

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
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from arena.engine import Action, Card, Game
from arena.engine import events as ev
from sdk.bot import Bot, GameInfo, HandSummary


def _summary(seat: int, number: int, scores: tuple[int, int], events: Sequence[ev.Event]) -> HandSummary:
    shown: list[tuple[int, tuple[Card, ...]]] = []
    history: list[tuple[int, Action]] = []
    winners: list[int | None] = []
    lines: list[str] = []
    for e in events:
        if e.private_to is not None and e.private_to != seat:
            continue
        lines.append(str(e))
        if isinstance(e, ev.Acted):
            history.append((e.seat, e.action))
        elif isinstance(e, ev.TrickWon):
            winners.append(e.team)
        elif isinstance(e, ev.Shown):
            shown.append((e.seat, e.cards))
    return HandSummary(number, scores, tuple(shown), tuple(history), tuple(winners), tuple(lines))


class IllegalChoice(AssertionError):
    """A bot returned an action that is not in ``state.legal_actions()``."""


@dataclass(frozen=True)
class GameResult:
    winner: int  # winning team
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
    illegal one raises ``IllegalChoice`` naming the seat, the action and the
    observation's legal list.
    """
    overrides = dict(options or {})
    overrides.setdefault("seats", len(bots))
    game = Game(variant, **overrides)
    state = game.new_state(seed=seed)
    game_id = f"{variant}-{seed}"
    names = tuple(b.name for b in bots)
    for i, bot in enumerate(bots):
        bot.on_game_info(GameInfo(game_id, i, game.options, names, 10.0, 60.0))
        bot.on_game_start(game_id, i, variant)
    n = 0
    hand_begin = scanned = 0
    wants = [type(b).on_hand_end is not Bot.on_hand_end for b in bots]

    def announce(upto: int, final: bool) -> None:
        # Like the arena: one HandSummary per HandEnded event (and for the hand
        # the game's end cut short), from that hand's slice of the event log.
        nonlocal hand_begin, scanned
        events = state.events
        for i in range(scanned, upto):
            e = events[i]
            if isinstance(e, ev.HandEnded) or (final and i == upto - 1 and hand_begin < upto):
                chunk = events[hand_begin:i + 1]
                hand_begin = i + 1
                number = e.hand if isinstance(e, ev.HandEnded) else state.hands_played
                for seat_, bot_ in enumerate(bots):
                    if wants[seat_]:
                        bot_.on_hand_end(game_id, _summary(seat_, number, (state.scores[0], state.scores[1]), chunk))
        scanned = upto

    while not state.is_terminal():
        to_act = state.current_player()
        assert to_act is not None
        seat: int = to_act
        obs = state.observation(seat)
        action = bots[seat].choose(obs)
        legal = state.legal_actions()
        if action not in legal:
            raise IllegalChoice(
                f"{variant} seed {seed}: seat {seat} ({type(bots[seat]).__name__}) chose {action!s}, "
                f"legal: {[str(a) for a in legal]}; history: {[f'{s} {a}' for s, a in obs.history]}"
            )
        state.apply(action)
        if any(wants):
            announce(len(state.events), state.is_terminal())
        n += 1
        if n > max_actions:
            raise AssertionError(f"{variant} seed {seed}: game did not end after {max_actions} actions")
    assert state.winner is not None
    scores = (state.scores[0], state.scores[1])
    for seat, bot in enumerate(bots):
        bot.on_game_end(game_id, state.winner == seat % 2, scores)
    return GameResult(state.winner, scores, state.hands_played, n)


@dataclass
class MatchStats:
    """Result of a duplicate match from bot A's point of view."""

    games: int = 0
    wins: int = 0
    pair_scores: list[float] | None = None  # per seed: A's wins in the pair / 2
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
