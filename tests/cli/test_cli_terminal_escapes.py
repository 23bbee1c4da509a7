"""A bot's bytes never reach the organizer's terminal raw. A launched bot
writes terminal escapes to its log (clear screen, a red "OFFICIAL RESULT",
a window title, an OSC 52 clipboard write, a CSI in its 8-bit form, a
right-to-left override) and dies, before its Hello or in every game; the CLI,
run on a pseudo-terminal as an organizer runs it, quotes that log line, and
everything that arrives on the terminal is printable."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli.formatting import TerminalGuard, printable

REPO = Path(__file__).resolve().parents[2]
BOT = Path(__file__).with_name("escaper") / "escape_bot.py"
RANDOM = "python -m sample_bots.random_bot"


def on_a_terminal(*args: str, timeout: float = 180) -> tuple[int, str]:
    """Run ``truco-arena ARGS`` with stdout and stderr on a pseudo-terminal;
    return its exit code and everything the terminal received."""
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(REPO), TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-c", "from arena.cli import main; main()", *args],
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=REPO)
    os.close(slave)
    out = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        code = proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return code, out.decode("utf-8", errors="replace").replace("\r\n", "\n")


def assert_printable(text: str) -> None:
    bad = sorted({c for c in text if not (c.isprintable() or c in "\n\t")})
    assert not bad, f"raw control characters on the terminal: {bad!r}\n{text!r}"


def config(tmp_path: Path, mode: str, *, games: int, more: tuple[str, ...] = ()) -> Path:
    bot_dir = tmp_path / "escaper"
    bot_dir.mkdir()
    shutil.copy(BOT, bot_dir / BOT.name)
    lines = ['variant = "argentino"', f"games_per_pairing = {games}", "seed = 1", "absent_wait_seconds = 20",
             "start_seconds = 10",
             "[[bots]]", 'name = "escaper"', f'command = "python {BOT.name} {mode}"', 'dir = "escaper"',
             "[[bots]]", 'name = "steady"', f'command = "{RANDOM}"', *more]
    path = tmp_path / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_helper_escapes_every_control_and_lets_the_progress_line_redraw() -> None:
    assert printable("a\x1b[2Jb\x07\x9b\u202e\r\x00é ok\n") == "a\\x1b[2Jb\\x07\\x9b\\u202e\\r\\x00é ok\n"

    class Sink:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

    sink = Sink()
    guard = TerminalGuard(sink)  # type: ignore[arg-type]
    guard.write("\r12/40 games\x1b[K")  # the CLI's own redraw
    guard.write("bot says \x1b]52;c;ZXZpbA==\x07\r\n")
    assert sink.text == "\r12/40 games\x1b[Kbot says \\x1b]52;c;ZXZpbA==\\x07\\r\n"


@pytest.mark.integration
def test_a_log_line_of_escapes_is_quoted_printable_when_the_bot_never_says_hello(tmp_path: Path) -> None:
    code, out = on_a_terminal("tournament", "run", str(config(tmp_path, "start", games=2)), "--workers", "1",
                             "--no-progress")
    assert code == 1, out
    assert "OFFICIAL RESULT" in out and "\\x1b[2J" in out and "\\x1b]52;c;" in out, out  # quoted, escaped
    assert_printable(out)


@pytest.mark.integration
@pytest.mark.slow
def test_a_bot_that_dies_with_escapes_in_every_game_leaves_the_terminal_printable(tmp_path: Path) -> None:
    path = config(tmp_path, "crash", games=6, more=("[[bots]]", 'name = "other"', f'command = "{RANDOM}"'))
    for workers in ("1", "2"):  # in this process, and in worker processes that share the terminal
        db = tmp_path / f"w{workers}.sqlite"
        code, out = on_a_terminal("tournament", "run", str(path), "--db", str(db), "--workers", workers,
                                 "--no-progress")
        assert code == 0, out
        assert "crashed 4 times" in out and "OFFICIAL RESULT" in out, out
        assert_printable(out)
        code, out = on_a_terminal("games", str(db))
        assert code == 0 and "OFFICIAL RESULT" in out, out
        assert_printable(out)
