"""What the docs' commands need around them to run as written: the files
they name (a config, the README's bot, a certificate), and running a
command, or starting a long-running one and stopping it, with deadlines."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from doc_commands import README, ROOT, Command, blocks, commands, section

from arena.games.store import ResultsStore, StoreError

DEADLINE = 120.0  # seconds any one command of the docs may take here

# weekly.toml, the tournament the report and scaling docs' commands are run
# on: the README's bot (in a folder of its own, as the README says) against a
# sample bot, short games, 4 duplicate pairs so that `mybot:random:3a` exists.
WEEKLY = '''name = "weekly"
variant = "uruguayo"
games_per_pairing = 8
seed = 12
concurrency = 2

[options]
target = 9

[[bots]]
name = "mybot"
dir = "mybot"
command = ["python", "mybot.py"]

[[bots]]
name = "random"
command = "python -m sample_bots.random_bot"
'''

# A stronger "new version" for the match examples: the sample heuristic bot,
# run as a script of the reader's.
HEURISTIC_SCRIPT = "from sample_bots.heuristic import main\n\nmain()\n"


def readme_bot() -> str:
    (code,) = blocks(section(README.read_text(), "Write a bot in 20 lines"), "python")
    return code


def weekly_dir(where: Path) -> Path:
    """``where`` with weekly.toml and the README's bot in mybot/."""
    (where / "mybot").mkdir(parents=True)
    (where / "weekly.toml").write_text(WEEKLY)
    (where / "mybot" / "mybot.py").write_text(readme_bot())
    return where


def league_config() -> str:
    """docs/league.md's config, as written."""
    (config,) = blocks(section((ROOT / "docs" / "league.md").read_text(), "Config"), "toml")
    return config


def certificate_for_loopback(where: Path) -> None:
    """arena.crt and arena.key in ``where`` for bots that dial 127.0.0.1 (the
    docs' own openssl command names arena.example, which nothing here resolves)."""
    openssl = shutil.which("openssl")
    assert openssl is not None, "the docs' TLS examples need the openssl command: apt-get install -y openssl"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(where / "arena.key"), "-out", str(where / "arena.crt"), "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True, timeout=60)


def recorded(db: Path) -> int:
    """Games in a league's results file so far (0 before it exists), read in
    this process: a test waiting for games asks this, not the CLI, whose
    start-up (about half a second of CPU) on every poll slowed the league
    it waited for when the machine was busy."""
    try:
        with ResultsStore.open_existing(db) as store:
            return store.count()
    except StoreError:
        return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(command: Command, cwd: Path, replace: dict[str, str] | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command.resolved(replace), capture_output=True, text=True, timeout=DEADLINE, cwd=cwd,
                          env={**os.environ, **command.environment(replace), **(env or {})})


def ran_well(done: subprocess.CompletedProcess[str], command: Command) -> str:
    """The command's stdout, once it has exited 0 without a traceback."""
    assert done.returncode == 0, f"{command.line}: exit {done.returncode}: {done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, f"{command.line}: {done.stderr[-2000:]}"
    return done.stdout


class Running:
    """A long-running command (``serve``, a tournament with its live page):
    started, watched on its stderr, stopped with a signal and a deadline."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        fd, name = tempfile.mkstemp(suffix=".err")  # outside cwd: a bot's folder may be in it
        self.log = Path(name)
        self._err = os.fdopen(fd, "w")
        self._said: str | None = None  # all of stderr, once it has exited
        self.process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=self._err, text=True,
                                        env={**os.environ, **(env or {})})

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        """A test that failed half-way leaves nothing running."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if not self._err.closed:
            self._err.close()
            self.log.unlink()

    def stderr(self) -> str:
        return self._said if self._said is not None else self.log.read_text()

    def wait_for(self, text: str, timeout: float = DEADLINE) -> str:
        """The stderr line holding ``text``, once it is there."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.stderr().splitlines():
                if text in line:
                    return line
            assert self.process.poll() is None, f"exited {self.process.returncode} before {text!r}: {self.stderr()}"
            time.sleep(0.1)
        raise AssertionError(f"no {text!r} within {timeout:g} s: {self.stderr()}")

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 60.0) -> tuple[int, str]:
        """Send ``sig``; the exit code and stdout once it has exited (killed
        past ``timeout``, which fails the caller's check)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            out, _ = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, _ = self.process.communicate()
            raise AssertionError(f"still running {timeout:g} s after {sig.name}: {self.stderr()}") from None
        finally:
            self._err.close()
            self._said = self.log.read_text()
            self.log.unlink()
        return self.process.returncode, out


def get(url: str) -> tuple[int, str]:
    """A page of a live page server. A 503 is asked again until DEADLINE: the
    server answers 503 when a front page takes over 10 s to make (a busy
    machine), and goes on making it for the next request."""
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            with urllib.request.urlopen(url, timeout=DEADLINE) as response:
                return int(response.status), response.read().decode()
        except urllib.error.HTTPError as exc:
            if exc.code != 503 or time.monotonic() > deadline:
                raise
        time.sleep(0.5)


def block_commands(doc: str, heading: str) -> list[Command]:
    (block,) = blocks(section((ROOT / doc).read_text(), heading), "sh")
    return commands(block)
