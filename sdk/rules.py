"""Rules helpers for a bot: card strength, envido and flor of a hand.

They take what a bot has in its ``Observation`` and answer as the referee
does::

    from sdk import rules

    def choose(self, obs):
        mine = rules.envido_points(obs.dealt, obs.up_card, obs.variant)
        best = max(obs.hand, key=lambda c: rules.card_rank(c, obs.up_card, obs.variant))

``up_card`` is ``obs.up_card`` (the muestra in uruguayo, the vira in
venezolano, None in argentino). Cards may also be given as text ("7O").
A wrong input (no up card where the variant turns one up, a repeated card,
an unknown variant) raises ``ValueError`` saying what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.engine import hand_values as _rules
from arena.engine.cards import Card
from arena.engine.variants import FlorKind

CardLike = Card | str

__all__ = ["CardLike", "FlorKind", "card_rank", "envido_points", "flor_kind", "flor_points"]


def card_rank(card: CardLike, up_card: CardLike | None, variant: str) -> int:
    """The strength of ``card`` in a trick: higher beats lower, equal ranks
    are parda. Only comparisons between ranks mean anything."""
    return _rules.card_rank(_card(card), _up(up_card), variant)


def envido_points(cards: Iterable[CardLike], up_card: CardLike | None, variant: str) -> int:
    """Envido points of one to three cards; envido counts the three dealt
    cards, so pass ``obs.dealt`` (``obs.hand`` loses the cards played)."""
    return _rules.envido_points(_hand(cards), _up(up_card), variant)


def flor_kind(cards: Iterable[CardLike], up_card: CardLike | None, variant: str) -> FlorKind | None:
    """``FlorKind.FLOR``, ``FlorKind.RESERVADA`` (venezolano perico + perica)
    or None, for three cards."""
    return _rules.flor_kind(_hand(cards), _up(up_card), variant)


def flor_points(cards: Iterable[CardLike], up_card: CardLike | None, variant: str) -> int:
    """Flor points of three cards that make a flor (``ValueError`` otherwise)."""
    return _rules.flor_points(_hand(cards), _up(up_card), variant)


def _card(card: CardLike) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


def _up(card: CardLike | None) -> Card | None:
    return None if card is None else _card(card)


def _hand(cards: Iterable[CardLike]) -> tuple[Card, ...]:
    return tuple(_card(c) for c in cards)
