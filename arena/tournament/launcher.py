"""Bot processes the arena launches itself: started with the arena's address
and a fresh token, stderr kept in a log file, always reaped.

The token goes to the bot in its environment ($TRUCO_ARENA_TOKEN), never on
its command line: ``/proc/PID/cmdline`` (what ``ps`` shows) is readable by
every local user, ``/proc/PID/environ`` only by the bot's owner."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO


@dataclass
class LaunchedBot:
    name: str
    process: asyncio.subprocess.Process
    log_path: Path
    _log: IO[bytes]
    slot: int = 0  # which of the bot's processes: a team game seats each partner from its own

    @property
    def exited(self) -> bool:
        return self.process.returncode is not None


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


async def launch(name: str, command: tuple[str, ...], address: str, token: str, streams: int,
                 log_dir: Path, *, tls_ca: Path | None = None, slot: int = 0) -> LaunchedBot:
    """Start process ``slot`` of bot ``name``; with ``tls_ca`` it dials with
    TLS and trusts that PEM certificate (the arena's own, for a self-signed one)."""
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_path_of(log_dir, name, slot)
    log = open(log_path, "ab")
    argv = _resolve(command) + ["--address", address, "--name", name, "--streams", str(streams)]
    env = dict(os.environ, TRUCO_ARENA_ADDRESS=address, TRUCO_ARENA_TOKEN=token, TRUCO_ARENA_NAME=name,
               TRUCO_ARENA_PARENT_PID=str(os.getpid()))  # the SDK exits when this process is gone
    env.pop("TRUCO_ARENA_TLS", None)
    env.pop("TRUCO_ARENA_CA", None)
    if tls_ca is not None:
        env.update(TRUCO_ARENA_TLS="1", TRUCO_ARENA_CA=str(tls_ca))
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log, env=env,
            start_new_session=True,  # a Ctrl-C to the arena does not hit the bots first
        )
    except OSError as exc:
        log.close()
        raise RuntimeError(f"bot {name}: cannot start {argv[0]!r}: {exc.strerror}") from None
    return LaunchedBot(name, proc, log_path, log, slot)


async def stop(bot: LaunchedBot, grace: float = 3.0) -> None:
    """Terminate, wait ``grace`` seconds, then kill; the process is always reaped."""
    proc = bot.process
    try:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), grace)
            except TimeoutError:
                proc.kill()
                await proc.wait()
    except ProcessLookupError:
        pass
    finally:
        bot._log.close()
