"""Every command example in README.md and docs/*.md is checked against the
code, and run as written where a test can run it.

- Each command of a fenced block parses with the real command line: a
  `truco-arena` line through click (its subcommand, options and arguments
  exist and take those values; a usage line such as `match A B [--games N]`
  has its options checked), a bot's through the SDK's parser, `pip install`
  against pyproject.toml's extras, test and lint paths against the tree.
- Each such command has a disposition: RUN_BY names the test that runs it as
  written (here, test_doc_commands_run.py, test_readme_league.py), CHECKED_ONLY
  says why it is only checked. A command with neither fails, and so does an
  entry that names no command of the docs any more: nothing is skipped
  silently, and a new example cannot slip by unchecked.
- Commands inside the prose (`truco-arena standings DB --verify`, `python
  benchmarks/coordinator.py --games 1000`) are checked the same way.
- Every TOML block is accepted by the loader it is written for, the
  `Example:` lines of every `--help` parse, and every repository path the
  prose names and every relative link exists.

Ports are the machine's: a test replaces the docs' fixed ports with free ones.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import re
import shlex
import tomllib
from pathlib import Path

import click
import pytest
from cli_check import check_bot_command, check_cli_synopsis, check_pip_install, check_script_options, parse_cli
from doc_commands import DOCS, EXAMPLES, README, ROOT, Command, blocks, commands, example, inline_spans, section
from doc_fixtures import ran_well, run, weekly_dir

from arena.cli import main
from arena.games.settings import ConfigError
from arena.league.config import parse_league_config
from arena.tournament.config import check_environment, parse_config

# The test that runs each command as written (a module of tests/docs, then the test).
RUN_BY: dict[tuple[str, str], str] = {
    ("README.md", "truco-arena demo"): "run::test_the_quick_start_demo_runs_as_written",
    ("README.md", "truco-arena token mint alice --tokens tokens.txt"): "this::test_the_token_examples_run_as_written",
    ("README.md", "truco-arena token mint bob --tokens tokens.txt"): "this::test_the_token_examples_run_as_written",
    ("README.md", "truco-arena serve --tokens tokens.txt --address 127.0.0.1:50051 --http 127.0.0.1:8080"):
        "test_readme_league.py::test_the_readme_league_section_works_as_written",
    ("README.md", "python mybot.py --name alice --address 127.0.0.1:50051 --streams 2"):
        "test_readme_league.py::test_the_readme_league_section_works_as_written",
    ("README.md", "python -m sample_bots.random_bot --name bob --address 127.0.0.1:50051"):
        "test_readme_league.py::test_the_readme_league_section_works_as_written",
    ("README.md", "truco-arena standings league.sqlite --view all"):
        "test_readme_league.py::test_the_readme_league_section_works_as_written",
    ("README.md", "truco-arena match 'python v2/mybot.py' 'python v1/mybot.py' --sprt 0 20 --db v2-vs-v1.sqlite"):
        "run::test_the_match_examples_run_as_written",
    ("README.md", "truco-arena rules play tests/scenarios/s4_2_envido_chain_E_R_accepted__argentino.json"):
        "this::test_the_readme_rules_example_runs_as_written",
    ("docs/league.md", "truco-arena token list --tokens tokens.txt"): "this::test_the_token_examples_run_as_written",
    ("docs/league.md", "truco-arena token revoke alice --tokens tokens.txt"):
        "this::test_the_token_examples_run_as_written",
    ("docs/league.md", "truco-arena serve --tokens tokens.txt"): "run::test_the_serve_examples_start_and_stop",
    ("docs/league.md", "truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt --db open.sqlite --config "
                       "league.toml --tls-cert arena.crt --tls-key arena.key -v"):
        "run::test_the_league_doc_serves_over_tls_and_its_views_run_as_written",
    ("docs/league.md", "truco-arena standings open.sqlite --view all"):
        "run::test_the_league_doc_serves_over_tls_and_its_views_run_as_written",
    ("docs/league.md", "truco-arena league status open.sqlite"):
        "run::test_the_league_doc_serves_over_tls_and_its_views_run_as_written",
    ("docs/protocol.md", "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout arena.key "
                         "-out arena.crt -days 365 -subj /CN=arena.example -addext "
                         "subjectAltName=DNS:arena.example"): "run::test_the_serve_examples_start_and_stop",
    ("docs/protocol.md", "chmod 600 arena.key"): "run::test_the_serve_examples_start_and_stop",
    ("docs/protocol.md", "truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt --tls-cert arena.crt "
                         "--tls-key arena.key"): "run::test_the_serve_examples_start_and_stop",
    **{("docs/report.md", text): "this::test_the_report_doc_examples_run_as_written" for text in (
        "truco-arena games weekly.sqlite",
        "truco-arena games weekly.sqlite --bot mybot --result loss",
        "truco-arena games weekly.sqlite --termination timeout --json",
        "truco-arena replay weekly.sqlite mybot:random:3a",
        "truco-arena replay weekly.sqlite mybot:random:3a --seat 1",
        "truco-arena replay weekly.sqlite mybot:random:3a --json",
        "truco-arena replay weekly.sqlite 'mybot|random#3b'",
        "truco-arena report weekly.sqlite -o weekly-report",
        "truco-arena report weekly.sqlite -o weekly-report --max-games 500")},
    ("docs/report.md", "truco-arena tournament run weekly.toml --http 127.0.0.1:8080"):
        "run::test_the_live_page_examples_serve_as_written",
    ("docs/report.md", "truco-arena serve --tokens tokens.txt --http 127.0.0.1:8080"):
        "run::test_the_live_page_examples_serve_as_written",
    ("docs/bots.md", "truco-arena ladder --games 2 -- python -m sample_bots.random_bot"):
        "run::test_the_ladder_example_runs_as_written",
    ("docs/sandbox.md", "truco-arena check-bot --sandbox -- python -m sample_bots.random_bot"):
        "run::test_the_sandbox_check_bot_example_runs_as_written",
    ("docs/scaling.md", "truco-arena tournament run weekly.toml"): "run::test_the_scaling_examples_run_as_written",
    ("docs/scaling.md", "truco-arena tournament run weekly.toml --workers 8"):
        "run::test_the_scaling_examples_run_as_written",
    ("docs/scaling.md", "truco-arena tournament run weekly.toml --workers 1"): "this::weekly (the fixture)",
    ("docs/sprt.md", "truco-arena match 'python new/new.py' 'python old/old.py' --sprt 0 20 --db new-vs-old.sqlite"):
        "run::test_the_match_examples_run_as_written",
    ("docs/sprt.md", "truco-arena match heuristic random --sprt 0 100"): "run::test_the_match_examples_run_as_written",
    ("docs/sprt.md", "truco-arena tournament resume new-vs-old.sqlite"): "run::test_the_match_examples_run_as_written",
}

# Commands that are only checked (parsed, their files and options looked up), and why.
_SETUP = "sets up the environment these tests already run in"
_SUITE = "runs the test suite or CI's static checks, which run on their own"
_PERSON = ("waits for a person's clicks in a browser; tests/web/test_play_browser.py plays the same "
           "command with --no-browser, clicking in Chromium")
CHECKED_ONLY: dict[tuple[str, str], str] = {
    ("README.md", "truco-arena play heuristic"): _PERSON,
    ("docs/play.md", "truco-arena play heuristic"): _PERSON,
    ("docs/play.md", "truco-arena play simulation --variant argentino --games 3 --db mine.sqlite"): _PERSON,
    ("docs/play.md", "truco-arena play 'python mybot/bot.py' --clock 30"): _PERSON,
    ("docs/play.md", "truco-arena play heuristic --seat 1"): _PERSON,
    ("docs/play.md", "truco-arena play heuristic --variant argentino --seats 4 --seat 2"): _PERSON,
    ("docs/play.md", "truco-arena play --league arena.example.org:50051 --tls --name ana --token-file ana.token"):
        "needs a league at that address and a person's clicks; tests/league/test_league_person.py plays the same "
        "command against a local league, through the page's routes",
    ("README.md", "python3 -m venv .venv"): _SETUP,
    ("README.md", ". .venv/bin/activate"): _SETUP,
    ("README.md", "pip install ."): _SETUP,
    ("README.md", "pip install -e '.[test]'"): _SETUP,
    ("README.md", "python -m pytest"): _SUITE,
    ("README.md", "mypy arena sdk sample_bots tests benchmarks"): _SUITE,
    ("README.md", "ruff check arena sdk sample_bots tests benchmarks"): _SUITE,
    ("README.md", "python -m pytest -m 'not slow and not integration'"): _SUITE,
    ("README.md", "apt-get install -y chromium chromium-driver"): "installs system packages (root, network)",
    ("README.md", "python -m pytest -q tests/web/test_report_browser.py"): _SUITE,
    ("docs/bots.md", "truco-arena ladder -- python mybot/bot.py"):
        "the reader's own bot, 20 games against each search bot: minutes; the --games 2 example is run",
    ("docs/bots.md", "truco-arena ladder --games 40 --db mybot.sqlite -- python mybot/bot.py"):
        "the reader's own bot, 40 games against each search bot: minutes; the --games 2 example is run",
    ("docs/league.md", "truco-arena replay league.sqlite GAME_ID"):
        "GAME_ID is a placeholder for a flagged pair's game; tests/league/test_league_sybil.py runs a league with one",
    ("docs/league.md", "truco-arena token owner sybil alice --tokens tokens.txt"):
        "needs a league with a sybil; tests/league/test_league_sybil.py runs it against one",
    ("docs/league.md", "truco-arena standings league.sqlite --without-suspicious"):
        "needs a league with a sybil; tests/league/test_league_sybil.py runs it against one",
    ("docs/league.md", "truco-arena token mint alice --tokens tokens.txt '[--owner' 'OWNER]'"):
        "a usage line; README.md's `token mint alice` is run",
    ("docs/league.md", "python -m sample_bots.random_bot --address arena.example.org:50051 --name alice --streams 2 "
                       "--tls"): "dials a public arena whose certificate a real CA signed",
    ("docs/protocol.md", "python -m mybot --address arena.example:50051 --tls --ca arena.crt"):
        "the reader's own bot module, dialing the reader's host",
    ("docs/protocol.md", "truco-arena check-bot -- python mybot.py --model weights.bin"):
        "a transcript of the reader's bot, with an option of its own",
    ("docs/report.md", "apt-get update"): "installs system packages (root, network)",
    ("docs/report.md", "apt-get install -y chromium chromium-driver"): "installs system packages (root, network)",
    ("docs/report.md", "python -m pytest -q tests/web/test_report_browser.py"): _SUITE,
    ("docs/report.md", "python -m pytest -q tests/web/test_live_browser.py"): _SUITE,
    ("docs/sandbox.md", "python -m pytest tests/sandbox"): _SUITE,
    ("docs/scaling.md", "truco-arena tournament run weekly.toml --ray 10.0.0.5:6379"):
        "needs a Ray cluster at that address (tests/scaleout starts one of its own)",
    ("docs/sprt.md", "truco-arena match A B --sprt ELO0 ELO1 '[--alpha' 0.05 --beta '0.05]' '[--max-games' '20000]'"):
        "a usage line",
    ("docs/sprt.md", "truco-arena match A B --games N"): "a usage line",
    ("docs/sprt.md", "truco-arena match simulation heuristic --games 200 --concurrency 2"):
        "200 games of the search bot: minutes",
}

# Programs other than ours that fenced examples may use, each checked below.
_LINT = {"mypy", "ruff"}
_SYSTEM = {"python3", ".", "apt-get", "openssl", "chmod"}


def test_the_docs_have_command_examples_of_every_kind() -> None:
    programs = {c.argv[0] for _, c in EXAMPLES}
    assert {"truco-arena", "python", "pip", "openssl"} <= programs
    assert len([1 for _, c in EXAMPLES if c.argv[0] == "truco-arena"]) >= 35


def test_every_command_example_is_run_or_checked_for_a_stated_reason() -> None:
    found = {(doc, c.text) for doc, c in EXAMPLES}
    unplaced = sorted(found - RUN_BY.keys() - CHECKED_ONLY.keys())
    assert not unplaced, f"run these in a test (RUN_BY) or say why not (CHECKED_ONLY): {unplaced}"
    assert not RUN_BY.keys() & CHECKED_ONLY.keys()
    stale = sorted((RUN_BY.keys() | CHECKED_ONLY.keys()) - found)
    assert not stale, f"no such command in the docs any more: {stale}"
    here = Path(__file__).parent
    for where in set(RUN_BY.values()):
        module, _, test = where.partition("::")
        path = here / {"this": Path(__file__).name, "run": "test_doc_commands_run.py"}.get(module, module)
        assert f"def {test.split()[0]}(" in path.read_text(), f"{where}: no such test"


@pytest.mark.parametrize(("doc", "command"), EXAMPLES, ids=[f"{d}: {c.text}" for d, c in EXAMPLES])
def test_a_command_example_parses_with_the_real_command_line(doc: str, command: Command) -> None:
    program, args = command.argv[0], command.argv[1:]
    if program == "truco-arena":
        check_cli_synopsis(args) if command.is_synopsis else parse_cli(args)
    elif program == "python" and args[:2] == ["-m", "pytest"]:
        rest = args[2:]
        # An option's value (-m EXPR, -k EXPR) is no path.
        paths = [a for i, a in enumerate(rest) if not a.startswith("-") and (i == 0 or rest[i - 1] not in ("-m", "-k"))]
        assert all((ROOT / p).exists() for p in paths), f"{doc}: {command.text}: no such test path"
    elif program == "python":
        check_bot_command(command)
    elif program == "pip":
        check_pip_install(command.argv)
    elif program in _LINT:
        assert all((ROOT / p).is_dir() for p in args if not p.startswith("-") and p != "check"), command.text
    elif program == "apt-get":
        assert args[0] in ("update", "install"), command.text
    else:
        assert program in _SYSTEM, f"{doc}: a command of {program!r}: check it here"


def _inline() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for span in inline_spans(doc.read_text()):
            if span.split()[0] in ("truco-arena", "python", "pip"):
                found.append((str(doc.relative_to(ROOT)), span))
    return found


INLINE = _inline()


@pytest.mark.parametrize(("doc", "span"), INLINE, ids=[f"{d}: {s}" for d, s in INLINE])
def test_a_command_in_the_prose_names_real_commands_and_options(doc: str, span: str) -> None:
    words = shlex.split(span.replace("\\|", "|"))
    if words[0] == "truco-arena":
        check_cli_synopsis(words[1:])
    elif words[0] == "pip":
        check_pip_install(words)
    elif words[:3] == ["python", "-m", "pytest"]:  # a test path of this repository
        paths = [w for w in words[3:] if not w.startswith("-")]
        assert paths and all((ROOT / p).exists() for p in paths), f"{doc}: {span}: no such test path"
    elif len(words) > 1 and not words[1].startswith(("mybot", "bot.py")):  # not the reader's own bot
        check_script_options(words)


def test_every_config_block_is_accepted_by_its_loader(tmp_path: Path) -> None:
    """A league's (docs/league.md) by the league's, the rest by the
    tournament's; a fragment (a few keys) within the smallest config around it."""
    checked = 0
    for doc in DOCS:
        for block in blocks(doc.read_text(), "toml"):
            data = tomllib.loads(block)
            if doc.name == "league.md":
                parse_league_config(data)
            else:
                if not {"bots", "name"} <= data.keys():
                    sample = "python -m sample_bots.random_bot"
                    around = [{"name": "new", "command": sample}, {"name": "old", "command": sample}]
                    data = {"name": "t", **data, "bots": [*data.get("bots", []), *around]}
                config = parse_config(data, base=tmp_path)
                for bot in config.bots:
                    if bot.dir is not None:
                        bot.dir.mkdir(parents=True, exist_ok=True)
                        for script in [a for a in bot.command or () if a.endswith(".py")]:
                            (bot.dir / script).touch()  # the script it names is there, as the docs mean
                (tmp_path / "tokens.txt").touch()
                if doc == README:  # refused as written, as the README says (test_readme_config.py)
                    with pytest.raises(ConfigError, match="mybot has no command and the config no tokens"):
                        check_environment(config)
                else:
                    check_environment(config)
            checked += 1
    assert checked >= 7


# ----------------------------------------------------------- run as written


@pytest.fixture(scope="module")
def weekly(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """weekly.toml (the README's bot against a sample bot), played by the
    scaling doc's `tournament run weekly.toml --workers 1`."""
    where = weekly_dir(tmp_path_factory.mktemp("weekly"))
    ran_well(run(example("docs/scaling.md", "truco-arena tournament run weekly.toml --workers 1"), where),
             example("docs/scaling.md", "truco-arena tournament run weekly.toml --workers 1"))
    return where


@pytest.mark.integration  # a real tournament, then ten commands on it
def test_the_report_doc_examples_run_as_written(weekly: Path) -> None:
    texts = [t for (d, t), by in RUN_BY.items() if by.endswith("::test_the_report_doc_examples_run_as_written")]
    assert len(texts) == 9
    for text in texts:
        command = example("docs/report.md", text)
        assert ran_well(run(command, weekly), command).strip(), command.line
    assert (weekly / "weekly-report" / "index.html").exists()
    exported = json.loads(run(example("docs/report.md", "truco-arena replay weekly.sqlite mybot:random:3a --json"),
                              weekly).stdout)
    assert exported["info"]["game_id"] == "mybot:random:3a"  # as docs/replay-json.md says


def test_the_readme_rules_example_runs_as_written() -> None:
    command = example("README.md", "truco-arena rules play tests/scenarios/s4_2_envido_chain_E_R_accepted__argentino.json")
    done = run(command, ROOT)
    assert json.loads(ran_well(done, command))["scores"] == [5, 1]  # the scenario's hand, played out


def test_the_rules_doc_scenario_plays_as_the_doc_says(tmp_path: Path) -> None:
    """docs/rules.md appendix B: its sample file, run by `truco-arena rules play FILE`."""
    (scenario,) = blocks(section((ROOT / "docs" / "rules.md").read_text(), "Appendix B. Scenario files"), "json")
    (tmp_path / "case.json").write_text(scenario)
    command = Command({}, ["truco-arena", "rules", "play", "case.json"], "truco-arena rules play case.json")
    result = json.loads(ran_well(run(command, tmp_path), command))
    assert result["scores"] == [12, 4] and result["to_act"] == 0
    assert result["legal"] == ["mazo", "play 6C", "play 7C", "truco"]


def test_the_token_examples_run_as_written(tmp_path: Path) -> None:
    for text in ("truco-arena token mint alice --tokens tokens.txt", "truco-arena token mint bob --tokens tokens.txt"):
        command = example("README.md", text)
        token = ran_well(run(command, tmp_path), command).strip()
        assert len(token) == 32 and token not in (tmp_path / "tokens.txt").read_text()  # only its verifier is kept
    listing = example("docs/league.md", "truco-arena token list --tokens tokens.txt")
    shown = ran_well(run(listing, tmp_path), listing)
    assert "alice" in shown and "bob" in shown
    revoke = example("docs/league.md", "truco-arena token revoke alice --tokens tokens.txt")
    ran_well(run(revoke, tmp_path), revoke)
    shown = ran_well(run(listing, tmp_path), listing)
    assert "alice" not in shown and "bob" in shown
    assert all(line.startswith("#") or " scram:" in line for line in (tmp_path / "tokens.txt").read_text().splitlines()
               if line.strip())  # the format docs/protocol.md gives



def _help_examples() -> list[tuple[str, Command]]:
    """The `Example:` lines of every `truco-arena ... --help`."""
    found: list[tuple[str, Command]] = []
    pending: list[tuple[str, click.Command]] = [("truco-arena", main)]
    while pending:
        path, command = pending.pop()
        if isinstance(command, click.Group):
            pending.extend((f"{path} {name}", sub) for name, sub in command.commands.items())
        text = inspect.cleandoc(command.help or "")
        if "Example:" in text:
            lines = [line.strip() for line in text.split("Example:", 1)[1].splitlines()]
            found.extend((path, c) for c in commands("\n".join(lines)) if c.argv[0] == "truco-arena")
    return found


HELP_EXAMPLES = _help_examples()


@pytest.mark.parametrize(("where", "command"), HELP_EXAMPLES, ids=[f"{w}: {c.text}" for w, c in HELP_EXAMPLES])
def test_a_help_example_parses_with_the_real_command_line(where: str, command: Command) -> None:
    parse_cli(command.argv[1:])


def test_every_command_has_a_help_example() -> None:
    shown = {c.argv[1] for _, c in HELP_EXAMPLES}
    assert shown >= set(main.commands) - {"token", "league", "rules"} and len(HELP_EXAMPLES) >= 20


# Paths the docs name that a run makes rather than the repository holds.
MADE_BY_A_RUN = {"tests/web/artifacts/"}  # the browser tests' screenshots, not committed


def test_the_files_the_docs_name_exist() -> None:
    """Every repository path in the prose (`arena/tournament/store.py`) and
    every relative link."""
    missing = []
    for doc in DOCS:
        text = doc.read_text()
        for span in inline_spans(text):
            for word in span.replace(",", " ").split():
                word = word.strip("()")
                if re.match(r"(arena|sdk|tests|benchmarks|docs|proto|sample_bots|\.ci)/", word) \
                        and not re.search(r"[A-Z]{2,}|\*|\.\.\.", word) and word not in MADE_BY_A_RUN:
                    if not (ROOT / word.split("#")[0].split(":")[0]).exists():
                        missing.append(f"{doc.name}: {word}")
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if not target.startswith("http") and not (doc.parent / target).exists():
                missing.append(f"{doc.name}: link {target}")
    assert not missing, missing


def test_the_sprt_doc_code_prints_the_line_it_shows() -> None:
    (code,) = blocks(section((ROOT / "docs" / "sprt.md").read_text(), "Worked example"), "python")
    shown = [line.removeprefix("# ") for line in code.splitlines() if line.startswith("# ")]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/sprt.md", "exec"), {"__name__": "snippet"})
    assert printed.getvalue().splitlines() == shown  # the 0.91 of the worked example: no verdict yet
