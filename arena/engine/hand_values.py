"""Rules helpers for bot authors: card strength, envido and flor of a hand.

The referee uses the same tables (``hierarchy.py``), so these answers are the
referee's answers. Each function takes the variant (its record or its name,
as in ``Observation.variant``) and the card turned up (``Observation.up_card``:
the muestra in uruguayo, the vira in venezolano, None in argentino, where it
is ignored).

    rules.card_rank(card, obs.up_card, obs.variant) > rules.card_rank(other, ...)
    rules.envido_points(obs.dealt, obs.up_card, obs.variant)
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card
from .hierarchy import Table, table
from .hierarchy import envido_points as _envido_points
from .hierarchy import flor_kind as _flor_kind
from .hierarchy import flor_points as _flor_points
from .options import variant_named
from .variants import FlorKind, Variant


def card_rank(card: Card, up_card: Card | None, variant: Variant | str) -> int:
    """The strength of ``card`` in a trick: the higher rank wins the trick and
    equal ranks are parda (a tie). The numbers only compare, they mean nothing
    else. Piezas (uruguayo) and perico/perica (venezolano) rank above the 1E."""
    return _table(variant, up_card, (card,)).rank[card.index]


def envido_points(cards: Iterable[Card], up_card: Card | None, variant: Variant | str) -> int:
    """The envido points of one to three cards (envido counts the three dealt
    cards, ``Observation.dealt``): two of one suit 20 + their numbers (figures
    count 0), else the best single number; with a pieza or perico/perica its
    value + the best other card's number."""
    hand = _cards(cards, 1, 3)
    return _envido_points(_table(variant, up_card, hand), hand)[0]


def flor_kind(cards: Iterable[Card], up_card: Card | None, variant: Variant | str) -> FlorKind | None:
    """``FlorKind.FLOR`` if the three cards make a flor in ``variant``,
    ``FlorKind.RESERVADA`` for a venezolano flor reservada (perico + perica),
    else None. Whether flor is played at all is the game's ``flor`` option."""
    hand = _cards(cards, 3, 3)
    return _flor_kind(_table(variant, up_card, hand), hand)


def flor_points(cards: Iterable[Card], up_card: Card | None, variant: Variant | str) -> int:
    """The flor points of three cards that make a flor: 20 + their numbers
    (figures 0); with piezas or perico/perica the highest in full, the last
    digit of the others and the numbers of the common cards."""
    hand = _cards(cards, 3, 3)
    t = _table(variant, up_card, hand)
    if _flor_kind(t, hand) is None:
        raise ValueError(f"{' '.join(map(str, hand))} is not a flor in {t.variant.name}")
    return _flor_points(t, hand)


def _cards(cards: Iterable[Card], low: int, high: int) -> tuple[Card, ...]:
    hand = tuple(cards)
    if not low <= len(hand) <= high:
        want = f"{low}" if low == high else f"{low} to {high}"
        raise ValueError(f"expected {want} cards, got {len(hand)}")
    if not all(isinstance(c, Card) for c in hand):
        raise TypeError(f"expected Card values, got {hand!r}")
    if len(set(hand)) != len(hand):
        raise ValueError(f"a card appears twice in {' '.join(map(str, hand))}")
    return hand


def _table(variant: Variant | str, up_card: Card | None, hand: tuple[Card, ...]) -> Table:
    v = variant_named(variant) if isinstance(variant, str) else variant
    if v.up_card is None:
        return table(v, None)
    if up_card is None:
        raise ValueError(f"{v.name} needs the {v.up_card} (up_card)")
    if up_card in hand:
        raise ValueError(f"{up_card} is the {v.up_card}, so it cannot be in the hand")
    return table(v, up_card)
