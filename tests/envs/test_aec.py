"""The PettingZoo AEC adapter, for every registered game."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import tarockrl
from tarockrl.envs.bounds import observation_bounds
from tarockrl.errors import IllegalActionError
from tests.envs.helpers import GAMES

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tarockrl.envs import aec_env, raw_aec_env  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_api_test_and_seed_test(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env(game), num_cycles=200)
        api_test(aec_env(game, illegal_action="lose"), num_cycles=50)
        seed_test(lambda: aec_env(game), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_observations_masks_and_rewards_follow_the_engine(game):
    env = raw_aec_env(game)
    g = env.game
    env.reset(seed=3, options={"deal_id": 2})
    state = g.new_initial_state(seed=3, deal_id=2)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        p = env.agent_name_mapping[agent]
        np.testing.assert_array_equal(obs["observation"], observation_bounds(g).apply(state.observation(p)))
        assert obs["action_mask"].dtype == np.int8
        if termination:
            assert reward == state.returns()[p]
            env.step(None)
            continue
        assert state.current_player() == p
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), state.legal_action_mask())
        for other in env.agents:  # zero masks for the agents not to move
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        a = int(np.flatnonzero(obs["action_mask"])[-1])
        env.step(a)
        state.apply_action(a)
    assert state.is_terminal() and not env.agents


def test_illegal_actions_and_fixed_deals():
    env = raw_aec_env("dreierles", render_mode="ansi")
    env.reset(seed=1)
    deal = env.state_object.deal()
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError, match="legal actions"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(IllegalActionError):
        env.step(-1)
    env.reset(options={"deal": deal})
    assert env.state_object.deal() == deal
    assert "hand" in env.render()
    with warnings.catch_warnings():  # unknown options are ignored silently (PettingZoo's api_test passes some)
        warnings.simplefilter("error")
        env.reset(options={"dael": 1})
    with pytest.raises(ValueError, match="not both"):
        env.reset(options={"deal": deal, "deal_id": 1})
    with pytest.raises(tarockrl.BadOptionError):
        raw_aec_env("dreierles", nope=1)


def test_missing_pettingzoo_gives_a_clear_message():
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "import tarockrl.envs\n"
        "try:\n"
        "    tarockrl.envs.aec_env('dreierles')\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "pip install 'tarockrl[pettingzoo]'" in out.stdout, out.stderr
