"""Variant presets and their options (RULES.md section 7).

An unknown key or an invalid value raises ``OptionsError`` naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

VARIANTS = ("argentino", "uruguayo", "venezolano")
FALTA_MODES = ("leader", "malas_buenas")


class OptionsError(ValueError):
    """An option key or value that the variant does not accept."""


@dataclass(frozen=True, slots=True)
class Options:
    variant: str = "argentino"
    seats: int = 2
    target: int = 30
    flor: bool = True
    # None where the variant has no falta envido (venezolano).
    falta_envido: str | None = "leader"
    # Only meaningful for argentino with 6 seats (RULES.md section 8).
    pico_a_pico: bool = False

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


_PRESETS: dict[str, Options] = {
    "argentino": Options("argentino", 2, 30, True, "leader", True),
    "uruguayo": Options("uruguayo", 2, 30, True, "leader", False),
    "venezolano": Options("venezolano", 2, 24, True, None, False),
}
_KEYS = ("seats", "target", "flor", "falta_envido", "pico_a_pico")


def make_options(variant: str, overrides: Mapping[str, Any] | None = None) -> Options:
    """The preset of ``variant`` with ``overrides`` applied and checked."""
    if variant not in _PRESETS:
        raise OptionsError(f"variant: unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    return _apply(_PRESETS[variant], overrides or {}, derive_pico=True)


def with_overrides(options: Options, overrides: Mapping[str, Any]) -> Options:
    """``options`` with ``overrides`` applied, checked exactly as ``make_options``
    checks them (an ``OptionsError`` names the key). ``pico_a_pico`` follows
    a changed ``seats`` unless it is given too; otherwise it is kept."""
    return _apply(options, overrides, derive_pico="seats" in overrides)


def _apply(opts: Options, overrides: Mapping[str, Any], derive_pico: bool) -> Options:
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in _KEYS:
            raise OptionsError(f"options.{key}: unknown option (expected one of {', '.join(_KEYS)})")
        changes[key] = value
    opts = replace(opts, **changes)
    _check(opts, set(changes))
    if derive_pico and "pico_a_pico" not in changes:
        opts = replace(opts, pico_a_pico=opts.variant == "argentino" and opts.seats == 6)
    return opts


def _check(o: Options, given: set[str]) -> None:
    def bad(key: str, why: str) -> OptionsError:
        return OptionsError(f"options.{key}: {why}")

    if type(o.seats) is not int:
        raise bad("seats", f"expected a whole number, got {o.seats!r}")
    allowed_seats = (2, 4, 6) if o.variant == "argentino" else (2,)
    if o.seats not in allowed_seats:
        raise bad("seats", f"{o.variant} is played with {' or '.join(map(str, allowed_seats))} seats, not {o.seats}")
    if type(o.target) is not int or o.target < 1:
        raise bad("target", f"expected a positive whole number, got {o.target!r}")
    if type(o.flor) is not bool:
        raise bad("flor", f"expected true or false, got {o.flor!r}")
    if o.variant == "venezolano":
        if "falta_envido" in given and o.falta_envido is not None:
            raise bad("falta_envido", "venezolano has no falta envido (envido raises by N instead)")
    elif o.falta_envido not in FALTA_MODES:
        raise bad("falta_envido", f"expected one of {', '.join(map(repr, FALTA_MODES))}, got {o.falta_envido!r}")
    if type(o.pico_a_pico) is not bool:
        raise bad("pico_a_pico", f"expected true or false, got {o.pico_a_pico!r}")
    if "pico_a_pico" in given and o.pico_a_pico and not (o.variant == "argentino" and o.seats == 6):
        raise bad("pico_a_pico", "pico a pico exists only in argentino with 6 seats")
