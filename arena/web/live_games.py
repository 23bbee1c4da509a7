"""The live part of the page, as JSON: the games in progress and the public
view of one of them. Everything a game shows comes from
``arena.replay.table_views.public_view`` (``arena.referee.spectator_observation``):
no seat's unplayed card, no seed."""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Any

from ..engine import Card
from ..games.playing import GamesInProgress, RunningGame
from ..referee import spectator_observation
from ..replay.table_views import public_view

# Game ids are the arena's own (opaque, from the tournament secret); anything
# else in a path is not a game.
GAME_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _summary(run: RunningGame) -> dict[str, Any] | None:
    referee = run.referee
    if referee is None:  # between the arena accepting the game and its first deal
        return None
    state = referee.state
    return {
        "id": run.game_id,
        "bots": list(run.bots),
        "variant": run.options.variant,
        "target": run.options.target,
        "scores": list(state.scores),
        "hand": state.hands_played + 1,  # 1-based, the hand being played
        "step": len(referee.actions),  # actions applied so far
    }


def running_games(arena: GamesInProgress | None) -> list[dict[str, Any]]:
    """Every game in progress, oldest id first."""
    if arena is None:
        return []
    found = (_summary(run) for run in arena.running_games())
    return sorted((g for g in found if g is not None), key=lambda g: str(g["id"]))


def game_view(arena: GamesInProgress | None, game_id: str) -> dict[str, Any] | None:
    """The public view of the running game ``game_id``; None if no such game runs."""
    if arena is None or not GAME_ID.fullmatch(game_id):
        return None
    run = next((r for r in arena.running_games() if r.game_id == game_id), None)
    if run is None:
        return None
    summary = _summary(run)
    if summary is None or run.referee is None:
        return None
    state = run.referee.state
    seen = spectator_observation(state)
    # The step of the hand's first action: calls are numbered from it.
    first_step = len(run.referee.actions) - len(seen.history)
    summary["view"] = _encode(public_view(state, state.hands_played, first_step))
    return summary
