"""Two-word card sets for packs of more than 64 cards (Troccas' 78-card pack), built on :mod:`.bits`.

A *wide* set is a pair of ``int64`` words ``(lo, hi)`` plus a game constant ``split``: card ``i`` is bit ``i``
of ``lo`` when ``i < split`` and bit ``i - split`` of ``hi`` otherwise. Troccas uses ``split = 22`` so that
``lo`` holds the 21 trumps and the Fool and ``hi`` the 56 suit cards (every suit a uniform 14-bit block).

The helpers mirror the one-word helpers of :mod:`.bits` and :mod:`.tricks` (they call them, they do not
re-implement them) and keep every value ``int64``. A one-word game is the special case ``hi = 0`` with
``split = 64``, so the same functions serve both widths. ``select_index`` (the ``n``-th set bit through x86
``pdep`` of :mod:`.bits` where the CPU has a fast BMI2 ``pdep``, else the broadword
:func:`tarockrl.engine.select.select_bit`) is the one new one-word primitive; ``highest_index`` is re-exported
from :mod:`.bits`.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from tarockrl.engine.bits import FAST_PDEP, highest_index, lowest_index, nth_set_index, pdep
from tarockrl.engine.select import select_bit
from tarockrl.engine.tricks import sum_values

__all__ = [
    "highest_index",
    "select_index",
    "wide_highest_index",
    "wide_follow_or_trump",
    "wide_sum_values",
]

if FAST_PDEP:

    @njit(cache=True, inline="always")
    def select_index(x, n):
        """Index of the ``n``-th set bit of ``x`` (n = 0 is the lowest); ``n`` must be below popcount(x)."""
        return lowest_index(pdep(np.int64(1) << np.int64(n), np.int64(x)))

elif numba.config.DISABLE_JIT:  # pragma: no cover - exercised by the JIT-off subprocess test

    def select_index(x, n):
        """Index of the ``n``-th set bit of ``x`` (n = 0 is the lowest); ``n`` must be below popcount(x)."""
        return nth_set_index(x, n)

else:  # pragma: no cover - CPUs without a fast pdep

    @njit(cache=True, inline="always")
    def select_index(x, n):
        """Index of the ``n``-th set bit of ``x`` (n = 0 is the lowest); ``n`` must be below popcount(x)."""
        return select_bit(x, n)


@njit(cache=True, inline="always")
def wide_highest_index(lo, hi, split):
    """Highest card index of a wide set (-1 when empty)."""
    if hi != 0:
        return split + highest_index(hi)
    if lo != 0:
        return highest_index(lo)
    return np.int64(-1)


@njit(cache=True, inline="always")
def wide_follow_or_trump(h_lo, h_hi, led_lo, led_hi, tr_lo, tr_hi):
    """Cards of the hand ``(h_lo, h_hi)`` playable under follow-suit-else-trump-else-anything.

    ``(led_lo, led_hi)`` is the led suit's mask (pass the trump mask when a trump was led), ``(tr_lo, tr_hi)``
    the trumps. Returns the legal wide set.
    """
    s_lo = h_lo & led_lo
    s_hi = h_hi & led_hi
    if s_lo != 0 or s_hi != 0:
        return s_lo, s_hi
    t_lo = h_lo & tr_lo
    t_hi = h_hi & tr_hi
    if t_lo != 0 or t_hi != 0:
        return t_lo, t_hi
    return h_lo, h_hi


@njit(cache=True)
def wide_sum_values(lo, hi, values, split):
    """Sum of ``values[i]`` over the cards ``i`` of a wide set; also returns the number of cards."""
    t_lo, n_lo = sum_values(lo, values)
    t_hi, n_hi = sum_values(hi, values[split:])
    return t_lo + t_hi, n_lo + n_hi


