"""The batched vector env, for every registered game: it must equal the single env game by game."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import tarockrl
from tarockrl.envs import ResetNeededError, TarockEnv, TarockVectorEnv, env_id
from tarockrl.envs.bounds import observation_bounds
from tarockrl.errors import BadOptionError, IllegalActionError
from tests.envs.helpers import GAMES, BatchedLast, pick, pick_batch


def make_vec(game, num_envs, **kwargs):
    return gymnasium.make_vec(env_id(game), num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)


class SingleEpisodes(dict):
    """Episodes of the single env by deal id (computed on first use): lists of (obs, mask, reward, terminated)."""

    def __init__(self, game, seed, seat, **kwargs):
        super().__init__()
        self.env = TarockEnv(game, seat=seat, **kwargs)
        self.seed = seed

    def __missing__(self, d):
        obs, info = self.env.reset(seed=self.seed, options={"deal_id": int(d)})
        steps = [(obs, info["action_mask"], 0.0, False)]
        done = False
        while not done:
            obs, reward, done, _, info = self.env.step(pick(obs, info["action_mask"]))
            steps.append((obs, info["action_mask"], reward, done))
        self[d] = steps
        return steps


def compare_with_single(envs, game, n, seed, seat, num_steps, **single_kwargs):
    """Step ``envs`` with :func:`pick` and check every sub-env against the single env on the same deals."""
    obs, info = envs.reset(seed=seed)
    # sub-env i, episode k plays deal i + k * n; the single env replays those deals
    expected = SingleEpisodes(game, seed, seat, **single_kwargs)
    # both envs squash the unbounded fields (tarockrl/envs/bounds.py): the vector env's rows equal the single env's
    assert observation_bounds(expected.env.game).squashed.size >= 0

    def sq(x):
        return np.array(x, dtype=np.float32, copy=True)

    pos = {i: (i, 0) for i in range(n)}  # sub-env -> (deal id, step index)
    for i in range(n):
        np.testing.assert_array_equal(sq(obs[i]), expected[i][0][0])
        np.testing.assert_array_equal(info["action_mask"][i], expected[i][0][1])
    finished = 0
    for _ in range(num_steps):
        obs, rewards, term, trunc, info = envs.step(pick_batch(sq(obs), info["action_mask"]))  # as the single env
        assert not trunc.any()
        for i in range(n):
            d, t = pos[i]
            t += 1
            ref = expected[d][t]
            assert rewards[i] == ref[2] and term[i] == ref[3]
            if term[i]:
                finished += 1
                np.testing.assert_array_equal(sq(info["final_obs"][i]), ref[0])
                assert info["_final_obs"][i] and info["_returns"][i]
                assert abs(info["returns"][i].sum()) < 1e-9
                d, t = d + n, 0
                ref = expected[d][0]
            np.testing.assert_array_equal(sq(obs[i]), ref[0])
            np.testing.assert_array_equal(info["action_mask"][i], ref[1])
            pos[i] = (d, t)
        np.testing.assert_array_equal(envs.unwrapped.deal_ids, [pos[i][0] for i in range(n)])
    assert finished > 0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seat", [0, "random"])
def test_vector_env_equals_the_single_env_game_by_game(game, seat):
    envs = make_vec(game, 5, seat=seat)
    assert isinstance(envs.unwrapped, TarockVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    compare_with_single(envs, game, 5, 21, seat, 70)


@pytest.mark.parametrize("game", GAMES)
def test_python_opponents_in_the_vector_env_equal_the_single_env(game):
    agent = BatchedLast()
    envs = TarockVectorEnv(game, num_envs=4, seat=1, opponents=agent)
    compare_with_single(envs, game, 4, 7, 1, 50, opponents=BatchedLast())
    assert agent.batches > 0


@pytest.mark.parametrize("game", GAMES)
def test_next_step_and_disabled_autoreset(game):
    n, seed = 4, 3
    same = make_vec(game, n, seat=1)
    nxt = make_vec(game, n, seat=1, autoreset_mode="next_step")
    off = make_vec(game, n, seat=1, autoreset_mode=AutoresetMode.DISABLED)
    assert nxt.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    o_s, i_s = same.reset(seed=seed)
    o_n, i_n = nxt.reset(seed=seed)
    o_d, i_d = off.reset(seed=seed)
    pending = np.zeros(n, dtype=bool)
    for _ in range(60):
        a = pick_batch(o_s, i_s["action_mask"])
        o_s, r_s, t_s, _, i_s = same.step(a)
        a_n = pick_batch(o_n, np.maximum(i_n["action_mask"], 1 - i_n["action_mask"].any(1, keepdims=True)))
        was_pending = pending.copy()
        o_n, r_n, t_n, _, i_n = nxt.step(np.where(was_pending, 0, a_n))
        # a pending sub-env restarts with reward 0; the others match the same-step env's reward and end flag
        assert (r_n[was_pending] == 0).all() and not t_n[was_pending].any()
        pending = t_n.copy()
        for i in np.flatnonzero(t_n):
            assert not i_n["action_mask"][i].any()  # the final observation, nothing to play
        if off.unwrapped._ctrl[:, off.unwrapped._k.C_NEEDS_RESET].any():
            with pytest.raises(ResetNeededError, match="reset_mask"):
                off.step(np.zeros(n, dtype=np.int64))
            mask = off.unwrapped._ctrl[:, off.unwrapped._k.C_NEEDS_RESET].astype(bool)
            o_d, i_d = off.reset(options={"reset_mask": mask})
        o_d, r_d, t_d, _, i_d = off.step(pick_batch(o_d, i_d["action_mask"]))


@pytest.mark.parametrize("game", GAMES)
def test_illegal_actions_in_the_vector_env(game):
    n = 6
    envs = make_vec(game, n, copy=True).unwrapped
    obs, info = envs.reset(seed=1)
    rows_before = envs.rows.copy()
    actions = pick_batch(obs, info["action_mask"])
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match="sub-env 2.*no sub-env was changed"):
        envs.step(bad)
    np.testing.assert_array_equal(envs.rows, rows_before)
    for wrong in (actions[:-1], actions.astype(np.float32), "x"):
        with pytest.raises(IllegalActionError, match="integer array of shape"):
            envs.step(wrong)
    envs.step(actions)  # still usable
    lose = make_vec(game, n, illegal_action="lose", illegal_reward=-3).unwrapped
    obs, info = lose.reset(seed=1)
    bad = pick_batch(obs, info["action_mask"])
    bad[4] = 10**6
    obs, rewards, term, _, info = lose.step(bad)
    assert term[4] and rewards[4] == -3.0 and not info["returns"][4].any()
    assert info["_final_obs"][4] and info["action_mask"][4].any()  # same-step: already the next deal


def test_reset_options_and_bad_inputs():
    envs = TarockVectorEnv("dreierles", num_envs=3)
    with pytest.raises(ResetNeededError, match="reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="unknown reset option"):
        envs.reset(options={"seat": 1})
    with pytest.raises(TypeError, match="one integer"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": [True, True, True]})
    envs.reset(seed=2, options={"first_deal_id": 100})
    np.testing.assert_array_equal(envs.deal_ids, [100, 101, 102])
    envs.reset(options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(envs.deal_ids, [100, 104, 102])
    with pytest.raises(ValueError, match="num_envs"):
        TarockVectorEnv("dreierles", num_envs=0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        TarockVectorEnv("dreierles", num_envs=2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="seat"):
        TarockVectorEnv("dreierles", num_envs=2, seat=[0, 5])
    with pytest.raises(BadOptionError):
        make_vec("dreierles", 2, no_such_rule=True)
    per_row = TarockVectorEnv("dreierles", num_envs=3, seat=[0, 1, 2])
    per_row.reset(seed=0)
    np.testing.assert_array_equal(per_row.seats, [0, 1, 2])


def test_threads_do_not_change_results():
    runs = []
    for threads in (1, 2):
        envs = TarockVectorEnv("dreierles", num_envs=300, seat="random", num_threads=threads, copy=True)
        assert envs._runner.num_threads == threads
        obs, info = envs.reset(seed=5)
        trace = [obs]
        for _ in range(30):
            obs, rewards, term, _, info = envs.step(np.argmax(info["action_mask"], axis=1))
            trace += [obs, rewards, term]
        runs.append(trace)
        envs.close()
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


def test_vector_pickling_and_copy_semantics():
    envs = TarockVectorEnv("dreierles", num_envs=8, seat="random")
    obs, info = envs.reset(seed=3)
    envs.step(np.argmax(info["action_mask"], axis=1))
    clone = pickle.loads(pickle.dumps(envs))
    a = np.argmax(envs.action_masks(), axis=1)
    r1 = envs.step(a)
    r2 = clone.step(a)
    for x, y in zip(r1[:4], r2[:4]):
        np.testing.assert_array_equal(x, y)
    # copy=False returns views of internal buffers, copy=True fresh arrays
    assert envs.step(np.argmax(envs.action_masks(), axis=1))[0] is envs._obs
    c = TarockVectorEnv("dreierles", num_envs=2, copy=True)
    o, _ = c.reset(seed=0)
    assert o is not c._obs


def test_make_vec_kwargs_and_spaces():
    envs = make_vec("dreierles", 16, seat=2, reward_scale=0.1, final_observation=False)
    g = tarockrl.make_game("dreierles")
    assert envs.observation_space.shape == (16, g.observation_size)
    assert envs.single_action_space.n == g.num_actions
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert "final_obs" not in envs.step(np.argmax(info["action_mask"], axis=1))[4]


def test_a_failing_opponent_agent_interrupts_the_vector_env():
    def cheat(obs, mask):
        return int(np.flatnonzero(mask == 0)[0])

    envs = TarockVectorEnv("dreierles", num_envs=4, seat=0, opponents=cheat)
    with pytest.raises(IllegalActionError, match="opponent agent"):
        obs, info = envs.reset(seed=0)
        for _ in range(5):
            envs.step(np.argmax(envs.action_masks(), axis=1))
    with pytest.raises(ResetNeededError, match="interrupted"):
        envs.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(ResetNeededError, match="no reset_mask"):
        envs.reset(options={"reset_mask": np.ones(4, dtype=bool)})
