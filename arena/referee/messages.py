"""What the referee tells one seat, as typed values. Each value is addressed
to ``seat`` and holds only what that seat may see; the network server turns
them into protocol messages, the in-process player into SDK values."""

from __future__ import annotations

from dataclasses import dataclass

from arena.engine.actions import Action
from arena.engine.cards import Card
from arena.engine.observation import Observation
from arena.engine.options import Options
from arena.engine.outcome import Outcome


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game begins with ``seat`` playing for team ``seat % 2``."""

    seat: int
    options: Options


@dataclass(frozen=True, slots=True)
class Decision:
    """``seat`` is to act: its view of the game and what it may do.
    ``legal_texts[i]`` is the canonical text of ``legal[i]``."""

    seat: int
    observation: Observation
    """``state.observation(seat)``, the engine's own view."""
    legal: tuple[Action, ...]
    legal_texts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended, for ``seat`` (the protocol's HandEnd; a bot gets it as
    ``sdk.HandSummary``, the same values without the seat): built from the public events of the hand
    and ``seat``'s own private ones, nothing else. ``cut_short`` is True for
    the hand in progress when the game ended (target reached in the middle of
    the hand, a fault, an interruption)."""

    seat: int
    hand_number: int
    """0-based."""
    scores: tuple[int, int]
    """Team scores after the hand."""
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    """(seat, cards) shown to prove envido/flor."""
    history: tuple[tuple[int, Action], ...]
    """Every action of the hand, in order."""
    trick_winners: tuple[int | None, ...]
    """Per finished trick: team, None for parda."""
    events: tuple[str, ...]
    """The hand's log lines this seat may see."""
    cut_short: bool = False


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The game is over. ``won`` is None when it ended without a winner."""

    seat: int
    outcome: Outcome

    @property
    def won(self) -> bool | None:
        w = self.outcome.winner
        return None if w is None else w == self.seat % 2


Message = GameStart | Decision | HandEnd | GameEnd
