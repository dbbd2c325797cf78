"""Solver adapter for Dreiertarock (card play: phase ``PLAY``, 16 tricks of three cards).

Sides: the declarer against the two defenders; in Trischaken (all passed) every seat plays for himself and the
search is paranoid (the root seat against the other two).

Values: objective 0 is the settlement: the declarer's ``RESULT`` for the declarer's side, minus it (the sum of
the defenders' settlements) for the defenders, the root seat's own in Trischaken. Objective 1 is ``POINTS`` of
the root's side at the end (the side's pile with discards or talon as the rules give them; own pile in
Trischaken).

Transposition key: the hands, the seat to move, the leader and the current trick; then what scoring reads of
the past: the declarer's tricks (their exact card points in thirds, their count, and which Trull cards and kings
they hold; the defenders' tricks are the rest of the completed tricks), the Mondfang seat and the bird records
(trick, seat, won for Pagat, Uhu, Kakadu); in Trischaken each seat's card points in thirds.

Equivalent cards: everything except Pagat, Uhu, Kakadu, Mond and Sküs (birds, Trull, Mondfang and the Kaiserstich
single them out); kings never merge (no other card of a suit counts five).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import popcount
from tarockrl.engine.masktricks import winning_card
from tarockrl.engine.pack54 import thirds
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_VALUES, KINGS, SUIT_MASK_OF_CARD, TAROCKS, TRULL
from tarockrl.games.dreiertarock.kernels import play_legal, step
from tarockrl.solvers._common import gen_merged, hmix, lead_hint, trick_hint
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
MERGEABLE = np.int64(((1 << 54) - 1) & ~(0b111 | (1 << 20) | (1 << 21)))
VALUES = CARD_VALUES
SPECIAL = np.int64(TRULL | KINGS)
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 52
MAX_MOVES = 20
NUM_PLAYERS = 3
NUM_ACTIONS = L.NUM_ACTIONS


@njit(cache=True, inline="always")
def in_play(row):
    """The row is in the card-play phase."""
    return row[L.PHASE] == L.PLAY


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
    """1 in Trischaken (everyone plays for himself)."""
    return np.int64(1) if row[L.TRISCHAKEN] != 0 else np.int64(0)


@njit(cache=True, inline="always")
def side(row, seat, root):
    """0 when ``seat`` is on ``root``'s side."""
    if row[L.TRISCHAKEN] != 0:
        return np.int64(0) if seat == root else np.int64(1)
    d = row[L.DECLARER]
    return np.int64(0) if (seat == d) == (root == d) else np.int64(1)


@njit(cache=True)
def leaf(row, opts, root, objective):
    """Value of a finished deal for ``root``'s side."""
    if objective == 1:
        return row[L.POINTS + root]
    if row[L.TRISCHAKEN] != 0:
        return row[L.RESULT + root]
    d = row[L.DECLARER]
    return row[L.RESULT + d] if root == d else -row[L.RESULT + d]


@njit(cache=True)
def gen(row, opts, moves, reps, merge):
    """Legal card plays (ascending card) with their equivalence representatives; returns their number."""
    legal = play_legal(row, opts)
    rem = row[L.HAND] | row[L.HAND + 1] | row[L.HAND + 2]
    for i in range(row[L.TRICK_N]):
        rem |= ONE << row[L.TRICK_CARD + i]
    return gen_merged(legal, rem, SUIT_MASK_OF_CARD, VALUES, MERGEABLE, np.int64(L.OFF_PLAY), moves, reps, merge)


@njit(cache=True, inline="always")
def hint(row, opts, action, root):
    """Static ordering score of a card play (``trick_hint`` when following, ``lead_hint`` on a lead)."""
    n = row[L.TRICK_N]
    if n == 0:
        c = action - L.OFF_PLAY
        rem = row[L.HAND] | row[L.HAND + 1] | row[L.HAND + 2]
        return lead_hint(c, rem, SUIT_MASK_OF_CARD[c], VALUES[c])
    c = action - L.OFF_PLAY
    trick = np.int64(0)
    for i in range(n):
        trick |= ONE << row[L.TRICK_CARD + i]
    led = SUIT_MASK_OF_CARD[row[L.TRICK_CARD]]
    w = winning_card(trick, led, TAROCKS)
    pos = 0
    for i in range(n):
        if row[L.TRICK_CARD + i] == w:
            pos = i
    wseat = (row[L.LEADER] + pos) % 3
    partner = side(row, wseat, root) == side(row, row[L.CUR], root)
    return trick_hint(c, trick, led, TAROCKS, partner, VALUES[c])


@njit(cache=True)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    h = hmix(np.int64(0x7A40C), row[L.HAND])
    h = hmix(h, row[L.HAND + 1])
    h = hmix(h, row[L.HAND + 2])
    h = hmix(h, row[L.CUR] + 8 * row[L.LEADER] + 64 * row[L.TRICK_N])
    h = hmix(h, (row[L.TRICK_CARD] + 1) + 64 * (row[L.TRICK_CARD + 1] + 1) + 4096 * (row[L.TRICK_CARD + 2] + 1))
    if row[L.TRISCHAKEN] != 0:
        h = hmix(h, thirds(row[L.WON]) + 1024 * thirds(row[L.WON + 1]) + 1048576 * thirds(row[L.WON + 2]))
        return h
    w = row[L.WON + row[L.DECLARER]]
    h = hmix(h, thirds(w) + 1024 * popcount(w) + 65536 * row[L.DECL_TRICKS] + 16777216 * (row[L.MOND_SEAT] + 1))
    h = hmix(h, w & SPECIAL)
    for b in range(3):
        h = hmix(h, row[L.BIRD_TRICK + b] + 32 * (row[L.BIRD_SEAT + b] + 1) + 256 * row[L.BIRD_WON + b])
    return h


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step."""
    step(row, action, opts)


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed in the card play, the current one included (PIMC's ``solve_tricks``)."""
    return 16 - int(row[L.TRICK_NO])
