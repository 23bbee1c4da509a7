"""Arena API edges: binding, unknown bots, bad arguments."""

from __future__ import annotations

import asyncio

import pytest
from arena_harness import Harness

from arena.engine.options import make_options
from arena.server import Arena, BotUnavailableError


def test_a_busy_port_is_an_error() -> None:
    async def go() -> None:
        first = Arena()
        port = await first.start("127.0.0.1:0")
        try:
            with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{port}"):
                await Arena().start(f"127.0.0.1:{port}")
        finally:
            await first.stop()

    asyncio.run(go())


def test_unknown_bot_is_unavailable_after_the_deadline(harness: Harness) -> None:
    with pytest.raises(BotUnavailableError, match="'nobody' is not connected"):
        harness.call(harness.arena.play_game("good-a", "nobody", make_options("argentino"), 1, acquire_timeout=0.2))
    harness.assert_serving()  # good-a's stream was not taken


def test_seat_count_must_match_the_options(harness: Harness) -> None:
    with pytest.raises(ValueError, match="options say 4 seats but 2 bots were given"):
        harness.call(harness.arena.play_game("good-a", "good-b", make_options("argentino", {"seats": 4}), 1))
