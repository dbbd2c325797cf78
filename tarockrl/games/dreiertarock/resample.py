"""Dreiertarock: exact uniform sampling of the cards a seat cannot see (worlds for PIMC search).

``resample_hidden(state, player, opts, rng, scratch)`` replaces ``state`` by a *world*: a whole deal that could
have happened, drawn uniformly among all worlds consistent with what ``player`` knows, built as a deal plus the
history replayed action by action by the rule kernels. :func:`sample_worlds` draws many worlds of one position in
one call. The counting core is :mod:`tarockrl.games.worlds`.

**Hidden locations** (relative to ``player``): the other two hands, the declarer's face-down discards (to a
defender), and the talon while nobody has seen it (the auction, Solo and Solo Valat, Trischaken; it is split
into its two packets uniformly).

**Information honoured** (hard constraints, all public to ``player``):

* every card ``player`` has seen: own hand, own discards, every card played, both talon packets once exposed
  (Einser to Fünfer), the tarocks discarded face up;
* the cards of the packet the declarer took lie in his hand or among his face-down discards, never elsewhere
  (the split between the two is drawn in proportion to the number of worlds);
* face-down discards are plain non-king cards (kings and trull cards may not be discarded, tarocks only face up);
* with ``discard_tarock_rule="forced_only"``, a declarer who discarded a tarock holds no plain non-king card
  once discarding is over;
* voids: a seat that did not follow suit holds none of that suit, and no tarock if it did not play one;
* an announced bird (Pagat, Uhu, Kakadu) lies in its announcer's hand until played;
* Trischaken (§ Trischaken): a seat that did not beat the trick under Stichzwang holds no card of the legal
  domain that would have beaten it (Kaiserstich variants included); a seat that played the Pagat held no other
  tarock then. The one case not expressible card by card, a seat that did not beat while the Pagat was its only
  beating card and it held other tarocks, is honoured only when the seat later played another tarock (else the
  Pagat is excluded from its hand: those rare worlds are left out).
* with ``redeal_without_tarock``, every dealt hand held a tarock: for each other seat not yet known to have
  been dealt one, the worlds are a disjoint union over "its lowest dealt tarock is card x" (each a per-card
  problem), and the component is drawn in proportion to its count (exact, but one count per component and a
  recount per world whose component changes: slower).

**Hidden actions rewritten**: the declarer's face-down DISCARD actions get the world's discards (ascending, in
the same positions; such a history is always legal).

**Deliberately not used** (soft signals): bids, holds and passes, which packet was taken, announcements not
made, Kontra and GOOD, the choice of cards played or discarded. Worlds are uniform over card placements
(classic PIMC).

**Limits**: while the declarer is still discarding after a face-up tarock, the bound on his remaining plain
cards is not applied. A finished deal is returned unchanged; with ``auto_play_forced`` the history is replayed
without auto-play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import beating_cards, winning_card
from tarockrl.engine.rng import stream_seed
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import (
    ALL,
    OTHER_TAROCKS,
    PLAIN_NONKING,
    SUIT_MASK_OF_CARD,
    T1_MASK,
    TAROCKS,
    TRULL,
)
from tarockrl.games.dreiertarock.kernels import MOND_SKS, apply_unchecked, init_from_deal, is_legal
from tarockrl.games.dreiertarock.rules import O_AUTO_FORCED, O_DISCARD_FREE, O_KAISERSTICH, O_REDEAL_NO_TAROCK
from tarockrl.games.sampler_template import bind_sampler
from tarockrl.games.worlds import draw, plan, rand_below, total_worlds, weighted_index

ONE = np.int64(1)
SCRATCH_LEN = 1
NUM_LOC = 5  # 0..2 seats' hands, 3 face-down discards, 4 the unseen talon
LOC_DISC = 3
LOC_TALON = 4


@njit(cache=True)
def _trischaken_exclusions(state, player, opts, notin):
    """Cards each other seat cannot hold, inferred from its Trischaken plays (``notin[s] |= ...``)."""
    seats = np.zeros(64, dtype=np.int64)
    cards = np.zeros(64, dtype=np.int64)
    pos = np.zeros(64, dtype=np.int64)
    lead = np.zeros(64, dtype=np.int64)
    m = 0
    leader = (state[L.DEALER] + 1) % 3
    n = 0
    trick = np.zeros(3, dtype=np.int64)
    h = min(state[L.HIST_LEN], L.MAX_EPISODE_LENGTH)
    for i in range(h):
        a = state[L.HIST + i]
        if a >= L.A_DISCARD:
            continue
        c = a - L.A_PLAY
        seats[m] = (leader + n) % 3
        cards[m] = c
        pos[m] = n
        lead[m] = trick[0]
        trick[n] = c
        m += 1
        n += 1
        if n == 3:
            tm = (ONE << trick[0]) | (ONE << trick[1]) | (ONE << trick[2])
            if opts[O_KAISERSTICH] != 0 and (tm & TRULL) == TRULL:
                w = 0
            else:
                w = winning_card(tm, SUIT_MASK_OF_CARD[trick[0]], TAROCKS)
            for q in range(3):
                if trick[q] == w:
                    leader = (leader + q) % 3
                    break
            n = 0
    for e in range(m):
        s = seats[e]
        if s == player:
            continue
        c = cards[e]
        b = ONE << c
        if c == 0:
            notin[s] |= OTHER_TAROCKS
            continue
        k = pos[e]
        if k == 0:
            continue
        led = SUIT_MASK_OF_CARD[lead[e]]
        tm = np.int64(0)
        for q in range(e - k, e):
            tm |= ONE << cards[q]
        if (b & led) != 0:
            domain = led
        elif (b & TAROCKS) != 0:
            domain = TAROCKS
        else:
            domain = ALL
        beat = beating_cards(domain, tm, led, TAROCKS)
        if opts[O_KAISERSTICH] != 0 and k == 2:
            if (tm & MOND_SKS) == MOND_SKS:
                beat = domain & T1_MASK
            elif (tm & T1_MASK) != 0 and (tm & MOND_SKS) != 0:
                beat &= ~(MOND_SKS & ~tm)
        if (beat & b) != 0:
            continue
        ex = beat & ~T1_MASK
        if (beat & T1_MASK) != 0:
            later_tarock = False
            for q in range(e + 1, m):
                if seats[q] == s and cards[q] != 0 and cards[q] <= 21:
                    later_tarock = True
            if not later_tarock:
                ex |= T1_MASK
        notin[s] |= ex


@njit(cache=True)
def _talon_hidden(state):
    return state[L.PHASE] == L.AUCTION or state[L.CONTRACT] >= L.SOLO or state[L.TRISCHAKEN] != 0


@njit(cache=True)
def _setup(state, player, opts, cards, allow, caps):
    """The placement problem of ``player``'s view: fills ``cards``, ``allow``, ``caps``; returns the card count."""
    d = state[L.DECLARER]
    for j in range(NUM_LOC):
        caps[j] = 0
    pool = np.int64(0)
    for s in range(3):
        if s != player:
            caps[s] = popcount(state[L.HAND + s])
            pool |= state[L.HAND + s]
    if d >= 0 and player != d:
        hidden = state[L.DISCARDS] & ~state[L.DISCARDS_UP]
        caps[LOC_DISC] = popcount(hidden)
        pool |= hidden
    if _talon_hidden(state):
        talon = state[L.PACKET] | state[L.PACKET + 1]
        caps[LOC_TALON] = 6
        pool |= talon
    notin = np.zeros(3, dtype=np.int64)
    for s in range(3):
        notin[s] = state[L.VOIDS + s]
    if state[L.TRISCHAKEN] != 0:
        _trischaken_exclusions(state, player, opts, notin)
    if d >= 0 and opts[O_DISCARD_FREE] == 0 and state[L.DISCARDS_UP] != 0 and state[L.PHASE] != L.DISCARD:
        notin[d] |= PLAIN_NONKING
    taken = np.int64(0)
    if d >= 0 and player != d and state[L.TAKEN] >= 0:
        taken = state[L.PACKET + state[L.TAKEN]]
    ncard = 0
    rest = pool
    while rest != 0:
        c = lowest_index(rest)
        rest &= rest - 1
        b = ONE << c
        a = np.int64(0)
        owner = -1
        if c <= 2 and state[L.ANN_BY + c] >= 0:
            owner = state[L.ANN_BY + c]
        if owner >= 0:
            a = ONE << owner
        elif (taken & b) != 0:
            if (notin[d] & b) == 0:
                a |= ONE << d
            if (b & PLAIN_NONKING) != 0 and caps[LOC_DISC] > 0:
                a |= ONE << LOC_DISC
        else:
            for s in range(3):
                if s != player and caps[s] > 0 and (notin[s] & b) == 0:
                    a |= ONE << s
            if (b & PLAIN_NONKING) != 0 and caps[LOC_DISC] > 0:
                a |= ONE << LOC_DISC
            if caps[LOC_TALON] > 0:
                a |= ONE << LOC_TALON
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
        discards = state[L.DISCARDS_UP] | got[LOC_DISC]
    p0 = state[L.PACKET]
    p1 = state[L.PACKET + 1]
    if _talon_hidden(state):
        tc = np.zeros(6, dtype=np.int64)
        cs = got[LOC_TALON]
        for i in range(6):
            tc[i] = lowest_index(cs)
            cs &= cs - 1
        for i in range(5, 0, -1):
            j = rand_below(rs, i + 1)
            t = tc[i]
            tc[i] = tc[j]
            tc[j] = t
        p0 = (ONE << tc[0]) | (ONE << tc[1]) | (ONE << tc[2])
        p1 = (ONE << tc[3]) | (ONE << tc[4]) | (ONE << tc[5])
    dealt = np.zeros(3, dtype=np.int64)
    for s in range(3):
        dealt[s] = hands[s] | state[L.PLAYED_BY + s]
    if d >= 0:
        dealt[d] |= discards
        if state[L.TAKEN] >= 0:
            dealt[d] &= ~state[L.PACKET + state[L.TAKEN]]
    init_from_deal(world, dealt[0], dealt[1], dealt[2], p0, p1, state[L.DEALER], ropts)
    rewrite = d >= 0 and player != d
    new_disc = got[LOC_DISC]
    h = min(state[L.HIST_LEN], L.MAX_EPISODE_LENGTH)
    for i in range(h):
        a = state[L.HIST + i]
        if rewrite and L.A_DISCARD + 22 <= a < L.A_DISCARD + 54:
            c = lowest_index(new_disc)
            new_disc &= new_disc - 1
            a = L.A_DISCARD + c
        if not is_legal(world, a, ropts):
            return False
        apply_unchecked(world, a, ropts)
    return True


@njit(cache=True)
def _redeal_seats(state, player, opts, seats):
    """Under ``redeal_without_tarock``: the other seats whose dealt hand is not yet known to hold a tarock."""
    if opts[O_REDEAL_NO_TAROCK] == 0:
        return 0
    d = state[L.DECLARER]
    taken = state[L.PACKET + state[L.TAKEN]] if state[L.TAKEN] >= 0 else np.int64(0)
    k = 0
    for s in range(3):
        if s == player:
            continue
        known = (state[L.PLAYED_BY + s] & TAROCKS & ~taken) != 0
        for b in range(3):
            if state[L.ANN_BY + b] == s and (taken >> b) & 1 == 0:
                known = True
        if s == d and (state[L.DISCARDS_UP] & ~taken) != 0:
            known = True
        if not known:
            seats[k] = s
            k += 1
    return k


@njit(cache=True)
def _component(cards, allow0, ncard, taken, seats, nseat, xs, allow):
    """The placement problem of one mixture component: seat ``seats[i]``'s lowest dealt tarock is card
    position ``xs[i]`` (so that card lies in its hand and no lower hidden dealt tarock does)."""
    for k in range(ncard):
        allow[k] = allow0[k]
    for i in range(nseat):
        s = seats[i]
        x = xs[i]
        allow[x] &= ONE << s
        for k in range(ncard):
            c = cards[k]
            if c < cards[x] and c <= 21 and ((taken >> c) & 1) == 0:
                allow[k] &= ~(ONE << s)


@njit(cache=True)
def _view(state, player, opts):
    """The placement problem of ``player``'s view before the redeal constraints: ``(cards, allow0, allow, caps,
    ncard, taken, seats, nseat)`` (``allow`` a scratch for :func:`_component`, ``taken`` the packet the declarer
    took, ``seats[:nseat]`` the seats whose lowest dealt tarock is constrained)."""
    cards = np.zeros(64, dtype=np.int64)
    allow0 = np.zeros(64, dtype=np.int64)
    allow = np.zeros(64, dtype=np.int64)
    caps = np.zeros(NUM_LOC, dtype=np.int64)
    ncard = _setup(state, player, opts, cards, allow0, caps)
    taken = state[L.PACKET + state[L.TAKEN]] if state[L.TAKEN] >= 0 else np.int64(0)
    seats = np.zeros(2, dtype=np.int64)
    nseat = _redeal_seats(state, player, opts, seats)
    return cards, allow0, allow, caps, ncard, taken, seats, nseat


@njit(cache=True)
def _sample_many(state, player, opts, out, base, single, rng):
    """Draw ``out.shape[0]`` worlds into ``out`` (world i from stream ``(base, i)``, or from ``rng`` when ``single``);
    returns ``(failures, rng)`` (the kernel :mod:`tarockrl.games.sampler_template` binds)."""
    n = out.shape[0]
    cards, allow0, allow, caps, ncard, taken, seats, nseat = _view(state, player, opts)
    # mixture components (one per choice of each constrained seat's lowest dealt tarock); one when none
    ncomp = 1
    comp_x = np.zeros((1, 2), dtype=np.int64)
    if nseat > 0:
        cand = np.zeros(64, dtype=np.int64)
        nc = 0
        for k in range(ncard):
            c = cards[k]
            if c <= 21 and ((taken >> c) & 1) == 0:
                cand[nc] = k
                nc += 1
        ncomp = nc if nseat == 1 else nc * nc
        comp_x = np.zeros((max(ncomp, 1), 2), dtype=np.int64)
        for i in range(ncomp):
            comp_x[i, 0] = cand[i % nc]
            comp_x[i, 1] = cand[i // nc] if nseat == 2 else 0
    weights = np.zeros(max(ncomp, 1), dtype=np.float64)
    total = 0.0
    xs = np.zeros(2, dtype=np.int64)
    for i in range(ncomp):
        xs[0] = comp_x[i, 0]
        xs[1] = comp_x[i, 1]
        if nseat == 2 and xs[0] == xs[1]:
            continue
        _component(cards, allow0, ncard, taken, seats, nseat, xs, allow)
        T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
        weights[i] = total_worlds(table, caps, strides, NUM_LOC)
        total += weights[i]
    if not total > 0.0:
        return n, rng
    loc_of = np.zeros(64, dtype=np.int64)
    perm = np.zeros(64 + 3 * (NUM_LOC + 1), dtype=np.int64)
    ropts = opts.copy()
    ropts[O_AUTO_FORCED] = 0
    rs = np.zeros(1, dtype=np.int64)
    current = -1
    _component(cards, allow0, ncard, taken, seats, 0, xs, allow)
    T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
    fails = 0
    for w in range(n):
        rs[0] = rng if single else stream_seed(base, w)
        comp = 0
        if nseat > 0:
            comp = weighted_index(rs, weights, ncomp, total)
            if comp != current:
                xs[0] = comp_x[comp, 0]
                xs[1] = comp_x[comp, 1]
                _component(cards, allow0, ncard, taken, seats, nseat, xs, allow)
                T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
                current = comp
        draw(T, tallow, tsize, order, tstart, strides, table, caps, NUM_LOC, rs, loc_of, perm)
        if not _build(state, player, ropts, cards, loc_of, ncard, out[w], rs):
            fails += 1
    return fails, rs[0]


@njit(cache=True)
def count_worlds(state, player, opts):
    """The number of worlds consistent with ``player``'s information (float64; 1 for a finished deal)."""
    if state[L.PHASE] == L.TERMINAL:
        return 1.0
    cards, allow0, allow, caps, ncard, taken, seats, nseat = _view(state, player, opts)
    xs = np.zeros(2, dtype=np.int64)
    total = 0.0
    if nseat == 0:
        _component(cards, allow0, ncard, taken, seats, 0, xs, allow)
        T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
        return total_worlds(table, caps, strides, NUM_LOC)
    for x0 in range(ncard):
        for x1 in range(ncard if nseat == 2 else 1):
            if cards[x0] > 21 or ((taken >> cards[x0]) & 1) != 0:
                continue
            if nseat == 2 and (x1 == x0 or cards[x1] > 21 or ((taken >> cards[x1]) & 1) != 0):
                continue
            xs[0] = x0
            xs[1] = x1
            _component(cards, allow0, ncard, taken, seats, nseat, xs, allow)
            T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
            total += total_worlds(table, caps, strides, NUM_LOC)
    return total


resample_hidden, sample_worlds = bind_sampler(_sample_many, slot_phase=L.PHASE, terminal_phase=L.TERMINAL,
                                              terminal_shortcut=True, remap_zero_base=True)
