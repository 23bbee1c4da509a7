"""A bot whose process family floods its own Unix socket: it starts a
child process (stream_flooder.py, from its own folder) that keeps 2,000
silent streams at a time open over 3 connections to the address the arena
gave it, each opened again as soon as it ends; ``SETTLE`` seconds later it
plays as the random sample bot, on the fourth connection its socket
admits (``Arena.listen_family``: 2 x processes + 2 connections; more would
only lock itself out). So every game of the tournament runs under the
flood. With ``FLOOD=0`` in its environment it only waits and plays: the
same bot, the same games, no flood (the control arm). Its log (stderr)
says when the flood started, or would have, as a line ``flood at TIME`` or
``no flood at TIME`` (``time.time()``), and the flood adds a JSON line of
its counts every second.

    python flooding_bot.py --address ADDR --name NAME --streams N
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import time
from pathlib import Path

FLOOD = ("3600", "2000", "3")  # seconds (ended with the bot), streams at a time, connections
SETTLE = 2.0  # seconds for the flood to reach the caps before the bot says hello


def _address() -> str:
    args = sys.argv[1:]
    return args[args.index("--address") + 1] if "--address" in args else os.environ["TRUCO_ARENA_ADDRESS"]


if __name__ == "__main__":
    flood = os.environ.get("FLOOD", "1") != "0"
    print(f"{'flood' if flood else 'no flood'} at {time.time()}", file=sys.stderr, flush=True)
    if flood:
        subprocess.Popen([sys.executable, str(Path(__file__).with_name("stream_flooder.py")), _address(), *FLOOD, "1"],
                         stdout=sys.stderr)
    time.sleep(SETTLE)
    runpy.run_module("sample_bots.random_bot", run_name="__main__", alter_sys=True)
