"""Card strength, envido points and flor per variant (docs/rules.md 3.1, 4.4, 5.1).

Everything depends only on the variant and the card turned up (muestra or vira),
so each variant/up-card pair gets one immutable ``Table`` that the state looks up.
The variant's record says which cards the up card promotes (``Variant.specials``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .cards import DECK, NUMBER, Card, Suit
from .variants import VARIANT_BY_NAME, FlorKind, Variant

# Argentino order, strongest first; every other hierarchy builds on it.
_BASE_ORDER: tuple[tuple[str, ...], ...] = (
    ("1E",),
    ("1B",),
    ("7E",),
    ("7O",),
    ("3E", "3B", "3O", "3C"),
    ("2E", "2B", "2O", "2C"),
    ("1O", "1C"),
    ("12E", "12B", "12O", "12C"),
    ("11E", "11B", "11O", "11C"),
    ("10E", "10B", "10O", "10C"),
    ("7B", "7C"),
    ("6E", "6B", "6O", "6C"),
    ("5E", "5B", "5O", "5C"),
    ("4E", "4B", "4O", "4C"),
)


@dataclass(frozen=True, slots=True)
class Table:
    """Per-card facts for one hand: ``rank[i]`` trick strength of DECK[i]
    (higher wins), ``special[i]`` envido value of a pieza/perico/perica (0 for a
    common card)."""

    variant: Variant
    rank: tuple[int, ...]
    special: tuple[int, ...]


def _base_rank() -> list[int]:
    rank = [0] * 40
    for strength, row in enumerate(reversed(_BASE_ORDER), start=1):
        for text in row:
            rank[Card.parse(text).index] = strength
    return rank


def _card(rank: int, suit: Suit) -> Card:
    return DECK[Card(rank, suit).index]


def table(variant: Variant | str, up: Card | None) -> Table:
    """The table of ``variant`` (a record or its name) with ``up`` turned up."""
    v = VARIANT_BY_NAME[variant] if isinstance(variant, str) else variant
    # A dict keyed by the name and the up card's index: hashing the variant
    # record itself (every field, through the dataclass hash) cost more than
    # building a hand. Without specials the up card changes nothing.
    key = (v.name, up.index if up is not None and v.specials else -1)
    t = _TABLES.get(key)
    if t is None or t.variant is not v:
        t = _table(v, up)
        if VARIANT_BY_NAME.get(v.name) is v:  # a record of VARIANT_LIST: keep it
            _TABLES[key] = t
    return t


_TABLES: dict[tuple[str, int], Table] = {}


@cache
def _table(v: Variant, up: Card | None) -> Table:
    rank = _base_rank()
    special = [0] * 40
    top = max(rank)
    if v.specials:
        assert up is not None, f"{v.name} needs a {v.up_card}"
        for place, sp in enumerate(v.specials):
            card = _card(sp.rank, up.suit)
            if card == up:  # "el 12 de su palo la reemplaza"
                card = _card(12, up.suit)
            rank[card.index] = top + len(v.specials) - place
            special[card.index] = sp.envido
    return Table(v, tuple(rank), tuple(special))


def _pair_points(cards: tuple[Card, ...]) -> tuple[int, tuple[Card, ...]]:
    """Common-card envido: 20 + the best two of one suit (the first such pair
    in the hand's order on a tie), else the best single card (the first)."""
    best, proof = -1, cards[:1]
    n = len(cards)
    for i in range(n):
        a = cards[i]
        for j in range(i + 1, n):
            b = cards[j]
            if a.suit is b.suit:
                pts = 20 + NUMBER[a.index] + NUMBER[b.index]
                if pts > best:
                    best, proof = pts, (a, b)
    if best >= 0:
        return best, proof
    high, number = cards[0], NUMBER[cards[0].index]
    for c in cards:
        if NUMBER[c.index] > number:
            high, number = c, NUMBER[c.index]
    return number, (high,)


def envido_points(t: Table, cards: tuple[Card, ...]) -> tuple[int, tuple[Card, ...]]:
    """Envido points of a seat's three cards and the cards that prove them.

    With a pieza (uruguayo) or perico/perica (venezolano): its value + the best
    other card's face number, whatever its suit. **Decision** (the rule book is
    silent): a second pieza counted as "other card" counts its face number too
    (figures 0), as the rule says for commons; this only matters when a flor is
    void or off, since two piezas are always flor. On a tie the first card in
    the hand's order is the one shown.
    """
    special = t.special
    top, value = None, 0
    for c in cards:
        if special[c.index] > value:
            top, value = c, special[c.index]
    if top is None:
        return _pair_points(cards)
    other, number = None, -1
    for c in cards:
        if c is not top and NUMBER[c.index] > number:
            other, number = c, NUMBER[c.index]
    if other is None:  # a single card (a rules helper's question; hands hold three)
        return value, (top,)
    return value + number, (top, other)


def flor_kind(t: Table, cards: tuple[Card, ...]) -> FlorKind | None:
    """A flor: three cards of one suit, or special cards (piezas, perico and
    perica) with commons of one suit; two specials make what the variant says
    (``Variant.two_specials``: a flor, or a flor reservada). None otherwise."""
    special = t.special
    commons = [c for c in cards if not special[c.index]]
    specials = len(cards) - len(commons)
    if specials >= 2:
        return t.variant.two_specials
    if cards[0].suit is cards[1].suit is cards[2].suit:
        return FlorKind.FLOR
    if specials == 1 and commons[0].suit is commons[1].suit:
        return FlorKind.FLOR
    return None


def flor_points(t: Table, cards: tuple[Card, ...]) -> int:
    """Flor points (docs/rules.md 5.1): highest pieza in full, the last digit of the
    other piezas, the face number of commons; without piezas 20 + the three."""
    special = t.special
    specials = sorted((special[c.index] for c in cards if special[c.index]), reverse=True)
    commons = sum(NUMBER[c.index] for c in cards if not special[c.index])
    if not specials:
        return 20 + commons
    return specials[0] + sum(v % 10 for v in specials[1:]) + commons
