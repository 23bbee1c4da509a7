"""What one seat may see (docs/rules.md 9), built only from public facts and the
seat's own cards. Bots receive this, never the ``State``, which builds it
(``state.observe``); this module knows nothing of the state."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .actions import Action
from .cards import Card


@dataclass(frozen=True, slots=True)
class PendingCall:
    """The bet waiting for an answer."""

    chain: str
    """"truco", "envido" or "flor" """
    calls: tuple[str, ...]
    """The chain so far, canonical text ("envido", "raise 3", ...)"""
    caller: int
    """Seat that made the last call."""
    answerer: int
    """Seat that must answer."""
    stake: int
    """What accepting is worth now (0 when it depends on the comparison)"""


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may see now (docs/rules.md 9), for the current hand
    only (finished hands come as ``sdk.HandSummary``). What a Python bot's
    ``choose`` gets; the gRPC Observation and the stdio bots' JSON carry the
    same fields (docs/protocol.md, "The observation"). Seats are numbered
    from 0; seat ``s`` plays for team ``s % 2``."""

    seat: int
    """Your seat."""
    variant: str
    """``"argentino"``, ``"uruguayo"`` or ``"venezolano"``."""
    seats: int
    """Seats at the table: 2, 4 or 6."""
    target: int
    """Points that win the game."""
    scores: tuple[int, int]
    """Team scores now: (team 0, team 1)."""
    hand_number: int
    """Finished hands so far: 0 in the first hand."""
    mano: int
    """The mano of the current hand (or of the pico-a-pico mini hand)."""
    hand_seats: tuple[int, ...]
    """Seats taking part in this hand, in playing order from the mano (two
    seats only in a pico-a-pico mini hand)."""
    pico: bool
    """True in a 1-against-1 pico-a-pico mini hand (argentino, 6 seats)."""
    up_card: Card | None
    """The up card: the muestra (uruguayo) or the vira (venezolano); None in
    argentino, which has none."""
    hand: tuple[Card, ...]
    """Your unplayed cards."""
    dealt: tuple[Card, ...]
    """Your three cards as dealt this hand."""
    hand_start_scores: tuple[int, int]
    """Team scores when this hand was dealt."""
    history: tuple[tuple[int, Action], ...]
    """Every action of this hand, in order: (seat, action)."""
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    """The cards played in each trick of this hand, in playing order: per
    trick, (seat, card) pairs; the last trick may be unfinished."""
    trick_winners: tuple[int | None, ...]
    """One entry per finished trick of this hand: the winning team, or None
    for a parda (a tie)."""
    truco_level: int
    """The accepted truco level: 0 none, 1 truco, 2 retruco, 3 vale cuatro
    (vale nueve in venezolano)."""
    truco_value: int
    """Points the hand's truco is worth now."""
    pending: PendingCall | None
    """The bet waiting for an answer (its chain, calls so far, caller,
    answerer and stake), or None when no bet waits."""
    announced: tuple[tuple[str, int, int], ...]
    """Points said aloud this hand, in order: ("envido" or "flor", seat, points)."""
    flor_declared: tuple[int, ...]
    """Seats that declared a flor this hand."""
    to_act: int | None
    """The seat to act (you, when ``choose`` is called); None when nobody can act."""
    legal: tuple[Action, ...]
    """Your legal actions: empty unless you are to act; ``choose`` returns one of them."""
    events: tuple[str, ...]
    """This hand's public log plus your own private lines ("seat N holds ..."),
    human-readable and free form: for people, not for parsing."""


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
