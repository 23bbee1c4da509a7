"""The reference ladder with a new bot placed in it, as a table.

The reference bots keep their shipped Elo and interval; the new bot's Elo
comes from its games against them only (``ratings.placement``), so nothing it
does moves the reference bots, and only its results against them move it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from ..match.reference_ladder import ReferenceLadder
from ..ratings.placement import Placement, place
from .tables import Cell, Table

HEADERS = ("rank", "bot", "entry", "elo", "elo 95% low", "elo 95% high", "games vs new", "won by new")


@dataclass(frozen=True)
class LadderResult:
    """The newcomer's record against each reference bot, and where that places it."""

    newcomer: str
    record: dict[str, tuple[int, int]]
    """Reference bot -> (newcomer's wins, losses)"""
    faults: int
    """Games the newcomer lost by its own failure (crash, timeout, illegal move)"""
    games: int
    """Decided games."""
    placement: Placement | None
    """None: no decided game."""


def ladder_result(ladder: ReferenceLadder, newcomer: str, records: Sequence[GameRecord]) -> LadderResult:
    """Count ``newcomer``'s decided games against the reference bots and place it."""
    names = {b.name for b in ladder.bots}
    record = {b.name: (0, 0) for b in ladder.bots}
    faults = games = 0
    for r in records:
        if r.winner is None or newcomer not in (r.bot0, r.bot1):
            continue
        opponent = r.bot1 if r.bot0 == newcomer else r.bot0
        if opponent not in names:
            continue
        w, lost = record[opponent]
        record[opponent] = (w + 1, lost) if r.winner == newcomer else (w, lost + 1)
        games += 1
        faults += r.faulty_bot == newcomer
    placement = place(ladder.reference, record) if games else None
    return LadderResult(newcomer, record, faults, games, placement)


def _r(x: float) -> float:
    return round(x, 1)


def placement_table(ladder: ReferenceLadder, result: LadderResult) -> Table:
    """The ladder, best first, with the newcomer's row where its Elo puts it."""
    rows: list[tuple[Cell, ...]] = []
    p = result.placement
    placed = p is None
    rank = 1
    for bot in ladder.bots:
        if not placed and p is not None and p.elo >= bot.elo:
            rows.append(_new_row(rank, result, p))
            rank, placed = rank + 1, True
        wins, losses = result.record[bot.name]
        rows.append((rank, bot.name, "reference", _r(bot.elo), _r(bot.low), _r(bot.high), wins + losses, wins))
        rank += 1
    if not placed and p is not None:
        rows.append(_new_row(rank, result, p))
    m = ladder.measured
    notes = (
        f"Reference Elo: {m.get('how', 'benchmarks/ladder.py')}; {ladder.variant}, seed {m.get('seed', '?')}, "
        f"{m.get('games_per_pairing', '?')} games per pairing, measured {m.get('date', '?')}; "
        f"anchored at {m.get('anchor', '?')}.",
        f"{result.newcomer}: Elo fitted to its {result.games} games against the fixed reference ratings "
        f"(Bradley-Terry, one virtual draw at the ladder's mean as prior); its interval includes the "
        f"reference ratings' own uncertainty.",
    )
    title = f"Ladder ({ladder.variant}): {result.newcomer} placed"
    return Table("ladder", title, HEADERS, tuple(rows), notes)


def _new_row(rank: int, result: LadderResult, p: Placement) -> tuple[Cell, ...]:
    wins = sum(w for w, _ in result.record.values())
    return (rank, result.newcomer, "new", _r(p.elo), _r(p.low), _r(p.high), result.games, wins)
