"""Random-play throughput of the rules engine, optionally against pytruco.

Usage::

    python benchmarks/engine.py [--games N] [--runs R] [--seed S] [--pytruco-games M]

Workload (the same for every row): a whole game from a fresh deal until it is
over, each action drawn uniformly at random from the legal actions, with the
mazo filtered out (``Kind.MAZO`` is taken only when it is the sole legal
action, which our engine never offers alone).  Rows:

* uruguayo 1v1 to 30,
* argentino 1v1, 4 seats and 6 seats (pico a pico on, as the preset says),
  all to 30,
* venezolano 1v1 at its preset target of 24, and again at target 30
  (``Game("venezolano", target=30)``) when the engine accepts it.

Each run plays the same ``--games`` games (game ``i`` is dealt with
``seed + i``, the actions are drawn from ``random.Random(seed)``), so every
run does identical work and the median over ``--runs`` runs only filters the
machine's noise; the actions-per-game column doubles as a determinism check.
Times include creating each game (``new_state``) and the engine's event log,
which our engine always records (as compact records; the event objects are
built when ``State.events`` is read, and this workload never reads them).  Every row first plays 10 untimed warm-up
games.

pytruco (PyPI, a pure-Python Uruguayan engine; not a project dependency) is
measured in the same run when it is importable, interleaved with our
uruguayo row inside each run so both share the machine's noise.  It is driven
as closely as possible to the same workload:

* ``Partida(30, ["A"], ["B"], verbose=False)``: 1 v 1 to 30, its quiet mode
  (no message envelopes built, as in pytruco's own ``bench.py``);
  ``limite_envido`` is left at its default;
* legal actions are ``pytruco.pdt.chi.chis(p, allow_mazo=False)``: the
  validated candidate actions of *every* seat, because pytruco lets a seat
  that is not on turn act (e.g. answer or call out of turn).  We draw
  uniformly from the union of all seats' lists (pytruco's own
  ``random_action`` instead picks a seat first, then an action, which is not
  uniform over actions).  "Irse al mazo" is excluded; if no other action
  exists the mazo is allowed for that step only;
* the game ends when ``p.terminada()`` (a side has 30 or more), checked after
  every action, the same moment our engine ends a game (docs/rules.md section 6);
* pytruco deals from the global ``random`` module, so it is reseeded with
  ``seed + i`` before game ``i``; its choices come from ``random.Random(seed)``.

The ratio printed is ours (uruguayo 1v1 to 30) / pytruco, from the medians
and also the median of the per-run ratios.  The project's goal is >= 100x
(48-50x before the engine's data-layout work, 31-35x on a busy machine).

A second table gives the cost of copying a game in progress, as a search bot
does before trying an action: ``State.copy()`` next to ``copy.deepcopy``, in
microseconds per copy (median over ``--runs`` runs).  The states copied are
taken from seeded random games of each configuration, after 10, 40 and 120
actions (or at the end when the game is shorter), so early and late states
with short and long event logs are all measured.
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

try:
    from arena.engine import Game, Kind, State
    from arena.engine.options import OptionsError
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from arena.engine import Game, Kind, State
    from arena.engine.options import OptionsError

GOAL_RATIO = 100.0


@dataclass
class Row:
    label: str
    target: int
    note: str
    run: Callable[[int, int], int]  # (games, seed) -> actions taken
    games: int = 0
    rates: list[float] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)


# --------------------------------------------------------------------- ours


def _ours_runner(game: Game) -> Callable[[int, int], int]:
    mazo = Kind.MAZO

    def run(games: int, seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        steps = 0
        for i in range(games):
            st = game.new_state(seed=seed + i)
            while not st.is_terminal():
                acts = st.legal_actions()
                pool = [a for a in acts if a.kind is not mazo] or acts
                st.apply(choice(pool))
                steps += 1
        return steps

    return run


def our_rows() -> list[Row]:
    rows = [
        Row("ours uruguayo 1v1", 30, "", _ours_runner(Game("uruguayo", target=30))),
        Row("ours argentino 1v1", 30, "", _ours_runner(Game("argentino", target=30))),
        Row("ours argentino 4 seats", 30, "2 v 2", _ours_runner(Game("argentino", seats=4, target=30))),
        Row("ours argentino 6 seats", 30, "3 v 3, pico a pico",
            _ours_runner(Game("argentino", seats=6, target=30))),
    ]
    ven = Game("venezolano")
    rows.append(Row("ours venezolano 1v1", ven.options.target,
                    f"preset target {ven.options.target}", _ours_runner(ven)))
    try:
        ven30 = Game("venezolano", target=30)
    except OptionsError as exc:
        print(f"note: venezolano at target 30 not measured: {exc}")
    else:
        rows.append(Row("ours venezolano 1v1", 30, "target overridden to 30", _ours_runner(ven30)))
    return rows


# ------------------------------------------------------------------ pytruco


def pytruco_row() -> Row | None:
    try:
        import pytruco  # noqa: F401
        from pytruco.pdt.chi import chis
        from pytruco.pdt.partida import Partida
    except ImportError:
        return None

    def run(games: int, seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        steps = 0
        for i in range(games):
            random.seed(seed + i)  # pytruco deals from the global generator
            p: Any = Partida(30, ["A"], ["B"], verbose=False)
            while not p.terminada():
                pool = [a for chi in chis(p, allow_mazo=False) for a in chi]
                if not pool:
                    pool = [a for chi in chis(p, allow_mazo=True) for a in chi]
                choice(pool).hacer(p)
                steps += 1
        return steps

    version = getattr(pytruco, "__version__", "?")
    return Row(f"pytruco {version} 1v1", 30, "uruguayo, verbose=False", run)


# -------------------------------------------------------------- copy cost

COPY_CONFIGS = (("argentino", 2), ("argentino", 6), ("uruguayo", 2), ("venezolano", 2))
COPY_POINTS = (10, 40, 120)  # actions played before the copy


def _states_to_copy(variant: str, seats: int, seed: int) -> list[State]:
    states = []
    for i, steps in enumerate(COPY_POINTS):
        st = Game(variant, seats=seats).new_state(seed=seed + i)
        rng = random.Random(seed + i)
        for _ in range(steps):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
        states.append(st)
    return states


def _per_copy_us(states: list[State], make: Callable[[State], object], repeat: int) -> float:
    gc.collect()
    t0 = time.perf_counter()
    for _ in range(repeat):
        for st in states:
            make(st)
    return (time.perf_counter() - t0) / (repeat * len(states)) * 1e6


def print_copy_costs(runs: int, seed: int) -> None:
    header = ("copy of a game in progress", "events", "copy() us", "deepcopy us", "ratio")
    lines = []
    for variant, seats in COPY_CONFIGS:
        states = _states_to_copy(variant, seats, seed)
        cheap = [_per_copy_us(states, State.copy, 2000) for _ in range(runs)]
        deep = [_per_copy_us(states, copy.deepcopy, 50) for _ in range(runs)]
        c, d = statistics.median(cheap), statistics.median(deep)
        events = "/".join(str(len(st.events)) for st in states)
        lines.append((f"{variant} {seats} seats", events, f"{c:.1f}", f"{d:,.0f}", f"{d / c:,.0f}x"))
    widths = [max(len(x[c]) for x in lines + [header]) for c in range(len(header))]
    print()
    print("  ".join(h.ljust(w) if k == 0 else h.rjust(w) for k, (h, w) in enumerate(zip(header, widths))))
    print("  ".join("-" * w for w in widths))
    for line in lines:
        print("  ".join(v.ljust(w) if k == 0 else v.rjust(w) for k, (v, w) in enumerate(zip(line, widths))))
    print(f"(states after {', '.join(map(str, COPY_POINTS))} random actions; median of {runs} runs)")


# -------------------------------------------------------------------- main


def table_rows(rows: list[Row], ref: Row | None) -> list[Row]:
    return rows + ([ref] if ref is not None else [])


def _measure(row: Row, games: int, seed: int) -> None:
    gc.collect()
    t0 = time.perf_counter()
    steps = row.run(games, seed)
    dt = time.perf_counter() - t0
    row.games = games
    row.rates.append(games / dt)
    row.actions.append(steps)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games per run and row (default 300)")
    ap.add_argument("--runs", type=int, default=5, help="runs; the table shows medians (default 5)")
    ap.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    ap.add_argument("--pytruco-games", type=int, default=None,
                    help="games per run for pytruco (default: --games)")
    ap.add_argument("--no-pytruco", action="store_true", help="skip pytruco even if installed")
    ap.add_argument("--copy-only", action="store_true", help="only the copy-cost table")
    args = ap.parse_args(argv)
    if args.games < 1 or args.runs < 1:
        ap.error("--games and --runs must be >= 1")
    py_games = args.pytruco_games or args.games
    if args.copy_only:
        print_copy_costs(args.runs, args.seed)
        return 0

    rows = our_rows()
    ref = None if args.no_pytruco else pytruco_row()
    print(f"python {sys.version.split()[0]}, {args.runs} runs x {args.games} games"
          + (f" (pytruco: {py_games})" if ref else "") + f", seed {args.seed}; "
          "uniformly random legal actions, never mazo")
    if ref is None and not args.no_pytruco:
        print("pytruco not installed: no comparison (python -m venv /tmp/bench && "
              "/tmp/bench/bin/pip install pytruco && /tmp/bench/bin/pip install -e .)")

    for row in table_rows(rows, ref):  # untimed warm-up: imports, caches, lru tables
        row.run(min(10, args.games), args.seed + 1_000_000)

    ratios: list[float] = []
    for r in range(args.runs):
        for i, row in enumerate(rows):
            _measure(row, args.games, args.seed)
            if i == 0 and ref is not None:  # interleave with our uruguayo row
                _measure(ref, py_games, args.seed)
                ratios.append(row.rates[-1] / ref.rates[-1])
        print(f"  run {r + 1}/{args.runs} done", file=sys.stderr)

    table = table_rows(rows, ref)
    header = ("workload", "target", "games", "actions/game", "games/s (median)", "min..max", "actions/s", "note")
    lines = []
    for row in table:
        med = statistics.median(row.rates)
        apg = row.actions[0] / row.games
        flag = "" if len(set(row.actions)) == 1 else " (!) varies"
        lines.append((row.label, str(row.target), str(row.games), f"{apg:.1f}{flag}", f"{med:,.0f}",
                      f"{min(row.rates):,.0f}..{max(row.rates):,.0f}", f"{med * apg:,.0f}", row.note))
    widths = [max(len(x[c]) for x in lines + [header]) for c in range(len(header))]
    right = {1, 2, 3, 4, 5, 6}

    def fmt(cells: tuple[str, ...]) -> str:
        return "  ".join(c.rjust(w) if k in right else c.ljust(w)
                         for k, (c, w) in enumerate(zip(cells, widths))).rstrip()

    print()
    print(fmt(header))
    print("  ".join("-" * w for w in widths))
    for line in lines:
        print(fmt(line))
    print()
    if ref is not None:
        ours = statistics.median(rows[0].rates)
        theirs = statistics.median(ref.rates)
        ratio = ours / theirs
        verdict = "meets" if ratio >= GOAL_RATIO else "BELOW"
        print(f"ratio ours/pytruco (uruguayo 1v1 to 30, games/s): {ratio:.1f}x from medians, "
              f"{statistics.median(ratios):.1f}x median of per-run ratios "
              f"({min(ratios):.1f}..{max(ratios):.1f}); {verdict} the {GOAL_RATIO:.0f}x goal")
        apg_ours = rows[0].actions[0] / rows[0].games
        apg_ref = ref.actions[0] / ref.games
        print(f"per action: {ours * apg_ours / (theirs * apg_ref):.1f}x "
              f"(games differ in length: {apg_ours:.1f} vs {apg_ref:.1f} actions/game)")
    print_copy_costs(args.runs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
