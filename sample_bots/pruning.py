"""``simulation`` that spends its rollouts where the decision is still open (2-seat games).

``simulation`` evaluates every candidate action in every sampled world. Most
candidates fall clearly behind the heuristic's own choice after a few
worlds, and ``simulation`` only leaves that choice for a candidate whose
paired advantage exceeds ``margin`` standard errors, so their later rollouts
change nothing. This bot counts its budget in rollouts instead (``worlds``
times the number of candidates, still a count, so it replays exactly): after
``prune_after`` worlds, a candidate whose paired advantage over the
heuristic's choice is more than ``prune`` standard errors below zero gets no
more rollouts, and the rollouts it would have taken go to more worlds for the
candidates still open. When only the heuristic's choice is left, the search
stops. Worlds are also rejected early (``sample_world(early=True)``): a world
the rival's bets rule out costs only the replay up to the first
disagreement, which saves CPU without changing the worlds' distribution.

Measured against ``simulation`` (benchmarks/bot_strength.py, uruguayo,
duplicate deals, deal seeds from 5000): at the same 18 rollouts per candidate
it ties, 0.500 [0.463, 0.537] over 300 games, at 12.6 CPU ms per searched
decision against simulation's 16.9 (pruning and early rejection make it 25%
cheaper). At equal CPU (this bot's default 24, 18.0 CPU ms; simulation 18
worlds, 19.0 ms), matchup ``pruning-simulation``: 0.540 [0.500, 0.580] over
300 games, then 0.515 [0.486, 0.544] over 400 more (seeds from 5150): about
0.526 [0.502, 0.550] over the 700, a lead that is not significant, short of
the 0.55 with a lower bound above 0.52 over 2,000 games wanted of a bot that
beats simulation. In argentino at the defaults (seeds from 5000; pruning
14.9 CPU ms, simulation 15.8): 0.533 [0.490, 0.576] over 300 games.
Against the heuristic at the defaults (seeds from 5000),
0.785 [0.736, 0.834] over 200 games, where simulation scores 0.760 [0.707,
0.813] on the same deals; at 6 rollouts per candidate, 0.667 [0.607, 0.727]
over 180 games (simulation: 0.68 on the same deals).
"""

from __future__ import annotations

from .heuristic import DEFAULT_PARAMS, Params
from .simulation import SimulationBot

# Rollouts per candidate per decision: as much CPU per searched decision as
# simulation's 18 worlds (pruning and early rejection made 18 cost 12.6 CPU
# ms against simulation's 16.9 in the same games).
DEFAULT_WORLDS = 24

# A candidate more than this many standard errors behind the heuristic's
# choice after DEFAULT_PRUNE_AFTER worlds gets no more rollouts.
DEFAULT_PRUNE = 1.0
DEFAULT_PRUNE_AFTER = 6


class PruningBot(SimulationBot):
    """Determinized Monte Carlo with candidate pruning and early world
    rejection (see the module docstring). Budget: ``worlds`` x candidates
    rollouts per decision; seeded, it replays exactly."""

    name = "pruning"
    version = "1.0.0"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = DEFAULT_WORLDS,
        time_ms: float | None = None,
        prune: float = DEFAULT_PRUNE,
        prune_after: int = DEFAULT_PRUNE_AFTER,
        params: Params = DEFAULT_PARAMS,
        options: dict[str, object] | None = None,
    ) -> None:
        if prune_after < 2:
            raise ValueError(f"prune_after must be at least 2 worlds, got {prune_after}")
        super().__init__(seed, worlds=worlds, time_ms=time_ms, params=params, options=options,
                         early=True, prune=prune, prune_after=prune_after)


def main() -> None:
    """``python -m sample_bots.pruning --address HOST:PORT --token TOKEN [--seed N]
    [--worlds N | --time-ms MS] [--prune Z]``"""
    import argparse

    from ._cli import add_budget, seeded_main

    def add_arguments(p: argparse.ArgumentParser) -> None:
        add_budget(p, DEFAULT_WORLDS, "rollouts per candidate")
        p.add_argument("--prune", type=float, default=DEFAULT_PRUNE,
                       help="drop a candidate this many standard errors behind (default %(default)s)")

    seeded_main(
        lambda seed, args: PruningBot(seed, worlds=args.worlds, time_ms=args.time_ms, prune=args.prune),
        prog="pruning", seed_help="seed of the sampling", add_arguments=add_arguments,
    )


if __name__ == "__main__":
    main()
