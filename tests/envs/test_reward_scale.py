"""``reward_scale="auto"``: per-game scales from the random-play settlement spread (issue 15, item 2)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import tarockrl
from tarockrl.envs.common import AUTO_REWARD_SCALE_STD, env_id


def test_auto_scales_are_one_over_the_documented_std() -> None:
    assert set(AUTO_REWARD_SCALE_STD) == set(tarockrl.list_games())
    for name, std in AUTO_REWARD_SCALE_STD.items():
        env = gymnasium.make(env_id(name), reward_scale="auto").unwrapped
        assert env.reward_scale == pytest.approx(1.0 / std)
        assert f"{std:g}" in type(env).__doc__
    from tarockrl.envs import aec_env

    assert aec_env("troccas", reward_scale="auto").unwrapped.reward_scale == pytest.approx(1 / 10.7)
    with pytest.raises(ValueError, match="'auto'"):
        gymnasium.make(env_id("dreierles"), reward_scale="big")


def test_auto_scale_matches_a_fresh_measurement() -> None:
    """The table agrees with random play (a smaller sample than the documented 20,000 deals: within 10%)."""
    for name, std in AUTO_REWARD_SCALE_STD.items():
        r = tarockrl.make_game(name).random_playouts(3000, seed=1)
        assert abs(float(r.std()) / std - 1.0) < 0.10, (name, float(r.std()))


def test_auto_scaled_reward_is_the_scaled_settlement() -> None:
    env = gymnasium.make(env_id("dreiertarock"), reward_scale="auto")
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == pytest.approx(info["returns"][env.unwrapped.seat] / 5189.0)
