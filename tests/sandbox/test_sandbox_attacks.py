"""Attacks through what the sandboxes of one machine share, in every mode
that runs bots (root; an ordinary user with a delegated cgroup; an ordinary
user with nothing delegated, under ``containment = "best-effort"``): a bot
holding hundreds of threads beside two bystanders; a bot that fills
/dev/shm and forks children that together go over its memory limit; two
partners signalling through the host's counters."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from arms import arm, arm_params
from sandbox_runs import RANDOM, needs_bwrap, write_config
from unprivileged import threads_of_the_organizer

from arena.games.store import ResultsStore

pytestmark = [pytest.mark.integration, pytest.mark.slow, needs_bwrap]


def _rows(db: Path) -> list:  # type: ignore[type-arg]
    with ResultsStore.open_existing(db) as store:
        return list(store.games())


def _json_lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(errors="replace").splitlines() if line.startswith("{")]


@arm_params
def test_a_thread_hog_leaves_its_two_bystanders_alone(arm_name: str, tmp_path: Path) -> None:
    """And the organizer already runs 1,000 threads of their own: no shared process count stops anything."""
    with arm(arm_name, tmp_path) as a, \
            threads_of_the_organizer() if a.name != "root" else contextlib.nullcontext():
        config = a.own(write_config(a.folder / "t.toml", [
            ['name = "hog"', 'command = ["python", "hog_bot.py", "--what", "threads", "--threads", "400"]',
             f'dir = "{a.bots}"'],
            ['name = "calm1"', f'command = "{RANDOM}"'],
            ['name = "calm2"', f'command = "{RANDOM}"'],
        # A 3 s bank, not 10: with no process limit the hog, its threads
        # held, may answer nothing and lose on time, and its games would
        # each take the whole clock. The bystanders answer in milliseconds.
        ], games=2, extra=a.extra, bank_seconds=3.0))
        run = a.cli("tournament", "run", str(config), "--no-progress")
        assert run.returncode == 0, run.stderr[-2000:]
        rows = _rows(a.folder / "t.sqlite")
        assert len(rows) == 6
        assert not [r for r in rows if r.faulty_bot in ("calm1", "calm2")], [r.reason for r in rows]
        for log in (a.folder / "t-logs").glob("calm*.log"):
            assert "can't start new thread" not in log.read_text(), log
        held = [e for log in (a.folder / "t-logs").glob("hog*.log") for e in _json_lines(log) if "threads" in e]
        assert held, "the hog never held its threads"
        if a.full:  # its own process limit (256, threads included) stopped it, and only it
            assert all("can't start new thread" in str(h["refused"]) and int(str(h["threads"])) < 256
                       for h in held), held
        else:  # no process limit: only its own address space bounds its threads' stacks
            assert all(int(str(h["threads"])) > 256 for h in held), held


@arm_params
def test_dev_shm_and_forked_children_count_in_the_bots_limits(arm_name: str, tmp_path: Path) -> None:
    with arm(arm_name, tmp_path) as a:
        config = a.own(write_config(a.folder / "t.toml", [
            ['name = "hog"', 'command = ["python", "hog_bot.py", "--what", "shm-fork", "--memory-mb", "256"]',
             f'dir = "{a.bots}"', "memory_mb = 256"],
            ['name = "steady"', f'command = "{RANDOM}"'],
        ], games=2, extra=a.extra))
        run = a.cli("tournament", "run", str(config), "--no-progress")
        assert run.returncode == 0, run.stderr[-2000:]
        reports = [e for log in (a.folder / "t-logs").glob("hog*.log") for e in _json_lines(log) if "shm_mb" in e]
        # /dev/shm is the sized scratch space (64 MiB by default): a GiB never fits.
        assert reports and all(int(str(r["shm_mb"])) <= 64 and r["shm_error"] for r in reports), reports
        lost = [r for r in _rows(a.folder / "t.sqlite") if r.faulty_bot == "hog"]
        if a.full:  # the family together went over 256 MiB: a child was killed, the game lost for memory
            assert lost and "out of memory (limit 256 MiB)" in lost[0].reason, [r.reason for r in lost]
        else:  # each child has its own address-space limit: the family is not contained (the run says so)
            assert "does not hold: memory" in run.stderr


# Only the control is serial: it reads the host's counters, where other tests'
# processes are its noise. A sandboxed arm reads the neutral stand-ins
# (arena/sandbox/neutral.py), which nothing on the host moves: other tests
# beside it cannot make a counter move there, so it runs with the rest
# (a counter that leaked would move all the more beside them).
@pytest.mark.parametrize("arm_name", [pytest.param("none", marks=pytest.mark.serial),
                                      "root", "user-delegated", "user-best-effort"])  # the control first
def test_partners_cannot_signal_through_the_hosts_counters(arm_name: str, tmp_path: Path) -> None:
    """96 known bits, sent by filling and emptying 40 MiB and spinning a core,
    read from every counter of /proc: at chance in the sandbox (not one
    counter the receiver reads ever moves); the control without it reads
    them, so the test sees the channel.

    The partners hold their moves (within a 6 s clock) and play long games
    until their parts of the channel are over: the tournament cannot end,
    killing the receiver before it reports, however short the deals."""
    # The control may miss bits when other programs load the machine in bursts:
    # it only has to show, once in three tries, that the test sees a channel.
    for attempt in range(3 if arm_name == "none" else 1):
        with arm("root" if arm_name == "none" else arm_name, tmp_path / str(attempt)) as a:
            if a.name == "root":
                a.folder.mkdir()
            extra = ('sandbox = "none"',) if arm_name == "none" else a.extra
            config = a.own(write_config(a.folder / "t.toml", [
                ['name = "adversary"', 'command = ["python", "adversary_bot.py", "--only", "covert_channel"]',
                 f'dir = "{a.bots}"'],
                ['name = "steady"', f'command = "{RANDOM}"'],
            ], games=4, seats=4, extra=extra, move_seconds=6.0))
            try:
                run = a.cli("tournament", "run", str(config), "--no-progress")
            finally:  # without a sandbox the sender's file is in the host's /dev/shm
                with contextlib.suppress(OSError):
                    os.unlink("/dev/shm/truco-adversary-marker-channel")
            assert run.returncode == 0, run.stderr[-2000:]
            entries = [e for log in (a.folder / "t-logs").glob("adversary*.log") for e in _json_lines(log)
                       if e.get("attack") == "covert_channel"]
            assert len(entries) == 1, entries
        if arm_name != "none" or entries[0]["ok"]:
            break
    if arm_name == "none":
        assert entries[0]["ok"], entries
    else:  # not one counter the receiver reads ever moved: nothing can cross
        assert not entries[0]["ok"] and str(entries[0]["detail"]).endswith("counters that moved: []"), entries
