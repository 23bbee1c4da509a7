"""A token's lifecycle: ``token list`` shows the bots and owners of a token
file, ``token revoke`` removes a bot's tokens and a running league
disconnects that bot at once (it cannot come back), and ``serve`` on a
missing token file is an error, not a league nobody can join."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from league_harness import League, played, run_cli, wait_until

from arena.server import mint_token

pytestmark = pytest.mark.integration

BOUND = 60.0


def test_list_revoke_and_a_revoked_bot_is_disconnected_at_once(tmp_path: Path) -> None:
    league = League(tmp_path)
    try:
        tokens = {"a": mint_token(league.tokens, "a", "alice"), "b": league.token("b"), "c": league.token("c")}
        listing = run_cli("token", "list", "--tokens", str(league.tokens))
        assert listing.returncode == 0, listing.stderr
        lines = listing.stdout.splitlines()
        assert lines[0].split() == ["bot", "owner", "token", "hash"]
        assert [line.split()[:2] for line in lines[1:]] == [["a", "alice"], ["b", "b"], ["c", "c"]]
        assert not any(t in listing.stdout for t in tokens.values())
        league.start()
        bots = {name: league.bot(name, token) for name, token in tokens.items()}
        wait_until(lambda: played(league.rows(), "b", "c") >= 1 and played(league.rows(), "a", "b") >= 1,
                   BOUND, "games among the three")
        revoked = run_cli("token", "revoke", "c", "--tokens", str(league.tokens))
        assert revoked.returncode == 0, revoked.stderr
        start = time.monotonic()
        assert bots["c"].wait(10) == 2  # told why, and a refusal is final
        assert time.monotonic() - start < 5
        assert "your token was revoked" in next(tmp_path.glob("c-*.log")).read_text()
        games_of_c = sum(1 for r in league.rows() if "c" in (r.bot0, r.bot1))
        before = played(league.rows(), "a", "b")
        wait_until(lambda: played(league.rows(), "a", "b") > before + 2, BOUND, "a and b to go on")
        assert sum(1 for r in league.rows() if "c" in (r.bot0, r.bot1)) <= games_of_c + 1  # its last game, at most
        # An arena that no longer knows c's token cannot sign the refusal: the
        # bot retries it for --retry-for seconds (a squatter could have said it).
        again = league.bot("c", tokens["c"], "--retry-for", "2")
        assert again.wait(30) == 2
        assert any("no token is issued for bot 'c'" in p.read_text() for p in tmp_path.glob("c-*.log"))
        assert run_cli("token", "revoke", "c", "--tokens", str(league.tokens)).returncode == 1  # nothing left
        assert league.stop() == 0
        listed = run_cli("token", "list", "--tokens", str(league.tokens)).stdout
        assert [line.split()[0] for line in listed.splitlines()[1:]] == ["a", "b"]
    finally:
        league.close()


def test_serve_on_a_missing_token_file_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    out = run_cli("serve", "--tokens", str(missing), "--db", str(tmp_path / "l.sqlite"), "--address", "127.0.0.1:0")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "no such file" in out.stderr and "token mint" in out.stderr
    assert not (tmp_path / "l.sqlite").exists()
    listing = run_cli("token", "list", "--tokens", str(missing))
    assert listing.returncode == 2 and "no such token file" in listing.stderr
