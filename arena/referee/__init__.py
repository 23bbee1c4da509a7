"""The referee: one game loop for every way of playing a game (the arena
server over gRPC, in-process matches in ``sample_bots._play``). Pure: it
depends only on ``arena.engine``, does no I/O and keeps no clock.

What each seat is told, as typed values addressed to it (``messages``):

- ``GameStart`` once per seat.
- ``Decision`` for the seat to act: ``State.observation(seat)`` (its own
  cards, the up card, every public action and card played, scores, the
  pending call, announced points) and the legal actions.
- ``HandEnd`` per seat after each hand, and once more (``cut_short``) for
  the hand the game's end interrupted: the hand's public events plus that
  seat's own private ones, nothing else (``summary``, the only place this
  rule is written for summaries). Another seat's unplayed cards, a
  teammate's included, never reach a seat; proof cards of a won envido or
  flor are public events (``Shown``) and do.
- ``GameEnd`` per seat.

What a spectator may see (the live page, the replay's public view) is
``spectator_observation`` (``spectator``).
"""

from .hand_end import hand_ends
from .messages import Decision, GameEnd, GameStart, HandEnd, Message
from .referee import BadMoveError, Referee
from .spectator import SPECTATOR, public_events, spectator_observation

__all__ = [
    "SPECTATOR", "BadMoveError", "Decision", "GameEnd", "GameStart", "HandEnd", "Message", "Referee", "hand_ends",
    "public_events", "spectator_observation",
]
