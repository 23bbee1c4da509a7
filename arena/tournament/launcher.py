"""Bot processes the arena launches itself: started with the arena's address
and a fresh token, in a sandbox (``arena/sandbox``) unless the config says
``sandbox = "none"``, stderr kept in a log file, always reaped.

The token goes to the bot in its environment ($TRUCO_ARENA_TOKEN), never on
any command line: ``/proc/PID/cmdline`` (what ``ps`` shows) is readable by
every local user. In the sandbox the environment reaches the bot through a
file inside it (``arena/sandbox/bwrap.py``), and holds nothing else of the
arena's: only ``TRUCO_ARENA_*``, ``PATH``, ``LANG``, ``HOME`` and what the
config's ``env`` adds.

Every launched bot inherits the read end of a pipe whose write end only the
arena holds ($TRUCO_ARENA_PARENT_FD): when the arena is gone, however it
died, the descriptor reads end-of-file. A bot in any language notices that
with ``poll``/``select`` or a blocking read, sandboxed or not."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import DomainError

from ..games.private_files import PrivateFileError, make_private_dir, private_fd
from ..sandbox import SOCKET_ADDRESS, Box, Limits, Sandbox


class BotStartError(DomainError, RuntimeError):
    """A bot's program could not be started at all; one line."""


@dataclass(frozen=True)
class LaunchSpec:
    """How to start one bot: what the config says of it."""

    name: str
    command: tuple[str, ...]
    dir: Path | None = None
    """Its folder: working folder, and what its sandbox shows."""
    env: tuple[tuple[str, str], ...] = ()
    limits: Limits = field(default_factory=Limits)
    base_dir: Path | None = None
    """The config's folder: the working folder without a sandbox or dir."""


@dataclass
class LaunchedBot:
    name: str
    process: asyncio.subprocess.Process
    log_path: Path
    _log_fd: int
    slot: int = 0
    """Which of the bot's processes: a team game seats each partner from its own."""
    box: Box | None = None
    """Its control groups, when sandboxed where cgroups can be written."""
    _sandbox: Sandbox | None = None
    _parent_fd: int = -1
    """The write end of the bot's parent pipe: closed when the bot is stopped."""

    @property
    def exited(self) -> bool:
        return self.process.returncode is not None

    def limit_hit(self) -> str | None:
        """The sandbox limit that stopped this process, if one did."""
        return self.box.limit_hit() if self.box is not None else None


def _resolve(command: tuple[str, ...]) -> list[str]:
    # "python" in a config means this interpreter, so bots run in the arena's
    # environment (the installed SDK) whatever is first on PATH.
    argv = list(command)
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def log_path_of(log_dir: Path, name: str, slot: int = 0) -> Path:
    """Where process ``slot`` of bot ``name`` writes: NAME.log, then NAME.1.log, NAME.2.log..."""
    return log_dir / (f"{name}.log" if slot == 0 else f"{name}.{slot}.log")


async def launch(spec: LaunchSpec, address: str, token: str, streams: int, log_dir: Path, *,
                 tls_ca: Path | None = None, slot: int = 0, sandbox: Sandbox | None = None,
                 socket: Path | None = None) -> LaunchedBot:
    """Start process ``slot`` of bot ``spec.name``. With ``sandbox`` it runs
    contained and dials the arena's Unix socket (``socket``, its family's
    own, or the shared one); without, it dials
    ``address``, with TLS trusting ``tls_ca`` if given. BotStartError if the
    program cannot be started or its log cannot be written (owner-only, never
    through a planted link: ``private_files``)."""
    log_path = log_path_of(log_dir, spec.name, slot)
    try:
        make_private_dir(log_dir, parents=True)
        log_fd = private_fd(log_path, os.O_WRONLY | os.O_APPEND)
    except PrivateFileError as exc:
        raise BotStartError(f"bot {spec.name}: cannot write its log: {exc}") from None
    dial = SOCKET_ADDRESS if sandbox is not None else address
    argv = _resolve(spec.command) + ["--address", dial, "--name", spec.name, "--streams", str(streams)]
    parent_read, parent_write = os.pipe()  # both close-on-exec; the read end is passed on below
    # Readable by the bot's own user too, so that a shell (which cannot redirect
    # a descriptor above 9) may open it again as /proc/self/fd/N.
    os.fchmod(parent_read, 0o444)
    ours = {"TRUCO_ARENA_ADDRESS": dial, "TRUCO_ARENA_TOKEN": token, "TRUCO_ARENA_NAME": spec.name,
            "TRUCO_ARENA_PARENT_FD": str(parent_read)}
    box = None
    fds: tuple[int, ...] = ()
    wrapped = None
    if sandbox is not None:
        # No parent pid: in its own PID namespace the bot cannot name the arena.
        env = dict(spec.env) | ours
        try:
            wrapped = sandbox.wrap(spec.name, argv, env, spec.dir, spec.limits, socket)
        except OSError as exc:
            os.close(log_fd)
            os.close(parent_read)
            os.close(parent_write)
            raise BotStartError(f"bot {spec.name}: cannot set up its sandbox: {exc}") from None
        argv, box, cwd, full_env, fds = wrapped.argv, wrapped.box, None, wrapped.env, wrapped.fds
    else:
        full_env = dict(os.environ) | dict(spec.env) | ours | {"TRUCO_ARENA_PARENT_PID": str(os.getpid())}
        full_env.pop("TRUCO_ARENA_TLS", None)
        full_env.pop("TRUCO_ARENA_CA", None)
        if tls_ca is not None:
            full_env.update(TRUCO_ARENA_TLS="1", TRUCO_ARENA_CA=str(tls_ca))
        cwd = spec.dir or spec.base_dir
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=log_fd, stderr=log_fd, env=full_env, cwd=cwd,
            start_new_session=True,  # a Ctrl-C to the arena does not hit the bots first
            pass_fds=(parent_read, *fds),
        )
    except OSError as exc:
        os.close(log_fd)
        os.close(parent_write)
        if sandbox is not None:
            sandbox.release(box)
        raise BotStartError(f"bot {spec.name}: cannot start {argv[0]!r}: {exc.strerror}") from None
    finally:
        os.close(parent_read)
        if wrapped is not None:
            wrapped.close_fds()
    return LaunchedBot(spec.name, proc, log_path, log_fd, slot, box, sandbox, parent_write)


async def wait_or_kill(proc: asyncio.subprocess.Process, grace: float) -> None:
    """Wait up to ``grace`` seconds for ``proc`` to exit, then kill it and reap it."""
    try:
        await asyncio.wait_for(proc.wait(), grace)
    except TimeoutError:
        proc.kill()
        await proc.wait()


async def stop(bot: LaunchedBot, grace: float = 3.0) -> None:
    """Terminate, wait ``grace`` seconds, then kill; the process is always
    reaped, and its sandbox's groups removed with whatever was left in them."""
    proc = bot.process
    try:
        if proc.returncode is None:
            proc.terminate()
            await wait_or_kill(proc, grace)
    except ProcessLookupError:
        pass
    finally:
        if bot._log_fd >= 0:
            os.close(bot._log_fd)
            bot._log_fd = -1
        if bot._parent_fd >= 0:
            os.close(bot._parent_fd)
            bot._parent_fd = -1
        if bot._sandbox is not None:
            bot._sandbox.release(bot.box)
