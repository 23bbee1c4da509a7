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
    """How the games are spread, as a config or a command line asks for it."""

    workers: int | None = None
    """Local: worker processes (None: one per core, resolved at start); Ray: tasks at once (None: the cluster's CPUs)."""
    ray_address: str | None = None
    """A Ray cluster's HOST:PORT (or auto); None: local workers."""
    ray_runtime_env: dict[str, Any] | None = None
    """How bots get onto every node (docs/scaling.md)."""
    batch_pairs: int | None = None
    """Duplicate pairs per batch (None: a default for each kind)."""

    def resolved(self) -> ScaleOut:
        """This machine's plan: local workers not asked for are one per core."""
        if self.ray_address is None and self.workers is None:
            return replace(self, workers=default_workers())
        return self

    @property
    def spreads(self) -> bool:
        """Whether any game leaves this process: more than one worker, or Ray."""
        return self.ray_address is not None or (self.workers or 1) > 1


@dataclass(frozen=True)
class RunPlan:
    """What one run of a tournament takes from this machine and this command
    line, resolved at its start: neither stored with the results nor part of
    what makes two tournaments the same (its config)."""

    scale: ScaleOut
    """Where the games are played, every choice made (local workers counted)."""
    asked: bool = False
    """Whether the file or the command line asked for workers or a Ray
    cluster. A match spreads its games only then: otherwise its
    ``concurrency`` is all its games at once, as ``match --concurrency`` says."""

    @classmethod
    def of(cls, asked: ScaleOut, *, workers: int | None = None, ray_address: str | None = None) -> RunPlan:
        """The plan for a run of a config whose file asks for ``asked``, with the
        command line's ``workers`` and ``ray_address`` over it."""
        scale = replace(asked, workers=workers or asked.workers, ray_address=ray_address or asked.ray_address)
        return cls(scale.resolved(), scale.workers is not None or scale.ray_address is not None)
