"""The bubblewrap command line of one sandboxed bot process.

What the process sees (everything else of the machine does not exist for it):

* read-only: the system's programs and libraries (/usr and the /bin, /lib
  links), a few files of /etc the dynamic linker and programs read, the
  Python environment the arena runs in (its prefix, its base prefix, and the
  folders of the ``sdk``, ``arena`` and ``sample_bots`` packages only, never
  the checkout around them), and the bot's own folder;
* the arena's Unix socket, at ``SOCKET_IN_SANDBOX``: its only way out (no
  network namespace is shared: not even the host's loopback);
* a private /tmp of ``scratch_mb`` (also ``HOME`` and /dev/shm), the only
  writable place;
* its own /proc (a new PID namespace: it sees only its own processes, and the
  bot is its pid 1), the machine-wide counters replaced by neutral ones
  (``neutral.py``), and a minimal read-only /dev;
* its environment, set by bwrap from options it reads from a descriptor
  (``--args``), never from its command line.

It gets new IPC, UTS, network, PID and (where possible) cgroup namespaces, no
capabilities, a cleared environment, and, when the arena runs as root, a
user id of its own (``setpriv``) so that not even the kernel's own checks
(signals, ptrace, files the organizer owns) treat it as the organizer."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from arena.errors import DomainError

SOCKET_IN_SANDBOX = "/run/truco-arena/arena.sock"
SCRATCH = "/tmp"
# The system folders every program needs; links (merged /usr) are recreated as links.
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Files of /etc that programs read to start: the linker's cache, time zone, the
# alternatives links (/usr/bin/java, /usr/bin/python3 and friends), name service
# switch, OpenSSL's configuration (Node.js will not start without it). Public
# files of the system, nothing of the organizer's.
_ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/alternatives",
        "/etc/nsswitch.conf", "/etc/ssl/openssl.cnf")
# Packages a Python bot imports from the arena's own environment.
_PACKAGES = ("sdk", "arena", "sample_bots")


class SandboxUnavailableError(DomainError, RuntimeError):
    """bubblewrap cannot be used here; the message says what to do."""


def find_bwrap() -> str:
    """The bwrap program, or SandboxUnavailableError naming the package and the opt-out."""
    if not sys.platform.startswith("linux"):
        raise SandboxUnavailableError(
            f"the bot sandbox needs Linux (this is {sys.platform}); set sandbox = \"none\" in the config "
            f"only for bot code you trust")
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailableError(
            "the bot sandbox needs bubblewrap: install the package `bubblewrap` (apt-get install bubblewrap), "
            "or set sandbox = \"none\" in the config for bot code you trust")
    return path


def python_paths() -> tuple[list[str], list[str]]:
    """(folders to show read-only, entries for PYTHONPATH): the interpreter's
    prefixes and the folders of the packages bots import, each alone."""
    seen: list[str] = []
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))):
        if p not in seen:
            seen.append(p)
    path_entries: list[str] = []
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = os.path.realpath(list(spec.submodule_search_locations)[0])
        if not any(folder == s or folder.startswith(s.rstrip("/") + "/") for s in seen):
            seen.append(folder)
        parent = os.path.dirname(folder)
        if parent not in path_entries:
            path_entries.append(parent)
    return seen, path_entries


def _parents(path: str, made: set[str]) -> list[str]:
    """Folders leading to ``path``, made traversable (bwrap would make them
    0700 as root, which a bot's own user could not cross)."""
    out: list[str] = []
    parts = Path(path).parts[1:-1]
    for i in range(len(parts)):
        folder = "/" + "/".join(parts[: i + 1])
        if folder in made or folder == SCRATCH or any(folder == s or folder.startswith(s + "/") for s in _SYSTEM):
            continue
        made.add(folder)
        out += ["--perms", "0755", "--dir", folder]
    return out


@dataclass(frozen=True)
class SandboxSpec:
    """One bot process's sandbox."""

    bot_dir: Path | None
    """Shown read-only and the working folder; None: the scratch folder."""
    socket: Path
    """The arena's Unix socket on the host."""
    env: dict[str, str]
    """The bot's whole environment (set by bwrap, from ``args_fd``)"""
    scratch_mb: int
    uid: int | None
    """A user id of its own (the arena runs as root), or None: the arena's."""
    proc_binds: tuple[str, ...] = ()
    """Bwrap arguments for the neutral /proc files (neutral.py)"""
    hostname: str = "bot"


# Secrets (the token, the config's env) are never on a command line: every
# local user reads command lines (``ps``); a process's environment only its
# own user and root. bwrap reads every option from a descriptor (``--args``),
# ``--setenv`` among them: its own command line shows only ``--args N`` and
# the bot's command, and no shell runs between bwrap and the bot.


# /dev: these devices, links to /proc's descriptors, /dev/shm into the sized
# /tmp (shared memory counts in scratch_mb), nothing writable.
_DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
_DEV_LINKS = (("/proc/self/fd", "/dev/fd"), ("/proc/self/fd/0", "/dev/stdin"), ("/proc/self/fd/1", "/dev/stdout"),
              ("/proc/self/fd/2", "/dev/stderr"), (SCRATCH, "/dev/shm"))


def bwrap_options(spec: SandboxSpec) -> list[str]:
    """Every option of bwrap for ``spec`` (read from a descriptor, ``args_data``)."""
    # --as-pid-1: no bwrap init inside the PID namespace, whose memory a bot of
    # the organizer's own user could otherwise read or trace.
    argv = ["--die-with-parent", "--new-session", "--as-pid-1",
            "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
            "--hostname", spec.hostname]
    if os.geteuid() != 0:
        argv.append("--unshare-user")  # unprivileged: the namespaces come with a user namespace
    for path in _SYSTEM:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            argv += ["--ro-bind", path, path]
    # /etc itself is made, traversable, before the files in it: bwrap would
    # make it 0700 as root, which a bot's own user could not cross (the
    # alternatives links and openssl.cnf would then fail to resolve).
    argv += ["--perms", "0755", "--dir", "/etc", "--perms", "0755", "--dir", "/etc/ssl"]
    for path in _ETC:
        argv += ["--ro-bind-try", path, path]
    # The scratch folder first: binds below /tmp (a bot folder, an environment) stay visible in it.
    argv += ["--perms", "1777", "--size", str(spec.scratch_mb * 1024 * 1024), "--tmpfs", SCRATCH]
    shown, _ = python_paths()
    if spec.bot_dir is not None:
        shown.append(str(spec.bot_dir))
    made: set[str] = set()
    for path in shown:
        argv += _parents(path, made)
        argv += ["--ro-bind", path, path]
    argv += ["--proc", "/proc", *spec.proc_binds]
    argv += ["--perms", "0755", "--size", str(64 * 1024), "--tmpfs", "/dev"]
    for device in _DEVICES:
        argv += ["--dev-bind-try", f"/dev/{device}", f"/dev/{device}"]
    for target, link in _DEV_LINKS:
        argv += ["--symlink", target, link]
    argv += ["--remount-ro", "/dev",
             "--dir", os.path.dirname(SOCKET_IN_SANDBOX),
             "--ro-bind", str(spec.socket), SOCKET_IN_SANDBOX,
             "--remount-ro", "/",
             "--clearenv"]
    for key, value in spec.env.items():
        argv += ["--setenv", key, value]
    argv += ["--chdir", str(spec.bot_dir) if spec.bot_dir is not None else SCRATCH, "--cap-drop", "ALL"]
    if spec.uid is not None:
        # Root only: keep the two capabilities setpriv needs to become the bot's
        # own user, which then has none at all.
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return argv


def args_data(spec: SandboxSpec) -> bytes:
    """bwrap's options as ``--args`` reads them: each followed by a NUL."""
    options = bwrap_options(spec)
    if any("\0" in o for o in options):
        raise OSError("an environment value or path holds a NUL character")  # the launcher: BotStartError
    return b"".join(o.encode() + b"\0" for o in options)


def bwrap_argv(bwrap: str, args_fd: int, uid: int | None, command: list[str]) -> list[str]:
    """The command line: bwrap reads its options from ``args_fd`` (``args_data``)."""
    argv = [bwrap, "--args", str(args_fd), "--"]
    if uid is not None:
        argv += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]
    return argv + command
