"""The bots of ``truco-arena match``: every sample bot has a short name the
help lists, and bots are named after what the user wrote (or --name)."""

from __future__ import annotations

from click.testing import CliRunner

from arena.cli import main
from arena.cli.match import match_config
from arena.match.bots import resolve, sample_bots

SAMPLE_MODULES = ("random_bot", "heuristic", "simulation", "inference", "ismcts", "pruning", "yardstick")


def test_every_sample_bot_has_a_short_name_and_the_help_lists_them() -> None:
    modules = {command.rsplit(".", 1)[-1] for command in sample_bots().values()}
    assert modules == set(SAMPLE_MODULES)
    help_text = " ".join(CliRunner().invoke(main, ["match", "--help"]).output.split())
    assert "random, heuristic, simulation, inference, ismcts, pruning, yardstick" in help_text
    a, b = resolve("inference", "pruning")
    assert (a.name, a.command) == ("inference", "python -m sample_bots.inference")
    assert (b.name, b.command) == ("pruning", "python -m sample_bots.pruning")


def test_two_versions_of_one_bot_are_named_after_their_folders() -> None:
    a, b = resolve("python v2/mybot.py", "python v1/mybot.py")
    assert (a.name, b.name) == ("v2", "v1")
    a, b = resolve("python bots/new/mybot.py --depth 3", "python bots/old/mybot.py")
    assert (a.name, b.name) == ("new", "old")
    a, b = resolve("python mybot.py", "python mybot.py")  # nothing tells them apart
    assert (a.name, b.name) == ("mybot-a", "mybot-b")


def test_names_given_win_and_stdio_sides_are_marked() -> None:
    config = match_config("python v2/mybot.py", "./mybot", games=2, sprt=None, alpha=0.05, beta=0.05, max_games=10,
                          variant="uruguayo", concurrency=1, seed=None, stdio=("b",), names=("new", "old"))
    assert [b.name for b in config.bots] == ["new", "old"]
    assert [b.protocol for b in config.bots] == ["grpc", "stdio"]
