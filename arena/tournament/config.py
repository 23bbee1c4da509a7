"""Tournament configuration from a TOML file; typos are errors naming the key.

Example::

    name = "weekly"
    variant = "uruguayo"
    games_per_pairing = 20     # even: games come in duplicate pairs
    seed = 42
    concurrency = 4

    [options]                  # overrides of the variant preset (RULES.md 7)
    target = 30

    [time_control]
    move_seconds = 2.0         # allowance per decision
    bank_seconds = 30.0        # extra time a bot may spend over a whole game

    [[bots]]
    name = "random"
    command = ["python", "-m", "sample_bots.random_bot"]

    [[bots]]
    name = "mybot"             # no command: it connects by itself with a token
"""

from __future__ import annotations

import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Options, OptionsError, make_options


class ConfigError(ValueError):
    """A config problem; the message names the key."""


@dataclass(frozen=True)
class BotSpec:
    name: str
    command: tuple[str, ...] | None = None  # None: the bot connects by itself


@dataclass(frozen=True)
class TimeControl:
    move_seconds: float = 2.0
    bank_seconds: float = 30.0


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    variant: str
    options: Options
    bots: tuple[BotSpec, ...]
    games_per_pairing: int = 10
    seed: int = 0
    concurrency: int = 1
    time_control: TimeControl = field(default_factory=TimeControl)
    address: str = "127.0.0.1:0"  # where the arena listens; external bots need a fixed port
    tokens: str | None = None  # token file for external bots
    tls_cert: str | None = None  # PEM certificate and key: the arena serves TLS only
    tls_key: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False)  # as read, stored with results

    @property
    def options_overrides(self) -> dict[str, Any]:
        return dict(self.raw.get("options", {}))


_TOP = {"name", "variant", "options", "bots", "games_per_pairing", "seed", "concurrency",
        "time_control", "address", "tokens", "tls_cert", "tls_key"}


def _expect(value: Any, kind: type | tuple[type, ...], key: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ConfigError(f"{key}: expected {what}, got {value!r}")
    return value


def parse_config(data: dict[str, Any], default_name: str = "tournament") -> TournamentConfig:
    for key in data:
        if key not in _TOP:
            raise ConfigError(f"{key}: unknown key (expected one of {', '.join(sorted(_TOP))})")
    variant = _expect(data.get("variant", "argentino"), str, "variant", "a variant name")
    try:
        options = make_options(variant, _expect(data.get("options", {}), dict, "options", "a table"))
    except OptionsError as exc:
        raise ConfigError(str(exc)) from None
    games = _expect(data.get("games_per_pairing", 10), int, "games_per_pairing", "a whole number")
    if games < 2 or games % 2:
        raise ConfigError(f"games_per_pairing: must be an even number >= 2 (duplicate pairs), got {games}")
    seed = _expect(data.get("seed", 0), int, "seed", "a whole number")
    concurrency = _expect(data.get("concurrency", 1), int, "concurrency", "a whole number")
    if concurrency < 1:
        raise ConfigError(f"concurrency: must be at least 1, got {concurrency}")
    tc_data = _expect(data.get("time_control", {}), dict, "time_control", "a table")
    for key in tc_data:
        if key not in ("move_seconds", "bank_seconds"):
            raise ConfigError(f"time_control.{key}: unknown key (expected move_seconds, bank_seconds)")
    tc = TimeControl(
        float(_expect(tc_data.get("move_seconds", 2.0), (int, float), "time_control.move_seconds", "seconds")),
        float(_expect(tc_data.get("bank_seconds", 30.0), (int, float), "time_control.bank_seconds", "seconds")),
    )
    if tc.move_seconds <= 0 or tc.bank_seconds < 0:
        raise ConfigError("time_control: move_seconds must be > 0 and bank_seconds >= 0")
    bots_data = _expect(data.get("bots"), list, "bots", "a list of [[bots]] tables")
    bots: list[BotSpec] = []
    for i, b in enumerate(bots_data):
        where = f"bots[{i}]"
        _expect(b, dict, where, "a table")
        for key in b:
            if key not in ("name", "command"):
                raise ConfigError(f"{where}.{key}: unknown key (expected name, command)")
        name = _expect(b.get("name"), str, f"{where}.name", "a bot name")
        if not name or any(c.isspace() for c in name):
            raise ConfigError(f"{where}.name: must be non-empty without spaces, got {name!r}")
        if any(x.name == name for x in bots):
            raise ConfigError(f"{where}.name: {name!r} appears twice")
        command = b.get("command")
        if isinstance(command, str):
            command = shlex.split(command)
        if command is not None:
            _expect(command, list, f"{where}.command", "a command line (string or list)")
            if not command or not all(isinstance(c, str) for c in command):
                raise ConfigError(f"{where}.command: expected a non-empty list of strings")
        bots.append(BotSpec(name, tuple(command) if command else None))
    if len(bots) < 2:
        raise ConfigError("bots: a tournament needs at least two bots")
    tls_cert = _expect(data.get("tls_cert"), (str, type(None)), "tls_cert", "a path")
    tls_key = _expect(data.get("tls_key"), (str, type(None)), "tls_key", "a path")
    if (tls_cert is None) != (tls_key is None):
        raise ConfigError("tls_cert, tls_key: give both or neither")
    if options.seats != 2:
        raise ConfigError(f"options.seats: tournaments run 2-seat games, got {options.seats}")
    return TournamentConfig(
        name=_expect(data.get("name", default_name), str, "name", "a string"),
        variant=variant,
        options=options,
        bots=tuple(bots),
        games_per_pairing=games,
        seed=seed,
        concurrency=concurrency,
        time_control=tc,
        address=_expect(data.get("address", "127.0.0.1:0"), str, "address", "HOST:PORT"),
        tokens=_expect(data.get("tokens"), (str, type(None)), "tokens", "a path"),
        tls_cert=tls_cert,
        tls_key=tls_key,
        raw=data,
    )


def load_config(path: Path) -> TournamentConfig:
    # Messages leave the file name to the caller, which knows how it was given.
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not valid TOML: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    except (ValueError, RecursionError):  # an integer beyond int's digit limit, arrays nested too deep
        raise ConfigError("not valid TOML for a tournament: a number too large or nesting too deep") from None
    return parse_config(data, default_name=path.stem)
