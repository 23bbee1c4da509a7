"""Golden rule cases: one scenario file per case in tests/scenarios/.

Each file is a scenario as described in the scenario format (docs/rules.md appendix B) (variant, options,
scores, mano, deals, actions) plus two keys the loader ignores:

- ``description``: one line, starting with the docs/rules.md section it shows
  (``"4.2: ..."``; ``"SCENARIOS: ..."`` for file-format cases);
- ``expect``: what the referee must answer. Only the keys given are checked:
  ``scores``, ``game_over``, ``winner``, ``hands_played``, ``to_act``,
  ``legal`` (compared as sorted lists), or ``error`` (a substring of the
  one-line message of the illegal action; the run stops there), or
  ``malformed`` (the file must be rejected, optionally naming ``field``).

File names start with the section (``s4_2_...``) and end with the variant
(``__argentino``, ``__argentino4`` for 4 seats, ...), so a rule's cases are
found from the rule.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

SCENARIO_DIR = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIO_DIR.glob("*.json"))

RESULT_KEYS = ("scores", "game_over", "winner", "hands_played", "to_act", "legal")
EXPECT_KEYS = set(RESULT_KEYS) | {"error", "malformed", "field"}


def _load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_file_is_well_formed(path: Path) -> None:
    """The case files themselves follow the conventions (no engine needed)."""
    data = _load(path)
    desc = data.get("description")
    assert isinstance(desc, str) and "\n" not in desc
    assert re.match(r"^(\d+(\.\d+)?(/\d+(\.\d+)?)*|SCENARIOS): ", desc), desc
    expect = data.get("expect")
    assert isinstance(expect, dict) and expect
    assert set(expect) <= EXPECT_KEYS, set(expect) - EXPECT_KEYS
    outcome = [k for k in ("error", "malformed") if k in expect]
    assert len(outcome) <= 1
    if outcome:
        assert not set(expect) & set(RESULT_KEYS)
    else:
        assert set(expect) & set(RESULT_KEYS)
    if "field" in expect:
        assert expect.get("malformed") is True
    sections = desc.split(":", 1)[0].split("/")
    if sections != ["SCENARIOS"]:
        prefixes = tuple("s" + sec.replace(".", "_") + "_" for sec in sections)
        assert path.stem.startswith(prefixes), (path.stem, sections)
    else:
        assert path.stem.startswith("sfmt_")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_rule_scenario(path: Path) -> None:
    from arena.scenario import IllegalActionError, ScenarioError, load_scenario, play_scenario

    data = _load(path)
    expect = data["expect"]
    desc = data["description"]

    if expect.get("malformed"):
        with pytest.raises(ScenarioError) as excinfo:
            play_scenario(load_scenario(data))
        if "field" in expect:
            assert expect["field"] in str(excinfo.value), f"{desc}\nmessage: {excinfo.value}"
        return

    scenario = load_scenario(data)

    if "error" in expect:
        with pytest.raises(IllegalActionError) as illegal:
            result = play_scenario(scenario)
            pytest.fail(f"{desc}\nexpected an illegal action, got {_short(result)}")
        message = str(illegal.value)
        assert "\n" not in message.strip(), message
        assert expect["error"] in message, f"{desc}\nmessage: {message}"
        return

    result = play_scenario(scenario)
    got = {k: result[k] for k in RESULT_KEYS if k in expect}
    want = {k: expect[k] for k in RESULT_KEYS if k in expect}
    if "legal" in want:
        got["legal"] = sorted(got["legal"])
        want["legal"] = sorted(want["legal"])
    assert got == want, f"{desc}\nfull result: {_short(result)}"


def _short(result: dict[str, Any]) -> str:
    shown = {k: result.get(k) for k in RESULT_KEYS}
    events = result.get("events") or []
    return json.dumps(shown) + "\nevents:\n  " + "\n  ".join(map(str, events))


# ---------------------------------------------------------------------------
# The same files through the command line: `truco-arena rules play FILE`.

CLI_OK = "s4_1_truco_accepted_2__argentino"
CLI_OK_GAME_OVER = "s6_game_ends_mid_hand_on_envido__argentino"
CLI_ILLEGAL = "s4_1_cannot_raise_own_call__argentino"
CLI_MALFORMED = "sfmt_bad_card_text__argentino"
CLI_MALFORMED_OPTION = "s7_unknown_option_key__argentino"


def _run_cli(name: str) -> Any:
    from click.testing import CliRunner

    from arena.cli import main

    path = SCENARIO_DIR / f"{name}.json"
    assert path.exists(), path
    return CliRunner().invoke(main, ["rules", "play", str(path)])


@pytest.mark.parametrize("name", [CLI_OK, CLI_OK_GAME_OVER])
def test_cli_rules_play_ok(name: str) -> None:
    from arena.scenario import load_scenario, play_scenario

    result = _run_cli(name)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    printed = json.loads(result.stdout)  # exactly one JSON object on stdout
    assert isinstance(printed, dict)
    expected = json.loads(json.dumps(play_scenario(load_scenario(_load(SCENARIO_DIR / f"{name}.json")))))
    assert printed == expected
    want = _load(SCENARIO_DIR / f"{name}.json")["expect"]
    for key in RESULT_KEYS:
        if key == "legal" and key in want:
            assert sorted(printed[key]) == sorted(want[key])
        elif key in want:
            assert printed[key] == want[key], key


def test_cli_rules_play_illegal_action() -> None:
    result = _run_cli(CLI_ILLEGAL)
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    message = result.stderr.strip()
    assert message and "\n" not in message, message
    assert '("1 retruco")' in message
    assert result.stdout.strip() == ""


@pytest.mark.parametrize(("name", "field"), [(CLI_MALFORMED, "deals[0].hands"), (CLI_MALFORMED_OPTION, "colour")])
def test_cli_rules_play_malformed(name: str, field: str) -> None:
    result = _run_cli(name)
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert field in result.stderr, result.stderr
    assert result.stdout.strip() == ""
