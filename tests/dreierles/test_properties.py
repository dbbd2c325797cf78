"""Random-game properties: invariant sweeps in numba, golden perft counts, determinism across threads and JIT."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tests.dreierles.helpers import act
from tests.dreierles.test_worked_examples import E2_DEAL, E6_DEAL

GAME = tarockrl.make_game("dreierles")

VARIANTS = [
    {},
    {"auto_play_forced": True},
    {"counting_method": "exact_thirds", "min_one_unit_on_loss": True},
    {"knock_eligibility": "not_passed", "max_defender_knocks": 2, "knock_doubles_bonuses": True},
    {"pfeife_announce_timing": "after_knocks", "allow_reknock": False, "hand_bonus_basis": "dealt"},
    {"raeuber_restrictions": "iffezheim", "raeuber_bonuses": True, "raeuber_max_knocks": 1},
    {"raeuber_restrictions": "none"},
    {"raeuber_pfeife_rule": "third_trump_trick", "raeuber_21_rule": "not_with_stiess"},
    {"raeuber_pfeife_carry_over": False, "raeuber_max_knocks": 0},
    {"last_round_raeuber_or_solo": True},
    {"last_round_raeuber_or_solo": True, "knock_doubles_bonuses": True, "raeuber_bonuses": True},
]


def test_invariant_sweep_100k_default_rules():
    codes = GAME.invariant_sweep(100_000, seed=2026)
    bad = np.flatnonzero(codes)
    assert bad.size == 0, f"deal {bad[0]} broke invariant {codes[bad[0]]}"


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_invariant_sweep_variants(options):
    codes = tarockrl.make_game("dreierles", **options).invariant_sweep(10_000, seed=7)
    bad = np.flatnonzero(codes)
    assert bad.size == 0, f"deal {bad[0]} broke invariant {codes[bad[0]]}"


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_invariant_sweep_variants_long(options):
    codes = tarockrl.make_game("dreierles", **options).invariant_sweep(1_000_000, seed=99)
    assert not codes.any()


def test_playout_statistics_are_sane():
    returns, lengths = GAME.random_playouts(20_000, seed=1, return_lengths=True)
    assert np.all(returns.sum(axis=1) == 0)
    assert lengths.min() >= 49 and lengths.max() <= 56
    assert (lengths == 54).mean() > 0.05  # Räuber deals happen (three passes, three knock decisions)
    assert returns.std() > 1


def test_perft_golden_counts():
    state = GAME.new_initial_state(deal=E2_DEAL)
    assert [GAME.perft(state, d) for d in range(1, 8)] == [5, 30, 117, 564, 6177, 26143, 151763]
    for name in ("BID Dreier", "BID Zweier", "PASS", "DISCARD H1", "DISCARD D1", "NO_ANNOUNCE", "KNOCK", "KNOCK"):
        act(state, name)
    assert [GAME.perft(state, d) for d in range(1, 7)] == [16, 56, 318, 4770, 17078, 85512]
    e6 = GAME.new_initial_state(deal=E6_DEAL)
    assert GAME.perft(e6, 8) == 1386088


@pytest.mark.parametrize("rules,count", [("steinmauern", 4782288), ("iffezheim", 1626682), ("none", 11707008)])
def test_perft_raeuber_restriction_sets(rules, count):
    game = tarockrl.make_game("dreierles", raeuber_restrictions=rules)
    state = game.new_initial_state(deal=E6_DEAL)
    for name in ["PASS"] * 3 + ["KNOCK", "NO_KNOCK", "KNOCK"]:
        act(state, name)
    assert game.perft(state, 9) == count


def test_batch_prefix_is_independent_of_batch_size():
    small = GAME.new_batch(10, seed=4).rows
    large = GAME.new_batch(1000, seed=4).rows
    assert np.array_equal(small, large[:10])
