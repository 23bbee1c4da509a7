"""Bad input to ``serve`` and ``league status``: one line on stderr, the
documented exit code, and the files left as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from league_harness import League, run_cli

from arena.games.store import ResultsStore
from arena.server import mint_token

pytestmark = pytest.mark.integration


def one_line_error(result_stderr: str) -> bool:
    lines = result_stderr.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result_stderr


def tournament_db(path: Path) -> None:
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", {"name": "weekly"})


def test_a_config_typo_is_a_usage_error_naming_the_key(tmp_path: Path) -> None:
    mint_token(tmp_path / "t.txt", "a")
    (tmp_path / "l.toml").write_text("concurency = 2\n")
    result = run_cli("serve", "--tokens", str(tmp_path / "t.txt"), "--db", str(tmp_path / "l.sqlite"),
                     "--config", str(tmp_path / "l.toml"), "--address", "127.0.0.1:0")
    assert result.returncode == 2 and one_line_error(result.stderr) and "concurency" in result.stderr
    assert not (tmp_path / "l.sqlite").exists()


def test_serving_a_tournament_database_is_refused_and_leaves_it_alone(tmp_path: Path) -> None:
    mint_token(tmp_path / "t.txt", "a")
    tournament_db(tmp_path / "weekly.sqlite")
    result = run_cli("serve", "--tokens", str(tmp_path / "t.txt"), "--db", str(tmp_path / "weekly.sqlite"),
                     "--address", "127.0.0.1:0")
    assert result.returncode == 1 and one_line_error(result.stderr) and "not a league" in result.stderr
    with ResultsStore.open_existing(tmp_path / "weekly.sqlite") as store:
        assert store.get_meta("config") == {"name": "weekly"} and store.count() == 0

    status = run_cli("league", "status", str(tmp_path / "weekly.sqlite"))
    assert status.returncode == 1 and one_line_error(status.stderr)


def test_status_of_a_missing_file(tmp_path: Path) -> None:
    status = run_cli("league", "status", str(tmp_path / "none.sqlite"))
    assert status.returncode == 1 and one_line_error(status.stderr)


def test_one_league_per_database(tmp_path: Path) -> None:
    league = League(tmp_path)
    try:
        league.token("a")
        league.start()
        second = run_cli("serve", "--tokens", str(league.tokens), "--db", str(league.db),
                         "--config", str(league.config), "--address", "127.0.0.1:0")
        assert second.returncode == 1 and one_line_error(second.stderr) and "in use" in second.stderr
        assert league.stop() == 0
    finally:
        league.close()
