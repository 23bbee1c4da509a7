"""A squatter: holds the arena's address (``[::1]`` beside an arena on
``127.0.0.1``, or the port after a crash) and tells every bot that dials in
to go away, in every way the protocol has: a SHUTDOWN at once, a SHUTDOWN or
a refusal after the bot's Proof, and a SHUTDOWN with a forged signature.
Prints one line per stream it answered.

    python tests/league/squatter.py HOST PORT
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from collections.abc import AsyncIterator

import grpc

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc

WAYS = ("shutdown-at-hello", "shutdown-after-proof", "refusal-after-proof", "forged-shutdown")


def goodbye(way: str) -> pb.PlayResponse:
    if way == "refusal-after-proof":
        return pb.PlayResponse(status=pb.Status(code=pb.STATUS_CODE_UNAUTHENTICATED, closing=True,
                                                message="your token was revoked"))
    signature = os.urandom(32) if way == "forged-shutdown" else b""
    return pb.PlayResponse(status=pb.Status(code=pb.STATUS_CODE_SHUTDOWN, closing=True, restarting=False,
                                            message="the arena is shutting down", signature=signature))


class Squatter(pb_grpc.ArenaServiceServicer):
    def __init__(self) -> None:
        self.ways = itertools.cycle(WAYS)

    async def Play(self, request_iterator: AsyncIterator[pb.PlayRequest],  # noqa: N802
                   context: grpc.aio.ServicerContext) -> AsyncIterator[pb.PlayResponse]:
        way = next(self.ways)
        async for req in request_iterator:
            if req.HasField("hello"):
                print(f"{way} {req.hello.bot_name}", flush=True)
                if way == "shutdown-at-hello":
                    yield goodbye(way)
                    return
                yield pb.PlayResponse(challenge=pb.Challenge(server_nonce=os.urandom(32)))
            elif req.HasField("proof"):
                yield goodbye(way)
                return


async def main(host: str, port: int) -> None:
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    pb_grpc.add_ArenaServiceServicer_to_server(Squatter(), server)  # type: ignore[no-untyped-call]
    server.add_insecure_port(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
    await server.start()
    print("listening", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
