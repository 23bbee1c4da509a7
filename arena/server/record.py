"""What the arena hands back: the clock settings and the record of one game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.engine.options import Options
from arena.engine.outcome import Outcome, Termination


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Each move may take ``move_time`` seconds for free; time beyond that comes
    out of the seat's ``bank`` (seconds for the whole game). An answer that
    would overdraw the bank is a timeout."""

    move_time: float = 1.0
    bank: float = 10.0

    def __post_init__(self) -> None:
        if self.move_time <= 0 or self.bank < 0:
            raise ValueError(f"time control: move_time must be > 0 and bank >= 0, got {self.move_time}, {self.bank}")


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game played through the arena. ``actions`` replays it exactly:
    ``Game(options).new_state(seed=seed)`` then apply each ``"SEAT ACTION"``."""

    game_id: str
    bots: tuple[str, ...]
    """Bot name per seat; seat s plays for team s % 2."""
    options: Options
    seed: int
    time_control: TimeControl
    outcome: Outcome
    """Termination, winner team, scores, hands played, faulty seat."""
    actions: tuple[str, ...]
    move_times: tuple[float, ...]
    """Per answered Decision, aligned with ``actions``: seconds from the moment the Decision's
    write to the stream completed to the moment its Move was read (what the clock charged;
    docs/protocol.md "What the clock measures").
    """
    duration: float
    """Seconds, from the first GameStart to the GameEnd."""
    reason: str
    """One line for humans."""
    hands: int = 0
    """Hands dealt, including the one the game ended in (the engine's ``outcome.hands_played``
    counts only hands that ran to their end).
    """
    rng_seeds: tuple[int, ...] | None = None
    """The per-seat seeds given in GameStart, if any."""
    fallbacks: tuple[int, ...] = ()
    """Per seat, the Moves it marked as a fallback (Move.fallback: its code failed and it played
    a legal action instead); () when not counted.
    """
    waited: float | None = None
    """A timeout: seconds the seat at fault had been on its clock when the arena gave up on it
    (the results store keeps it as evidence); None otherwise.
    """
    stderr: tuple[tuple[int, str], ...] = ()
    """(decision index, text): what a bot wrote to stderr while deciding (Move.stderr), for the
    organizer's replay only; the index counts the game's decisions like ``actions``, one past
    them for a decision that was never answered (a forfeit).
    """

    @property
    def termination(self) -> Termination:
        return self.outcome.termination

    @property
    def scores(self) -> tuple[int, int]:
        return self.outcome.scores

    @property
    def winner_seat(self) -> int | None:
        """The winning team's first seat, as the game record stores it (seat s plays for team s % 2)."""
        return self.outcome.winner

    @property
    def winner_bot(self) -> str | None:
        w = self.outcome.winner
        return None if w is None else self.bots[w]

    @property
    def faulty_seat(self) -> int | None:
        return self.outcome.faulty_seat

    @property
    def faulty_bot(self) -> str | None:
        f = self.outcome.faulty_seat
        return None if f is None else self.bots[f]

    @property
    def hands_played(self) -> int:
        return self.outcome.hands_played

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "bots": list(self.bots),
            "options": self.options.to_dict(),
            "seed": self.seed,
            "rng_seeds": None if self.rng_seeds is None else list(self.rng_seeds),
            "time_control": {"move_time": self.time_control.move_time, "bank": self.time_control.bank},
            **self.outcome.to_dict(),
            "winner_bot": self.winner_bot,
            "faulty_bot": self.faulty_bot,
            "duration": round(self.duration, 6),
            "reason": self.reason,
            "hands": self.hands,
            "actions": list(self.actions),
            "move_times": [round(t, 6) for t in self.move_times],
            "fallbacks": list(self.fallbacks),
        }
