"""Solver adapter for Dreiertarock (card play: phase ``PLAY``, 16 tricks of three cards).

Sides: the declarer against the two defenders; in Trischaken (all passed) every seat plays for himself and the
search is paranoid (the root seat against the other two).

Values: objective 0 is the settlement: the declarer's ``RESULT`` for the declarer's side, minus it (the sum of
the defenders' settlements) for the defenders, the root seat's own in Trischaken. Objective 1 is ``POINTS`` of
the root's side at the end (the side's pile with discards or talon as the rules give them; own pile in
Trischaken).

Transposition key: the position up to ranks (``_rank_key``: the cards still in play, hands and current trick,
in suit and rank order, each as its place and counting value, with the number of them per suit, which of the
Pagat, Uhu, Kakadu, Mond and Sküs are among them, the seat to move, the leader and the trick size), and a
summary of the tricks won so far that is exactly what the settlement reads of them (``_past_code`` and the
points): the declarer's pile points so far in thirds (a pile holds whole tricks, so the final points are these
plus the points of the tricks still to win, docs/rules/dreiertarock.md §2.3); whether the declarer has won every
trick so far or none (valat, and Solo Valat); per side whether its tricks (its pile with
``trull_counts_non_trick_cards``) hold a Trull card, and a king (Trull and King Trull need all of them in one
side's tricks; with the cards in play known, that is all they read of the past, §6.4); the Mondfang (none, the
declarer's, the defenders'); per bird whether it was played to its own trick, whether it won it and whether the
declarer played it (all that §6.4 reads of a bird). In Trischaken: each seat's points so far in thirds (no
bonuses, §6.8).

Why cards may be keyed up to ranks: the play rules (follow suit, else a tarock; Trischaken's duty to beat) and
trick winning read only suit and rank order among the cards in play; the counting reads values; the only cards
a rule names are the Pagat, Uhu and Kakadu (birds, the Trischaken Pagat rule, Kaiserstich), the Mond and the
Sküs (Trull, Mondfang, Kaiserstich): they are flagged, and as the lowest and highest tarocks their place in the
rank order then identifies them. Kings are the only plain cards worth 5, so King Trull is read off the values.

Equivalent cards: everything except Pagat, Uhu, Kakadu, Mond and Sküs (birds, Trull, Mondfang and the Kaiserstich
single them out); kings never merge (no other card of a suit counts five).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import winning_card
from tarockrl.engine.pack54 import thirds
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_VALUES, KINGS, SUIT_MASK_OF_CARD, TAROCKS, TRULL
from tarockrl.games.dreiertarock.kernels import play_legal, step
from tarockrl.games.dreiertarock.rules import O_TRULL_PILES
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
NAMED = np.int64(0b111 | (1 << 20) | (1 << 21))  # Pagat, Uhu, Kakadu, Mond, Sküs: the cards a rule names
MERGEABLE = np.int64(((1 << 54) - 1) & ~NAMED)
VALUES = CARD_VALUES
COPY_LEN = L.HIST_LEN + 1
MAX_DEPTH = 52
MAX_MOVES = 20
NUM_PLAYERS = 3
NUM_ACTIONS = L.NUM_ACTIONS
BIRD_TRICK_NO = np.array(L.BIRD_TRICK_NUMBERS, dtype=np.int64)
SUIT_FIRST = (0, 22, 30, 38, 46)  # a card of each suit (tarocks, hearts, diamonds, clubs, spades)


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
def forced_rest(row):
    """Every play left is forced: the seat to move holds its last card (so does every seat still to play)."""
    return popcount(row[L.HAND + row[L.CUR]]) == 1


@njit(cache=True, inline="always")
def tt_skip(row):
    """Positions the search keeps out of the table: the last card of a trick (its children, the next trick's
    start, are in the table)."""
    return row[L.TRICK_N] == 2


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


@njit(cache=True, inline="always")
def _in_play(row):
    """The cards still in play: every hand and the current trick."""
    rem = row[L.HAND] | row[L.HAND + 1] | row[L.HAND + 2]
    for i in range(row[L.TRICK_N]):
        rem |= ONE << row[L.TRICK_CARD + i]
    return rem


@njit(cache=True)
def gen(row, opts, moves, reps, merge):
    """Legal card plays (ascending card) with their equivalence representatives; returns their number."""
    legal = play_legal(row, opts)
    return gen_merged(legal, _in_play(row), SUIT_MASK_OF_CARD, VALUES, MERGEABLE, np.int64(L.OFF_PLAY), moves,
                      reps, merge)


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
def _rank_key(row, h):
    """Fold the position up to ranks into ``h`` (see the module docstring): the cards in play in index order,
    each as its place (a hand, or its position in the trick) and counting value, their number per suit, which
    named cards (``NAMED``) are among them, the seat to move, the leader and the trick size."""
    h0 = row[L.HAND]
    h1 = row[L.HAND + 1]
    h2 = row[L.HAND + 2]
    n = row[L.TRICK_N]
    t0 = (ONE << row[L.TRICK_CARD]) if n > 0 else np.int64(0)
    t1 = (ONE << row[L.TRICK_CARD + 1]) if n > 1 else np.int64(0)
    rem = h0 | h1 | h2 | t0 | t1
    acc = np.int64(0)
    k = 0
    m = rem
    while m != 0:
        c = lowest_index(m)
        b = m & -m
        m ^= b
        if (h0 & b) != 0:
            o = 0
        elif (h1 & b) != 0:
            o = 1
        elif (h2 & b) != 0:
            o = 2
        elif (t0 & b) != 0:
            o = 3
        else:
            o = 4
        acc = acc * 64 + o + 8 * VALUES[c]
        k += 1
        if k == 10:
            h = hmix(h, acc)
            acc = np.int64(0)
            k = 0
    h = hmix(h, acc + (np.int64(k) << np.int64(60)))
    su = np.int64(0)
    for s in range(5):
        su = su * 64 + popcount(rem & SUIT_MASK_OF_CARD[SUIT_FIRST[s]])
    return hmix(h, su + (np.int64(row[L.CUR] + 4 * row[L.LEADER] + 16 * n + 64 * (rem & NAMED)) << np.int64(31)))


@njit(cache=True)
def _past_code(row, opts):
    """What the settlement reads of the completed tricks besides the declarer's points (module docstring)."""
    d = row[L.DECLARER]
    dt = row[L.DECL_TRICKS]
    v = (np.int64(1) if dt == 0 else np.int64(0)) + (np.int64(2) if dt == row[L.TRICK_NO] else np.int64(0))
    wd = row[L.WON + d]
    wf = row[L.WON + (d + 1) % 3] | row[L.WON + (d + 2) % 3]
    if opts[O_TRULL_PILES] != 0:
        wd |= row[L.DISCARDS]
        wf |= row[L.DEF_TALON]
    v += 4 * ((wd & TRULL) != 0) + 8 * ((wf & TRULL) != 0) + 16 * ((wd & KINGS) != 0) + 32 * ((wf & KINGS) != 0)
    ms = row[L.MOND_SEAT]
    v += 64 * (0 if ms < 0 else (1 if ms == d else 2))
    for b in range(3):
        if row[L.BIRD_TRICK + b] == BIRD_TRICK_NO[b]:
            code = 1 + row[L.BIRD_WON + b] + 2 * (1 if row[L.BIRD_SEAT + b] == d else 0)
            v += code << (8 + 3 * b)
    return v


@njit(cache=True)
def key(row, opts):
    """Transposition key (see the module docstring)."""
    if row[L.TRISCHAKEN] != 0:
        h = _rank_key(row, np.int64(0x7A40C))
        return hmix(h, thirds(row[L.WON]) + 1024 * thirds(row[L.WON + 1]) + 1048576 * thirds(row[L.WON + 2]))
    h = _rank_key(row, np.int64(0x7A40D))
    return hmix(h, _past_code(row, opts) + (thirds(row[L.WON + row[L.DECLARER]]) << np.int64(20)))


@njit(cache=True, inline="always")
def apply(row, action, opts):
    """The game's unchecked step."""
    step(row, action, opts)


# ---- what PIMC reads (plain Python; tarockrl/agents/pimc.py) ---------------------------------------------------


def tricks_left(row: np.ndarray, options: dict) -> int:
    """Tricks still to be completed in the card play, the current one included (PIMC's ``solve_tricks``)."""
    return 16 - int(row[L.TRICK_NO])
