"""What the checks share: the arena, the bot process under test, the games
played so far, and the one way to play another game."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.engine.options import make_options
from arena.errors import DomainError
from arena.games.seeds import GAME_ID_HEX_DIGITS
from arena.server import (
    Arena,
    ArenaClosedError,
    BotUnavailableError,
    PlayedGame,
    TimeControl,
)
from arena.server.connection import Connection
from arena.tournament.launcher import LaunchedBot

from .faults import Fault, fault_of
from .rejections import RejectionLog
from .settings import CheckSettings, opponent_names

_ACQUIRE_SLICE = 0.5  # seconds


class CannotPlayError(DomainError):
    """A game could not start: the message says why (e.g. the bot has no stream)."""


@dataclass
class CheckContext:
    settings: CheckSettings
    arena: Arena
    address: str
    rejections: RejectionLog
    bot: LaunchedBot | None = None
    connected: bool = False  # set by the hello check
    games: list[PlayedGame] = field(default_factory=list)  # every game played, in order
    # Deals, game ids, seeds and the opponents' names: drawn like a
    # tournament's (fresh, 63-bit, opaque), from ``settings.seed`` when given.
    rng: random.Random = field(default_factory=random.SystemRandom)
    opponent: str = ""  # the name of the ordinary opponent (a launched sample bot)
    staller: str = ""  # the name of the in-process opponent that times out on purpose
    _game_numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        if self.settings.seed is not None:
            self.rng = random.Random(self.settings.seed)
        if not self.opponent:
            self.opponent, self.staller = opponent_names(self.rng, self.settings.name)

    @property
    def name(self) -> str:
        return self.settings.name

    # ------------------------------------------------------------- the bot

    def exit_note(self) -> str | None:
        """"the bot's process exited with code N" once it has, else None."""
        if self.bot is None or not self.bot.exited:
            return None
        return f"the bot's process exited with code {self.bot.process.returncode} (see {self.bot.log_path})"

    def streams(self) -> list[Connection]:
        """The bot's open streams."""
        return [c for c in self.arena.pool.connections() if c.name == self.name and c.alive]

    # --------------------------------------------------------------- games

    def seats_for(self, seats: int, bot_team: int) -> list[str]:
        """Seat names: the bot in every seat of ``bot_team``, the opponent elsewhere."""
        return [self.name if s % 2 == bot_team else self.opponent for s in range(seats)]

    async def play(
        self, check: str, seat_names: Sequence[str], variant: str, time_control: TimeControl | None = None
    ) -> PlayedGame:
        """Play one game with ``seat_names[s]`` in seat ``s``; CannotPlayError if it cannot start."""
        note = self.exit_note()
        if note is not None:
            raise CannotPlayError(note)
        next(self._game_numbers)
        # As a tournament draws them (arena/games/seeds.py): nothing in the
        # GameStart names the check or repeats from one run to the next.
        seed = self.rng.getrandbits(63)
        game_id = f"{self.rng.getrandbits(4 * GAME_ID_HEX_DIGITS):0{GAME_ID_HEX_DIGITS}x}"
        options = make_options(variant, {"seats": len(seat_names)})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.timeout
        while True:
            # Short waits for idle streams, so that a bot whose process died
            # is reported at once rather than after the whole timeout.
            slice_ = max(0.01, min(_ACQUIRE_SLICE, deadline - loop.time()))
            try:
                record = await self.arena.play_seats(
                    seat_names, options, seed, time_control or self.settings.time_control,
                    acquire_timeout=slice_,
                    game_id=game_id,
                    rng_seeds=[self.rng.getrandbits(63) for _ in seat_names],
                )
                break
            except BotUnavailableError:
                note = self.exit_note()
                if note is not None:
                    raise CannotPlayError(note) from None
                if loop.time() >= deadline:
                    raise CannotPlayError(self._unavailable(seat_names.count(self.name))) from None
            except ArenaClosedError:
                raise CannotPlayError("the arena is shutting down") from None
        self.games.append(record)
        return record

    def _unavailable(self, needed: int) -> str:
        status = self.arena.bots().get(self.name)
        have = "no stream open" if status is None else f"{status.streams} stream(s) open, {status.idle} idle"
        return f"the game needs {needed} idle stream(s) of the bot; after {self.settings.timeout:g} s it has {have}"

    def fault(self, record: PlayedGame) -> Fault | None:
        return fault_of(record, self.name)

    def faults(self) -> list[Fault]:
        """The bot's faults over every game played so far, in order."""
        return [f for r in self.games if (f := self.fault(r)) is not None]

    def slowest_answer(self) -> float:
        """Seconds, the longest the bot took for a Move the arena accepted (0 when none)."""
        # move_times is aligned with actions; strict=False so that a record
        # that ever differs costs a figure, not the run.
        return max(
            (t for r in self.games for a, t in zip(r.actions, r.move_times, strict=False) if self._by_bot(r, a)),
            default=0.0,
        )

    def _by_bot(self, record: PlayedGame, action: str) -> bool:
        """Whether ``action`` ("SEAT ACTION") of ``record`` was the bot's."""
        return record.bots[int(action.split(" ", 1)[0])] == self.name

    def decisions_answered(self) -> int:
        """Moves of the bot the arena accepted, over every game played so far."""
        return sum(
            1 for r in self.games for a in r.actions if self._by_bot(r, a)
        )
