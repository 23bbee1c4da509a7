"""Leagues end to end: a real ``truco-arena serve`` process, real sample-bot
processes joining and leaving, the real SQLite file."""

from __future__ import annotations

import json
import signal
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from league_harness import FAST_CONFIG, League, free_port, played, run_cli, wait_until

from arena.league.database import STATUS_META
from arena.league.status import LeagueStatus

pytestmark = pytest.mark.integration

BOUND = 60.0  # seconds: generous, for a loaded machine; the league usually needs well under one


@pytest.fixture
def league(tmp_path: Path) -> Iterator[League]:
    lg = League(tmp_path)
    try:
        yield lg
    finally:
        lg.close()


def test_bots_joining_at_different_times_all_meet_and_views_work_meanwhile(league: League) -> None:
    tokens = {n: league.token(n) for n in ("a", "b", "c")}
    league.start()
    league.bot("a", tokens["a"])
    league.bot("b", tokens["b"])
    wait_until(lambda: played(league.rows(), "a", "b") >= 1, BOUND, "a and b to play")
    league.bot("c", tokens["c"])  # late: it gets games within seconds
    wait_until(lambda: all(played(league.rows(), x, "c") >= 1 for x in ("a", "b")), BOUND, "c to meet a and b")

    # The views work on the league's file while it runs.
    standings = run_cli("standings", str(league.db), "--view", "standings", "--view", "ladder", "--json")
    assert standings.returncode == 0, standings.stderr
    tables = json.loads(standings.stdout)
    assert {r["bot"] for r in tables["standings"]["rows"]} == {"a", "b", "c"}
    assert all(r["points"] >= 0 for r in tables["ladder"]["rows"])
    wait_until(lambda: "c" in run_cli("league", "status", str(league.db)).stdout, BOUND, "the status to list c")
    status = run_cli("league", "status", str(league.db), "--json")
    assert status.returncode == 0, status.stderr
    bots = {r["bot"]: r for r in json.loads(status.stdout)["bots"]["rows"]}
    assert set(bots) == {"a", "b", "c"}
    assert all(r["connected"] == "yes" and r["streams"] == 1 and r["version"] == "1.0.0" for r in bots.values())

    assert league.stop() == 0  # SIGTERM: a clean exit
    rows = league.rows()
    assert league.meta("config")["kind"] == "league"  # type: ignore[index]
    assert all(r.version0 == r.version1 == "1.0.0" for r in rows)
    assert all(r.pair_index == -1 for r in rows)  # independent pairing by default
    assert len({r.seed for r in rows}) == len(rows)  # a fresh deal per game
    assert "league: stopped" in run_cli("league", "status", str(league.db)).stdout


# Random bots answer at once, so a long clock costs nothing, and c's stall below
# outlasts any delay in seeing it in a game (the status record is up to a second
# old, and a loaded machine adds more): with FAST_CONFIG's 4 s, c could run out
# of time before the kill and lose twice.
PATIENT_CONFIG = FAST_CONFIG.replace("move_seconds = 2.0", "move_seconds = 60.0")


def test_a_bot_killed_mid_game_loses_by_disconnect_and_plays_again_when_back(tmp_path: Path) -> None:
    league = League(tmp_path, PATIENT_CONFIG)
    try:
        _killed_mid_game(league)
    finally:
        league.close()


def _killed_mid_game(league: League) -> None:
    tokens = {n: league.token(n) for n in ("a", "b", "c")}
    league.start()
    league.bot("a", tokens["a"])
    league.bot("b", tokens["b"])
    # c stalls at its first decision (for the whole move time and bank), so it is surely in a game when killed.
    c = league.bot("c", tokens["c"], "--mode", "sleep", "--at", "1", module="sample_bots.misbehaving")

    def c_playing() -> bool:  # the record `league status` shows, read in this process
        record = league.meta(STATUS_META) if league.db.exists() else None
        return record is not None and any("c" in (g.bot0, g.bot1) for g in LeagueStatus.from_json(record).games)

    wait_until(c_playing, BOUND, "c to be in a game")
    c.kill()
    c.wait(10)
    wait_until(lambda: any(r.faulty_bot == "c" for r in league.rows()), BOUND, "c's game to be recorded")
    lost = [r for r in league.rows() if r.faulty_bot == "c"]
    assert len(lost) == 1
    assert lost[0].termination == "disconnect" and lost[0].winner in ("a", "b")
    before = played(league.rows(), "a", "b")
    wait_until(lambda: played(league.rows(), "a", "b") > before + 2, BOUND, "a and b to go on")
    games_of_c = sum(1 for r in league.rows() if "c" in (r.bot0, r.bot1))

    league.bot("c", tokens["c"])  # back, well-behaved now
    wait_until(lambda: sum(1 for r in league.rows() if "c" in (r.bot0, r.bot1)) > games_of_c + 1, BOUND,
               "c to play again")
    assert league.stop() == 0
    assert Counter(r.faulty_bot for r in league.rows())["c"] == 1


def test_a_league_killed_with_sigkill_continues_on_restart(tmp_path: Path) -> None:
    config = 'pairing = "duplicate"\nconcurrency = 4\n' + FAST_CONFIG
    league = League(tmp_path, config, port=free_port())
    try:
        tokens = {n: league.token(n) for n in ("a", "b", "c")}
        league.start()
        for name, token in tokens.items():
            league.bot(name, token, "--retry-for", "60", streams=2)
        wait_until(lambda: len(league.rows()) >= 12, BOUND, "a dozen games")
        secret = league.meta("secret")
        assert league.stop(signal.SIGKILL) == -signal.SIGKILL
        before = {r.game_key: r for r in league.rows()}

        league.start()  # same file, same port: the bots reconnect by themselves
        wait_until(lambda: len(league.rows()) >= len(before) + 12, BOUND, "more games after the restart")
        assert league.stop() == 0
        after = {r.game_key: r for r in league.rows()}
        assert all(after[k] == row for k, row in before.items())  # nothing recorded is lost or changed
        assert league.meta("secret") == secret
        # Pairs the SIGTERM cut are interrupted whole: both halves, neither among the games.
        cut = league.interrupted()
        assert not set(cut) & set(after)
        assert {k[:-1] for k in cut if k.endswith("a")} == {k[:-1] for k in cut if k.endswith("b")}
        halves = Counter(r.pair_id for r in after.values())
        assert set(halves.values()) == {2}  # every duplicate pair whole: never half-counted
        for pair_id in halves:
            first, second = sorted((r for r in after.values() if r.pair_id == pair_id), key=lambda r: r.seq)
            assert (first.bot0, first.bot1, first.seed) == (second.bot1, second.bot0, second.seed)
        pairs = run_cli("standings", str(league.db), "--view", "pairs", "--json")
        assert pairs.returncode == 0, pairs.stderr
        assert all(r["incomplete"] == 0 for r in json.loads(pairs.stdout)["pairs"]["rows"])
    finally:
        league.close()


def test_a_four_seat_league_game_gives_each_team_to_one_bot(tmp_path: Path) -> None:
    league = League(tmp_path, "[options]\nseats = 4\ntarget = 6\n")
    try:
        tokens = {n: league.token(n) for n in ("a", "b")}
        league.start()
        for name, token in tokens.items():
            league.bot(name, token, streams=2)

        def seats_that_acted() -> set[str]:
            return {action.split()[0] for row in league.rows() for action in row.actions}

        # A short game may end before every seat acts; over a few games all four do.
        wait_until(lambda: seats_that_acted() == {"0", "1", "2", "3"}, BOUND, "all four seats to act")
        assert league.stop() == 0
        for row in league.rows():
            assert {row.bot0, row.bot1} == {"a", "b"} and row.termination == "target_reached"
            # Seats 0 and 2 are team 0, one bot: the actions of a seat are its team's bot's.
            assert {int(a.split()[0]) for a in row.actions} <= {0, 1, 2, 3}
        assert league.meta("config")["options"]["seats"] == 4  # type: ignore[index]
    finally:
        league.close()


def test_a_sigterm_as_soon_as_the_league_listens_stops_it_cleanly(tmp_path: Path) -> None:
    """The signal handlers go in before the "listening" line: a service
    manager or a script that stops the league the moment it is up gets a
    clean exit (0), never the default action of SIGTERM (-15). Three starts,
    each stopped at once."""
    league = League(tmp_path)
    try:
        for _ in range(3):
            league.start()
            assert league.stop(signal.SIGTERM) == 0, league.log.read_text()
    finally:
        league.close()
