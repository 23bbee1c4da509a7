"""This folder's tests, every one but this file, run whole by an ordinary
uid, as an organizer without root runs them: with a cgroup subtree
delegated to it, and with nothing delegated. They pass; what they skip is
only what that user's mode cannot hold (the run is then refused, and the
reason names the guarantees missing), or an arm that plays another mode by
dropping from root to another uid, which only root can do. A test whose bots
all run without the sandbox (marked ``unsandboxed``) runs with nothing
delegated only: the delegated subtree is read by the sandbox alone, so the
delegated mode would run it again the same way."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from sandbox_runs import needs_bwrap
from unprivileged import as_user, delegated_cgroup, needs_root, user_env, user_folder, user_python, v1_machine

from arena.sandbox.session import GUARANTEES

pytestmark = [pytest.mark.slow, pytest.mark.integration, needs_bwrap, needs_root]

# Why a test may be skipped as an ordinary uid: it plays another mode (an
# arm switching users from root) ...
_ANOTHER_MODE = ("the root arm needs root", "the ordinary-user arms need root", "drops to an ordinary uid: needs root")
# ... or this mode cannot hold a guarantee and runs are refused (the refusal names the guarantees).
_REFUSED = "this user's runs are refused by default: the bot sandbox cannot limit "
_CGROUP_GUARANTEES = ("memory", "processes", "CPU", "CPU accounting")


def _results(report: Path) -> dict[str, tuple[str, str]]:
    """test id -> (passed / skipped / failed, the skip's reason or the failure's text), from JUnit XML."""
    found = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        key = f"{case.get('classname')}::{case.get('name')}"
        outcome, text = "passed", ""
        for child in case:
            if child.tag == "skipped":
                outcome, text = "skipped", child.get("message", "")
            elif child.tag in ("failure", "error"):  # the assertion's own lines, whole
                lines = [line for line in (child.text or "").splitlines() if line.startswith("E ")]
                outcome, text = "failed", "\n".join(lines)[-3000:]
        found[key] = outcome, text
    return found


@pytest.mark.parametrize("mode", ["delegated", "nothing-delegated"])
def test_the_sandbox_tests_pass_as_an_ordinary_user(mode: str) -> None:
    if mode == "delegated" and not v1_machine():
        pytest.skip("delegating a subtree is done here for cgroup v1 only")
    tests = sorted(str(p) for p in (user_env() / "bots").glob("test_*.py") if p.name != Path(__file__).name)
    python = user_python()
    with user_folder() as folder:
        report = folder / "report.xml"
        argv = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning",
                f"--junitxml={report}", "--basetemp", str(folder / "tmp"),
                *(["-m", "not unsandboxed"] if mode == "delegated" else []), *tests]
        if mode == "delegated":
            with delegated_cgroup() as path:
                run = as_user(argv, cwd=folder, env={"TRUCO_ARENA_CGROUP": path}, timeout=900)
        else:
            run = as_user(argv, cwd=folder, timeout=900)
        assert report.exists(), run.stdout[-3000:] + run.stderr[-3000:]
        results = _results(report)
    failed = {k: t for k, (o, t) in results.items() if o == "failed"}
    assert run.returncode == 0 and not failed, "\n".join(f"{k}:\n{t}" for k, t in failed.items()) or run.stdout[-3000:]
    skipped = {k: t for k, (o, t) in results.items() if o == "skipped"}
    passed = [k for k, (o, _) in results.items() if o == "passed"]
    for test, reason in skipped.items():
        if any(s in reason for s in _ANOTHER_MODE):
            continue
        # Only with nothing delegated may a test be skipped for a guarantee, and its reason names them all.
        assert mode == "nothing-delegated" and _REFUSED in reason, (test, reason)
        named = reason.split(_REFUSED, 1)[1].split(" per bot", 1)[0].split(", ")
        assert set(named) == set(_CGROUP_GUARANTEES) and set(named) <= set(GUARANTEES), (test, reason)
    limits = [k for k in results if "test_sandbox_limits" in k]
    assert limits, sorted(results)
    if mode == "delegated":  # every limit holds: the tests of the limits run and pass
        assert all(k in passed for k in limits), {k: results[k] for k in limits}
    else:  # each is skipped, saying why
        assert all(k in skipped for k in limits), {k: results[k] for k in limits}
    # Tests that hold in every mode ran: the configs, the check, /etc; the
    # control without a sandbox, and the rest of the unsandboxed tests, in one mode.
    for name in ("test_sandbox_config", "test_sandbox_check", "test_sandbox_etc"):
        assert any(name in k for k in passed), (name, sorted(passed))
    unsandboxed = ("test_without_the_sandbox_the_same_bot_gets_through", "test_the_opt_out_runs_trusted_bots",
                   "test_without_bubblewrap_the_demo_runs", "test_a_run_without_a_sandbox_says_so")
    for name in unsandboxed:
        ran = [k for k in results if name in k]
        if mode == "delegated":
            assert not ran, (name, ran)
        else:
            assert ran and all(k in passed for k in ran), (name, {k: results[k] for k in ran})
