"""The compiled engine beside the pure one and pytruco, in one run.

Usage::

    python benchmarks/engine_builds.py [--games N] [--runs R] [--compiled DIR] [--callgrind]

The workload is benchmarks/engine.py's first row: uruguayo one against one to
30, every action drawn uniformly from the legal ones but the mazo, game ``i``
dealt with seed ``i``; pytruco plays the same workload as engine.py drives it.
Each build runs in its own interpreter (``python -P`` with ``PYTHONPATH`` set
to that build, so the checkout's own ``arena/`` is never picked up by
accident), and every run times the three in turn, so they share the machine's
noise; the table gives medians.

``--compiled DIR`` names a compiled build made with
``TRUCO_ARENA_COMPILE=1 pip install --no-deps --target DIR .``; without it the
script makes one in a temporary folder (about 20 s of CPU).

``--callgrind`` counts instructions instead of seconds (valgrind's callgrind):
exact and repeatable whatever the machine's load. Each interpreter is counted
twice, with G and 2G games, and the difference divided by G is the cost of a
game without start-up and imports.

pytruco (PyPI, not a dependency) is measured when the interpreter running this
script can import it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _worker(kind: str, games: int) -> None:
    """Plays ``games`` games and prints ``actions seconds``."""
    import random

    if kind == "pytruco":
        from pytruco.pdt.chi import chis
        from pytruco.pdt.partida import Partida

        def play(i: int, choice: object) -> int:
            random.seed(i)  # pytruco deals from the global generator
            p = Partida(30, ["A"], ["B"], verbose=False)
            steps = 0
            while not p.terminada():
                pool = [a for chi in chis(p, allow_mazo=False) for a in chi] or \
                    [a for chi in chis(p, allow_mazo=True) for a in chi]
                choice(pool).hacer(p)  # type: ignore[operator]
                steps += 1
            return steps
    else:
        from arena.engine import BUILD, Game, Kind

        assert BUILD == ("compiled" if kind == "compiled" else "pure Python"), BUILD
        game, mazo = Game("uruguayo", target=30), Kind.MAZO

        def play(i: int, choice: object) -> int:
            st = game.new_state(seed=i)
            steps = 0
            while not st.is_terminal():
                acts = st.legal_actions()
                st.apply(choice([a for a in acts if a.kind is not mazo] or acts))  # type: ignore[operator]
                steps += 1
            return steps

    choice = random.Random(0).choice
    for i in range(min(10, games)):  # warm-up: caches and tables
        play(1_000_000 + i, choice)
    choice = random.Random(0).choice
    t0 = time.perf_counter()
    steps = sum(play(i, choice) for i in range(games))
    print(steps, time.perf_counter() - t0)


def _command(kind: str, games: int) -> list[str]:
    return [sys.executable, "-P", str(Path(__file__).resolve()), "--worker", kind, "--games", str(games)]


def _env(kind: str, compiled: Path) -> dict[str, str]:
    env = dict(os.environ)
    if kind == "pure":
        env["PYTHONPATH"] = str(ROOT)
    elif kind == "compiled":
        env["PYTHONPATH"] = str(compiled)
    return env


def _build(into: Path) -> None:
    print(f"building the compiled engine into {into} ...", file=sys.stderr)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(into), str(ROOT)],
        env={**os.environ, "TRUCO_ARENA_COMPILE": "1"}, check=True,
    )


def _time(kinds: list[str], compiled: Path, games: int, runs: int) -> None:
    rates: dict[str, list[float]] = {k: [] for k in kinds}
    actions: dict[str, int] = {}
    for r in range(runs):
        for kind in kinds:
            out = subprocess.run(_command(kind, games), env=_env(kind, compiled), check=True,
                                 capture_output=True, text=True).stdout.split()
            steps, seconds = int(out[0]), float(out[1])
            actions[kind] = steps
            rates[kind].append(games / seconds)
        print(f"  run {r + 1}/{runs} done", file=sys.stderr)
    base = rates.get("pytruco")
    print(f"{'build':<10} {'games/s (median)':>17} {'min..max':>17} {'actions/game':>13} {'vs pure':>8} {'vs pytruco':>11}")
    for kind in kinds:
        med = statistics.median(rates[kind])
        vs_pure = med / statistics.median(rates["pure"])
        vs_ref = f"{med / statistics.median(base):.0f}x" if base else "-"
        span = f"{min(rates[kind]):,.0f}..{max(rates[kind]):,.0f}"
        print(f"{kind:<10} {med:>17,.1f} {span:>17} {actions[kind] / games:>13.1f} {vs_pure:>7.2f}x {vs_ref:>11}")


def _instructions(kind: str, compiled: Path, games: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *_command(kind, games)],
            env=_env(kind, compiled), check=True, capture_output=True, text=True,
        )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count for {kind}: {out.stderr[-300:]}")
    return int(found.group(1))


def _callgrind(kinds: list[str], compiled: Path, games: int) -> None:
    per_game: dict[str, float] = {}
    for kind in kinds:
        one, two = (_instructions(kind, compiled, g) for g in (games, 2 * games))
        per_game[kind] = (two - one) / games
        print(f"  {kind}: {one:,} instructions for {games} games, {two:,} for {2 * games}", file=sys.stderr)
    print(f"{'build':<10} {'instructions/game':>18} {'vs pure':>8} {'vs pytruco':>11}")
    for kind in kinds:
        ref = f"{per_game['pytruco'] / per_game[kind]:.0f}x" if "pytruco" in per_game else "-"
        print(f"{kind:<10} {per_game[kind]:>18,.0f} {per_game['pure'] / per_game[kind]:>7.2f}x {ref:>11}")
    print("(games differ in length between the engines; per game is the workload's unit, as in engine.py)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None, help="games per run (default 300; 20 with --callgrind)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs; the table shows medians (default 5)")
    ap.add_argument("--compiled", type=Path, default=None, help="a compiled build (default: build one now)")
    ap.add_argument("--callgrind", action="store_true", help="count instructions instead of seconds")
    ap.add_argument("--worker", choices=("pure", "compiled", "pytruco"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    games = args.games or (20 if args.callgrind else 300)
    if args.worker:
        _worker(args.worker, games)
        return 0
    if args.callgrind and shutil.which("valgrind") is None:
        ap.error("--callgrind needs valgrind (Debian package valgrind)")
    kinds = ["pure", "compiled"]
    try:
        import pytruco  # noqa: F401
    except ImportError:
        print("pytruco not importable here: no comparison with it (pip install pytruco)", file=sys.stderr)
    else:
        kinds.append("pytruco")
    with tempfile.TemporaryDirectory() as tmp:
        compiled = args.compiled or Path(tmp) / "compiled"
        if args.compiled is None:
            _build(compiled)
        print(f"python {sys.version.split()[0]}, uruguayo 1v1 to 30, random legal actions but the mazo, "
              f"{games} games" + ("" if args.callgrind else f" x {args.runs} runs, interleaved"))
        if args.callgrind:
            _callgrind(kinds, compiled, games)
        else:
            _time(kinds, compiled, games, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
