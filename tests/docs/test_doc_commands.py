"""Every command example in README.md and docs/*.md is checked against the
code: each `truco-arena` line parses with the real command line (its
subcommand, options and arguments exist and take those values), each bot
command line parses with the SDK's, and the examples that need only a
results file are run as written on a real tournament's database. A command
of another program must be named in OTHER_PROGRAMS, so a new kind of
example cannot slip by unchecked. (The league section runs for real in
test_readme_league.py, the snippets in tests/integrations.)"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import click
import pytest
from doc_commands import README, ROOT, Command, blocks, commands

from arena.cli import main
from sdk.cli import parser as sdk_parser

DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
# Programs whose examples are not ours to check: the reader's shell, package
# managers, the test and lint tools, openssl.
OTHER_PROGRAMS = {"python3", "pip", "apt-get", "openssl", "chmod", "mypy", "ruff", ".", "sudo"}
# `python -m MODULE` examples that are the reader's own bot, not ours.
READERS_MODULES = {"mybot"}


def _examples() -> list[tuple[str, Command]]:
    """(where, command) for every command line of every fenced block."""
    found = []
    for doc in DOCS:
        for lang in ("sh", ""):
            for block in blocks(doc.read_text(), lang):
                lines = [line.removeprefix("$ ") for line in block.splitlines()]
                if lang == "":  # an unlabelled block: output, TOML, a transcript; only its commands count
                    lines = [line for line in lines if line.startswith("truco-arena ")]
                for command in commands("\n".join(lines)):
                    if "[" in command.line or " A B " in command.line:
                        continue  # a synopsis (docs/sprt.md): placeholders, not an example
                    for part in _split_and(command):
                        found.append((f"{doc.relative_to(ROOT)}: {part.line}", part))
    return found


def _split_and(command: Command) -> list[Command]:
    """`a && b` as two commands."""
    parts: list[list[str]] = []
    current: list[str] = []
    for word in command.argv:
        if word == "&&":
            parts.append(current)
            current = []
        else:
            current.append(word)
    parts.append(current)
    return [Command(command.env if i == 0 else {}, p, shlex.join(p)) for i, p in enumerate(parts) if p]


EXAMPLES = _examples()


def _parse_cli(args: list[str]) -> click.Command:
    """Parse ``args`` as the real `truco-arena` would, without running anything."""
    command: click.Command = main
    name, rest = "truco-arena", args
    parent: click.Context | None = None
    while True:
        ctx = command.make_context(name, list(rest), parent=parent)
        if not isinstance(command, click.Group):
            return command
        remaining = [*ctx._protected_args, *ctx.args]  # what the group left to its subcommand
        sub_name, sub, rest = command.resolve_command(ctx, remaining)
        assert sub is not None and sub_name is not None
        command, name, parent = sub, sub_name, ctx


def test_the_docs_have_command_examples_of_every_kind() -> None:
    programs = {c.argv[0] for _, c in EXAMPLES}
    assert {"truco-arena", "python"} <= programs
    assert len([1 for _, c in EXAMPLES if c.argv[0] == "truco-arena"]) >= 25


@pytest.mark.parametrize(("where", "command"), EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_a_command_example_parses_with_the_real_command_line(where: str, command: Command) -> None:
    program = command.argv[0]
    if program == "truco-arena":
        _parse_cli(command.argv[1:])
    elif program == "python" and command.argv[1:3] == ["-m", "pytest"]:
        for path in command.argv[3:]:
            if path.startswith("tests/"):
                assert (ROOT / path).exists(), f"{where}: no {path}"
    elif program == "python":
        # A bot: `python -m sample_bots.X ...`, `python mybot.py ...`: the SDK's options.
        target = command.argv[2] if command.argv[1] == "-m" else command.argv[1]
        rest = command.argv[3:] if command.argv[1] == "-m" else command.argv[2:]
        if command.argv[1] == "-m" and target.split(".")[0] not in READERS_MODULES:
            assert (ROOT / (target.replace(".", "/") + ".py")).exists(), f"{where}: no module {target}"
        args = sdk_parser("bot").parse_args(rest)
        assert args.address, where
    else:
        assert program in OTHER_PROGRAMS, f"{where}: a command of {program!r}: check it here or name it"


# ----------------------------------------------------------- run as written

WEEKLY = '''name = "weekly"
variant = "uruguayo"
games_per_pairing = 8
seed = 12
concurrency = 2

[options]
target = 9

[[bots]]
name = "mybot"
dir = "mybot"
command = ["python", "mybot.py"]

[[bots]]
name = "random"
command = "python -m sample_bots.random_bot"
'''


def _readme_bot() -> str:
    from doc_commands import section

    (code,) = blocks(section(README.read_text(), "Write a bot in 20 lines"), "python")
    return code


def _run(command: Command, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command.resolved(), capture_output=True, text=True, timeout=300, cwd=cwd)


def _examples_of(doc: str, *subcommands: str) -> list[Command]:
    return [c for w, c in EXAMPLES if w.startswith(doc + ":") and c.argv[0] == "truco-arena"
            and c.argv[1] in subcommands]


@pytest.fixture(scope="module")
def weekly(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with weekly.toml (the README's bot against a sample bot), played
    by the scaling doc's `tournament run weekly.toml --workers 1`."""
    where = tmp_path_factory.mktemp("weekly")
    (where / "weekly.toml").write_text(WEEKLY)
    (where / "mybot").mkdir()
    (where / "mybot" / "mybot.py").write_text(_readme_bot())
    (run,) = [c for c in _examples_of("docs/scaling.md", "tournament") if c.argv[-2:] == ["--workers", "1"]]
    done = _run(run, where)
    assert done.returncode == 0, done.stderr
    return where


def test_the_report_doc_examples_run_as_written(weekly: Path) -> None:
    examples = _examples_of("docs/report.md", "games", "replay", "report")
    assert len(examples) == 9
    for command in examples:
        done = _run(command, weekly)
        assert done.returncode == 0, f"{command.line}: {done.stderr}"
        assert done.stdout.strip() and "Traceback" not in done.stderr, command.line
    assert (weekly / "weekly-report" / "index.html").exists()


def test_the_readme_rules_example_runs_as_written() -> None:
    (command,) = [c for w, c in EXAMPLES if w.startswith("README.md:") and c.argv[1:3] == ["rules", "play"]]
    done = _run(command, ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == [5, 1]  # the scenario's hand, played out
