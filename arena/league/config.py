"""League configuration from a TOML file; every problem is a ConfigError
whose message starts with the key it is about. Every key is optional:
no file at all is a working league (docs/league.md).

Example::

    name = "open"
    variant = "argentino"
    pairing = "independent"    # or "duplicate": each deal twice, seats swapped
    concurrency = 8            # games at once, league-wide
    forfeit_seconds = 10.0     # how long a game waits for an absent bot before it forfeits

    [options]                  # overrides of the variant preset; seats 2, 4 or 6
    seats = 4                  # a team game: each team is one bot, one stream per seat

    [time_control]
    move_seconds = 2.0
    bank_seconds = 30.0

    [matchmaking]
    max_gap = 2                # a pair this many games behind its bots' busiest pair is overdue
    refit_every = 20           # games between two rating fits used to pair close ratings
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Options, OptionsError, make_options
from ..games.schedule import Pairing
from ..games.settings import (
    DEFAULT_TIME_CONTROL,
    MAX_CONCURRENCY,
    ConfigError,
    expect,
    parse_time_control,
    read_toml,
    seconds,
)
from ..server import TimeControl

LEAGUE_KIND = "league"  # meta.config["kind"] of a league's results database
MAX_FORFEIT_SECONDS = 3600.0
MAX_GAP = 1000
MAX_REFIT_EVERY = 1_000_000


@dataclass(frozen=True)
class Matchmaking:
    max_gap: int = 2  # games behind before a pair holds its bots' free streams for itself
    refit_every: int = 20  # finished games between two rating fits


@dataclass(frozen=True)
class LeagueConfig:
    name: str = "league"
    variant: str = "argentino"
    options: Options = field(default_factory=lambda: make_options("argentino"))
    pairing: Pairing = Pairing.INDEPENDENT
    concurrency: int = 8
    time_control: TimeControl = DEFAULT_TIME_CONTROL
    forfeit_seconds: float = 10.0
    matchmaking: Matchmaking = Matchmaking()

    @property
    def streams_per_game(self) -> int:
        """Streams a bot needs for one game: one per seat of its team."""
        return self.options.seats // 2

    def to_meta(self) -> dict[str, Any]:
        """What the results database keeps as ``meta.config``: everything
        needed to tell a league's rules, and that it is a league."""
        return {
            "kind": LEAGUE_KIND,
            "name": self.name,
            "variant": self.variant,
            "options": self.options.to_dict(),
            "pairing": self.pairing.value,
            "concurrency": self.concurrency,
            "time_control": {"move_seconds": self.time_control.move_time, "bank_seconds": self.time_control.bank},
            "forfeit_seconds": self.forfeit_seconds,
            "matchmaking": {"max_gap": self.matchmaking.max_gap, "refit_every": self.matchmaking.refit_every},
        }


_TOP = ("name", "variant", "options", "pairing", "concurrency", "time_control", "forfeit_seconds", "matchmaking")
_MATCHMAKING = ("max_gap", "refit_every")


def _whole(table: dict[str, Any], key: str, where: str, default: int, low: int, high: int) -> int:
    value = expect(table.get(key, default), int, where, "a whole number")
    if not low <= value <= high:
        raise ConfigError(f"{where}: must be from {low} to {high}, got {value}")
    return int(value)


def _matchmaking(data: dict[str, Any]) -> Matchmaking:
    table = expect(data.get("matchmaking", {}), dict, "matchmaking", "a table")
    for key in table:
        if key not in _MATCHMAKING:
            raise ConfigError(f"matchmaking.{key}: unknown key (expected {', '.join(_MATCHMAKING)})")
    default = Matchmaking()
    return Matchmaking(
        max_gap=_whole(table, "max_gap", "matchmaking.max_gap", default.max_gap, 1, MAX_GAP),
        refit_every=_whole(table, "refit_every", "matchmaking.refit_every", default.refit_every, 1, MAX_REFIT_EVERY),
    )


def _forfeit_seconds(data: dict[str, Any]) -> float:
    return seconds(data, "forfeit_seconds", LeagueConfig.forfeit_seconds, 0.0, MAX_FORFEIT_SECONDS, low_ok=False)


def parse_league_config(data: dict[str, Any]) -> LeagueConfig:
    for key in data:
        if key not in _TOP:
            raise ConfigError(f"{key}: unknown key (expected one of {', '.join(sorted(_TOP))})")
    name = expect(data.get("name", "league"), str, "name", "a string")
    variant = expect(data.get("variant", "argentino"), str, "variant", "a variant name")
    try:
        options = make_options(variant, expect(data.get("options", {}), dict, "options", "a table"))
    except OptionsError as exc:
        raise ConfigError(str(exc)) from None
    given = expect(data.get("pairing", Pairing.INDEPENDENT.value), str, "pairing", '"duplicate" or "independent"')
    try:
        pairing = Pairing(given)
    except ValueError:
        raise ConfigError(f'pairing: expected "duplicate" or "independent", got {given!r}') from None
    return LeagueConfig(
        name=name,
        variant=variant,
        options=options,
        pairing=pairing,
        concurrency=_whole(data, "concurrency", "concurrency", LeagueConfig.concurrency, 1, MAX_CONCURRENCY),
        time_control=parse_time_control(data),
        forfeit_seconds=_forfeit_seconds(data),
        matchmaking=_matchmaking(data),
    )


def load_league_config(path: Path | None) -> LeagueConfig:
    """The config in ``path``; the defaults when ``path`` is None."""
    if path is None:
        return LeagueConfig()
    return parse_league_config(read_toml(path, "league"))
