"""League configuration from a TOML file; every problem is a ConfigError
whose message starts with the key it is about. Every key is optional:
no file at all is a working league (docs/league.md).

Example::

    name = "open"
    variant = "argentino"
    pairing = "independent"    # or "duplicate": each deal twice, seats swapped
    concurrency = 8            # games at once, league-wide
    forfeit_seconds = 10.0     # how long a game waits for an absent bot before it forfeits
    attendance_seconds = 0.0   # > 0: a bot connected within this many seconds is still paired while
                               # away, and forfeits those games (choosing when to play does not pay)

    [options]                  # overrides of the variant preset; seats 2, 4 or 6
    seats = 4                  # a team game: each team is one bot, one stream per seat

    [time_control]
    move_seconds = 2.0
    bank_seconds = 30.0

    [matchmaking]
    max_gap = 2                # a pair this many games behind its bots' busiest pair is overdue
    refit_every = 20           # games between two rating fits used to pair close ratings

    [persons]                  # entrants that are people (``truco-arena play --league``)
    names = ["ana"]            # marked as people in the standings
    move_seconds = 300.0       # the clock of every seat in their games (default 300)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec

from ..engine import Options, make_options
from ..games.schedule import Pairing
from ..games.settings import (
    DEFAULT_TIME_CONTROL,
    MAX_CONCURRENCY,
    PAIRINGS,
    ClockTable,
    ConfigError,
    bounds,
    decode,
    one_of,
    read_toml,
    rules,
)
from ..server import TimeControl
from ..server.tokens import check_name

LEAGUE_KIND = "league"  # meta.config["kind"] of a league's results database
MAX_FORFEIT_SECONDS = 3600.0
MAX_GAP = 1000
MAX_REFIT_EVERY = 1_000_000
MAX_PERSONS = 10_000
DEFAULT_PERSON_MOVE_SECONDS = 300.0
MAX_PERSON_MOVE_SECONDS = 3600.0


@dataclass(frozen=True)
class Matchmaking:
    max_gap: int = 2
    """Games behind before a pair holds its bots' free streams for itself."""
    refit_every: int = 20
    """Finished games between two rating fits."""


@dataclass(frozen=True)
class LeagueConfig:
    name: str = "league"
    variant: str = "argentino"
    options: Options = field(default_factory=lambda: make_options("argentino"))
    pairing: Pairing = Pairing.INDEPENDENT
    concurrency: int = 8
    time_control: TimeControl = DEFAULT_TIME_CONTROL
    forfeit_seconds: float = 10.0
    attendance_seconds: float = 0.0
    """How long after it was last connected a bot is still paired (its games
    forfeit while it is away); 0: only connected bots are paired."""
    matchmaking: Matchmaking = Matchmaking()
    persons: frozenset[str] = frozenset()
    """Entrants that are people: marked so in the standings."""
    person_move_seconds: float = DEFAULT_PERSON_MOVE_SECONDS
    """Seconds per move of every seat in a game with a person (a person thinks slower than a bot)."""

    @property
    def person_time_control(self) -> TimeControl:
        """The clock of a game with a person: the league's bank, a person's move time."""
        return TimeControl(move_time=max(self.person_move_seconds, self.time_control.move_time),
                           bank=self.time_control.bank)

    @property
    def streams_per_game(self) -> int:
        """Streams a bot needs for one game: one per seat of its team."""
        return self.options.seats // 2

    def to_meta(self) -> dict[str, Any]:
        """What the results database keeps as ``meta.config``: everything
        needed to tell a league's rules, and that it is a league: the file's
        form with every value resolved (the options in full)."""
        table = _LeagueFile(
            self.name, self.variant, self.options.to_dict(), self.pairing.value, self.concurrency,
            ClockTable(self.time_control.move_time, self.time_control.bank), self.forfeit_seconds,
            self.attendance_seconds, _MatchmakingTable(self.matchmaking.max_gap, self.matchmaking.refit_every),
            _PersonsTable(sorted(self.persons), self.person_move_seconds))
        return {"kind": LEAGUE_KIND, **msgspec.to_builtins(table)}

    @classmethod
    def from_meta(cls, stored: Any) -> LeagueConfig:
        """The config a results database keeps (``to_meta``), read as a file is:
        one type for every reader. ValueError if ``stored`` is no league's; a
        ConfigError names the key that does not read."""
        if not is_league(stored):
            raise ValueError("not a league's stored config")
        data = {k: v for k, v in stored.items() if k != "kind"}
        if isinstance(data.get("options"), dict):  # kept in full, the variant among them
            data["options"] = {k: v for k, v in data["options"].items() if k != "variant"}
        return parse_league_config(data)


# What must not change across restarts: the games would not be comparable.
_RULES_KEYS = ("variant", "options", "pairing")
MAX_ATTENDANCE_SECONDS = 30 * 86400.0


class _MatchmakingTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    max_gap: Annotated[int, bounds(1, MAX_GAP)] = Matchmaking.max_gap
    refit_every: Annotated[int, bounds(1, MAX_REFIT_EVERY)] = Matchmaking.refit_every


class _PersonsTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    names: list[str] = []
    move_seconds: Annotated[float, bounds(1.0, MAX_PERSON_MOVE_SECONDS)] = DEFAULT_PERSON_MOVE_SECONDS


class _LeagueFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The file as written, its keys' types checked by msgspec (the module's docstring shows them)."""

    name: str = "league"
    variant: str = "argentino"
    options: dict[str, Any] = {}
    pairing: str = Pairing.INDEPENDENT.value
    concurrency: Annotated[int, bounds(1, MAX_CONCURRENCY)] = LeagueConfig.concurrency
    time_control: ClockTable = ClockTable()
    forfeit_seconds: Annotated[float, bounds(0.0, MAX_FORFEIT_SECONDS, low_ok=False)] = LeagueConfig.forfeit_seconds
    attendance_seconds: Annotated[float, bounds(0.0, MAX_ATTENDANCE_SECONDS)] = LeagueConfig.attendance_seconds
    matchmaking: _MatchmakingTable = _MatchmakingTable()
    persons: _PersonsTable = _PersonsTable()


def _persons(table: _PersonsTable) -> frozenset[str]:
    if len(table.names) > MAX_PERSONS:
        raise ConfigError(f"persons.names: at most {MAX_PERSONS} names, got {len(table.names)}")
    for name in table.names:
        try:
            check_name(name, "persons.names")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    return frozenset(table.names)


def parse_league_config(data: dict[str, Any]) -> LeagueConfig:
    doc = decode(data, _LeagueFile)
    return LeagueConfig(
        name=doc.name,
        variant=doc.variant,
        options=rules(doc.variant, doc.options),
        pairing=one_of(doc.pairing, Pairing, "pairing", PAIRINGS),
        concurrency=doc.concurrency,
        time_control=doc.time_control.clock,
        forfeit_seconds=doc.forfeit_seconds,
        attendance_seconds=doc.attendance_seconds,
        matchmaking=Matchmaking(doc.matchmaking.max_gap, doc.matchmaking.refit_every),
        persons=_persons(doc.persons),
        person_move_seconds=doc.persons.move_seconds,
    )


def is_league(stored: Any) -> bool:
    """Whether ``stored`` (a results database's ``meta.config``) is a league's."""
    return isinstance(stored, dict) and stored.get("kind") == LEAGUE_KIND


def stored_persons(stored: Any) -> frozenset[str]:
    """The entrants a league's stored config names as people (``[persons]``);
    none for a tournament's, or where the stored config does not read."""
    try:
        return LeagueConfig.from_meta(stored).persons
    except (ConfigError, ValueError):
        return frozenset()


def changed_rule(stored: dict[str, Any], wanted: dict[str, Any]) -> tuple[str, Any, Any] | None:
    """The first rule (variant, options, pairing) a league's stored config and
    the one it restarts with (both ``to_meta``) do not agree on: (key, stored, wanted)."""
    return next(((k, stored.get(k), wanted[k]) for k in _RULES_KEYS if stored.get(k) != wanted[k]), None)


def load_league_config(path: Path | None) -> LeagueConfig:
    """The config in ``path``; the defaults when ``path`` is None."""
    if path is None:
        return LeagueConfig()
    return parse_league_config(read_toml(path, "league"))
