"""What every config file of the arena shares: reading TOML, the one
``ConfigError``, type and range checks, the clock, the address. Tournament,
match and league configs are built on these, so a key means the same and is
checked the same way in each."""

from __future__ import annotations

import enum
import ipaddress
import math
import re
import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from arena.errors import UsageError

from ..engine import Options, OptionsError, make_options
from ..server import TimeControl

# Bounds of the clock. A decision may take up to an hour and a game's bank a
# day: far beyond any real use, yet finite, so every wait has a deadline
# (inf, nan and 1e10 are refused).
MAX_MOVE_SECONDS = 3600.0
# A decision crosses the network and back in about a millisecond; below 10 ms
# a move is charged to the bank alone and games end on time, not on play.
MIN_MOVE_SECONDS = 0.01
MAX_BANK_SECONDS = 86400.0
MAX_CONCURRENCY = 1024
DEFAULT_TIME_CONTROL = TimeControl(move_time=2.0, bank=30.0)
PAIRINGS = '"duplicate" or "independent"'
E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T")


class ConfigError(UsageError, ValueError):
    """A config problem; the message names the key. Always one printable
    line: a key or value holding a newline or a control character (TOML
    allows them in quoted strings) is shown escaped."""

    def __init__(self, message: str) -> None:
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


def expect(value: Any, kind: type | tuple[type, ...], key: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ConfigError(f"{key}: expected {what}, got {value!r}")
    return value


def whole(value: Any, key: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``."""
    if not low <= expect(value, int, key, "a whole number") <= high:
        raise ConfigError(f"{key}: must be from {low} to {high}, got {value}")
    return int(value)


def one_of(value: Any, kind: type[E], key: str, what: str) -> E:
    """``value`` as a member of the enum ``kind``; ``what`` names the choices."""
    if not isinstance(value, str) or value not in {m.value for m in kind}:
        raise ConfigError(f"{key}: expected {what}, got {value!r}")
    return kind(value)


# msgspec's messages: "<what> - at `$.sprt.elo1`" (the path absent at the top).
_AT = re.compile(r"(?s)(.*?)(?: - at `\$(.*)`)?")
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
# A check of a typed value (``__post_init__``) names its key first: "games: ...".
_NAMED = re.compile(r"[A-Za-z_][\w.\[\]]*(?:, [A-Za-z_][\w.]*)*: ")


def decode(data: Any, kind: type[T], where: str = "") -> T:
    """``data`` (a parsed TOML table) as a ``kind`` (a msgspec Struct), every
    type strict (``true`` is no number); a failure is the ConfigError naming
    its key, with ``where`` (``sprt.``) before the key msgspec reports."""
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as exc:
        raise ConfigError(_message(str(exc), data, where)) from None


def _message(text: str, data: Any, where: str) -> str:
    match = _AT.fullmatch(text)
    what, path = (match[1], match[2] or "") if match else (text, "")
    key = (where + path.lstrip(".")).rstrip(".")
    if _NAMED.match(what):  # the value's own check, which names its key
        return f"{key}.{what}" if key else what
    if field := re.fullmatch(r"Object contains unknown field `(.*)`", what):
        return f"{key}{'.' if key else ''}{field[1]}: unknown key"
    if field := re.fullmatch(r"Object missing required field `(.*)`", what):
        return f"{key}{'.' if key else ''}{field[1]}: missing"
    value = data
    for name, index in _PATH_PART.findall(path):
        try:
            value = value[name] if name else value[int(index)]
        except (KeyError, IndexError, TypeError):
            break
    expected = what.removeprefix("Expected ").replace("`", "").split(", got ")[0]
    kinds = [_KINDS.get(k, k) for k in expected.split(" | ") if k != "null"]
    return f"{key or 'config'}: expected {' or '.join(kinds)}, got {value!r}"


# msgspec's names of JSON types, as a config's messages say them.
_KINDS = {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "a string",
          "object": "a table", "array": "a list"}


def known_keys(table: Mapping[str, Any], allowed: Collection[str], where: str = "") -> None:
    """ConfigError for the first key of ``table`` not ``allowed``; ``where``
    (``limits.``) says whose keys they are, top-level ones when empty."""
    for key in table:
        if key not in allowed:
            expected = ", ".join(allowed) if where else f"one of {', '.join(sorted(allowed))}"
            raise ConfigError(f"{where}{key}: unknown key (expected {expected})")


def name_and_game(data: Mapping[str, Any], default_name: str) -> tuple[str, str, Options]:
    """The ``name``, ``variant`` and ``options`` every config starts with."""
    name = expect(data.get("name", default_name), str, "name", "a string")
    variant = expect(data.get("variant", "argentino"), str, "variant", "a variant name")
    try:
        return name, variant, make_options(variant, expect(data.get("options", {}), dict, "options", "a table"))
    except OptionsError as exc:
        raise ConfigError(str(exc)) from None


def seconds(table: dict[str, Any], key: str, default: float, low: float, high: float, *,
            where: str | None = None, low_ok: bool = True) -> float:
    """``table[key]`` as a finite number of seconds from ``low`` (excluded
    unless ``low_ok``) to ``high``; ``where`` names it in messages."""
    where = where or key
    given = expect(table.get(key, default), (int, float), where, "a number of seconds")
    try:
        value = float(given)
    except OverflowError:  # an integer too large for a float
        value = math.inf
    above_low = value >= low if low_ok else value > low
    if not (math.isfinite(value) and above_low and value <= high):
        bound = ">=" if low_ok else ">"
        raise ConfigError(f"{where}: must be a finite number of seconds {bound} {low:g} and <= {high:g}, "
                          f"got {value!r}")
    return value


class _ClockTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A config's ``[time_control]`` as written."""

    move_seconds: float = DEFAULT_TIME_CONTROL.move_time
    """Allowance per decision."""
    bank_seconds: float = DEFAULT_TIME_CONTROL.bank
    """Extra time over a whole game."""


def parse_time_control(data: dict[str, Any]) -> TimeControl:
    table = msgspec.structs.asdict(decode(data.get("time_control", {}), _ClockTable, "time_control."))
    return TimeControl(
        move_time=seconds(table, "move_seconds", DEFAULT_TIME_CONTROL.move_time, MIN_MOVE_SECONDS, MAX_MOVE_SECONDS,
                          where="time_control.move_seconds"),
        bank=seconds(table, "bank_seconds", DEFAULT_TIME_CONTROL.bank, 0.0, MAX_BANK_SECONDS,
                     where="time_control.bank_seconds"),
    )


def clear_text_warning(address: str, tls: bool) -> str | None:
    """The warning for an arena that listens beyond this machine without TLS,
    where bots send their tokens in the clear; None when it does not."""
    if tls or address.startswith("unix:"):
        return None
    host = address.rpartition(":")[0].strip("[]")
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        if host == "localhost":
            return None
    return (f"the arena listens on {address} without TLS: bots that connect send their tokens in the clear; "
            f"give a TLS certificate and key (README, \"Security and fair play\")")


def check_address(address: str) -> str:
    """HOST:PORT with a port 0-65535 (0: any free port); IPv6 hosts in brackets."""
    host, sep, port = address.rpartition(":")
    ok = bool(sep and host and port.isascii() and port.isdigit() and int(port) <= 65535)
    if ok and ":" in host:
        ok = host.startswith("[") and host.endswith("]") and len(host) > 2
    if ok:
        ok = host.isascii() and host.isprintable() and not any(c.isspace() for c in host)
    if not ok:
        raise ConfigError(f"address: expected HOST:PORT with a port from 0 to 65535, got {address!r}")
    return address


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The TOML document in ``path`` (a ``what``: tournament, league); every
    failure a one-line ConfigError. Messages leave the file name to the
    caller, which knows how it was given."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not valid TOML: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    except (ValueError, RecursionError):  # an integer beyond int's digit limit, arrays nested too deep
        raise ConfigError(f"not valid TOML for a {what}: a number too large or nesting too deep") from None
