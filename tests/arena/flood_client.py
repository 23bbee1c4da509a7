"""The flooding client of the flood test, as a process of its own: opens
STREAMS ``Play`` streams spread over CHANNELS channels to the arena at
ADDRESS, never sends a byte on them, and waits until the arena has ended
every one. Prints one JSON line: how each stream ended.

    python flood_client.py ADDRESS STREAMS CHANNELS
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys

import grpc

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc


async def _stream(stub: pb_grpc.ArenaServiceStub) -> str:
    """How one silent stream ended: the arena's Status code, or the gRPC code."""
    call = stub.Play()
    try:
        async for msg in call:
            if msg.HasField("status"):
                return str(pb.StatusCode.Name(msg.status.code))
        return "EOF"
    except grpc.aio.AioRpcError as exc:
        return f"{exc.code().name}: {exc.details()}"


async def main(address: str, streams: int, channels: int) -> None:
    # A local subchannel pool per channel: without it, channels to one address
    # share one connection (and its cap on concurrent streams).
    options = [("grpc.use_local_subchannel_pool", 1)]
    chans = [grpc.aio.insecure_channel(address, options=options) for _ in range(channels)]
    stubs = [pb_grpc.ArenaServiceStub(c) for c in chans]  # type: ignore[no-untyped-call]
    try:
        endings = await asyncio.wait_for(
            asyncio.gather(*(_stream(stubs[i % channels]) for i in range(streams))), timeout=120
        )
    finally:
        await asyncio.gather(*(c.close() for c in chans))
    print(json.dumps(collections.Counter(endings)), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
