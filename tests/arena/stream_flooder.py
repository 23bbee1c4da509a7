"""The flooding bot's process family in the family flood test: for SECONDS,
TASKS streams at a time over CHANNELS channels to ADDRESS, each silent and
opened again as soon as the arena (or gRPC) ends it. Prints one JSON line:
how many streams it opened and how they ended; with REPORT, such a line
every REPORT seconds too, with the time (``time.time()``).

    python stream_flooder.py ADDRESS SECONDS TASKS CHANNELS [REPORT]
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys
import time

import grpc

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc


async def _streams(stub: pb_grpc.ArenaServiceStub, until: float, endings: collections.Counter[str]) -> None:
    while time.monotonic() < until:
        call = stub.Play()
        try:
            async with asyncio.timeout(max(0.01, until - time.monotonic())):
                async for msg in call:
                    if msg.HasField("status"):
                        endings[pb.StatusCode.Name(msg.status.code)] += 1
                        break
                else:
                    endings["EOF"] += 1
        except grpc.aio.AioRpcError as exc:
            if not endings[exc.code().name]:
                print(f"first {exc.code().name}: {exc.details()}", file=sys.stderr, flush=True)
            endings[exc.code().name] += 1
        except TimeoutError:
            call.cancel()
            endings["still open"] += 1


async def _report(every: float, endings: collections.Counter[str]) -> None:
    while True:
        await asyncio.sleep(every)
        print(json.dumps({"time": time.time(), "opened": sum(endings.values()), "endings": endings}), flush=True)


async def main(address: str, seconds: float, tasks: int, channels: int, report: float | None) -> None:
    options = [("grpc.use_local_subchannel_pool", 1)]  # a connection per channel
    chans = [grpc.aio.insecure_channel(address, options=options) for _ in range(channels)]
    stubs = [pb_grpc.ArenaServiceStub(c) for c in chans]  # type: ignore[no-untyped-call]
    endings: collections.Counter[str] = collections.Counter()
    until = time.monotonic() + seconds
    reporter = asyncio.get_running_loop().create_task(_report(report, endings)) if report else None
    try:
        await asyncio.gather(*(_streams(stubs[i % channels], until, endings) for i in range(tasks)))
    finally:
        if reporter is not None:
            reporter.cancel()
        await asyncio.gather(*(c.close() for c in chans))
    print(json.dumps({"opened": sum(endings.values()), "endings": endings}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
                     float(sys.argv[5]) if len(sys.argv) > 5 else None))
