"""Solver adapter for Tatteln (the whole deal is card play: the stock phase, then the final phase).

Sides: one against one. The stock is part of the open position: its order is in the row, so the draws after
each trick are known; robbing the turn-up and announcing melds are actions of the search like card plays.

Values: objective 0 is the root seat's settlement (``RESULT``); objective 1 its pile's card points plus 10 for
the last trick (``pile_points``; melds are not card points).

Transposition key: every slot of the row that play reads or changes (hands, stock position, bottom card, trick,
piles, meld points and scored windows, final-phase trick counts, turn flags, events), except the history, the
record of the last completed trick (read only by scoring at the end, where it is the final trick itself) and
the record of the last announcement (only shown in observations).

Equivalent cards: none are merged (melds name single cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.kernels import legal_set, pile_points, step
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
from tarockrl.solvers.adapters._tatteln_hint import tatteln_hint

ONE = np.int64(1)
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 104
MAX_MOVES = 24
NUM_PLAYERS = 2
NUM_ACTIONS = 39
_skip = {L.MAGIC, L.DECK, L.DECK + 1, L.DECK + 2, L.DECK + 3, L.LAST_TRICK, L.ANN, L.ANN_PTS, L.RESULT, L.RESULT + 1,
         L.DEALER, L.TRUMP}
KEY_SLOTS = np.array([i for i in range(L.HIST_LEN) if i not in _skip], dtype=np.int64)
del _skip


@njit(cache=True, inline="always")
def in_play(row):
    """The row is in play (stock or final phase)."""
    return row[L.PHASE] != L.TERMINAL


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
    """Never: Tatteln is one against one."""
    return np.int64(0)


@njit(cache=True, inline="always")
def side(row, seat, root):
    """0 when ``seat`` is ``root``."""
    return np.int64(0) if seat == root else np.int64(1)


@njit(cache=True)
def leaf(row, opts, root, objective):
    """Value of a finished deal for ``root``."""
    if objective == 1:
        return pile_points(row, root, opts)
    return row[L.RESULT + root]


@njit(cache=True)
def gen(row, opts, moves, reps, merge):
    """Legal actions (ascending; no merging); returns their number."""
    m = legal_set(row, opts)
    n = 0
    while m != 0:
        moves[n] = lowest_index(m)
        m &= m - ONE
        reps[n] = n
        n += 1
    return n


@njit(cache=True, inline="always")
def hint(row, opts, action, root):
    """Static score of an action (higher first): :func:`._tatteln_hint.tatteln_hint` (rob, good announcements,
    then card play by points won or lost minus the holding value spent)."""
    return tatteln_hint(row, opts, action, root)


@njit(cache=True)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    h = np.int64(0x7A77E1)
    for i in range(KEY_SLOTS.shape[0]):
        h = hmix(h, row[KEY_SLOTS[i]])
    return h


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step."""
    step(row, action, opts)


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed, the stock phase's included (the solver takes the whole deal)."""
    return int(options.get("deck_size", 32)) // 2 - int(row[L.TRICKS])


def pimc_defaults(options: dict) -> tuple[int, int]:
    """PIMC's ``(solve_tricks, max_nodes)``: the whole final phase, with a budget of 3,000,000 nodes.

    Once the stock is gone the deal is a game of perfect information (the opponent holds every card the seat has
    not seen, ``docs/rules/tatteln.md`` §9.1), so every sampled world is the true position and PIMC solves the
    whole final phase exactly (``hand_size`` tricks, 8 or 9; from its first trick up to about a million nodes;
    the identical worlds are solved once, see :func:`world_key`).
    """
    return int(options.get("hand_size", 9)), 3_000_000


def world_key(row: np.ndarray) -> bytes:
    """Bytes that identify a sampled world for the solver: two worlds with equal keys have equal values.

    The whole row, except in the final phase the stored shuffle (``DECK``), which then only records in which order
    the stock was drawn (never read again), so the worlds of a final-phase decision, which differ only there, are
    solved once.
    """
    if int(row[L.PHASE]) == L.FINAL_PHASE:
        row = row.copy()
        row[L.DECK:L.DECK + 4] = 0
    return row.tobytes()


def search_free_action(legal: list[int], options: dict) -> int | None:
    """``ROB`` when legal: PIMC takes it without search (else ``None``).

    Robbing the turn-up (``docs/rules/tatteln.md`` §4.3) swaps the lowest trump, worth nothing, for the face-up
    trump, and is legal at every turn while the stock lasts. Simulation cannot value it: a rollout policy that
    robs robs at its next turn, so "a card now, rob next turn" is worth the same as "rob now" up to noise, and a
    searching player would put the rob off turn after turn until the stock is gone (measured: PIMC-32 robbed at
    9 of 37 such decisions). Like the rule-based player, PIMC robs at once.
    """
    rob = int(options.get("deck_size", 32)) + 2
    return rob if rob in legal else None
