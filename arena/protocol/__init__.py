"""Generated protobuf/gRPC code for proto/truco/arena/v1/arena.proto.

``arena_pb2``, ``arena_pb2.pyi`` and ``arena_pb2_grpc`` are generated: never
edit them by hand, run ``python -m arena.protocol.regenerate``. This file imports
nothing generated, so regeneration works even when they are missing.
"""

# The protocol version these files speak (Hello.protocol_version).
PROTOCOL_VERSION = 3
# Every version the arena still speaks. Version 2 has no Batch: each message
# is its own write (docs/protocol.md, "Versions and changes").
SUPPORTED_VERSIONS = (2, 3)
# The first version whose streams get Batches.
BATCH_VERSION = 3
