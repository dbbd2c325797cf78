"""Resampling the cards a seat cannot see (for Monte Carlo sampling of hidden hands, e.g. PIMC).

``resample_hidden(state, player, opts, rng, scratch)`` redistributes every card hidden from ``player`` over the
places that hold hidden cards, keeping everything ``player`` knows:

* the other seats' hands keep their sizes and their public cards (blind cards turned up for the declarer, the
  announced Pfeife), and never receive a card of a suit the seat has shown it lacks (a seat that did not follow
  suit is void in it, and also in trumps if it did not trump);
* the declarer's hidden discards stay plain non-king cards (the only cards that can be discarded face down);
* the blind (before the auction ends, and in Räuber) and the defenders' part of the blind (when ``player`` may
  not see it) are refilled from the same pool.

The result is consistent with ``player``'s observation, which it leaves unchanged, and with every invariant of
the state (so it can be played on with the ordinary kernels). Dealt and start-of-play hands are rebuilt from
the new hands so that hand bonuses are scored on the sampled cards. The sampler deals the most constrained
place first and retries with fresh randomness when a choice leaves a later place short; inferences beyond
voids (for example from the Räuber play restrictions) are not used as constraints.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.rng import below
from tarockrl.engine.select import select_bit
from tarockrl.games.dreierles.cards import ALL, NUM_CARDS, PFEIFE, PLAIN_NON_KING
from tarockrl.games.dreierles.kernels import apply_unchecked
from tarockrl.games.dreierles.layout import (
    A_DISCARD,
    A_NO_ANNOUNCE,
    ANNOUNCE,
    ANNOUNCED,
    AUCTION,
    BLIND,
    BLIND_REST,
    BLIND_TAKEN,
    DEALT,
    DECLARER,
    DISCARDS,
    FALLBACK,
    HAND,
    HIST,
    HIST_LEN,
    MAX_EPISODE_LENGTH,
    PHASE,
    PLAY,
    PLAYED_BY,
    RAEUBER,
    START_HAND,
    TERMINAL,
    VOIDS,
)
from tarockrl.games.dreierles.rules import O_DEF_SEE_BLIND

ONE = np.int64(1)
SCRATCH_LEN = 20
MAX_TRIES = 200
# places: 0..2 seats' hands, 3 hidden discards, 4 hidden blind cards


@njit(cache=True, _nrt=False)
def _public_in_hand(state, seat):
    if seat != state[DECLARER]:
        return np.int64(0)
    known = state[HAND + seat] & state[BLIND_TAKEN]
    if state[ANNOUNCED] == 1:
        known |= state[HAND + seat] & PFEIFE
    return known


@njit(cache=True, _nrt=False)
def _hidden_blind(state, player, opts):
    """The blind cards ``player`` cannot see, and whether they are the whole ordered blind."""
    if state[PHASE] == AUCTION or state[RAEUBER] != 0:
        blind = np.int64(0)
        for i in range(6):
            blind |= ONE << state[BLIND + i]
        return blind, True
    if state[PHASE] == TERMINAL:
        return np.int64(0), False
    if player == state[DECLARER] or opts[O_DEF_SEE_BLIND] == 0:
        return state[BLIND_REST], False
    return np.int64(0), False


@njit(cache=True, _nrt=False)
def resample_hidden(state, player, opts, rng, scratch):
    """Redistribute the cards hidden from ``player`` (see the module docstring); returns ``(rng, ok)``.

    ``scratch`` is an int64 buffer of ``SCRATCH_LEN`` entries. When no consistent assignment is found within
    ``MAX_TRIES`` attempts (practically never), the state is left unchanged and ``ok`` is False. A pending
    Pfeife decision is first resolved as NO_ANNOUNCE when ``player`` is not the declarer, since that is what
    the other seats see.
    """
    if state[PHASE] == ANNOUNCE and player != state[DECLARER]:
        apply_unchecked(state, A_NO_ANNOUNCE, opts)  # what the other seats see (the decision is private)
    need = scratch[0:5]
    allowed = scratch[5:10]
    got = scratch[10:15]
    order = scratch[15:20]
    declarer = state[DECLARER]
    terminal = state[PHASE] == TERMINAL
    pool = np.int64(0)
    for s in range(3):
        hidden = np.int64(0) if (s == player or terminal) else state[HAND + s] & ~_public_in_hand(state, s)
        need[s] = popcount(hidden)
        allowed[s] = ALL
        void = state[VOIDS + s]
        allowed[s] &= ~void
        pool |= hidden
    hidden_discards = np.int64(0)
    if declarer >= 0 and player != declarer and not terminal:
        hidden_discards = state[DISCARDS] & ~state[FALLBACK]
    need[3] = popcount(hidden_discards)
    allowed[3] = PLAIN_NON_KING
    pool |= hidden_discards
    blind, whole_blind = _hidden_blind(state, player, opts)
    need[4] = popcount(blind)
    allowed[4] = ALL
    pool |= blind
    # most constrained place first
    for h in range(5):
        order[h] = h
    for i in range(5):
        for j in range(i + 1, 5):
            a = order[i]
            b = order[j]
            if popcount(allowed[b] & pool) - need[b] < popcount(allowed[a] & pool) - need[a]:
                order[i] = b
                order[j] = a
    ok = False
    for _ in range(MAX_TRIES):
        remaining = pool
        ok = True
        for i in range(5):
            h = order[i]
            eligible = allowed[h] & remaining
            if popcount(eligible) < need[h]:
                ok = False
                break
            picked = np.int64(0)
            for _k in range(need[h]):
                rng, r = below(rng, popcount(eligible))
                c = select_bit(eligible, r)
                picked |= ONE << c
                eligible &= ~(ONE << c)
            got[h] = picked
            remaining &= ~picked
        if ok:
            break
    if not ok:
        return rng, False
    for s in range(3):
        if need[s] > 0:
            state[HAND + s] = _public_in_hand(state, s) | got[s]
    if need[3] > 0:
        new_disc = got[3]
        state[DISCARDS] = state[FALLBACK] | new_disc
        h = min(state[HIST_LEN], MAX_EPISODE_LENGTH)
        for i in range(h):  # keep the history consistent: the hidden discards get the new cards
            a = state[HIST + i]
            if A_DISCARD <= a < A_DISCARD + NUM_CARDS and ((state[FALLBACK] >> (a - A_DISCARD)) & 1) == 0:
                c = lowest_index(new_disc)
                new_disc &= new_disc - 1
                state[HIST + i] = A_DISCARD + c
    if need[4] > 0:
        if whole_blind:
            cards = got[4]
            for i in range(6):  # a random order of the six cards
                rng, r = below(rng, popcount(cards))
                c = select_bit(cards, r)
                state[BLIND + i] = c
                cards &= ~(ONE << c)
        else:
            k = 6 - popcount(got[4])
            cards = got[4]
            for i in range(k, 6):
                c = lowest_index(cards)
                cards &= cards - 1
                state[BLIND + i] = c
            state[BLIND_REST] = got[4]
    # rebuild the dealt and start-of-play hands of the seats whose cards changed
    for s in range(3):
        if s == player:
            continue
        held = state[HAND + s] | state[PLAYED_BY + s]
        if state[PHASE] >= PLAY:
            state[START_HAND + s] = held
        if s == declarer:
            state[DEALT + s] = (held | state[DISCARDS]) & ~state[BLIND_TAKEN]
        else:
            state[DEALT + s] = held
    return rng, True
