"""Where a tournament's games are played: on this process's arena alone, on
several local worker processes, or on a Ray cluster (``scaleout/``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

# A Ray task plays this many duplicate pairs (or single games) before it
# reports done: minutes of work for real bots, so the cluster's scheduling
# costs nothing next to the games, while a lost node costs at most one batch.
DEFAULT_RAY_BATCH_PAIRS = 50
MAX_WORKERS = 1024


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ScaleOut:
    # local: worker processes (None: one per core, resolved at start); Ray: tasks at once (None: the cluster's CPUs)
    workers: int | None = None
    ray_address: str | None = None
    ray_runtime_env: dict[str, Any] | None = None  # how bots get onto every node (docs/scaling.md)
    batch_pairs: int | None = None  # duplicate pairs per batch (None: a default for each kind)

    def resolved(self) -> ScaleOut:
        """This machine's plan: local workers not asked for are one per core."""
        if self.ray_address is None and self.workers is None:
            return replace(self, workers=default_workers())
        return self

    @property
    def spreads(self) -> bool:
        """Whether any game leaves this process: more than one worker, or Ray."""
        return self.ray_address is not None or (self.workers or 1) > 1
