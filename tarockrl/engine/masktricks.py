"""Mask-based trick helpers for packs whose index grows with the rank inside every suit.

:mod:`tarockrl.engine.tricks` resolves a trick from the array of its cards; the helpers here work on the set
of cards already in the trick as one int64 mask, which avoids loops in the hottest kernels:

* :func:`highest_index` - index of the highest set bit (from :mod:`.bits`);
* :func:`winning_card` - the card that currently wins a (possibly incomplete) trick;
* :func:`beating_cards` - which candidate cards would take over the lead of a trick (for "must beat" rules).

All take and return int64 only and also run with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import highest_index

__all__ = ["highest_index", "above", "winning_card", "beating_cards"]


@njit(cache=True, inline="always")
def above(card):
    """The mask of every index strictly above ``card`` (0 <= card <= 62)."""
    return ~((np.int64(2) << np.int64(card)) - np.int64(1))


@njit(cache=True, inline="always")
def winning_card(trick, led_mask, trump_mask):
    """The card that wins the cards ``trick`` (a non-empty mask) when a card of ``led_mask`` was led.

    The highest trump wins; without a trump, the highest card of the led suit wins.
    """
    trumps = trick & trump_mask
    if trumps != 0:
        return highest_index(trumps)
    return highest_index(trick & led_mask)


@njit(cache=True, inline="always")
def beating_cards(candidates, trick, led_mask, trump_mask):
    """The cards of ``candidates`` that would win the trick ``trick`` (non-empty) if played now.

    A trump beats a plain winning card and any lower trump; a card of the led suit beats a lower card of
    that suit while no trump is in the trick; a card of another plain suit never beats.
    """
    best = winning_card(trick, led_mask, trump_mask)
    higher = above(best)
    if (trick & trump_mask) != 0:
        return candidates & trump_mask & higher
    return (candidates & trump_mask) | (candidates & led_mask & higher)
