"""The bots of a tournament: the processes the arena launched, and whether
each bot can play right now.

A launched bot runs as ``seats_per_bot`` processes (one in a 2-seat game, two
or three in a team game), each with enough streams for every game that may run
at once; a team game seats each partner from a different process. A process
that dies (and so loses the game it was in) is started again, at most
``max_restarts`` times per bot; after that the bot is given up and forfeits
the games left.

A bot that cannot play (not connected, or too few of its processes are) is
waited for ``absent_wait`` seconds, counted from the moment it was first seen
missing; then it forfeits every game it is due to play until it is back.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from arena.errors import DomainError

from ..engine.outcome import Termination
from ..games.game_record import Forfeit, ForfeitCause
from ..games.playing import CpuLedger
from ..protocol.stdio import STDIO, bridge_command
from ..sandbox import Box, Sandbox, SandboxMode, probe
from ..server import Arena, PlayedGame
from .config import BotSpec, TournamentConfig
from .launcher import LaunchedBot, LaunchSpec, launch, stop

log = logging.getLogger("arena.tournament")

CRASH_WAIT = 1.0  # seconds to let a disconnected launched bot's process be seen exiting

# Asked when a launched bot's process died (bot, exit code, last line of its
# log): None to start it again, or why the bot is given up. A worker passes
# one that asks the coordinator, which counts crashes for the whole run
# (``CrashLedger``, scaleout/local.py); without one, ``max_restarts`` is counted here.
CrashGate = Callable[[str, int | None, str], Awaitable[str | None]]


class BotStartFailedError(DomainError, RuntimeError):
    """A launched bot did not say hello within ``start_seconds``: the run stops."""


def open_sandbox(config: TournamentConfig) -> Sandbox | None:
    """The sandbox for the bots this process launches: None when the config
    says ``sandbox = "none"`` or launches no bot. SandboxUnavailableError
    where bubblewrap cannot be used."""
    if config.sandbox is SandboxMode.NONE or all(b.command is None for b in config.bots):
        return None
    return Sandbox.open(config.containment)


NO_SANDBOX_LINE = ('containment: none (sandbox = "none": launched bots run unconfined, as the organizer; '
                   'only for bot code you trust)')


def containment_line(config: TournamentConfig) -> str | None:
    """The one line a run prints about its bots' containment, at every level;
    None when it launches no bot (every bot connects by itself)."""
    if all(b.command is None for b in config.bots):
        return None
    if config.sandbox is SandboxMode.NONE:
        return NO_SANDBOX_LINE
    return probe(config.containment)


def launch_spec(bot: BotSpec, config: TournamentConfig) -> LaunchSpec:
    assert bot.command is not None
    command = bridge_command(bot.command) if bot.protocol == STDIO else bot.command
    return LaunchSpec(bot.name, command, bot.dir, bot.env, bot.limits, config.base_dir)


def _last_line(path: Path) -> str:
    try:
        lines = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "no output"
    if not lines:
        return "no output"
    # The bot's words are cut, never the log path that follows them.
    return lines[-1] if len(lines[-1]) <= 200 else lines[-1][:197] + "..."


class Supervisor:
    def __init__(self, arena: Arena, config: TournamentConfig, address: str, streams: int, log_dir: Path,
                 max_restarts: int = 3, absent_wait: float | None = None, sandbox: Sandbox | None = None,
                 crash_gate: CrashGate | None = None) -> None:
        self.arena, self.config, self.address, self.sandbox = arena, config, address, sandbox
        self.crash_gate = crash_gate
        self.streams, self.log_dir, self.max_restarts = streams, log_dir, max_restarts
        self.absent_wait = config.absent_wait if absent_wait is None else absent_wait
        self.running: dict[str, list[LaunchedBot]] = {}
        self.restarts: dict[str, int] = {}
        self.given_up: dict[str, str] = {}  # bot -> why it was given up
        self._last_exit: dict[str, int] = {}  # bot -> exit status of its last process that died (crash forfeits)
        self._seen_exit: dict[str, int] = {}  # bot -> exit status explain() just saw (the row's evidence)
        self._missing_since: dict[str, float] = {}
        self._tokens: dict[str, str] = {}
        self._lock = asyncio.Lock()
        self.cpu = {b.name: CpuLedger(self._boxes_of(b.name)) for b in config.bots if b.command is not None}

    def _boxes_of(self, name: str) -> Callable[[], list[Box]]:
        return lambda: [p.box for p in self.running.get(name, []) if p.box is not None]

    async def start(self) -> None:
        """Launch every bot, then wait until each has said hello with all its
        processes (``start_seconds``). BotStartFailedError, with the last line
        of its log, for a bot that exited or stayed silent."""
        now = time.monotonic()
        launched = [b for b in self.config.bots if b.command is not None]
        if self.sandbox is not None:
            self.sandbox.cores.plan(sum(b.limits.cpus for b in launched) * self.config.seats_per_bot)
        for bot in self.config.bots:
            self._missing_since[bot.name] = now  # the wait for every bot starts with the run
            if bot.command is not None:
                group = self.running[bot.name] = []  # filled as launched: a start cut short stops what it began
                for slot in range(self.config.seats_per_bot):
                    group.append(await self._launch(bot, slot))
        await self._check_started(launched)

    async def _check_started(self, bots: list[BotSpec]) -> None:
        deadline = time.monotonic() + self.config.start_seconds
        waiting = list(bots)
        while waiting:
            if self.arena.closing:  # the run is stopping (a signal): no bot is to blame
                return
            for bot in list(waiting):
                if bot.name in self.given_up:  # on the coordinator's word, while this worker started: it forfeits
                    waiting.remove(bot)
                    continue
                group = self.running[bot.name]
                dead = next((p for p in group if p.exited), None)
                if dead is not None:
                    await asyncio.sleep(0.05)  # let the last words reach the log
                    why = dead.limit_hit() or f"exit code {dead.process.returncode}"
                    raise BotStartFailedError(f"bot {bot.name} exited before saying hello ({why}): "
                                              f"{_last_line(dead.log_path)} (log: {dead.log_path})")
                if self.arena.pool.peers_of(bot.name) >= len(group):
                    waiting.remove(bot)
            if waiting and time.monotonic() > deadline:
                bot = waiting[0]
                log_path = self.running[bot.name][0].log_path
                raise BotStartFailedError(f"bot {bot.name} did not say hello within {self.config.start_seconds:g} s "
                                          f"(start_seconds): {_last_line(log_path)} (log: {log_path})")
            if waiting:
                await asyncio.sleep(0.02)

    async def _launch(self, bot: BotSpec, slot: int) -> LaunchedBot:
        # One token per process slot, kept over restarts: in a sandbox the
        # arena tells a bot's processes apart by their tokens (a Unix socket
        # has no client address), so partners are seated from different ones.
        name = bot.name
        key = f"{name}#{slot}"
        token = self._tokens.get(key) or self._tokens.setdefault(
            key, self.arena.add_token(name, family=f"launched:{name}:{id(self)}"))
        ca = Path(self.config.tls_cert) if self.config.tls_cert is not None else None
        socket = None
        if self.sandbox is not None:
            # The bot's own socket: its processes' streams are admitted and
            # capped as one family, apart from every other bot's.
            socket = self.sandbox.family_socket(name)
            await self.arena.listen_family(name, socket, self.config.seats_per_bot, self.streams)
            self.sandbox.family_socket_ready(name)
        return await launch(launch_spec(bot, self.config), self.address, token, self.streams, self.log_dir,
                            tls_ca=ca, slot=slot, sandbox=self.sandbox, socket=socket)

    def processes(self) -> list[LaunchedBot]:
        return [p for group in self.running.values() for p in group]

    # ------------------------------------------------------------ availability

    def can_play(self, name: str) -> bool:
        """Enough of ``name`` is connected for one game: a stream from each of
        ``seats_per_bot`` different processes."""
        return name not in self.given_up and self.arena.pool.peers_of(name) >= self.config.seats_per_bot

    def forfeit(self, name: str) -> Forfeit | None:
        """The forfeit ``name`` owes now, or None while it plays or is still waited for."""
        if name in self.given_up:
            return Forfeit(name, ForfeitCause.CRASH, self.given_up[name], self._last_exit.get(name))
        now = time.monotonic()
        if self.can_play(name):
            self._missing_since.pop(name, None)
            return None
        since = self._missing_since.setdefault(name, now)
        if now - since < self.absent_wait:
            return None
        peers = self.arena.pool.peers_of(name)
        what = "was not connected" if peers == 0 else \
            f"had {peers} of the {self.config.seats_per_bot} processes a game needs connected"
        return Forfeit(name, ForfeitCause.ABSENT, f"{what} for {self.absent_wait:g} s")

    def ledger(self, name: str) -> CpuLedger | None:
        return self.cpu.get(name)

    def version(self, name: str) -> str:
        return ""  # a tournament's rows keep no versions: its bots are the config's

    def all_present(self) -> bool:
        return all(self.can_play(b.name) or b.name in self.given_up for b in self.config.bots)

    # ----------------------------------------------------------------- crashes

    async def explain(self, rec: PlayedGame) -> str:
        """Why the faulty bot of ``rec`` lost. A launched bot whose stream
        closed because one of its processes died "crashed with exit code N":
        the process is given a moment to be reaped, as the stream usually
        closes a little before the exit is seen."""
        seat, name = rec.faulty_seat, rec.faulty_bot
        if name is not None:
            self._seen_exit.pop(name, None)
        group = self.running.get(name, []) if name is not None else []
        if not group or seat is None or rec.termination is not Termination.DISCONNECT:
            return rec.reason
        waits = [asyncio.ensure_future(asyncio.shield(p.process.wait())) for p in group]
        done, pending = await asyncio.wait(waits, timeout=CRASH_WAIT, return_when=asyncio.FIRST_COMPLETED)
        for w in pending:
            w.cancel()
        codes = [w.result() for w in done if not w.cancelled() and w.exception() is None]
        # A limit of its sandbox explains the loss, even before the process is seen gone.
        limit = next((hit for p in group if (hit := p.limit_hit()) is not None), None)
        if codes and name is not None:
            self._seen_exit[name] = codes[0]
        if limit is not None:
            return f"seat {seat} ({name}) {limit}"
        if not codes:
            return rec.reason  # still running: it only closed its stream
        return f"seat {seat} ({name}) crashed with exit code {codes[0]}"

    def exit_status(self, name: str) -> int | None:
        """How the process of ``name`` that ``explain`` just saw end ended."""
        return self._seen_exit.pop(name, None)

    async def revive(self, names: tuple[str, ...]) -> None:
        """Start again the processes of ``names`` that died; give a bot up
        once it has crashed more than ``max_restarts`` times."""
        async with self._lock:
            if self.arena.closing:  # bots that exit at the shutdown are not crashes
                return
            for name in names:
                group = self.running.get(name)
                if group is None or name in self.given_up:
                    continue
                for i, proc in enumerate(group):
                    if not proc.exited:
                        continue
                    n = self.restarts.get(name, 0)
                    code = proc.process.returncode
                    if code is not None:
                        self._last_exit[name] = code
                    why = await self._give_up_after_crash(name, n, code, proc)
                    if why is not None:
                        self.given_up[name] = why
                        log.warning("bot %s %s; it forfeits its remaining games", name, self.given_up[name])
                        await asyncio.gather(*(stop(p) for p in group))
                        break
                    self.restarts[name] = n + 1
                    log.info("bot %s crashed with exit code %s; starting it again", name, code)
                    await stop(proc)
                    spec = next(b for b in self.config.bots if b.name == name)
                    group[i] = await self._launch(spec, proc.slot)
                    # A fresh process gets the whole wait to connect.
                    self._missing_since[name] = time.monotonic()

    async def _give_up_after_crash(self, name: str, restarts: int, code: int | None,
                                   proc: LaunchedBot) -> str | None:
        """None to restart ``name`` after this crash, or why it is given up."""
        if self.crash_gate is not None:
            return await self.crash_gate(name, code, proc.limit_hit() or _last_line(proc.log_path))
        if restarts >= self.max_restarts:
            last = proc.limit_hit() or f"last exit code {code}: {_last_line(proc.log_path)}"
            return f"crashed {restarts + 1} times ({last}); see {proc.log_path}"
        return None

    async def give_up(self, name: str, why: str) -> None:
        """Give ``name`` up on the coordinator's word: it crashed too often
        elsewhere in the run, so it forfeits its games here too."""
        async with self._lock:
            if name in self.given_up:
                return
            self.given_up[name] = why
            log.warning("bot %s %s; it forfeits its remaining games", name, why)
            await asyncio.gather(*(stop(p) for p in self.running.get(name, [])))

    async def stop(self) -> None:
        await asyncio.gather(*(stop(p) for p in self.processes()))
