"""Bytes from a bot -> ``PlayRequest``, with the faults gRPC would otherwise hide.

gRPC's own size limit ends a call the same way a client's cancel does: the
servicer sees the stream end and cannot say why. So gRPC is given a looser
hard limit (``HARD_RECEIVE_BYTES``) and the arena's limit (``MAX_RECEIVE_BYTES``)
is checked here, on the raw bytes, before parsing: a message over it reaches
the reader as ``WireFault``: the stream closes with a reason that says so, in
the game's record and to the bot (the call ends RESOURCE_EXHAUSTED, or
INVALID_ARGUMENT for bytes that are not a PlayRequest, with that reason).
Only a message over the hard limit still ends the call inside gRPC.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from google.protobuf.message import DecodeError  # type: ignore[import-untyped,unused-ignore]

from arena.protocol import arena_pb2 as pb

from .grpc_options import MAX_RECEIVE_BYTES

SERVICE = "truco.arena.v1.ArenaService"


@dataclass(frozen=True, slots=True)
class WireFault:
    """A message that is not a PlayRequest the arena will read; ``reason`` says why."""

    reason: str
    oversize: bool = False
    """Over the arena's size limit (else: not a PlayRequest)"""


class RequestReader:
    """The request deserializer of ``Play``: never raises."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, data: bytes) -> pb.PlayRequest | WireFault:
        if len(data) > self.limit:
            return WireFault(f"sent a message over {self.limit // 1024} KiB ({len(data)} bytes)", oversize=True)
        try:
            request: pb.PlayRequest = pb.PlayRequest.FromString(data)
            return request
        except DecodeError:
            return WireFault(f"sent {len(data)} bytes that are not a PlayRequest")


def register(server: grpc.aio.Server, play: object, limit: int = MAX_RECEIVE_BYTES) -> None:
    """Serve ``play`` (the servicer's bound ``Play``) as ``ArenaService.Play``,
    reading requests with ``RequestReader(limit)``."""
    handlers = {
        "Play": grpc.stream_stream_rpc_method_handler(
            play, request_deserializer=RequestReader(limit), response_serializer=pb.PlayResponse.SerializeToString
        )
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
