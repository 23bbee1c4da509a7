"""What a results database holds, read as the arena reads it: its config
(``StoredConfig``, the one reader of ``meta.config``) and its games replayed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine import Options, OptionsError
from ..games.game_record import GameRecord
from ..games.settings import ConfigError
from ..league.config import LeagueConfig, is_league
from ..tournament.config import TournamentConfig, parse_config
from .model import GameReplay
from .replayer import ReplayError, replay


@dataclass(frozen=True)
class StoredConfig:
    """A results database's config (``meta.config``), a tournament's or a league's."""

    name: str
    """The tournament's or league's name, as its pages and tables title it."""
    options: Options
    """The rules its games were played with."""
    tournament: TournamentConfig | None
    """The tournament's whole config; None for a league's database."""


def stored_config(stored: Any, default_name: str = "tournament", base: Path | None = None) -> StoredConfig:
    """``stored`` (``store.get_meta("config")``) as the arena reads it;
    ReplayError if it cannot be read. A league stores its options as played
    (docs/league.md). ``base``: the folder the config's relative paths (a
    bot's dir) start from, as on its first run (``CONFIG_DIR_META``)."""
    if not isinstance(stored, dict):
        raise ReplayError("the stored tournament config is missing")
    try:
        if is_league(stored):
            league = LeagueConfig.from_meta(stored)
            return StoredConfig(league.name, league.options, None)
        config = parse_config(stored, default_name=default_name, base=base)
        return StoredConfig(config.name, config.options, config)
    except (ConfigError, OptionsError, ValueError, TypeError) as exc:
        raise ReplayError(f"the stored config is invalid: {exc}") from None


def options_of(stored: Any) -> Options:
    """The engine options of a stored tournament or league config; ReplayError
    if it cannot be read."""
    return stored_config(stored).options


def replay_row(row: GameRecord, options: Options, *, with_stderr: bool = False) -> GameReplay:
    """Replay one stored game; ReplayError names the game and what does not fit.
    ``with_stderr``: each step carries what its bot wrote to stderr while
    deciding: for the organizer's eyes only (``replay``, ``report --stderr``),
    never for a page others may see."""
    try:
        record = replay(options, row.seed, row.actions, game_id=row.game_id, bots=(row.bot0, row.bot1),
                        termination=row.termination, reason=row.reason,
                        winner_team=row.winner_seat)
    except ReplayError as exc:
        raise ReplayError(f"game {row.game_key}: {exc}") from None
    if not with_stderr or not row.stderr:
        return record
    notes = dict(row.stderr)
    steps = tuple(replace(s, stderr=notes[s.index]) if s.index in notes else s for s in record.steps)
    return replace(record, steps=steps, stderr_unanswered=notes.get(len(record.steps), ""))
