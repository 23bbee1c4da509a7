"""Runs as an ordinary user, from a test suite that runs as root (CI).

``user_python()`` makes, once per test session and cached between sessions,
an environment that any user can execute, outside /root (mode 700, where
the default interpreter lives): a venv of Debian's /usr/bin/python3.11 holding
copies of the arena's packages, their runtime dependencies and pytest
(copied from the running environment: the same Python minor version, so
the same wheels), and copies of this folder's files (test bots and tests).
``as_user`` runs a command as another uid with ``setpriv``;
``delegated_cgroup`` hands that uid a cgroup subtree as an administrator
would."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SYSTEM_PYTHON = Path("/usr/bin/python3.11")
ORGANIZER_UID = 4242  # an ordinary user with no name, no home, no groups
OTHER_UID = 4343  # another local user of the same machine
_PACKAGES = ("arena", "sdk", "sample_bots")
_CACHE = Path("/var/tmp")
_V1 = ("memory", "pids", "cpu", "cpuacct")

needs_root = pytest.mark.skipif(os.geteuid() != 0 or not SYSTEM_PYTHON.exists() or shutil.which("setpriv") is None,
                                reason="drops to an ordinary uid: needs root, setpriv and /usr/bin/python3.11")


def _sources() -> list[Path]:
    files: list[Path] = sorted(HERE.glob("*.py"))
    for name in _PACKAGES:
        root = Path(__import__(name).__file__ or "").parent
        files += sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return files


def _requirements(dist: str, seen: set[str]) -> None:
    """``dist`` and what it requires to run (no extras), by normalized name."""
    key = re.sub(r"[-_.]+", "-", dist).lower()
    if key in seen:
        return
    seen.add(key)
    for req in importlib.metadata.requires(dist) or []:
        name, _, marker = req.partition(";")
        if "extra" in marker:
            continue
        m = re.match(r"[A-Za-z0-9_.-]+", name.strip())
        if m is None:
            continue
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            _requirements(importlib.metadata.distribution(m.group(0)).metadata["Name"], seen)


def _build(target: Path) -> None:
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", "--without-pip", str(target / "venv")], check=True)
    site = next((target / "venv" / "lib").glob("python3*/site-packages"))
    needed: set[str] = set()
    _requirements("truco-arena", needed)  # pyproject's runtime dependencies, whatever they are now
    needed.discard("truco-arena")  # the checkout's own packages are copied below
    _requirements("pytest", needed)  # to run this folder's tests as the user (test_sandbox_as_user.py)
    for dist in importlib.metadata.distributions():
        key = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if key not in needed:
            continue
        for file in dist.files or []:
            source = Path(str(dist.locate_file(file)))
            dest = (site / file).resolve()
            if site.resolve() not in dest.parents or not source.is_file():
                continue  # scripts outside site-packages
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest)
    for name in _PACKAGES:
        root = Path(__import__(name).__file__ or "").parent
        shutil.copytree(root, site / name, ignore=shutil.ignore_patterns("__pycache__"))
    # Bytecode, once: the ordinary uid cannot write it into this folder, and
    # without it every bot and CLI it starts compiles the packages again.
    subprocess.run([str(SYSTEM_PYTHON), "-m", "compileall", "-q", str(site)], check=True,
                   stdout=subprocess.DEVNULL)
    (target / "bots").mkdir()
    for bot in HERE.glob("*.py"):
        shutil.copy2(bot, target / "bots" / bot.name)
    for folder, dirs, files in os.walk(target):
        for entry in dirs + files:
            path = os.path.join(folder, entry)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o055 if entry in dirs else os.stat(path).st_mode | 0o044)
    target.chmod(0o755)


def user_env() -> Path:
    """The folder with ``venv/`` and ``bots/``, made if missing (one per version of the sources)."""
    digest = hashlib.sha256(sys.version.encode())
    for path in _sources():
        digest.update(str(path).encode() + path.read_bytes())
    target = _CACHE / f"truco-arena-user-env-{digest.hexdigest()[:16]}"
    with open(_CACHE / "truco-arena-user-env.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / "ready").exists():
            shutil.rmtree(target, ignore_errors=True)
            building = Path(tempfile.mkdtemp(prefix="truco-arena-user-env-", dir=_CACHE))
            _build(building)
            (building / "ready").touch()
            building.rename(target)
        (target / "ready").touch()  # in use: kept
        _prune(target)
    return target


_UNUSED = 24 * 3600.0  # seconds after which another version's environment is removed


def _prune(keep: Path) -> None:
    """Remove the environments of other versions of the sources that no run
    has used for a day (every edit of the sources makes a new one, about
    35 MB), and builds that never finished. Called under the lock."""
    now = time.time()
    for other in _CACHE.glob("truco-arena-user-env-*"):
        if other == keep or not other.is_dir():
            continue
        mark = other / "ready"
        try:
            used = (mark if mark.exists() else other).stat().st_mtime
        except OSError:
            continue
        if now - used > _UNUSED:
            shutil.rmtree(other, ignore_errors=True)


def user_python() -> str:
    return str(user_env() / "venv" / "bin" / "python")


@contextlib.contextmanager
def user_folder(uid: int = ORGANIZER_UID) -> Iterator[Path]:
    """A fresh folder the user owns, outside /root and /tmp/pytest-of-root."""
    folder = Path(tempfile.mkdtemp(prefix="truco-user-", dir="/tmp"))
    os.chown(folder, uid, uid)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def user_argv(argv: list[str], uid: int = ORGANIZER_UID) -> list[str]:
    """``argv`` run as ``uid``: no groups, no capabilities."""
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all", "--", *argv]


def user_environment(home: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """A plain environment, as a login gives an ordinary user."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(home), **(env or {})}


def as_user(argv: list[str], *, cwd: Path, uid: int = ORGANIZER_UID, env: dict[str, str] | None = None,
            timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """``argv`` as ``uid``, in a plain environment."""
    return subprocess.run(user_argv(argv, uid), capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=user_environment(cwd, env))


def cli_as_user(*args: str, cwd: Path, uid: int = ORGANIZER_UID, env: dict[str, str] | None = None,
                timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return as_user([user_python(), "-c", "from arena.cli import main; main()", *args], cwd=cwd, uid=uid, env=env,
                   timeout=timeout)


@contextlib.contextmanager
def delegated_cgroup(uid: int = ORGANIZER_UID) -> Iterator[str]:
    """A cgroup v1 subtree in the memory, pids, cpu and cpuacct hierarchies,
    owned by ``uid``, as an administrator delegates one; yields its path
    (for $TRUCO_ARENA_CGROUP). Removed afterwards with whatever is left in it."""
    name = f"truco-test-{secrets.token_hex(4)}"
    made: list[Path] = []
    try:
        for controller in _V1:
            folder = Path("/sys/fs/cgroup") / controller / name
            folder.mkdir()
            made.append(folder)
            for path in [folder, *folder.iterdir()]:
                os.chown(path, uid, uid)
        yield name
    finally:
        # A run's last processes may still be exiting (its groups are then
        # busy): whatever is left is killed, and removing is tried again.
        deadline = time.monotonic() + 10
        while made and time.monotonic() < deadline:
            for folder in list(made):
                for child in sorted(folder.glob("**/"), key=lambda p: -len(p.parts)):
                    with contextlib.suppress(OSError):
                        for pid in (child / "cgroup.procs").read_text().split():
                            with contextlib.suppress(OSError):
                                os.kill(int(pid), signal.SIGKILL)
                        child.rmdir()
                if not folder.exists():
                    made.remove(folder)
            if made:
                time.sleep(0.1)


def v1_machine() -> bool:
    return all((Path("/sys/fs/cgroup") / c / "cgroup.procs").exists() for c in _V1)


_HOLDER = ("import threading, time\n"
           "for _ in range(1000): threading.Thread(target=time.sleep, args=(120,), daemon=True).start()\n"
           "print('holding', flush=True)\ntime.sleep(120)\n")


@contextlib.contextmanager
def threads_of_the_organizer() -> Iterator[subprocess.Popen[str]]:
    """The organizer's own program with 1,000 threads (a browser, an editor), running all along."""
    holder = subprocess.Popen(user_argv([str(SYSTEM_PYTHON), "-c", _HOLDER]), stdout=subprocess.PIPE, text=True,
                              cwd="/")
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    try:
        yield holder
    finally:
        holder.kill()
        holder.wait()
