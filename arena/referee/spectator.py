"""What a spectator may see of a running game: the one definition used by the
live page and by the replay's public view.

It is the engine's own observer (``State.observation``) with everything that
belongs to a seat removed: no unplayed cards, no cards as dealt, no legal
actions, and only the events the engine marks public. What remains is public
by the rules: cards played, calls and answers, scores, the up card, announced
points and the cards shown to prove a won envido or flor (``Shown`` events).
"""

from __future__ import annotations

import dataclasses

from arena.engine.observation import Observation
from arena.engine.state import State

# The ``seat`` of a spectator's observation: nobody's.
SPECTATOR = -1


def public_events(state: State, start: int) -> tuple[str, ...]:
    """The text of the events from index ``start`` on that the engine marks public."""
    texts, private = state.event_log()
    return tuple(texts[i] for i in range(start, len(texts)) if private[i] is None)


def spectator_observation(state: State) -> Observation:
    """The public part of ``state`` as an observation of seat ``SPECTATOR``."""
    # Seat 0's view carries every public field; its own cards and log are dropped below.
    seen = state.observation(0, log=False)
    return dataclasses.replace(
        seen, seat=SPECTATOR, hand=(), dealt=(), legal=(),
        events=public_events(state, state.hand_events_start()),
    )
