"""The arena server (real gRPC on loopback, SDK clients) and the in-process
player (``sample_bots._play``) tell each seat the same hand summaries for the
same seed and the same actions: both go through the one referee."""

from __future__ import annotations

import asyncio
import random

import pytest

from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.server import Arena, PlayedGame, TimeControl
from sample_bots._play import play_game
from sdk import Action, Bot, HandSummary, Observation
from sdk.client import run_async

CLOCK = TimeControl(move_time=5.0, bank=30.0)


class Recorder(Bot):
    """Random legal choices from its own generator (not ``self.rng``, which
    the SDK reseeds per game), so both runs choose alike; keeps every summary."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.pick = random.Random(seed)
        self.hands: list[HandSummary] = []
        self.ends: list[tuple[bool | None, tuple[int, int]]] = []

    def choose(self, obs: Observation) -> Action:
        return self.pick.choice(obs.legal)

    def on_hand_end(self, game_id: str, hand: HandSummary) -> None:
        self.hands.append(hand)

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        self.ends.append((won, scores))


async def over_the_arena(variant: str, seed: int, bots: tuple[Recorder, Recorder]) -> PlayedGame:
    arena = Arena()
    port = await arena.start("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    clients = [
        asyncio.create_task(run_async(b, address, arena.add_token(b.name), retry_for=5.0)) for b in bots
    ]
    try:
        await arena.wait_for_bots([b.name for b in bots], 20.0)
        options = make_options(variant, {"target": 15})
        return await arena.play_game(bots[0].name, bots[1].name, options, seed, CLOCK)
    finally:
        await arena.stop(grace=0.5)
        await asyncio.wait_for(asyncio.gather(*clients, return_exceptions=True), 20.0)


@pytest.mark.parametrize("variant,seed", [("argentino", 3), ("uruguayo", 5), ("venezolano", 8)])
def test_server_and_in_process_player_send_the_same_summaries(variant: str, seed: int) -> None:
    networked = (Recorder("net-a", seed), Recorder("net-b", seed + 1))
    record = asyncio.run(over_the_arena(variant, seed, networked))
    assert record.termination is Termination.TARGET_REACHED, record.reason

    local = (Recorder("net-a", seed), Recorder("net-b", seed + 1))
    result = play_game(list(local), variant, seed, {"target": 15})

    assert result.actions == len(record.actions)
    assert result.scores == record.scores
    for net, loc in zip(networked, local):
        assert len(net.hands) == record.hands
        assert net.hands == loc.hands
        assert net.ends == loc.ends
