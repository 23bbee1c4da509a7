"""A bot that picks a uniformly random legal action.

    python -m sample_bots.random_bot --address HOST:PORT --token TOKEN [--seed N]
"""

from __future__ import annotations

import random

from sdk import Action, Bot, Observation


class RandomBot(Bot):
    name = "random"
    version = "1.0.0"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal)


def main() -> None:
    from ._cli import seeded_main

    seeded_main(lambda seed, args: RandomBot(seed), prog="random_bot", seed_help="seed of the random choices")


if __name__ == "__main__":
    main()
