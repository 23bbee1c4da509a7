"""The arena side of the flood test, as a process of its own (so its RSS is
the arena's alone): an arena with two launched random bots.

Prints JSON lines on stdout: {"port", "pid"} once listening, {"ready": true}
once the bots are connected; then on "play N" from stdin it plays N games
and prints {"games": [...]} (termination, reason, move times, move limit);
on "join NAME" it launches one more random bot, NAME, and prints
{"joined": seconds from its launch to the end of its first game, "game": ...};
on "stats" it prints the arena's counters; it stops at the end of stdin.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

from arena.engine.options import make_options
from arena.server import Arena, TimeControl
from arena.tournament.launcher import LaunchSpec, launch, stop

MOVE_LIMIT = TimeControl(move_time=2.0, bank=10.0)


def say(obj: object) -> None:
    print(json.dumps(obj), flush=True)


async def main() -> None:
    hello_timeout = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    arena = Arena(hello_timeout=hello_timeout)
    port = await arena.start("127.0.0.1:0")
    say({"port": port, "pid": os.getpid()})
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory(prefix="flood-bots-") as logs:
        bots = [
            await launch(LaunchSpec(name, ("python", "-m", "sample_bots.random_bot")), f"127.0.0.1:{port}",
                         arena.add_token(name), 1, Path(logs))
            for name in ("good-a", "good-b")
        ]
        try:
            await arena.wait_for_bots(["good-a", "good-b"], timeout=30.0)
            say({"ready": True})
            while line := await loop.run_in_executor(None, sys.stdin.readline):
                command, *args = line.split()
                if command == "play":
                    games = []
                    for seed in range(int(args[0])):
                        r = await arena.play_game("good-a", "good-b", make_options("argentino"), seed, MOVE_LIMIT)
                        games.append({"termination": r.termination.value, "reason": r.reason,
                                      "move_times": list(r.move_times), "move_limit": MOVE_LIMIT.move_time})
                    say({"games": games})
                elif command == "join":
                    launched = loop.time()
                    bots.append(await launch(LaunchSpec(args[0], ("python", "-m", "sample_bots.random_bot")),
                                             f"127.0.0.1:{port}", arena.add_token(args[0]), 1, Path(logs)))
                    r = await arena.play_game(args[0], "good-a", make_options("argentino"), 0, MOVE_LIMIT,
                                              acquire_timeout=30.0)
                    say({"joined": loop.time() - launched, "game": {"termination": r.termination.value}})
                elif command == "stats":
                    say({"waiting": arena.streams_waiting_for_hello, "evictions": arena.evictions})
        finally:
            await arena.stop(grace=0.5)
            for bot in bots:
                await stop(bot)


if __name__ == "__main__":
    asyncio.run(main())
