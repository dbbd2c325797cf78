"""The optional ``observe_update`` of the contract equals ``observe`` after every action, in every dtype.

``observe_update(row, player, opts, out, memo, valid)`` rewrites only what changed since the last call with
``memo``; whatever states come in between (several actions, a redeal, another deal altogether), ``out`` must then
hold exactly what ``observe`` writes. Random play over every option set of the games that provide it, with
memos per seat kept across deals, calls skipped at random, memos invalidated and handed to another seat.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.contract.cases import CASES, case_id, make

UPDATE_CASES = [c for c in CASES if make(c).definition.observe_update is not None]
DTYPES = (np.uint8, np.int8, np.float32)


def _garbage(dtype, size, rng):
    if dtype == np.float32:
        return rng.standard_normal(size).astype(np.float32) * 7
    return rng.integers(0, 256, size).astype(np.uint8).view(dtype).copy()


@pytest.mark.parametrize("case", UPDATE_CASES, ids=case_id)
def test_observe_update_equals_observe_after_every_action(case):
    game = make(case)
    d = game.definition
    opts = game._opts
    n_obs, n_memo, p = d.observation_size, d.obs_memo_len, d.num_players
    assert n_memo > 0
    rng = np.random.default_rng(20261202)
    legal = np.zeros(d.num_actions, dtype=np.bool_)
    checked = 0
    for dtype in DTYPES:
        outs = [_garbage(dtype, n_obs, rng) for _ in range(p)]
        memos = [rng.integers(-5, 5, n_memo).astype(np.int64) for _ in range(p)]  # garbage: valid=False first
        valid = [False] * p
        full = np.empty(n_obs, dtype=dtype)
        for deal_id in range(12 if dtype == np.uint8 else 5):
            row = np.zeros(d.state_len, dtype=np.int64)
            d.deal(row, np.int64(7), np.int64(deal_id), opts)
            while True:
                for s in range(p):
                    if rng.random() < 0.25:  # skip: the next call must catch up over several actions
                        continue
                    if rng.random() < 0.03:  # a stale memo may not be trusted
                        valid[s] = False
                    seat = s if rng.random() > 0.03 else (s + 1) % p  # another observer on this memo
                    d.observe_update(row, np.int64(seat), opts, outs[s], memos[s], valid[s])
                    valid[s] = True
                    full[:] = _garbage(dtype, n_obs, rng)
                    d.observe(row, np.int64(seat), opts, full)
                    np.testing.assert_array_equal(outs[s].view(np.uint32 if dtype == np.float32 else np.uint8),
                                                  full.view(np.uint32 if dtype == np.float32 else np.uint8))
                    checked += 1
                if row[d.slot_phase] == d.terminal_phase:
                    break
                d.legal_mask(row, opts, legal)
                assert d.apply_action(row, np.int64(rng.choice(np.flatnonzero(legal))), opts) == 0
    assert checked > 1000
