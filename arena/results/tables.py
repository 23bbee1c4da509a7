"""Result views as plain tables: a title, headers and rows of plain values.

Every output format (tabulate's, JSON, CSV, a whole HTML page) is rendered
from these, so the numbers are the same whatever the format.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ..games.game_record import GameRecord
from ..ratings import (
    bootstrap_intervals,
    compare,
    cross_table,
    failure_counts,
    fit_ratings,
    ladder,
    pair_stats,
    standings,
)
from ..ratings.collusion import Suspicion, suspicious_pairs
from ..ratings.failures import failed_games

Cell = str | int | float | None


@dataclass(frozen=True)
class Table:
    name: str
    """Machine name: standings, cross, pairs, failures, ladder, compare."""
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()

    def as_dicts(self) -> list[dict[str, Cell]]:
        return [dict(zip(self.headers, row)) for row in self.rows]


def bot_versions(rows: Sequence[GameRecord]) -> dict[str, str]:
    """Each bot's latest recorded ``bot_version`` (a league records them; a
    new version under the same name is the same entrant, docs/league.md)."""
    latest: dict[str, str] = {}
    for r in rows:
        for bot, version in ((r.bot0, r.version0), (r.bot1, r.version1)):
            if version:
                latest[bot] = version
    return latest


def _r(x: float | None, nd: int = 1) -> float | None:
    return None if x is None else round(x, nd)


def standings_table(records: Sequence[GameRecord], anchor: str | None = None,
                    bootstrap: int = 0, seed: int = 0, versions: Mapping[str, str] | None = None,
                    owners: Mapping[str, str] | None = None, persons: Collection[str] = ()) -> Table:
    """The ratings table; with ``versions`` (bot -> latest version), a version
    column; with ``owners`` (bot -> owner, a league's), an owner column; with
    ``persons`` (a league's entrants that are people), a person column."""
    fit = fit_ratings(records, anchor=anchor)
    boot = bootstrap_intervals(records, replicates=bootstrap, seed=seed, anchor=anchor) if bootstrap else None
    table = standings(records, fit=fit, bootstrap=boot)
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (s.rank, s.bot, s.games, s.wins, s.losses, _r(s.score_pct), _r(s.elo), _r(s.elo_low), _r(s.elo_high),
         _r(None if s.los_next is None else 100 * s.los_next))
        for s in table
    )
    how = (f"bootstrap over duplicate pairs ({bootstrap} resamples; LOS too)" if bootstrap
           else "the fit's standard errors (Fisher information)")
    warnings: list[str] = []
    if boot is not None:
        fisher = [s.bot for s in table if s.interval_method == "fisher"]
        if fisher:
            warnings.append(f"{', '.join(fisher)}: won or lost every game, where the bootstrap interval collapses; "
                            f"shown with the fit's (Fisher) interval instead.")
        if boot.few_units:
            warnings.append(f"warning: only {boot.units} duplicate pairs (or lone games) to resample; at this size "
                            f"bootstrap intervals under-cover (about 90% for 95%): prefer the default intervals.")
    anchor_note = f"{anchor} fixed at 1500" if anchor else "mean of all bots at 1500"
    headers: tuple[str, ...] = ("rank", "bot", "games", "wins", "losses", "score %", "elo", "elo 95% low",
                                "elo 95% high", "LOS next %")
    if versions:
        headers = (*headers[:2], "version", *headers[2:])
        rows = tuple((*row[:2], versions.get(str(row[1]), ""), *row[2:]) for row in rows)
    if owners:
        headers = (*headers[:2], "owner", *headers[2:])
        rows = tuple((*row[:2], owners.get(str(row[1]), str(row[1])), *row[2:]) for row in rows)
    if persons:
        headers = (*headers[:2], "person", *headers[2:])
        rows = tuple((*row[:2], "yes" if str(row[1]) in persons else "", *row[2:]) for row in rows)
    return Table(
        "standings", "Standings",
        headers,
        rows,
        (f"Elo: joint Bradley-Terry maximum-likelihood fit, {anchor_note}, one virtual draw per bot as prior;"
         f" 95% interval from {how}. LOS: likelihood of superiority over the next bot.", *warnings),
    )


def cross_table_view(records: Sequence[GameRecord]) -> Table:
    ct = cross_table(records)
    cells = {(c.row, c.col): c for c in ct.cells}
    rows = []
    for row in ct.bots:
        line: list[Cell] = [row]
        for col in ct.bots:
            c = cells.get((row, col))
            line.append("" if c is None or not c.games else f"{c.wins}/{c.games}")
        rows.append(tuple(line))
    return Table("cross", "Cross table (row's wins / games against column)", ("bot", *ct.bots), tuple(rows))


def pairs_table(records: Sequence[GameRecord]) -> Table:
    rows = tuple(
        (p.bot_x, p.bot_y, p.complete_pairs, p.x_sweeps, p.splits, p.y_sweeps, p.incomplete_pairs)
        for p in pair_stats(records)
    )
    notes: tuple[str, ...] = ()
    if not rows:  # say why, rather than print an empty table
        notes = ("No duplicate pairs: every game was played on a deal of its own (pairing = \"independent\", "
                 "the default of a league and of a tournament with a bot that connects by itself).",)
    return Table("pairs", "Duplicate pairs (same deal, seats swapped)",
                 ("bot x", "bot y", "pairs", "x won 2-0", "split 1-1", "y won 2-0", "incomplete"), rows, notes)


def suspicion_table(records: Sequence[GameRecord], found: Sequence[Suspicion] | None = None) -> Table:
    """Pairs whose results against each other are far from their ratings
    (``ratings.collusion``): a sybil folding to its partner, a thrown game."""
    found = suspicious_pairs(records) if found is None else found
    rows = tuple((s.winner, s.loser, s.games, s.wins, round(s.expected, 1), round(s.z, 1), s.evidence())
                 for s in found)
    notes = ("Each pair with 10 or more games between them is judged by ratings fitted without those games; "
             "flagged at z >= 5 (a likelihood ratio). A flag is evidence to look at (replay the games), not a verdict. "
             "Rate without them: standings --without-suspicious; keep them apart: token owner.",)
    return Table("suspicious", "Suspicious pairs (results against each other far from their ratings)",
                 ("gained", "gave", "games", "won", "expected", "z", "evidence"), rows, notes)


def failures_table(records: Sequence[GameRecord]) -> Table:
    rows = tuple(
        (f.bot, f.timeouts, f.disconnects, f.illegal_actions, f.protocol_errors, f.total, f.fallbacks)
        for f in failure_counts(records)
    )
    return Table("failures", "Failures (games lost by a bot's own fault; fallbacks: moves its code failed to "
                 "choose, played for it as the first legal action)",
                 ("bot", "timeouts", "disconnects", "illegal actions", "protocol errors", "total", "fallbacks"),
                 rows)


def failed_games_table(records: Sequence[GameRecord]) -> Table:
    rows = tuple((f.game_id, f.bot, f.kind, f.reason or None) for f in failed_games(records))
    return Table("failed_games", "Games lost by a failure", ("game", "bot", "failure", "reason"), rows,
                 () if rows else ("No game was lost by a failure.",))


def cpu_table(records: Sequence[GameRecord]) -> Table:
    """CPU seconds per game of each launched bot, as its sandbox measured them."""
    spent: dict[str, list[float]] = {}
    for r in records:
        for bot, cpu in ((r.bot0, r.cpu0), (r.bot1, r.cpu1)):
            if cpu is not None:
                spent.setdefault(bot, []).append(cpu)
    rows = tuple((bot, len(s), round(sum(s), 3), round(sum(s) / len(s), 4), round(max(s), 4))
                 for bot, s in sorted(spent.items()))
    notes = ("Measured by each bot's sandbox (its control groups); a bot playing several games at once has "
             "its CPU split evenly among them. Bots that connect by themselves are not measured.",)
    return Table("cpu", "CPU seconds per game", ("bot", "games measured", "total s", "mean s", "max s"), rows,
                 notes if rows else ("No CPU time was measured (no bot ran in a sandbox with control groups).",))


def ladder_table(records: Sequence[GameRecord]) -> Table:
    rows = tuple((r.rank, r.bot, r.points, r.wins, r.losses) for r in ladder(records))
    return Table("ladder", "Ladder points (+30 per win, -20 per loss, never below zero)",
                 ("rank", "bot", "points", "wins", "losses"), rows)


def compare_table(old: Sequence[GameRecord], new: Sequence[GameRecord]) -> Table:
    c = compare(old, new)
    rows = tuple(
        (r.bot, r.old_rank, r.new_rank, f"{r.rank_move:+d}", _r(r.old_elo), _r(r.new_elo), _r(r.delta),
         _r(r.delta_low), _r(r.delta_high))
        for r in c.rows
    )
    notes = [
        f"Spearman rank correlation: {'n/a' if c.spearman is None else f'{c.spearman:.3f}'}; "
        f"Kendall tau: {'n/a' if c.kendall_tau is None else f'{c.kendall_tau:.3f}'}",
    ]
    if c.added:
        notes.append("only in B: " + ", ".join(c.added))
    if c.removed:
        notes.append("only in A: " + ", ".join(c.removed))
    return Table("compare", "Ranking changes from A to B",
                 ("bot", "rank A", "rank B", "move", "elo A", "elo B", "delta", "delta 95% low", "delta 95% high"),
                 rows, tuple(notes))


VIEWS = ("standings", "cross", "pairs", "failures", "ladder", "cpu")


def views(records: Sequence[GameRecord], names: Sequence[str] = VIEWS, anchor: str | None = None,
          bootstrap: int = 0, versions: Mapping[str, str] | None = None,
          owners: Mapping[str, str] | None = None, persons: Collection[str] = ()) -> list[Table]:
    out: list[Table] = []
    for name in names:
        if name == "standings":
            out.append(standings_table(records, anchor, bootstrap, versions=versions, owners=owners,
                                       persons=persons))
        elif name == "cross":
            out.append(cross_table_view(records))
        elif name == "pairs":
            out.append(pairs_table(records))
            out.append(suspicion_table(records))
        elif name == "failures":  # the counts, then each game behind them
            out.append(failures_table(records))
            out.append(failed_games_table(records))
        elif name == "ladder":
            out.append(ladder_table(records))
        elif name == "cpu":
            out.append(cpu_table(records))
        else:
            raise ValueError(f"unknown view {name!r}")
    return out


def render(tables: Sequence[Table], fmt: str) -> str:
    """Render with a tabulate format, or ``json`` / ``csv``."""
    import csv
    import io
    import json

    if fmt == "json":
        payload: dict[str, Any] = {
            t.name: {"title": t.title, "rows": t.as_dicts(), "notes": list(t.notes)} for t in tables
        }
        return json.dumps(payload, indent=2)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for i, t in enumerate(tables):
            if len(tables) > 1:
                w.writerow([f"# {t.name}"])
            w.writerow(t.headers)
            w.writerows(t.rows)
            if i + 1 < len(tables):
                buf.write("\n")
        return buf.getvalue().rstrip("\n")
    if fmt == "html":
        return html_page(tables)
    from tabulate import tabulate

    parts = []
    for t in tables:
        body = tabulate(t.rows, headers=t.headers, tablefmt=fmt, floatfmt=".1f", missingval="-")
        parts.append("\n".join([t.title, body, *t.notes]))
    return "\n\n".join(parts)


# ``--format html``: a whole page (doctype, charset, title), not a fragment,
# so the output can be saved and opened in a browser as it is.
_STYLE = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
          "th,td{border:1px solid #ccc;padding:.2em .6em}")


def html_page(tables: Sequence[Table], title: str = "Truco Arena results") -> str:
    from tabulate import tabulate

    body = []
    for t in tables:
        # tabulate's "html" format escapes every cell, so a bot name cannot inject markup.
        table = tabulate(t.rows, headers=t.headers, tablefmt="html", floatfmt=".1f", missingval="-")
        notes = "".join(f"\n<p>{escape(n)}</p>" for n in t.notes)
        body.append(f'<section id="{escape(t.name)}">\n<h2>{escape(t.title)}</h2>\n{table}{notes}\n</section>')
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        *body,
        "</body>",
        "</html>",
    ])
