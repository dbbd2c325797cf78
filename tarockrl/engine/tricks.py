"""Trick-taking helpers shared by the games whose card sets fit one int64 word.

The helpers are parameterised by masks (and, where ranks differ from the index order, by a rank table) so
that every game reuses them instead of writing its own follow-suit and trick-winner loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount

__all__ = [
    "beats_highest_index",
    "follow_or_trump",
    "sum_values",
    "weighted_popcount",
]


@njit(cache=True, inline="always")
def follow_or_trump(hand, led_mask, trump_mask):
    """Cards of ``hand`` that may be played when the led card's suit is ``led_mask``.

    Follow the led suit if possible, otherwise play a trump if possible, otherwise anything.
    When a trump was led, pass ``led_mask = trump_mask``.
    """
    same = hand & led_mask
    if same != 0:
        return same
    trumps = hand & trump_mask
    if trumps != 0:
        return trumps
    return hand


@njit(cache=True, inline="always")
def beats_highest_index(card, best, led_mask, trump_mask):
    """True when ``card`` beats the trick's current best card ``best`` (index order = rank in every suit).

    A trump beats every plain card and lower trumps; a plain card wins only by following the led suit above
    ``best`` while no trump has been played. Fold it over the cards of a trick to find the winner without
    building an array.
    """
    card_trump = (trump_mask >> card) & 1
    best_trump = (trump_mask >> best) & 1
    if card_trump:
        return best_trump == 0 or card > best
    return best_trump == 0 and ((led_mask >> card) & 1) != 0 and card > best


@njit(cache=True)
def sum_values(mask, values):
    """Sum of ``values[i]`` over the set bits ``i`` of ``mask``; also returns the number of cards."""
    total = np.int64(0)
    n = popcount(mask)
    while mask != 0:
        total += values[lowest_index(mask)]
        mask &= mask - 1
    return total, n


@njit(cache=True, inline="always")
def weighted_popcount(mask, class_masks, weights):
    """``sum(weights[k] * popcount(mask & class_masks[k]))``: card values in O(classes), not O(cards).

    Split a pack's counting values into a few classes (e.g. "worth 5", "worth 4", ...) to count a pile with
    a handful of popcounts.
    """
    total = np.int64(0)
    for i in range(class_masks.shape[0]):
        total += weights[i] * popcount(mask & class_masks[i])
    return total
