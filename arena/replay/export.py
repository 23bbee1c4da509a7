"""The JSON export of a replayed game (documented in docs/replay-json.md).

``to_json`` and ``from_json`` are exact inverses: ``from_json(to_json(r)) == r``.
Both follow the dataclasses of ``model.py`` field by field, so the export
cannot drift from the record.

Hands are numbered from 1 in the export (schema version 2), as in the text
replay, the viewer and the referee's events ("hand 1 over"); the record
counts them from 0 (an index into ``hands``). Version 1 exports, numbered
from 0, are still read.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

from arena.errors import DomainError

from ..engine import Card
from .model import Category, GameInfo, GameReplay, HandRecord, Step, TableView

SCHEMA_VERSION = 2
# The fields that hold a hand's number: 1-based in the export, 0-based in the record.
_HAND_NUMBERS: dict[type, str] = {HandRecord: "number", Step: "hand", TableView: "hand"}
# What each schema version adds to the record's hand numbers.
_HAND_BASE = {1: 0, 2: 1}


class ExportError(DomainError, ValueError):
    """A JSON document that is not a game export this version reads; one line."""


def to_json(replay: GameReplay) -> dict[str, Any]:
    """The export as plain JSON values (dicts, lists, strings, numbers, null)."""
    encoded = _encode(replay)
    assert isinstance(encoded, dict)
    return {"schema_version": SCHEMA_VERSION, **encoded}


def from_json(data: Any) -> GameReplay:
    """Read an export back; ``ExportError`` names what is wrong."""
    if not isinstance(data, dict):
        raise ExportError("a game export is a JSON object")
    version = data.get("schema_version")
    if isinstance(version, bool) or version not in _HAND_BASE:
        raise ExportError(f"schema_version {version!r}: this version reads {', '.join(map(str, _HAND_BASE))}")
    body = {k: v for k, v in data.items() if k != "schema_version"}
    result = _decode(GameReplay, body, "$", _HAND_BASE[version])
    assert isinstance(result, GameReplay)
    return result


def _encode(value: Any) -> Any:
    # Plain values first: they are most of what a game holds (a report encodes
    # thousands of games, so this runs millions of times).
    kind = type(value)
    if kind is int or kind is str or kind is bool or value is None:
        return value
    if kind is tuple:
        return [_encode(v) for v in value]
    if kind is Card:
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    names = _field_names(kind)
    if names is None:
        return value
    out = {name: _encode(getattr(value, name)) for name in names}
    if kind is GameInfo:
        out["options"] = {key: option for key, option in value.options}  # an object reads better than pairs
    if kind in _HAND_NUMBERS:
        out[_HAND_NUMBERS[kind]] += _HAND_BASE[SCHEMA_VERSION]
    if kind is HandRecord:  # derived, for readers of the JSON; ignored when read back
        out["points"] = {c.value: list(value.points(c)) for c in Category}
    return out


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass type, in order (None for any other type), looked up once per type."""
    if kind not in _FIELDS:
        _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else None
    return _FIELDS[kind]


_DERIVED: dict[type, set[str]] = {HandRecord: {"points"}}


def _decode(kind: Any, value: Any, where: str, base: int) -> Any:
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        arms = typing.get_args(kind)
        if value is None and type(None) in arms:
            return None
        errors = []
        for arm in arms:
            if arm is type(None):
                continue
            try:
                return _decode(arm, value, where, base)
            except ExportError as exc:
                errors.append(str(exc))
        raise ExportError(errors[0] if errors else f"{where}: unexpected null")
    if origin is tuple:
        if not isinstance(value, list):
            raise ExportError(f"{where}: expected a list")
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{where}[{i}]", base) for i, v in enumerate(value))
        if len(args) != len(value):
            raise ExportError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_decode(a, v, f"{where}[{i}]", base) for i, (a, v) in enumerate(zip(args, value, strict=True)))
    if kind is GameInfo:
        if not isinstance(value, dict) or not isinstance(value.get("options"), dict):
            raise ExportError(f"{where}: expected an object with an options object")
        value = {**value, "options": [[k, v] for k, v in sorted(value["options"].items())]}
    if kind is Card:
        if not isinstance(value, str):
            raise ExportError(f"{where}: expected a card like '7O'")
        try:
            return Card.parse(value)
        except ValueError as exc:
            raise ExportError(f"{where}: {exc}") from None
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _decode_dataclass(kind, value, where, base)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(value)
        except ValueError:
            raise ExportError(f"{where}: {value!r} is not one of {[m.value for m in kind]}") from None
    if kind in (int, str, bool):
        # bool is an int in Python; JSON keeps them apart and so does the export.
        if type(value) is not kind:
            raise ExportError(f"{where}: expected {kind.__name__}, got {type(value).__name__}")
        return value
    if kind is type(None):
        if value is not None:
            raise ExportError(f"{where}: expected null")
        return None
    raise ExportError(f"{where}: cannot read a {kind!r}")  # pragma: no cover - every model type is handled


def _decode_dataclass(kind: type, value: Any, where: str, base: int) -> Any:
    if not isinstance(value, dict):
        raise ExportError(f"{where}: expected an object")
    hints = typing.get_type_hints(kind)
    names = [f.name for f in dataclasses.fields(kind)]
    unknown = set(value) - set(names) - _DERIVED.get(kind, set())
    if unknown:
        raise ExportError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    # A field with a default may be absent (an export made before it existed).
    optional = {f.name for f in dataclasses.fields(kind) if f.default is not dataclasses.MISSING}
    missing = [n for n in names if n not in value and n not in optional]
    if missing:
        raise ExportError(f"{where}: missing field {missing[0]!r}")
    fields = {n: _decode(hints[n], value[n], f"{where}.{n}", base) for n in names if n in value}
    if kind in _HAND_NUMBERS:
        fields[_HAND_NUMBERS[kind]] -= base
        if fields[_HAND_NUMBERS[kind]] < 0:
            raise ExportError(f"{where}.{_HAND_NUMBERS[kind]}: hands are numbered from {base}")
    return kind(**fields)
