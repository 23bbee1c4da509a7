"""A random bot that leaves a game whenever it is behind: at its first
decision with its team behind on points it says so on stderr ("dodged
GAME_ID"), drops that stream at once (no goodbye, like a crash) and opens
it again only ``--away`` seconds later. Its other streams stay connected
and play on, taking ``--delay`` seconds per move, so while a stream is
away the bot is connected but often keeps no stream free: the second half
of a pair it left cannot start, and the league must score that as the
dodger's forfeit, never drop the first half, and score each game it left
as its loss by disconnect, so dodging never beats playing on.

    python tests/league/dodger_bot.py --address HOST:PORT --name NAME --streams N --delay S --away S
    (token in $TRUCO_ARENA_TOKEN)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import grpc  # noqa: E402

from arena.protocol import arena_pb2 as pb  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sdk import main as sdk_main  # noqa: E402
from sdk.client import StreamSession, TransientError  # noqa: E402
from sdk.convert import observation  # noqa: E402

TIMING = {"delay": 0.0, "away": 0.0}  # from the command line


class DodgerSession(StreamSession):
    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        if msg.WhichOneof("kind") == "decision":
            obs = observation(msg.decision)
            mine = obs.seat % 2
            if obs.scores[mine] < obs.scores[1 - mine]:
                print(f"dodged {msg.decision.game_id}", file=sys.stderr, flush=True)
                call.cancel()  # gone from this game, without a word
                await asyncio.sleep(TIMING["away"])
                raise TransientError("left a game it was losing")  # the SDK opens the stream again
            await asyncio.sleep(TIMING["delay"])  # slow, so the other streams stay busy
        return await super().handle(msg, call)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--delay", type=float, default=0.0, help="seconds to wait before every move")
    p.add_argument("--away", type=float, default=0.0, help="seconds a stream stays away after leaving a game")


def _bot(args: argparse.Namespace) -> RandomBot:
    TIMING.update(delay=args.delay, away=args.away)
    return RandomBot()


if __name__ == "__main__":
    sdk_main(_bot, add_arguments=_arguments, prog="dodger", session_cls=DodgerSession)
