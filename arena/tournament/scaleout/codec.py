"""Typed JSON for what crosses between the coordinator and its workers.

Reading a message can never run code: the bytes are parsed as JSON, and the
only objects built from it are the dataclasses the reader asked for, field
by field, each value checked against the field's annotation (a string where
a ``str`` is due, a whole number where an ``int`` is, a finite number for a
``float``...). A name in the data never chooses a class; an unknown or a
missing field, or a value of the wrong kind, is a ``DecodeError`` naming
where it was found.

Supported annotations: ``None``, ``bool``, ``int``, ``float``, ``str``,
``Path``, enums, dataclasses, msgspec Structs (checked by msgspec), ``X | Y``, ``tuple[X, ...]``, ``tuple[X, Y]``,
``list[X]``, ``dict[str, X]`` and ``Any`` (a JSON value taken as it is).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import math
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from arena.errors import DomainError


class DecodeError(DomainError, ValueError):
    """The data does not have the shape of the message expected; one line."""


def to_plain(obj: object) -> Any:
    """``obj`` as JSON-ready values (dataclasses become objects, tuples lists)."""
    if isinstance(obj, enum.Enum):
        return obj.value
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        if not math.isfinite(obj):
            raise TypeError(f"cannot send the number {obj!r}")
        return obj
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, msgspec.Struct):  # a typed config value: its own canonical form
        return msgspec.to_builtins(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [to_plain(x) for x in obj]
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise TypeError("cannot send a mapping whose keys are not strings")
        return {k: to_plain(v) for k, v in obj.items()}
    raise TypeError(f"cannot send a {type(obj).__name__}")


def dumps(obj: object) -> bytes:
    return json.dumps(to_plain(obj), separators=(",", ":"), allow_nan=False).encode()


def loads(data: bytes) -> Any:
    """Parse JSON; NaN and infinities, invalid UTF-8 and nesting too deep are refused."""
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DecodeError(f"not JSON ({type(exc).__name__})") from None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


# The scalars: which JSON values each takes (a bool is no number), what it
# is called in a message, and how the value is made.
_SCALARS: dict[Any, tuple[Callable[[Any], bool], str, Callable[[Any], Any]]] = {
    bool: (lambda v: isinstance(v, bool), "true or false", bool),
    int: (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number", int),
    float: (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number", float),
    str: (lambda v: isinstance(v, str), "a string", str),
    Path: (lambda v: isinstance(v, str) and "\0" not in v, "a path", Path),
}


def from_plain(value: Any, hint: Any, where: str = "message") -> Any:
    """``value`` (parsed JSON) as an instance of ``hint``, or ``DecodeError``."""
    if hint is Any:
        return value
    if hint is None or hint is type(None):
        if value is not None:
            raise _wrong(where, "null", value)
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        for arg in args:  # None first in effect: null matches only NoneType
            try:
                return from_plain(value, arg, where)
            except DecodeError:
                continue
        raise _wrong(where, " or ".join(_name(a) for a in args), value)
    if origin is tuple:
        if not isinstance(value, list):
            raise _wrong(where, "a list", value)
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is str and all(type(v) is str for v in value):
                return tuple(value)  # an action log: the common case, checked at once
            return tuple(from_plain(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise DecodeError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(from_plain(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args)))
    if origin is list:
        if not isinstance(value, list):
            raise _wrong(where, "a list", value)
        return [from_plain(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise _wrong(where, "an object", value)
        return {k: from_plain(v, args[1], f"{where}.{k}") for k, v in value.items()}
    if hint in _SCALARS:
        takes, what, make = _SCALARS[hint]
        if not takes(value):
            raise _wrong(where, what, value)
        return make(value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except (ValueError, TypeError):
            raise _wrong(where, f"a {hint.__name__}", value) from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(value, hint, where)
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        try:
            return msgspec.convert(value, hint, strict=True)
        except msgspec.ValidationError as exc:
            raise DecodeError(f"{where}: {' '.join(str(exc).split())[:200]}") from None
    raise TypeError(f"{where}: no JSON form for {hint!r}")  # a programming error, not bad data


def _dataclass(value: Any, cls: type, where: str) -> Any:
    if not isinstance(value, dict):
        raise _wrong(where, f"a {cls.__name__} object", value)
    hints, required = _fields_of(cls)
    unknown = [k for k in value if k not in hints]
    if unknown:
        raise DecodeError(f"{where}: unknown field {str(unknown[0])[:40]!r}")
    missing = [k for k in required if k not in value]
    if missing:
        raise DecodeError(f"{where}: missing field {missing[0]!r}")
    kwargs = {k: from_plain(v, hints[k], f"{where}.{k}") for k, v in value.items()}
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:  # the class's own checks (__post_init__)
        raise DecodeError(f"{where}: {' '.join(str(exc).split())[:200]}") from None


@functools.cache
def _fields_of(cls: type) -> tuple[dict[str, Any], frozenset[str]]:
    """The init fields of ``cls`` with their resolved types, and those without a default."""
    resolved = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    hints = {f.name: resolved[f.name] for f in fields}
    required = frozenset(f.name for f in fields
                         if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    return hints, required


def _name(hint: Any) -> str:
    return "null" if hint is type(None) else getattr(hint, "__name__", str(hint))


def _wrong(where: str, expected: str, value: Any) -> DecodeError:
    return DecodeError(f"{where}: expected {expected}, got {type(value).__name__}")
