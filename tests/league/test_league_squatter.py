"""Nothing but the proven arena sends a bot away. A squatter answers every
stream with a goodbye (a SHUTDOWN at once or after the Proof, a refusal, a
SHUTDOWN with a forged signature): on ``[::1]`` while the league listens on
``127.0.0.1`` and the bots were told ``localhost``, and on the league's own
port after a kill -9. The same SDK bot processes play again within 10 s of
the real league being up."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from league_harness import REPO, League, env, free_port, wait_until

pytestmark = pytest.mark.integration

BOUND = 60.0
BACK_WITHIN = 10.0
SQUATTER = Path(__file__).with_name("squatter.py")


class Squatter:
    def __init__(self, host: str, port: int, log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen([sys.executable, str(SQUATTER), host, str(port)], stdout=open(log, "w"),
                                     stderr=subprocess.STDOUT, env=env(), cwd=REPO)
        wait_until(lambda: "listening" in log.read_text() or self.proc.poll() is not None, 30, "the squatter")
        assert self.proc.poll() is None, log.read_text()

    def streams(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if line != "listening"]

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


def more_games(league: League, than: int) -> bool:
    return len(league.rows()) > than


def test_a_squatter_on_the_other_loopback_holds_no_bot(tmp_path: Path) -> None:
    league = League(tmp_path, port=free_port())
    squatter = Squatter("::1", league.port, tmp_path / "squatter.log")
    try:
        tokens = {n: league.token(n) for n in ("a", "b")}
        league.start()
        up = time.monotonic()
        bots = [league.bot(name, token, host="localhost") for name, token in tokens.items()]
        wait_until(lambda: len(league.rows()) >= 2, BOUND, "games with the bots told localhost")
        took = time.monotonic() - up
        seen = squatter.streams()
        assert {line.split()[1] for line in seen} == {"a", "b"}, seen  # the squatter was dialled, and said goodbye
        assert all(b.poll() is None for b in bots)
        assert took < BACK_WITHIN, f"the bots played only {took:.1f} s after the league was up"
    finally:
        squatter.stop()
        league.close()


def test_a_squatter_on_the_port_after_a_crash_sends_no_bot_away(tmp_path: Path) -> None:
    league = League(tmp_path, port=free_port())
    squatter: Squatter | None = None
    try:
        tokens = {n: league.token(n) for n in ("a", "b")}
        league.start()
        bots = [league.bot(name, token, host="localhost") for name, token in tokens.items()]
        wait_until(lambda: len(league.rows()) >= 2, BOUND, "the first games")
        league.stop(signal.SIGKILL)
        squatter = Squatter("127.0.0.1", league.port, tmp_path / "squatter.log")
        wait_until(lambda: len(squatter.streams()) >= 8, BOUND, "the bots to dial the squatter")  # every way, twice
        time.sleep(1.0)
        assert {line.split()[1] for line in squatter.streams()} == {"a", "b"}
        assert all(b.poll() is None for b in bots), "a bot obeyed the squatter's goodbye"
        squatter.stop()
        before = len(league.rows())
        league.start()  # same port, same database
        back = time.monotonic()
        wait_until(partial(more_games, league, before), BOUND, "a game after the real league is back")
        took = time.monotonic() - back
        assert took < BACK_WITHIN, f"the bots played again only {took:.1f} s after the league was back"
        logs = "".join(p.read_text() for p in tmp_path.glob("[ab]-*.log"))
        assert "without the arena's signature" in logs and "Traceback" not in logs
    finally:
        if squatter is not None:
            squatter.stop()
        league.close()
