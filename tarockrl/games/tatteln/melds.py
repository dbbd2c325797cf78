"""Tatteln melds as bit operations: sequence windows (Tattel, Quart, Fuss), sets, keys and scoring atoms.

**Sequences.** A *window* is ``L`` cards of one suit at consecutive natural positions ``t-L+1 .. t`` of the
natural order ``7 8 9 T J Q K A`` (``6 ...`` with 36 cards), ``3 <= L <= max_window_length``; its key is
``16*L + t``. Windows are numbered per suit: the local id of (L, t) is ``OFF[L] + t - (L-1)`` with
``OFF[L] = sum over L' < L of (R - L' + 1)``; a player's scored windows are one small bit mask per suit.
For every one of the ``2^R`` patterns of one suit's cards (bit ``r`` = plain rank ``r`` held) the tables hold the
mask of windows held (``SEQ_HELD``) and the best key (``SEQ_BEST``), so the held windows of a hand are four
lookups and its best sequence key the largest of four lookups. ``cfg = 4*pack + (max_window_length - 5)``
selects the table row.

**Sets.** With the four suits of a hand as ``R``-bit slices ``a, b, c, d`` (bit ``r`` = rank ``r``), the ranks held
at least three times are ``(a & b & (c | d)) | (c & d & (a | b))`` and the ranks held four times ``a & b & c & d``:
one word operation covers every rank. The best set key is ``16*count + natural position`` of the best rank,
taken with the ``BEST_NATPOS`` table (natural position of the highest rank of a rank pattern).

Tests compare these tables with the obvious loops over windows and ranks (the spec's reference form).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.games.tatteln.cards import NATPOS_TO_R, NATURAL_POS
from tarockrl.games.tatteln.rules import (
    O_LMAX,
    O_SETS_ALL,
    O_TOPUP,
    O_V_FOUR,
    O_V_FUSS,
    O_V_QUART,
    O_V_TATTEL,
    O_V_TRIO,
)

NUM_CFG = 8
MAX_WINDOWS = 27  # per suit: 36 cards with windows up to length 8
SEQ = 0
SET = 1


def window_offsets(R: int, lmax: int) -> dict[int, int]:
    """``OFF[L]`` for L = 3..lmax (local window ids of one suit)."""
    off, pos = {}, 0
    for L in range(3, lmax + 1):
        off[L] = pos
        pos += R - L + 1
    return off


def windows(R: int, lmax: int) -> list[tuple[int, int, int]]:
    """``(local id, L, t)`` of every window of one suit, in id order."""
    off = window_offsets(R, lmax)
    return [(off[L] + t - (L - 1), L, t) for L in range(3, lmax + 1) for t in range(L - 1, R)]


W_PER_SUIT = np.zeros(NUM_CFG, dtype=np.int64)
SEQ_HELD = np.zeros((NUM_CFG, 512), dtype=np.int64)
SEQ_BEST = np.zeros((NUM_CFG, 512), dtype=np.int64)
WIN_LEN_MASK = np.zeros((NUM_CFG, 9), dtype=np.int64)  # [cfg, L]: local ids of the windows of length L
WIN_CARDS = np.zeros((NUM_CFG, 32), dtype=np.int64)  # [cfg, local id]: r-pattern of the window's cards
WIN_KEY = np.zeros((NUM_CFG, 32), dtype=np.int64)
WIN_LEN = np.zeros((NUM_CFG, 32), dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    for _lmax in range(5, 9):
        _cfg = 4 * _d + _lmax - 5
        _wins = windows(_R, _lmax)
        W_PER_SUIT[_cfg] = len(_wins)
        for _w, _L, _t in _wins:
            pat = 0
            for _n in range(_t - _L + 1, _t + 1):
                pat |= 1 << int(NATPOS_TO_R[_d, _n])
            WIN_CARDS[_cfg, _w] = pat
            WIN_KEY[_cfg, _w] = 16 * _L + _t
            WIN_LEN[_cfg, _w] = _L
            WIN_LEN_MASK[_cfg, _L] |= 1 << _w
        for _pat in range(1 << _R):
            held = 0
            best = 0
            for _w, _L, _t in _wins:
                if (_pat & WIN_CARDS[_cfg, _w]) == WIN_CARDS[_cfg, _w]:
                    held |= 1 << _w
                    best = max(best, 16 * _L + _t)
            SEQ_HELD[_cfg, _pat] = held
            SEQ_BEST[_cfg, _pat] = best

BEST_NATPOS = np.full((2, 512), -1, dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    for _pat in range(1, 1 << _R):
        BEST_NATPOS[_d, _pat] = max(int(NATURAL_POS[_d, _r]) for _r in range(_R) if (_pat >> _r) & 1)

# ranks that may form sets, as r-patterns: [pack, sets_all_ranks]
SET_RANKS = np.zeros((2, 2), dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    SET_RANKS[_d, 1] = (1 << _R) - 1
    for _letter in "TJQKA":
        SET_RANKS[_d, 0] |= 1 << ("789JQKTA", "6789JQKTA")[_d].index(_letter)

for _arr in (W_PER_SUIT, SEQ_HELD, SEQ_BEST, WIN_LEN_MASK, WIN_CARDS, WIN_KEY, WIN_LEN, BEST_NATPOS, SET_RANKS):
    _arr.setflags(write=False)


# ---------------------------------------------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def meld_cfg(opts, d):
    """Row of the sequence tables for pack index ``d`` and the option max_window_length."""
    return 4 * d + opts[O_LMAX] - 5


@njit(cache=True, inline="always")
def window_value(L, opts):
    """Value of a window of length L (3, 4, 5 from the options; 6, 7, 8 worth 16, 17, 18)."""
    if L == 3:
        return opts[O_V_TATTEL]
    if L == 4:
        return opts[O_V_QUART]
    if L == 5:
        return opts[O_V_FUSS]
    return np.int64(10) + L


@njit(cache=True)
def best_seq_key(hand, cfg, R):
    """Best sequence key of a hand: max over held windows of 16*L + t (0 if none)."""
    rm = (np.int64(1) << R) - 1
    best = np.int64(0)
    for s in range(4):
        k = SEQ_BEST[cfg, (hand >> (R * s)) & rm]
        if k > best:
            best = k
    return best


@njit(cache=True, inline="always")
def scored_windows(scored, s):
    """The scored-window mask of suit ``s`` from a seat's two packed words ``scored[0..1]`` (suits 0-1, 2-3)."""
    return (scored[s >> 1] >> (32 * (s & 1))) & np.int64(0xFFFFFFFF)


@njit(cache=True)
def has_unscored_seq(hand, sc0, sc1, cfg, R):
    """True when the hand holds a window not yet scored (``sc0``, ``sc1``: the seat's packed scored words)."""
    rm = (np.int64(1) << R) - 1
    m32 = np.int64(0xFFFFFFFF)
    u = SEQ_HELD[cfg, hand & rm] & ~(sc0 & m32)
    u |= SEQ_HELD[cfg, (hand >> R) & rm] & ~((sc0 >> 32) & m32)
    u |= SEQ_HELD[cfg, (hand >> (2 * R)) & rm] & ~(sc1 & m32)
    u |= SEQ_HELD[cfg, (hand >> (3 * R)) & rm] & ~((sc1 >> 32) & m32)
    return u != 0


@njit(cache=True)
def windows_value(u, cfg, opts):
    """Total value of the local windows in mask ``u``."""
    v = np.int64(0)
    for L in range(3, opts[O_LMAX] + 1):
        v += popcount(u & WIN_LEN_MASK[cfg, L]) * window_value(L, opts)
    return v


@njit(cache=True)
def unscored_seq_value(hand, sc0, sc1, cfg, R, opts):
    """unscored_seq(p): the value of the held windows not yet scored."""
    rm = (np.int64(1) << R) - 1
    m32 = np.int64(0xFFFFFFFF)
    v = np.int64(0)
    for s in range(4):
        word = sc0 if s < 2 else sc1
        sc = (word >> (32 * (s & 1))) & m32
        v += windows_value(SEQ_HELD[cfg, (hand >> (R * s)) & rm] & ~sc, cfg, opts)
    return v


@njit(cache=True, inline="always")
def rank_slices(hand, R):
    """``(ranks held >= 3 times, ranks held 4 times)`` as r-patterns."""
    rm = (np.int64(1) << R) - 1
    a = hand & rm
    b = (hand >> R) & rm
    c = (hand >> (2 * R)) & rm
    e = (hand >> (3 * R)) & rm
    ge3 = (a & b & (c | e)) | (c & e & (a | b))
    return ge3, a & b & c & e


@njit(cache=True, inline="always")
def set_ranks(opts, d):
    """The r-pattern of the ranks that may form sets."""
    return SET_RANKS[d, 1 if opts[O_SETS_ALL] != 0 else 0]


@njit(cache=True)
def best_set_key(hand, d, R, elig):
    """Best set key: 16*count + natural position of the best eligible rank held 3 or 4 times (0 if none)."""
    return best_set_key_inline(hand, d, R, elig)


@njit(cache=True, inline="always")
def best_set_key_inline(hand, d, R, elig):
    """:func:`best_set_key` inlined into its caller (the register-resident playout of :mod:`.fastplay`)."""
    ge3, four = rank_slices(hand, R)
    f = four & elig
    if f != 0:
        return 64 + BEST_NATPOS[d, f]
    t = ge3 & elig
    if t != 0:
        return 48 + BEST_NATPOS[d, t]
    return np.int64(0)


@njit(cache=True, inline="always")
def set_atoms(hand, trio_sc, four_sc, R, elig):
    """``(available trio ranks, available four ranks)`` as r-patterns."""
    ge3, four = rank_slices(hand, R)
    trio_av = ge3 & ~four & elig & ~trio_sc & ~four_sc
    four_av = four & elig & ~four_sc
    return trio_av, four_av


@njit(cache=True)
def set_atoms_value(trio_av, four_av, trio_sc, opts):
    """Value of the available set atoms (a four after a scored trio of its rank is topped up)."""
    v = popcount(trio_av) * opts[O_V_TRIO] + popcount(four_av) * opts[O_V_FOUR]
    if opts[O_TOPUP] != 0:
        v -= popcount(four_av & trio_sc) * opts[O_V_TRIO]
    return v


@njit(cache=True, inline="always")
def spread_ranks(pat, R):
    """The cards of every suit whose rank is in the r-pattern ``pat``."""
    return pat | (pat << R) | (pat << (2 * R)) | (pat << (3 * R))


@njit(cache=True)
def window_cards(u, s, cfg, R):
    """The cards of the local windows ``u`` of suit ``s``."""
    pat = np.int64(0)
    while u != 0:
        pat |= WIN_CARDS[cfg, lowest_index(u)]
        u &= u - 1
    return pat << (R * s)

