"""Every ``truco-arena`` command on bad input: one ``error:`` line on stderr,
exit 1 or 2, never a traceback, and every file it was given left byte for byte."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore

RANDOM = f"{sys.executable} -m sample_bots.random_bot"
CONFIG = {
    "name": "t", "variant": "argentino", "games_per_pairing": 2, "seed": 1,
    "bots": [{"name": "a", "command": RANDOM}, {"name": "b", "command": RANDOM}],
}


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every command that ``truco-arena --help`` (and its groups' --help) lists."""
    found: set[tuple[str, ...]] = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found |= _commands(command, (*prefix, name))
        else:
            found.add((*prefix, name))
    return found


@dataclass(frozen=True)
class Files:
    missing: Path
    directory: Path
    missing_dir: Path  # a file in a directory that does not exist
    text: Path  # not SQLite at all
    foreign: Path  # another program's SQLite database
    empty: Path
    newer: Path  # a results database from a newer schema version
    results: Path  # a good results database with two games
    config: Path  # a good tournament config
    bad_toml: Path
    bad_utf8: Path
    deep_toml: Path
    huge_int_toml: Path
    typo_toml: Path
    tokens: Path  # a good token file
    bad_tokens: Path
    # Results databases edited by hand into nonsense, with the commands that must refuse each.
    edited: tuple[tuple[Path, tuple[str, ...]], ...]


def _files(tmp: Path) -> Files:
    (tmp / "dir").mkdir()
    text = tmp / "notes.txt"
    text.write_text("this is not a database\n" * 200)
    foreign = tmp / "theirs.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO users (name) VALUES ('ana')")
    db.close()
    empty = tmp / "empty.sqlite"
    empty.touch()
    results = tmp / "results.sqlite"
    with ResultsStore.create_or_open(results) as store:
        store.set_meta("config", CONFIG)
        for seq, (bot0, bot1) in enumerate((("a", "b"), ("b", "a"))):
            store.record(GameRecord(game_key=f"a|b:0:{seq}", seq=seq, matchup="a|b", pair_index=0, bot0=bot0, bot1=bot1, seed=7, score0=30, score1=10, winner="a", winner_seat=seq,
                                 termination=Termination.TARGET_REACHED, faulty_bot=None, hands=5, duration=1.0, actions=("0 mazo",), reason="reached 30"))
    newer = tmp / "newer.sqlite"
    newer.write_bytes(results.read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 99")
    db.close()
    config = tmp / "good.toml"
    config.write_text("\n".join([
        'name = "t"', 'variant = "argentino"', "games_per_pairing = 2", "seed = 1",
        "[[bots]]", 'name = "a"', f'command = "{RANDOM}"', "[[bots]]", 'name = "b"', f'command = "{RANDOM}"',
    ]) + "\n")
    bad_toml = tmp / "bad.toml"
    bad_toml.write_text("variant = \n[[bots\n")
    bad_utf8 = tmp / "latin1.toml"
    bad_utf8.write_bytes('name = "señal"\n'.encode("latin-1"))
    deep_toml = tmp / "deep.toml"
    deep_toml.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    huge_int_toml = tmp / "huge.toml"
    huge_int_toml.write_text("seed = " + "9" * 5000 + "\n")
    typo_toml = tmp / "typo.toml"
    typo_toml.write_text(config.read_text().replace("games_per_pairing", "games_per_pairng"))
    tokens = tmp / "tokens.txt"
    tokens.write_text("a 0123456789abcdef0123456789abcdef\n")
    bad_tokens = tmp / "bad-tokens.txt"
    bad_tokens.write_bytes(b"\xff\xfe not a token file \x00\n")
    edited = []
    views, status, compare = "standings", "status", "compare"
    for name, sql, refused_by in [
        ("config-a-list", "UPDATE meta SET value = '[1, 2]' WHERE key = 'config'", (views, status, compare)),
        ("config-not-json", "UPDATE meta SET value = '{oops' WHERE key = 'config'", (views, status, compare)),
        ("config-bad-value", "UPDATE meta SET value = '{\"bots\": 5}' WHERE key = 'config'", (status,)),
        ("winner-a-stranger", "UPDATE games SET winner = 'zed' WHERE seq = 0", (views, compare)),
        ("unknown-termination", "UPDATE games SET termination = 'boredom' WHERE seq = 0", (views, compare)),
        ("actions-not-json", "UPDATE games SET actions = '[[[' WHERE seq = 0", (views, status, compare)),
        ("pair-not-swapped", "UPDATE games SET bot0 = 'a', bot1 = 'b'", (views,)),
    ]:
        path = tmp / f"{name}.sqlite"
        path.write_bytes(results.read_bytes())
        with sqlite3.connect(path) as db:
            db.execute(sql)
        db.close()
        edited.append((path, refused_by))
    corrupt = tmp / "corrupt.sqlite"  # its schema page intact, every later page garbage
    good = results.read_bytes()
    corrupt.write_bytes(good[:4096] + b"\xff" * (len(good) - 4096))
    edited.append((corrupt, (views, status, compare)))
    return Files(tmp / "none.sqlite", tmp / "dir", tmp / "no" / "such" / "x.sqlite", text, foreign, empty,
                 newer, results, config, bad_toml, bad_utf8, deep_toml, huge_int_toml, typo_toml, tokens,
                 bad_tokens, tuple(edited))


def _scenarios(tmp: Path) -> list[Path]:
    good = json.loads((Path(__file__).parents[1] / "scenarios" /
                       "s4_1_truco_accepted_2__argentino.json").read_text())
    contents = {
        "arabic_seat": json.dumps({**good, "actions": ["٣ play 1E"]}),
        "superscript_seat": json.dumps({**good, "actions": ["² play 1E"]}),
        "long_seat": json.dumps({**good, "actions": ["1" * 5000 + " play 1E"]}),
        "deep": '{"variant": "argentino", "deals": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "huge_int": '{"variant": "argentino", "mano": ' + "7" * 5000 + "}",
        "not_json": "{variant: argentino",
        "not_object": "[1, 2, 3]",
        "nan": '{"variant": "argentino", "scores": [NaN, Infinity]}',
    }
    paths = []
    for name, text in contents.items():
        path = tmp / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    latin1 = tmp / "latin1.json"
    latin1.write_bytes('{"variant": "señal"}'.encode("latin-1"))
    return [*paths, latin1]


def _cases(f: Files, scenarios: list[Path]) -> list[list[str]]:
    databases = [f.missing, f.directory, f.text, f.foreign, f.empty, f.newer]
    cases: list[list[str]] = []
    for db in databases:
        cases += [
            ["standings", str(db)],
            ["tournament", "status", str(db)],
            ["tournament", "resume", str(db), "--no-progress"],
            ["compare", str(db), str(f.results)],
            ["compare", str(f.results), str(db)],
            ["games", str(db)],
            ["replay", str(db), "x"],
            ["report", str(db), "-o", str(f.directory / "report")],
        ]
    for db, refused_by in f.edited:
        cases += [args for command, args in [
            ("standings", ["standings", str(db), "--view", "all"]),
            ("status", ["tournament", "status", str(db)]),
            ("compare", ["compare", str(db), str(f.results)]),
        ] if command in refused_by]
    for db in [f.missing_dir, f.directory, f.text, f.foreign, f.newer, f.results]:
        cases.append(["tournament", "run", str(f.config), "--db", str(db), "--no-progress"])
    for db in [f.missing_dir, f.directory, f.text, f.foreign, f.newer]:
        cases.append(["demo", "--db", str(db), "--no-progress"])
    for db in [f.missing_dir, f.directory, f.text, f.foreign, f.newer, f.results]:
        cases.append(["match", "random", "random", "--games", "2", "--db", str(db)])
    cases += [
        ["match", "random", "random"],
        ["match", "random", "random", "--games", "3"],
        ["match", "random", "random", "--sprt", "5", "0"],
        ["match", "random", "python 'unclosed", "--games", "2"],
        ["match", "random", "no-such-bot-program", "--games", "2"],
    ]
    for config in [f.missing, f.directory, f.text, f.bad_toml, f.bad_utf8, f.deep_toml, f.huge_int_toml,
                   f.typo_toml]:
        cases.append(["tournament", "run", str(config), "--db", str(f.directory / "new.sqlite")])
    cases += [
        ["standings", str(f.results), "--anchor", "nobody"],
        ["standings", str(f.results), "--bootstrap", "-1"],
        ["standings", str(f.results), "--view", "nope"],
        ["standings", str(f.results), "--json", "--csv"],
        ["standings", str(f.results), "--format", "nope"],
        ["standings"],
        ["compare", str(f.results)],
        ["tournament", "status", str(f.results), "--format", "html"],
        ["tournament", "run", str(f.config), "--concurrency", "0"],
        ["tournament", "run", str(f.config), "--seed", "many"],
        ["demo", "--games", "1"],
        ["demo", "--variant", "chinchon"],
        ["demo", "--concurrency", "0"],
        ["demo", "--seed", "x"],
        ["ladder"],
        ["ladder", "--games", "3", "--", "python", "bot.py"],
        ["ladder", "--variant", "chinchon", "--", "python", "bot.py"],
        ["serve", "--tokens", str(f.directory)],
        ["serve", "--tokens", str(f.bad_tokens)],
        ["serve", "--tokens", str(f.tokens), "--address", "not an address"],
        ["serve"],
        ["league", "status", str(f.missing)],
        ["league", "status", str(f.results)],
        ["token", "mint", "has space", "--tokens", str(f.tokens)],
        ["token", "mint", "ok", "--tokens", str(f.directory)],
        ["token", "mint", "ok", "--tokens", str(f.bad_tokens)],
        ["token", "list", "--tokens", str(f.missing)],
        ["token", "list", "--tokens", str(f.bad_tokens)],
        ["token", "revoke", "nobody", "--tokens", str(f.tokens)],
        ["token", "revoke", "has space", "--tokens", str(f.tokens)],
        ["token", "revoke", "ok", "--tokens", str(f.missing)],
        ["token", "owner", "nobody", "alice", "--tokens", str(f.tokens)],
        ["token", "owner", "ok", "has space", "--tokens", str(f.tokens)],
        ["token", "owner", "ok", "alice", "--tokens", str(f.missing)],
        ["token", "owner", "ok", "alice", "--tokens", str(f.bad_tokens)],
        ["rules", "play", str(f.missing)],
        ["rules", "play", str(f.directory)],
        ["rules", "play", str(f.text)],
        ["play", "random", "--name", "has space"],
        ["play", "random", "--http", "no port"],
        ["play", "random", "--games", "0"],
        ["play", "random", "--seat", "2"],
        ["play"],
        ["play", "--league", "127.0.0.1:1"],
        ["play", "random", "--league", "127.0.0.1:1", "--token-file", str(f.tokens)],
        ["play", "--league", "127.0.0.1:1", "--token-file", str(f.missing)],
        ["play", "random", "--seats", "4", "--variant", "uruguayo"],
        ["play", "random", "--seats", "4", "--seat", "6", "--variant", "argentino"],
        ["check-bot"],
        ["check-bot", "--games", "0", "--", "python"],
        ["check-bot", "--name", "has space", "--", "python"],
        ["check-bot", "--log-dir", str(f.text), "--", "python"],
        ["check-bot", "--", str(f.missing)],
        ["connect", "--", "./bot"],
        ["connect", "--address", "127.0.0.1:1", "--token-file", str(f.missing), "--", "./bot"],
        ["connect", "--address", "127.0.0.1:1", "--token-file", str(f.directory), "--", "./bot"],
        ["sandbox", "check", "--verbose"],
        ["no-such-command"],
    ]
    cases += [["rules", "play", str(path)] for path in scenarios]
    return cases


def _digests(root: Path) -> dict[Path, str]:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


def _problem(args: list[str], result: Result) -> str | None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"raised {type(result.exception).__name__}: {result.exception}"
    if result.exit_code not in (1, 2):
        return f"exit code {result.exit_code}"
    if "Traceback" in result.output:
        return "printed a traceback"
    # demo announces what it runs on a line of its own before it starts.
    lines = [ln for ln in result.stderr.splitlines() if ln.strip() and not ln.startswith("demo: ")]
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"stderr is not one error line: {result.stderr!r}"
    if any(lines[0].count(f"{a}:") > 1 for a in args if "/" in a):
        return f"names a file twice: {lines[0]}"
    return None


@pytest.mark.brief_processes  # the bot check tries to launch a file that is not a program
def test_every_command_on_bad_input_gives_one_line_and_a_failing_exit_code(tmp_path: Path) -> None:
    files = _files(tmp_path)
    cases = _cases(files, _scenarios(tmp_path))
    commands = _commands(main)
    covered = {c for c in commands for args in cases if tuple(args[:len(c)]) == c}
    assert commands == covered, f"commands without a bad-input case: {commands - covered}"
    before = _digests(tmp_path)
    problems = []
    for args in cases:
        result = CliRunner().invoke(main, args)
        problem = _problem(args, result)
        if problem is not None:
            problems.append(f"truco-arena {' '.join(a[:60] for a in args)}: {problem}")
    assert problems == [], "\n".join(problems)
    after = _digests(tmp_path)
    assert {p: d for p, d in after.items() if p in before} == before  # nothing given was changed
    assert not files.missing.exists() and not files.missing_dir.parent.exists()


@pytest.mark.integration  # a fresh interpreter: this one has imported the CLI already
def test_an_install_missing_a_dependency_says_so_in_one_line() -> None:
    """A checkout updated without reinstalling lacks a new dependency: the
    executable names it and the way out, exit 1, no traceback."""
    import subprocess

    hide = "import sys; sys.modules['msgspec'] = None; from arena.command import main; main()"
    run = subprocess.run([sys.executable, "-c", hide, "standings", "x.sqlite"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 1, run.stderr
    line, = run.stderr.splitlines()
    assert line.startswith("error: truco-arena needs the Python package 'msgspec'") and "reinstall" in line, line
