"""A bot that folds (mazo) whenever it may and otherwise plays at random: a
second entrant that would hand its first every game they play.

    python tests/league/folding_bot.py --address HOST:PORT --name NAME   (token in $TRUCO_ARENA_TOKEN)
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sdk import Action, Bot, Observation  # noqa: E402
from sdk import main as sdk_main  # noqa: E402


class FoldingBot(Bot):
    name = "folder"
    version = "1.0.0"

    def __init__(self) -> None:
        self.rng = random.Random()

    def choose(self, obs: Observation) -> Action:
        fold = [a for a in obs.legal if a.text == "mazo"]
        return fold[0] if fold else self.rng.choice(obs.legal)


if __name__ == "__main__":
    sdk_main(FoldingBot, prog="folding_bot")
