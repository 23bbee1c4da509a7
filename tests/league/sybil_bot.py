"""A sybil: entered under an owner name of its own, it folds (mazo) whenever
it may against its partner (``--partner NAME``) and plays the heuristic
sample bot's game against everyone else, so its own rating looks ordinary.

    python tests/league/sybil_bot.py --partner NAME --address HOST:PORT --name NAME   (token in $TRUCO_ARENA_TOKEN)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sample_bots.heuristic import HeuristicBot  # noqa: E402
from sdk import Action, GameInfo, Observation  # noqa: E402
from sdk import main as sdk_main  # noqa: E402


class SybilBot(HeuristicBot):
    name = "sybil"
    version = "1.0.0"

    def __init__(self, partner: str) -> None:
        super().__init__()
        self.partner = partner
        self.folding = False

    def on_game_info(self, info: GameInfo) -> None:
        super().on_game_info(info)
        self.folding = self.partner in info.bots

    def choose(self, obs: Observation) -> Action:
        fold = [a for a in obs.legal if a.text == "mazo"] if self.folding else []
        return fold[0] if fold else super().choose(obs)


if __name__ == "__main__":
    i = sys.argv.index("--partner")
    partner = sys.argv[i + 1]
    del sys.argv[i:i + 2]
    sdk_main(lambda: SybilBot(partner), prog="sybil_bot")
