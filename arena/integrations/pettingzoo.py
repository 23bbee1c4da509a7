"""Truco as a PettingZoo AEC environment, ``truco_v0``.

    from arena.integrations.pettingzoo import env
    e = env(variant="uruguayo", target=15)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        mask = obs["action_mask"]
        e.step(None if terminated or truncated else e.action_space(agent).sample(mask))

- Agents ``player_0`` .. ``player_{n-1}`` are the seats; teams are the even
  and the odd seats.
- Actions: ``Discrete(A)`` over the fixed ids of ``action_ids.py``.
- Observations: ``{"observation": the float32 tensor of seat_view.py,
  "action_mask": int8, 1 for each legal id}``; the mask is all zero for an
  agent that is not to act. ``info["legal_actions"]`` has the texts too.
- Deals: ``reset(seed=s)`` deals the game from ``s`` (the engine's seeded
  deal), so one seed and one action sequence always give the same game; a
  ``reset()`` without a seed continues from the last seed.
- Rewards: 0 until the end; then +1 to each seat of the team that reached
  the target, -1 to the others. The game always ends (no truncation).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from arena.engine import Game, State, make_options

from .action_ids import ActionIds
from .seat_view import SeatViewWriter, seat_view_text

ObsDict = dict[str, npt.NDArray[Any]]


def env(variant: str = "argentino", render_mode: str | None = None, **overrides: Any) -> TrucoEnv:
    """``truco_v0`` for ``variant`` with engine option overrides
    (``seats``, ``target``, ``flor``, ``falta_envido``, ``pico_a_pico``)."""
    return TrucoEnv(variant, render_mode, **overrides)


class TrucoEnv(AECEnv):  # type: ignore[misc]
    metadata: dict[str, Any] = {"name": "truco_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, variant: str = "argentino", render_mode: str | None = None, **overrides: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.options = make_options(variant, overrides)
        self.game = Game(self.options)
        self.ids = ActionIds.for_options(self.options)
        self.possible_agents = [f"player_{s}" for s in range(self.options.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._writer = SeatViewWriter(self.options.seats, self.options.target, self.ids)
        # Scores can pass the target by the last bet: at most the target, or 18
        # for flors paid 3 per declaring seat, above target - 1.
        high = np.ones(self._writer.size, np.float32)
        for name in ("scores", "start_scores", "pending_stake"):
            high[self._slice(name)] = (2 * self.options.target + 18) / self.options.target
        obs_space = gymnasium.spaces.Box(0.0, high, dtype=np.float32)
        mask_space = gymnasium.spaces.Box(0, 1, (self.ids.size,), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs_space, "action_mask": mask_space}) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.ids.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state: State | None = None

    def _slice(self, name: str) -> slice:
        at = 0
        for p in self._writer.pieces:
            if p.name == name:
                return slice(at, at + p.size)
            at += p.size
        raise KeyError(name)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game dealt from ``seed``. ``options`` is accepted, as the API
        requires, and unused: the game's options are set at construction."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.game.new_state(seed=self._seeds.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.state is not None
        seat = self.state.current_player()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        for a in self.agents:
            self.infos[a] = {"legal_actions": [str(x) for x in self.state.legal_actions()] if a == self.agent_selection
                             and seat is not None else []}

    def observe(self, agent: str) -> ObsDict:
        assert self.state is not None
        seat = self._seat[agent]
        self._writer.write(self.state, seat)
        mask = np.zeros(self.ids.size, np.int8)
        if self.state.current_player() == seat:
            for a in self.state.legal_actions():
                mask[self.ids.id_of(a)] = 1
        return {"observation": self._writer.tensor.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        if action is None:
            raise ValueError(f"{agent} must act: step(None) is only for a finished agent")
        legal = self.state.legal_actions()
        chosen = self.ids.action_of(int(action))
        if chosen not in legal:
            raise ValueError(f"{agent}: action {int(action)} ({chosen}) is not legal; legal: {', '.join(map(str, legal))}")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(chosen)
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        seat = self.state.current_player()
        text = seat_view_text(self.state, 0 if seat is None else seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
