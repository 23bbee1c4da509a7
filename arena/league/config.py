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

from ..engine import Options, make_options
from ..games.schedule import Pairing
from ..games.settings import (
    DEFAULT_TIME_CONTROL,
    MAX_CONCURRENCY,
    PAIRINGS,
    expect,
    known_keys,
    name_and_game,
    one_of,
    parse_time_control,
    read_toml,
    seconds,
    whole,
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


# What must not change across restarts: the games would not be comparable.
_RULES_KEYS = ("variant", "options", "pairing")
_TOP = ("name", "variant", "options", "pairing", "concurrency", "time_control", "forfeit_seconds", "matchmaking")
_MATCHMAKING = ("max_gap", "refit_every")


def _matchmaking(data: dict[str, Any]) -> Matchmaking:
    table = expect(data.get("matchmaking", {}), dict, "matchmaking", "a table")
    known_keys(table, _MATCHMAKING, "matchmaking.")
    default = Matchmaking()
    return Matchmaking(
        max_gap=whole(table.get("max_gap", default.max_gap), "matchmaking.max_gap", 1, MAX_GAP),
        refit_every=whole(table.get("refit_every", default.refit_every), "matchmaking.refit_every", 1,
                          MAX_REFIT_EVERY),
    )


def _forfeit_seconds(data: dict[str, Any]) -> float:
    return seconds(data, "forfeit_seconds", LeagueConfig.forfeit_seconds, 0.0, MAX_FORFEIT_SECONDS, low_ok=False)


def parse_league_config(data: dict[str, Any]) -> LeagueConfig:
    known_keys(data, _TOP)
    name, variant, options = name_and_game(data, "league")
    pairing = one_of(data.get("pairing", Pairing.INDEPENDENT.value), Pairing, "pairing", PAIRINGS)
    return LeagueConfig(
        name=name,
        variant=variant,
        options=options,
        pairing=pairing,
        concurrency=whole(data.get("concurrency", LeagueConfig.concurrency), "concurrency", 1, MAX_CONCURRENCY),
        time_control=parse_time_control(data),
        forfeit_seconds=_forfeit_seconds(data),
        matchmaking=_matchmaking(data),
    )


def is_league(stored: Any) -> bool:
    """Whether ``stored`` (a results database's ``meta.config``) is a league's."""
    return isinstance(stored, dict) and stored.get("kind") == LEAGUE_KIND


def played(stored: dict[str, Any]) -> tuple[str, Options]:
    """The name of a league and the options its ``meta.config`` says its games
    were played with; ValueError (or OptionsError) if it does not say."""
    options = stored.get("options")
    if not isinstance(options, dict):
        raise ValueError("the stored league config has no options")
    return (str(stored.get("name") or "league"),
            make_options(str(options.get("variant")), {k: v for k, v in options.items() if k != "variant"}))


def changed_rule(stored: dict[str, Any], wanted: dict[str, Any]) -> tuple[str, Any, Any] | None:
    """The first rule (variant, options, pairing) a league's stored config and
    the one it restarts with (both ``to_meta``) do not agree on: (key, stored, wanted)."""
    return next(((k, stored.get(k), wanted[k]) for k in _RULES_KEYS if stored.get(k) != wanted[k]), None)


def load_league_config(path: Path | None) -> LeagueConfig:
    """The config in ``path``; the defaults when ``path`` is None."""
    if path is None:
        return LeagueConfig()
    return parse_league_config(read_toml(path, "league"))
