"""A faster Fisher-Yates shuffle for dealing: two swap indices from each 64-bit draw.

:func:`tarockrl.engine.rng.shuffle_prefix` spends one SplitMix64 output per swap. For packs of a few dozen
cards the 32-bit halves of one output are plenty: :func:`shuffle_prefix_pairs` takes the low half for one
swap and the high half for the next, each mapped to its range by a multiply-shift (bias below ``n / 2**32``),
which halves the generator calls of a deal. The generator state is threaded exactly as in
:mod:`tarockrl.engine.rng`, so results never depend on threads or batch sizes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.rng import next_u64

__all__ = ["shuffle_prefix_pairs"]

_LOW32 = np.int64(0xFFFFFFFF)


@njit(cache=True)
def shuffle_prefix_pairs(state, values, count):
    """Fisher-Yates shuffle of ``values[:count]`` in place (count < 2**31); returns the new generator state."""
    i = count - 1
    while i > 0:
        state, z = next_u64(state)
        j = ((z & _LOW32) * (i + 1)) >> 32
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
        i -= 1
        if i == 0:
            break
        j = (((z >> 32) & _LOW32) * (i + 1)) >> 32
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
        i -= 1
    return state
