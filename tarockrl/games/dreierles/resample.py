"""Dreierles: exact uniform sampling of the cards a seat cannot see (worlds for PIMC search).

``resample_hidden(state, player, opts, rng, scratch)`` replaces ``state`` by a *world*: a whole deal that could
have happened, drawn uniformly among all worlds consistent with what ``player`` knows, built as a deal plus the
history replayed action by action by the rule kernels (so every derived slot, hand bonus basis included, is that
of a real game). :func:`sample_worlds` draws many worlds of one position in one call. The counting core is
:mod:`tarockrl.games.worlds`.

**Hidden locations** (relative to ``player``): the other two hands (their current sizes), the declarer's
face-down discards (to a defender; their number is public), the whole blind in the auction and in Räuber, and
the defenders' part of the blind when ``player`` may not see it (the declarer always; a defender with
``defenders_see_unused_blind=False``).

**Information honoured** (hard constraints, all public to ``player``):

* every card ``player`` has seen: own hand and own discards, every card played, the blind cards turned up for
  the declarer, the defenders' part of the blind when visible, trumps discarded face up under the fallback;
* the blind cards taken by the declarer lie in his hand or among his face-down discards, never elsewhere;
* face-down discards are plain non-king cards (the only cards that can be discarded face down, §5);
* a declarer who discarded a trump face up (the fallback) holds no plain non-king card once discarding is over
  (he could not have discarded a trump while able to fill the discards with plain cards);
* voids: a seat that did not follow suit holds none of that suit, and none of the trumps if it did not trump;
* an announced Pfeife lies in the declarer's hand (until played);
* Räuber play restrictions (§ Räuber): every Räuber card play of another seat must have been legal in the world,
  which excludes cards: under ``steinmauern`` a seat that did not play the due Pfeife while it would have been
  legal does not hold it, and a seat that played the 21 while the 21-rule forbade it (unless it held no other
  trump) holds no other trump; under ``iffezheim`` a seat that played none of Stieß / 21 / (from trick 3) Pfeife
  while each would have been legal holds none of them, and a card the rule forbids that was played anyway was
  the seat's only legal card.

**Hidden actions rewritten**: the declarer's face-down DISCARD actions get the world's discards (ascending, in
the same positions; every such history is legal); the declarer's NO_ANNOUNCE (a private decision) is removed
or inserted as the world's Pfeife requires. A Pfeife decision still pending is left pending when the world's
declarer holds the Pfeife and is absent otherwise (both show ``player`` the same observation).

**Deliberately not used** (soft signals, strategy-dependent): the bids and passes, knocks, a declined or
missing Pfeife announcement (a defender does not see it), the choice of which cards were discarded or played.
The worlds are uniform over card placements (classic PIMC), not weighted by how likely the opponents' choices
were.

**Limits**: while the declarer is still discarding after a face-up trump, the bound "fewer plain non-kings than
discards still to make" is not applied (the worlds may then hold the declarer's remaining discards impossible to
complete legally); a finished deal is returned unchanged; with ``auto_play_forced`` the history is replayed
without auto-play (the world may then end on a forced decision that the true game would already have applied).
The order of the cards inside the blind's taken part and inside a visible rest is normalised (ascending); an
unseen whole blind is put in uniformly random order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.rng import stream_seed
from tarockrl.engine.tricks import beats_highest_index
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import ALL, PFEIFE, PLAIN_NON_KING, STIESS, SUIT_OF_CARD, T21, TRUMPS
from tarockrl.games.dreierles.kernels import apply_unchecked, init_from_deal, is_legal
from tarockrl.games.dreierles.rules import (
    O_AUTO_FORCED,
    O_DEF_SEE_BLIND,
    O_RAEUBER_21,
    O_RAEUBER_CARRY,
    O_RAEUBER_PFEIFE,
    O_RAEUBER_SET,
)
from tarockrl.games.sampler_template import bind_sampler
from tarockrl.games.worlds import draw, plan, rand_below, total_worlds

ONE = np.int64(1)
SCRATCH_LEN = 1
NUM_LOC = 5  # 0..2 seats' hands, 3 face-down discards, 4 hidden blind cards
LOC_DISC = 3
LOC_BLIND = 4


@njit(cache=True)
def _raeuber_exclusions(state, player, opts, notin):
    """Cards each other seat cannot hold, inferred from its Räuber plays (``notin[s] |= ...``)."""
    rule_set = opts[O_RAEUBER_SET]
    if rule_set == 2:
        return
    leader = (state[L.DEALER] + 1) % 3
    trick = np.zeros(3, dtype=np.int64)
    n = 0
    trick_no = 1
    n_trump_led = 0
    stiess_played = False
    h = min(state[L.HIST_LEN], L.MAX_EPISODE_LENGTH)
    for i in range(h):
        a = state[L.HIST + i]
        if a < L.A_PLAY:
            continue
        c = a - L.A_PLAY
        b = ONE << c
        s = (leader + n) % 3
        if n == 0 and c <= 21:
            n_trump_led += 1
        in_trick = np.int64(0)
        for q in range(n):
            in_trick |= ONE << trick[q]
        # the legal base set: the domain a card of which would have been legal had the seat held it
        if n == 0:
            domain = ALL
        else:
            led = SUIT_OF_CARD[trick[0]]
            if (b & led) != 0:
                domain = led
            else:
                domain = TRUMPS if (b & TRUMPS) != 0 else ALL
        ex = np.int64(0)
        if s != player:
            if rule_set == 1:  # iffezheim
                forbidden = ((b & STIESS) != 0 and (in_trick & T21) != 0) or (
                    (b & T21) != 0 and (in_trick & STIESS) != 0
                )
                if forbidden:
                    ex |= domain & ~b  # the seat had no other legal card
                else:
                    cands = np.int64(0)
                    if (in_trick & T21) == 0:
                        cands |= STIESS
                    if (in_trick & STIESS) == 0:
                        cands |= T21
                    if trick_no >= 3:
                        cands |= PFEIFE
                    if (b & cands) == 0:
                        ex |= cands & domain
            else:  # steinmauern
                pf_rule = opts[O_RAEUBER_PFEIFE]
                if pf_rule == 0:
                    due = trick_no >= 3 if opts[O_RAEUBER_CARRY] != 0 else trick_no == 3
                else:
                    due = n > 0 and trick[0] <= 21 and n_trump_led >= 3
                if due and c != 0:
                    ex |= PFEIFE & domain
                if (b & T21) != 0:
                    rule21 = opts[O_RAEUBER_21]
                    st_in_trick = (in_trick & STIESS) != 0
                    restricted = (rule21 == 0 and not (stiess_played or st_in_trick)) or (rule21 == 1 and st_in_trick)
                    if restricted:
                        ex |= TRUMPS & ~T21
        notin[s] |= ex
        trick[n] = c
        n += 1
        if n == 3:
            led = SUIT_OF_CARD[trick[0]]
            pos = 0
            best = trick[0]
            for q in range(1, 3):
                if beats_highest_index(trick[q], best, led, TRUMPS):
                    pos = q
                    best = trick[q]
            for q in range(3):
                if trick[q] == 21:
                    stiess_played = True
            leader = (leader + pos) % 3
            n = 0
            trick_no += 1


@njit(cache=True)
def _setup(state, player, opts, cards, allow, caps):
    """The placement problem of ``player``'s view: fills ``cards``, ``allow``, ``caps``; returns the card count."""
    phase = state[L.PHASE]
    d = state[L.DECLARER]
    raeuber = state[L.RAEUBER] != 0
    whole_blind = phase == L.AUCTION or raeuber
    for j in range(NUM_LOC):
        caps[j] = 0
    pool = np.int64(0)
    for s in range(3):
        if s != player:
            caps[s] = popcount(state[L.HAND + s])
            pool |= state[L.HAND + s]
    disc_hidden = np.int64(0)
    if d >= 0 and player != d:
        disc_hidden = state[L.DISCARDS] & ~state[L.FALLBACK]
        caps[LOC_DISC] = popcount(disc_hidden)
        pool |= disc_hidden
    blind_hidden = np.int64(0)
    if whole_blind:
        for i in range(6):
            blind_hidden |= ONE << state[L.BLIND + i]
    elif player == d or opts[O_DEF_SEE_BLIND] == 0:
        blind_hidden = state[L.BLIND_REST]
    caps[LOC_BLIND] = popcount(blind_hidden)
    pool |= blind_hidden
    notin = np.zeros(3, dtype=np.int64)
    for s in range(3):
        notin[s] = state[L.VOIDS + s]
    if raeuber:
        _raeuber_exclusions(state, player, opts, notin)
    if d >= 0 and state[L.FALLBACK] != 0 and phase != L.DISCARD:
        notin[d] |= PLAIN_NON_KING
    taken = np.int64(0)
    if d >= 0 and player != d:
        taken = state[L.BLIND_TAKEN]
    pfeife_known = d >= 0 and player != d and state[L.ANNOUNCED] == 1
    ncard = 0
    rest = pool
    while rest != 0:
        c = lowest_index(rest)
        rest &= rest - 1
        b = ONE << c
        a = np.int64(0)
        if pfeife_known and c == 0:
            a = ONE << d
        elif (taken & b) != 0:
            if (notin[d] & b) == 0:
                a |= ONE << d
            if (b & PLAIN_NON_KING) != 0 and caps[LOC_DISC] > 0:
                a |= ONE << LOC_DISC
        else:
            for s in range(3):
                if s != player and caps[s] > 0 and (notin[s] & b) == 0:
                    a |= ONE << s
            if (b & PLAIN_NON_KING) != 0 and caps[LOC_DISC] > 0:
                a |= ONE << LOC_DISC
            if caps[LOC_BLIND] > 0:
                a |= ONE << LOC_BLIND
        cards[ncard] = c
        allow[ncard] = a
        ncard += 1
    return ncard


@njit(cache=True)
def _build(state, player, ropts, cards, loc_of, ncard, world, rs):
    """Write into ``world`` the replayed game of one assignment (generator in ``rs[0]``); returns ``ok``.

    ``ropts`` are the rules options with ``auto_play_forced`` off (the history is replayed as recorded).
    """
    d = state[L.DECLARER]
    got = np.zeros(NUM_LOC, dtype=np.int64)
    for k in range(ncard):
        got[loc_of[k]] |= ONE << cards[k]
    hands = np.zeros(3, dtype=np.int64)
    for s in range(3):
        hands[s] = state[L.HAND + s] if s == player else got[s]
    discards = state[L.DISCARDS]
    if d >= 0 and player != d:
        discards = state[L.FALLBACK] | got[LOC_DISC]
    blind = np.zeros(6, dtype=np.int64)
    if state[L.PHASE] == L.AUCTION or state[L.RAEUBER] != 0:
        cs = got[LOC_BLIND]
        for i in range(6):
            blind[i] = lowest_index(cs)
            cs &= cs - 1
        for i in range(5, 0, -1):
            j = rand_below(rs, i + 1)
            t = blind[i]
            blind[i] = blind[j]
            blind[j] = t
    else:
        taken = state[L.BLIND_TAKEN]
        rest = state[L.BLIND_REST]
        if player == d or ropts[O_DEF_SEE_BLIND] == 0:
            rest = got[LOC_BLIND]
        i = 0
        m = taken
        while m != 0:
            blind[i] = lowest_index(m)
            m &= m - 1
            i += 1
        m = rest
        while m != 0:
            blind[i] = lowest_index(m)
            m &= m - 1
            i += 1
    dealt = np.zeros(3, dtype=np.int64)
    for s in range(3):
        dealt[s] = hands[s] | state[L.PLAYED_BY + s]
    if d >= 0:
        dealt[d] = (dealt[d] | discards) & ~state[L.BLIND_TAKEN]
    init_from_deal(world, dealt, blind, state[L.DEALER], ropts)
    hide_announce = d >= 0 and player != d
    new_disc = got[LOC_DISC]
    h = min(state[L.HIST_LEN], L.MAX_EPISODE_LENGTH)
    for i in range(h):
        a = state[L.HIST + i]
        if hide_announce:
            if a == L.A_NO_ANNOUNCE:
                continue
            if world[L.PHASE] == L.ANNOUNCE and a != L.A_ANNOUNCE:
                apply_unchecked(world, L.A_NO_ANNOUNCE, ropts)
            if L.A_DISCARD <= a < L.A_DISCARD + 54 and ((state[L.FALLBACK] >> (a - L.A_DISCARD)) & 1) == 0:
                c = lowest_index(new_disc)
                new_disc &= new_disc - 1
                a = L.A_DISCARD + c
        if not is_legal(world, a, ropts):
            return False
        apply_unchecked(world, a, ropts)
    if hide_announce and world[L.PHASE] == L.ANNOUNCE and state[L.PHASE] != L.ANNOUNCE:
        apply_unchecked(world, L.A_NO_ANNOUNCE, ropts)
    return True


@njit(cache=True)
def _prepare(state, player, opts):
    cards = np.zeros(64, dtype=np.int64)
    allow = np.zeros(64, dtype=np.int64)
    caps = np.zeros(NUM_LOC, dtype=np.int64)
    ncard = _setup(state, player, opts, cards, allow, caps)
    T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
    total = total_worlds(table, caps, strides, NUM_LOC)
    return cards, ncard, caps, T, tallow, tsize, order, tstart, strides, table, total


@njit(cache=True)
def count_worlds(state, player, opts):
    """The number of worlds consistent with ``player``'s information (float64; 1 for a finished deal)."""
    if state[L.PHASE] == L.TERMINAL:
        return 1.0
    return _prepare(state, player, opts)[10]


@njit(cache=True)
def _sample_many(state, player, opts, out, base, single, rng):
    """Draw ``out.shape[0]`` worlds into ``out`` (world i from stream ``(base, i)``, or from ``rng`` when ``single``);
    returns ``(failures, rng)`` (the kernel :mod:`tarockrl.games.sampler_template` binds)."""
    n = out.shape[0]
    cards, ncard, caps, T, tallow, tsize, order, tstart, strides, table, total = _prepare(state, player, opts)
    if not total > 0.0:
        return n, rng
    loc_of = np.zeros(64, dtype=np.int64)
    perm = np.zeros(64 + 3 * (NUM_LOC + 1), dtype=np.int64)
    ropts = opts.copy()
    ropts[O_AUTO_FORCED] = 0
    fails = 0
    rs = np.zeros(1, dtype=np.int64)
    for i in range(n):
        rs[0] = rng if single else stream_seed(base, i)
        draw(T, tallow, tsize, order, tstart, strides, table, caps, NUM_LOC, rs, loc_of, perm)
        if not _build(state, player, ropts, cards, loc_of, ncard, out[i], rs):
            fails += 1
    return fails, rs[0]


resample_hidden, sample_worlds = bind_sampler(_sample_many, slot_phase=L.PHASE, terminal_phase=L.TERMINAL,
                                              terminal_shortcut=True, remap_zero_base=False)
