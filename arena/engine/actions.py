"""Actions a seat can take, with the canonical text form of docs/rules.md appendix A.

``str(action)`` and ``Action.parse(text)`` round-trip: ``play 7O``, ``envido``,
``raise 3``, ``truco con_flor``, ``quiero``, ``mazo`` ...
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache, lru_cache

from .cards import DECK, Card


class Kind(enum.Enum):
    PLAY = "play"
    ENVIDO = "envido"
    REAL_ENVIDO = "real_envido"
    FALTA_ENVIDO = "falta_envido"
    RAISE = "raise"
    FLOR = "flor"
    CON_FLOR_ENVIDO = "con_flor_envido"
    CONTRAFLOR = "contraflor"
    CONTRAFLOR_AL_RESTO = "contraflor_al_resto"
    CON_FLOR_ME_ACHICO = "con_flor_me_achico"
    TRUCO = "truco"
    RETRUCO = "retruco"
    VALE_CUATRO = "vale_cuatro"
    VALE_NUEVE = "vale_nueve"
    QUIERO = "quiero"
    NO_QUIERO = "no_quiero"
    MAZO = "mazo"


TRUCO_CALLS = (Kind.TRUCO, Kind.RETRUCO, Kind.VALE_CUATRO, Kind.VALE_NUEVE)
ENVIDO_CALLS = (Kind.ENVIDO, Kind.REAL_ENVIDO, Kind.FALTA_ENVIDO)
_KIND_BY_TEXT = {k.value: k for k in Kind}


@dataclass(frozen=True, slots=True)
class Action:
    """One action. ``card`` only for PLAY, ``amount`` only for RAISE;
    ``con_flor`` marks a venezolano truco call or quiero that declares a flor."""

    kind: Kind
    card: Card | None = None
    amount: int = 0
    con_flor: bool = False
    text: str = field(init=False, compare=False, repr=False)
    """The canonical text, same as str(action); stored because every decision sent to a bot
    spells out the legal actions and the hand's history.
    """

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self._spell())

    def _spell(self) -> str:
        if self.kind is Kind.PLAY:
            return f"play {self.card}"
        if self.kind is Kind.RAISE:
            return f"raise {self.amount}"
        text: str = self.kind.value
        return f"{text} con_flor" if self.con_flor else text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Parse canonical action text; raises ValueError with the reason."""
        return _parse(" ".join(text.split()).lower())


@lru_cache(maxsize=512)
def _parse(text: str) -> Action:
    words = text.split(" ")
    kind = _KIND_BY_TEXT.get(words[0]) if words and words[0] else None
    if kind is None:
        raise ValueError(f"unknown action {text!r}")
    if kind is Kind.PLAY:
        if len(words) != 2:
            raise ValueError(f"{text!r}: expected 'play CARD', e.g. 'play 7O'")
        return play(Card.parse(words[1]))
    if kind is Kind.RAISE:
        if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 1:
            raise ValueError(f"{text!r}: expected 'raise N' with a whole number N >= 1")
        return Action(Kind.RAISE, amount=int(words[1]))
    if len(words) == 2 and words[1] == "con_flor" and kind in TRUCO_CALLS + (Kind.QUIERO,):
        return Action(kind, con_flor=True)
    if len(words) != 1:
        raise ValueError(f"unknown action {text!r}")
    return simple(kind)


@cache
def play(card: Card) -> Action:
    """The interned PLAY action for ``card``."""
    return Action(Kind.PLAY, card=card)


@cache
def simple(kind: Kind, con_flor: bool = False) -> Action:
    """The interned action of a kind without arguments."""
    return Action(kind, con_flor=con_flor)


@cache
def raise_by(amount: int) -> Action:
    return Action(Kind.RAISE, amount=amount)


# ``PLAYS[card.index]`` is ``play(card)``: the engine builds every legal list
# from it without a cache lookup (which hashes the card in Python).
PLAYS: tuple[Action, ...] = tuple(play(card) for card in DECK)
