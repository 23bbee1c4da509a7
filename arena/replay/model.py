"""The typed, immutable record of one replayed game.

Everything here is a frozen dataclass of plain values (cards are engine
``Card`` objects), so a record can be compared, hashed and exported to JSON
(``export.py``) and read back to an equal record.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..engine import Card


class Category(enum.Enum):
    """The three things a hand's points come from, in the order they are scored."""

    FLOR = "flor"
    ENVIDO = "envido"
    TRUCO = "truco"


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Trick:
    cards: tuple[PlayedCard, ...]
    """In playing order."""
    finished: bool
    """Every seat of the hand has played to it."""
    winner_team: int | None
    """None: parda, or not finished."""


@dataclass(frozen=True, slots=True)
class Call:
    """A call or an answer (anything but a card played), in the order it was made."""

    step: int
    """Index in GameReplay.steps."""
    seat: int
    action: str
    """Canonical action text: "truco", "quiero", "raise 3", "mazo" ..."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """Envido or flor points said aloud when a bet is compared."""

    what: str
    """"envido" or "flor" """
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    step: int
    """The action that scored it."""
    team: int
    points: int
    reason: str
    """The referee's words: "envido", "truco declined", "flor reservada" ..."""
    category: Category


@dataclass(frozen=True, slots=True)
class ShownCards:
    """Cards a seat showed at the end of a hand to prove an envido or a flor."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Pending:
    """The bet waiting for an answer."""

    chain: str
    """"truco", "envido" or "flor" """
    calls: tuple[str, ...]
    caller: int
    answerer: int
    stake: int


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as one onlooker sees it at one moment.

    ``cards[s]`` is seat s's unplayed cards when this onlooker may see them,
    else None; ``cards_left[s]`` is how many it holds (always public).
    """

    hand: int
    """Index in GameReplay.hands."""
    mano: int
    up_card: Card | None
    scores: tuple[int, int]
    cards: tuple[tuple[Card, ...] | None, ...]
    cards_left: tuple[int, ...]
    tricks: tuple[Trick, ...]
    history: tuple[Call, ...]
    """Calls and answers of this hand so far."""
    pending: Pending | None
    announced: tuple[Announcement, ...]
    shown: tuple[ShownCards, ...]
    to_act: int | None
    log: tuple[str, ...]
    """The referee's log of this hand, as this onlooker may read it."""


@dataclass(frozen=True, slots=True)
class Views:
    """One moment seen by a spectator (``public``) and by each seat.
    ``seats[s]`` is None in an export restricted to another seat."""

    public: TableView
    seats: tuple[TableView | None, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One action and the table right after it."""

    index: int
    hand: int
    seat: int
    action: str
    scores: tuple[int, int]
    """Game score after the action."""
    events: tuple[str, ...]
    """The public events the action caused."""
    views: Views
    stderr: str = ""
    """What the acting bot wrote to stderr while choosing this action: text, for the organizer
    only ("" when none, or in a record made for others).
    """


@dataclass(frozen=True, slots=True)
class HandRecord:
    number: int
    """0-based."""
    mano: int
    seats: tuple[int, ...]
    """Seats taking part, in playing order from the mano."""
    pico: bool
    up_card: Card | None
    deal: tuple[tuple[Card, ...] | None, ...]
    """Per seat as dealt; None where hidden from the reader."""
    calls: tuple[Call, ...]
    tricks: tuple[Trick, ...]
    announced: tuple[Announcement, ...]
    scored: tuple[ScoreEntry, ...]
    shown: tuple[ShownCards, ...]
    start_scores: tuple[int, int]
    end_scores: tuple[int, int]
    first_step: int
    """Index of the hand's first step (== last_step + 1 when it has none)"""
    last_step: int
    start: Views
    """The table when the cards have just been dealt."""

    def points(self, category: Category) -> tuple[int, int]:
        """Points per team this hand from ``category``."""
        totals = [0, 0]
        for entry in self.scored:
            if entry.category is category:
                totals[entry.team] += entry.points
        return (totals[0], totals[1])


@dataclass(frozen=True, slots=True)
class GameInfo:
    game_id: str
    bots: tuple[str, ...]
    """Per seat."""
    variant: str
    options: tuple[tuple[str, str | int | bool | None], ...]
    """The engine options, as (key, value)"""
    seed: int
    mano: int
    termination: str
    winner_team: int | None
    reason: str
    scores: tuple[int, int]
    """Final scores of the replay."""


@dataclass(frozen=True, slots=True)
class GameReplay:
    info: GameInfo
    hands: tuple[HandRecord, ...]
    steps: tuple[Step, ...]
    viewer: int | None = None
    """None: the full record; a seat: restricted to what that seat saw."""
    stderr_unanswered: str = ""
    """What the bot that lost by a fault wrote to stderr while deciding the move it never made
    (the organizer's record only; "" when none).
    """
