"""The standings show each bot's latest recorded version when the results
hold versions (a league records them), and no version column otherwise."""

from __future__ import annotations

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord, checked
from arena.results.tables import bot_versions, standings_table


def _row(seq: int, winner: str, v0: str = "", v1: str = "") -> GameRecord:
    return GameRecord(
        game_key=f"g{seq}", seq=seq, matchup="alice|bob", pair_index=-1, bot0="alice", bot1="bob",
        seed=seq, score0=15 if winner == "alice" else 3, score1=15 if winner == "bob" else 3, winner=winner,
        winner_seat=0 if winner == "alice" else 1, termination=Termination.TARGET_REACHED, faulty_bot=None, hands=5,
        duration=1.0, actions=(), version0=v0, version1=v1,
    )


def test_latest_version_per_bot_in_the_standings() -> None:
    rows = [_row(0, "alice", "1.0", "0.9"), _row(1, "bob", "1.1", "0.9"), _row(2, "alice", "", "")]
    assert bot_versions(rows) == {"alice": "1.1", "bob": "0.9"}
    table = standings_table(checked(rows), versions=bot_versions(rows))
    assert table.headers[:3] == ("rank", "bot", "version")
    assert {d["bot"]: d["version"] for d in table.as_dicts()} == {"alice": "1.1", "bob": "0.9"}


def test_no_version_column_without_versions() -> None:
    rows = [_row(0, "alice"), _row(1, "bob")]
    assert bot_versions(rows) == {}
    assert "version" not in standings_table(checked(rows), versions=bot_versions(rows)).headers
