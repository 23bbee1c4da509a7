"""Truco Arena: referee engine, gRPC arena, tournaments and ratings."""

import os as _os
import sys as _sys

__version__ = "0.1.0"

# gRPC's listener. Its EventEngine listener (gRPC's default) reads each
# accepted connection on a thread pool and hands every message over between
# threads: about 25 us more of the arena's CPU per decision (a third of the
# gap to a bare echo; benchmarks/README.md) than iomgr's TCP server, which
# the experiment switch below selects. gRPC core reads GRPC_EXPERIMENTS once,
# when grpc is first imported, so it is set here, before any module of the
# arena imports grpc, and only if nothing imported grpc yet (then it would
# not apply to this process) and the variable is unset: an organizer's own
# GRPC_EXPERIMENTS, even empty, wins. Child processes inherit it; it changes
# only how a process that listens accepts connections.
GRPC_EXPERIMENTS_SET = "grpc" not in _sys.modules and "GRPC_EXPERIMENTS" not in _os.environ
"""Whether importing the arena set GRPC_EXPERIMENTS (to measure another
checkout under gRPC's defaults, a benchmark leaves it out of that one's environment)."""
if GRPC_EXPERIMENTS_SET:
    _os.environ["GRPC_EXPERIMENTS"] = "-event_engine_listener"
