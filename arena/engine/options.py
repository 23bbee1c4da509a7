"""Variant presets and their options (docs/rules.md section 7).

An unknown key or an invalid value raises ``OptionsError`` naming the key.
What each variant allows comes from its record in ``variants.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from arena.errors import UsageError

from .variants import VARIANT_BY_NAME, VARIANT_LIST, EnvidoMode, Variant

VARIANTS: tuple[str, ...] = tuple(v.name for v in VARIANT_LIST)


class OptionsError(UsageError, ValueError):
    """An option key or value that the variant does not accept."""


@dataclass(frozen=True, slots=True)
class Options:
    variant: str = "argentino"
    seats: int = 2
    target: int = 30
    flor: bool = True
    falta_envido: str | None = "leader"
    """None where the variant has no falta envido (venezolano)."""
    pico_a_pico: bool = False
    """Only meaningful for argentino with 6 seats (docs/rules.md section 8)."""

    @property
    def half(self) -> int:
        """The score that ends the "malas": half the target, rounded up."""
        return (self.target + 1) // 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seats": self.seats,
            "target": self.target,
            "flor": self.flor,
            "falta_envido": self.falta_envido,
            "pico_a_pico": self.pico_a_pico,
        }


def _preset(v: Variant) -> Options:
    falta = v.falta_modes[0].value if v.falta_modes else None
    return Options(v.name, v.seats[0], v.default_target, True, falta, False)


_PRESETS: dict[str, Options] = {v.name: _preset(v) for v in VARIANT_LIST}
_KEYS = ("seats", "target", "flor", "falta_envido", "pico_a_pico")


def variant_named(name: str) -> Variant:
    """The record of the variant called ``name``; ``OptionsError`` if none is."""
    v = VARIANT_BY_NAME.get(name)
    if v is None:
        raise OptionsError(f"variant: unknown variant {name!r} (expected one of {', '.join(VARIANTS)})")
    return v


def make_options(variant: str, overrides: Mapping[str, Any] | None = None) -> Options:
    """The preset of ``variant`` with ``overrides`` applied and checked."""
    return _apply(_PRESETS[variant_named(variant).name], overrides or {}, derive_pico=True)


def with_overrides(options: Options, overrides: Mapping[str, Any]) -> Options:
    """``options`` with ``overrides`` applied, checked exactly as ``make_options``
    checks them (an ``OptionsError`` names the key). ``pico_a_pico`` follows
    a changed ``seats`` unless it is given too; otherwise it is kept."""
    return _apply(options, overrides, derive_pico="seats" in overrides)


def _apply(opts: Options, overrides: Mapping[str, Any], derive_pico: bool) -> Options:
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in _KEYS:
            shown = key if str(key).isprintable() else repr(key)  # one line whatever the key holds
            raise OptionsError(f"options.{shown}: unknown option (expected one of {', '.join(_KEYS)})")
        changes[key] = value
    opts = replace(opts, **changes)
    _check(opts, set(changes))
    if derive_pico and "pico_a_pico" not in changes:
        opts = replace(opts, pico_a_pico=VARIANT_BY_NAME[opts.variant].pico_a_pico_seats == opts.seats)
    return opts


def _check(o: Options, given: set[str]) -> None:
    def bad(key: str, why: str) -> OptionsError:
        return OptionsError(f"options.{key}: {why}")

    v = VARIANT_BY_NAME[o.variant]
    if type(o.seats) is not int:
        raise bad("seats", f"expected a whole number, got {o.seats!r}")
    if o.seats not in v.seats:
        raise bad("seats", f"{o.variant} is played with {' or '.join(map(str, v.seats))} seats, not {o.seats}")
    if type(o.target) is not int or o.target < 1:
        raise bad("target", f"expected a positive whole number, got {o.target!r}")
    if type(o.flor) is not bool:
        raise bad("flor", f"expected true or false, got {o.flor!r}")
    if not v.falta_modes:
        if "falta_envido" in given and o.falta_envido is not None:
            instead = " (envido raises by N instead)" if v.envido_mode is EnvidoMode.RAISE else ""
            raise bad("falta_envido", f"{o.variant} has no falta envido{instead}")
    elif o.falta_envido not in v.falta_modes:
        expected = ", ".join(repr(m.value) for m in v.falta_modes)
        raise bad("falta_envido", f"expected one of {expected}, got {o.falta_envido!r}")
    if type(o.pico_a_pico) is not bool:
        raise bad("pico_a_pico", f"expected true or false, got {o.pico_a_pico!r}")
    if "pico_a_pico" in given and o.pico_a_pico and v.pico_a_pico_seats != o.seats:
        where = " or ".join(f"{p.name} with {p.pico_a_pico_seats} seats" for p in VARIANT_LIST if p.pico_a_pico_seats)
        raise bad("pico_a_pico", f"pico a pico exists only in {where}")
