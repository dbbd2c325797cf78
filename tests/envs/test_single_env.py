"""The single-agent Gymnasium env, for every registered game."""

from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tarockrl
from tarockrl.envs import ResetNeededError, TarockEnv, env_class, env_id
from tarockrl.envs.bounds import observation_bounds
from tarockrl.errors import BadDealError, BadOptionError, IllegalActionError
from tests.envs.helpers import GAMES, FirstLegal, pick, play_single


def make(game, **kwargs):
    return gymnasium.make(env_id(game), **kwargs)


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes(game):
    env = make(game, illegal_action="lose")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity.*")
        check_env(env.unwrapped, skip_render_check=False)


def test_every_game_is_registered_and_registration_is_idempotent():
    ids = tarockrl.envs.register_envs()
    assert ids == tarockrl.envs.register_envs()
    for game in GAMES:
        gid = env_id(game)
        assert gid in ids and gid in gymnasium.registry
        assert gid == f"tarockrl/{tarockrl.games.game_definition(game).display_name}-v0"


@pytest.mark.parametrize("game", GAMES)
def test_docstring_is_the_documentation_page(game):
    cls = env_class(game)
    doc = cls.__doc__
    g = tarockrl.make_game(game)
    for heading in ("Action space", "Observation space", "Rewards", "Episode end", "Arguments", "Version history"):
        assert heading in doc
    assert f"Discrete({g.num_actions})" in doc and env_id(game) in doc
    assert g.action_to_string(g.num_actions - 1).split()[0] in doc
    assert isinstance(make(game).unwrapped, cls)
    assert "Autoreset" in tarockrl.envs.vector_env_class(game).__doc__


@pytest.mark.parametrize("game", GAMES)
def test_observations_masks_and_rewards_agree_with_the_engine(game):
    env = make(game, seat="random").unwrapped
    g = env.game
    for episode in range(3):
        obs, info = env.reset(seed=11 if episode == 0 else None)
        seat = info["seat"]
        assert obs.dtype == np.float32 and obs.shape == (g.observation_size,)
        while True:
            state = env.state
            assert state.current_player() == seat
            np.testing.assert_array_equal(obs, observation_bounds(g).apply(state.observation(seat)))
            mask = info["action_mask"]
            assert mask.dtype == np.int8
            # the three mask sources agree: info, action_masks(), the engine
            np.testing.assert_array_equal(mask.astype(bool), env.action_masks())
            np.testing.assert_array_equal(mask.astype(bool), state.legal_action_mask())
            assert env.legal_actions() == state.legal_actions()
            obs, reward, terminated, truncated, info = env.step(pick(obs, mask))
            if terminated:
                state = env.state
                assert state.is_terminal()
                np.testing.assert_array_equal(info["returns"], state.returns())
                assert reward == state.returns()[seat]
                assert abs(info["returns"].sum()) < 1e-9
                assert not info["action_mask"].any() and not env.action_masks().any()
                np.testing.assert_array_equal(obs, observation_bounds(g).apply(state.observation(seat)))
                break
            assert reward == 0.0


@pytest.mark.parametrize("game", GAMES)
def test_env_equals_a_plain_loop_over_the_state_api(game):
    """Python opponents (first legal action) and the learner's policy, replayed through State."""
    agent = FirstLegal()
    g = tarockrl.make_game(game)
    for seat in range(g.num_players):
        env = make(game, seat=seat, opponents=agent).unwrapped
        steps = play_single(env, seed=5, options={"deal_id": 3 + seat})
        state = g.new_initial_state(seed=5, deal_id=3 + seat)
        k = 0
        while not state.is_terminal():
            p = state.current_player()
            if p == seat:
                obs, mask = steps[k][0], steps[k][1]
                np.testing.assert_array_equal(obs, observation_bounds(g).apply(state.observation(seat)))
                np.testing.assert_array_equal(mask.astype(bool), state.legal_action_mask())
                state.apply_action(pick(obs, mask))
                k += 1
            else:
                state.apply_action(state.legal_actions()[0])
        assert k == len(steps) - 1
        assert steps[-1][2] == state.returns()[seat] and steps[-1][3]
        np.testing.assert_array_equal(steps[-1][4]["returns"], state.returns())
    assert agent.calls > 0 and agent.resets  # reset(seed=...) is called per episode


@pytest.mark.parametrize("game", GAMES)
def test_random_opponents_play_legal_replayable_games(game):
    env = make(game, seat=0).unwrapped
    g = env.game
    for deal_id in range(3):
        steps = play_single(env, seed=3, options={"deal_id": deal_id})
        final = env.state
        replay = g.new_initial_state(seed=3, deal_id=deal_id)
        for a in final.history():
            replay.apply_action(a)  # raises if an opponent had played an illegal action
        np.testing.assert_array_equal(replay.returns(), steps[-1][4]["returns"])


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_trajectory(game):
    a = make(game, seat="random").unwrapped
    b = make(game, seat="random").unwrapped
    for seed in (0, 1):
        for _ in range(2):
            ta, tb = play_single(a, seed=seed), play_single(b, seed=seed)
            assert len(ta) == len(tb)
            for x, y in zip(ta, tb):
                np.testing.assert_array_equal(x[0], y[0])
                np.testing.assert_array_equal(x[1], y[1])
                assert x[2] == y[2] and x[3] == y[3]
            seed = None  # the next episode of the same stream
    # the deal stream: reset(seed=s) then reset() is deal 1 of s
    play_single(a, seed=9)
    second = play_single(a)
    again = play_single(b, seed=9, options={"deal_id": 1})
    assert second[-1][2] == again[-1][2] and len(second) == len(again)


def test_fixed_deals_and_seats_dreierles():
    env = make("dreierles", seat=1).unwrapped
    obs1, info1 = env.reset(seed=4, options={"deal_id": 7})
    deal = env.state.deal()
    assert info1["deal_id"] == 7 and info1["seat"] == 1
    obs2, info2 = env.reset(options={"deal": deal})
    assert info2["deal_id"] == -1 and env.state.deal() == deal
    obs3, info3 = env.reset(seed=4, options={"deal_id": 7, "seat": 2})
    assert info3["seat"] == 2 and env.state.current_player() == 2
    env.reset(seed=4)
    assert env.seat == 1 and env.deal_id == 0


def test_reward_scale_and_info_returns():
    a = make("dreierles", reward_scale=0.5).unwrapped
    b = make("dreierles").unwrapped
    ta, tb = play_single(a, seed=2), play_single(b, seed=2)
    assert ta[-1][2] == 0.5 * tb[-1][2]
    np.testing.assert_array_equal(ta[-1][4]["returns"], tb[-1][4]["returns"])


@pytest.mark.parametrize("game", GAMES)
def test_pickling_round_trips_mid_episode(game):
    env = make(game, seat=1).unwrapped
    obs, info = env.reset(seed=8)
    obs, *_ = env.step(pick(obs, info["action_mask"]))
    info = env._last_info
    clone = pickle.loads(pickle.dumps(env))
    assert clone.game == env.game and isinstance(clone, type(env))
    o1, m1, o2, m2 = obs, info["action_mask"], obs.copy(), info["action_mask"].copy()
    while True:
        o1, r1, t1, _, i1 = env.step(pick(o1, m1))
        o2, r2, t2, _, i2 = clone.step(pick(o2, m2))
        m1, m2 = i1["action_mask"], i2["action_mask"]
        np.testing.assert_array_equal(o1, o2)
        assert (r1, t1) == (r2, t2)
        if t1:
            break
    # a fresh env pickles too, and a gymnasium.make'd one
    pickle.loads(pickle.dumps(make(game)))


def test_render_ansi_shows_the_table():
    env = make("dreierles", render_mode="ansi", seat=0)
    env.reset(seed=1)
    text = env.render()
    assert "learning seat 0" in text and "legal:" in text and "hand" in text
    mask = env.unwrapped.action_masks()
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert "result (game points)" in env.render()
    assert mask.dtype == np.bool_
    with pytest.warns(UserWarning, match="render_mode"):
        assert make("dreierles").unwrapped.render() is None


# -- bad inputs -------------------------------------------------------------------------------------------------
def test_step_before_reset_and_after_the_end():
    raw = TarockEnv("dreierles")
    with pytest.raises(ResetNeededError, match="reset"):
        raw.step(0)
    with pytest.raises(gymnasium.error.ResetNeeded):  # through gymnasium.make's order enforcing too
        make("dreierles").step(0)
    play_single(raw, seed=1)
    with pytest.raises(ResetNeededError, match="over"):
        raw.step(0)
    assert isinstance(ResetNeededError("x"), gymnasium.error.ResetNeeded)


def test_illegal_action_raise_leaves_the_env_unchanged():
    env = make("dreierles", illegal_action="raise").unwrapped
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_bytes()
    with pytest.raises(IllegalActionError, match=r"not legal for the learning seat 0; legal actions: 0 \(PASS\)"):
        env.step(illegal)
    for bad in (-1, 117, 10**9, 1.5, "0", None, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.state.to_bytes() == before
    obs2, *_ = env.step(np.int64(int(np.flatnonzero(info["action_mask"])[0])))  # numpy ints are fine
    assert obs2.shape == obs.shape


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_lose_ends_the_episode(game):
    env = make(game, illegal_action="lose", illegal_reward=-7, reward_scale=2.0).unwrapped
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated) == (-14.0, True, False)
    assert info2["illegal_action"] == illegal and not info2["action_mask"].any()
    np.testing.assert_array_equal(obs, obs2)
    with pytest.raises(ResetNeededError):
        env.step(0)
    env.reset()
    assert env.step(10**6)[2] is True  # out of range loses too


def test_bad_arguments_and_options_have_clear_errors():
    with pytest.raises(BadOptionError, match="unknown dreierles option"):
        make("dreierles", no_such_rule=1)
    with pytest.raises(ValueError, match="seat must be"):
        TarockEnv("dreierles", seat=3)
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        TarockEnv("dreierles", illegal_action="ignore")
    with pytest.raises(ValueError, match="opponents"):
        TarockEnv("dreierles", opponents=[None] * 4)
    with pytest.raises(TypeError, match="act"):
        TarockEnv("dreierles", opponents=42)
    with pytest.raises(ValueError, match="render_mode"):
        TarockEnv("dreierles", render_mode="rgb_array")
    with pytest.raises(tarockrl.WrongGameError, match="unknown game"):
        TarockEnv("skat")
    with pytest.raises(TypeError, match="rules options"):
        TarockEnv(tarockrl.make_game("dreierles"), allow_reknock=False)
    env = TarockEnv("dreierles")
    with pytest.raises(ValueError, match=r"unknown reset option\(s\) \['dael'\]; allowed"):
        env.reset(options={"dael": {}})
    with pytest.raises(ValueError, match="not both"):
        env.reset(options={"deal": {}, "deal_id": 1})
    with pytest.raises(BadDealError):
        env.reset(options={"deal": {"dealer": 0}})
    with pytest.raises(ValueError, match="seat must be"):
        env.reset(options={"seat": "random"})
    with pytest.raises(TypeError, match="deal_id must be an integer"):
        env.reset(options={"deal_id": 1.5})


def test_opponent_forms_and_a_bad_opponent():
    g = tarockrl.make_game("dreierles")
    agent = FirstLegal()
    # a list by absolute seat, a dict, a relative list, a plain function
    for spec in ([None, agent, "random"], {1: agent}, [agent, None], lambda o, m: int(np.flatnonzero(m)[0])):
        env = TarockEnv(g, seat=0, opponents=spec)
        play_single(env, seed=1)
    assert TarockEnv(g, seat=0, opponents={1: agent}).opponents.kinds.tolist() == [0, 0, 1]

    def cheat(obs, mask):
        return int(np.flatnonzero(mask == 0)[0])

    env = TarockEnv(g, seat=0, opponents=cheat)
    with pytest.raises(IllegalActionError, match="opponent agent"):
        play_single(env, seed=1)
    with pytest.raises(ResetNeededError, match="interrupted"):
        env.step(0)


def test_dreierles_rules_options_pass_through():
    env = make("dreierles", last_round_raeuber_or_solo=True).unwrapped
    obs, info = env.reset(seed=0)
    assert env.game.rules.last_round_raeuber_or_solo
    assert set(np.flatnonzero(info["action_mask"]).tolist()) <= {0, 4}  # only PASS or SOLO may be bid


def test_jit_off_gives_the_same_episode():
    """The generated drivers also run as plain Python (NUMBA_DISABLE_JIT=1), with identical results."""
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np, tarockrl\n"
        "from tarockrl.envs import TarockEnv\n"
        "e = TarockEnv('dreierles', seat='random')\n"
        "o, i = e.reset(seed=3)\n"
        "out = [float(o.sum())]\n"
        "d = False\n"
        "while not d:\n"
        "    o, r, d, _, i = e.step(int(np.flatnonzero(i['action_mask'])[-1]))\n"
        "    out.append(float(o.sum()) + r)\n"
        "print(out)\n"
    )
    results = []
    for jit_off in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit_off)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        results.append(proc.stdout)
    assert results[0] == results[1]


def test_a_broken_game_module_does_not_break_registration(monkeypatch):
    from tarockrl import games

    monkeypatch.setitem(games._MODULES, "zzbroken", "tarockrl.games.zz_no_such_module")
    with pytest.warns(UserWarning, match="zzbroken"):
        ids = tarockrl.envs.register_envs()
    assert env_id("dreierles") in ids


def test_sync_vectorization_of_the_single_env_works_too():
    envs = gymnasium.make_vec(env_id("dreierles"), num_envs=2, vectorization_mode="sync", seat=1)
    obs, info = envs.reset(seed=0)
    obs, rewards, term, trunc, info = envs.step(np.argmax(info["action_mask"], axis=1))
    assert obs.shape[0] == 2


def test_action_masks_reachable_through_gymnasium_wrappers():
    """What sb3-contrib's MaskablePPO does through SB3's DummyVecEnv (env_method -> get_wrapper_attr)."""
    env = make("dreierles")
    obs, info = env.reset(seed=0)
    masks = env.get_wrapper_attr("action_masks")()
    np.testing.assert_array_equal(masks, info["action_mask"].astype(bool))
    assert env.has_wrapper_attr("action_masks")
