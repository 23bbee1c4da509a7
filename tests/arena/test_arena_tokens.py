"""The operator's token file: format, minting, reloading, errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from arena.server import TokenFileError, TokenStore, load_tokens, mint_token


def test_mint_creates_a_private_file_and_replaces_old_tokens(tmp_path: Path) -> None:
    path = tmp_path / "tokens.txt"
    first = mint_token(path, "alice")
    bob = mint_token(path, "bob")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_tokens(path) == {first: "alice", bob: "bob"}
    second = mint_token(path, "alice")  # rotation
    assert second != first
    assert load_tokens(path) == {second: "alice", bob: "bob"}
    assert path.read_text().startswith("#")


def test_store_reads_changes_to_the_file(tmp_path: Path) -> None:
    path = tmp_path / "tokens.txt"
    store = TokenStore(path)
    assert store.name_for("anything") is None
    token = mint_token(path, "late-bot")
    assert store.name_for(token) == "late-bot"
    memory = store.add("in-memory")
    assert store.name_for(memory) == "in-memory"
    assert store.name_for("") is None


def test_hand_written_file_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("# comment\n\n  heuristic   abc123  \nrandom xyz\nrandom second-token\n")
    assert load_tokens(path) == {"abc123": "heuristic", "xyz": "random", "second-token": "random"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("alice\n", "t.txt:1: expected 'NAME TOKEN', got 1 fields"),
        ("alice tok extra\n", "t.txt:1: expected 'NAME TOKEN', got 3 fields"),
        ("ok a\n-bad b\n", "t.txt:2: bad bot name '-bad'"),
        ("alice same\nbob same\n", "t.txt:2: this token already belongs to 'alice'"),
    ],
)
def test_malformed_files_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.txt"
    path.write_text(text)
    with pytest.raises(TokenFileError) as err:
        TokenStore(path)
    assert str(err.value).startswith(str(tmp_path / message.split(":")[0]) + ":" + message.split(":", 1)[1])


def test_bad_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bad bot name"):
        mint_token(tmp_path / "t.txt", "has space")
    with pytest.raises(ValueError, match="bad bot name"):
        TokenStore().add("")
