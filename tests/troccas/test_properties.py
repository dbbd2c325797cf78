"""Random-game properties: invariant sweeps in numba, golden perft counts, determinism across threads and JIT."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tarockrl
from tarockrl.games.troccas import TroccasRules, max_episode_length
from tarockrl.games.troccas import layout as L
from tests.troccas.helpers import build_deal, to_play, to_scart
from tests.troccas.test_worked_examples import D109, _discards_for

GAME = tarockrl.make_game("troccas")
FIXED = tarockrl.make_game("troccas", max_redeals=0)

VARIANTS = [
    {"knock_enabled": True, "double_lead_enabled": True},
    {"must_overtrump": True, "scart_trumps_allowed": False, "first_leader": "forehand"},
    {"buob_demand_automatic": True, "scart_counts_for_fool": True, "slam_takes_scart": True},
    {"scart_jack_voids_all": True, "double_lead_enabled": True, "king_after_fool_triggers": False},
    {"talk_enabled": False, "max_redeals": 0},
    {"throw_in_enabled": False, "fool_counts_as_trump_for_force": True, "expose_last_card": False},
    {"max_redeals": 10, "nine_ten_threshold": 1, "single_packet_threshold": 2},
    {"king_jack_rule": False, "packet_options_enabled": False, "dealer_force_enabled": False},
]


def _ids(options):
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def test_invariant_sweep_100k_default_rules():
    codes = GAME.invariant_sweep(100_000, seed=2026)
    bad = np.flatnonzero(codes)
    assert bad.size == 0, f"deal {bad[0]} broke invariant {codes[bad[0]]}"


@pytest.mark.parametrize("options", VARIANTS, ids=_ids)
def test_invariant_sweep_variants(options):
    codes = tarockrl.make_game("troccas", **options).invariant_sweep(10_000, seed=7)
    bad = np.flatnonzero(codes)
    assert bad.size == 0, f"deal {bad[0]} broke invariant {codes[bad[0]]}"


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}] + VARIANTS, ids=_ids)
def test_invariant_sweep_variants_long(options):
    codes = tarockrl.make_game("troccas", **options).invariant_sweep(1_000_000, seed=99)
    assert not codes.any()


@pytest.mark.parametrize("options", [{}, {"knock_enabled": True}, {"max_redeals": 0}, {"max_redeals": 7}],
                         ids=_ids)
def test_playouts_respect_the_episode_bound(options):
    game = tarockrl.make_game("troccas", **options)
    returns, lengths = game.random_playouts(20_000, seed=1, return_lengths=True)
    bound = max_episode_length(TroccasRules(**options))
    assert lengths.max() <= bound
    assert lengths.min() >= 1 + 2 + 76 - 1 - (0 if options.get("talk_enabled", True) else 12)
    assert np.all(returns.sum(axis=1) == 0)
    assert np.all(returns[:, 0] == returns[:, 2]) and np.all(returns[:, 1] == returns[:, 3])
    assert np.all(np.abs(returns) <= 36)


def test_playout_statistics_are_sane():
    returns, lengths = GAME.random_playouts(20_000, seed=1, return_lengths=True)
    assert returns.std() > 3
    assert 95 <= lengths.mean() <= 105  # 12 talk, about 6 votes, 2 discards, 76 cards, some demands
    assert (lengths > 110).mean() > 0.05  # thrown-in attempts happen (about one deal in six)


def test_perft_golden_counts():
    state = GAME.new_initial_state(deal=D109)
    assert [GAME.perft(state, d) for d in range(1, 7)] == [10, 100, 1000, 10000, 20000, 120000]
    state = FIXED.new_initial_state(deal=D109)
    to_scart(state)
    assert [FIXED.perft(state, d) for d in range(1, 6)] == [19, 342, 6498, 123462, 370386]
    deal = GAME.new_initial_state(seed=2026).deal()
    state = FIXED.new_initial_state(deal=deal)
    to_scart(state)
    assert [FIXED.perft(state, d) for d in range(1, 7)] == [20, 380, 7220, 25346, 142538, 636386]
    game = tarockrl.make_game("troccas", max_redeals=0, knock_enabled=True, double_lead_enabled=True,
                              must_overtrump=True)
    state = game.new_initial_state(deal=deal)
    to_scart(state)
    assert [game.perft(state, d) for d in range(1, 7)] == [20, 380, 7220, 21242, 116546, 483436]


def test_perft_through_a_jack_demand():
    deal = build_deal(1, {0: "sV s2 s4 s5", 1: "sK", 2: "s3", 3: "s7"}, avoid={2: "s1 s6 s8 s9 s10 sC sQ"})
    state = FIXED.new_initial_state(deal=deal)
    to_play(state, _discards_for(deal, 1, "sK"))
    assert [FIXED.perft(state, d) for d in range(1, 6)] == [19, 109, 2025, 30199, 534078]
    state.apply_action(77)  # sK
    assert [FIXED.perft(state, d) for d in range(1, 7)] == [1, 8, 32, 192, 1688, 19608]


def test_same_seed_same_bytes():
    a = GAME.new_initial_state(seed=31, deal_id=4)
    b = GAME.new_initial_state(seed=31, deal_id=4)
    assert a.to_bytes() == b.to_bytes()
    rng = np.random.default_rng(2)
    while not a.is_terminal():
        x = int(rng.choice(a.legal_actions()))
        a.apply_action(x)
        b.apply_action(x)
    assert a.to_bytes() == b.to_bytes()
    assert GAME.new_initial_state(seed=31, deal_id=5).to_bytes() != a.to_bytes()


def test_playouts_match_the_single_state_api():
    returns, lengths = GAME.random_playouts(3, seed=12, return_lengths=True)
    again, lengths2 = GAME.random_playouts(3, seed=12, return_lengths=True)
    assert np.array_equal(returns, again) and np.array_equal(lengths, lengths2)
    sub, sub_lengths = GAME.random_playouts(2, seed=12, return_lengths=True)
    assert np.array_equal(sub, returns[:2]) and np.array_equal(sub_lengths, lengths[:2])


def test_batch_prefix_is_independent_of_batch_size():
    small = GAME.new_batch(10, seed=4).rows
    large = GAME.new_batch(1000, seed=4).rows
    assert np.array_equal(small, large[:10])


_JIT_OFF_SCRIPT = """
import json, numpy as np, tarockrl
from tarockrl.games.troccas import new_state


def run():
    g = tarockrl.make_game("troccas", knock_enabled=True, double_lead_enabled=True)
    r, n = g.random_playouts(2, seed=12, return_lengths=True)
    s = new_state(g, seed=5, dealer=2, balance=-20, deal_id=2)
    rng = np.random.default_rng(0)
    obs = []
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
        obs.append(float(s.observation(len(obs) % 4).sum()))
    codes = g.invariant_sweep(2, seed=1)
    return {"returns": r.tolist(), "lengths": n.tolist(), "deal": s.deal(), "hist": s.history(),
            "obs": obs, "codes": codes.tolist(), "ret": s.returns().tolist()}


if __name__ == "__main__":
    print(json.dumps(run()))
"""


def test_jit_off_gives_identical_games():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", _JIT_OFF_SCRIPT], env=env, capture_output=True, text=True,
                         timeout=600, check=True)
    off = json.loads(out.stdout.strip().splitlines()[-1])
    namespace: dict = {}
    exec(_JIT_OFF_SCRIPT, namespace)  # the same code with the JIT on, in this process
    on = json.loads(json.dumps(namespace["run"]()))
    assert off == on
    assert off["codes"] == [0, 0]


def test_check_invariants_flags_broken_rows():
    from tarockrl.engine import invariants as INV
    from tarockrl.games.troccas.kernels import check_invariants

    state = GAME.new_initial_state(seed=3)
    opts = GAME.encoded_options
    assert check_invariants(state.row.copy(), opts) == 0
    row = state.row.copy()
    row[L.HAND_SW + 2] |= row[L.HAND_SW + 1] & -row[L.HAND_SW + 1]  # a card in two hands
    assert check_invariants(row, opts) == INV.CARDS
    row = state.row.copy()
    row[L.CUR] = -1
    assert check_invariants(row, opts) == INV.NO_SEAT_TO_ACT
    row = state.row.copy()
    row[L.PERM + 5] = row[L.PERM + 6]
    assert check_invariants(row, opts) == INV.DEAL_ORDER
    row = state.row.copy()
    row[L.HIST_LEN] = 500
    assert check_invariants(row, opts) == INV.TOO_MANY_ACTIONS
