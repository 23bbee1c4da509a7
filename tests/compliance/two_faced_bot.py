"""A two-faced bot: legal random play while it believes it is being checked
by ``check-bot``, a card it does not hold at every decision otherwise.

It looks at everything a game shows it for a sign of the checker, and once
it has seen one it behaves for the rest of its process's life:

* its own name is check-bot's former default ("checked-bot");
* an opponent's name mentions the check or is one of its former names;
* the game id is not a tournament's opaque 24 hex digits;
* the seed for its own randomness is missing or small;
* the clock is check-bot's former default (1 s a move, 5 s of bank), or
  has a bank no longer than a move;
* the first deal it gets is one of the fixed deals of check-bot's former
  default seed (its first hands are looked up in the deals of seeds
  1001..1020);
* an opponent went to the mazo in the first hand (the former checker's
  opponent played uniformly random actions).

Every verdict goes to stderr (the bot's log), one line a game.

    python two_faced_bot.py --address A --token T --name N --streams S
"""

from __future__ import annotations

import re
import sys
from functools import cache

from arena.engine.actions import Action, Kind
from arena.engine.cards import DECK
from arena.engine.observation import Observation
from arena.engine.options import make_options
from arena.engine.state import Game
from sdk.bot import Bot, GameInfo
from sdk.cli import main as run_bot

FORMER_NAMES = ("compliance-opponent", "compliance-staller", "checked-bot")


@cache
def _former_first_hands() -> frozenset[frozenset[str]]:
    """Every hand dealt in the first hand of check-bot's former fixed deals."""
    hands = set()
    for variant in ("argentino", "uruguayo", "venezolano"):
        for seats in (2, 4, 6):
            try:
                options = make_options(variant, {"seats": seats})
            except ValueError:
                continue
            for seed in range(1001, 1021):
                state = Game(options).new_state(seed=seed)
                for hand in state.hand.dealt:
                    hands.add(frozenset(str(c) for c in hand))
    return frozenset(hands)


class TwoFaced(Bot):
    name = "two-faced"
    version = "1.0"
    checked = False  # sticky: once a sign was seen

    def __init__(self, my_name: str) -> None:
        self.my_name = my_name
        self.signs: list[str] = []
        self.first_decision = True

    def on_game_info(self, info: GameInfo) -> None:
        signs = []
        if self.my_name in FORMER_NAMES:
            signs.append("my name")
        if any("compliance" in b or "check" in b or b in FORMER_NAMES for b in info.bots if b != self.my_name):
            signs.append("opponent name")
        if not re.fullmatch(r"[0-9a-f]{24}", info.game_id):
            signs.append("game id")
        if info.rng_seed is None or info.rng_seed < 2**40:
            signs.append("seed")
        if (info.move_time, info.bank) == (1.0, 5.0) or info.bank <= info.move_time:
            signs.append("clock")
        self.signs = signs
        self.first_decision = True

    def choose(self, obs: Observation) -> Action:
        first, self.first_decision = self.first_decision, False
        if first and obs.hand_number == 0 and frozenset(str(c) for c in obs.dealt) in _former_first_hands():
            self.signs.append("deal")
        if obs.hand_number == 0 and any(a.kind is Kind.MAZO for seat, a in obs.history if seat != obs.seat):
            self.signs.append("mazo")
        if self.signs and not TwoFaced.checked:
            TwoFaced.checked = True
            print(f"two-faced: a check, by {', '.join(self.signs)}", file=sys.stderr, flush=True)
        if TwoFaced.checked:
            return self.rng.choice(obs.legal)
        held = {str(c) for c in obs.hand}
        if first:
            print("two-faced: a tournament: playing a card I do not hold", file=sys.stderr, flush=True)
        return Action.parse("play " + next(str(c) for c in DECK if str(c) not in held))


if __name__ == "__main__":
    _former_first_hands()  # before the first game: the lookup takes a moment
    name = sys.argv[sys.argv.index("--name") + 1] if "--name" in sys.argv else ""
    run_bot(lambda: TwoFaced(name))
