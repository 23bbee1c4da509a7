"""The one class a bot author subclasses."""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.engine.actions import Action
from arena.engine.cards import Card
from arena.engine.observation import Observation
from arena.engine.options import Options


@dataclass(frozen=True, slots=True)
class HandSummary:
    """How a hand ended, as the seat may see it (docs/rules.md 9)."""

    hand_number: int
    """0-based."""
    scores: tuple[int, int]
    """Team scores after the hand."""
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    """(seat, cards) shown to prove envido/flor."""
    history: tuple[tuple[int, Action], ...]
    """Every action of the hand."""
    trick_winners: tuple[int | None, ...]
    """Per finished trick: team, None for parda."""
    events: tuple[str, ...]
    """The hand's log, human-readable."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Everything GameStart says: the full rules, who sits where, the clock."""

    game_id: str
    seat: int
    options: Options
    """Variant and every option (flor, falta_envido, target, ...)"""
    bots: tuple[str, ...]
    """Bot name per seat."""
    move_time: float
    """Seconds per move before the bank is used."""
    bank: float
    """Seconds of bank for the whole game."""
    rng_seed: int | None = None
    """Seed for the bot's own randomness in this game, if the arena gives one."""


class Bot:
    """Subclass and implement ``choose``; hand an instance to ``sdk.run``.

    ``choose`` gets the seat's typed observation (docs/rules.md 9: own cards, the up
    card, every public action of the hand, scores, the pending call, announced
    points) and must return one of ``obs.legal``.

    If ``choose`` raises, the SDK does not stop: it prints the exception, the
    game id and the observation on the bot's stderr and plays the first legal
    action (``obs.legal[0]``) for that decision, then goes on with the game.
    That Move carries ``fallback = true``: the arena counts these per bot
    (``truco-arena standings --view failures``), and ``truco-arena
    check-bot`` fails a bot that needed one.
    """

    name: str = "bot"
    version: str = "0.1.0"
    rng: random.Random = random.Random()
    """The bot's own randomness. Before every game the SDK replaces it with
    random.Random(GameStart.rng_seed), so a tournament replays identically whether its games run
    one at a time or many at once.
    """

    def choose(self, obs: Observation) -> Action:
        raise NotImplementedError

    # Optional hooks; the default does nothing. For each game the SDK calls
    # on_game_info, on_game_start, then on_hand_end per hand, then on_game_end.
    def on_game_info(self, info: GameInfo) -> None:
        """The full settings of the game about to start (rules the observation does not carry)."""

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        """A new game begins with this bot in ``seat``."""

    def on_hand_end(self, game_id: str, hand: HandSummary) -> None:
        """A hand ended; ``hand.shown`` are the only hidden cards ever revealed."""

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        """The game ended; ``won`` is None when it was interrupted."""
