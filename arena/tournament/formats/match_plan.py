"""What a ``format = "match"`` or ``"gauntlet"`` config asks for, validated.

Keys (all top-level in the tournament config)::

    format = "match"                # "round_robin" (default), "match", "gauntlet" or "swiss" (swiss.py)
    sprt = { elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05 }   # until the SPRT decides...
    games = 200                     # ...or a fixed number of games per opponent (even)
    max_games = 20000               # SPRT safety cap per opponent (even)
    challenger = "new"              # gauntlet: the bot that meets every other (default: the first)

A match has exactly two bots and the first is the challenger (bot A of the
SPRT). Every problem is a ``ValueError`` whose message starts with the key,
which the config turns into its ``ConfigError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ...games.settings import known_keys
from ...ratings.sprt import SprtBounds

# An SPRT rarely needs more: [0, 5] Elo at a split rate of 0.3 averages about
# 17,900 pairs (docs/sprt.md). The cap only bounds a test whose true Elo sits
# between elo0 and elo1 for ever; the schedule holds this many games in memory.
DEFAULT_MAX_GAMES = 20_000
MAX_GAMES = 1_000_000
MAX_TOTAL_GAMES = 10_000_000  # the schedule is built in memory, as for a round robin
MATCH_KEYS = ("format", "sprt", "games", "max_games", "challenger")
_SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


class MatchFormat(StrEnum):
    ROUND_ROBIN = "round_robin"
    MATCH = "match"
    GAUNTLET = "gauntlet"
    SWISS = "swiss"


@dataclass(frozen=True)
class MatchPlan:
    format: MatchFormat
    challenger: str  # bot A of every SPRT
    opponents: tuple[str, ...]
    bounds: SprtBounds | None  # None: a fixed number of games
    games: int  # per opponent: the fixed count, or the cap of the SPRT

    @property
    def pairs(self) -> int:
        return self.games // 2


def _whole_even(data: Mapping[str, Any], key: str, low: int) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key}: expected a whole number of games, got {value!r}")
    if value % 2 or not low <= value <= MAX_GAMES:
        raise ValueError(f"{key}: must be an even number of games (duplicate pairs) from {low} to {MAX_GAMES}, "
                         f"got {value}")
    return value


def _bounds(given: Any) -> SprtBounds:
    if not isinstance(given, dict):
        raise ValueError(f"sprt: expected a table like {{ elo0 = 0, elo1 = 20 }}, got {given!r}")
    known_keys(given, _SPRT_KEYS, "sprt.")
    for key in ("elo0", "elo1"):
        if key not in given:
            raise ValueError(f"sprt.{key}: missing (an SPRT needs elo0 and elo1)")
    try:
        return SprtBounds(**given)
    except ValueError as exc:
        # SprtBounds' messages start with the field they are about.
        message = str(exc)
        key = next((k for k in _SPRT_KEYS if message.startswith(k)), "sprt")
        raise ValueError(f"sprt.{key}: {message}" if key != "sprt" else f"sprt: {message}") from None
    except TypeError:  # a value of a type SprtBounds cannot even compare
        raise ValueError(f"sprt: expected numbers, got {given!r}") from None


def parse_match_plan(data: Mapping[str, Any], bots: Sequence[str], duplicate: bool) -> MatchPlan | None:
    """The plan of ``data`` (a parsed config), or None for a round robin.
    ``bots`` are the config's bot names in order; ``duplicate`` its pairing."""
    given = data.get("format", MatchFormat.ROUND_ROBIN.value)
    names = ", ".join(f'"{f.value}"' for f in MatchFormat)
    if not isinstance(given, str) or given not in {f.value for f in MatchFormat}:
        raise ValueError(f"format: expected one of {names}, got {given!r}")
    fmt = MatchFormat(given)
    if fmt in (MatchFormat.ROUND_ROBIN, MatchFormat.SWISS):
        for key in MATCH_KEYS[1:]:
            if key in data:
                raise ValueError(f'{key}: only for format = "match" or "gauntlet"')
        return None
    if "games_per_pairing" in data:
        raise ValueError(f'games_per_pairing: not used by format = "{fmt.value}"; give games or sprt')
    if not duplicate:
        raise ValueError(f'pairing: format = "{fmt.value}" plays duplicate pairs; set pairing = "duplicate"')
    if ("sprt" in data) == ("games" in data):
        raise ValueError(f'sprt, games: format = "{fmt.value}" needs exactly one of them')
    bounds = _bounds(data["sprt"]) if "sprt" in data else None
    if bounds is None and "max_games" in data:
        raise ValueError("max_games: only with sprt (games is already a fixed count)")
    if bounds is None:
        games = _whole_even(data, "games", 2)
    else:
        games = _whole_even(data, "max_games", 2) if "max_games" in data else DEFAULT_MAX_GAMES
    if games * (len(bots) - 1) > MAX_TOTAL_GAMES:
        raise ValueError(f"{'games' if bounds is None else 'max_games'}: {games} games for each of "
                         f"{len(bots) - 1} opponents is more than the {MAX_TOTAL_GAMES} a run may schedule")
    if fmt is MatchFormat.MATCH:
        if "challenger" in data:
            raise ValueError('challenger: only for format = "gauntlet" (a match\'s challenger is its first bot)')
        if len(bots) != 2:
            raise ValueError(f'bots: format = "match" needs exactly two bots, got {len(bots)}')
        return MatchPlan(fmt, bots[0], (bots[1],), bounds, games)
    challenger = data.get("challenger", bots[0])
    if not isinstance(challenger, str) or challenger not in bots:
        raise ValueError(f"challenger: expected the name of one of the bots ({', '.join(bots)}), got {challenger!r}")
    return MatchPlan(fmt, challenger, tuple(b for b in bots if b != challenger), bounds, games)

