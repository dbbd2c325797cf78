"""PettingZoo AEC environment for every tarockrl game (optional extra: ``pip install 'tarockrl[pettingzoo]'``).

::

    from tarockrl.envs import aec_env
    env = aec_env("dreierles")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``"player_0" ...`` (seat numbers, in playing order). Observations are dicts
``{"observation": float32[observation_size], "action_mask": int8[num_actions]}``: the engine's observation of
that seat (only what it may know) and its legal actions, all zeros for agents not to move. Rewards are 0 until
the deal ends, then every agent's settlement in game points (times ``reward_scale``); every agent then
terminates (no truncation). ``reset(seed=s)`` starts the deal stream of ``s`` (deals 0, 1, 2, ...);
``options={"deal_id": k}`` or ``{"deal": {...}}`` plays a fixed deal. An illegal action raises
``IllegalActionError`` in the raw env and in ``env(..., illegal_action="raise")``; ``env(...)`` (default
``illegal_action="lose"``) applies PettingZoo's ``TerminateIllegalWrapper`` instead (the offender gets
``illegal_reward``, the deal ends). Unknown reset options are ignored (PettingZoo's convention). The observation's
unbounded fields (settlements, balances) are squashed into ``(-1, 1)``, so its Box has finite bounds (see
:mod:`tarockrl.envs.bounds`). A value that is not an
action at all (not an integer in ``[0, num_actions)``) always raises ``IllegalActionError`` naming it and the legal
actions. ``step``, ``observe`` and ``last`` before ``reset`` raise ``ResetNeededError``; a call that raises
changes nothing (a failed ``reset`` keeps the previous deal stream).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tarockrl.envs.bounds import observation_bounds
from tarockrl.envs.common import (
    DEFAULT_ILLEGAL_REWARD,
    ResetNeededError,
    as_action,
    check_illegal,
    observation_space,
    resolve_game,
    resolve_reward_scale,
    to_int64,
)
from tarockrl.errors import BadDealError, IllegalActionError
from tarockrl.games.api import State

__all__ = ["TarockAECEnv", "ActionCheckWrapper", "env", "raw_env"]

_RESET_OPTIONS = ("deal", "deal_id")


class TarockAECEnv(AECEnv):
    """A PettingZoo AEC environment of one game (module docstring: the details).

    Args:
        game: a game name or a :class:`tarockrl.Game`.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        reward_scale: factor applied to the settlements, or ``"auto"`` (one over the game's random-play standard
            deviation of a seat's settlement, see ``tarockrl.envs.common.AUTO_REWARD_SCALE_STD``).
        **rules_options: the game's rules options.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "tarockrl_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, game: Any = "dreierles", render_mode: str | None = None, reward_scale: float | str = 1.0,
                 **rules_options: Any) -> None:
        """Create the environment."""
        super().__init__()
        self.game = resolve_game(game, rules_options)
        g = self.game
        _, _, self.reward_scale = check_illegal("raise", 0.0, resolve_reward_scale(reward_scale, g))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"{g.name}_v0")
        self.possible_agents = [f"player_{p}" for p in range(g.num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": observation_space(g, bounded=True),
                    "action_mask": gymnasium.spaces.Box(0, 1, (g.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(g.num_actions) for a in self.possible_agents}
        self._state: State | None = None
        self._base_seed: int | None = None
        self._next_deal = 0
        self._zero_mask = np.zeros(g.num_actions, dtype=np.int8)
        self._bounds = observation_bounds(g)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The Dict space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    @property
    def state_object(self) -> State:
        """The current deal as a :class:`tarockrl.State` (a copy; every hand included)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state.clone()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal (see the module docstring for ``seed`` and ``options``); a reset that raises changes nothing."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise TypeError(f"reset options must be a dict such as {{'deal_id': 3}}, got {options!r} "
                            f"({type(options).__name__})")
        opts = dict(options)
        unknown = sorted(set(opts) - set(_RESET_OPTIONS), key=str)
        if unknown:  # PettingZoo's convention (its api_test passes arbitrary options): ignored, silently
            pass
        if "deal" in opts and "deal_id" in opts:
            raise ValueError("give reset option 'deal' or 'deal_id', not both")
        # everything is computed first and committed only once the new deal exists
        base_seed, next_deal = self._base_seed, self._next_deal
        if seed is not None:
            base_seed, next_deal = to_int64(seed), 0
        elif base_seed is None:
            base_seed = int(np.random.default_rng().integers(0, 2**62))
        if "deal" in opts:
            if not isinstance(opts["deal"], dict):
                raise BadDealError(f"reset option 'deal' must be a deal dict in the game's deal notation, got "
                                   f"{opts['deal']!r}; leave the option out for a random deal")
            state = self.game.new_initial_state(deal=opts["deal"])
        else:
            if "deal_id" in opts:
                deal_id = to_int64(opts["deal_id"], "deal_id")
            else:
                deal_id = next_deal
                next_deal += 1
            state = self.game.new_initial_state(seed=base_seed, deal_id=deal_id)
        self._state, self._base_seed, self._next_deal = state, base_seed, next_deal
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": ..., "action_mask": ...}`` of ``agent`` (zero mask unless it is to move)."""
        if self._state is None:
            raise ResetNeededError("call reset() before observe()")
        if agent not in self.agent_name_mapping:
            raise KeyError(f"unknown agent {agent!r}; agents: {self.possible_agents}")
        p = self.agent_name_mapping[agent]
        s = self._state
        obs = self._bounds.apply(s.observation(p))
        if s.current_player() == p:
            mask = s.legal_action_mask().astype(np.int8)
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for agents that are done)."""
        if self._state is None:
            raise ResetNeededError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        s = self._state
        a = check_action(self, action)
        p = self.agent_name_mapping[agent]
        if s.current_player() != p:  # pragma: no cover - agent_selection always follows the state
            raise IllegalActionError(f"{agent} is not to move")
        s.apply_action(a)  # IllegalActionError naming the legal actions, state unchanged
        self._cumulative_rewards[agent] = 0.0
        if s.is_terminal():
            ret = s.returns()
            self.rewards = {x: float(ret[self.agent_name_mapping[x]]) * self.reward_scale for x in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {x: {"returns": ret.copy()} for x in self.agents}
            nxt = self.possible_agents[(p + 1) % self.game.num_players]
            self.agent_selection = nxt if nxt in self.agents else self.agents[0]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[s.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True):
        """``(observation, reward, termination, truncation, info)`` of ``agent_selection``."""
        if self._state is None:
            raise ResetNeededError("call reset() before last()")
        return super().last(observe)

    def render(self) -> str | None:
        """The table as text (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with render_mode='ansi'")
            return None
        text = "(no deal yet)" if self._state is None else str(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return self.metadata["name"]


def check_action(env: Any, action: Any) -> int:
    """``action`` as an int if it is an action id of ``env``'s game, else ``IllegalActionError`` naming the value,
    the agent and its legal actions."""
    raw = env.unwrapped
    try:
        return as_action(action, raw.game.num_actions)
    except IllegalActionError as err:
        agent = raw.agent_selection
        state = raw._state
        legal = state.legal_actions() if state is not None and not state.is_terminal() else []
        raise IllegalActionError(f"{agent}: {err}; legal actions: {legal}") from None


class ActionCheckWrapper(wrappers.BaseWrapper):
    """PettingZoo's out-of-bounds check with a useful error: ``IllegalActionError`` naming the value and the legal
    actions (instead of a bare ``AssertionError``). ``None`` is accepted for an agent that is done."""

    def step(self, action: Any) -> None:
        """Check ``action``, then step the wrapped env."""
        raw = self.unwrapped
        if raw._state is None:
            raise ResetNeededError("call reset() before step()")
        agent = raw.agent_selection
        if not (action is None and (raw.terminations[agent] or raw.truncations[agent])):
            action = check_action(raw, action)
        super().step(action)


def raw_env(game: Any = "dreierles", **kwargs: Any) -> TarockAECEnv:
    """The unwrapped AEC env."""
    return TarockAECEnv(game, **kwargs)


def env(game: Any = "dreierles", illegal_action: str = "lose", illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        **kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's usual wrappers (out-of-bounds assertion, call-order enforcement).

    ``illegal_action="lose"`` (the default, PettingZoo's convention) adds ``TerminateIllegalWrapper``: an illegal
    action ends the deal, the offender gets ``illegal_reward`` (times ``reward_scale``), the others 0, and
    PettingZoo logs one warning; ``illegal_action="raise"`` raises ``IllegalActionError`` (strict mode).
    """
    mode, reward, _ = check_illegal(illegal_action, illegal_reward, 1.0)
    e: AECEnv = raw_env(game, **kwargs)
    if mode == "lose":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=reward * e.reward_scale)
    e = ActionCheckWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)

