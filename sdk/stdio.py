"""The stdio bridge: runs a bot program that speaks JSON lines on its stdin
and stdout (docs/protocol.md, "Stdio bots") and plays for it over gRPC with
the SDK's own client loop, so its connection, reconnection and trust rules
are those of every SDK bot.

    TRUCO_ARENA_TOKEN=TOKEN python -m sdk.stdio --address HOST:PORT --name NAME --run "./mybot --depth 3"

One program per stream, for many games: it is started before the stream's
first game and kept while it answers well (a JVM or a big table is paid
for once, not per game). Whatever it writes that is not an answer (garbage,
an id that is not one of the decision's, a line over ``LINE_MAX`` bytes,
a closed stdout, no answer in time) loses that game with a reason that
quotes it, and the program is stopped; a fresh one starts for the next game,
so nothing of a broken state carries over. Its stderr goes to the bridge's
own stderr (a launched bot's log), and what it wrote while deciding also goes
beside its move (``Move.stderr``), for the organizer's replay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from typing import Any

import grpc
from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]

from arena.protocol import arena_pb2 as pb
from arena.protocol.stdio import LINE_MAX, STDERR_MAX, quote

from .bot import Bot
from .client import StreamSession

# Seconds the bridge waits past the decision's own time (move time + bank, from
# when the bridge got it, so after the arena started its clock): the arena's
# clock decides a timeout; the bridge then stops the program at once, before
# the next game's first decision can wait on it.
GRACE = 0.1
EXIT_WAIT = 0.5  # seconds to wait for an exit code after the program closed its stdout
READ_CHUNK = 65536


class StdioBot(Bot):
    """One stream's bot program. ``ask`` never raises: every failure of the
    program becomes a forfeit text."""

    def __init__(self, argv: Sequence[str], name: str) -> None:
        self.argv = list(argv)
        self.name = name
        self.proc: asyncio.subprocess.Process | None = None
        self.lines: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.fault: str | None = None  # set when the program broke between decisions
        self.deciding = False
        self.stderr_seen = bytearray()  # what it wrote to stderr during the current decision
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------ process

    async def start(self) -> None:
        self.lines = asyncio.Queue()
        self.fault = None
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
        except OSError as exc:
            self.proc = None
            self.fault = f"cannot start {self.argv[0]!r}: {exc.strerror}"
            return
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._tasks = [asyncio.ensure_future(self._read_stdout(self.proc.stdout)),
                       asyncio.ensure_future(self._read_stderr(self.proc.stderr))]

    async def stop(self) -> None:
        """Close its stdin, give it a moment to exit, then kill it; always reaped."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(Exception):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), EXIT_WAIT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    def kill_now(self) -> None:
        """At exit, without a loop: the program must not outlive the bridge."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    async def _read_stdout(self, out: asyncio.StreamReader) -> None:
        buf = bytearray()
        while True:
            chunk = await out.read(READ_CHUNK)
            if not chunk:
                self.lines.put_nowait(("closed", bytes(buf)))
                return
            buf += chunk
            while (end := buf.find(b"\n")) >= 0:
                if end > LINE_MAX:
                    break
                self.lines.put_nowait(("line", bytes(buf[:end])))
                del buf[: end + 1]
            if len(buf) > LINE_MAX:
                self.lines.put_nowait(("long", bytes(buf[:LINE_MAX])))
                return

    async def _read_stderr(self, err: asyncio.StreamReader) -> None:
        while True:
            chunk = await err.read(READ_CHUNK)
            if not chunk:
                return
            if self.deciding and len(self.stderr_seen) < STDERR_MAX:
                self.stderr_seen += chunk[: STDERR_MAX - len(self.stderr_seen)]
            with contextlib.suppress(Exception):
                sys.stderr.buffer.write(chunk)
                sys.stderr.buffer.flush()

    async def _exit_text(self) -> str:
        proc = self.proc
        if proc is None:
            return "it is not running"
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), EXIT_WAIT)
        code = proc.returncode
        if code is None:
            return "still running"
        return f"exited with code {code}" if code >= 0 else f"killed by signal {-code}"

    # ------------------------------------------------------------ talking

    async def send(self, message: dict[str, Any]) -> None:
        """Write one line to the program; a program that cannot be written to is a fault."""
        if self.proc is None or self.fault is not None:
            return
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self.fault = f"closed its stdin ({await self._exit_text()})"

    async def tell(self, kind: str, message: Any) -> None:
        """A game start, hand end or game end, as the protocol's JSON."""
        if kind == "game_start" and (self.proc is None or self.fault is not None):
            await self.stop()
            await self.start()
        await self.send({"type": kind, **json_format.MessageToDict(
            message, always_print_fields_with_no_presence=True, preserving_proto_field_name=True)})

    async def ask(self, d: pb.Decision) -> tuple[str, str, str]:
        """(action, forfeit, stderr) for Decision ``d``: one of its legal
        actions and no forfeit, or a forfeit that says what went wrong."""
        if self.proc is None and self.fault is None:
            await self.start()
        legal = list(d.legal_actions)
        body = json_format.MessageToDict(d, always_print_fields_with_no_presence=True,
                                         preserving_proto_field_name=True)
        body.pop("seq", None)
        self.stderr_seen.clear()
        self.deciding = True
        try:
            forfeit = self.fault or self._spoke_out_of_turn()
            if not forfeit:
                await self.send({"type": "decision", **body})
                forfeit = self.fault or ""
            if not forfeit:
                seconds = (d.move_time_ms + d.bank_ms) / 1000 + GRACE
                try:
                    what, data = await asyncio.wait_for(self.lines.get(), seconds)
                except TimeoutError:
                    what, data = "late", b""
                index, forfeit = await self._answer(what, data, len(legal), seconds)
                if not forfeit:
                    return legal[index], "", self._stderr_text()
            await self.stop()  # its state is unknown now: a fresh program for the next game
            return "", forfeit, self._stderr_text()
        finally:
            self.deciding = False

    def _spoke_out_of_turn(self) -> str:
        if self.lines.empty():
            return ""
        what, data = self.lines.get_nowait()
        if what == "line":
            return f"wrote {quote(data)} before it was asked"
        self.lines.put_nowait((what, data))  # the end of its output, the last item: _answer reports it
        return ""

    async def _answer(self, what: str, data: bytes, n: int, seconds: float) -> tuple[int, str]:
        if what == "late":
            return -1, f"no answer within {seconds:g} s"
        if what == "long":
            return -1, f"wrote a line over {LINE_MAX} bytes: {quote(data)}"
        if what == "closed":
            partial = f" after writing {quote(data)}" if data else ""
            return -1, f"closed its stdout{partial} ({await self._exit_text()})"
        text = data.decode("utf-8", "replace").strip()
        if not text.isascii() or not text.isdigit():
            return -1, f"answered {quote(data)}, which is not an action id (a number from 0 to {n - 1})"
        index = int(text)
        if index >= n:
            return -1, f"answered {quote(data)}, which is not an action id of this decision (0 to {n - 1})"
        return index, ""

    def _stderr_text(self) -> str:
        return bytes(self.stderr_seen).decode("utf-8", "replace")


class StdioSession(StreamSession):
    """A stream of the SDK's client loop whose decisions the program answers."""

    bot: StdioBot

    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        kind = msg.WhichOneof("kind")
        if kind in ("game_start", "hand_end", "game_end"):
            await self.bot.tell(kind, getattr(msg, kind))
            return None
        return await super().handle(msg, call)

    async def reply(self, d: pb.Decision) -> pb.PlayRequest:
        action, forfeit, stderr = await self.bot.ask(d)
        if forfeit:
            print(f"{self.name}[{self.index}]: game {d.game_id}: the program {forfeit}; it is restarted "
                  f"for the next game", file=sys.stderr, flush=True)
        return pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq, action=action, forfeit=forfeit,
                                           stderr=stderr[:STDERR_MAX]))


def program(line: str) -> list[str]:
    """The program's argv from its command line; "python" means this interpreter, as in a config."""
    argv = shlex.split(line)
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def missing(argv: Sequence[str]) -> str | None:
    """Why ``argv`` cannot be started, naming the program as given; None when it can be tried."""
    if not argv:
        return "--run: the command is empty"
    exe = argv[0]
    if "/" in exe:
        if not os.path.isfile(exe):
            return f"{exe}: no such file (from {os.getcwd()})"
        if not os.access(exe, os.X_OK):
            return f"{exe}: not executable (chmod +x {exe})"
        return None
    return None if shutil.which(exe) else f"{exe}: program not found on PATH"


def main(argv: Sequence[str] | None = None) -> None:
    from .cli import parser
    from .client import run

    p = parser("sdk.stdio")
    p.description = "Play a stdio bot (JSON lines on stdin/stdout) in a Truco Arena."
    p.add_argument("--run", required=True, metavar="COMMAND",
                   help="the bot program's command line, e.g. \"./mybot --depth 3\"")
    args = p.parse_args(argv)
    try:
        command = program(args.run)
    except ValueError as exc:
        p.error(f"--run: cannot split {args.run!r}: {exc}")
    why = missing(command)
    if why is not None:
        print(f"sdk.stdio: {why}", file=sys.stderr)
        sys.exit(2)
    token = args.token or os.environ.pop("TRUCO_ARENA_TOKEN", "")
    if not token:
        p.error("no token: set TRUCO_ARENA_TOKEN (or pass --token)")
    name = args.name or os.path.basename(command[0]).rsplit(".", 1)[0] or "bot"
    bots: list[StdioBot] = []

    def make() -> StdioBot:
        bots.append(StdioBot(command, name))
        return bots[-1]

    try:
        code = run(make, args.address, token, args.streams, prog="sdk.stdio", name=name, threaded=False,
                   record=args.record, retry_for=args.retry_for, reconnect_for=args.reconnect_seconds,
                   tls=args.tls, ca=args.ca, session_cls=StdioSession)
    finally:
        for b in bots:
            b.kill_now()
    sys.exit(code)


if __name__ == "__main__":
    main()
