"""Checking a documented command against the code without running it: the
`truco-arena` command line through click, a bot's through the SDK's parser,
`pip install` extras against pyproject.toml, a script's options against its
``--help``."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from functools import cache

import click
from doc_commands import ROOT, Command

from arena.cli import main
from sdk.cli import parser as sdk_parser


def parse_cli(args: list[str]) -> click.Command:
    """Parse ``args`` as the real `truco-arena` would, without running anything;
    a click error (an unknown option, a missing argument, a bad value) raises."""
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


def check_cli_synopsis(args: list[str]) -> None:
    """A usage line such as ``match A B [--games N | --sprt ELO0 ELO1]``: its
    subcommands exist and every option it names is one of that command's."""
    command: click.Command = main
    words = list(args)
    while isinstance(command, click.Group) and words and not words[0].startswith("-"):
        sub = command.get_command(click.Context(command), words[0])
        assert sub is not None, f"no subcommand {words[0]!r} of {command.name}"
        command, words = sub, words[1:]
    if isinstance(command, click.Group):
        group_options = {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}
        assert not words or words == ["--help"] or (len(words) == 1 and words[0] in group_options), \
            f"{command.name} needs a subcommand"
        return
    known = {opt for p in command.params if isinstance(p, click.Option) for opt in (*p.opts, *p.secondary_opts)}
    for word in words:
        option = word.strip("[]|").split("=")[0]
        if option == "--":
            break  # the rest is the bot's own command line
        if option.startswith("-") and option != "-":
            assert option in known, f"{command.name} has no option {option} (it has {', '.join(sorted(known))})"


def check_bot_command(command: Command) -> None:
    """A bot's command line (`python -m sample_bots.X ...`, `python mybot.py ...`):
    the SDK takes its options, and a module of ours exists."""
    argv = command.argv
    module = argv[2] if argv[1] == "-m" else None
    rest = argv[3:] if module else argv[2:]
    if module is not None and module.split(".")[0] in ("sample_bots", "sdk", "arena"):
        assert (ROOT / (module.replace(".", "/") + ".py")).exists(), f"no module {module}"
    args = sdk_parser("bot").parse_args(rest)  # exits (SystemExit 2) on an unknown option
    assert args.address


@cache
def extras() -> frozenset[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return frozenset(data["project"]["optional-dependencies"])


def check_pip_install(argv: list[str]) -> None:
    """``pip install [-e] .`` or ``'truco-arena[EXTRA]'``: the project, and extras it has."""
    assert argv[:2] == ["pip", "install"], argv
    targets = [w for w in argv[2:] if not w.startswith("-")]
    assert targets, argv
    for target in targets:
        name, _, tail = target.partition("[")
        assert name in (".", "truco-arena"), f"pip install {target}: not this project"
        for extra in filter(None, tail.rstrip("]").split(",")):
            assert extra in extras(), f"pip install {target}: no extra {extra!r} in pyproject.toml"


@cache
def _help_of(program: tuple[str, ...]) -> str:
    done = subprocess.run([sys.executable, *program, "--help"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0, f"{' '.join(program)} --help: {done.stderr}"
    return done.stdout


def check_script_options(argv: list[str]) -> None:
    """``python benchmarks/X.py --opt ...`` or ``python -m PACKAGE.MODULE --opt``:
    the script exists and its ``--help`` lists every option used."""
    program = tuple(argv[1:3]) if argv[1] == "-m" else (argv[1],)
    path = ROOT / (program[1].replace(".", "/") + ".py" if program[0] == "-m" else program[0])
    if not path.exists():
        path = path.with_suffix("") / "__main__.py"
    assert path.exists(), f"no {' '.join(program)}"
    options = [w.split("=")[0] for w in argv[1 + len(program):] if w.startswith("--")]
    if options:
        shown = _help_of(program)
        for option in options:
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", shown), \
                f"{' '.join(program)} has no option {option}"
