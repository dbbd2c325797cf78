"""Mask-based trick helpers for packs whose index grows with the rank inside every suit.

:mod:`tarockrl.engine.tricks` resolves a trick from the array of its cards; the helpers here work on the set
of cards already in the trick as one int64 mask, which avoids loops in the hottest kernels:

* :func:`highest_index` - index of the highest set bit (LLVM ``ctlz`` under the JIT);
* :func:`winning_card` - the card that currently wins a (possibly incomplete) trick;
* :func:`beating_cards` - which candidate cards would take over the lead of a trick (for "must beat" rules).

All take and return int64 only and also run with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

__all__ = ["highest_index", "above", "winning_card", "beating_cards"]


if numba.config.DISABLE_JIT:  # pragma: no cover - exercised by the JIT-off subprocess tests

    def highest_index(x):
        """Index of the highest set bit of a positive int64 mask."""
        return np.int64(int(x).bit_length() - 1)

else:
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def _ctlz(typingctx, x):
        """LLVM ``ctlz`` on an int64 (the result for 0 is 64)."""
        if x != types.int64:
            return None

        def codegen(context, builder, signature, args):
            fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
            return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

        return types.int64(types.int64), codegen

    @njit(cache=True, inline="always")
    def highest_index(x):
        """Index of the highest set bit of a positive int64 mask (-1 for 0)."""
        return np.int64(63) - _ctlz(np.int64(x))


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
