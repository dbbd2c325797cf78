"""Dreierles' playout fast path (the card play in registers) leaves exactly the row of step-by-step play."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import kernels as K
from tarockrl.games.dreierles import layout as L


@pytest.mark.parametrize("options", [{}, {"raeuber_restrictions": "none"}, {"auto_play_forced": True},
                                     {"counting_method": "exact_thirds", "last_round_raeuber_or_solo": True}])
def test_playout_row_equals_random_action_and_step(options):
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    fast = np.zeros(L.STATE_LEN, np.int64)
    slow = np.zeros(L.STATE_LEN, np.int64)
    scratch = np.zeros(K.SCRATCH_LEN, np.int64)
    returns = np.zeros((1, 3), np.int64)
    raeuber = 0
    for g in range(400):
        length = K.playout(np.int64(9), np.int64(g), opts, fast, scratch, returns, 0)
        rng = K.deal_rng(slow, np.int64(9), np.int64(g), opts, scratch)
        while slow[L.PHASE] != L.TERMINAL:
            rng, a = K.random_action(slow, opts, rng)
            K.step(slow, a, opts)
        assert np.array_equal(fast, slow), g
        assert length == slow[L.HIST_LEN] and returns[0].tolist() == slow[L.RESULT:L.RESULT + 3].tolist()
        raeuber += int(slow[L.RAEUBER])
    assert raeuber > 0  # Räuber deals take the generic path; cover them too
