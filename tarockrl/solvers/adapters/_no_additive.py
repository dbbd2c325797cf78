"""The solver adapter functions of a game without additive positions (Tatteln).

The solver template (:mod:`tarockrl.solvers._template`) can share transposition entries between positions that
differ only in points already won ("additive" positions, keyed by position and threshold; Dreierles uses them while
the Pfeife is in play). A game without them re-exports these from its adapter: every position then uses its full
transposition key, and the bounds they feed are never asked for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GT_LEN = 1


@njit(cache=True)
def additive(row, objective):
    """Never: the full transposition key is used everywhere."""
    return False


@njit(cache=True)
def akey(row):
    """Unused (no additive positions)."""
    return np.int64(0)


@njit(cache=True)
def afmax(row, opts):
    """Unused (no additive positions)."""
    return np.int64(0)


@njit(cache=True)
def apast(row, opts):
    """Unused (no additive positions)."""
    return np.int64(0)


@njit(cache=True)
def gtable(row, opts, root, objective, out):
    """No additive positions: 0 entries."""
    return np.int64(0)


@njit(cache=True)
def monotone_past(row, objective):
    """Never (no ``gtable``): the full transposition key is used everywhere."""
    return False


@njit(cache=True)
def afmin(row, opts):
    """Unused (no additive positions)."""
    return np.int64(0)


@njit(cache=True)
def bonus_range(row, opts, root):
    """Unused (no positions with a monotone past)."""
    return np.int64(0), np.int64(0)
