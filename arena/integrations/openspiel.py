"""Truco as OpenSpiel games: importing this module registers them.

    import pyspiel
    import arena.integrations.openspiel  # registers the games below
    game = pyspiel.load_game("truco_argentino", {"players": 4, "target": 15})

Games: ``truco_argentino`` (parameters ``players`` 2/4/6, ``target``,
``flor``, ``falta_envido`` "leader"/"malas_buenas", ``pico_a_pico``, which
defaults to false here), ``truco_uruguayo`` (``target``, ``flor``,
``falta_envido``) and ``truco_venezolano`` (``target``, ``flor``). Defaults
are the engine's presets.

- Chance: every hand's deal is chance nodes, one card each, uniform over the
  cards not yet dealt in that hand (``card_by_card.py`` says who gets which).
  The chance outcome of a card is its ``DECK`` index.
- Actions: the fixed id space of ``action_ids.py``; the engine's
  ``legal_actions()`` decides which are legal.
- Returns: +1 to every seat of the team that reaches the target, -1 to the
  others (zero-sum), given only at the end.
- Information state (perfect recall): a string only, every event of the game
  the seat may see (the engine's own visibility filter, docs/rules.md section
  9), plus its cards of a deal in progress. There is no information-state
  tensor, since the history of a whole game has no fixed size.
- Observation: the current hand as the seat sees it, as a string and as the
  fixed-size tensor of ``seat_view.py``.
- ``resample_from_infostate`` (used by ``open_spiel.python.algorithms.ismcts``)
  redeals the cards a seat has not seen, keeping only deals that replay to the
  same information state.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from arena.engine import DECK, Game, Options, make_options
from arena.engine.variants import VARIANT_BY_NAME

from .action_ids import ActionIds
from .card_by_card import CardByCard
from .seat_view import SeatViewWriter, seat_view_text, visible_log

GAME_NAMES: dict[str, str] = {
    "argentino": "truco_argentino",
    "uruguayo": "truco_uruguayo",
    "venezolano": "truco_venezolano",
}


def options_from_params(variant: str, params: dict[str, Any]) -> Options:
    """Engine options from OpenSpiel game parameters (``OptionsError`` on bad ones)."""
    overrides: dict[str, Any] = {}
    for key, value in params.items():
        if key == "players":
            overrides["seats"] = int(value)
        elif key == "target":
            overrides[key] = int(value)
        elif key in ("flor", "pico_a_pico"):
            overrides[key] = bool(value)
        else:
            overrides[key] = value
    return make_options(variant, overrides)


def max_hands(options: Options) -> int:
    """Every hand (and pico-a-pico mini hand) gives a team at least one point,
    and the game ends when a team reaches the target."""
    return 2 * options.target - 1


def max_actions_per_hand(options: Options) -> int:
    """A safe bound on the player actions of one hand: every card, the truco
    calls and answers, an envido chain, every seat's flor and a flor contest
    (raises of at least 1 each, at most the target in all), and the mazo."""
    n, t = options.seats, options.target
    cards, truco, envido, flor = 3 * n, 8, t + 6, n + t + 6
    return cards + truco + envido + flor + 1


def _parameters(variant: str) -> dict[str, Any]:
    preset = make_options(variant)
    spec: dict[str, Any] = {"target": preset.target, "flor": preset.flor}
    v = VARIANT_BY_NAME[variant]
    if len(v.seats) > 1:
        spec["players"] = preset.seats
    if v.falta_modes:
        assert preset.falta_envido is not None
        spec["falta_envido"] = preset.falta_envido
    if v.pico_a_pico_seats is not None:
        spec["pico_a_pico"] = False
    return spec


def _game_type(variant: str) -> Any:
    v = VARIANT_BY_NAME[variant]
    return pyspiel.GameType(
        short_name=GAME_NAMES[variant],
        long_name=f"Truco {variant} (Truco Arena engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(v.seats),
        min_num_players=min(v.seats),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(variant),
    )


class TrucoGame(pyspiel.Game):  # type: ignore[misc]
    """One variant with its options; ``variant`` is set by the subclasses."""

    variant = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = options_from_params(self.variant, params)
        ids = ActionIds.for_options(options)
        info = pyspiel.GameInfo(
            num_distinct_actions=ids.size,
            max_chance_outcomes=len(DECK),
            num_players=options.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_hands(options) * max_actions_per_hand(options),
        )
        super().__init__(_game_type(self.variant), info, params)
        self.options = options
        self.ids = ids
        self.engine = Game(options)

    def new_initial_state(self) -> TrucoState:
        return TrucoState(self)

    def max_chance_nodes_in_history(self) -> int:
        cards = 3 * self.options.seats + (1 if self.engine.needs_up else 0)
        return max_hands(self.options) * cards

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TrucoObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return TrucoObserver(self, obs_type)


class TrucoState(pyspiel.State):  # type: ignore[misc]
    """A game in progress. Everything that changes lives in ``_table`` (one
    attribute), whose deep copy is the engine's cheap copy."""

    def __init__(self, game: TrucoGame) -> None:
        super().__init__(game)
        self._table = CardByCard(game.engine)
        self._ids = game.ids

    @property
    def engine_state(self) -> Any:
        """The engine ``State`` (the referee's full view: every seat's cards)."""
        return self._table.state

    def current_player(self) -> int:
        t = self._table
        if t.state.winner is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        if t.is_dealing():
            return int(pyspiel.PlayerId.CHANCE)
        seat = t.state.current_player()
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        ids = self._ids
        return sorted(ids.id_of(a) for a in self._table.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self._table.is_dealing():
            raise ValueError("chance_outcomes called on a non-chance state")
        cards = self._table.undealt()
        p = 1.0 / len(cards)
        return [(c.index, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        if self._table.is_dealing():
            self._table.deal_card(DECK[action])
        else:
            self._table.apply(self._ids.action_of(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        return self._ids.text_of(action)

    def is_terminal(self) -> bool:
        return self._table.state.winner is not None

    def returns(self) -> list[float]:
        return list(self._table.state.returns())

    def resample_from_infostate(self, player: int, sampler: Any = None) -> TrucoState:
        """A state that ``player`` cannot tell from this one, with the cards it
        has not seen redealt (see ``CardByCard.resample``); ``sampler`` (an
        OpenSpiel probability sampler) seeds the redeal."""
        t = self._table
        if t.is_dealing() or self.is_terminal():
            return self.clone()  # type: ignore[no-any-return]
        seed = int(sampler() * 2**32) if sampler is not None else random.getrandbits(32)
        deal = t.resample(player, random.Random(seed))
        history = self.history()
        outcomes = [c.index for c in t.deal_order(deal)]
        start = t.deal_start_step
        replay = history[:start] + outcomes + history[start + len(outcomes) :]
        game: TrucoGame = self.get_game()
        state = game.new_initial_state()
        for a in replay:
            state.apply_action(a)
        return state

    def __str__(self) -> str:
        """The referee's view, for debugging: every seat's cards are shown."""
        t = self._table
        s = t.state
        head = f"{s.options.variant} scores {s.scores[0]}-{s.scores[1]}"
        if t.is_dealing():
            return f"{head} | dealing: {' '.join(map(str, t.incoming))}"
        hands = " | ".join(f"seat {i}: {' '.join(map(str, s.unplayed(i)))}" for i in range(s.options.seats))
        return f"{head} | {hands} | {s!r}"


class TrucoObserver:
    """OpenSpiel's Python observer: ``tensor``/``dict`` and ``string_from``.

    ``perfect_recall`` gives the information state (string only);
    ``private_info`` NONE leaves out the seat's own cards (public view)."""

    def __init__(self, game: TrucoGame, obs_type: Any) -> None:
        if obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every seat's cards is not offered")
        if not obs_type.public_info:
            raise ValueError("an observation without the public information is not offered")
        self.perfect_recall = bool(obs_type.perfect_recall)
        self.own_cards = obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.writer = SeatViewWriter(game.options.seats, game.options.target, game.ids)
        self.tensor: np.ndarray[Any, Any] | None = None if self.perfect_recall else self.writer.tensor
        self.dict = {} if self.perfect_recall else self.writer.dict

    def set_from(self, state: TrucoState, player: int) -> None:
        if self.perfect_recall:
            return
        t = state._table
        self.writer.write(t.state, player, t.received(player) if t.is_dealing() else ())
        if not self.own_cards:
            for name in ("hand", "dealt"):
                self.dict[name].fill(0.0)

    def string_from(self, state: TrucoState, player: int) -> str:
        t = state._table
        received = t.received(player) if self.own_cards and t.is_dealing() else ()
        if self.perfect_recall:
            lines = [f"seat {player}"] + visible_log(t.state, player, own_cards=self.own_cards)
            if t.is_dealing():
                lines.append("received " + " ".join(map(str, received)))
            return "\n".join(lines)
        text = seat_view_text(t.state, player, received)
        if not self.own_cards:
            text = " | ".join(p for p in text.split(" | ") if not p.startswith(("holds ", "dealt ", "received ")))
        return text


def _register(variant: str) -> type[TrucoGame]:
    cls = type(f"Truco{variant.capitalize()}Game", (TrucoGame,), {"variant": variant})
    pyspiel.register_game(_game_type(variant), cls)
    return cls


TrucoArgentinoGame = _register("argentino")
TrucoUruguayoGame = _register("uruguayo")
TrucoVenezolanoGame = _register("venezolano")

__all__ = ["GAME_NAMES", "TrucoGame", "TrucoState", "TrucoObserver", "options_from_params"]
