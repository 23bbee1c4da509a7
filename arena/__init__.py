"""Truco Arena: referee engine, gRPC arena, tournaments and ratings."""

import os as _os
import sys as _sys

__version__ = "0.1.0"

# gRPC's transport. Its EventEngine (gRPC's default for listeners and client
# connections) reads each connection on a thread pool and hands every
# message over between threads; iomgr's TCP server and client, which the
# experiment switches below select, do not. Measured (benchmarks/README.md):
# about a fifth less of the arena's CPU per decision, a quarter less of a
# random SDK bot's per game. gRPC core reads GRPC_EXPERIMENTS once, when
# grpc is first imported, so it is set here, before any module of the arena
# or of the SDK imports grpc, and only if nothing imported grpc yet (it would
# not apply to this process) and the variable is unset: an organizer's own
# GRPC_EXPERIMENTS, even empty, wins. Child processes inherit it.
GRPC_EXPERIMENTS_SET = "grpc" not in _sys.modules and "GRPC_EXPERIMENTS" not in _os.environ
"""Whether importing the arena set GRPC_EXPERIMENTS (to measure another
checkout under gRPC's defaults, a benchmark leaves it out of that one's environment)."""
if GRPC_EXPERIMENTS_SET:
    _os.environ["GRPC_EXPERIMENTS"] = "-event_engine_listener,-event_engine_client"
