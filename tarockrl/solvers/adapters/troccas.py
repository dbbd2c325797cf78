"""Solver adapter for Troccas (card play: phases ``PLAY`` and ``BUOB``, 19 tricks of four cards).

Sides: seats 0 and 2 against 1 and 3; both partners receive the team's settlement, so the value is the seat's.
Non-card actions of play (the king-jack demand after a trick, double leads and knocks where the options allow
them) are actions of the search like card plays.

Values: objective 0 is the root seat's settlement (``RESULT``: the team's points minus 36); objective 1 the
team's card points at the end (``POINTS``, after the scart and the Fool's payment).

Transposition key: the slots that play reads or changes (hands, the trick, the team piles and trick counts, the
Fool's records, led suits, played cards, knock targets, the scart-jack flag), without the per-seat played
records, the last-trick record, the demand and swap records and the knock counts, which rules never read.

Equivalent cards: none are merged (the jack swap, the Fool's payment and knocking name single cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import SPLIT
from tarockrl.games.troccas.kernels import legal_set, step
from tarockrl.solvers._common import hmix
from tarockrl.solvers.adapters._no_additive import (  # noqa: F401 (the template binds them from here)
    GT_LEN,
    additive,
    afmax,
    afmin,
    akey,
    apast,
    bonus_range,
    gtable,
    monotone_past,
)

ONE = np.int64(1)
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 200
MAX_MOVES = 32
NUM_PLAYERS = 4
NUM_ACTIONS = L.NUM_ACTIONS


def _slots() -> np.ndarray:
    keep = [L.PHASE, L.CUR, L.SCART_JACK, L.LEADER, L.TRICK_N, L.IS_DOUBLE, L.LED, L.SETTER_POS, L.TRICK_TW,
            L.TRICK_SW, L.TRICK_WINNER, L.BUOB_SUIT, L.LED_SUITS, L.PLAYED_TW, L.PLAYED_SW, L.TRICK_NO,
            L.FOOL_SEAT, L.FOOL_TRICK_TEAM]
    keep += [L.HAND_TW + i for i in range(4)] + [L.HAND_SW + i for i in range(4)]
    keep += [L.TRICK_CARD + i for i in range(8)] + [L.TRICK_SEAT + i for i in range(8)]
    keep += [L.PILE_TW, L.PILE_TW + 1, L.PILE_SW, L.PILE_SW + 1, L.TRICKS_WON, L.TRICKS_WON + 1]
    keep += [L.KNOCKED_FOR + i for i in range(4)]
    return np.array(sorted(keep), dtype=np.int64)


KEY_SLOTS = _slots()


@njit(cache=True, inline="always")
def in_play(row):
    """The row is in card play (PLAY, or BUOB between a trick and its king-jack demand)."""
    return row[L.PHASE] == L.PLAY or row[L.PHASE] == L.BUOB


@njit(cache=True, inline="always")
def is_over(row):
    """The deal is over."""
    return row[L.PHASE] == L.TERMINAL


@njit(cache=True, inline="always")
def cur(row):
    """The seat to move."""
    return row[L.CUR]


@njit(cache=True, inline="always")
def paranoid(row):
    """Never: Troccas is two teams."""
    return np.int64(0)


@njit(cache=True, inline="always")
def side(row, seat, root):
    """0 when ``seat`` is ``root``'s partner or ``root``."""
    return np.int64(0) if (seat & 1) == (root & 1) else np.int64(1)


@njit(cache=True)
def leaf(row, opts, root, objective):
    """Value of a finished deal for ``root``'s team."""
    if objective == 1:
        return row[L.POINTS + (root & 1)]
    return row[L.RESULT + root]


@njit(cache=True)
def gen(row, opts, moves, reps, merge):
    """Legal actions (ascending; no merging); returns their number."""
    tw, sw, ex = legal_set(row, opts)
    n = 0
    while tw != 0:
        moves[n] = lowest_index(tw)
        reps[n] = n
        tw &= tw - ONE
        n += 1
    while sw != 0:
        moves[n] = SPLIT + lowest_index(sw)
        reps[n] = n
        sw &= sw - ONE
        n += 1
    while ex != 0:
        moves[n] = 78 + lowest_index(ex)
        reps[n] = n
        ex &= ex - ONE
        n += 1
    return n


@njit(cache=True, inline="always")
def hint(row, opts, action, root):
    """No static ordering hint (the history heuristic orders the moves)."""
    return np.int64(0)


@njit(cache=True)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    h = np.int64(0x7120CA5)
    for i in range(KEY_SLOTS.shape[0]):
        h = hmix(h, row[KEY_SLOTS[i]])
    return h


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step."""
    step(row, action, opts)


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed in the card play, the current one included (PIMC's ``solve_tricks``)."""
    return 19 - int(row[L.TRICK_NO])
