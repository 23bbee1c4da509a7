"""A random bot that leaves a game whenever it is behind: at its first
decision with its team behind on points it says so on stderr ("dodged
GAME_ID") and its process exits at once, every stream with it (the test
starts it again, as an author's supervisor would). The league must score
each game it left as its loss, and never drop the first half of a
duplicate pair because the second was dodged, so dodging never beats
playing on.

    python tests/league/dodger_bot.py --address HOST:PORT --name NAME   (token in $TRUCO_ARENA_TOKEN)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import grpc  # noqa: E402

from arena.protocol import arena_pb2 as pb  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sdk import main as sdk_main  # noqa: E402
from sdk.client import StreamSession  # noqa: E402
from sdk.convert import observation  # noqa: E402


class DodgerSession(StreamSession):
    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        if msg.WhichOneof("kind") == "decision":
            obs = observation(msg.decision)
            mine = obs.seat % 2
            if obs.scores[mine] < obs.scores[1 - mine]:
                print(f"dodged {msg.decision.game_id}", file=sys.stderr, flush=True)
                os._exit(3)  # like a crash: no goodbye on any stream
        return await super().handle(msg, call)


if __name__ == "__main__":
    sdk_main(lambda: RandomBot(), prog="dodger", session_cls=DodgerSession)
