"""What every config file of the arena shares: reading TOML, the one
``ConfigError``, type and range checks, the clock, the address. Tournament,
match and league configs are built on these, so a key means the same and is
checked the same way in each."""

from __future__ import annotations

import enum
import ipaddress
import re
import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any, TypeVar

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
E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T")


class ConfigError(UsageError, ValueError):
    """A config problem; the message names the key. Always one printable
    line: a key or value holding a newline or a control character (TOML
    allows them in quoted strings) is shown escaped."""

    def __init__(self, message: str) -> None:
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


def bounds(low: float, high: float | None = None, *, low_ok: bool = True) -> msgspec.Meta:
    """The range of a number field (``Annotated[int, bounds(1, 1024)]``), which
    ``decode`` refuses naming the key: "concurrency: must be from 1 to 1024, got 0"."""
    return msgspec.Meta(ge=low, le=high) if low_ok else msgspec.Meta(gt=low, le=high)


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


def decode(data: Any, kind: type[T], where: str = "", others: Collection[str] = ()) -> T:
    """``data`` (a parsed TOML table) as a ``kind`` (a msgspec Struct), every
    type strict (``true`` is no number); a failure is the ConfigError naming
    its key, with ``where`` (``sprt.``) before the key msgspec reports.
    ``others``: keys of the table read elsewhere, named among the known ones."""
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as exc:
        raise ConfigError(_message(str(exc), data, where, kind, others)) from None


def _message(text: str, data: Any, where: str, kind: Any, others: Collection[str]) -> str:
    match = _AT.fullmatch(text)
    what, path = (match[1], match[2] or "") if match else (text, "")
    key = (where + path.lstrip(".")).rstrip(".")
    if _NAMED.match(what):  # the value's own check, which names its key
        return f"{key}.{what}" if key else what
    if field := re.fullmatch(r"Object contains unknown field `(.*)`", what):
        fields = _field_type(kind, path).fields
        known = ", ".join(sorted({f.encode_name for f in fields} | (set(others) if not path else set())))
        return f"{key}{'.' if key else ''}{field[1]}: unknown key (expected one of {known})"
    if field := re.fullmatch(r"Object missing required field `(.*)`", what):
        return f"{key}{'.' if key else ''}{field[1]}: missing"
    value = data
    for name, index in _PATH_PART.findall(path):
        try:
            value = value[name] if name else value[int(index)]
        except (KeyError, IndexError, TypeError):
            break
    if what.startswith("Invalid enum value"):
        choices = " or ".join(f'"{m.value}"' for m in _field_type(kind, path).cls)
        return f"{key}: expected {choices}, got {value!r}"
    if bounded := re.fullmatch(r"Expected `(int|float)` [<>]=? \S+", what):
        return f"{key}: {_out_of_bounds(bounded[1], _field_type(kind, path), value)}"
    expected = what.removeprefix("Expected ").replace("`", "").split(", got ")[0]
    kinds = [_KINDS.get(k, k) for k in expected.split(" | ") if k != "null"]
    return f"{key or 'config'}: expected {' or '.join(kinds)}, got {value!r}"


def _field_type(kind: Any, path: str) -> Any:
    """What ``kind`` declares at ``path`` ("$.bots[0].cpus" without the "$"), as ``msgspec.inspect`` tells it."""
    info = msgspec.inspect.type_info(kind)
    for name, _index in _PATH_PART.findall(path):
        info = _one(info)
        if isinstance(info, (msgspec.inspect.StructType, msgspec.inspect.DataclassType)):
            info = next(f.type for f in info.fields if f.encode_name == name)
        else:
            info = getattr(info, "value_type" if name else "item_type")
    return _one(info)


def _one(info: Any) -> Any:
    """``X | None`` as ``X``."""
    if isinstance(info, msgspec.inspect.UnionType):
        return next(t for t in info.types if not isinstance(t, msgspec.inspect.NoneType))
    return info


def _out_of_bounds(number: str, info: Any, value: Any) -> str:
    """Today's wording of a bound a field's ``msgspec.Meta`` sets: an int's range,
    or a float's, which in every config of the arena is a number of seconds."""
    if number == "int":
        return f"must be {f'from {info.ge} to {info.le}' if info.le is not None else f'at least {info.ge}'}, got {value!r}"
    low, bound = (info.ge, ">=") if info.ge is not None else (info.gt, ">")
    return f"must be a finite number of seconds {bound} {low:g} and <= {info.le:g}, got {float(value)!r}"


# msgspec's names of JSON types, as a config's messages say them.
_KINDS = {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "a string",
          "object": "a table", "array": "a list"}


def rules(variant: str, options: dict[str, Any]) -> Options:
    """The rules a config's ``variant`` and ``[options]`` give."""
    try:
        return make_options(variant, options)
    except OptionsError as exc:
        raise ConfigError(str(exc)) from None


class ClockTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A config's ``[time_control]`` as written."""

    move_seconds: Annotated[float, bounds(MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)] = DEFAULT_TIME_CONTROL.move_time
    """Allowance per decision."""
    bank_seconds: Annotated[float, bounds(0.0, MAX_BANK_SECONDS)] = DEFAULT_TIME_CONTROL.bank
    """Extra time over a whole game."""

    @property
    def clock(self) -> TimeControl:
        return TimeControl(move_time=self.move_seconds, bank=self.bank_seconds)


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
