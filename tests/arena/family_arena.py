"""The arena side of the family flood test, as a process of its own (so its
CPU time is the arena's alone): an arena listening on a shared Unix socket
and, in mode "family", on one socket per bot (``Arena.listen_family``, as a
sandboxed tournament does), with two launched random bots.

    python family_arena.py MODE FOLDER

Prints JSON lines on stdout: {"flood_address"} once the bots are connected
(the address the flooding bot's family dials: its own socket, or the shared
one in mode "shared"); then on "play N" it plays N games and prints
{"wall", "cpu", "games"} (seconds of wall time and of this process's CPU
time); on "idle S" it plays nothing for S seconds and prints {"wall", "cpu"};
on "stats" the arena's counters; it stops at the end of stdin.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from arena.engine.options import make_options
from arena.server import Arena, TimeControl
from arena.tournament.launcher import LaunchSpec, launch, stop

MOVE_LIMIT = TimeControl(move_time=2.0, bank=10.0)
BOTS = ("good-a", "good-b")
STREAMS = 1


def say(obj: object) -> None:
    print(json.dumps(obj), flush=True)


async def main(mode: str, folder: Path) -> None:
    arena = Arena(hello_timeout=5.0)
    shared = folder / "arena.sock"
    await arena.start("127.0.0.1:0", unix_socket=shared)

    async def socket_of(name: str) -> Path:
        if mode == "shared":
            return shared
        path = folder / f"{name}.sock"
        await arena.listen_family(name, path, 1, STREAMS)
        return path

    loop = asyncio.get_running_loop()
    bots = [await launch(LaunchSpec(name, ("python", "-m", "sample_bots.random_bot")), f"unix:{await socket_of(name)}",
                         arena.add_token(name), STREAMS, folder / "logs") for name in BOTS]
    try:
        await arena.wait_for_bots(BOTS, timeout=30.0)
        say({"flood_address": f"unix:{await socket_of('flooder')}"})
        options = make_options("uruguayo")
        seed = 0
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            command, *args = line.split()
            if command == "play":
                wall, cpu = time.perf_counter(), time.process_time()
                for _ in range(int(args[0])):
                    seed += 1
                    r = await arena.play_game(*BOTS, options, seed, MOVE_LIMIT)
                    assert r.termination.value == "target_reached", r.reason
                say({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "games": int(args[0])})
            elif command == "idle":
                wall, cpu = time.perf_counter(), time.process_time()
                await asyncio.sleep(float(args[0]))
                say({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu})
            elif command == "stats":
                say({"waiting": arena.streams_waiting_for_hello, "evictions": arena.evictions})
    finally:
        await arena.stop(grace=0.5)
        for bot in bots:
            await stop(bot)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2])))
