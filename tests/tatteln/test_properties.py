"""Random-deal sweeps (invariants after every action), determinism, threads, JIT off, fast vs reference playouts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit, prange

import tarockrl
from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import stream_seed
from tarockrl.games.tatteln import kernels as k
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.rules import O_DECK
from tests.tatteln.helpers import GAME


@njit(cache=True, parallel=True)
def greedy_invariant_sweep(n, seed, opts, codes_out, actions_out):
    """Like ``invariant_sweep``, but a ROB or an announcement is taken whenever one is legal.

    This drives the meld, comparison and robbing paths far more often than uniform play. ``actions_out[g]`` counts
    the pre-play actions taken in deal ``g``; code 3: more actions than the bound 6K - 7.
    """
    slen = k.state_len(opts)
    bound = k.hist_capacity(opts)
    n_cards = opts[O_DECK]
    for g in prange(n):
        state = np.empty(slen, dtype=np.int64)
        perm = np.empty(36, dtype=np.int64)
        rng = k.deal_with_rng(state, stream_seed(seed, g), opts, perm)
        code = k.check_invariants(state, opts)
        extra = 0
        while code == 0 and state[L.PHASE] != L.TERMINAL:
            m = k.legal_set(state, opts)
            pre = m >> n_cards
            if pre != 0:
                a = n_cards + lowest_index(pre)
                extra += 1
            else:
                rng, a = k.random_action(state, opts, rng)
            k.apply_unchecked(state, a, opts)
            code = k.check_invariants(state, opts)
            if code == 0 and state[L.HIST_LEN] > bound:
                code = 3
        codes_out[g] = code
        actions_out[g] = extra

VARIANTS = [
    {},
    {"deck_size": 36},
    {"deck_size": 36, "hand_size": 8, "max_window_length": 8, "sets_all_ranks": True},
    {"hand_size": 8, "no_trump": True},
    {"final_must_head": True, "final_must_trump": True, "announce_only_on_lead": True, "rob_enabled": False},
    {"blocker_scores": False, "seq_tie_trump_wins": True, "four_tops_up_trio": False,
     "announce_in_final_phase": False, "trump_jack_nine_bonus": False, "reward_mode": "win_loss"},
    {"matsch_enabled": False, "value_tattel": 5, "value_quart": 9, "value_fuss": 40, "value_trio": 6,
     "value_four": 30},
    {"matsch_forfeits_score": False, "matsch_multiplier": 3, "max_window_length": 6},
]


def test_invariant_sweep_default_100k():
    codes = GAME.invariant_sweep(100_000, seed=2024)
    assert np.count_nonzero(codes) == 0, np.flatnonzero(codes)[:5]


@pytest.mark.parametrize("kw", VARIANTS[1:], ids=lambda kw: ",".join(kw) or "default")
def test_invariant_sweep_variants(kw):
    game = tarockrl.make_game("tatteln", **kw)
    codes = game.invariant_sweep(5_000, seed=7)
    assert np.count_nonzero(codes) == 0, np.flatnonzero(codes)[:5]


@pytest.mark.parametrize("kw", VARIANTS, ids=lambda kw: ",".join(kw) or "default")
def test_greedy_announcer_sweep(kw):
    # ROB and announcements whenever legal: the meld paths run several times per deal
    game = tarockrl.make_game("tatteln", **kw)
    n = 5_000
    codes = np.zeros(n, dtype=np.int64)
    extra = np.zeros(n, dtype=np.int64)
    greedy_invariant_sweep(n, np.int64(11), game.encoded_options, codes, extra)
    assert np.count_nonzero(codes) == 0, np.flatnonzero(codes)[:5]
    assert extra.mean() > 2.0
    assert extra.max() <= 4 * game.rules.num_tricks - 8 + 1


@pytest.mark.slow
@pytest.mark.parametrize("kw", VARIANTS, ids=lambda kw: ",".join(kw) or "default")
def test_invariant_sweep_slow(kw):
    game = tarockrl.make_game("tatteln", **kw)
    assert np.count_nonzero(game.invariant_sweep(1_000_000, seed=99)) == 0
    codes = np.zeros(200_000, dtype=np.int64)
    extra = np.zeros(200_000, dtype=np.int64)
    greedy_invariant_sweep(200_000, np.int64(5), game.encoded_options, codes, extra)
    assert np.count_nonzero(codes) == 0


def test_playout_statistics():
    returns, lengths = GAME.random_playouts(50_000, seed=3, return_lengths=True)
    assert np.all(returns.sum(axis=1) == 0)  # zero-sum
    assert lengths.min() >= 32 and lengths.max() <= 89  # 2K plays, at most 6K - 7 actions
    assert lengths.mean() > 33.0  # announcements and robs do happen
    assert np.abs(returns[:, 0]).max() <= 2 * 400
    assert abs(returns[:, 0].mean()) < 2.0  # no seat advantage beyond noise (random dealer)


@pytest.mark.parametrize("kw", VARIANTS, ids=lambda kw: ",".join(kw) or "default")
def test_fast_playouts_equal_reference(kw):
    game = tarockrl.make_game("tatteln", **kw)
    n = 20_000
    r1 = np.zeros((n, 2), dtype=np.int64)
    l1 = np.zeros(n, dtype=np.int64)
    r2 = np.zeros((n, 2), dtype=np.int64)
    l2 = np.zeros(n, dtype=np.int64)
    game.definition.drivers.random_playouts(n, np.int64(17), game.encoded_options, r1, l1, np.int64(0))
    game.definition.drivers.reference_playouts(n, np.int64(17), game.encoded_options, r2, l2, np.int64(0))
    assert np.array_equal(l1, l2)
    assert np.array_equal(r1, r2)


def test_random_playouts_match_stepping_through_the_api():
    # deal g of random_playouts is deal(seed, g) played with the kernels' random choices
    returns, lengths = GAME.random_playouts(5, seed=21, return_lengths=True)
    for g in range(5):
        row = np.zeros(GAME.state_len, dtype=np.int64)
        perm = np.zeros(36, dtype=np.int64)
        rng = k.deal_with_rng(row, stream_seed(np.int64(21), np.int64(g)), GAME.encoded_options, perm)
        ref = GAME.new_initial_state(seed=21, deal_id=g)
        assert np.array_equal(ref.row, row)
        state = tarockrl.State(GAME, row)
        while not state.is_terminal():
            rng, a = k.random_action(state.row, GAME.encoded_options, rng)
            state.apply_action(int(a))
        assert state.returns().tolist() == returns[g].tolist()
        assert len(state.history()) == lengths[g]


def test_same_seed_same_bytes():
    a = GAME.new_initial_state(seed=123)
    b = GAME.new_initial_state(seed=123)
    assert a.to_bytes() == b.to_bytes()
    assert GAME.new_initial_state(seed=123, deal_id=1).to_bytes() != a.to_bytes()
    for _ in range(20):
        act = a.legal_actions()[-1]
        a.apply_action(act)
        b.apply_action(act)
    assert a.to_bytes() == b.to_bytes()
    r1 = GAME.random_playouts(1000, seed=5)
    r2 = GAME.random_playouts(1000, seed=5)
    assert np.array_equal(r1, r2)
    assert not np.array_equal(r1, GAME.random_playouts(1000, seed=6))


def test_dealer_is_uniform_and_deals_are_shuffles():
    batch_ = GAME.new_batch(4000, seed=1)
    dealers = batch_.rows[:, L.DEALER]
    assert 1800 < dealers.sum() < 2200
    for i in range(50):
        d = batch_.state(i).deal()
        all_cards = d["hands"][0] + d["hands"][1] + [d["turn_up"]] + d["stock"]
        assert len(set(all_cards)) == 32


_JIT_SCRIPT = r"""
import json, tarockrl
out = {}
for kw in ({}, {"deck_size": 36, "no_trump": True}):
    g = tarockrl.make_game("tatteln", **kw)
    r, l = g.random_playouts(3, seed=5, return_lengths=True)
    out[str(kw)] = [r.tolist(), l.tolist(), g.invariant_sweep(2, seed=9).tolist()]
    s = g.new_initial_state(seed=4)
    obs = []
    while not s.is_terminal():
        obs.append(float(s.observation(0).sum() + 2 * s.observation(1).sum()))
        s.apply_action(s.legal_actions()[len(s.legal_actions()) // 2])
    out[str(kw) + "obs"] = [obs, s.returns().tolist(), s.to_bytes().hex(), g.perft(g.new_initial_state(seed=1), 3)]
print(json.dumps(out))
"""


def _run(jit_off: bool) -> dict:
    env = dict(os.environ)
    if jit_off:
        env["NUMBA_DISABLE_JIT"] = "1"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    res = subprocess.run([sys.executable, "-c", _JIT_SCRIPT], env=env, cwd=root, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout)


def test_jit_off_gives_the_same_results():
    assert _run(True) == _run(False)
