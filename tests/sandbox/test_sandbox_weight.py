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
from arena.sandbox.cgroups import Box, Cgroups
from arena.sandbox.limits import Limits
from arena.sandbox.session import delegated_cgroup

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


def test_controllers_that_share_a_hierarchy_share_one_group_per_bot() -> None:
    """cgroup v1 often mounts cpu and cpuacct together: a bot gets one group
    there, made once, joined once, removed once."""
    found = Cgroups.detect(delegated_cgroup())
    if found is None or found.version != 1 or "cpu" not in found.run_dirs:
        if found is not None:
            found.close()
        pytest.skip("needs cgroup v1 with a cpu hierarchy this user may write")
    shared = {**found.run_dirs, "cpuacct": found.run_dirs["cpu"]}  # as one cpu,cpuacct mount gives them
    both = Cgroups(1, shared, prefix=found.prefix)
    try:
        box = both.box("b", Limits(), None)
        assert box.dirs["cpu"] == box.dirs["cpuacct"] and box.dirs["cpu"].is_dir()
        assert len(box.procs_files()) == len(box.dirs) - 1  # cpu and cpuacct: one group, joined once
        box.remove()
        assert not box.dirs["cpu"].exists()
    finally:
        both.close()
        found.close()
