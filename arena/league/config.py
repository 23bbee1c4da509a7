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

from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

import msgspec

from ..engine import Options
from ..games.schedule import Pairing
from ..games.settings import MAX_CONCURRENCY, ClockTable, ConfigError, bounds, decode, read_toml, rules
from ..server import TimeControl
from ..server.tokens import check_name

LEAGUE_KIND = "league"  # meta.config["kind"] of a league's results database
MAX_FORFEIT_SECONDS = 3600.0
MAX_ATTENDANCE_SECONDS = 30 * 86400.0
MAX_GAP = 1000
MAX_REFIT_EVERY = 1_000_000
MAX_PERSONS = 10_000
DEFAULT_PERSON_MOVE_SECONDS = 300.0
MAX_PERSON_MOVE_SECONDS = 3600.0
# What must not change across restarts: the games would not be comparable.
_RULES_KEYS = ("variant", "options", "pairing")


class Matchmaking(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[matchmaking]``."""

    max_gap: Annotated[int, bounds(1, MAX_GAP)] = 2
    """Games behind before a pair holds its bots' free streams for itself."""
    refit_every: Annotated[int, bounds(1, MAX_REFIT_EVERY)] = 20
    """Finished games between two rating fits."""


class Persons(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[persons]``: entrants that are people (``truco-arena play --league``)."""

    names: frozenset[str] = frozenset()
    """Marked as people in the standings."""
    move_seconds: Annotated[float, bounds(1.0, MAX_PERSON_MOVE_SECONDS)] = DEFAULT_PERSON_MOVE_SECONDS
    """Seconds per move of every seat in a game with a person (a person thinks slower than a bot)."""

    def __post_init__(self) -> None:
        if len(self.names) > MAX_PERSONS:
            raise ValueError(f"names: at most {MAX_PERSONS} names, got {len(self.names)}")
        for name in self.names:
            try:
                check_name(name, "person name")
            except ValueError as exc:
                raise ValueError(f"names: {exc}") from None


class LeagueConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A league as its file says it, checked: its fields are the file's keys
    (the module's docstring shows them), and the same value is what a results
    database keeps (``to_meta``) and reads back (``from_meta``)."""

    name: str = "league"
    variant: str = "argentino"
    overrides: dict[str, Any] = msgspec.field(default_factory=dict, name="options")
    """``[options]``: overrides of the variant's preset, every option spelled out once read (``options``: the rules)."""
    pairing: Pairing = Pairing.INDEPENDENT
    concurrency: Annotated[int, bounds(1, MAX_CONCURRENCY)] = 8
    """Games at once, league-wide."""
    clock: ClockTable = msgspec.field(default_factory=ClockTable, name="time_control")
    """``[time_control]`` as written (``time_control``: the clock it gives)."""
    forfeit_seconds: Annotated[float, bounds(0.0, MAX_FORFEIT_SECONDS, low_ok=False)] = 10.0
    """How long a game waits for an absent bot before it forfeits."""
    attendance_seconds: Annotated[float, bounds(0.0, MAX_ATTENDANCE_SECONDS)] = 0.0
    """How long after it was last connected a bot is still paired (its games
    forfeit while it is away); 0: only connected bots are paired."""
    matchmaking: Matchmaking = Matchmaking()
    people: Persons = msgspec.field(default_factory=Persons, name="persons")

    def __post_init__(self) -> None:
        # Every option spelled out: equal rules, equal configs, however the file wrote them.
        full = {k: v for k, v in self.options.to_dict().items() if k != "variant"}
        msgspec.structs.force_setattr(self, "overrides", full)

    @cached_property
    def options(self) -> Options:
        """The rules the league's games are played with."""
        return rules(self.variant, self.overrides)

    @property
    def time_control(self) -> TimeControl:
        return self.clock.clock

    @property
    def persons(self) -> frozenset[str]:
        return self.people.names

    @property
    def person_time_control(self) -> TimeControl:
        """The clock of a game with a person: the league's bank, a person's move time."""
        return TimeControl(move_time=max(self.people.move_seconds, self.clock.move_seconds), bank=self.clock.bank_seconds)

    @property
    def streams_per_game(self) -> int:
        """Streams a bot needs for one game: one per seat of its team."""
        return self.options.seats // 2

    def to_meta(self) -> dict[str, Any]:
        """What the results database keeps as ``meta.config``: this value, with
        its options in full (what ``changed_rule`` holds a restart to), the
        person names sorted, and ``kind`` saying it is a league's."""
        data: dict[str, Any] = msgspec.to_builtins(self, order="sorted")
        data["persons"]["names"].sort()
        return {"kind": LEAGUE_KIND, **data, "options": self.options.to_dict()}

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


def parse_league_config(data: dict[str, Any]) -> LeagueConfig:
    return decode(data, LeagueConfig)


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
