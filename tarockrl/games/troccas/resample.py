"""Troccas: exact uniform sampling of the cards a seat cannot see (worlds for PIMC search).

``resample_hidden(state, player, opts, rng, scratch)`` replaces ``state`` by a *world*: a whole episode that
could have happened, drawn uniformly among the placements of the hidden cards consistent with what ``player``
knows, built as card orders for every attempt of the episode (the deal and its redeals) plus the history replayed
action by action by the rule kernels (every action checked legal). :func:`sample_worlds` draws many worlds of one
position in one call; :func:`count_worlds` counts them. The counting core is :mod:`tarockrl.games.worlds`.

**A world** is where every card of the current attempt lies now. Worlds are uniform over those placements
(classic PIMC: the other seats' choices are not weighted); the order of the cards inside each dealt hand and the
cards of cancelled attempts are filled in uniformly at random on top, so that the world is a whole episode.

**Hidden locations** (relative to ``player``): the three other hands; the scart (docs/rules/troccas.md §4.7) to
the three seats other than the dealer, once cards are laid away; and, while the deal is still going on (phases
pattern and talk/vote between packets, §3), the cards not dealt yet (nobody has seen them, ``player``'s own next
packets included).

**Information honoured** (hard constraints, all public to ``player``):

* hand sizes of every seat and the size of the scart; every card ``player`` has seen: own hand, own scart (the
  dealer), every card put into a trick, the face-up last cards (§3, ``expose_last_card``);
* a face-up card of a seat other than the dealer lies in its hand until played; the dealer's face-up card lies in
  his hand or (if it may be discarded) in the scart;
* the scart holds no trump I, trump XXI, Fool or king (§4.7); with ``scart_trumps_allowed=False`` a trump II-XX
  lies in the scart only if the dealer kept no plain non-king card (the fallback of §4.7): such worlds are counted
  exactly as a separate component (the dealer's other cards are then trumps, kings and the Fool);
* with ``scart_jack_voids_all``, the announced fact that the scart holds a jack or not (§5.7);
* voids (§5.3): a seat that did not follow the led suit (a card other than the Fool) holds none of it, and no trump
  either if it did not trump; with ``must_overtrump`` a seat that played a trump below the trick's highest trump
  holds no trump above it; the Fool, always legal, shows nothing;
* the king-jack rule (§5.7): after a demand without a swap, no seat that put a numeral of the suit into that
  trick holds the jack; after a swap the returned numeral lies in its holder's hand until played again;
* knocks (§4.8, ``knock_enabled``): a knocked trump that is still unplayed lies in the knocker's hand;
* a forced redeal (§4.5) shows that the dealer of that cancelled attempt held no trump (nor the Fool with
  ``fool_counts_as_trump_for_force``): the cards of every cancelled attempt are redrawn uniformly under exactly
  that constraint. What the seat saw of a cancelled attempt is not kept (its observation reduces cancelled
  attempts to their number and kinds, §4.10), so worlds never depend on it.

**Hidden actions rewritten**: the dealer's scart discards (to the other seats) get the world's scart cards (plain
cards first, so the §4.7 fallback order is legal); ``DEALER_DECLINE_FORCE``, seen by the dealer only, is removed
and put back exactly where the world's dealer has no trump: a world whose dealer holds no trump before the scart is
begun is at the FORCE decision (the other seats see the scart phase either way, §4.5). Redeals not dealt yet are
not part of a world: its deal lists exactly the attempts so far and its in-episode generator is seeded from them
as for any deal dict, so ``new_initial_state(deal=w.deal())`` + ``w.history()`` gives the world row itself.

**Deliberately not used** (soft signals): table talk (*tschintschar*: any message is legal whatever the hand,
§4.3), the throw-in votes, the pattern choice, knocks not made, the choice not to demand the jack, and the
choice of cards played or discarded. **Determinism**: a world depends only on ``player``'s information and the
seed (the true hidden cards, a declined FORCE and future supplied redeals never enter).

A finished deal is known but for its cancelled attempts: its worlds differ only there (and in the in-episode
generator, seeded from the deal as above).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import highest_index, lowest_index, popcount
from tarockrl.engine.rng import stream_seed
from tarockrl.games.sampler_template import bind_sampler
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import (
    CARD_FOOL,
    FOOL,
    JACKS,
    KINGS,
    MID_TRUMPS,
    SPLIT,
    SUIT_MASKS,
    SUIT_OF_CARD,
    SW_ALL,
    TRUMPS,
    TW_ALL,
)
from tarockrl.games.troccas.kernels import apply_unchecked, init_from_orders, is_legal, orders_seed, unpack_attempt
from tarockrl.games.troccas.rules import O_FOOL_FORCE, O_MUST_OVERTRUMP, O_SCART_JACK_VOIDS, O_SCART_TRUMPS
from tarockrl.games.worlds import draw, plan, rand_below, total_worlds, weighted_index

__all__ = ["SCRATCH_LEN", "NUM_LOC", "resample_hidden", "sample_worlds", "count_worlds"]

ONE = np.int64(1)
ZERO = np.int64(0)
SCRATCH_LEN = 1
NUM_LOC = 6  # 0..3 the seats' hands (the observer's has capacity 0), 4 and 5 the scart (or the undealt cards)
LOC_A = 4
LOC_B = 5
MAX_COMP = 6
_ND_ENDS = np.array(L.NONDEALER_ENDS, dtype=np.int64)
_D_ENDS = np.array(L.DEALER_ENDS, dtype=np.int64)

# scart classes (docs/rules/troccas.md §4.7): which cards a scart location may hold, as (trump word, suit word)
C_ANY, C_O, C_J, C_T, C_NONJ, C_NONT = 0, 1, 2, 3, 4, 5
_SUIT_OK = np.int64(SW_ALL & ~KINGS)
CLS_TW = np.array([MID_TRUMPS, 0, 0, MID_TRUMPS, MID_TRUMPS, 0], dtype=np.int64)
CLS_SW = np.array([_SUIT_OK, _SUIT_OK & ~JACKS, JACKS, 0, _SUIT_OK & ~JACKS, _SUIT_OK], dtype=np.int64)


@njit(cache=True, inline="always")
def _has(tw, sw, c):
    if c < SPLIT:
        return ((tw >> c) & 1) != 0
    return ((sw >> (c - SPLIT)) & 1) != 0


@njit(cache=True)
def _deal_phase(state):
    """True while the scart has not been begun (the cards may still be in the deal)."""
    ph = state[L.PHASE]
    return ph == L.PATTERN or ph == L.TALK or ph == L.VOTE or ph == L.FORCE


@njit(cache=True)
def _scart_hidden(state, player):
    """The scart is a hidden location of ``player``'s view."""
    ph = state[L.PHASE]
    return (ph != L.TERMINAL and not _deal_phase(state) and player != state[L.DEALER] and state[L.SCART_N] > 0)


@njit(cache=True)
def _true_orders(state, orders):
    """The card orders of the attempts so far (``orders[k]``); returns their number."""
    r = state[L.REDEAL_COUNT]
    for k in range(r):
        unpack_attempt(state, k, orders[k])
    for i in range(78):
        orders[r, i] = state[L.PERM + i]
    return r + 1


@njit(cache=True)
def _analyze(state, player, opts, ban_tw, ban_sw, forced, row, orders):
    """Replay the public events: ``ban_*[s]`` the cards seat ``s`` cannot hold (voids, king-jack outcomes) and
    ``forced[k]`` = 1 when attempt ``k`` ended by a forced redeal. Reads only what every seat sees.

    ``row`` is a scratch state row, ``orders`` a scratch ``[MAX_ATTEMPTS, 78]`` array.
    """
    for s in range(4):
        ban_tw[s] = 0
        ban_sw[s] = 0
    for k in range(L.MAX_ATTEMPTS):
        forced[k] = 0
    n = _true_orders(state, orders)
    init_from_orders(row, orders, n, state[L.DEALER], state[L.BAL], ZERO, opts)
    h = min(state[L.HIST_LEN], L.HIST_CAP)
    before = np.zeros(4, dtype=np.int64)
    for i in range(h):
        a = state[L.HIST + i]
        if row[L.PHASE] == L.PLAY and a < 78:
            p = row[L.CUR]
            led = row[L.LED]
            if p != player and led >= 0 and a != CARD_FOOL:
                sc = SUIT_OF_CARD[a]
                over = False
                if led == 4:
                    if sc != 4:
                        ban_tw[p] |= TRUMPS
                    else:
                        over = True
                elif sc != led:
                    ban_sw[p] |= SUIT_MASKS[led]
                    if sc != 4:
                        ban_tw[p] |= TRUMPS
                    else:
                        over = True
                if over and opts[O_MUST_OVERTRUMP] != 0:  # §5.3: a trump below the trick's best one
                    in_trick = row[L.TRICK_TW] & TRUMPS
                    if in_trick != 0:
                        top = highest_index(in_trick)
                        if a < top:
                            ban_tw[p] |= TRUMPS & ~((ONE << (top + 1)) - 1)
        if a == L.A_FORCE:
            forced[row[L.REDEAL_COUNT]] = 1
        for q in range(4):
            before[q] = row[L.BUOB_RESULT + q]
        apply_unchecked(row, a, opts)
        for suit in range(4):
            if before[suit] < 0 and row[L.BUOB_RESULT + suit] == 1:
                # §5.7 demand without swap: no seat that put a numeral of the suit into the trick held the jack
                for j in range(row[L.LAST_N]):
                    q = row[L.LAST_SEAT + j]
                    c = row[L.LAST_CARD + j]
                    if q != player and c >= SPLIT and (c - SPLIT) // 14 == suit and (c - SPLIT) % 14 < 10:
                        ban_sw[q] |= ONE << (10 + 14 * suit)


@njit(cache=True)
def _fixed(state, player, fx_tw, fx_sw):
    """Cards of other seats whose place ``player`` knows without seeing the hand: face-up cards (the dealer's only
    before the scart is begun), knocked trumps and numerals returned by a jack swap, all while unplayed."""
    d = state[L.DEALER]
    ptw = state[L.PLAYED_TW]
    psw = state[L.PLAYED_SW]
    scart_open = _scart_hidden(state, player)
    for s in range(4):
        fx_tw[s] = 0
        fx_sw[s] = 0
        if s == player:
            continue
        e = state[L.EXPOSED + s]
        # the dealer's face-up card may be in the scart: hidden while the scart is, in it once shown (the end)
        shown_in_scart = e >= 0 and state[L.PHASE] == L.TERMINAL and _has(state[L.SCART_TW], state[L.SCART_SW], e)
        if e >= 0 and not _has(ptw, psw, e) and (s != d or not (scart_open or shown_in_scart)):
            if e < SPLIT:
                fx_tw[s] |= ONE << e
            else:
                fx_sw[s] |= ONE << (e - SPLIT)
        fx_tw[s] |= state[L.KNOCKS_TW + s] & ~ptw
        for suit in range(4):
            if state[L.SWAP_SEAT + suit] == s:
                c = state[L.SWAP_CARD + suit]
                if c >= SPLIT and not _has(ptw, psw, c):
                    fx_sw[s] |= ONE << (c - SPLIT)


@njit(cache=True)
def _components(state, player, opts, fx_sw, comps):
    """The disjoint scart components of the world set: ``comps[i] = (class x, class y, dealer_ban)``, ``y = -1``
    for one scart location; returns their number (1 with ``(-1, -1, 0)`` when the scart is not hidden)."""
    if not _scart_hidden(state, player):
        comps[0, 0] = -1
        comps[0, 1] = -1
        comps[0, 2] = 0
        return 1
    split_j = opts[O_SCART_JACK_VOIDS] != 0 and state[L.SCART_JACK] >= 0
    split_t = opts[O_SCART_TRUMPS] == 0
    if not split_j and not split_t:
        comps[0, 0] = C_ANY
        comps[0, 1] = -1
        comps[0, 2] = 0
        return 1
    classes = np.zeros(3, dtype=np.int64)
    nc = 0
    if split_j and split_t:
        classes[0] = C_O
        classes[1] = C_J
        classes[2] = C_T
        nc = 3
    elif split_j:
        classes[0] = C_NONJ
        classes[1] = C_J
        nc = 2
    else:
        classes[0] = C_NONT
        classes[1] = C_T
        nc = 2
    d = state[L.DEALER]
    dealer_plain = ((state[L.PLAYED_BY_SW + d] | fx_sw[d]) & ~KINGS) != 0
    m = 0
    ns = state[L.SCART_N]
    for i in range(nc):
        for j in range(i, nc if ns == 2 else i + 1):
            x = classes[i]
            y = classes[j] if ns == 2 else x
            has_j = x == C_J or y == C_J
            has_t = x == C_T or y == C_T
            if split_j and has_j != (state[L.SCART_JACK] == 1):
                continue
            if split_t and has_t and dealer_plain:
                continue
            comps[m, 0] = x
            comps[m, 1] = y if y != x else -1
            comps[m, 2] = 1 if (split_t and has_t) else 0
            m += 1
    return m


@njit(cache=True)
def _setup(state, player, opts, ban_tw, ban_sw, fx_tw, fx_sw, comp, cards, allow, caps):
    """The placement problem of one component of ``player``'s view; returns the number of hidden cards."""
    d = state[L.DEALER]
    for j in range(NUM_LOC):
        caps[j] = 0
    ktw = state[L.HAND_TW + player] | state[L.PLAYED_TW]
    ksw = state[L.HAND_SW + player] | state[L.PLAYED_SW]
    if player == d or state[L.PHASE] == L.TERMINAL:
        ktw |= state[L.SCART_TW]
        ksw |= state[L.SCART_SW]
    for s in range(4):
        ktw |= fx_tw[s]
        ksw |= fx_sw[s]
        if s != player:
            caps[s] = popcount(state[L.HAND_TW + s]) + popcount(state[L.HAND_SW + s]) - popcount(fx_tw[s]) \
                - popcount(fx_sw[s])
    deal_phase = _deal_phase(state)
    x = comp[0]
    y = comp[1]
    if deal_phase:
        dealt = 0
        for s in range(4):
            dealt += popcount(state[L.HAND_TW + s]) + popcount(state[L.HAND_SW + s])
        caps[LOC_A] = 78 - dealt
    elif x >= 0:
        if y >= 0:
            caps[LOC_A] = 1
            caps[LOC_B] = 1
        else:
            caps[LOC_A] = state[L.SCART_N]
    dexp = np.int64(-1)
    if x >= 0 and state[L.EXPOSED + d] >= 0:
        dexp = state[L.EXPOSED + d]
    htw = TW_ALL & ~ktw
    hsw = SW_ALL & ~ksw
    ncard = 0
    for c in range(78):
        if not _has(htw, hsw, c):
            continue
        a = np.int64(0)
        for s in range(4):
            if s == player or caps[s] == 0 or _has(ban_tw[s], ban_sw[s], c):
                continue
            if c == dexp and s != d:
                continue
            if s == d and comp[2] != 0 and c >= SPLIT and ((ONE << (c - SPLIT)) & KINGS) == 0:
                continue  # §4.7 fallback: a trump in the scart means no plain non-king stayed in the hand
            a |= ONE << s
        if deal_phase:
            if caps[LOC_A] > 0:
                a |= ONE << LOC_A
        elif x >= 0:
            if _has(CLS_TW[x], CLS_SW[x], c):
                a |= ONE << LOC_A
            if y >= 0 and _has(CLS_TW[y], CLS_SW[y], c):
                a |= ONE << LOC_B
        cards[ncard] = c
        allow[ncard] = a
        ncard += 1
    return ncard


@njit(cache=True)
def _shuffle(rs, arr, n):
    for i in range(n - 1, 0, -1):
        j = rand_below(rs, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@njit(cache=True)
def _build(state, player, opts, cards, loc_of, ncard, forced, world, rs, orders, tmp):
    """Write into ``world`` the episode of one placement (``loc_of[k]`` for card ``cards[k]``; generator in
    ``rs[0]`` for the orders inside hands and the cancelled attempts); returns False if it does not replay.

    ``orders`` is a scratch ``[MAX_ATTEMPTS, 78]`` array, ``tmp`` an int64 scratch of at least 160 entries.
    """
    d = state[L.DEALER]
    r = state[L.REDEAL_COUNT]
    deal_phase = _deal_phase(state)
    fx_tw = tmp[0:4]
    fx_sw = tmp[4:8]
    htw = tmp[8:12]
    hsw = tmp[12:16]
    lst = tmp[16:100]
    pool = tmp[100:180]
    _fixed(state, player, fx_tw, fx_sw)
    for s in range(4):
        if s == player:
            htw[s] = state[L.HAND_TW + s]
            hsw[s] = state[L.HAND_SW + s]
        else:
            htw[s] = fx_tw[s]
            hsw[s] = fx_sw[s]
    stw = np.int64(0)
    ssw = np.int64(0)
    if player == d or state[L.PHASE] == L.TERMINAL:
        stw = state[L.SCART_TW]
        ssw = state[L.SCART_SW]
    npool = 0
    for k in range(ncard):
        c = cards[k]
        j = loc_of[k]
        if j < 4:
            if c < SPLIT:
                htw[j] |= ONE << c
            else:
                hsw[j] |= ONE << (c - SPLIT)
        elif deal_phase:
            pool[npool] = c
            npool += 1
        elif c < SPLIT:
            stw |= ONE << c
        else:
            ssw |= ONE << (c - SPLIT)
    # the current attempt: each seat's dealt cards in a uniform order (the face-up card last), then the rest
    pat = state[L.PATTERN_SLOT]
    cur = orders[r]
    for c4 in range(4):
        seat = (d + 1 + c4) % 4
        size = 21 if c4 == 3 else 19
        e = 0
        if state[L.PHASE] != L.PATTERN:
            e = _D_ENDS[pat, state[L.PACKET]] if c4 == 3 else _ND_ENDS[pat, state[L.PACKET]]
        dtw = htw[seat] | state[L.PLAYED_BY_TW + seat]
        dsw = hsw[seat] | state[L.PLAYED_BY_SW + seat]
        if seat == d:
            dtw |= stw
            dsw |= ssw
        x = state[L.EXPOSED + seat]
        m = 0
        for c in range(78):
            if c != x and _has(dtw, dsw, c):
                lst[m] = c
                m += 1
        if m + (1 if x >= 0 else 0) != e:
            return False
        if seat == player:
            # the player saw his cards arrive packet by packet: keep every packet's cards (in a canonical order
            # inside the packet, which he cannot see), so that his past observations are those he had
            lo = 0
            for j in range(state[L.PACKET] + 1):
                hi = min(_D_ENDS[pat, j] if c4 == 3 else _ND_ENDS[pat, j], e)
                n = 0
                for i in range(lo, hi):
                    c = state[L.PERM + 19 * c4 + i]
                    if not (x >= 0 and i == e - 1):
                        lst[n] = c
                        n += 1
                lst[:n].sort()
                n = 0
                for i in range(lo, hi):
                    if not (x >= 0 and i == e - 1):
                        cur[19 * c4 + i] = lst[n]
                        n += 1
                lo = hi
        else:
            _shuffle(rs, lst, m)
            for i in range(m):
                cur[19 * c4 + i] = lst[i]
        if x >= 0:
            cur[19 * c4 + e - 1] = x
        for i in range(e, size):
            cur[19 * c4 + i] = -1
    _shuffle(rs, pool, npool)
    q = 0
    for i in range(78):
        if cur[i] < 0:
            if q >= npool:
                return False
            cur[i] = pool[q]
            q += 1
    if q != npool:
        return False
    # cancelled attempts: uniform orders; after a forced redeal the dealer (last 21) held no trump (§4.5)
    for k in range(r):
        o = orders[k]
        if forced[k] != 0:
            no_tw = TRUMPS | FOOL if opts[O_FOOL_FORCE] != 0 else TRUMPS
            m = 0
            for c in range(78):
                if c >= SPLIT or ((no_tw >> c) & 1) == 0:
                    lst[m] = c
                    m += 1
            _shuffle(rs, lst, m)
            for i in range(21):
                o[57 + i] = lst[i]
            m2 = 0
            for i in range(21, m):
                pool[m2] = lst[i]
                m2 += 1
            for c in range(SPLIT):
                if ((no_tw >> c) & 1) != 0:
                    pool[m2] = c
                    m2 += 1
            _shuffle(rs, pool, m2)
            for i in range(57):
                o[i] = pool[i]
        else:
            for i in range(78):
                o[i] = i
            _shuffle(rs, o, 78)
    rng = orders_seed(orders, r + 1, d, state[L.BAL])
    init_from_orders(world, orders, r + 1, d, state[L.BAL], rng, opts)
    # the scart in a legal order: plain cards first, then trumps (the §4.7 fallback)
    ns = 0
    sw_rest = ssw
    while sw_rest != 0:
        lst[ns] = SPLIT + lowest_index(sw_rest)
        sw_rest &= sw_rest - 1
        ns += 1
    tw_rest = stw
    while tw_rest != 0:
        lst[ns] = lowest_index(tw_rest)
        tw_rest &= tw_rest - 1
        ns += 1
    rewrite = player != d
    si = 0
    h = min(state[L.HIST_LEN], L.HIST_CAP)
    for i in range(h):
        a = state[L.HIST + i]
        if rewrite:
            if a == L.A_DECLINE:
                continue  # the dealer's private decline is re-derived from the world's cards
            if world[L.PHASE] == L.FORCE and a != L.A_FORCE:
                if not is_legal(world, L.A_DECLINE, opts):
                    return False
                apply_unchecked(world, L.A_DECLINE, opts)
            if world[L.PHASE] == L.SCART and a < 78:
                if si >= ns:
                    return False
                a = lst[si]
                si += 1
        if not is_legal(world, a, opts):
            return False
        apply_unchecked(world, a, opts)
    return True


@njit(cache=True)
def _prepare(state, player, opts, ban_tw, ban_sw, fx_tw, fx_sw, forced, comps, weights, cards, allow, caps, row,
             orders):
    """Analyse ``player``'s view and count every component; returns ``(ncomp, total)``."""
    _analyze(state, player, opts, ban_tw, ban_sw, forced, row, orders)
    _fixed(state, player, fx_tw, fx_sw)
    ncomp = _components(state, player, opts, fx_sw, comps)
    total = 0.0
    for i in range(ncomp):
        ncard = _setup(state, player, opts, ban_tw, ban_sw, fx_tw, fx_sw, comps[i], cards, allow, caps)
        T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
        weights[i] = total_worlds(table, caps, strides, NUM_LOC)
        total += weights[i]
    return ncomp, total


@njit(cache=True)
def _prepared(state, player, opts):
    """Allocate the sampler's buffers and run :func:`_prepare` on them; returns ``(ncomp, total)`` and the buffers
    the draws read (``ban_tw, ban_sw, fx_tw, fx_sw, forced, comps, weights, cards, allow, caps, orders``)."""
    ban_tw = np.zeros(4, dtype=np.int64)
    ban_sw = np.zeros(4, dtype=np.int64)
    fx_tw = np.zeros(4, dtype=np.int64)
    fx_sw = np.zeros(4, dtype=np.int64)
    forced = np.zeros(L.MAX_ATTEMPTS, dtype=np.int64)
    comps = np.zeros((MAX_COMP, 3), dtype=np.int64)
    weights = np.zeros(MAX_COMP, dtype=np.float64)
    cards = np.zeros(80, dtype=np.int64)
    allow = np.zeros(80, dtype=np.int64)
    caps = np.zeros(NUM_LOC, dtype=np.int64)
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    orders = np.zeros((L.MAX_ATTEMPTS, 78), dtype=np.int64)
    ncomp, total = _prepare(state, player, opts, ban_tw, ban_sw, fx_tw, fx_sw, forced, comps, weights, cards, allow,
                            caps, row, orders)
    return ncomp, total, ban_tw, ban_sw, fx_tw, fx_sw, forced, comps, weights, cards, allow, caps, orders


@njit(cache=True)
def _sample_many(state, player, opts, out, base, single, rng):
    """Draw ``out.shape[0]`` worlds into ``out`` (world i from stream ``(base, i)``, or from ``rng`` when ``single``);
    returns ``(failures, rng)`` (the kernel :mod:`tarockrl.games.sampler_template` binds)."""
    n = out.shape[0]
    (ncomp, total, ban_tw, ban_sw, fx_tw, fx_sw, forced, comps, weights, cards, allow, caps,
     orders) = _prepared(state, player, opts)
    if not total > 0.0:
        return n, rng
    comp_of = np.zeros(n, dtype=np.int64)
    rs_of = np.zeros(n, dtype=np.int64)
    rs = np.zeros(1, dtype=np.int64)
    for w in range(n):
        rs[0] = rng if single else stream_seed(base, w)
        comp = 0
        if ncomp > 1:
            comp = weighted_index(rs, weights, ncomp, total)
        comp_of[w] = comp
        rs_of[w] = rs[0]
    loc_of = np.zeros(80, dtype=np.int64)
    perm = np.zeros(80 + 3 * (NUM_LOC + 1), dtype=np.int64)
    tmp = np.zeros(192, dtype=np.int64)
    fails = 0
    for i in range(ncomp):
        if weights[i] <= 0.0:
            continue
        ncard = _setup(state, player, opts, ban_tw, ban_sw, fx_tw, fx_sw, comps[i], cards, allow, caps)
        T, tallow, tsize, order, tstart, strides, table = plan(ncard, allow, caps, NUM_LOC)
        for w in range(n):
            if comp_of[w] != i:
                continue
            rs[0] = rs_of[w]
            draw(T, tallow, tsize, order, tstart, strides, table, caps, NUM_LOC, rs, loc_of, perm)
            if not _build(state, player, opts, cards, loc_of, ncard, forced, out[w], rs, orders, tmp):
                fails += 1
            rs_of[w] = rs[0]
    return fails, rs_of[n - 1] if n > 0 else rng


@njit(cache=True)
def count_worlds(state, player, opts):
    """The number of worlds (placements of the hidden cards) consistent with ``player``'s view (float64)."""
    return _prepared(state, player, opts)[1]


resample_hidden, sample_worlds = bind_sampler(_sample_many, slot_phase=L.PHASE, terminal_phase=L.TERMINAL,
                                              terminal_shortcut=False, remap_zero_base=True)
