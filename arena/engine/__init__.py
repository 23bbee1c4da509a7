"""The pure rules engine: no I/O, no grpc, no global random state.

    from arena.engine import Game

    state = Game("uruguayo", target=15).new_state(seed=7)
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)         # what that seat may see
        state.apply(obs.legal[0])             # IllegalActionError on anything not legal
    print(state.outcome())

``State.copy()`` is a cheap independent copy for search. The variants are
data (``variants.py``); the rules helpers (card rank, envido and flor points)
are in ``hand_values.py``.

``BUILD`` says whether this engine is the compiled build (mypyc, from the same
source; see setup.py) or pure Python.
"""

from . import state as _state_module
from .actions import Action, Kind
from .cards import DECK, Card, Suit
from .events import (
    Acted,
    Dealt,
    Event,
    GameEnded,
    HandEnded,
    HandStarted,
    PointsAnnounced,
    Scored,
    Shown,
    TrickWon,
)
from .hand_values import card_rank, envido_points, flor_kind, flor_points
from .observation import Observation, PendingCall
from .options import VARIANTS, Options, OptionsError, make_options
from .outcome import Outcome, Termination
from .state import Deal, Game, IllegalActionError, State
from .variants import (
    VARIANT_BY_NAME,
    ContraflorResto,
    EnvidoMode,
    EnvidoState,
    FaltaMode,
    FlorKind,
    Special,
    Variant,
)

__all__ = [
    # Playing a game
    "Game", "State", "Deal", "Options", "make_options", "VARIANTS",
    "Observation", "PendingCall", "Outcome", "Termination",
    # Values
    "Card", "Suit", "DECK", "Action", "Kind",
    # Events
    "Event", "HandStarted", "Dealt", "Acted", "TrickWon", "PointsAnnounced", "Scored", "Shown",
    "HandEnded", "GameEnded",
    # Errors
    "IllegalActionError", "OptionsError",
    # Rules helpers
    "card_rank", "envido_points", "flor_kind", "flor_points",
    # Variants as data
    "Variant", "VARIANT_BY_NAME", "Special", "EnvidoMode", "EnvidoState", "FlorKind", "FaltaMode",
    "ContraflorResto",
]


def _build() -> str:
    """``"compiled"`` when the engine's modules are C extensions, else ``"pure Python"``."""
    import importlib.machinery

    origin = _state_module.__file__ or ""
    return "compiled" if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure Python"


BUILD = _build()
