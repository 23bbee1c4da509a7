"""The Spanish 40-card deck: typed cards with a text round trip (``7O``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Suit(enum.Enum):
    ESPADAS = "E"
    BASTOS = "B"
    OROS = "O"
    COPAS = "C"

    def __str__(self) -> str:
        return self.value


RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
SUITS: tuple[Suit, ...] = (Suit.ESPADAS, Suit.BASTOS, Suit.OROS, Suit.COPAS)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``index`` (0..39) is a dense id used for table lookups."""

    rank: int
    suit: Suit
    index: int = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)
    """"7O"; same as str(card)"""

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise ValueError(f"invalid rank {self.rank}: a Spanish deck has 1-7, 10, 11, 12")
        if not isinstance(self.suit, Suit):
            raise ValueError(f"invalid suit {self.suit!r}")
        # Stored, not computed: the engine looks it up on every trick.
        object.__setattr__(self, "index", SUITS.index(self.suit) * 10 + RANKS.index(self.rank))
        # Stored too: every observation sent to a bot spells out a dozen cards.
        object.__setattr__(self, "text", f"{self.rank}{self.suit.value}")

    @property
    def number(self) -> int:
        """Envido value of a common card: its number, figures (10-12) count 0."""
        return self.rank if self.rank <= 7 else 0

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"7O"``, ``"12C"``, ``"1e"`` (suit letter case-insensitive)."""
        card = CARD_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ValueError(f"not a card: {text!r} (expected rank 1-7/10-12 then E, B, O or C, e.g. 7O)")
        return card

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        # The dense index identifies the card; hashing (rank, suit) through
        # the enum costs ~10x more, and the engine keeps cards in sets.
        return self.index

    # Cards are values; copies share the interned instance.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
CARD_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
# ``NUMBER[card.index]`` is ``card.number``: a tuple lookup instead of a
# property call, for the envido and flor sums the engine and the bots add up.
NUMBER: tuple[int, ...] = tuple(card.number for card in DECK)
# Cards are interned: DECK[card.index] is card, so identity and equality agree.
assert all(DECK[c.index] == c for c in DECK)
