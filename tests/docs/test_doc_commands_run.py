"""The command examples of README.md and docs/*.md that start tournaments,
matches, leagues or servers, run as written (test_doc_commands.py's RUN_BY
says which test runs which): real bot processes, real gRPC over loopback,
real SQLite files, each in a temporary folder with the files it names.

The one liberty taken is the port: a fixed port of the docs (50051, 8080) is
replaced by a free one, and a `serve` without `--address` gets
`--address 127.0.0.1:0`, so that tests running at once never share one.
Long-running commands are started, checked (they listen, the page answers)
and stopped with a signal, every wait with a deadline."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from doc_commands import README, ROOT, Command, blocks, example, inline_spans, section
from doc_fixtures import (
    DEADLINE,
    HEURISTIC_SCRIPT,
    Running,
    certificate_for_loopback,
    free_port,
    get,
    league_config,
    ran_well,
    readme_bot,
    recorded,
    run,
    weekly_dir,
)

from arena.cli.demo import demo_bots

pytestmark = pytest.mark.integration

RANDOM_SCRIPT = "from sample_bots.random_bot import main\n\nmain()\n"


def _status(cwd: Path, db: str) -> dict[str, object]:
    command = Command({}, ["truco-arena", "tournament", "status", db, "--json"], f"tournament status {db}")
    result: dict[str, object] = json.loads(ran_well(run(command, cwd), command))
    return result


def _mint(cwd: Path, *names: str) -> dict[str, str]:
    """The README's `token mint` commands for ``names``: each one's token."""
    tokens = {}
    for name in names:
        command = example("README.md", f"truco-arena token mint {name} --tokens tokens.txt")
        tokens[name] = ran_well(run(command, cwd), command).strip()
    return tokens


@pytest.mark.slow  # three search bots think: ~20-40 s
def test_the_quick_start_demo_runs_as_written(tmp_path: Path) -> None:
    command = example("README.md", "truco-arena demo")
    done = run(command, tmp_path)
    out = ran_well(done, command)
    # "its variant, number of games and seed first" (after a line saying so where bubblewrap is missing)
    said = [line for line in done.stderr.splitlines() if "without a sandbox" not in line]
    assert said[0] == "demo: uruguayo, 12 games, seed 1", done.stderr
    assert all(bot in out for bot, _ in demo_bots("uruguayo")), out  # the top of the shipped ladder
    assert list(tmp_path.iterdir()) == []  # without --db the results go to a temporary file


def test_the_ladder_example_runs_as_written(tmp_path: Path) -> None:
    command = example("docs/bots.md", "truco-arena ladder --games 2 -- python -m sample_bots.random_bot")
    done = run(command, tmp_path)
    out = ran_well(done, command)
    # The table with the newcomer in it, and the short line docs/bots.md shows.
    assert "random_bot" in out and "reference" in out and " new " in out, out
    assert re.search(r"^ladder: random_bot lands \d+ of \d+, Elo -?\d+ \[-?\d+, -?\d+\]$", done.stderr, re.M), done.stderr
    assert list(tmp_path.iterdir()) == []  # without --db the games go to a temporary file


@pytest.mark.slow  # an SPRT of [0, 20] needs ~50 pairs whatever the bots: ~45 s
def test_the_match_examples_run_as_written(tmp_path: Path) -> None:
    """The README's and docs/sprt.md's matches, the reader's two versions
    being a stronger and a weaker bot in folders of their own; then sprt.md's
    resume of the decided match, which plays nothing."""
    for folder, script in (("v2", HEURISTIC_SCRIPT), ("v1", RANDOM_SCRIPT), ("new", HEURISTIC_SCRIPT),
                           ("old", RANDOM_SCRIPT)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / ("mybot.py" if folder.startswith("v") else f"{folder}.py")).write_text(script)
    for doc, text, db in (
        ("README.md", "truco-arena match 'python v2/mybot.py' 'python v1/mybot.py' --sprt 0 20 --db v2-vs-v1.sqlite",
         "v2-vs-v1.sqlite"),
        ("docs/sprt.md", "truco-arena match 'python new/new.py' 'python old/old.py' --sprt 0 20 --db "
                         "new-vs-old.sqlite", "new-vs-old.sqlite"),
        ("docs/sprt.md", "truco-arena match heuristic random --sprt 0 100", None),
    ):
        command = example(doc, text)
        done = run(command, tmp_path)
        out = ran_well(done, command)
        assert "H1 accepted after" in done.stderr, f"{text}: {done.stderr[-1500:]}"
        assert "H1 accepted" in out  # the verdict table on stdout
        if db is not None:
            assert _status(tmp_path, db)["complete"] is True
    recorded = _status(tmp_path, "new-vs-old.sqlite")["recorded"]
    resume = example("docs/sprt.md", "truco-arena tournament resume new-vs-old.sqlite")
    done = run(resume, tmp_path)
    ran_well(done, resume)
    assert "H1 accepted after" in done.stderr  # the verdict again
    assert _status(tmp_path, "new-vs-old.sqlite")["recorded"] == recorded  # and no game more


def _listening(running: Running) -> str:
    """HOST:PORT from the arena's `arena listening on HOST:PORT` line."""
    line = running.wait_for("arena listening on ")
    match = re.search(r"arena listening on (\S+)", line)
    assert match is not None, line
    return match.group(1)


def _serve(command: Command, cwd: Path, replace: dict[str, str]) -> Running:
    argv = command.resolved(replace)
    if "--address" not in command.argv:
        argv += ["--address", "127.0.0.1:0"]
    return Running(argv, cwd, command.environment(replace))


def _stopped_cleanly(running: Running) -> None:
    code, _out = running.stop(signal.SIGTERM)
    _check_stopped(code, running.stderr())


def _check_stopped(code: int, errors: str) -> None:
    assert code == 0 and "league stopped:" in errors and "Traceback" not in errors, errors


def test_the_serve_examples_start_and_stop(tmp_path: Path) -> None:
    """docs/league.md's `serve --tokens tokens.txt`, and docs/protocol.md's
    certificate, `chmod` and TLS `serve`, in that doc's order."""
    _mint(tmp_path, "alice")
    with _serve(example("docs/league.md", "truco-arena serve --tokens tokens.txt"), tmp_path, {}) as plain:
        _listening(plain)
        _stopped_cleanly(plain)
    assert (tmp_path / "league.sqlite").exists()  # the default database, here

    for text in ("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout arena.key "
                 "-out arena.crt -days 365 -subj /CN=arena.example -addext subjectAltName=DNS:arena.example",
                 "chmod 600 arena.key"):
        command = example("docs/protocol.md", text)
        ran_well(run(command, tmp_path), command)
    assert stat.S_IMODE((tmp_path / "arena.key").stat().st_mode) == 0o600
    tls = example("docs/protocol.md", "truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt --tls-cert "
                                      "arena.crt --tls-key arena.key")
    port = str(free_port())
    with _serve(tls, tmp_path, {"0.0.0.0:50051": f"127.0.0.1:{port}"}) as served:
        assert _listening(served) == f"127.0.0.1:{port}" and "(TLS)" in served.wait_for("arena listening on ")
        _stopped_cleanly(served)


def _bot(name: str, port: str, token: str, cwd: Path) -> subprocess.Popen[str]:
    """A sample bot joining over TLS, as docs/league.md's "How a bot joins"
    has it, trusting the test's own certificate."""
    return subprocess.Popen(
        [sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}", "--name", name,
         "--streams", "2", "--ca", "arena.crt"],
        cwd=cwd, env={**os.environ, "TRUCO_ARENA_TOKEN": token}, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)


def test_the_league_doc_serves_over_tls_and_its_views_run_as_written(tmp_path: Path) -> None:
    """docs/league.md: its config and full `serve` line over TLS, two bots
    joining, `league status` while it runs and `standings` after."""
    (tmp_path / "league.toml").write_text(league_config())
    certificate_for_loopback(tmp_path)
    tokens = _mint(tmp_path, "alice", "bob")
    port = str(free_port())
    serve = example("docs/league.md", "truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt --db open.sqlite "
                                      "--config league.toml --tls-cert arena.crt --tls-key arena.key -v")
    served = _serve(serve, tmp_path, {"0.0.0.0:50051": f"127.0.0.1:{port}"})
    bots: list[subprocess.Popen[str]] = []
    try:
        _listening(served)
        bots = [_bot(name, port, token, tmp_path) for name, token in tokens.items()]
        status = example("docs/league.md", "truco-arena league status open.sqlite")
        deadline = time.monotonic() + DEADLINE
        while recorded(tmp_path / "open.sqlite") < 4:  # both bots connected, and a few games recorded
            assert all(b.poll() is None for b in bots), [b.stderr.read() for b in bots if b.stderr]
            assert time.monotonic() < deadline, served.stderr()
            time.sleep(0.2)
        shown = ran_well(run(status, tmp_path), status)  # while it runs
        assert "alice" in shown and "bob" in shown, shown
        assert "game end " in served.stderr()  # -v: a line per game
    finally:
        for bot in bots:
            bot.send_signal(signal.SIGINT)
        for bot in bots:
            try:
                bot.wait(timeout=30)
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.wait()
        code, _out = served.stop(signal.SIGTERM)
    _check_stopped(code, served.stderr())
    standings = example("docs/league.md", "truco-arena standings open.sqlite --view all")
    out = ran_well(run(standings, tmp_path), standings)
    assert "alice" in out and "bob" in out and "Failures" in out, out


def test_the_live_page_examples_serve_as_written(tmp_path: Path) -> None:
    """docs/report.md's live page: on a tournament (its page says finished
    and stays up until Ctrl-C) and on a league."""
    weekly = weekly_dir(tmp_path / "weekly")
    port = str(free_port())
    command = example("docs/report.md", "truco-arena tournament run weekly.toml --http 127.0.0.1:8080")
    with Running(command.resolved({"8080": port}), weekly) as running:
        assert running.wait_for("live page on ").endswith(f"http://127.0.0.1:{port}/")
        running.wait_for("finished; still serving it until Ctrl-C")
        status, page = get(f"http://127.0.0.1:{port}/")
        assert status == 200 and "mybot" in page
        assert json.loads(get(f"http://127.0.0.1:{port}/api/live.json")[1])["finished"] is True
        code, out = running.stop(signal.SIGINT)
    assert code == 0 and "mybot" in out and "Traceback" not in running.stderr(), running.stderr()

    league = tmp_path / "league"
    league.mkdir()
    _mint(league, "alice")
    port = str(free_port())
    command = example("docs/report.md", "truco-arena serve --tokens tokens.txt --http 127.0.0.1:8080")
    with _serve(command, league, {"8080": port}) as served:
        assert served.wait_for("live page on ").endswith(f"http://127.0.0.1:{port}/")
        assert get(f"http://127.0.0.1:{port}/")[0] == 200
        assert json.loads(get(f"http://127.0.0.1:{port}/api/live.json")[1])["games"] == []
        _stopped_cleanly(served)


def test_the_sandbox_check_bot_example_runs_as_written(tmp_path: Path) -> None:
    command = example("docs/sandbox.md", "truco-arena check-bot --sandbox -- python -m sample_bots.random_bot")
    out = ran_well(run(command, tmp_path, env={"TMPDIR": str(tmp_path)}), command)  # its kept log goes here
    assert "COMPLIANT:" in out and "NOT COMPLIANT" not in out, out
    assert f"bot log: {tmp_path}" in out


@pytest.mark.parametrize("text", ["truco-arena tournament run weekly.toml",
                                  "truco-arena tournament run weekly.toml --workers 8"])
def test_the_scaling_examples_run_as_written(tmp_path: Path, text: str) -> None:
    weekly = weekly_dir(tmp_path)
    command = example("docs/scaling.md", text)
    assert "mybot" in ran_well(run(command, weekly), command)
    status = _status(weekly, "weekly.sqlite")
    assert status["recorded"] == 8 and status["missing"] == 0, status


def test_the_readme_check_bot_command_passes_the_readme_and_protocol_doc_bots(tmp_path: Path) -> None:
    """The README's `truco-arena check-bot -- python mybot.py` (in its prose),
    on the README's bot and on docs/protocol.md's SDK bot."""
    (text,) = [s for s in inline_spans(README.read_text()) if s.startswith("truco-arena check-bot -- ")]
    command = Command({}, shlex.split(text), text)
    (sdk_bot,) = blocks(section((ROOT / "docs" / "protocol.md").read_text(), "For Python: the SDK"), "python")
    for name, code in (("readme", readme_bot()), ("protocol", sdk_bot)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "mybot.py").write_text(code)
        out = ran_well(run(command, tmp_path / name, env={"TMPDIR": str(tmp_path)}), command)
        assert "COMPLIANT:" in out and "NOT COMPLIANT" not in out, f"{name}: {out}"
