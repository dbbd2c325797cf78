"""Determinism: same seed -> same bytes; 1 vs 2 numba threads; JIT on vs NUMBA_DISABLE_JIT=1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import tarockrl

GAME = tarockrl.make_game("dreiertarock")
ROOT = Path(__file__).resolve().parents[2]


def test_same_seed_same_bytes():
    a = GAME.new_initial_state(seed=123, deal_id=7)
    b = GAME.new_initial_state(seed=123, deal_id=7)
    assert a.to_bytes() == b.to_bytes()
    assert GAME.new_initial_state(seed=123, deal_id=8).to_bytes() != a.to_bytes()
    assert np.array_equal(GAME.new_batch(50, seed=9).rows, GAME.new_batch(50, seed=9).rows)
    # a batch row i is the single deal (seed, first_deal_id + i)
    batch = GAME.new_batch(5, seed=9, first_deal_id=3)
    assert np.array_equal(batch.rows[2], GAME.new_initial_state(seed=9, deal_id=5).row)
    r1, l1 = GAME.random_playouts(5000, seed=3, return_lengths=True)
    r2, l2 = GAME.random_playouts(5000, seed=3, return_lengths=True)
    assert np.array_equal(r1, r2) and np.array_equal(l1, l2)
    # a game's result does not depend on how many games are played with it
    r3 = GAME.random_playouts(700, seed=3)
    assert np.array_equal(r3, r1[:700])


PROBE = r"""
import json
import tarockrl
from tests.dreiertarock.test_worked_examples import play_a

def probe():
    g = tarockrl.make_game("dreiertarock")
    r, l = g.random_playouts(4, seed=11, return_lengths=True)
    gt = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken", auto_play_forced=True)
    rt, lt = gt.random_playouts(2, seed=12, return_lengths=True)
    s = g.new_initial_state(seed=4)
    b = g.new_batch(3, seed=2)
    b.step(b.random_actions(seed=1, step_no=0))
    a = play_a()
    return {
        "returns": r.tolist(), "lengths": l.tolist(), "tr": rt.tolist(), "tl": lt.tolist(),
        "sweep": g.invariant_sweep(2, seed=13).tolist(),
        "perft": g.perft(s, 3),
        "deal": s.deal(),
        "rows": b.rows.tolist(),
        "obs": [float(x) for x in b.observations()[1]],
        "example_a": a.returns().tolist(),
        "obs_a": [float(x) for x in a.observation(1)],
        "resample": s.resample_hidden(1, seed=2).deal(),
    }

if __name__ == "__main__":
    print(json.dumps(probe()))
"""


def test_jit_on_and_off_agree():
    """The same calls in this (JIT) process and in a NUMBA_DISABLE_JIT=1 subprocess give identical results."""
    namespace: dict = {}
    exec(PROBE, namespace)  # noqa: S102 - the probe is the literal above
    jit = json.loads(json.dumps(namespace["probe"]()))
    env = dict(os.environ)
    env["NUMBA_DISABLE_JIT"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    nojit = json.loads(done.stdout.strip().splitlines()[-1])
    assert jit.keys() == nojit.keys()
    for key in jit:
        assert jit[key] == nojit[key], key
    assert jit["example_a"] == [40, -20, -20]
