"""Test bots that break the protocol where the SDK cannot: run as
``python stubborn_bot.py MODE [whatever the launcher adds]``.

  no-hello  opens a Play stream and never sends anything
  deaf      says a valid Hello, then never reads the stream again
  escapes   like deaf, with a newline and a terminal escape in its bot_version
  misnamed  like deaf, under a name other than the one its token is for

They find the arena, the token and the name in the environment the
launcher sets (TRUCO_ARENA_ADDRESS, TRUCO_ARENA_TOKEN, TRUCO_ARENA_NAME)
and ignore their command-line options.
"""

from __future__ import annotations

import asyncio
import os
import sys

import grpc

from arena.protocol import PROTOCOL_VERSION
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.protocol.handshake import say_hello

_LIFETIME = 60.0  # seconds; the checker stops the process long before


async def main(mode: str) -> None:
    address = os.environ["TRUCO_ARENA_ADDRESS"]
    async with grpc.aio.insecure_channel(address) as channel:
        call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
        if mode in ("deaf", "escapes", "misnamed"):
            version = "1.0\n\x1b[31mred" if mode == "escapes" else "0"
            name = "someone-else" if mode == "misnamed" else os.environ["TRUCO_ARENA_NAME"]
            await say_hello(call, name, os.environ["TRUCO_ARENA_TOKEN"], version, PROTOCOL_VERSION)
        await asyncio.sleep(_LIFETIME)


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("no-hello", "deaf", "escapes", "misnamed"):
        sys.exit("usage: stubborn_bot.py no-hello|deaf|escapes|misnamed")
    asyncio.run(main(sys.argv[1]))
