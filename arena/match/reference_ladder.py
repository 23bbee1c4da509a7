"""The reference ladder: the sample bots with their measured Elo, as shipped.

``ladder.json`` next to this file is written by ``benchmarks/ladder.py``
(a fixed-seed round robin of the ladder bots): per variant, each bot's
name, command, Elo (anchored at ``ANCHOR = ANCHOR_ELO``) with its 95%
interval, and the fit's covariance, which ``truco-arena ladder`` needs to
place a new bot with an honest interval. The arena knows the ladder bots only
by their commands, never by importing them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DomainError
from ..ratings.placement import Reference

LADDER_FILE = Path(__file__).with_name("ladder.json")
ANCHOR = "heuristic"
ANCHOR_ELO = 1000.0


class LadderDataError(DomainError):
    """The shipped ladder table is missing or unreadable (a broken install)."""


@dataclass(frozen=True)
class LadderBot:
    name: str
    command: str
    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class ReferenceLadder:
    variant: str
    bots: tuple[LadderBot, ...]
    """Best first."""
    covariance: tuple[tuple[float, ...], ...]
    measured: dict[str, Any]

    @property
    def reference(self) -> Reference:
        return Reference(tuple(b.name for b in self.bots), tuple(b.elo for b in self.bots), self.covariance)


def _load_all(path: Path = LADDER_FILE) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise LadderDataError(f"the reference ladder {path} cannot be read ({exc}): reinstall truco-arena or "
                              f"rerun benchmarks/ladder.py --write") from None
    if not isinstance(data, dict):
        raise LadderDataError(f"the reference ladder {path} is not a table of variants")
    return data


def ladder_variants(path: Path = LADDER_FILE) -> tuple[str, ...]:
    """The variants the shipped ladder was measured in."""
    return tuple(sorted(_load_all(path)))


def reference_ladder(variant: str, path: Path = LADDER_FILE) -> ReferenceLadder:
    """The shipped ladder of ``variant``."""
    data = _load_all(path)
    if variant not in data:
        raise LadderDataError(f"the reference ladder has no {variant} table (measured: "
                              f"{', '.join(sorted(data)) or 'none'})")
    try:
        entry = data[variant]
        bots = tuple(LadderBot(str(b["name"]), str(b["command"]), float(b["elo"]), float(b["low"]),
                               float(b["high"])) for b in entry["bots"])
        covariance = tuple(tuple(float(x) for x in row) for row in entry["covariance"])
        measured = dict(entry.get("measured", {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise LadderDataError(f"the reference ladder's {variant} table is malformed ({exc!r})") from None
    if len(covariance) != len(bots) or any(len(row) != len(bots) for row in covariance):
        raise LadderDataError(f"the reference ladder's {variant} covariance does not match its bots")
    return ReferenceLadder(variant, bots, covariance, measured)
