"""A random bot that measures how long the arena keeps it waiting: from the
moment it sends a Move to the next message of that game. Its opponents are
random bots that answer in well under a millisecond, so this is the arena's
own delay (what a flood or a busy live page adds). At exit (SIGTERM) it
prints one JSON line to stdout: the count, the median, the 99th percentile
and the worst, in milliseconds.

    python benchmarks/league_probe.py --address HOST:PORT --name NAME --streams N   (token in $TRUCO_ARENA_TOKEN)
"""

from __future__ import annotations

import json
import signal
import statistics
import sys
import time
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import grpc  # noqa: E402

from arena.protocol import arena_pb2 as pb  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sdk import main as sdk_main  # noqa: E402
from sdk.client import StreamSession  # noqa: E402

DELAYS: list[float] = []  # seconds, one per Move answered by the arena


class ProbeSession(StreamSession):
    sent_at: float | None = None

    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        if self.sent_at is not None and msg.WhichOneof("kind") in ("decision", "hand_end", "game_end"):
            DELAYS.append(time.monotonic() - self.sent_at)
            self.sent_at = None
        out = await super().handle(msg, call)
        if msg.WhichOneof("kind") == "decision":
            self.sent_at = time.monotonic()
        return out


def report(signum: int = 0, frame: FrameType | None = None) -> None:
    ms = sorted(d * 1000 for d in DELAYS)
    line = {"moves": len(ms), "median_ms": statistics.median(ms) if ms else None,
            "p99_ms": ms[int(0.99 * (len(ms) - 1))] if ms else None, "worst_ms": ms[-1] if ms else None}
    print(json.dumps(line), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, report)
    sdk_main(lambda: RandomBot(), prog="league_probe", session_cls=ProbeSession)
