"""Hidden-card resampling: the sampled state keeps the sampling seat's knowledge and every invariant."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import kernels as k
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import PLAIN_NON_KING
from tests.dreierles.helpers import act
from tests.dreierles.test_worked_examples import E2_DEAL, E2_TRICKS, play_tricks

GAME = tarockrl.make_game("dreierles")


def _random_prefix(seed, steps, game=GAME):
    state = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("options", [{}, {"defenders_see_unused_blind": False}, {"auto_play_forced": True}])
def test_resampling_keeps_observation_and_invariants(options):
    game = tarockrl.make_game("dreierles", **options)
    changed = 0
    for seed in range(120):
        state = _random_prefix(seed, seed % 57, game)
        for player in range(3):
            sample = state.resample_hidden(player, seed=seed)
            assert k.check_invariants(sample.row, game.encoded_options) == 0
            if state.phase() != "announce" or player == state.row[L.DECLARER]:
                assert np.array_equal(sample.observation(player), state.observation(player))
            changed += not np.array_equal(sample.row, state.row)
            # the sample can be played to the end
            rng = np.random.default_rng(seed)
            while not sample.is_terminal():
                legal = sample.legal_actions()
                sample.apply_action(legal[int(rng.integers(len(legal)))])
            assert sample.returns().sum() == 0
    assert changed > 100


def test_voids_are_respected():
    state = GAME.new_initial_state(deal=E2_DEAL)
    for name in ("BID Dreier", "BID Zweier", "PASS", "DISCARD H1", "DISCARD D1", "NO_ANNOUNCE", "KNOCK", "KNOCK"):
        act(state, name)
    play_tricks(state, E2_TRICKS[:10])  # trick 10: C throws H4 on a trump lead -> C is void in trumps
    voids = [int(state.row[L.VOIDS + s]) for s in range(3)]
    assert voids[2] == (1 << 22) - 1
    for seed in range(200):
        sample = state.resample_hidden(0, seed=seed)
        for s in (1, 2):
            assert int(sample.row[L.HAND + s]) & voids[s] == 0


def test_hidden_discards_stay_plain_and_history_follows():
    state = GAME.new_initial_state(deal=E2_DEAL)
    for name in ("BID Dreier", "BID Zweier", "PASS", "DISCARD H1", "DISCARD D1", "NO_ANNOUNCE"):
        act(state, name)
    seen = set()
    for seed in range(100):
        sample = state.resample_hidden(0, seed=seed)
        discards = int(sample.row[L.DISCARDS])
        assert discards & ~int(PLAIN_NON_KING) == 0 and bin(discards).count("1") == 2
        history_discards = {a - L.A_DISCARD for a in sample.history() if L.A_DISCARD <= a < L.A_DISCARD + 54}
        assert sum(1 << c for c in history_discards) == discards
        seen.add(discards)
    assert len(seen) > 20
    # the declarer knows his own discards: they never change for him
    for seed in range(20):
        assert state.resample_hidden(1, seed=seed).row[L.DISCARDS] == state.row[L.DISCARDS]


def test_public_cards_stay_with_the_declarer():
    state = GAME.new_initial_state(deal=E2_DEAL)
    for name in ("BID Dreier", "BID Zweier", "PASS", "DISCARD H1", "DISCARD D1", "ANNOUNCE_PFEIFE"):
        act(state, name)
    taken = int(state.row[L.BLIND_TAKEN])
    for seed in range(50):
        row = state.resample_hidden(0, seed=seed).row
        hand = int(row[L.HAND + 1])
        # the taken blind cards stay with the declarer (in his hand or face down among his discards)
        assert (hand | int(row[L.DISCARDS])) & taken == taken and hand & 1  # the announced Pfeife stays


def test_resampling_is_reproducible_and_leaves_original():
    state = _random_prefix(3, 30)
    before = state.to_bytes()
    a = state.resample_hidden(1, seed=9)
    b = state.resample_hidden(1, seed=9)
    assert a == b and state.to_bytes() == before
