"""A hostile bot for testing the arena: plays randomly except for ONE
misbehaviour at its ``--at``-th decision (counted over the whole process).

    python -m sample_bots.misbehaving --mode MODE [--at N] --address HOST:PORT --token T

Modes and the arena's expected verdict:
  sleep        answer only after move time + bank have run out    -> timeout
  slow         answer after move time + half the bank              -> none (bank charged)
  exit         the process exits without a word                    -> disconnect
  illegal      "play" a card it does not hold                      -> illegal_action
  garbage      an action that does not parse                       -> protocol_error
  empty        an empty action                                     -> protocol_error
  blank        a PlayRequest with nothing in it                    -> protocol_error
  second_hello a Hello instead of a Move                           -> protocol_error
  wrong_seq    a seq that was never sent                           -> protocol_error
  other_game   a game id that does not exist                       -> protocol_error
  duplicate    every decision: repeat the previous Move (late), then answer  -> none
  bad_version  say protocol version 99 in the Hello                -> rejected
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from arena.engine.cards import DECK
from arena.protocol import arena_pb2 as pb
from sdk.client import StreamSession

from .random_bot import RandomBot

MODES = (
    "sleep", "slow", "exit", "illegal", "garbage", "empty", "blank", "second_hello",
    "wrong_seq", "other_game", "duplicate", "bad_version",
)


class MisbehavingSession(StreamSession):
    mode = "sleep"
    at = 1
    decisions = 0  # over the whole process, all streams
    previous: pb.PlayRequest | None = None

    async def reply(self, d: pb.Decision) -> pb.PlayRequest | list[pb.PlayRequest] | None:
        cls = MisbehavingSession
        cls.decisions += 1
        good = await super().reply(d)
        assert isinstance(good, pb.PlayRequest)
        mode = self.mode
        if mode == "duplicate":
            out = [good] if cls.previous is None else [cls.previous, good]
            cls.previous = good
            return out
        if cls.decisions != self.at:
            return good
        if mode == "sleep":  # blocks the loop, like a choose() that hangs
            time.sleep((d.move_time_ms + d.bank_ms) / 1000 + 0.3)
            return good
        if mode == "slow":
            time.sleep((d.move_time_ms + d.bank_ms / 2) / 1000)
            return good
        if mode == "exit":
            sys.stderr.flush()
            os._exit(3)
        move = good.move
        if mode == "illegal":
            held = set(d.observation.hand)
            move.action = "play " + next(str(c) for c in DECK if str(c) not in held)
        elif mode == "garbage":
            move.action = "fold the cards"
        elif mode == "empty":
            move.action = ""
        elif mode == "blank":
            return pb.PlayRequest()
        elif mode == "second_hello":
            return self.hello()
        elif mode == "wrong_seq":
            move.seq = d.seq + 1000
        elif mode == "other_game":
            move.game_id = "no-such-game"
        return good


def main(argv: list[str] | None = None) -> None:
    from sdk import main as sdk_main

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--mode", choices=MODES, required=True)
    pre.add_argument("--at", type=int, default=1, help="misbehave at this decision (default 1)")
    pre.add_argument("--seed", type=int, default=None)
    args, rest = pre.parse_known_args(argv)
    MisbehavingSession.mode, MisbehavingSession.at = args.mode, args.at
    options: dict[str, Any] = {"session_cls": MisbehavingSession}
    if args.mode == "bad_version":
        options["protocol_version"] = 99
    sdk_main(lambda: RandomBot(args.seed), argv=rest, prog=f"misbehaving[{args.mode}]", **options)


if __name__ == "__main__":
    main()
