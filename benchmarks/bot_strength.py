"""Win rates of the sample bots against each other, engine-only (no networking).

    python benchmarks/bot_strength.py --games 1000 --variant uruguayo --jobs 2
    python benchmarks/bot_strength.py --matchup ismcts-simulation --iterations 20 --worlds 18
    python benchmarks/bot_strength.py --matchup ismcts-simulation --games 200 --ismcts widen=1e9

Every matchup is a duplicate match: each deal seed is played twice with the
seats swapped, and the 95% interval is taken over those pairs. Matchups:
``heuristic-random``, ``simulation-random``, ``simulation-heuristic``,
``ismcts-random``, ``ismcts-heuristic``, ``ismcts-simulation``,
``inference-heuristic``, ``inference-simulation``, ``pruning-heuristic``,
``pruning-simulation``, ``yardstick-heuristic``, ``yardstick-simulation``,
``tuned-heuristic``, ``tuned-simulation`` (the first bot's win rate is reported). ``tuned`` is
simulation (the inference bot with ``play_soft`` 1) at ``--worlds`` with any
constructor argument changed by ``--tuned NAME=VALUE`` (``worlds=36``,
``margin=0.5``, ``mismatch=0.3``, ``play_soft=0.5``, ``early=true``...): one
change at a time against the unchanged bot, for screening ideas. The search bots run at their counted budgets (``--worlds`` for
simulation, ``--inference-worlds`` for inference, ``--pruning-worlds`` for
pruning, ``--iterations`` for
ismcts, defaults as the bots'), or all at ``--time-ms`` per decision; to
compare at equal CPU, give simulation the worlds that match the other's CPU
per searched decision (the last column); ``--ismcts NAME=VALUE`` sets
any other argument of the ISMCTS bot (``widen``, ``race_z``, ``root``...), for
tuning, and ``--yardstick NAME=VALUE`` any of the yardstick bot's
(``lend``, ``prune``, ``prune_after``, ``margin``). For each search bot the table
gives its mean thinking time per searched decision, in CPU ms (what it costs
on an idle core, whatever the load) and wall ms, and its worlds (simulation)
or iterations (ismcts) per search.

At ``--time-ms`` the bots compete for the same wall-clock time per
decision, the time a tournament gives:

    PYTHONPATH=.build-compiled python -P benchmarks/bot_strength.py \
        --matchup yardstick-simulation --time-ms 10 --min-worlds 3 --games 2000 --jobs 4

Neither the benchmark nor a tournament charges a bot for running past its
``--time-ms`` (the arena charges a move's whole wall time against its move
clock, seconds long, so 10 ms and a little more both stay well inside it);
the table's wall ms per searched decision say what each bot really took.
Fair under a machine's load: the two bots of a game run in one process and
take turns, so a burst of load elsewhere falls on both alike (and each deal
is played twice, seats swapped, in the same worker, one game after the
other). A wall-clock budget also bounds the run's duration whatever the
load (a game takes about its searched decisions times ``--time-ms``), where
a budget counted in worlds or CPU time would stretch with it. On a loaded
machine lower ``--min-worlds``, the worlds a bot searches even past its
clock: at the default 8 the floor, not the clock, would set the time. The first line says which build runs (``.build-compiled`` is made
by ``TRUCO_ARENA_COMPILE=1 pip install --no-deps --target .build-compiled .``).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

# Appended, not put first: a compiled build on PYTHONPATH
# (``PYTHONPATH=.build-compiled python -P benchmarks/bot_strength.py``) wins.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from arena.engine import BUILD  # noqa: E402
from arena.engine.actions import Action  # noqa: E402
from arena.engine.observation import Observation  # noqa: E402
from sample_bots._play import duplicate_match  # noqa: E402
from sample_bots.heuristic import HeuristicBot  # noqa: E402
from sample_bots.inference import DEFAULT_PLAY_SOFT, InferenceBot  # noqa: E402
from sample_bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot  # noqa: E402
from sample_bots.pruning import DEFAULT_WORLDS as PRUNING_WORLDS  # noqa: E402
from sample_bots.pruning import PruningBot  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sample_bots.simulation import DEFAULT_WORLDS, SimulationBot  # noqa: E402
from sample_bots.yardstick import YardstickBot  # noqa: E402

MATCHUPS = ("heuristic-random", "simulation-random", "simulation-heuristic", "ismcts-random",
            "ismcts-heuristic", "ismcts-simulation", "inference-heuristic", "inference-simulation",
            "tuned-heuristic", "tuned-simulation", "pruning-heuristic", "pruning-simulation",
            "yardstick-heuristic", "yardstick-simulation")
SEARCHERS = ("simulation", "ismcts", "inference", "tuned", "pruning", "yardstick")


class _Metered:
    """Accumulates one kind of search bot's thinking: searched decisions,
    worlds or iterations, CPU and wall seconds spent in them."""

    def __init__(self) -> None:
        self.searched = 0
        self.units = 0.0
        self.cpu = 0.0
        self.wall = 0.0

    def make(self, cls: type[SimulationBot], unit: str, *args: Any, **kwargs: Any) -> SimulationBot:
        """A ``cls`` whose searches are counted here: an instance of a
        subclass of it (the compiled build's classes take no per-instance
        method, but may be subclassed)."""
        meter = self

        class Metered(cls):  # type: ignore[valid-type,misc]
            def choose(self, obs: Observation) -> Action:
                before, units = self.stats["searched"], self.stats[unit]
                c0, w0 = time.process_time(), time.perf_counter()
                action = super().choose(obs)
                if self.stats["searched"] > before:
                    meter.searched += 1
                    meter.units += self.stats[unit] - units
                    meter.cpu += time.process_time() - c0
                    meter.wall += time.perf_counter() - w0
                return action  # type: ignore[no-any-return]

        Metered.__name__ = cls.__name__
        return Metered(*args, **kwargs)


def _factory(kind: str, cfg: dict[str, Any], meters: dict[str, _Metered]) -> Any:
    def make(k: int) -> Any:
        if kind == "random":
            return RandomBot(k)
        if kind == "heuristic":
            return HeuristicBot(k)
        if kind == "simulation":
            return meters["simulation"].make(SimulationBot, "worlds", k, worlds=cfg["worlds"], time_ms=cfg["time_ms"],
                                             min_worlds=cfg["min_worlds"])
        if kind == "inference":
            return meters["inference"].make(InferenceBot, "worlds", k, worlds=cfg["inference_worlds"],
                                            time_ms=cfg["time_ms"], play_soft=cfg["play_soft"])
        if kind == "pruning":
            return meters["pruning"].make(PruningBot, "worlds", k, worlds=cfg["pruning_worlds"], time_ms=cfg["time_ms"])
        if kind == "yardstick":
            return meters["yardstick"].make(YardstickBot, "worlds", k, worlds=cfg["pruning_worlds"],
                                            time_ms=cfg["time_ms"], min_worlds=cfg["min_worlds"], **cfg["yardstick"])
        if kind == "tuned":
            return meters["tuned"].make(InferenceBot, "worlds", k, **{
                "worlds": cfg["worlds"], "time_ms": cfg["time_ms"], "play_soft": 1.0, **cfg["tuned"]})
        return meters["ismcts"].make(ISMCTSBot, "iterations", k, iterations=cfg["iterations"], time_ms=cfg["time_ms"],
                                     rollout=cfg["rollout"], **cfg["ismcts"])

    return make


def _chunk(args: tuple[str, str, list[int], dict[str, Any]]) -> dict[str, Any]:
    matchup, variant, seeds, cfg = args
    a, b = matchup.split("-")
    meters = {kind: _Metered() for kind in SEARCHERS}
    t0 = time.perf_counter()
    st = duplicate_match(_factory(a, cfg, meters), _factory(b, cfg, meters), variant, seeds, cfg["options"])
    return {
        "games": st.games, "wins": st.wins, "pairs": st.pair_scores, "pf": st.points_for,
        "pa": st.points_against, "secs": time.perf_counter() - t0,
        "meters": {k: (m.searched, m.units, m.cpu, m.wall) for k, m in meters.items()},
    }


def run(matchup: str, variant: str, games: int, cfg: dict[str, Any], jobs: int, first_seed: int) -> dict[str, Any]:
    pairs = max(1, games // 2)
    seeds = list(range(first_seed, first_seed + pairs))
    chunks = [seeds[i::jobs * 4] for i in range(jobs * 4)]
    work = [(matchup, variant, c, cfg) for c in chunks if c]
    t0 = time.perf_counter()
    if jobs > 1:
        parts = []
        with ProcessPoolExecutor(jobs) as ex:
            # A long run says how far it got (on stderr), chunk by chunk.
            for done in as_completed([ex.submit(_chunk, w) for w in work]):
                parts.append(done.result())
                played, won = sum(x["games"] for x in parts), sum(x["wins"] for x in parts)
                print(f"  {matchup} {variant}: {played} of {2 * pairs} games, win rate so far {won / played:.3f}, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    else:
        parts = [_chunk(w) for w in work]
    out: dict[str, Any] = {"games": 0, "wins": 0, "pairs": [], "pf": 0, "pa": 0, "cpu": 0.0,
                           "meters": {k: [0, 0.0, 0.0, 0.0] for k in SEARCHERS}}
    for p in parts:
        for k in ("games", "wins", "pf", "pa"):
            out[k] += p[k]
        out["pairs"] += p["pairs"]
        out["cpu"] += p["secs"]
        for kind, values in p["meters"].items():
            out["meters"][kind] = [x + y for x, y in zip(out["meters"][kind], values, strict=True)]
    out["wall"] = time.perf_counter() - t0
    xs = out["pairs"]
    m = len(xs)
    mean = sum(xs) / m
    var = sum((x - mean) ** 2 for x in xs) / (m - 1) if m > 1 else 0.25
    half = 1.96 * math.sqrt(var / m)
    out["rate"], out["lo"], out["hi"] = out["wins"] / out["games"], max(0.0, mean - half), min(1.0, mean + half)
    return out


def bots_build() -> str:
    """``"compiled"`` when the sample bots' search modules are C extensions."""
    import sample_bots.simulation as module

    return "compiled" if not (module.__file__ or "").endswith(".py") else "pure Python"


def _thinking(meters: dict[str, list[float]]) -> str:
    parts = []
    for kind, (searched, units, cpu, wall) in meters.items():
        if searched:
            unit = "iters" if kind == "ismcts" else "worlds"
            parts.append(f"{kind} {1000 * cpu / searched:.1f} cpu ms / {1000 * wall / searched:.1f} wall ms, "
                         f"{units / searched:.1f} {unit}")
    return "; ".join(parts)


def _load() -> str:
    """The machine's 1, 5 and 15 minute load averages: a wall-clock budget
    binds only on a machine that is not too loaded."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _options(p: argparse.ArgumentParser, flag: str, pairs: list[str], cls: Any) -> dict[str, Any]:
    """``NAME=VALUE`` strings as keyword arguments of ``cls`` (numbers as
    numbers, true/false as booleans, anything else as a string)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.isidentifier():
            p.error(f"{flag} wants NAME=VALUE, not {pair!r}")
        value: Any = text
        if text in ("true", "false"):
            value = text == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(text)
                    break
                except ValueError:
                    pass
        out[name] = value
    try:
        cls(0, **out)
    except (TypeError, ValueError) as e:
        p.error(f"{flag}: {e}")
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000, help="games per matchup (pairs of duplicate deals x 2)")
    p.add_argument("--variant", action="append", help="variant(s) (default uruguayo); repeatable")
    p.add_argument("--matchup", action="append", choices=MATCHUPS, help="matchup(s) (default all); repeatable")
    p.add_argument("--worlds", type=int, default=DEFAULT_WORLDS,
                   help="simulation: worlds per decision (default %(default)s)")
    p.add_argument("--inference-worlds", type=int, default=None,
                   help="inference: worlds per decision (default: --worlds)")
    p.add_argument("--pruning-worlds", type=int, default=PRUNING_WORLDS,
                   help="pruning: rollouts per candidate per decision (default %(default)s)")
    p.add_argument("--play-soft", type=float, default=DEFAULT_PLAY_SOFT,
                   help="inference: weight kept per card play unlike the model's (default %(default)s)")
    p.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS,
                   help="ismcts: iterations per decision (default %(default)s)")
    p.add_argument("--rollout", choices=("heuristic", "random"), default="heuristic", help="ismcts playouts")
    p.add_argument("--ismcts", action="append", default=[], metavar="NAME=VALUE",
                   help="ismcts: another constructor argument (e.g. widen=4, root=ucb); repeatable")
    p.add_argument("--tuned", action="append", default=[], metavar="NAME=VALUE",
                   help="tuned (the inference bot with play_soft=1, i.e. simulation, at --worlds): a "
                        "constructor argument (e.g. worlds=36, margin=0.5, play_soft=0.5, early=true); "
                        "repeatable")
    p.add_argument("--yardstick", action="append", default=[], metavar="NAME=VALUE",
                   help="yardstick: another constructor argument (e.g. lend=0, prune=0.5, margin=0.5); repeatable")
    p.add_argument("--time-ms", type=float, default=None,
                   help="a time budget per decision for both search bots instead (not reproducible)")
    p.add_argument("--min-worlds", type=int, default=8,
                   help="simulation and yardstick at --time-ms: the worlds searched even past the clock (default "
                        "%(default)s; lower it on a loaded machine, where the clock would otherwise not bind)")
    p.add_argument("--target", type=int, default=None, help="override the variant's target score")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--seed", type=int, default=0, help="first deal seed")
    args = p.parse_args(argv)
    options = {"target": args.target} if args.target else {}
    cfg = {"ismcts": _options(p, "--ismcts", args.ismcts, ISMCTSBot),
           "tuned": _options(p, "--tuned", args.tuned, InferenceBot),
           "yardstick": _options(p, "--yardstick", args.yardstick, YardstickBot), "worlds": args.worlds, "iterations": args.iterations, "time_ms": args.time_ms,
           "rollout": args.rollout, "options": options, "play_soft": args.play_soft,
           "inference_worlds": args.inference_worlds or args.worlds,
           "pruning_worlds": args.pruning_worlds, "min_worlds": args.min_worlds}
    if args.time_ms is not None:
        budget = f"{args.time_ms:g} wall ms per decision for both search bots (at least {args.min_worlds} worlds)"
    else:
        budget = (f"simulation {args.worlds} worlds, inference {cfg['inference_worlds']} worlds "
                  f"(play_soft {args.play_soft:g}), pruning and yardstick {cfg['pruning_worlds']} worlds, ismcts {args.iterations} iterations ({args.rollout} rollouts)")
        if args.ismcts:
            budget += f", ismcts {' '.join(args.ismcts)}"
        if args.tuned:
            budget += f", tuned {' '.join(args.tuned)}"
    if args.yardstick:
        budget += f", yardstick {' '.join(args.yardstick)}"
    print(f"budget: {budget}; {args.jobs} worker(s); engine {BUILD}, sample bots {bots_build()}; "
          f"load average {_load()}")
    header = (f"{'matchup':<22} {'variant':<11} {'games':>5} {'win rate':>8}  {'95% CI':<15} "
              f"{'pts for-against':>15} {'wall s':>7}  thinking per searched decision")
    print(header)
    print("-" * len(header))
    for variant in args.variant or ["uruguayo"]:
        for matchup in args.matchup or MATCHUPS:
            r = run(matchup, variant, args.games, cfg, args.jobs, args.seed)
            print(f"{matchup:<22} {variant:<11} {r['games']:>5} {r['rate']:>8.3f}  "
                  f"[{r['lo']:.3f}, {r['hi']:.3f}] {r['pf']:>7}-{r['pa']:<7} {r['wall']:>7.0f}  "
                  f"{_thinking(r['meters'])}; load average after {_load()}", flush=True)


if __name__ == "__main__":
    main()
