"""The pure rules engine: no I/O, no grpc, no global random state."""

from .actions import Action, Kind
from .cards import DECK, Card, Suit
from .options import VARIANTS, Options, OptionsError, make_options
from .outcome import Outcome, Termination
from .state import Deal, Game, IllegalAction, State

__all__ = [
    "Action", "Kind", "Card", "Suit", "DECK", "Options", "OptionsError", "VARIANTS",
    "make_options", "Outcome", "Termination", "Deal", "Game", "IllegalAction", "State",
]
