"""The SDK's client side: hooks, reconnecting, giving up."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from arena_harness import Harness, spawn_bot

from arena.engine.options import make_options
from arena.engine.outcome import Termination
from sdk import Action, Bot, GameInfo, HandSummary, Observation
from sdk.client import run_async


class Diary(Bot):
    """Plays the first legal action and writes down every hook call."""

    name = "diary"

    def __init__(self) -> None:
        self.log: list[tuple[str, object]] = []
        self.observations = 0

    def choose(self, obs: Observation) -> Action:
        assert obs.legal and obs.to_act == obs.seat
        self.observations += 1
        return obs.legal[-1] if obs.legal[-1].kind.value != "mazo" else obs.legal[0]

    def on_game_info(self, info: GameInfo) -> None:
        self.log.append(("info", info))

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        self.log.append(("start", (game_id, seat, variant)))

    def on_hand_end(self, game_id: str, hand: HandSummary) -> None:
        self.log.append(("hand", hand))

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        self.log.append(("end", (game_id, won, scores)))


def test_hooks_see_the_whole_game(fresh_harness: Harness) -> None:
    h = fresh_harness
    bot = Diary()
    client = h.submit(run_async(bot, h.address, h.token("diary")))
    opponent = h.spawn("sample_bots.random_bot", "opponent", "--seed", "4")
    h.wait_for(["diary", "opponent"], [opponent])
    r = h.call(h.arena.play_game("opponent", "diary", make_options("venezolano", {"target": 12}), 8))
    assert r.termination is Termination.TARGET_REACHED, r.reason
    h.call(h.arena.stop())
    client.result(10)  # run_async returns after the shutdown

    kinds = [k for k, _ in bot.log]
    assert kinds[:2] == ["info", "start"] and kinds[-1] == "end"
    assert kinds.count("hand") == r.hands
    info = bot.log[0][1]
    assert isinstance(info, GameInfo)
    assert (info.game_id, info.seat, info.bots) == (r.game_id, 1, ("opponent", "diary"))
    assert info.options == r.options and (info.move_time, info.bank) == (1.0, 10.0)
    assert bot.log[-1][1] == (r.game_id, r.winner_seat == 1, r.scores)
    hands = [v for k, v in bot.log if k == "hand"]
    assert isinstance(hands[-1], HandSummary) and hands[-1].scores == r.scores
    assert sum(len(hs.history) for hs in hands if isinstance(hs, HandSummary)) == len(r.actions)
    assert bot.observations == sum(1 for a in r.actions if a.startswith("1 "))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.integration
def test_bot_waits_for_an_arena_that_starts_late(log_dir: Path) -> None:
    port = _free_port()
    early = spawn_bot(log_dir, "sample_bots.random_bot", f"127.0.0.1:{port}", "early", "early-token", "--retry-for", "20")
    try:
        time.sleep(1.0)  # nobody listens yet: the bot retries UNAVAILABLE with backoff
        assert early.alive(), early.stderr()
        h = Harness(log_dir, f"127.0.0.1:{port}")
        try:
            h.token("early", "early-token")
            h.wait_for(["early"], [early])
        finally:
            h.close()
        assert early.wait() == 0, early.stderr()
    finally:
        early.kill()


@pytest.mark.integration
def test_bot_gives_up_on_an_arena_that_never_comes(log_dir: Path) -> None:
    port = _free_port()
    lonely = spawn_bot(log_dir, "sample_bots.random_bot", f"127.0.0.1:{port}", "lonely", "t", "--retry-for", "1")
    assert lonely.wait() == 1
    err = lonely.stderr().strip()
    assert err.startswith(f"random_bot: cannot reach the arena at 127.0.0.1:{port}"), err
    assert "gave up after 1 s" in err and len(err.splitlines()) == 1
