"""A bot that picks a uniformly random legal action.

    python -m sample_bots.random_bot --address HOST:PORT --token TOKEN [--seed N]
"""

from __future__ import annotations

import argparse
import itertools
import random

from sdk import Action, Bot, GameInfo, Observation


class RandomBot(Bot):
    name = "random"
    version = "1.0.0"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def on_game_info(self, info: GameInfo) -> None:
        if info.rng_seed is not None:  # a tournament's per-game seed: replays play the same
            self.rng.seed(info.rng_seed)

    def choose(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal)


def main() -> None:
    from sdk import main as sdk_main

    streams = itertools.count()  # each stream's bot gets its own seed: seed, seed+1, ...

    def make(args: argparse.Namespace) -> RandomBot:
        n = next(streams)
        return RandomBot(None if args.seed is None else args.seed + n)

    def add_arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--seed", type=int, help="seed of the random choices (default: unseeded)")

    sdk_main(make, add_arguments=add_arguments, prog="random_bot")


if __name__ == "__main__":
    main()
