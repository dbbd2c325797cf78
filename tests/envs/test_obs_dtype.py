"""Compact observations (issue 9, item 8): ``obs_dtype`` of the batch API and the vector env."""

import gymnasium
import numpy as np
import pytest

import tarockrl
from tarockrl.envs.vector import TarockVectorEnv
from tarockrl.errors import BadOptionError, TarockError
from tarockrl.games.obs_dtype import decode_observations, dtype_range, observation_codes

GAMES = tarockrl.list_games()
CODED = ("uint8", "int8")


def check_codes(game, floats, codes):
    """Binary entries equal after a cast; every entry decodes exactly unless its code clipped at the range."""
    den, off = observation_codes(game, codes.dtype)
    lo, hi = dtype_range(codes.dtype)
    raw = np.rint(floats.astype(np.float64) * den + off)
    clipped = (raw < lo) | (raw > hi)
    binary = (den == 1) & (off == 0)
    np.testing.assert_array_equal(codes[:, binary].astype(np.float32), floats[:, binary])
    decoded = decode_observations(codes, game)
    np.testing.assert_array_equal(decoded[~clipped], floats[~clipped])
    np.testing.assert_array_equal(codes[clipped], np.clip(raw[clipped], lo, hi))
    np.testing.assert_array_equal(codes, np.clip(raw, lo, hi))  # every entry: the code of its float32 value
    return int(clipped.sum())


@pytest.mark.parametrize("name", GAMES)
def test_batch_codes_equal_the_float_observations(name):
    game = tarockrl.make_game(name)
    batch = game.new_batch(48, seed=3)
    players = np.arange(48) % game.num_players
    step = 0
    while True:
        floats = batch.observations()
        for dt in CODED:
            codes = batch.observations(obs_dtype=dt)
            assert codes.dtype == np.dtype(dt) and codes.shape == floats.shape
            check_codes(game, floats, codes)
            check_codes(game, batch.observations(players), batch.observations(players, obs_dtype=dt))
        if batch.is_terminal().all():
            break
        batch.step(batch.random_actions(seed=1, step_no=step))
        step += 1
    # at the end every seat sees the settlement: settlement fields may clip, the rest is exact
    for dt in CODED:
        check_codes(game, batch.observations(players), batch.observations(players, obs_dtype=dt))


@pytest.mark.parametrize("bad", ["float64", "int16", "bool", "f8", True, "octet", np.int32])
def test_bad_obs_dtypes_are_rejected(bad):
    game = tarockrl.make_game("dreierles")
    batch = game.new_batch(4, seed=0)
    with pytest.raises(BadOptionError, match="obs_dtype must be one of float32, uint8, int8"):
        batch.observations(obs_dtype=bad)
    with pytest.raises(TarockError, match="obs_dtype"):
        TarockVectorEnv("dreierles", num_envs=4, obs_dtype=bad)


@pytest.mark.parametrize("name", ["dreierles", "troccas"])
def test_vector_env_codes_match_the_float_env(name):
    kw = dict(num_envs=32, seat="random", autoreset_mode="same_step")
    envs = {dt: TarockVectorEnv(name, obs_dtype=dt, copy=True, **kw) for dt in ("float32", "uint8")}
    game = envs["float32"].game
    squashed = envs["float32"]._bounds.squashed
    keep = np.setdiff1d(np.arange(game.observation_size), squashed)
    out = {dt: e.reset(seed=5) for dt, e in envs.items()}
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(80):
        f_obs, f_info = out["float32"][0], out["float32"][-1]
        for dt in ("uint8",):  # int8 takes another compile of the env driver; the batch test covers it
            obs, info = out[dt][0], out[dt][-1]
            assert obs.dtype == np.dtype(dt) and envs[dt].observation_space.contains(obs)
            np.testing.assert_array_equal(info["action_mask"], f_info["action_mask"])
            np.testing.assert_array_equal(decode_observations(obs, game)[:, keep], f_obs[:, keep])
            if "final_obs" in info:
                rows = info["_final_obs"]
                finals += int(rows.sum())
                np.testing.assert_array_equal(decode_observations(info["final_obs"][rows], game)[:, keep],
                                              f_info["final_obs"][rows][:, keep])
        assert envs["float32"].observation_space.contains(f_obs)
        mask = f_info["action_mask"].astype(bool)
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        out = {dt: e.step(acts) for dt, e in envs.items()}
        for dt in ("uint8",):
            np.testing.assert_array_equal(out[dt][1], out["float32"][1])
    assert finals > 0


def test_vector_env_reward_scale_auto_and_squashed_bounds():
    env = TarockVectorEnv("dreierles", num_envs=16, reward_scale="auto")
    assert env.reward_scale == pytest.approx(1 / 39.3)
    space = env.single_observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    obs, info = env.reset(seed=1)
    for _ in range(200):
        acts = np.argmax(info["action_mask"], axis=1)
        obs, rew, term, trunc, info = env.step(acts)
        assert env.observation_space.contains(obs)
        if term.any():
            assert env.observation_space.contains(info["final_obs"])
    made = gymnasium.make_vec("tarockrl/Dreierles-v0", num_envs=8, vectorization_mode="vector_entry_point",
                              obs_dtype="uint8")
    assert made.observation_space.dtype == np.uint8


@pytest.mark.parametrize("name", ["dreierles", "tatteln"])
def test_vector_env_float_observations_are_the_squashed_engine_vectors(name):
    """The driver squashes the unbounded fields in place: each row equals ``bounds.apply`` of the state's own
    observation of the learning seat (bit for bit), in play and, with ``next_step``, at the end of a deal."""
    from tarockrl.envs.bounds import observation_bounds

    env = TarockVectorEnv(name, num_envs=24, seat="random", autoreset_mode="next_step")
    bounds = observation_bounds(env.game)
    assert bounds.squashed.size > 0
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(60):
        seats = env.seats
        for i in range(env.num_envs):
            want = bounds.apply(env.state(i).observation(int(seats[i])).astype(np.float32))
            np.testing.assert_array_equal(obs[i], want)
        mask = info["action_mask"].astype(bool)
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        obs, rew, term, trunc, info = env.step(acts)
        ends += int(term.sum())
    assert ends > 0
