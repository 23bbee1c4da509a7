"""What an onlooker sees at one moment, read from the engine's own observer.

A seat's view is ``state.observation(seat)`` turned into a ``TableView``: the
engine decides what the seat may see, nothing here second-guesses it. The
spectator's view is ``arena.referee.spectator_observation`` turned into one.
"""

from __future__ import annotations

from ..engine import Kind, State
from ..engine import events as ev
from ..engine.observation import Observation
from ..referee import spectator_observation
from .model import Announcement, Call, Pending, PlayedCard, ShownCards, TableView, Trick, Views

CARDS_PER_SEAT = 3


def views_of(state: State, hand: int, first_step: int) -> Views:
    """The spectator's and every seat's view of ``state``; ``hand`` is the
    hand's index in the record, ``first_step`` the step of its first action."""
    seats = state.options.seats
    observations = [state.observation(seat) for seat in range(seats)]
    shown = _shown(state)
    return Views(public_view(state, hand, first_step), tuple(
        _table_view(obs, hand, first_step, obs.seat, obs.events, shown) for obs in observations
    ))


def public_view(state: State, hand: int, first_step: int) -> TableView:
    """The spectator's view of ``state`` (``arena.referee.spectator_observation``,
    the one definition the live page shares)."""
    seen = spectator_observation(state)
    return _table_view(seen, hand, first_step, None, seen.events, _shown(state))


def _shown(state: State) -> tuple[ShownCards, ...]:
    # Shown is a public event: the proof of an envido or flor, shown to everybody.
    return tuple(ShownCards(e.seat, e.cards) for e in state.events[state.hand_events_start():]
                 if isinstance(e, ev.Shown))


def _table_view(obs: Observation, hand: int, first_step: int, seat: int | None,
                log: tuple[str, ...], shown: tuple[ShownCards, ...]) -> TableView:
    plays = [s for s, action in obs.history if action.kind is Kind.PLAY]
    tricks = tuple(
        Trick(tuple(PlayedCard(s, card) for s, card in cards), i < len(obs.trick_winners),
              obs.trick_winners[i] if i < len(obs.trick_winners) else None)
        for i, cards in enumerate(obs.tricks)
    )
    history = tuple(Call(first_step + i, s, str(action)) for i, (s, action) in enumerate(obs.history)
                    if action.kind is not Kind.PLAY)
    pending = None
    if obs.pending is not None:
        p = obs.pending
        pending = Pending(p.chain, p.calls, p.caller, p.answerer, p.stake)
    return TableView(
        hand=hand,
        mano=obs.mano,
        up_card=obs.up_card,
        scores=obs.scores,
        cards=tuple(obs.hand if s == seat else None for s in range(obs.seats)),
        cards_left=tuple(CARDS_PER_SEAT - plays.count(s) if s in obs.hand_seats else 0 for s in range(obs.seats)),
        tricks=tricks,
        history=history,
        pending=pending,
        announced=tuple(Announcement(what, s, points) for what, s, points in obs.announced),
        shown=shown,
        to_act=obs.to_act,
        log=log,
    )
