"""Branch-free selection of the k-th set bit of an int64 mask (broadword "select", after S. Vigna, 2008).

``select_bit(x, k)`` returns the same as :func:`tarockrl.engine.bits.nth_set_index` for ``x >= 0`` and
``0 <= k < popcount(x)``, without a loop whose length depends on ``k``. In a random playout the loop's exit is a
branch the CPU cannot predict; this version trades it for about twenty word operations and one table lookup.
The byte counts are summed with one multiplication; the byte holding the k-th bit is found by comparing ``k``
with all eight running sums at once, and a 2048-entry table finishes inside that byte.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import FAST_PDEP, lowest_index, pdep, popcount

__all__ = ["select_bit", "broadword_select", "SELECT_IN_BYTE"]

SELECT_IN_BYTE = np.full(256 * 8, 8, dtype=np.int64)
"""``SELECT_IN_BYTE[b | (k << 8)]``: position of the k-th set bit of the byte b (8 when b has fewer bits)."""
for _b in range(256):
    for _k, _i in enumerate([i for i in range(8) if (_b >> i) & 1]):
        SELECT_IN_BYTE[_b | (_k << 8)] = _i
SELECT_IN_BYTE.setflags(write=False)

_L8 = np.int64(0x0101010101010101)
_H8 = np.int64(0x8080808080808080 - (1 << 64))
_M1 = np.int64(0x5555555555555555)
_M2 = np.int64(0x3333333333333333)
_M4 = np.int64(0x0F0F0F0F0F0F0F0F)


@njit(cache=True, inline="always")
def broadword_select(x, k):
    """Index of the k-th set bit of ``x`` counting from the lowest (k = 0 is the lowest); x must be >= 0."""
    x = np.int64(x)
    k = np.int64(k)
    s = x - ((x >> 1) & _M1)
    s = (s & _M2) + ((s >> 2) & _M2)
    s = (s + (s >> 4)) & _M4
    sums = s * _L8  # byte j: set bits in bytes 0..j (wraps harmlessly)
    geq = ((k * _L8) | _H8) - sums  # byte j's top bit: k >= sums[j]
    place = popcount((geq >> 7) & _L8) * 8
    rank = k - (((sums << 8) >> place) & 0xFF)
    return place + SELECT_IN_BYTE[((x >> place) & 0xFF) | (rank << 8)]


if FAST_PDEP:

    @njit(cache=True, inline="always")
    def select_bit(x, k):
        """Index of the k-th set bit of ``x`` counting from the lowest (k = 0 is the lowest); x must be >= 0.

        x86 BMI2 ``pdep`` where the CPU has a fast one (:data:`tarockrl.engine.bits.FAST_PDEP`): three cycles
        instead of the broadword sequence; the same result as :func:`broadword_select` everywhere."""
        return lowest_index(pdep(np.int64(1) << np.int64(k), np.int64(x)))

else:  # pragma: no cover - CPUs without a fast pdep (and NUMBA_DISABLE_JIT)
    select_bit = broadword_select
