"""``truco-arena sandbox check``: what the bot sandbox guarantees on this
machine, for this user, one line per guarantee (``GUARANTEES``).

The limits come from the control groups the arena can make here; the rest
is observed: a shell started in a real sandbox, as a bot would be, reports
its network interfaces, the processes and files it sees, the host's
counters, its user id, and the command line it was started with is searched
for the secret it was given."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .bwrap import SandboxUnavailableError, find_bwrap
from .cgroups import Cgroups
from .limits import Containment, Limits
from .session import CGROUP_FIX, GUARANTEES, UID_FIX, Sandbox, delegated_cgroup, held

# Run inside the sandbox: one "key value" line per observation.
_PROBE = r"""
echo "interfaces $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ,)"
echo "processes $(ls /proc | grep -c '^[0-9]')"
if [ -e "$1" ]; then echo "organizer_file seen"; else echo "organizer_file hidden"; fi
echo "home_entries $(ls -A "$2" 2>/dev/null | wc -l)"
echo "meminfo $(head -c 200 /proc/meminfo | tr '\n' ' ')"
echo "uid $(id -u)"
echo "secret $TRUCO_CHECK_SECRET"
"""


@dataclass(frozen=True)
class Finding:
    """One guarantee on this machine."""

    guarantee: str
    """One of GUARANTEES."""
    holds: bool
    detail: str
    """Why it holds, or what to do for it to hold."""


def _observe(organizer_file: Path, home: Path) -> tuple[dict[str, str], bool]:
    """What a shell in a real sandbox saw, and whether its secret was on a command line."""
    sandbox = Sandbox.open(Containment.BEST_EFFORT)
    try:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(sandbox.socket))
        secret = secrets.token_hex(16)
        wrapped = sandbox.wrap("check", ["/bin/sh", "-c", _PROBE, "probe", str(organizer_file), str(home)],
                               {"TRUCO_CHECK_SECRET": secret}, None, Limits())
        try:
            run = subprocess.run(wrapped.argv, pass_fds=wrapped.fds, capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL)
        finally:
            wrapped.close_fds()
            sandbox.release(wrapped.box)
            listener.close()
        seen = dict(line.split(" ", 1) for line in run.stdout.splitlines() if " " in line)
        if run.returncode != 0 or "uid" not in seen:
            raise SandboxUnavailableError(f"a sandboxed shell failed (exit {run.returncode}): "
                                          f"{(run.stderr.strip().splitlines() or ['no output'])[-1]}")
        on_command_line = any(secret in arg for arg in wrapped.argv)
        seen["secret_ok"] = "yes" if seen.get("secret", "").strip() == secret else "no"
        return seen, on_command_line
    finally:
        sandbox.close()


def check() -> list[Finding]:
    """One finding per guarantee, in ``GUARANTEES`` order."""
    try:
        find_bwrap()
    except SandboxUnavailableError as exc:
        return [Finding(g, False, str(exc)) for g in GUARANTEES]
    as_root = os.geteuid() == 0
    cgroups = Cgroups.detect(delegated_cgroup())
    try:
        holds = held(cgroups, as_root)
    finally:
        if cgroups is not None:
            cgroups.close()
    # A file of the organizer's (a fresh one in the host's temporary folder), and the home folder:
    # the sandbox may cross the home folder to reach the Python environment, never list it.
    home = Path.home()
    with tempfile.TemporaryDirectory(prefix="truco-arena-check-") as tmp:
        organizer_file = Path(tmp) / "organizer-file"
        organizer_file.write_text("x")
        try:
            seen, on_command_line = _observe(organizer_file, home)
        except (SandboxUnavailableError, OSError, subprocess.SubprocessError) as exc:
            return [Finding(g, False, f"no sandbox could be started: {exc}") for g in GUARANTEES]
    host_meminfo = ""
    with contextlib.suppress(OSError):
        host_meminfo = Path("/proc/meminfo").read_text()[:200].replace("\n", " ")
    home_entries = seen.get("home_entries", "?").strip()
    interfaces = [i for i in seen.get("interfaces", "").split(",") if i]
    inside_uid = seen.get("uid", "").strip()
    observed = {
        "no network": (interfaces in ([], ["lo"]), f"interfaces seen: {', '.join(interfaces) or 'none'}"),
        "own files": (seen.get("organizer_file", "").strip() == "hidden" and home_entries in ("0", "1"),
                      f"a file of the organizer's is {seen.get('organizer_file', '?').strip()} inside; "
                      f"{home_entries} entries of {home} are listed inside"),
        "own processes": (seen.get("processes", "").strip() in ("1", "2", "3", "4"),
                          f"{seen.get('processes', '?').strip()} processes visible inside"),
        "no host counters": (seen.get("meminfo", "").strip() != host_meminfo.strip(),
                             "/proc/meminfo, stat, loadavg, uptime, vmstat, pressure... are neutral stand-ins"),
        "nothing secret on a command line": (not on_command_line and seen["secret_ok"] == "yes",
                                             "bwrap reads the environment from a descriptor (--args), not its command line"),
    }
    findings = []
    for g in GUARANTEES:
        if g in observed:
            ok, detail = observed[g]
        elif g == "a user id per bot process":
            ok = holds[g] and inside_uid != str(os.geteuid())
            detail = f"a bot runs as uid {inside_uid}" if ok else UID_FIX
        else:
            ok = holds[g]
            detail = "a control group per bot process" if ok else CGROUP_FIX
        findings.append(Finding(g, ok, detail))
    return findings
