"""``tarockrl.envs.sb3_vec_env``: an SB3 VecEnv over the vector env, with masks MaskablePPO uses (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")

from tarockrl.envs import sb3_vec_env  # noqa: E402
from tests.envs.helpers import GAMES  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_steps_follow_the_engine_and_sb3_conventions(game):
    venv = sb3_vec_env(game, num_envs=8, seat="random", reward_scale="auto", illegal_action="raise")
    venv.seed(3)
    obs = venv.reset()
    assert obs.shape == (8, venv.observation_space.shape[0]) and venv.observation_space.contains(obs[0])
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    assert is_masking_supported(venv)
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = get_action_masks(venv)
        assert masks.shape == (8, venv.action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rew, dones, infos = venv.step(actions)
        assert rew.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == 8
        for i in np.flatnonzero(dones):
            assert venv.observation_space.contains(infos[i]["terminal_observation"])
            assert abs(infos[i]["returns"].sum()) < 1e-6
            finished += 1
        assert not np.isnan(obs).any() and all(venv.observation_space.contains(o) for o in obs)
    assert finished > 0
    venv.close()


def test_maskable_ppo_learns_through_it_with_legal_actions_only():
    venv = sb3_vec_env("dreierles", num_envs=16, seat="random", reward_scale="auto", illegal_action="raise")
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)  # an illegal action would raise IllegalActionError
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
    assert venv.action_masks()[np.arange(16), actions].all()
