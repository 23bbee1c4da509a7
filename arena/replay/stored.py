"""Replay a game as the results store holds it: a ``GameRow`` and the
tournament config the file was started with."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine import Options, OptionsError, make_options
from ..games.settings import ConfigError
from ..games.store import GameRow
from ..league.config import LEAGUE_KIND
from ..tournament.config import parse_config
from .model import GameReplay
from .replay import ReplayError, replay


def options_of(raw_config: Any) -> Options:
    """The engine options of a stored tournament or league config; ReplayError
    if it cannot be read. A league stores its options as played (docs/league.md)."""
    if not isinstance(raw_config, dict):
        raise ReplayError("the stored tournament config is missing")
    try:
        if raw_config.get("kind") == LEAGUE_KIND:
            played = raw_config.get("options")
            if not isinstance(played, dict):
                raise ReplayError("the stored league config has no options")
            return make_options(str(played.get("variant")), {k: v for k, v in played.items() if k != "variant"})
        return parse_config(raw_config).options
    except (ConfigError, OptionsError, ValueError, TypeError) as exc:
        raise ReplayError(f"the stored config is invalid: {exc}") from None


def replay_row(row: GameRow, options: Options, *, with_stderr: bool = False) -> GameReplay:
    """Replay one stored game; ReplayError names the game and what does not fit.
    ``with_stderr``: each step carries what its bot wrote to stderr while
    deciding: for the organizer's eyes only (``replay``, ``report --stderr``),
    never for a page others may see."""
    try:
        record = replay(options, row.seed, row.actions, game_id=row.game_id, bots=(row.bot0, row.bot1),
                        mano=row.mano, termination=row.termination, reason=row.reason,
                        winner_team=row.winner_seat)
    except ReplayError as exc:
        raise ReplayError(f"game {row.game_key}: {exc}") from None
    if not with_stderr or not row.stderr:
        return record
    notes = dict(row.stderr)
    steps = tuple(replace(s, stderr=notes[s.index]) if s.index in notes else s for s in record.steps)
    return replace(record, steps=steps, stderr_unanswered=notes.get(len(record.steps), ""))
