"""Compact-observation batch driver, generic over the game: a template bound per game by
:mod:`tarockrl.engine.codegen` (from :func:`tarockrl.games.obs_dtype.code_driver`).

``batch_observe_codes`` is :func:`tarockrl.engine.batch_template.batch_observe` writing integer codes
(:mod:`tarockrl.games.obs_dtype`): each row is observed into a float32 scratch row of its chunk (one scratch
row per chunk, allocated before the parallel loop) and coded from there with
:func:`tarockrl.games.obs_dtype.quantize_row`, so no whole float32 batch is ever written. A separate small
template, so that binding it compiles one driver only.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tarockrl.games.obs_dtype import quantize_row

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
GAME_NAME = "template"
observe = None  # (row, player, opts, out_f32)
# ---- bindings (end) -------------------------------------------------------------------------------------------

CHUNK = 64  # rows per parallel work item; never changes a result


@njit(cache=True, parallel=True)
def batch_observe_codes(states, players, opts, den, off, lo, hi, out):
    """Codes of the observation of ``players[i]`` for row ``i`` into ``out[i]`` (uint8 or int8; a negative
    player gives the codes of an all-zero observation); ``den``, ``off``, ``lo``, ``hi`` as in
    :func:`tarockrl.games.obs_dtype.quantize_row`."""
    n = states.shape[0]
    chunks = (n + CHUNK - 1) // CHUNK
    scratch = np.zeros((max(chunks, 1), out.shape[1]), dtype=np.float32)
    for c in prange(chunks):
        row_scratch = scratch[c]
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            if players[i] >= 0:
                observe(states[i], players[i], opts, row_scratch)
                quantize_row(row_scratch, den, off, lo, hi, out[i])
            else:  # the codes of an all-zero observation (OFF: 128 in signed fields under uint8)
                for j in range(out.shape[1]):
                    out[i, j] = off[j]
