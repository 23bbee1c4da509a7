"""The two snippets of the README's OpenSpiel and PettingZoo section run as
written and print their result."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parents[2] / "README.md"


def _snippets() -> list[str]:
    text = README.read_text()
    start = text.index("\n## OpenSpiel and PettingZoo\n")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end != -1 else len(text)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def _run(code: str) -> tuple[dict[str, Any], str]:
    """The snippet's variables and what it printed."""
    namespace: dict[str, Any] = {"__name__": "snippet"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), namespace)
    return namespace, printed.getvalue()


def test_the_readme_has_an_openspiel_and_a_pettingzoo_snippet_of_a_few_lines() -> None:
    snippets = _snippets()
    assert len(snippets) == 2
    assert all(len(s.strip().splitlines()) <= 8 for s in snippets)
    assert "pyspiel" in snippets[0] and "pettingzoo" in snippets[1]


def test_the_readme_openspiel_snippet_runs_mccfr_on_our_game_and_prints_its_policy() -> None:
    ns, printed = _run(_snippets()[0])
    shown = ast.literal_eval(printed)  # a dict literal: action text -> probability
    assert shown and all(isinstance(a, str) for a in shown) and abs(sum(shown.values()) - 1.0) < 0.05
    assert ns["game"].get_type().short_name == "truco_argentino"
    policy = ns["solver"].average_policy()
    state = ns["game"].new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1.0) < 1e-9


def test_the_readme_pettingzoo_snippet_plays_a_whole_game_and_prints_the_returns() -> None:
    ns, printed = _run(_snippets()[1])
    game = ns["game"]
    assert game.agents == [] and game.state.is_terminal()
    assert sorted(game.state.returns()) == [-1.0, -1.0, 1.0, 1.0]
    assert printed == f"returns per seat: {game.state.returns()}\n"
