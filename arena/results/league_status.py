"""The tables of ``truco-arena league status``: each bot (connected or not)
with its version, streams, games now and games played; the games running.
Built from the status record and the games table, nothing else."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..games.game_record import GameRecord, checked
from ..games.gameids import id_of_key
from ..league.status import LeagueStatus
from .tables import Table, suspicion_table


def status_tables(status: LeagueStatus | None, rows: Sequence[GameRecord], now: float) -> list[Table]:
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    versions: dict[str, list[str]] = {}
    for row in rows:
        for bot, version in ((row.bot0, row.version0), (row.bot1, row.version1)):
            games[bot] += 1
            seen = versions.setdefault(bot, [])
            if version and version not in seen:
                seen.append(version)
        if row.winner is not None:
            wins[row.winner] += 1
    connected = {b.name: b for b in status.bots} if status is not None else {}
    names = sorted(set(games) | set(connected))
    bot_rows = tuple(
        (name,
         "yes" if name in connected else "no",
         connected[name].version if name in connected else "",
         connected[name].streams if name in connected else 0,
         connected[name].playing if name in connected else 0,
         games[name], wins[name], games[name] - wins[name],
         ", ".join(versions.get(name, [])))
        for name in names
    )
    state = "no status recorded yet" if status is None else status.state(now)
    notes = (f"league: {state}" + ("" if status is None else
                                   f" (process {status.pid}, status {max(0.0, now - status.updated_at):.0f} s old)"),
             "A bot's versions are those it announced in the games it played; one name is one entrant.")
    running = () if status is None or status.state(now) != "running" else tuple(
        (id_of_key(g.key), g.bot0, g.bot1, round(max(0.0, now - g.since), 1)) for g in status.games
    )
    return [
        Table("bots", "Bots",
              ("bot", "connected", "version", "streams", "playing", "games", "wins", "losses", "versions played"),
              bot_rows, notes),
        Table("running", "Games running", ("game", "bot 0", "bot 1", "seconds"), running),
        suspicion_table(checked(rows)),
    ]
