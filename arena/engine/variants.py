"""The variants as data: one frozen ``Variant`` record per variant.

The referee never asks "is this venezolano?": it reads the record of the
game's variant (its ``Game.variant``), which says which seat counts exist,
which truco calls there are and what they are worth, how the envido and the
flor contest are bet, and whether a card is turned up and which cards of its
suit it promotes.

How to add a variant
--------------------
1. Write a ``Variant(...)`` record below (start from the closest one; every
   field is documented on the class) and add it to ``VARIANT_LIST``. Its name
   becomes a valid ``make_options`` / ``Game`` variant and its defaults give
   the preset ``Options``.
2. Add tests: hands worked out by hand for the card order, envido and flor
   (``tests/engine/test_engine_rules.py``), scenario files for the bets that
   differ (``tests/scenarios/``), and the variant to the random-play
   configurations (``tests/engine/test_engine_random_play.py``).
3. Only a rule that no field describes needs engine code: add a field for it
   here rather than a test of the variant's name.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .actions import Kind


class EnvidoMode(enum.Enum):
    """How the envido (and, alike, the flor contest) is bet."""

    # Rule 4.2: named calls in a fixed order (envido, envido, real envido,
    # falta envido), each worth its ``envido_values`` entry.
    CHAINED = "chained"
    # Venezolano: "envido" for 2, then "raise N" adds N to the stake, which
    # may not exceed what the leading side still needs (rule 4.3).
    RAISE = "raise"


class EnvidoState(enum.Enum):
    """Where the hand's envido stands; there is at most one chain per hand."""

    NOT_STARTED = "not_started"
    WAITING = "waiting"  # a call waits for an answer
    SETTLED = "settled"  # accepted or declined
    CANCELLED = "cancelled"  # a declared flor cancelled it (rule 5.2)


class FlorKind(enum.StrEnum):
    """What a hand holds: a flor to declare, or (venezolano) a flor reservada.

    A ``StrEnum``, so it also equals its text ("flor", "reservada")."""

    FLOR = "flor"
    RESERVADA = "reservada"  # never declared; paid at the end of the hand (rule 5.4)


class FaltaMode(enum.StrEnum):
    """What a falta envido is worth (``Options.falta_envido`` holds the text)."""

    LEADER = "leader"  # what the leading side still needs to reach the target
    MALAS_BUENAS = "malas_buenas"  # in the malas: what the leader needs to reach half


class ContraflorResto(enum.Enum):
    """What an accepted "contraflor al resto" is worth."""

    WINNER_NEEDS = "winner_needs"  # what the winning side needs to reach the target
    FALTA = "falta"  # the falta, as for a falta envido


@dataclass(frozen=True, slots=True)
class Special:
    """A card of the up card's suit that ranks above the 1E: its face rank
    and its envido value. When the up card is itself a special card, the 12
    of its suit takes that card's place."""

    rank: int
    envido: int


@dataclass(frozen=True, slots=True)
class Variant:
    """Every rule that differs between variants."""

    name: str
    seats: tuple[int, ...]
    """Seat counts allowed; the first is the preset's."""
    default_target: int
    falta_modes: tuple[FaltaMode, ...]
    """Falta envido modes allowed, the first being the preset's; empty when the variant has no
    falta envido.
    """
    pico_a_pico_seats: int | None
    """The seat count at which pico a pico (rule 8) exists, else None."""
    truco_calls: tuple[Kind, Kind, Kind]
    """The three truco calls in order, and the hand's value at levels 0-3 (nothing accepted,
    then each call accepted).
    """
    truco_values: tuple[int, int, int, int]
    envido_mode: EnvidoMode
    envido_values: tuple[tuple[Kind, int], ...]
    """Chained mode: what each named call adds when the chain is accepted."""
    up_card: str | None
    """The name of the card turned up after the deal ("muestra", "vira"), or None when no card
    is turned up.
    """
    specials: tuple[Special, ...]
    """The cards of the up card's suit promoted above the 1E, strongest first."""
    two_specials: FlorKind
    """What two (or more) special cards in one hand make."""
    flor_with_truco: bool
    """Venezolano: a flor is declared with a truco call or quiero ("truco con_flor"); any other
    truco call or quiero voids it.
    """
    flor_answers: tuple[Kind, ...]
    """The answers to a declared flor (besides "raise N" in RAISE mode) and the stake each sets
    when it waits for a quiero.
    """
    flor_stakes: tuple[tuple[Kind, int], ...]
    flor_pays_every_declared: bool
    """Flor answered with flor: 3 for each declared flor (True) or 3 in all."""
    contraflor_resto: ContraflorResto | None
    """None when there is no contraflor al resto."""

    @property
    def envido_openers(self) -> tuple[Kind, ...]:
        """The calls that open an envido."""
        if self.envido_mode is EnvidoMode.RAISE:
            return (Kind.ENVIDO,)
        return (Kind.ENVIDO, Kind.REAL_ENVIDO) + ((Kind.FALTA_ENVIDO,) if self.falta_modes else ())

    def envido_value(self, call: Kind) -> int:
        """Chained mode: the points ``call`` adds; 0 for the falta envido."""
        return dict(self.envido_values).get(call, 0)

    def flor_stake(self, call: Kind) -> int:
        """The stake an answer to a flor sets; 0 for the contraflor al resto,
        whose value is worked out when it is accepted."""
        return dict(self.flor_stakes).get(call, 0)


ARGENTINO = Variant(
    name="argentino",
    seats=(2, 4, 6),
    default_target=30,
    falta_modes=(FaltaMode.LEADER, FaltaMode.MALAS_BUENAS),
    pico_a_pico_seats=6,
    truco_calls=(Kind.TRUCO, Kind.RETRUCO, Kind.VALE_CUATRO),
    truco_values=(1, 2, 3, 4),
    envido_mode=EnvidoMode.CHAINED,
    envido_values=((Kind.ENVIDO, 2), (Kind.REAL_ENVIDO, 3)),
    up_card=None,
    specials=(),
    two_specials=FlorKind.FLOR,
    flor_with_truco=False,
    flor_answers=(Kind.FLOR, Kind.CON_FLOR_ENVIDO, Kind.CONTRAFLOR, Kind.CONTRAFLOR_AL_RESTO,
                  Kind.CON_FLOR_ME_ACHICO),
    flor_stakes=((Kind.CON_FLOR_ENVIDO, 5), (Kind.CONTRAFLOR, 6)),
    flor_pays_every_declared=True,
    contraflor_resto=ContraflorResto.WINNER_NEEDS,
)

URUGUAYO = Variant(
    name="uruguayo",
    seats=(2,),
    default_target=30,
    falta_modes=(FaltaMode.LEADER, FaltaMode.MALAS_BUENAS),
    pico_a_pico_seats=None,
    truco_calls=(Kind.TRUCO, Kind.RETRUCO, Kind.VALE_CUATRO),
    truco_values=(1, 2, 3, 4),
    envido_mode=EnvidoMode.CHAINED,
    envido_values=((Kind.ENVIDO, 2), (Kind.REAL_ENVIDO, 3)),
    up_card="muestra",
    # The piezas: 2, 4, 5, 11, 10 of the muestra's suit.
    specials=(Special(2, 30), Special(4, 29), Special(5, 28), Special(11, 27), Special(10, 27)),
    two_specials=FlorKind.FLOR,
    flor_with_truco=False,
    flor_answers=(Kind.FLOR, Kind.CON_FLOR_ENVIDO, Kind.CONTRAFLOR_AL_RESTO, Kind.CON_FLOR_ME_ACHICO),
    flor_stakes=((Kind.CON_FLOR_ENVIDO, 5),),
    flor_pays_every_declared=False,
    contraflor_resto=ContraflorResto.FALTA,
)

VENEZOLANO = Variant(
    name="venezolano",
    seats=(2,),
    default_target=24,
    falta_modes=(),
    pico_a_pico_seats=None,
    truco_calls=(Kind.TRUCO, Kind.RETRUCO, Kind.VALE_NUEVE),
    truco_values=(1, 3, 6, 9),
    envido_mode=EnvidoMode.RAISE,
    envido_values=(),
    up_card="vira",
    # Perico (the 11 of the vira's suit) and perica (its 10).
    specials=(Special(11, 30), Special(10, 29)),
    two_specials=FlorKind.RESERVADA,
    flor_with_truco=True,
    flor_answers=(Kind.FLOR,),
    flor_stakes=(),
    flor_pays_every_declared=False,
    contraflor_resto=None,
)

VARIANT_LIST: tuple[Variant, ...] = (ARGENTINO, URUGUAYO, VENEZOLANO)
VARIANT_BY_NAME: dict[str, Variant] = {v.name: v for v in VARIANT_LIST}
