"""A hostile launched bot, in a real tournament with default settings (two
worker processes here, each launching its copy of every bot): everything it
tries against the machine, the results, its opponent and the arena fails,
the run goes on, nothing recorded is touched, and its opponent loses no game
on time. The same bot with ``sandbox = "none"`` succeeds at most of it, so
the test is known to see the attacks.

The config and its results file sit inside the project checkout, where an
editable install could expose them: the sandbox shows only the package
folders, never the checkout around them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, overload

import pytest
from arms import arm
from sandbox_runs import CLI, HERE, RANDOM, needs_bwrap, needs_containment, unsandboxed
from unprivileged import OTHER_UID, needs_root, user_env, user_python

from arena.games.store import ResultsStore
from arena.replay import options_of, replay_row

pytestmark = [pytest.mark.slow, pytest.mark.integration, needs_bwrap]

REPO = HERE.parents[1]
# Attacks that must all fail in the sandbox.
ATTACKS = ("read_databases", "read_tokens", "see_canary", "read_memory", "signal_processes", "renice_and_pin",
           "connect_loopback", "connect_outside", "open_worker_pipe", "write_outside_scratch", "plant_symlink",
           "share_with_partner", "fork_unbounded", "allocate")


@pytest.fixture
def inside_checkout() -> Iterator[Path]:
    """A folder inside the checkout, as an organizer who keeps configs there has."""
    folder = REPO / f".sandbox-test-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


SECRET = "bot-env-secret-7f3a"  # a bot's env value no other user may read
# Each of the adversary's decisions waits this long (of its 1 s) while its attacks go on, so
# the games outlast them: at 0.2 s, the games of a loaded machine (or of an ordinary user,
# whose search ends sooner) ended before its last attacks (allocating, then "done").
HOLD = "0.6"


def _config(folder: Path, sandbox: str, adversary_args: list[str], games: int = 24, bots: Path = HERE,
            extra: tuple[str, ...] = ()) -> Path:
    args = ", ".join(json.dumps(a) for a in adversary_args)
    lines = ['variant = "uruguayo"', f"games_per_pairing = {games}", "concurrency = 2",
             f'sandbox = "{sandbox}"', *extra,
             "[options]", "target = 15",
             "[time_control]", "move_seconds = 1.0", "bank_seconds = 5.0",
             "[[bots]]", 'name = "adversary"', 'command = ["python", "adversary_bot.py"]', f"args = [{args}]",
             f'dir = "{bots}"', f'env = {{ ADVERSARY_SECRET = "{SECRET}" }}',
             "[[bots]]", 'name = "random"', f'command = "{RANDOM}"']
    path = folder / "hostile.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@overload
def _run(config: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]: ...
@overload
def _run(config: Path, timeout: float = 240, *, wait: Literal[False], tmpdir: Path) -> subprocess.Popen[str]: ...


def _run(config: Path, timeout: float = 240, *, wait: bool = True, tmpdir: Path | None = None
         ) -> subprocess.CompletedProcess[str] | subprocess.Popen[str]:
    env = dict(os.environ, ADVERSARY_CANARY="organizer-secret-variable")
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    argv = [*CLI, "tournament", "run", str(config), "--no-progress"]
    if not wait:
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                cwd=config.parent)
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env, cwd=config.parent)


def _attacks(log_dir: Path) -> dict[str, list[dict[str, object]]]:
    """Every attack line from every copy of the adversary, by attack."""
    found: dict[str, list[dict[str, object]]] = {}
    for log in log_dir.rglob("adversary*.log"):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith('{"attack"'):
                entry = json.loads(line)
                found.setdefault(str(entry["attack"]), []).append(entry)
    return found


def _replays_cleanly(db: Path) -> int:
    """Every stored game replays from its seed to the stored result; returns the count."""
    with ResultsStore.open_existing(db) as store:
        options = options_of(store.get_meta("config"))
        rows = list(store.games())
    for row in rows:
        if row.actions:
            replay = replay_row(row, options)
            assert replay.info.scores == (row.score0, row.score1), row.game_key
    return len(rows)


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """The run's TMPDIR: like /tmp (anyone may cross it), but the test's own,
    so that the probe tells this run's socket from other programs'."""
    folder = Path(tempfile.mkdtemp(prefix="truco-tmpdir-", dir="/tmp"))
    folder.chmod(0o1777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _with_another_user(run: subprocess.Popen[str], tmpdir: Path, seconds: float = 25
                       ) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Another local uid probing the tournament ``run`` all along
    (other_user_probe.py): the run's outcome and what the probe found. A root
    process whose command line holds the secret (a decoy) shows the probe
    can read what is there."""
    decoy = subprocess.Popen(["sh", "-c", "sleep 60", "DECOY", SECRET])
    probe = subprocess.Popen(["setpriv", f"--reuid={OTHER_UID}", f"--regid={OTHER_UID}", "--clear-groups",
                              user_python(), str(user_env() / "bots" / "other_user_probe.py"), str(seconds), SECRET,
                              str(run.pid), str(tmpdir)], stdout=subprocess.PIPE, text=True, cwd="/")
    try:
        out, err = run.communicate(timeout=300)
        found = json.loads(probe.communicate(timeout=seconds + 30)[0])
    finally:
        for p in (decoy, probe, run):
            p.kill()
            p.wait()
    return subprocess.CompletedProcess(run.args, run.returncode, out, err), found


def _check_other_user(found: dict[str, Any]) -> None:
    assert found["decoys_seen"], "the probe never read the decoy's command line"
    assert not found["leaks"], f"another user read secrets: {found['leaks']}"
    assert found["sockets"], "the probe never saw the arena's socket in /proc/net/unix"
    assert "connected" not in found["sockets"].values(), found["sockets"]


def _check_contained(folder: Path, games: int, worked_ok: frozenset[str] = frozenset()) -> None:
    attacks = _attacks(folder / "hostile-logs")
    assert "done" in attacks, f"the adversary did not finish its attacks: {sorted(attacks)}"
    for name in ATTACKS:
        assert name in attacks, f"{name} never tried"
        worked = [a for a in attacks[name] if a["ok"]]
        if name in worked_ok:
            continue
        assert not worked, f"{name} got through the sandbox: {worked}"
    # The run went on: every game recorded once, each replays to its stored result,
    # and the opponent never ran out of time while the adversary spun.
    db = folder / "hostile.sqlite"
    assert _replays_cleanly(db) == games
    with ResultsStore.open_existing(db) as store:
        rows = list(store.games())
    assert not [r for r in rows if r.faulty_bot == "random"], [r.reason for r in rows if r.faulty_bot == "random"]
    # Arena-side files are the organizer's alone.
    assert db.stat().st_mode & 0o077 == 0
    assert (folder / "hostile-logs").stat().st_mode & 0o077 == 0
    if not worked_ok:
        # The limits said why they refused.
        assert all("Resource temporarily unavailable" in str(a["detail"]) for a in attacks["fork_unbounded"])
        assert all("killed by signal 9" in str(a["detail"]) for a in attacks["allocate"])
        # Each bot's CPU was measured by its sandbox, game by game.
        assert all(r.cpu0 is not None and r.cpu1 is not None for r in rows)


@needs_containment
@needs_root
def test_a_hostile_launched_bot_is_contained_by_default(inside_checkout: Path, shared_tmp: Path) -> None:
    config = _config(inside_checkout, "bwrap", ["--alloc-mb", "10240", "--fork-cap", "5000",
                                                 "--spin-seconds", "12", "--hold-seconds", HOLD])
    run, found = _with_another_user(_run(config, wait=False, tmpdir=shared_tmp), shared_tmp)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    _check_contained(inside_checkout, 24)
    _check_other_user(found)


@needs_root
@pytest.mark.parametrize("arm_name", ["user-delegated", "user-best-effort"])
def test_a_hostile_launched_bot_is_contained_for_an_ordinary_user(arm_name: str, tmp_path: Path,
                                                                  shared_tmp: Path) -> None:
    """The organizer is an ordinary uid. With a delegated cgroup everything
    holds as for root; with nothing delegated and containment = "best-effort"
    everything but the process limit holds, and the run says what does not."""
    with arm(arm_name, tmp_path) as a:
        a.env.update(TMPDIR=str(shared_tmp), ADVERSARY_CANARY="organizer-secret-variable")
        fork_cap = "5000" if a.full else "300"  # no process limit there: the bot stops itself
        config = a.own(_config(a.folder, "bwrap", ["--alloc-mb", "10240", "--fork-cap", fork_cap,
                                                   "--spin-seconds", "6", "--search-seconds", "5",
                                                   "--hold-seconds", HOLD], games=12, bots=a.bots,
                                       extra=a.extra))
        run, found = _with_another_user(a.cli_popen("tournament", "run", str(config), "--no-progress"), shared_tmp)
        assert run.returncode == 0, run.stderr[-3000:]
        assert "Traceback" not in run.stderr
        level = run.stderr.splitlines()[0] if run.stderr else ""
        if a.full:
            assert "containment" not in run.stderr, run.stderr  # full: said with the progress display only
            _check_contained(a.folder, 12)
        else:
            assert level.startswith("containment: best-effort") and "does not hold: memory" in level, level
            assert run.stderr.strip().splitlines()[-1] == level  # said again beside the results
            _check_contained(a.folder, 12, worked_ok=frozenset({"fork_unbounded"}))
        _check_other_user(found)


@needs_root
def test_an_ordinary_user_with_nothing_delegated_is_refused_in_one_line(tmp_path: Path) -> None:
    with arm("user-best-effort", tmp_path) as a:
        config = a.own(_config(a.folder, "bwrap", [], games=2, bots=a.bots))
        run = a.cli("tournament", "run", str(config), "--no-progress")
        assert run.returncode == 2, run.stderr
        line, = run.stderr.strip().splitlines()
        for needed in ("memory, processes, CPU, CPU accounting", "TRUCO_ARENA_CGROUP", 'containment = "best-effort"',
                       'sandbox = "none"'):
            assert needed in line, line
        assert not (a.folder / "hostile.sqlite").exists()


@unsandboxed
def test_without_the_sandbox_the_same_bot_gets_through(tmp_path: Path) -> None:
    """The control: the attacks are real, and the test sees them succeed."""
    # The host's whole filesystem is searched here: a few seconds of it find the test's own files
    # (10 s allowed: as an ordinary uid beside the rest of the suite, 3 s once found none).
    config = _config(tmp_path, "none", ["--alloc-mb", "1536", "--fork-cap", "300", "--spin-seconds", "2",
                                        "--search-seconds", "10", "--hold-seconds", HOLD])
    run = _run(config)
    assert run.returncode == 0, run.stderr[-3000:]
    attacks = _attacks(tmp_path / "hostile-logs")
    assert "done" in attacks, sorted(attacks)
    worked = {name for name, entries in attacks.items() if any(e["ok"] for e in entries)}
    expected = {"read_databases", "read_tokens", "see_canary", "signal_processes", "renice_and_pin",
                "connect_loopback", "open_worker_pipe", "write_outside_scratch", "plant_symlink",
                "share_with_partner", "fork_unbounded", "allocate"}
    assert expected <= worked, f"not detected without a sandbox: {sorted(expected - worked)}"
