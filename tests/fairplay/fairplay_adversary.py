"""A bot that tries to read its opponent's cards (see fairplay_attack).

    python tests/fairplay/fairplay_adversary.py --journal FILE [--crack-seeds N] [SDK options]

It plays uniformly at random (its play is not the point) and writes to
FILE, one JSON object a line, everything it receives and every prediction
it makes: "start" (game id, seat, seats, rng seed, time), "prediction" (the
opponent's three cards in a hand, and how it came to them), "end" (time, and when it last acted in the game),
and "crack" (the outcome of the seed search).
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

from fairplay_attack import (
    GameMemory,
    PlayedHand,
    SecretCracker,
    as_prediction,
    crack_old_scheme,
    find_twin,
    hands_from_seed,
)

from arena.engine.cards import Card
from sdk import Action, Bot, GameInfo, Observation
from sdk import main as sdk_main


class Shared:
    """What all streams of the process know: one memory, one journal."""

    def __init__(self, journal: Path, crack_seeds: int) -> None:
        self.lock = threading.Lock()
        self.out = journal.open("a", encoding="utf-8")
        self.cracker = SecretCracker(range(crack_seeds + 1))
        self.crack_seeds = crack_seeds
        self.games: list[GameMemory] = []
        self.cracked_reported = False

    def write(self, record: dict[str, Any]) -> None:
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()


class Adversary(Bot):
    name = "adversary"
    version = "1.0.0"

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.info: GameInfo | None = None
        self.memory: GameMemory | None = None
        self.predicted: set[int] = set()
        self.last_move: float | None = None
        self.play_rng = random.Random()

    def on_game_info(self, info: GameInfo) -> None:
        sh = self.shared
        me, opponent = info.bots[info.seat], info.bots[1 - info.seat]
        with sh.lock:
            self.info, self.predicted, self.last_move = info, set(), None
            self.memory = GameMemory(info.game_id, opponent, info.seat, time.time())
            sh.games.append(self.memory)
            sh.write({"type": "start", "game_id": info.game_id, "seat": info.seat, "bots": list(info.bots),
                      "rng_seed": info.rng_seed, "t": self.memory.started})
            started = time.monotonic()
            first_try = sh.cracker.found is None and opponent not in sh.cracker.tables
            sh.cracker.observe(me, opponent, info.game_id)
            if first_try or (sh.cracker.found is not None and not sh.cracked_reported):
                sh.cracked_reported = sh.cracker.found is not None
                sh.write({"type": "crack", "seeds_tried": sh.crack_seeds + 1, "found_seed": sh.cracker.found_seed,
                          "seconds": time.monotonic() - started})

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        with self.shared.lock:
            if self.memory is not None:
                self.memory.ended = time.time()
            self.shared.write({"type": "end", "game_id": game_id, "t": time.time(), "last_move": self.last_move})

    def choose(self, obs: Observation) -> Action:
        if obs.hand_number not in self.predicted:
            self.predicted.add(obs.hand_number)
            self._predict(obs)
        self.last_move = time.time()  # the last moment this bot acted in this game
        return self.play_rng.choice(obs.legal)

    def _predict(self, obs: Observation) -> None:
        info, memory, sh = self.info, self.memory, self.shared
        assert info is not None and memory is not None
        me, opponent = info.bots[info.seat], info.bots[1 - info.seat]
        seen = list(obs.dealt) + ([obs.up_card] if obs.up_card is not None else [])
        preferred: list[Card] = []
        source = "guess"
        with sh.lock:
            memory.hands[obs.hand_number] = PlayedHand(tuple(obs.dealt), obs.up_card)
            deal_seed = sh.cracker.deal_seed(me, opponent, info.game_id)
            if deal_seed is None and info.rng_seed is not None:
                deal_seed = crack_old_scheme(info.game_id, info.seat, info.rng_seed, range(sh.crack_seeds + 1))
            if deal_seed is not None:
                preferred, source = list(hands_from_seed(info.options, deal_seed, obs.hand_number)[1 - info.seat]), "seed"
            else:
                twin = find_twin(sh.games, memory, obs.hand_number, obs.up_card)
                if twin is not None:
                    preferred, source = list(twin.hands[obs.hand_number].dealt), "twin"
            cards = as_prediction(preferred, seen, self.play_rng)
            sh.write({"type": "prediction", "game_id": info.game_id, "hand": obs.hand_number, "seat": info.seat,
                      "cards": [str(c) for c in cards], "source": source,
                      "unseen": 40 - len(seen)})


def main() -> None:
    shared: list[Shared] = []

    def arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--journal", type=Path, required=True)
        p.add_argument("--crack-seeds", type=int, default=100_000, help="try seeds 0..N")

    def factory(args: argparse.Namespace) -> Bot:
        if not shared:
            shared.append(Shared(args.journal, args.crack_seeds))
        return Adversary(shared[0])

    sdk_main(factory, add_arguments=arguments, prog="adversary")


if __name__ == "__main__":
    main()
