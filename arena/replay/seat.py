"""A record cut down to what one seat saw: its own cards, the public table,
and its own views; every other seat's deal and views are dropped."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Card
from .model import GameReplay, HandRecord, Views


def restrict_to_seat(replay: GameReplay, seat: int) -> GameReplay:
    """``replay`` as ``seat`` lived it. ValueError for a seat not in the game."""
    seats = dict(replay.info.options).get("seats")
    if not isinstance(seats, int) or not 0 <= seat < seats:
        raise ValueError(f"no seat {seat} in this game (seats 0-{seats - 1 if isinstance(seats, int) else 0})")

    def keep(views: Views) -> Views:
        return replace(views, seats=tuple(v if s == seat else None for s, v in enumerate(views.seats)))

    def own_deal(hand: HandRecord) -> tuple[tuple[Card, ...] | None, ...]:
        # The seat's cards as its own observation showed them at the deal; nothing of the others.
        view = hand.start.seats[seat]
        mine = view.cards[seat] if view is not None and hand.deal[seat] is not None else None
        return tuple(mine if s == seat else None for s in range(len(hand.deal)))

    hands = tuple(replace(h, deal=own_deal(h), start=keep(h.start)) for h in replay.hands)
    # A bot's stderr is the organizer's alone: a seat's record carries none of it.
    steps = tuple(replace(step, views=keep(step.views), stderr="") for step in replay.steps)
    return replace(replay, hands=hands, steps=steps, viewer=seat, stderr_unanswered="")
