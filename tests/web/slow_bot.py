"""A random bot that thinks for a while before each move, so the live page's
tests find games in progress: python tests/web/slow_bot.py --delay 0.05 ..."""

from __future__ import annotations

import argparse
import random
import time

from sdk import Action, Bot, Observation
from sdk import main as sdk_main


class SlowBot(Bot):
    name = "slow"
    version = "1.0.0"

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.rng = random.Random()

    def choose(self, obs: Observation) -> Action:
        time.sleep(self.delay)
        return self.rng.choice(obs.legal)


def main() -> None:
    def arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--delay", type=float, default=0.05, help="seconds to wait before each move")

    sdk_main(lambda args: SlowBot(args.delay), add_arguments=arguments, prog="slow_bot")


if __name__ == "__main__":
    main()
