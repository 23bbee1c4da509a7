"""Scenario files (docs/rules.md appendix B): a fixed deal, scripted actions, the result.

``load_scenario`` checks the JSON and names the bad field; ``play_scenario``
runs it through the engine and returns what ``truco-arena rules play`` prints.
Two extra keys are accepted and ignored by the referee: ``description`` and
``expect`` (the test suite's annotations of golden cases).
Action positions in messages are 0-based indexes into ``actions``.

``parse_scenario`` takes the file's bytes. Whatever they hold, the loader
raises nothing but ``ScenarioError``: values are shown in messages through
``_show``, which is bounded (no repr of a huge number or a deep list), and
nesting deeper than any scenario needs is refused before anything walks it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from arena.errors import UsageError

from .engine import Action, Card, Deal, Game, IllegalActionError, OptionsError, State, make_options

MAX_BYTES = 1 << 20  # a scenario is a few KB; a bigger file is a mistake
MAX_DEPTH = 8  # a scenario nests 4 deep (deals[i].hands[j][k])
_LARGEST = 2**63  # whole numbers beyond this are refused rather than shown or compared
_SEAT = re.compile(r"[0-9]{1,2}")  # ASCII digits only: str.isdigit() also accepts "٣" and "²"
_KEYS = {"variant", "options", "scores", "mano", "deals", "actions", "description", "expect"}


class ScenarioError(UsageError, ValueError):
    """A malformed scenario; the message names the field."""


@dataclass(frozen=True)
class Scenario:
    game: Game
    deals: tuple[Deal, ...]
    scores: tuple[int, int]
    mano: int
    actions: tuple[tuple[int, Action, str], ...]
    """(seat, action, original text)"""


def _key(key: object) -> str:
    """A JSON key for a field path in a one-line message: escaped (a key may
    hold a newline) and bounded."""
    text = str(key)
    return text[:20] if text.isprintable() else repr(text)[:22]


def _show(value: Any, limit: int = 40) -> str:
    """``value`` for a one-line message, bounded whatever it is."""
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _LARGEST:
        return "a number too large"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _int(value: Any, field: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise ScenarioError(f"{field}: expected a whole number >= {low}, got {_show(value)}")
    return value


def _check_shape(data: Any) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and numbers beyond ``_LARGEST``,
    without recursion, so that nothing later can overflow the stack."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, field, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ScenarioError(f"{field or 'scenario'}: nested deeper than any scenario ({MAX_DEPTH} levels)")
        if isinstance(value, dict):
            stack.extend((v, f"{field}.{_key(k)}" if field else _key(k), depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{field}[{i}]", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _LARGEST:
            raise ScenarioError(f"{field or 'scenario'}: number too large")


def parse_scenario(raw: bytes) -> Scenario:
    """Load a scenario from the bytes of its JSON file (UTF-8)."""
    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"larger than {MAX_BYTES} bytes: not a scenario")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise ScenarioError("not valid JSON for a scenario: nested far too deeply") from None
    except ValueError:  # e.g. an integer beyond int's digit limit
        raise ScenarioError("not valid JSON: a number too large") from None
    return load_scenario(data)


def load_scenario(data: Any) -> Scenario:
    _check_shape(data)
    if not isinstance(data, dict):
        raise ScenarioError("scenario: expected a JSON object")
    for key in data:
        if key not in _KEYS:
            raise ScenarioError(f"{_show(key)}: unknown field (expected {', '.join(sorted(_KEYS))})")
    if "variant" not in data:
        raise ScenarioError("variant: missing")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError("options: expected an object")
    if not isinstance(data["variant"], str):
        raise ScenarioError(f"variant: expected a string, got {_show(data['variant'])}")
    try:
        opts = make_options(data["variant"], options)
    except OptionsError as exc:
        raise ScenarioError(str(exc)) from None
    game = Game(opts)
    scores = data.get("scores", [0, 0])
    if not isinstance(scores, list) or len(scores) != 2:
        raise ScenarioError(f"scores: expected two team scores, got {_show(scores)}")
    s0, s1 = (_int(v, f"scores[{i}]") for i, v in enumerate(scores))
    mano = _int(data.get("mano", 0), "mano")
    if mano >= opts.seats:
        raise ScenarioError(f"mano: seat {mano} does not exist with {opts.seats} seats")
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise ScenarioError("deals: expected a non-empty list of deals")
    parsed = tuple(_load_deal(d, f"deals[{i}]", game) for i, d in enumerate(deals))
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions: expected a list of \"SEAT ACTION\" strings")
    return Scenario(game, parsed, (s0, s1), mano,
                    tuple(_load_action(a, f"actions[{i}]", opts.seats) for i, a in enumerate(actions)))


def _card(text: Any, field: str) -> Card:
    if not isinstance(text, str):
        raise ScenarioError(f"{field}: expected a card like \"7O\", got {_show(text)}")
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise ScenarioError(f"{field}: {exc}") from None


def _load_deal(d: Any, field: str, game: Game) -> Deal:
    if not isinstance(d, dict):
        raise ScenarioError(f"{field}: expected an object with \"hands\"")
    up_key = {"uruguayo": "muestra", "venezolano": "vira"}.get(game.options.variant)
    for key in d:
        if key not in ("hands", "muestra", "vira"):
            raise ScenarioError(f"{field}.{_show(key)}: unknown field")
        if key in ("muestra", "vira") and key != up_key:
            raise ScenarioError(f"{field}.{key}: not used in {game.options.variant}")
    hands = d.get("hands")
    seats = game.options.seats
    if not isinstance(hands, list) or len(hands) != seats:
        raise ScenarioError(f"{field}.hands: expected {seats} hands of three cards")
    parsed: list[tuple[Card, ...]] = []
    seen: set[Card] = set()
    for i, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 3:
            raise ScenarioError(f"{field}.hands[{i}]: expected three cards")
        cards = tuple(_card(c, f"{field}.hands[{i}][{j}]") for j, c in enumerate(hand))
        for j, c in enumerate(cards):
            if c in seen:
                raise ScenarioError(f"{field}.hands[{i}][{j}]: card {c} is dealt twice")
            seen.add(c)
        parsed.append(cards)
    up = None
    if up_key is not None:
        if up_key not in d:
            raise ScenarioError(f"{field}.{up_key}: missing (required in {game.options.variant})")
        up = _card(d[up_key], f"{field}.{up_key}")
        if up in seen:
            raise ScenarioError(f"{field}.{up_key}: card {up} is also in a hand")
    return Deal(tuple(parsed), up)


def _load_action(text: Any, field: str, seats: int) -> tuple[int, Action, str]:
    if not isinstance(text, str):
        raise ScenarioError(f"{field}: expected \"SEAT ACTION\", got {_show(text)}")
    seat_text, _, rest = text.strip().partition(" ")
    if not _SEAT.fullmatch(seat_text) or int(seat_text) >= seats:
        raise ScenarioError(f"{field}: {_show(text)} does not start with a seat 0..{seats - 1}")
    try:
        action = Action.parse(rest)
    except ValueError as exc:
        raise ScenarioError(f"{field}: {exc}") from None
    return int(seat_text), action, text


def play_scenario(scenario: Scenario) -> dict[str, Any]:
    state = scenario.game.new_state(deals=scenario.deals, scores=scenario.scores, mano=scenario.mano)
    for i, (seat, action, text) in enumerate(scenario.actions):
        if state.out_of_deals:
            break  # docs/rules.md appendix B: actions past the last deal just stop the scenario
        if state.current_player() != seat or action not in state.legal_actions():
            # The engine's own error, its message one line naming the action.
            raise IllegalActionError(seat, action, f'action {i} ("{text}"): {state.why_illegal(action, seat)}')
        state.apply(action)
    return result_of(state)


def result_of(state: State) -> dict[str, Any]:
    over = state.winner is not None
    return {
        "scores": list(state.scores),
        "game_over": over,
        "winner": state.winner,
        "hands_played": state.hands_played,
        "to_act": state.current_player(),
        "legal": sorted(str(a) for a in state.legal_actions()),
        "events": [str(e) for e in state.events],
    }


__all__ = [
    "IllegalActionError",
    "Scenario",
    "ScenarioError",
    "load_scenario",
    "parse_scenario",
    "play_scenario",
]
