"""The vector env's incremental observations (games with ``observe_update``: Troccas) equal full rewrites.

Two vector envs play the same deals with the same actions, one writing the learners' code rows incrementally
(the default for integer codes) and one rewriting them whole; every output must be bit-identical after every
step, through autoresets (both modes), random seats, a Python opponent, partial resets and illegal actions.
"""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import RandomAgent
from tarockrl.envs.vector import TarockVectorEnv

GAMES = [g for g in tarockrl.list_games() if tarockrl.make_game(g).definition.observe_update is not None]


def _pair(name, **kw):
    a = TarockVectorEnv(name, **kw)
    b = TarockVectorEnv(name, **kw)
    assert a._incremental
    b._incremental = False
    b._params[b._k.P_OBS_INCREMENTAL] = 0
    return a, b


def _same(x, y):
    np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kw", [
    {"obs_dtype": "uint8", "seat": "random"},
    {"obs_dtype": "int8", "seat": 1, "autoreset_mode": "next_step"},
    {"obs_dtype": "uint8", "seat": 0, "illegal_action": "lose", "num_threads": 2},
], ids=["uint8-random-seat", "int8-next-step", "uint8-lose-threads"])
def test_incremental_rows_equal_full_rewrites(name, kw):
    n = 48
    a, b = _pair(name, num_envs=n, **kw)
    rng = np.random.default_rng(5)
    oa, ia = a.reset(seed=11)
    ob, ib = b.reset(seed=11)
    _same(oa, ob)
    ends = 0
    for t in range(400):
        masks = ia["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64)
        if kw.get("illegal_action") == "lose" and t % 37 == 0:
            acts[t % n] = -1
        if t % 53 == 52:  # a partial reset: the reset rows start over, the others keep their memos
            mask = rng.random(n) < 0.3
            oa, ia = a.reset(options={"reset_mask": mask})
            ob, ib = b.reset(options={"reset_mask": mask})
            _same(oa, ob)
            continue
        oa, ra, ta, tra, ia = a.step(acts)
        ob, rb, tb, trb, ib = b.step(acts)
        for x, y in ((oa, ob), (ra, rb), (ta, tb), (ia["action_mask"], ib["action_mask"])):
            _same(x, y)
        if "final_obs" in ia:
            _same(ia["final_obs"], ib["final_obs"])
        ends += int(ta.sum())
    assert ends > 100
    a.close()
    b.close()


@pytest.mark.parametrize("name", GAMES)
def test_incremental_rows_with_a_python_opponent(name):
    """A Python agent's turn shows its own observation in the row: the learner's next one is written whole."""
    kw = {"num_envs": 16, "obs_dtype": "uint8", "seat": 0, "opponents": [RandomAgent(3), "random", "random"]}
    a, b = _pair(name, **kw)
    rng = np.random.default_rng(9)
    oa, ia = a.reset(seed=2)
    ob, ib = b.reset(seed=2)
    for _ in range(150):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in ia["action_mask"]], dtype=np.int64)
        oa, _, ta, _, ia = a.step(acts)
        ob, _, tb, _, ib = b.step(acts)
        _same(oa, ob)
        _same(ta, tb)


def test_incremental_rows_are_read_only_views():
    name = GAMES[0]
    env = TarockVectorEnv(name, num_envs=4, obs_dtype="uint8")
    obs, info = env.reset(seed=0)
    assert not obs.flags.writeable
    with pytest.raises(ValueError):
        obs[0, 0] = 1
    acts = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]], dtype=np.int64)
    obs, *_ = env.step(acts)
    assert not obs.flags.writeable
    copied = TarockVectorEnv(name, num_envs=4, obs_dtype="uint8", copy=True)
    assert copied.reset(seed=0)[0].flags.writeable
    assert TarockVectorEnv(name, num_envs=4).reset(seed=0)[0].flags.writeable  # float32: rewritten whole
