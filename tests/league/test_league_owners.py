"""Owners: two bots minted for one owner never meet in a league, so a second
entrant that folds every game cannot feed the first; the standings show
each bot's owner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from league_harness import League, played, run_cli, wait_until

from arena.server import mint_token

pytestmark = pytest.mark.integration

BOUND = 120.0
FOLDER_GAMES = 12


def test_a_folding_second_entrant_gains_its_first_nothing(tmp_path: Path) -> None:
    league = League(tmp_path)
    try:
        tokens = {"first": mint_token(league.tokens, "first", "alice"),
                  "folder": mint_token(league.tokens, "folder", "alice"),
                  "other": mint_token(league.tokens, "other")}
        league.start()
        league.bot("first", tokens["first"])
        league.bot("folder", tokens["folder"], module="tests.league.folding_bot")
        league.bot("other", tokens["other"])
        # A random bot beats the folder in 89% of games to 6 (engine-only, 4,000 games): the
        # majority below fails one run in 45 over 6 games, about one in a thousand over 12.
        wait_until(lambda: played(league.rows(), "folder", "other") >= FOLDER_GAMES
                   and played(league.rows(), "first", "other") >= 5,
                   BOUND, "each of alice's bots to play the other owner's")
        assert league.stop() == 0
        rows = league.rows()
        assert played(rows, "first", "folder") == 0  # one owner: never paired
        # The folder hands its games to whoever it meets: only ever the other owner's bot.
        assert all({r.bot0, r.bot1} == {"folder", "other"} for r in rows if "folder" in (r.bot0, r.bot1))
        folded = [r for r in rows if "folder" in (r.bot0, r.bot1)]
        assert sum(r.winner == "other" for r in folded) > len(folded) / 2
        out = run_cli("standings", str(league.db), "--json")
        assert out.returncode == 0, out.stderr
        standings = {r["bot"]: r for r in json.loads(out.stdout)["standings"]["rows"]}
        assert {b: r["owner"] for b, r in standings.items()} == {"first": "alice", "folder": "alice", "other": "other"}
        listing = run_cli("token", "mint", "x", "--tokens", str(league.tokens), "--owner", "bad owner!")
        assert listing.returncode == 2 and "bad owner" in listing.stderr and "Traceback" not in listing.stderr
    finally:
        league.close()
