"""One game as handed to whoever plays it, and what comes back.

A ``GameOrder`` carries the seeds already derived from the tournament
secret, so a worker process (or a node of a cluster) can play the game
without ever holding the secret. A ``GameResult`` is either the row to record
or the reason the game could not be played (``Unplayed``: not a result; the
game is recorded as interrupted and played again on resume)."""

from __future__ import annotations

from dataclasses import dataclass

from .game_record import GameRecord
from .schedule import ScheduledGame
from .seeds import TournamentSecret


@dataclass(frozen=True)
class GameOrder:
    seq: int
    """Position in the schedule."""
    game: ScheduledGame
    deal_seed: int
    game_id: str
    """What the bots see: opaque."""
    rng_seeds: tuple[int, ...]
    """One per seat, for the bots' own randomness."""
    rank: int
    """Where it comes in the order games go out (the secret's ``order``)"""


@dataclass(frozen=True)
class Unplayed:
    """The game ended without a result (the arena stopped, neither bot could play)."""

    game_key: str
    reason: str


GameResult = GameRecord | Unplayed


def order_of(seq: int, game: ScheduledGame, secret: TournamentSecret, seats: int) -> GameOrder:
    return GameOrder(
        seq=seq,
        game=game,
        deal_seed=secret.deal_seed(game.deal),
        game_id=secret.game_id(game.key),
        rng_seeds=tuple(secret.rng_seed(game.key, s) for s in range(seats)),
        rank=secret.order(game.key),
    )
