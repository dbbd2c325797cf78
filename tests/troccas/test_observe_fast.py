"""The Troccas observation kernel (card blocks written 8 entries per store) equals the one-card-at-a-time
reference on every phase, seat, dtype and several option sets, and writes every entry of its output."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import tarockrl
from tarockrl.games.obs_dtype import dtype_range, observation_codes, signed_entries
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas import new_batch
from tarockrl.games.troccas import observe as O
from tests.troccas.observe_reference import observe_reference_rows

OPTION_SETS = [
    {},
    {"knock_enabled": True, "double_lead_enabled": True, "scart_jack_voids_all": True, "slam_takes_scart": True},
    {"talk_enabled": False, "max_redeals": 0, "must_overtrump": True, "expose_last_card": False,
     "fool_counts_as_trump_for_force": True, "buob_demand_automatic": True},
]


@njit(cache=True)
def _observe_rows(rows, players, opts, out):
    for i in range(rows.shape[0]):
        O.observe(rows[i], players[i], opts, out[i])


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "knock-double", "no-talk"])
def test_observe_equals_the_reference_kernel(options):
    game = tarockrl.make_game("troccas", **options)
    n = 64
    rng = np.random.default_rng(5)
    # balances far behind reach the PATTERN phase (packet options), dealers vary
    batch = new_batch(game, n, seed=11, dealers=np.arange(n) % 4, balances=rng.integers(-40, 41, n))
    opts = game.encoded_options
    codes = {dt: observation_codes(game, dt) for dt in ("uint8", "int8")}
    seen_phases = set()
    step = 0
    while True:
        rows = np.ascontiguousarray(batch.rows)
        seen_phases.update(int(p) for p in rows[:, L.PHASE])
        for p in range(4):
            players = np.full(n, p, dtype=np.int64)
            ref = np.zeros((n, O.OBS_LEN), dtype=np.float32)
            observe_reference_rows(rows, players, opts, ref)
            got = np.full((n, O.OBS_LEN), np.nan, dtype=np.float32)  # every entry must be written
            _observe_rows(rows, players, opts, got)
            np.testing.assert_array_equal(got, ref)
            for dt, (den, off) in codes.items():
                lo, hi = dtype_range(dt)
                q = np.full((n, O.OBS_LEN), 0xAB if dt == "uint8" else -85, dtype=dt)
                _observe_rows(rows, players, opts, q)
                if dt == "uint8":  # the driver's step for signed entries (tarockrl.engine.obsput.flip_signed)
                    q[:, signed_entries(game, dt)] ^= 0x80
                want = np.clip(np.rint(ref.astype(np.float64) * den + off), lo, hi)
                np.testing.assert_array_equal(q, want)
        if batch.is_terminal().all():
            break
        batch.step(batch.random_actions(seed=3, step_no=step))
        step += 1
    assert len(seen_phases) >= 4
