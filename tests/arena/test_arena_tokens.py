"""The operator's token file: hashes only, minting, reloading, the old
plain-text format, errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.server import TokenFileError, TokenStore, load_tokens, mint_token
from arena.server.tokens import token_hash, token_verifier


def test_mint_creates_a_private_file_that_keeps_only_verifiers(tmp_path: Path) -> None:
    path = tmp_path / "tokens.txt"
    first = mint_token(path, "alice")
    bob = mint_token(path, "bob")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_tokens(path) == {token_verifier(first): "alice", token_verifier(bob): "bob"}
    text = path.read_text()
    assert first not in text and bob not in text
    assert f"alice {token_verifier(first)}" in text.splitlines()
    second = mint_token(path, "alice")  # rotation
    assert second != first
    assert load_tokens(path) == {token_verifier(second): "alice", token_verifier(bob): "bob"}
    assert path.read_text().startswith("#")


def test_hash_is_sha256_hex() -> None:
    digest = token_hash("abc")
    assert digest == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_store_admits_by_token_and_not_by_hash(tmp_path: Path) -> None:
    path = tmp_path / "tokens.txt"
    store = TokenStore(path)
    assert store.name_for("anything") is None
    token = mint_token(path, "late-bot")
    assert store.name_for(token) == "late-bot"
    assert store.name_for(token_hash(token)) is None  # the file's content is no key
    assert store.name_for(token_verifier(token)) is None
    assert store.name_for(token[:-1]) is None
    memory = store.add("in-memory")
    assert store.name_for(memory) == "in-memory"
    assert store.name_for("") is None


def test_cli_mint_prints_the_token_once_and_stores_its_hash(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tokens.txt"
    result = CliRunner().invoke(main, ["token", "mint", "cli-bot", "--tokens", str(path)])
    assert result.exit_code == 0, result.output
    token = result.stdout.strip()
    assert len(token) == 32
    assert TokenStore(path).name_for(token) == "cli-bot"
    assert token not in path.read_text()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_hand_written_file_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    a, b, c = token_hash("abc123"), token_hash("xyz"), token_hash("second")
    path.write_text(f"# comment\n\n  heuristic   {a}  \nrandom {b}\nrandom {c}\n")
    assert load_tokens(path) == {a: "heuristic", b: "random", c: "random"}


def test_old_plain_text_file_is_refused_with_how_to_re_mint(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_text(f"# old\nfresh {token_hash('t1')}\nveteran 3q2bXy0abc\n")
    with pytest.raises(TokenFileError) as err:
        TokenStore(path)
    assert str(err.value) == (
        f"{path}:3: the token of 'veteran' is stored in plain text (an old token file); "
        f"re-mint it with `truco-arena token mint veteran --tokens {path}` and give the bot its new token"
    )
    # Following the advice fixes the file, and keeps the other bot's token.
    token = mint_token(path, "veteran")
    store = TokenStore(path)
    assert store.name_for(token) == "veteran" and store.name_for("t1") == "fresh"
    assert store.name_for("3q2bXy0abc") is None


def test_serve_refuses_an_old_file_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_text("veteran 3q2bXy0abc\n")
    result = CliRunner().invoke(main, ["serve", "--address", "127.0.0.1:0", "--tokens", str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "truco-arena token mint veteran" in result.stderr


def test_a_file_broken_while_running_keeps_the_tokens_read_before(tmp_path: Path) -> None:
    path = tmp_path / "tokens.txt"
    token = mint_token(path, "steady")
    store = TokenStore(path)
    path.write_text("steady\n")  # a half-edited file
    assert store.name_for(token) == "steady"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("alice\n", "t.txt:1: expected 'NAME scram:VERIFIER [owner=OWNER]', got 1 fields"),
        ("alice tok extra more\n", "t.txt:1: expected 'NAME scram:VERIFIER [owner=OWNER]', got 4 fields"),
        (f"ok {token_hash('a')}\n-bad {token_hash('b')}\n", "t.txt:2: bad bot name '-bad'"),
        (f"alice {token_hash('s')}\nbob {token_hash('s')}\n", "t.txt:2: this token already belongs to 'alice'"),
        ("alice sha256:abc\n", "t.txt:1: malformed hash"),
        ("alice plain\n", "t.txt:1: the token of 'alice' is stored in plain text"),
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
