"""gRPC channel arguments of the arena's server.

Keepalive pings find a hung or vanished bot within ~keepalive_time +
ping timeout seconds even when no game is running on its stream. In current
gRPC core ``grpc.http2.ping_timeout_ms`` is what bounds the wait for a ping
ack; ``grpc.keepalive_timeout_ms`` is set too for older cores.
"""

from __future__ import annotations

MAX_RECEIVE_BYTES = 64 * 1024  # a Move is ~50 bytes; anything near this is abuse
# gRPC's own limit, above the arena's: a message between the two reaches the
# arena, which closes the stream saying why (wire.py); one over this ends the
# call inside gRPC, indistinguishable from a cancel. It bounds what gRPC
# buffers for one message.
HARD_RECEIVE_BYTES = 4 * MAX_RECEIVE_BYTES
MAX_SEND_BYTES = 4 * 1024 * 1024
# Streams one HTTP/2 connection may have open at once. A bot plays one game per
# stream and rarely needs more than a few; a client opening thousands on one
# connection is flooding. Clients queue streams beyond this until one ends.
MAX_STREAMS_PER_CONNECTION = 100


def server_options(
    keepalive_time: float = 5.0,
    keepalive_timeout: float = 5.0,
    max_receive_bytes: int = HARD_RECEIVE_BYTES,
    max_streams_per_connection: int = MAX_STREAMS_PER_CONNECTION,
) -> list[tuple[str, int]]:
    ping_ms = int(keepalive_time * 1000)
    timeout_ms = int(keepalive_timeout * 1000)
    return [
        ("grpc.keepalive_time_ms", ping_ms),
        ("grpc.keepalive_timeout_ms", timeout_ms),
        ("grpc.http2.ping_timeout_ms", timeout_ms),
        # Ping idle bots too: a stream waiting in the pool has no traffic.
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
        # Accept the SDK's own keepalive pings (every 10 s) without a GOAWAY.
        ("grpc.http2.min_ping_interval_without_data_ms", 1000),
        ("grpc.http2.min_recv_ping_interval_without_data_ms", 1000),
        ("grpc.http2.max_ping_strikes", 0),
        ("grpc.max_receive_message_length", max_receive_bytes),
        ("grpc.max_send_message_length", MAX_SEND_BYTES),
        ("grpc.max_concurrent_streams", max_streams_per_connection),
        # Two arenas must not silently share one port.
        ("grpc.so_reuseport", 0),
    ]
