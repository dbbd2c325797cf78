"""Resampling the cards a seat cannot see (for Monte Carlo sampling of hidden hands, e.g. PIMC).

``resample_hidden(state, player, opts, rng, scratch)`` redistributes every card hidden from ``player`` over the
places that hold hidden cards, keeping everything ``player`` knows (the spec's information model, section 9.2):

* the other seats' hands keep their sizes and their public cards (an announced bird while its announcer still
  holds it), and never receive a card of a suit the seat has shown it lacks (a seat that did not follow suit
  is void in it, and also in tarocks if it did not play one);
* the cards of the talon packet the declarer took stay with him; for the defenders, which of them he kept and
  which he discarded face down is sampled too (a card of a suit he has shown to lack must have been discarded);
* after a face-up tarock discard under ``discard_tarock_rule="forced_only"`` the declarer holds no plain
  non-king card any more (a tarock may only be discarded when those run out), so none is dealt to him;
* the declarer's hidden discards stay plain non-king cards (the only cards discarded face down), and the
  DISCARD actions of the history are rewritten to the new cards;
* the talon is refilled from the same pool while it is hidden: during the auction, in Solo and Solo Valat
  (the talon in the defenders' pile is never shown) and in Trischaken (set aside unseen); its two packets
  stay separate places of three cards;
* with ``redeal_without_tarock`` every dealt hand keeps at least one tarock (the deal was not void).

The sample is consistent with ``player``'s observation, which it leaves unchanged, and with every invariant of
the state, so it can be played on with the ordinary kernels; the dealt hands are rebuilt from the new cards.
The most constrained place is dealt first, with fresh randomness on a retry when a choice leaves a later
place short. Inferences beyond the ones above (for example from the Trischaken Stichzwang) are not used.
A finished deal has nothing left to sample and is returned unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.rng import below
from tarockrl.engine.select import select_bit
from tarockrl.games.dreiertarock.cards import ALL, PLAIN, PLAIN_NONKING, TAROCKS
from tarockrl.games.dreiertarock.layout import (
    A_DISCARD,
    ANN_BY,
    AUCTION,
    CONTRACT,
    DEALT,
    DECLARER,
    DEF_TALON,
    DISCARDS,
    DISCARDS_UP,
    HAND,
    HIST,
    HIST_LEN,
    MAX_EPISODE_LENGTH,
    N_DISCARDS,
    PACKET,
    PHASE,
    PLAYED_BY,
    SOLO,
    TAKEN,
    TERMINAL,
    TRISCHAKEN,
    VOIDS,
)
from tarockrl.games.dreiertarock.rules import O_DISCARD_FREE, O_REDEAL_NO_TAROCK

ONE = np.int64(1)
N_PLACES = 6  # 0..2 the seats' hands, 3 the hidden discards, 4 and 5 the talon packets
SCRATCH_LEN = 5 * N_PLACES
MAX_TRIES = 200


@njit(cache=True, _nrt=False)
def announced_in_hand(state, seat):
    """Announced birds that ``seat`` announced and still holds (announcing shows that he holds the card)."""
    known = np.int64(0)
    for b in range(3):
        if state[ANN_BY + b] == seat:
            known |= ONE << b
    return known & state[HAND + seat]


@njit(cache=True, _nrt=False)
def _random_subset(rng, cards, k):
    """``k`` cards drawn uniformly from the mask ``cards`` (k <= popcount(cards)); returns ``(rng, subset)``."""
    picked = np.int64(0)
    for _ in range(k):
        rng, r = below(rng, popcount(cards))
        c = select_bit(cards, r)
        picked |= ONE << c
        cards &= ~(ONE << c)
    return rng, picked


@njit(cache=True, _nrt=False)
def _split_taken_cards(state, rng, no_plain_left):
    """For a defender's sample: which talon cards the declarer took (public) he discarded and which he kept.

    Returns ``(rng, taken_in_region, discarded)``: the taken cards neither played nor discarded face up (they are
    in his hand or among his hidden discards), and a random choice of those to put among the discards. A card
    of a suit he has shown to lack, or a plain card after a forced tarock discard, must have been discarded.
    """
    d = state[DECLARER]
    hidden_discards = state[DISCARDS] & PLAIN
    region = state[PACKET + state[TAKEN]] & (state[HAND + d] | hidden_discards)
    h = popcount(state[HAND + d])
    k = popcount(hidden_discards)
    must = region & state[VOIDS + d]
    if no_plain_left:
        must |= region & PLAIN_NONKING
    can = region & PLAIN_NONKING
    lo = max(popcount(must), popcount(region) - h)
    hi = min(k, popcount(can))
    if (must & ~can) != 0 or lo > hi:  # cannot happen in a real deal; keep the cards where they are
        return rng, region, region & hidden_discards
    rng, extra = below(rng, hi - lo + 1)
    rng, more = _random_subset(rng, can & ~must, lo + extra - popcount(must))
    return rng, region, must | more


@njit(cache=True, _nrt=False)
def _known_dealt(state, seat):
    """The cards of ``seat``'s dealt hand that stay fixed under resampling (played or face-up ones)."""
    known = state[PLAYED_BY + seat]
    if seat == state[DECLARER]:
        known |= state[DISCARDS_UP]
        if state[TAKEN] >= 0:
            known &= ~state[PACKET + state[TAKEN]]
    return known


@njit(cache=True, _nrt=False)
def resample_hidden(state, player, opts, rng, scratch):
    """Redistribute the cards hidden from ``player`` (see the module docstring); returns ``(rng, ok)``.

    ``scratch`` is an int64 buffer of ``SCRATCH_LEN`` entries. When no consistent assignment is found within
    ``MAX_TRIES`` attempts (practically never), the state is left unchanged and ``ok`` is False.
    """
    if state[PHASE] == TERMINAL:
        return rng, True
    need = scratch[0:N_PLACES]
    allowed = scratch[N_PLACES:2 * N_PLACES]
    got = scratch[2 * N_PLACES:3 * N_PLACES]
    order = scratch[3 * N_PLACES:4 * N_PLACES]
    fixed = scratch[4 * N_PLACES:5 * N_PLACES]
    declarer = state[DECLARER]
    no_plain_left = (opts[O_DISCARD_FREE] == 0 and state[DISCARDS_UP] != 0 and state[N_DISCARDS] == 3)
    pool = np.int64(0)
    for h in range(N_PLACES):
        need[h] = 0
        fixed[h] = 0
        allowed[h] = ALL
    for s in range(3):
        allowed[s] = ALL & ~state[VOIDS + s]
        if s == player:
            continue
        fixed[s] = announced_in_hand(state, s)
        hidden = state[HAND + s] & ~fixed[s]
        need[s] = popcount(hidden)
        pool |= hidden
        if s == declarer and no_plain_left:
            allowed[s] &= ~PLAIN_NONKING
    allowed[3] = PLAIN_NONKING
    if declarer >= 0 and player != declarer:
        hidden_discards = state[DISCARDS] & PLAIN
        need[3] = popcount(hidden_discards)
        pool |= hidden_discards
        if state[TAKEN] >= 0:  # the taken talon cards stay with the declarer: in his hand or his discards
            rng, region, discarded = _split_taken_cards(state, rng, no_plain_left)
            pool &= ~region
            fixed[declarer] |= region & ~discarded
            fixed[3] = discarded
            need[declarer] = popcount(state[HAND + declarer]) - popcount(fixed[declarer])
            need[3] -= popcount(discarded)
    talon_hidden = state[PHASE] == AUCTION or state[CONTRACT] >= SOLO or state[TRISCHAKEN] != 0
    if talon_hidden:
        for i in range(2):
            need[4 + i] = 3
            pool |= state[PACKET + i]
    # most constrained place first
    for h in range(N_PLACES):
        order[h] = h
    for i in range(N_PLACES):
        for j in range(i + 1, N_PLACES):
            a = order[i]
            b = order[j]
            if popcount(allowed[b] & pool) - need[b] < popcount(allowed[a] & pool) - need[a]:
                order[i] = b
                order[j] = a
    check_tarock = opts[O_REDEAL_NO_TAROCK] != 0
    ok = False
    for _ in range(MAX_TRIES):
        remaining = pool
        ok = True
        for i in range(N_PLACES):
            h = order[i]
            eligible = allowed[h] & remaining
            if popcount(eligible) < need[h]:
                ok = False
                break
            rng, got[h] = _random_subset(rng, eligible, need[h])
            remaining &= ~got[h]
        if ok and check_tarock:  # the deal was not void: every dealt hand held a tarock
            for s in range(3):
                if s != player:
                    dealt = _known_dealt(state, s) | fixed[s] | got[s]
                    if s == declarer:
                        dealt |= fixed[3] | got[3]
                        if state[TAKEN] >= 0:
                            dealt &= ~state[PACKET + state[TAKEN]]
                    if (dealt & TAROCKS) == 0:
                        ok = False
        if ok:
            break
    if not ok:
        return rng, False
    for s in range(3):
        if s != player:
            state[HAND + s] = fixed[s] | got[s]
    if declarer >= 0 and player != declarer:
        new_disc = fixed[3] | got[3]
        state[DISCARDS] = state[DISCARDS_UP] | new_disc
        n = min(state[HIST_LEN], MAX_EPISODE_LENGTH)
        for i in range(n):  # keep the history consistent: the hidden discards get the new cards
            a = state[HIST + i]
            if A_DISCARD + 22 <= a < A_DISCARD + 54:
                c = lowest_index(new_disc)
                new_disc &= new_disc - 1
                state[HIST + i] = A_DISCARD + c
    if talon_hidden:
        state[PACKET] = got[4]
        state[PACKET + 1] = got[5]
        if declarer >= 0:
            state[DEF_TALON] = got[4] | got[5]
    for s in range(3):
        if s != player:
            held = state[HAND + s] | state[PLAYED_BY + s]
            if s == declarer:
                held |= state[DISCARDS]
                if state[TAKEN] >= 0:
                    held &= ~state[PACKET + state[TAKEN]]
            state[DEALT + s] = held
    return rng, True
