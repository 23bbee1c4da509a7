"""The scenario loader on anything: arbitrary JSON values and arbitrary bytes
raise ScenarioError or load, never any other exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.scenario import (
    MAX_DEPTH,
    Scenario,
    ScenarioError,
    load_scenario,
    parse_scenario,
)

GOOD = json.loads((Path(__file__).parents[1] / "scenarios" / "s4_1_truco_accepted_2__argentino.json").read_text())

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.integers(min_value=-(10**40), max_value=10**40),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=30,
)
# Fields of a scenario with plausible and implausible values, so the search
# reaches past the first check instead of stopping at "unknown field".
scenario_keys = st.sampled_from(sorted(GOOD) + ["options", "scores", "mano", "deals", "actions", "x"])
action_texts = st.one_of(
    st.sampled_from(GOOD["actions"]),
    st.builds(lambda seat, rest: f"{seat} {rest}",
              st.text(alphabet="0123456789٣²¹߁໑-+ ", min_size=0, max_size=6),
              st.sampled_from(["play 1E", "truco", "quiero", "mazo", "envido", "", "play", "play 99X"])),
    st.text(max_size=30),
)


def _loads_or_refuses(call: Any) -> None:
    try:
        result = call()
    except ScenarioError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 400, message
        return
    assert isinstance(result, Scenario)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_value(value: Any) -> None:
    _loads_or_refuses(lambda: load_scenario(value))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(scenario_keys, json_values, max_size=6), st.lists(action_texts, max_size=4))
def test_a_good_scenario_with_fields_replaced(changes: dict[str, Any], actions: list[str]) -> None:
    _loads_or_refuses(lambda: load_scenario({**GOOD, **changes}))
    _loads_or_refuses(lambda: load_scenario({**GOOD, "actions": actions}))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes(raw: bytes) -> None:
    _loads_or_refuses(lambda: parse_scenario(raw))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40), st.integers(min_value=0, max_value=len(json.dumps(GOOD))))
def test_a_good_file_with_bytes_spliced_in(noise: bytes, at: int) -> None:
    good = json.dumps(GOOD).encode()
    _loads_or_refuses(lambda: parse_scenario(good[:at] + noise + good[at:]))


def test_nesting_and_numbers_beyond_any_scenario() -> None:
    for raw in (b"[" * 200_000, b'{"a": ' * 5_000, b"1" * 10_000, b"-" + b"9" * 4_400,
                json.dumps({**GOOD, "mano": [[[[[[[[[[0]]]]]]]]]]}).encode(),
                json.dumps({**GOOD, "scores": [10**30, 0]}).encode()):
        try:
            parse_scenario(raw)
        except ScenarioError:
            continue
        raise AssertionError(f"loaded {raw[:40]!r}")
    deep: Any = 0
    for _ in range(MAX_DEPTH + 50_000):
        deep = [deep]
    with pytest.raises(ScenarioError, match="options.seats.*nested deeper"):
        load_scenario({**GOOD, "options": {"seats": deep}})
    assert load_scenario(GOOD).actions  # the unchanged file still loads
