"""The run's control group weighs what its live bots would weigh outside it:
on a busy machine, sandboxed bots get the CPU share that ordinary processes
would, not one process's share between them all."""

from __future__ import annotations

import pytest
from sandbox_runs import needs_bwrap, needs_containment

from arena.sandbox import Containment, Sandbox
from arena.sandbox.limits import Limits

pytestmark = [needs_bwrap, needs_containment]


def _weight(sandbox: Sandbox) -> int:
    cgroups = sandbox.cgroups
    assert cgroups is not None
    if cgroups.version == 1:
        return int((cgroups.run_dirs["cpu"] / "cpu.shares").read_text()) // 1024
    return int((cgroups.run_dirs["unified"] / "cpu.weight").read_text()) // 100


def test_the_runs_group_weighs_as_many_processes_as_its_live_bots_use_cores() -> None:
    sandbox = Sandbox.open(Containment.FULL)
    try:
        if sandbox.cgroups is None or (sandbox.cgroups.version == 1 and "cpu" not in sandbox.cgroups.run_dirs):
            pytest.skip("no cpu controller here")
        boxes = [sandbox.wrap(f"b{i}", ["/bin/true"], {}, None, Limits(cpus=cpus)) for i, cpus in enumerate((1, 2, 1))]
        assert _weight(sandbox) == 4
        for wrapped in boxes:
            wrapped.close_fds()
        sandbox.release(boxes[1].box)
        assert _weight(sandbox) == 2
        sandbox.release(boxes[0].box)
        sandbox.release(boxes[2].box)
        assert _weight(sandbox) == 1  # never zero: an empty group still weighs one process
    finally:
        sandbox.close()
