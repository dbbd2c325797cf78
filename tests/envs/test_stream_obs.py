"""Streamed observation codes (issue 9): a game with large observations (Troccas) writes the vector env's integer
codes by streaming stores from a scratch row; the bytes must be exactly the codes of the engine's observation."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.envs._bind import _STREAM_OBS, drivers
from tarockrl.envs.vector import TarockVectorEnv
from tarockrl.games.api import State
from tarockrl.games.obs_dtype import dtype_range, observation_codes


@pytest.mark.parametrize("name", tarockrl.list_games())
def test_only_large_observations_are_streamed(name):
    game = tarockrl.make_game(name)
    k = drivers(game)  # importing the generated module compiles nothing
    assert k.STREAM_OBS == (game.observation_size >= _STREAM_OBS)
    assert k.STREAM_OBS == (name == "troccas")


def _codes_of_rows(env, seats):
    """The uint8 codes of each sub-env's engine observation for ``seats``, computed row by row from the state."""
    game = env.game
    den, off = observation_codes(game, np.uint8)
    lo, hi = dtype_range(np.uint8)
    floats = np.stack([State(game, env.rows[i].copy()).observation(int(seats[i])) for i in range(env.num_envs)])
    return np.clip(np.rint(floats.astype(np.float64) * den + off), lo, hi).astype(np.uint8)


@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step"])
def test_streamed_troccas_codes_are_the_engine_codes(autoreset_mode):
    env = TarockVectorEnv("troccas", num_envs=40, obs_dtype="uint8", seat="random", autoreset_mode=autoreset_mode,
                          final_observation=True)
    assert env._k.STREAM_OBS
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(4)
    done = 0
    for _ in range(60):
        np.testing.assert_array_equal(obs, _codes_of_rows(env, env.seats))
        # a sub-env whose episode is over (next_step) has no legal action: it ignores its action and deals again
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, _, term, _, info = env.step(acts)
        done += int(term.sum())
    assert done > 0  # episodes ended (and new deals began) inside the compared steps
