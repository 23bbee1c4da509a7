"""What one seat may see (docs/rules.md 9), built only from public facts and the
seat's own cards. Bots receive this, never the ``State``."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from .actions import Action, Kind
from .cards import Card
from .variants import ContraflorResto, EnvidoMode, EnvidoState

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class PendingCall:
    """The bet waiting for an answer."""

    chain: str  # "truco", "envido" or "flor"
    calls: tuple[str, ...]  # the chain so far, canonical text ("envido", "raise 3", ...)
    caller: int  # seat that made the last call
    answerer: int  # seat that must answer
    stake: int  # what accepting is worth now (0 when it depends on the comparison)


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    variant: str
    seats: int
    target: int
    scores: tuple[int, int]  # team scores now
    hand_number: int  # 0-based, counting finished hands
    mano: int  # mano of the current hand (or pico-a-pico mini hand)
    hand_seats: tuple[int, ...]  # seats in this hand, in playing order from the mano
    pico: bool
    up_card: Card | None  # muestra (uruguayo) or vira (venezolano)
    hand: tuple[Card, ...]  # own unplayed cards
    dealt: tuple[Card, ...]  # own three cards as dealt
    hand_start_scores: tuple[int, int]
    history: tuple[tuple[int, Action], ...]  # every action of this hand, in order
    tricks: tuple[tuple[tuple[int, Card], ...], ...]  # cards played per trick of this hand
    trick_winners: tuple[int | None, ...]  # per finished trick: team, None for parda
    truco_level: int  # accepted truco level (0 none)
    truco_value: int  # points the hand's truco is worth now
    pending: PendingCall | None
    announced: tuple[tuple[str, int, int], ...]  # ("envido"|"flor", seat, points)
    flor_declared: tuple[int, ...]  # seats that declared a flor this hand
    to_act: int | None
    legal: tuple[Action, ...]  # empty unless this seat is to act
    events: tuple[str, ...]  # the public log of this hand, human-readable


# The frozen dataclass's __init__ sets each of the 24 fields through
# object.__setattr__, which made building an observation most of its cost; a
# search bot builds one per rollout decision. This sets the slots directly,
# in field order (tests/engine/test_engine_observation_build.py holds it to
# the constructor).
_SETTERS = tuple(getattr(Observation, f.name).__set__ for f in fields(Observation))


def _observation(*values: object) -> Observation:
    obs = Observation.__new__(Observation)
    for set_field, value in zip(_SETTERS, values, strict=True):
        set_field(obs, value)
    return obs


def pending_call(state: State) -> PendingCall | None:
    """The bet of ``state``'s hand waiting for an answer, if any (public)."""
    h = state.hand
    c = h.contest
    if c is not None:
        stake = c.stake if c.last is not None else 3
        if c.last is Kind.CONTRAFLOR_AL_RESTO:
            # The falta, or what the winner needs: 0, as it depends on the comparison.
            falta = state.game.variant.contraflor_resto is ContraflorResto.FALTA
            stake = state._falta() if falta else 0
        return PendingCall("flor", tuple(c.calls), c.caller, c.facing(), stake)
    if h.env_state is EnvidoState.WAITING:
        stake = h.env_stake if state.game.variant.envido_mode is EnvidoMode.RAISE else 0
        return PendingCall("envido", tuple(h.env_texts), h.env_caller, h.nxt[h.env_caller], stake)
    if h.truco_call is not None:
        level, caller, answerer = h.truco_call
        calls = tuple(k.value for k in state.game.truco_calls[:level])
        return PendingCall("truco", calls, caller, answerer, state.game.truco_values[level])
    return None


def observe(state: State, seat: int, log: bool = True) -> Observation:
    """``seat``'s view of ``state``. ``log=False`` leaves ``events`` empty: the
    text log is the costly part, and searching bots do not read it."""
    h = state.hand
    pending = pending_call(state)
    tricks = h.tricks + (h.trick,) if h.trick else h.tricks
    to_act = state.current_player()
    lines = _log(state, seat) if log else ()
    deal = state._deal
    return _observation(
        seat,  # seat
        state.options.variant,  # variant
        state.options.seats,  # seats
        state.options.target,  # target
        state.scores,  # scores
        state.hands_played,  # hand_number
        h.seats[0],  # mano
        h.seats,  # hand_seats
        h.pico,  # pico
        deal.up if deal else None,  # up_card
        state.unplayed(seat),  # hand
        deal.hands[seat] if deal else (),  # dealt
        h.start_scores,  # hand_start_scores
        tuple(h.history),  # history
        tricks,  # tricks
        tuple(None if r < 0 else r for r in h.results),  # trick_winners
        h.truco_level,  # truco_level
        state.game.truco_values[h.truco_level],  # truco_value
        pending,  # pending
        tuple(h.announced),  # announced
        tuple(h.flor_declared),  # flor_declared
        to_act,  # to_act
        state.legal_actions() if to_act == seat else (),  # legal
        lines,  # events
    )



def _log(state: State, seat: int) -> tuple[str, ...]:
    """This hand's events that ``seat`` may see, as text."""
    texts, private = state._event_lists()
    return tuple([
        texts[i] for i in range(state.hand_events_start(), len(texts))
        if private[i] is None or private[i] == seat
    ])
