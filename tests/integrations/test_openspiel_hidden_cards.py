"""No OpenSpiel view of a seat shows a card that seat may not see.

The reference for what a seat may see is the engine's ``observation(seat)``
with its log: a card of another seat counts as hidden while that seat holds
it unplayed and the seat's engine observation does not mention it (a proof
shown at the end of a hand is mentioned, and may appear)."""

from __future__ import annotations

import random
import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import arena.integrations.openspiel  # noqa: F401  (registers the games)
from arena.engine import Card, State
from arena.integrations.seat_view import pieces_for

CASES: list[tuple[str, dict[str, int | bool]]] = [
    ("truco_argentino", {"target": 9}),
    ("truco_uruguayo", {"target": 9}),
    ("truco_venezolano", {"target": 9}),
    ("truco_argentino", {"players": 4, "target": 9}),
    ("truco_argentino", {"players": 6, "pico_a_pico": True, "target": 9}),
]
CARD_PIECES = ("hand", "dealt", "up_card", "played")


def _mentions(text: str, card: Card) -> bool:
    return re.search(rf"(?<![0-9A-Z]){card}(?![0-9A-Z])", text) is not None


def _hidden_from(engine: State, seat: int, dealing: dict[int, tuple[Card, ...]]) -> set[Card]:
    """Cards of other seats that ``seat``'s engine observation does not show."""
    hidden: set[Card] = set()
    for other, cards in dealing.items():
        if other != seat:
            hidden.update(cards)
    if not engine.needs_deal():
        view = "\n".join(engine.observation(seat).events)
        for other in range(engine.options.seats):
            if other != seat:
                hidden.update(c for c in engine.unplayed(other) if not _mentions(view, c))
    return hidden


def _card_columns(game: pyspiel.Game) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Where each card-indexed piece of the observation tensor starts, and its shape."""
    engine_game = game.engine
    pieces = pieces_for(engine_game.options.seats, game.ids)
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    at = 0
    for p in pieces:
        if p.name in CARD_PIECES:
            out[p.name] = (at, p.shape)
        at += p.size
    return out


@pytest.mark.parametrize("name, params", CASES)
def test_no_view_of_a_seat_shows_a_hidden_card(name: str, params: dict[str, int | bool]) -> None:
    game = pyspiel.load_game(name, params)
    columns = _card_columns(game)
    rng = random.Random(name + str(params))
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            table = state._table
            dealing = {s: table.received(s) for s in range(game.num_players())} if table.is_dealing() else {}
            for seat in range(game.num_players()):
                hidden = _hidden_from(state.engine_state, seat, dealing)
                # The information state holds the whole game; an earlier hand's
                # card may be dealt again to another seat, so only the current
                # deal's part (after the last "hand N over") is checked.
                lines = state.information_state_string(seat).split("\n")
                ended = [i for i, line in enumerate(lines) if " over: " in line]
                this_deal = "\n".join(lines[ended[-1] + 1 :] if ended else lines)
                texts = (state.observation_string(seat), this_deal)
                tensor = np.asarray(state.observation_tensor(seat))
                for card in hidden:
                    assert not any(_mentions(t, card) for t in texts), (seat, card, texts)
                    for start, shape in columns.values():
                        block = tensor[start : start + int(np.prod(shape))].reshape(shape)
                        assert not block[..., card.index].any(), (seat, card)
                checked += len(hidden)
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def test_own_cards_are_in_the_views_and_the_public_observer_leaves_them_out() -> None:
    game = pyspiel.load_game("truco_uruguayo", {"target": 5})
    state = game.new_initial_state()
    for card_index in range(7):
        state.apply_action(card_index * 5)
    own = state.engine_state.observation(0).dealt
    assert all(_mentions(state.observation_string(0), c) for c in own)
    assert all(_mentions(state.information_state_string(0), c) for c in own)
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observation = make_observation(game, public)
    observation.set_from(state, 0)
    assert not any(_mentions(observation.string_from(state, 0), c) for c in own)
    assert not np.asarray(observation.dict["hand"]).any() and not np.asarray(observation.dict["dealt"]).any()
    assert np.asarray(observation.dict["up_card"]).any()  # the muestra is public


def test_resampled_worlds_keep_the_information_state_and_redeal_the_rest() -> None:
    game = pyspiel.load_game("truco_argentino", {"target": 9})
    rng = random.Random(8)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.engine_state.observation(0).tricks) < 1:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            plays = [a for a in state.legal_actions() if state.action_to_string(a).startswith("play")]
            state.apply_action(plays[0])
    seat = state.current_player()
    other = 1 - seat
    key = state.information_state_string(seat)
    seen: set[tuple[Card, ...]] = set()
    draws = random.Random(1)
    for _ in range(20):
        world = state.resample_from_infostate(seat, draws.random)
        assert world.information_state_string(seat) == key
        assert world.legal_actions() == state.legal_actions()
        assert world.engine_state.unplayed(seat) == state.engine_state.unplayed(seat)
        assert world.engine_state.observation(other).tricks == state.engine_state.observation(other).tricks
        seen.add(world.engine_state.unplayed(other))
    assert len(seen) > 10  # the opponent's unseen cards are really redealt
