"""The ecosystem's checkers pass on every game with the default arguments (issue 15, item 1)."""

from __future__ import annotations

import logging
import warnings

import gymnasium
import numpy as np
import pytest

import tarockrl
from tarockrl.envs.bounds import observation_bounds
from tarockrl.envs.common import env_id
from tarockrl.errors import IllegalActionError

GAMES = tarockrl.list_games()


def _tarockrl_warnings(caught: list) -> list:
    return [w for w in caught if "tarockrl" in str(w.filename) or "tarockrl" in str(w.message)]


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_and_sb3_check_env(name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make(env_id(name))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
        sb3_checker.check_env(env.unwrapped, warn=True)
        sb3_checker.check_env(env, warn=True)  # through gymnasium.make's wrappers too
    assert not _tarockrl_warnings(caught), [str(w.message) for w in caught]
    assert not [w for w in caught if "bound" in str(w.message).lower()], [str(w.message) for w in caught]
    assert np.isfinite(env.observation_space.low).all() and np.isfinite(env.observation_space.high).all()
    # action masks through gymnasium.make's wrappers
    assert env.get_wrapper_attr("action_masks")().dtype == np.bool_
    assert env.unwrapped.action_masks().shape == (env.action_space.n,)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test(name: str) -> None:
    from pettingzoo.test import api_test

    from tarockrl.envs import aec_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(name), num_cycles=30)
    assert not _tarockrl_warnings(caught), [str(w.message) for w in caught]


def test_illegal_action_default_ends_episode_once_warned(caplog: pytest.LogCaptureFixture) -> None:
    env = gymnasium.make(env_id("dreierles"))
    caplog.set_level(logging.WARNING, logger="tarockrl")
    for _ in range(2):
        obs, info = env.reset(seed=1)
        bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
        obs, reward, term, trunc, info = env.step(bad)
        assert term and not trunc and reward == -100.0 and info["illegal_action"] == bad
        assert env.observation_space.contains(obs)
    assert len([r for r in caplog.records if "illegal action" in r.getMessage()]) == 1
    strict = gymnasium.make(env_id("dreierles"), illegal_action="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


@pytest.mark.parametrize("name", GAMES)
def test_observations_within_bounds(name: str) -> None:
    """Every seat's observation of random-play states, squashed, lies in the declared bounds."""
    g = tarockrl.make_game(name)
    b = observation_bounds(g)
    rng = np.random.default_rng(0)
    for d in range(40):
        s = g.new_initial_state(seed=3, deal_id=d)
        while True:
            for p in range(g.num_players):
                o = b.apply(s.observation(p).astype(np.float32))
                assert (o >= b.low).all() and (o <= b.high).all(), np.flatnonzero((o < b.low) | (o > b.high))
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])
    huge = b.apply(np.full((2, g.observation_size), -1e30, np.float32))
    assert b.squashed.size and (np.abs(huge[:, b.squashed]) <= 1.0).all()
