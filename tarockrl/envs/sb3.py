"""Stable-Baselines3 ``VecEnv`` backed by tarockrl's vector env (optional extra: ``pip install 'tarockrl[sb3]'``).

::

    from sb3_contrib import MaskablePPO
    from tarockrl.envs import sb3_vec_env

    venv = sb3_vec_env("dreierles", num_envs=64, seat="random", reward_scale="auto")
    model = MaskablePPO("MlpPolicy", venv, n_steps=64).learn(20_000)

SB3 would otherwise wrap ``gymnasium.make`` envs one by one in its ``DummyVecEnv`` (a Python loop per sub-env);
here one numba call steps every sub-env. ``env_method("action_masks")`` returns every sub-env's mask in one call,
which is what sb3-contrib's ``get_action_masks`` (and so ``MaskablePPO``) uses. Observations are squashed and
bounded as in ``gymnasium.make`` (:mod:`tarockrl.envs.bounds`); finished episodes reset in the same step with the
final observation in ``infos[i]["terminal_observation"]`` (SB3's convention) and the settlement in
``infos[i]["returns"]``. ``illegal_action="lose"`` is the default, as for the single env.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from tarockrl.envs.bounds import observation_bounds
from tarockrl.envs.common import DEFAULT_ILLEGAL_REWARD, observation_space, resolve_game, resolve_reward_scale

__all__ = ["TarockSB3VecEnv", "sb3_vec_env"]


class TarockSB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over :class:`tarockrl.envs.TarockVectorEnv` (module docstring: the details).

    Args:
        game: a game name or a :class:`tarockrl.Game`.
        num_envs: number of sub-envs.
        reward_scale: a number or ``"auto"`` (as in the single env).
        illegal_action: ``"lose"`` (default) or ``"raise"``.
        **kwargs: passed to the vector env (``seat``, ``opponents``, ``illegal_reward``, ``num_threads`` and the
            rules options).
    """

    def __init__(self, game: Any = "dreierles", num_envs: int = 64, reward_scale: float | str = 1.0,
                 illegal_action: str = "lose", illegal_reward: float = DEFAULT_ILLEGAL_REWARD, **kwargs: Any) -> None:
        """Create the vector env and its SB3 view."""
        from tarockrl.envs.vector import TarockVectorEnv

        rules = {k: v for k, v in kwargs.items() if k not in ("seat", "opponents", "num_threads")}
        g = resolve_game(game, rules)
        rest = {k: v for k, v in kwargs.items() if k in ("seat", "opponents", "num_threads")}
        self.venv = TarockVectorEnv(g, num_envs=num_envs, reward_scale=resolve_reward_scale(reward_scale, g),
                                    illegal_action=illegal_action, illegal_reward=illegal_reward,
                                    final_observation=True, copy=False, **rest)
        self.game = g
        self._bounds = observation_bounds(g)
        super().__init__(num_envs, observation_space(g, bounded=True), self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._seed: int | None = None
        self._mask = np.zeros((num_envs, g.num_actions), dtype=np.bool_)

    def _obs(self, obs: np.ndarray) -> np.ndarray:
        return self._bounds.apply(np.array(obs, dtype=np.float32, copy=True))

    def reset(self) -> np.ndarray:
        """Reset every sub-env (with the seed of :meth:`seed`, if one was given); returns the observations."""
        obs, info = self.venv.reset(seed=self._seed)
        self._seed = None
        self._mask = info["action_mask"].astype(np.bool_)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._obs(obs)

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the actions (the step runs in :meth:`step_wait`)."""
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self):
        """Step every sub-env: ``(obs, rewards, dones, infos)`` with SB3's autoreset conventions."""
        obs, rew, term, trunc, info = self.venv.step(self._actions)
        self._mask = info["action_mask"].astype(np.bool_)
        dones = np.logical_or(term, trunc)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info.get("final_obs")
            returns = info.get("returns")
            for i in np.flatnonzero(dones):
                d = infos[i]
                d["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
                if final is not None:
                    d["terminal_observation"] = self._obs(final[i])
                if returns is not None:
                    d["returns"] = np.array(returns[i], dtype=np.float64)
        return self._obs(obs), np.array(rew, dtype=np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, num_actions]: every sub-env's legal actions now."""
        return self._mask.copy()

    def close(self) -> None:
        """Close the vector env."""
        self.venv.close()

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed the next :meth:`reset` (deal stream ``seed``)."""
        self._seed = seed
        return [seed] * self.num_envs

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """``action_masks`` per sub-env, else the vector env's attribute for every index."""
        idx = self._get_indices(indices)
        if attr_name == "action_masks":
            return [self.action_masks] * len(list(idx))
        value = getattr(self.venv, attr_name)
        return [value for _ in idx]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the vector env (shared by every sub-env)."""
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list:
        """``env_method("action_masks")``: one mask row per sub-env (one call for all); other methods are called
        on the vector env once and its result repeated."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            m = self.action_masks()
            return [m[i] for i in idx]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No sub-env is wrapped."""
        return [False for _ in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """True for ``action_masks`` and the vector env's attributes."""
        return attr_name == "action_masks" or hasattr(self.venv, attr_name)

    def get_images(self) -> list:
        """No images (text rendering only)."""
        return []


def sb3_vec_env(game: Any = "dreierles", num_envs: int = 64, **kwargs: Any) -> TarockSB3VecEnv:
    """An SB3 ``VecEnv`` of ``num_envs`` sub-envs of ``game`` stepped by tarockrl's vector env (see the module)."""
    return TarockSB3VecEnv(game, num_envs=num_envs, **kwargs)
