"""How the whole suite is spread over processes, loaded as a plugin for every
run (pyproject: ``-p parallel``): ``python -m pytest`` with no test path runs
on ``WORKERS`` pytest-xdist workers, the tests of one ``xdist_group`` on one
worker one after another, and the tests marked ``serial`` after all the
others, alone.

Four workers on two cores: the suite's tests mostly wait (on bot processes,
servers, games, browsers: about 1.2 cores busy on average), so more workers
than cores keep the cores busy (benchmarks/README.md, suite_time). A run
given test paths, or ``-n``, is left as asked (``-n 0``: one process).

The groups are read here rather than by xdist's own ``--dist loadgroup``,
which finds a test's group by renaming the test, and with pytest 9 the
renaming no longer takes: every test ran as a group of its own. Each worker
writes the groups of the tests it collected to a file of a folder the
controller made, and the controller's scheduler (``Spread``) reads them.

A ``serial`` test asserts a rate or a timing that tests beside it would
disturb. The serial tests form one group that ``Spread`` holds back until
every other test is done; it stops the other workers first, so that nothing
runs beside them, not even the last test a worker held back (an xdist
worker runs a test only once it knows the next one, or that there is none).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

WORKERS = 4
SERIAL = "serial"
_GROUPS = "spread_groups"  # the workerinput key: the folder of the groups' files
_FOLDER = pytest.StashKey[Path]()

try:
    from xdist.scheduler import LoadGroupScheduling  # type: ignore[import-untyped]
    HAVE_XDIST = True
except ImportError:  # without pytest-xdist every run is one process: nothing runs beside a serial test
    HAVE_XDIST = False


@pytest.hookimpl(wrapper=True)  # around xdist's own, which reads these options
def pytest_cmdline_main(config: pytest.Config) -> Generator[None, int | pytest.ExitCode | None,
                                                                 int | pytest.ExitCode | None]:
    if HAVE_XDIST and not hasattr(config, "workerinput") and not config.getoption("collectonly"):
        whole_suite = config.args_source is pytest.Config.ArgsSource.TESTPATHS
        if config.option.numprocesses is None and whole_suite and not config.getoption("usepdb"):
            config.option.numprocesses = WORKERS
        given = any(a == "--dist" or a.startswith("--dist=") for a in config.invocation_params.args)
        if config.option.numprocesses and not given:
            config.option.dist = "loadgroup"
    return (yield)


def group_of(item: pytest.Item) -> str | None:
    """The group ``item`` runs in: ``serial``, its ``xdist_group`` names, or None (a group of its own)."""
    if item.get_closest_marker(SERIAL) is not None:
        return SERIAL
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) or None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    folder = getattr(config, "workerinput", {}).get(_GROUPS)
    if folder is not None:  # a worker of a grouped run: what it collected, for the controller's scheduler
        groups = {item.nodeid: group for item in items if (group := group_of(item)) is not None}
        part = Path(folder) / f"{config.workerinput['workerid']}.json"  # type: ignore[attr-defined]
        part.with_suffix(".tmp").write_text(json.dumps(groups))
        part.with_suffix(".tmp").replace(part)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


if HAVE_XDIST:
    def pytest_configure_node(node: Any) -> None:
        config: pytest.Config = node.config
        if config.getvalue("dist") == "loadgroup":
            if _FOLDER not in config.stash:
                config.stash[_FOLDER] = Path(tempfile.mkdtemp(prefix="pytest-groups-"))
            node.workerinput[_GROUPS] = str(config.stash[_FOLDER])

    class Spread(LoadGroupScheduling):  # type: ignore[misc]
        """xdist's ``loadgroup`` with the groups the workers wrote, and the
        ``serial`` group held back for the one worker left once every other
        test is done."""

        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self.groups: dict[str, str] = {}
            self.serial_node: Any = None

        def schedule(self) -> None:
            if self.collection is None:  # the first call: every worker has collected, and written its file
                for part in sorted(self.config.stash[_FOLDER].glob("*.json")):
                    self.groups.update(json.loads(part.read_text()))
            super().schedule()

        def _split_scope(self, nodeid: str) -> str:
            group = self.groups.get(nodeid)
            return group if group is not None else str(super()._split_scope(nodeid))

        def _assign_work_unit(self, node: Any) -> None:
            if any(scope != SERIAL for scope in self.workqueue):
                if SERIAL in self.workqueue:  # the others first: units are taken from the front
                    self.workqueue.move_to_end(SERIAL)
                super()._assign_work_unit(node)
                return
            if self.serial_node is None:
                # Only the serial group is left: this worker runs it once the
                # others have finished their tests and stopped.
                self.serial_node = node
                for other in self.assigned_work:
                    if other is not node:
                        other.shutdown()
            self._start_serial()

        def remove_node(self, node: Any) -> str | None:
            crashed: str | None = super().remove_node(node)
            if node is self.serial_node:
                self.serial_node = None  # it crashed: the next worker to ask runs the group
            elif self.serial_node is not None:
                self._start_serial()
            return crashed

        def _start_serial(self) -> None:
            if SERIAL in self.workqueue and list(self.assigned_work) == [self.serial_node]:
                super()._assign_work_unit(self.serial_node)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        return Spread(config, log) if config.getvalue("dist") == "loadgroup" else None
