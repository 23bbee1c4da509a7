"""Settings that would run but make no sense are refused or warned about:
a move clock too short for any answer, and tokens sent in the clear on an
address other machines can reach."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games.settings import MIN_MOVE_SECONDS, ConfigError, clear_text_warning
from arena.league.config import parse_league_config
from arena.tournament.config import parse_config

sys.path.insert(0, str(Path(__file__).parents[1] / "league"))
from league_harness import CLI, League, env, wait_until  # noqa: E402

pytestmark = pytest.mark.integration

BOTS = [{"name": "a", "command": "python -m sample_bots.random_bot"},
        {"name": "b", "command": "python -m sample_bots.random_bot"}]


@pytest.mark.parametrize("seconds", [1e-9, 0.001, 0.0099])
def test_a_move_clock_below_the_minimum_is_refused(seconds: float) -> None:
    with pytest.raises(ConfigError, match=rf"^time_control.move_seconds: must be .* >= {MIN_MOVE_SECONDS:g} "):
        parse_config({"bots": BOTS, "time_control": {"move_seconds": seconds}})
    with pytest.raises(ConfigError, match=r"^time_control.move_seconds: "):
        parse_league_config({"time_control": {"move_seconds": seconds}})
    assert parse_config({"bots": BOTS, "time_control": {"move_seconds": MIN_MOVE_SECONDS}}).time_control.move_time \
        == MIN_MOVE_SECONDS


def test_a_move_clock_below_the_minimum_is_one_line_and_exit_2(tmp_path: Path) -> None:
    cfg = tmp_path / "t.toml"
    cfg.write_text('[time_control]\nmove_seconds = 1e-9\n[[bots]]\nname = "a"\ncommand = "python -m x"\n'
                   '[[bots]]\nname = "b"\ncommand = "python -m x"\n')
    proc = subprocess.run([*CLI, "tournament", "run", str(cfg)], capture_output=True, text=True, env=env(),
                          timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(f"error: {cfg}: time_control.move_seconds: must be")
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("address", "tls", "warned"), [
    ("0.0.0.0:0", False, True), ("[::]:50051", False, True), ("192.168.1.4:50051", False, True),
    ("arena.example.org:443", False, True), ("0.0.0.0:0", True, False), ("127.0.0.1:0", False, False),
    ("127.3.0.1:9", False, False), ("[::1]:0", False, False), ("localhost:50051", False, False),
])
def test_which_addresses_send_tokens_in_the_clear(address: str, tls: bool, warned: bool) -> None:
    assert (clear_text_warning(address, tls) is not None) == warned


def test_a_tournament_on_a_public_address_without_tls_warns(tmp_path: Path) -> None:
    cfg = tmp_path / "t.toml"
    cfg.write_text('address = "0.0.0.0:0"\ngames_per_pairing = 2\n[options]\ntarget = 6\n'
                   + "".join(f'[[bots]]\nname = "{b["name"]}"\ncommand = "{b["command"]}"\n' for b in BOTS))
    proc = subprocess.run([*CLI, "tournament", "run", str(cfg), "--workers", "1", "--no-progress", "--json"],
                          capture_output=True, text=True, env=env(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "warning: the arena listens on 0.0.0.0:0 without TLS: bots that connect send their tokens in the " \
           "clear" in proc.stderr


def test_a_league_on_a_public_address_without_tls_warns(tmp_path: Path) -> None:
    league = League(tmp_path)
    try:
        league.token("a")
        with open(league.log, "a") as log:
            league.proc = subprocess.Popen(
                [*CLI, "serve", "--tokens", str(league.tokens), "--db", str(league.db), "--config",
                 str(league.config), "--address", "0.0.0.0:0"],
                stdout=subprocess.DEVNULL, stderr=log, text=True, env=env())
        wait_until(lambda: "warning:" in league.log.read_text(), 30, "the warning")
        assert "warning: the arena listens on 0.0.0.0:0 without TLS" in league.log.read_text()
        assert league.stop(signal.SIGTERM) == 0
    finally:
        league.close()
