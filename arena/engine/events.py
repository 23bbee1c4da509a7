"""The referee's event log. Every event says who may see it (docs/rules.md 9)."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


@dataclass(frozen=True, slots=True)
class Event:
    """Base class. ``seat`` is the only seat that may see a private event;
    None means public."""

    @property
    def private_to(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    hand: int
    mano: int
    seats: tuple[int, ...]
    """Seats taking part, in playing order from the mano."""
    up_card: Card | None
    """Muestra (uruguayo) or vira (venezolano)"""
    pico: bool = False
    """A 1-against-1 mini hand of a 6-seat pico-a-pico hand."""

    def __str__(self) -> str:
        up = f", up card {self.up_card}" if self.up_card else ""
        pair = f" (pico a pico {self.seats[0]}-{self.seats[1]})" if self.pico else ""
        return f"hand {self.hand + 1}: mano {self.mano}{up}{pair}"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    seat: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat

    def __str__(self) -> str:
        return f"seat {self.seat} holds {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Acted(Event):
    seat: int
    action: Action

    def __str__(self) -> str:
        return f"{self.seat} {self.action}"


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    trick: int
    """0-based."""
    team: int | None
    """None: parda."""

    def __str__(self) -> str:
        who = "parda" if self.team is None else f"team {self.team}"
        return f"trick {self.trick + 1}: {who}"


@dataclass(frozen=True, slots=True)
class PointsAnnounced(Event):
    """Envido or flor points said aloud when a bet is compared."""

    what: str
    """"envido" or "flor" """
    seat: int
    points: int

    def __str__(self) -> str:
        return f"seat {self.seat} {self.what} {self.points}"


@dataclass(frozen=True, slots=True)
class Scored(Event):
    team: int
    points: int
    reason: str
    """Flor, envido, truco, mazo, flor reservada ..."""

    def __str__(self) -> str:
        return f"team {self.team} +{self.points} ({self.reason})"


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """Cards shown to everybody at the end of a hand to prove envido or flor."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"seat {self.seat} shows {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    hand: int
    scores: tuple[int, int]

    def __str__(self) -> str:
        return f"hand {self.hand + 1} over: {self.scores[0]}-{self.scores[1]}"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winner: int
    scores: tuple[int, int]

    def __str__(self) -> str:
        return f"game over: team {self.winner} wins {self.scores[0]}-{self.scores[1]}"
