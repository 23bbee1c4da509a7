"""The bots weigh what they would weigh outside their groups: on a busy
machine, sandboxed bots get the CPU share that ordinary processes would, not
one process's share between them all. On cgroup v2 the run's group, which
holds them, weighs as many processes as its live bots use cores; on cgroup
v1 each bot's group sits beside the arena's own processes and weighs its own
cores."""

from __future__ import annotations

from pathlib import Path

import pytest
from sandbox_runs import needs_bwrap, needs_containment

from arena.sandbox import Containment, Sandbox
from arena.sandbox.cgroups import Box
from arena.sandbox.limits import Limits

pytestmark = [needs_bwrap, needs_containment]


def _own_cpu_group() -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return path
    raise AssertionError("no cpu hierarchy")


def _weight(sandbox: Sandbox, boxes: list[Box | None]) -> int:
    """How many ordinary processes the run's live bots weigh beside the arena's."""
    cgroups = sandbox.cgroups
    assert cgroups is not None
    if cgroups.version == 2:
        return int((cgroups.run_dirs["unified"] / "cpu.weight").read_text()) // 100
    live = [b.dirs["cpu"] for b in boxes if b is not None and b.dirs["cpu"].exists()]
    for d in live:  # beside the arena's own processes, not a level below them
        assert d.parent == cgroups.run_dirs["cpu"] and str(d.parent).endswith(_own_cpu_group().rstrip("/")), d
    return sum(int((d / "cpu.shares").read_text()) // 1024 for d in live)


def test_the_bots_weigh_as_many_processes_as_they_use_cores() -> None:
    sandbox = Sandbox.open(Containment.FULL)
    try:
        if sandbox.cgroups is None or (sandbox.cgroups.version == 1 and "cpu" not in sandbox.cgroups.run_dirs):
            pytest.skip("no cpu controller here")
        wrapped = [sandbox.wrap(f"b{i}", ["/bin/true"], {}, None, Limits(cpus=cpus)) for i, cpus in enumerate((1, 2, 1))]
        boxes = [w.box for w in wrapped]
        for w in wrapped:
            w.close_fds()
        assert _weight(sandbox, boxes) == 4
        sandbox.release(boxes[1])
        assert _weight(sandbox, boxes) == 2
        sandbox.release(boxes[0])
        sandbox.release(boxes[2])
        # v2: never zero, an empty group still weighs one process; v1: no group is left
        assert _weight(sandbox, boxes) == (1 if sandbox.cgroups.version == 2 else 0)
    finally:
        sandbox.close()
