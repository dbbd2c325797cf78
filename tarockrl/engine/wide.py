"""Two-word card sets for packs of more than 64 cards (Troccas' 78-card pack), built on :mod:`.bits`.

A *wide* set is a pair of ``int64`` words ``(lo, hi)`` plus a game constant ``split``: card ``i`` is bit ``i``
of ``lo`` when ``i < split`` and bit ``i - split`` of ``hi`` otherwise. Troccas uses ``split = 22`` so that
``lo`` holds the 21 trumps and the Fool and ``hi`` the 56 suit cards (every suit a uniform 14-bit block).

The helpers mirror the one-word helpers of :mod:`.bits` and :mod:`.tricks` (they call them, they do not
re-implement them) and keep every value ``int64``. A one-word game is the special case ``hi = 0`` with
``split = 64``, so the same functions serve both widths. ``select_index`` (the ``n``-th set bit) is
:func:`tarockrl.engine.select.select_bit` (x86 ``pdep`` where the CPU has a fast one, else broadword) and
``highest_index`` is re-exported from :mod:`.bits`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import highest_index
from tarockrl.engine.select import select_bit
from tarockrl.engine.tricks import sum_values

__all__ = [
    "highest_index",
    "select_index",
    "wide_highest_index",
    "wide_follow_or_trump",
    "wide_sum_values",
]

select_index = select_bit  # the n-th set bit (n = 0 is the lowest): pdep where it is fast, else broadword


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


