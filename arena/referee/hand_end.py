"""The hidden-card rule for hand summaries, in one place.

After a hand a seat may learn what it saw during the hand (every action, every
card played, the tricks, the scores, the announced points) plus the cards
shown to prove a won envido or flor. It may never learn another seat's
unplayed cards, a teammate's included. In the event log that is exactly: the
events whose ``private_to`` is None (public) and those private to the seat
itself (its own deal). Nothing else from the hand's events goes into a
summary, and nothing goes in that is not taken from those events.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.engine import events as ev
from arena.engine.actions import Action
from arena.engine.cards import Card

from .messages import HandEnd


def hand_ends(
    seats: int,
    hand_number: int,
    scores: tuple[int, int],
    events: Sequence[ev.Event],
    texts: Sequence[str],
    private: Sequence[int | None],
    cut_short: bool,
) -> tuple[HandEnd, ...]:
    """One summary per seat of the hand whose events are ``events``.
    ``texts[i]`` and ``private[i]`` are ``str(events[i])`` and
    ``events[i].private_to``, as ``State.event_log`` keeps them (formatted
    once per game, not once per seat)."""
    out: list[HandEnd] = []
    for seat in range(seats):
        lines: list[str] = []
        history: list[tuple[int, Action]] = []
        winners: list[int | None] = []
        shown: list[tuple[int, tuple[Card, ...]]] = []
        for i, e in enumerate(events):
            p = private[i]
            if p is not None and p != seat:
                continue  # another seat's private event: its cards stay hidden
            lines.append(texts[i])
            if isinstance(e, ev.Acted):
                history.append((e.seat, e.action))
            elif isinstance(e, ev.TrickWon):
                winners.append(e.team)
            elif isinstance(e, ev.Shown):
                shown.append((e.seat, e.cards))
        out.append(
            HandEnd(
                seat, hand_number, scores, tuple(shown), tuple(history), tuple(winners), tuple(lines), cut_short
            )
        )
    return tuple(out)
