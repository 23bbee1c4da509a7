"""A fixed integer id for every engine ``Action`` of a game, as learning
libraries want actions (OpenSpiel action ids, PettingZoo ``Discrete`` spaces).

The layout, the same for every variant apart from the raises:

    ids  0-39   play DECK[id]            (the card's ``index``: 1E..12E, 1B.., 1O.., 1C..)
    ids 40-54   envido, real_envido, falta_envido, flor, con_flor_envido,
                contraflor, contraflor_al_resto, con_flor_me_achico, truco,
                retruco, vale_cuatro, vale_nueve, quiero, no_quiero, mazo
    ids 55-59   truco con_flor, retruco con_flor, vale_cuatro con_flor,
                vale_nueve con_flor, quiero con_flor
    ids 60-...  raise 1 .. raise T   (venezolano only: T is the game's target,
                the most a raise can ever add; other variants have no raise ids)

An id is the same action in every state; which ids are legal comes from the
engine's ``legal_actions()`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.engine import DECK, Action, Kind, Options
from arena.engine.actions import play, raise_by, simple
from arena.engine.variants import VARIANT_BY_NAME, EnvidoMode

NUM_CARDS = len(DECK)
SIMPLE_KINDS: tuple[Kind, ...] = (
    Kind.ENVIDO, Kind.REAL_ENVIDO, Kind.FALTA_ENVIDO, Kind.FLOR, Kind.CON_FLOR_ENVIDO,
    Kind.CONTRAFLOR, Kind.CONTRAFLOR_AL_RESTO, Kind.CON_FLOR_ME_ACHICO, Kind.TRUCO,
    Kind.RETRUCO, Kind.VALE_CUATRO, Kind.VALE_NUEVE, Kind.QUIERO, Kind.NO_QUIERO, Kind.MAZO,
)
CON_FLOR_KINDS: tuple[Kind, ...] = (Kind.TRUCO, Kind.RETRUCO, Kind.VALE_CUATRO, Kind.VALE_NUEVE, Kind.QUIERO)
FIRST_SIMPLE = NUM_CARDS
FIRST_CON_FLOR = FIRST_SIMPLE + len(SIMPLE_KINDS)
FIRST_RAISE = FIRST_CON_FLOR + len(CON_FLOR_KINDS)


@dataclass(frozen=True, slots=True)
class ActionIds:
    """The id space of one game: ``max_raise`` is 0 unless envido raises by N."""

    max_raise: int

    @staticmethod
    def for_options(options: Options) -> ActionIds:
        raising = VARIANT_BY_NAME[options.variant].envido_mode is EnvidoMode.RAISE
        # A raise never goes above what the leader still needs, at most the target.
        return ActionIds(options.target if raising else 0)

    def __deepcopy__(self, memo: object) -> ActionIds:
        return self  # immutable: states cloned by OpenSpiel share it

    @property
    def size(self) -> int:
        """How many ids there are (OpenSpiel's ``num_distinct_actions``)."""
        return FIRST_RAISE + self.max_raise

    def id_of(self, action: Action) -> int:
        k = action.kind
        if k is Kind.PLAY:
            assert action.card is not None
            return action.card.index
        if k is Kind.RAISE:
            if not 1 <= action.amount <= self.max_raise:
                raise ValueError(f"{action} is outside this game's raise ids (1..{self.max_raise})")
            return FIRST_RAISE + action.amount - 1
        if action.con_flor:
            return FIRST_CON_FLOR + CON_FLOR_KINDS.index(k)
        return FIRST_SIMPLE + SIMPLE_KINDS.index(k)

    def action_of(self, action_id: int) -> Action:
        """The action an id stands for; ``ValueError`` outside ``0..size-1``."""
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is outside 0..{self.size - 1}")
        if action_id < FIRST_SIMPLE:
            return play(DECK[action_id])
        if action_id < FIRST_CON_FLOR:
            return simple(SIMPLE_KINDS[action_id - FIRST_SIMPLE])
        if action_id < FIRST_RAISE:
            return simple(CON_FLOR_KINDS[action_id - FIRST_CON_FLOR], True)
        return raise_by(action_id - FIRST_RAISE + 1)

    def text_of(self, action_id: int) -> str:
        """The canonical text of an id's action (``play 7O``, ``raise 3``)."""
        return str(self.action_of(action_id))
