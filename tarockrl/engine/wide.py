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

from tarockrl.engine.bits import FAST_PDEP, highest_index, lowest_index, nth_set_index, pdep, popcount
from tarockrl.engine.select import select_bit
from tarockrl.engine.tricks import sum_values

__all__ = [
    "highest_index",
    "select_index",
    "wide_bit",
    "wide_has",
    "wide_popcount",
    "wide_lowest_index",
    "wide_highest_index",
    "wide_nth_set_index",
    "wide_follow_or_trump",
    "wide_winner_highest_index",
    "wide_sum_values",
    "wide_mask_to_indices",
    "indices_to_wide_mask",
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
def wide_bit(i, split):
    """The wide set holding only card ``i``, as ``(lo, hi)``."""
    if i < split:
        return np.int64(1) << np.int64(i), np.int64(0)
    return np.int64(0), np.int64(1) << np.int64(i - split)


@njit(cache=True, inline="always")
def wide_has(lo, hi, i, split):
    """True when card ``i`` is in the wide set ``(lo, hi)``."""
    if i < split:
        return (lo >> np.int64(i)) & np.int64(1) != 0
    return (hi >> np.int64(i - split)) & np.int64(1) != 0


@njit(cache=True, inline="always")
def wide_popcount(lo, hi):
    """Number of cards in the wide set ``(lo, hi)``."""
    return popcount(lo) + popcount(hi)


@njit(cache=True, inline="always")
def wide_lowest_index(lo, hi, split):
    """Lowest card index of a wide set (-1 when empty)."""
    if lo != 0:
        return lowest_index(lo)
    if hi != 0:
        return split + lowest_index(hi)
    return np.int64(-1)


@njit(cache=True, inline="always")
def wide_highest_index(lo, hi, split):
    """Highest card index of a wide set (-1 when empty)."""
    if hi != 0:
        return split + highest_index(hi)
    if lo != 0:
        return highest_index(lo)
    return np.int64(-1)


@njit(cache=True)
def wide_nth_set_index(lo, hi, n, split):
    """Card index of the ``n``-th card (0 = lowest) of a wide set; ``n`` must be below its size."""
    k = popcount(lo)
    if n < k:
        return select_index(lo, n)
    return split + select_index(hi, n - k)


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
def wide_winner_highest_index(cards, count, led_lo, led_hi, tr_lo, tr_hi, split):
    """Position (0-based, in playing order) of the card that wins ``cards[:count]``; -1 if none can win.

    For packs whose index grows with the rank inside every suit: the highest trump wins, otherwise the highest
    card of the led suit. A card in neither mask (an excuse such as the Fool) never wins, even when led.
    """
    best_pos = -1
    best_card = -1
    best_trump = False
    for pos in range(count):
        card = cards[pos]
        if wide_has(tr_lo, tr_hi, card, split):
            if (not best_trump) or card > best_card:
                best_pos = pos
                best_card = card
                best_trump = True
        elif (not best_trump) and wide_has(led_lo, led_hi, card, split) and card > best_card:
            best_pos = pos
            best_card = card
    return best_pos


@njit(cache=True)
def wide_sum_values(lo, hi, values, split):
    """Sum of ``values[i]`` over the cards ``i`` of a wide set; also returns the number of cards."""
    t_lo, n_lo = sum_values(lo, values)
    t_hi, n_hi = sum_values(hi, values[split:])
    return t_lo + t_hi, n_lo + n_hi


def wide_mask_to_indices(lo: int, hi: int, split: int) -> list[int]:
    """Python helper: the sorted card indices of a wide set."""
    out = []
    for word, base in ((int(lo), 0), (int(hi), int(split))):
        while word:
            low = word & -word
            out.append(base + low.bit_length() - 1)
            word ^= low
    return out


def indices_to_wide_mask(indices, split: int) -> tuple[int, int]:
    """Python helper: the wide set ``(lo, hi)`` holding exactly the given card indices."""
    lo = hi = 0
    for i in indices:
        i = int(i)
        if i < split:
            lo |= 1 << i
        else:
            hi |= 1 << (i - split)
    return lo, hi
