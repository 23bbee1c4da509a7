"""The snippets of docs/integrations.md run as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"


def _snippets() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def _run(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "snippet"}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace


def test_the_doc_has_three_snippets_and_the_library_ones_are_five_lines() -> None:
    snippets = _snippets()
    assert len(snippets) == 3
    assert len(snippets[0].strip().splitlines()) == 5 and len(snippets[2].strip().splitlines()) == 5


def test_the_openspiel_mccfr_snippet_runs_and_learns_information_states() -> None:
    ns = _run(_snippets()[0])
    policy = ns["solver"].average_policy()
    state = ns["game"].new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert abs(sum(policy.action_probabilities(state).values()) - 1.0) < 1e-9


def test_the_openspiel_ismcts_snippet_plays_a_whole_game(capsys: Any) -> None:
    ns = _run(_snippets()[1])
    assert ns["state"].is_terminal()
    assert sorted(ns["state"].returns()) == [-1.0, 1.0]
    assert capsys.readouterr().out.strip() in ("[1.0, -1.0]", "[-1.0, 1.0]")


def test_the_pettingzoo_snippet_plays_a_whole_game() -> None:
    ns = _run(_snippets()[2])
    game = ns["game"]
    assert game.agents == [] and game.state.is_terminal()
    assert sorted(game.state.returns()) == [-1.0, -1.0, 1.0, 1.0]
