"""Tatteln: exact uniform sampling of the cards a seat cannot see (worlds for PIMC search).

``resample_hidden(state, player, opts, rng, scratch)`` replaces ``state`` by a *world*: a whole deal that could
have happened, drawn uniformly among all deals consistent with what ``player`` knows, rebuilt as the deal plus
the history replayed action by action by the rule kernels. :func:`sample_worlds` draws many worlds of one
position in one call.

**What is drawn.** Every action of Tatteln is public (plays, ROB, announcements), so a world keeps the history
as it is and differs only in the deal. Hidden from ``player`` are: the opponent's dealt hand, the cards the
opponent drew from the face-down stock (and in which order), and the face-down part of the stock still to be
drawn, in its order. The worlds are **uniform over the deals** consistent with ``player``'s information (the
shuffle is uniform and the opponent's choices are not weighted, as in classic PIMC). Note that this weights a
placement of the cards *now* (the opponent's hand and the stock order) by the number of deals that lead to it:
which of the opponent's cards were dealt and which were drawn, when, is part of the deal and not seen.

**Information honoured** (everything public to ``player``, docs/rules/tatteln.md §9.1):

* ``player``'s own dealt hand and every card he drew (private to him), the turn-up, the face-up bottom card and
  who drew it, every card played, the ROB (the trump seven was in the robber's hand then, and it now lies at the
  bottom; the turn-up went to the robber), every card revealed by a scored meld atom;
* the order of events: a card the opponent played, robbed with or showed at some moment was dealt to him or
  drawn by him **before** that moment (this is the only per-card constraint of Tatteln: every card's possible
  places form a prefix of the opponent's acquisitions in time order, see below);
* the duty to follow suit (and ``final_must_head`` / ``final_must_trump``) applies only to final-phase tricks
  (§5.2), when the stock is empty: the opponent's hand is then the complement of everything ``player`` has seen,
  so voids are automatically honoured and say nothing about the deal (there is no later draw they could move a
  card to). Stock-phase plays are free and carry no void;
* every announcement, by either seat: its legality for the opponent (an unscored atom held), both comparison
  keys, the outcome (with ``seq_tie_trump_wins``, whether his trump suit holds his best window), the points and
  scored atoms of both seats and the cards revealed. These depend on the opponent's whole hand at that moment
  (e.g. "the opponent holds no Tattel"), which is not a per-card constraint: they are counted exactly by a
  dynamic programme (see *Method*); an accept/reject step is left only as an exact shortcut for single worlds
  and a fallback above a state budget, both backed by the programme, so no world fails.

**Deliberately not used** (soft, strategy-dependent signals): a ROB not made while possible, an announcement not
made while possible (both are optional, §4.3, §4.5), and the choice of the cards played. No decision of Tatteln
is compulsory given a holding except following suit in the final phase (honoured, see above).

**Method.** The hidden places are the opponent's dealt hand (``hand_size`` cards), his hidden draws one by one in
time order, and the hidden rest of the stock. A card the opponent is known to have held from the time of his
``k``-th hidden draw on may lie in his dealt hand or in draws ``1..k``; a card ``player`` has never seen may lie
anywhere. These allowed sets are nested prefixes, so the number of placements is the product over places, from
the last to the first, of ``C(cards allowed there and not yet placed, capacity)``, and drawing each place's cards
uniformly among those, last place first, is exactly uniform (no bound on the number of draws). The rest of the
stock is put in the drawn order (a uniform shuffle). When no announcement depends on the hidden cards (none was
made, or the opponent's hand at that moment is the same in every candidate) this is the whole sampler.

Otherwise :mod:`.factdp` counts the worlds constructively. An announcement made when the opponent had made ``k``
hidden draws sees his hand as a fixed part (identical in every world) plus the hidden cards of bound ``> k`` that
lie in places ``<= k``. The places are cut into *intervals* after the lowest such level, after every announcement
level and after every bound above it; every card may lie in the first interval and in each later interval that
ends at or before its bound, and then anywhere inside it, so the number of placements of an assignment of cards
to intervals is a constant (the arrangements inside the intervals), and every announcement fact depends only on
the assignment. A dynamic programme over the cards of the pack, suit by suit in the natural order of each suit,
keeps the cards assigned to each interval and per announcement a small automaton of the opponent's hand at that
moment (sequences: the run ending at the current card and flags for "a window with the recorded key", "an
unscored window", "one in the trump suit"; any window above the recorded key, or a held unscored window outside
the atoms he scored, kills the state; sets: the count of each eligible rank, which must lie in the set the
recorded key, outcome and scored atoms allow, and a legality flag). The programme's backward pass counts the
completions of every state, so the number of worlds is exact (:func:`count_worlds`, float64: exact integers
below 2**53, which covers every 32-card position; relative error near 1e-16 beyond), and a world walks the
layers choosing each card's interval in proportion to the completions, then arranges each interval uniformly
(the nested draw in the first interval, a uniform shuffle in the others). Every world is equally likely and no
draw is ever rejected; the replay that rebuilds the world's row checks the announcement records once more and
has never failed (the tests count failures). A world fails only when the state has no world at all.

**A single world** (``resample_hidden``, which builds everything per call) first tries up to ``QUICK_TRIES``
(32) uniform per-card candidates and keeps the first that passes the announcement check, and builds the
programme only when none does. This is still exactly uniform: a candidate kept in the first stage is uniform over
the worlds (every world is a candidate with the same probability), the second stage is uniform too, and a mixture
of two uniform laws on the same set is uniform; it cannot fail, because the second stage is the constructive
draw. It saves building the programme where the announcements keep most candidates (most positions). Batches
(``sample_worlds``) use the programme alone, built once per call.

**Cost and the fallback.** Over 600 random positions per rule set (seeds 5000-5599, a load average of about 9) the
programme was needed in 40-53% of them and had at most 61,704 states with the default rules (build: 0.05 ms median,
56 ms at the 99th percentile, 101 ms at most), 88,781 with ``no_trump``, 194,733 with ``blocker_scores=False,
seq_tie_trump_wins, sets_all_ranks, max_window_length=6`` (266 ms at most), but up to 1,080,165 with 36 cards (7.2
s) and 1,877,169 with 36 cards and 8 per hand (the same deal, seed 5142): the states grow with the number of hidden
draws after the first announcement. So the programme has a budget of ``factdp.MAX_STATES`` (400,000) states when
sampling. Above it, each world is first drawn by the former accept/reject step (uniform per-card candidates until
one passes the announcement check, at most ``MAX_TRIES``), which is exact; only if that finds nothing is the
programme built again with ``factdp.HARD_STATES`` (4,000,000) and used, which is exact too (the mixture argument
above). A world could fail only if both were exceeded, which no measured position did (the largest needed 1.9M
states; at the three positions above 400,000 the fallback keeps 0.06, 0.06 and 0.96 of the candidates).
:func:`acceptance` measures the share of per-card candidates that are worlds (``count_worlds / count_candidates``):
over those positions 1 at the median and at least 0.015 where counted (default rules: 0.061).

**Exactness of the count**: ``count_candidates`` is the number of deals meeting the per-card facts (a product of
binomials); :func:`count_worlds` the number of worlds. The tests compare the membership test
(:func:`deal_verdict`) with the brute-force definition (legal replay, every observation of ``player`` equal after
every action), :func:`count_worlds` with exact enumeration and the sampled frequencies with it (chi-square),
including positions where the announcements bind.

**Determinism**: the programme and the draws depend only on the seed and on ``player``'s information (his own
cards, the public history and its public outcomes, and the opponent's hand minus its uncertain cards, which is
the same in every world), never on the true hidden cards. A finished deal is resampled like any other position
(its history is public too).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import stream_seed
from tarockrl.games.sampler_template import bind_sampler
from tarockrl.games.tatteln import factdp
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.kernels import apply_unchecked, deck_card, init_from_deck, is_legal
from tarockrl.games.tatteln.rules import O_DECK, O_HAND
from tarockrl.games.worlds import rand_below

ONE = np.int64(1)
SCRATCH_LEN = 1
QUICK_TRIES = 32
"""Candidates a single world (``resample_hidden``) tries before it builds the programme (see *Method*)."""
MAX_TRIES = 200_000
"""Candidates tried per world by the accept/reject fallback (used only above the programme's state budget; the
programme with the hard budget follows if none passes)."""

# the public record compared after each announcement: ANN, ANN_PTS, MELD x2, SCORED x4, SETS, REVEALED x2
_REC_SLOTS = np.array([L.ANN, L.ANN_PTS, L.MELD, L.MELD + 1, L.SCORED, L.SCORED + 1, L.SCORED + 2, L.SCORED + 3, L.SETS,
                       L.REVEALED, L.REVEALED + 1], dtype=np.int64)
NREC = 11


@njit(cache=True, inline="always")
def _hidden_index(i, sl, trump):
    """True when draw-list entry ``i`` is face down (with a trump the last entry is the face-up bottom card)."""
    return trump < 0 or i < sl - 1


@njit(cache=True, inline="always")
def _deck_pos(i, h2, trump):
    """Position in the shuffle ``d`` of draw-list entry ``i`` (a face-down entry)."""
    return h2 + 1 + i if trump >= 0 else h2 + i


@njit(cache=True)
def _setup(state, player, opts, deck, cards, bound, caps, slots, rec, rec_step):
    """Read ``player``'s information; fill the placement problem.

    Writes ``deck`` (the shuffle with every place ``player`` knows filled, -1 elsewhere), ``cards[:m]`` (the
    hidden cards, ascending) with ``bound[k]`` (card ``k`` may lie in places ``0..bound[k]``), ``caps`` (place 0:
    the opponent's dealt hand; 1..D: his hidden draws in time order; D + 1: the hidden rest of the stock, top first)
    and ``slots[j]`` (the shuffle position of place ``j``'s entries: for the dealt hand the first position, unused;
    for a draw its position; for the rest, the position of its first entry), and the public record of every
    announcement (``rec[i]`` after history step ``rec_step[i]``). Returns ``(m, D, nrec)``; ``m`` is -1 when the
    state is inconsistent.
    """
    n = opts[O_DECK]
    h = opts[O_HAND]
    h2 = 2 * h
    sl = n - h2
    trump = state[L.TRUMP]
    dealer = state[L.DEALER]
    fh = 1 - dealer
    opp = 1 - player
    # the true game, replayed, gives the public record of each step (only public facts are read from it)
    true_deck = np.zeros(n, dtype=np.int64)
    for i in range(n):
        true_deck[i] = deck_card(state, i)
    tr = np.zeros(state.shape[0], dtype=np.int64)
    init_from_deck(tr, true_deck, dealer, opts)
    drawer = np.full(sl, -1, dtype=np.int64)
    known_at = np.full(n, -1, dtype=np.int64)
    nhd = 0  # hidden draws of the opponent so far
    nrec = 0
    hl = state[L.HIST_LEN]
    for i in range(hl):
        a = state[L.HIST + i]
        cur = tr[L.CUR]
        if cur == opp:
            if a < n:
                if known_at[a] < 0:
                    known_at[a] = nhd
            elif a == n + 2:  # ROB: the trump seven was in his hand
                seven = (n // 4) * trump
                if known_at[seven] < 0:
                    known_at[seven] = nhd
        rev_before = tr[L.REVEALED + opp]
        pos_before = tr[L.STOCK_POS]
        apply_unchecked(tr, a, opts)
        new_rev = tr[L.REVEALED + opp] & ~rev_before
        while new_rev != 0:
            c = lowest_index(new_rev)
            new_rev &= new_rev - 1
            if known_at[c] < 0:
                known_at[c] = nhd
        if a == n or a == n + 1:
            for j in range(NREC):
                rec[nrec, j] = tr[_REC_SLOTS[j]]
            rec_step[nrec] = i
            nrec += 1
        if tr[L.STOCK_POS] > pos_before:
            w = tr[L.LEADER]
            drawer[pos_before] = w
            drawer[pos_before + 1] = 1 - w
            for q in range(pos_before, pos_before + 2):
                if drawer[q] == opp and _hidden_index(q, sl, trump):
                    nhd += 1
    pos = tr[L.STOCK_POS]
    # the places player knows: his dealt hand (ascending, as a deal notation stores it), his draws, the turn-up
    for i in range(n):
        deck[i] = -1
    known = np.int64(0)
    k = 0
    for c in range(n):
        for i in range(h2):
            if true_deck[i] == c and (fh if i % 2 == 0 else dealer) == player:
                while (fh if k % 2 == 0 else dealer) != player:
                    k += 1
                deck[k] = c
                k += 1
                known |= ONE << c
    if trump >= 0:
        deck[h2] = true_deck[h2]
        known |= ONE << true_deck[h2]
    nd = 0
    slots[0] = 0
    for i in range(pos):
        if _hidden_index(i, sl, trump):
            p = _deck_pos(i, h2, trump)
            if drawer[i] == player:
                deck[p] = true_deck[p]
                known |= ONE << true_deck[p]
            else:
                nd += 1
                slots[nd] = p
    rest = 0
    for i in range(pos, sl):
        if _hidden_index(i, sl, trump):
            if rest == 0:
                slots[nd + 1] = _deck_pos(i, h2, trump)
            rest += 1
    caps[0] = h
    for j in range(1, nd + 1):
        caps[j] = 1
    caps[nd + 1] = rest
    m = 0
    for c in range(n):
        if ((known >> c) & 1) == 0:
            cards[m] = c
            bound[m] = known_at[c] if known_at[c] >= 0 else nd + 1
            m += 1
    if m != h + nd + rest:
        return -1, nd, nrec
    return m, nd, nrec


@njit(cache=True)
def _count(m, bound, caps, nd):
    """The number of deals of the placement problem (float64): product of binomials, times the rest's orders."""
    total = 1.0
    placed = 0
    for j in range(nd + 1, -1, -1):
        avail = 0
        for k in range(m):
            if bound[k] >= j:
                avail += 1
        avail -= placed
        c = caps[j]
        if avail < c:
            return 0.0
        for q in range(c):
            total *= (avail - q) / (q + 1.0)
        placed += c
    for q in range(2, caps[nd + 1] + 1):
        total *= q
    return total


@njit(cache=True)
def _draw(m, cards, bound, caps, nd, rs, loc_of, order, pool):
    """Draw one placement uniformly: ``loc_of[k]`` gets card ``k``'s place and ``order[t]`` the ``t``-th card
    (position in ``cards``) drawn for the rest of the stock. Returns False when a place cannot be filled."""
    npool = 0
    for j in range(nd + 1, -1, -1):
        for k in range(m):
            if bound[k] == j:
                pool[npool] = k
                npool += 1
        for t in range(caps[j]):
            if npool == 0:
                return False
            r = rand_below(rs, npool)
            k = pool[r]
            pool[r] = pool[npool - 1]
            npool -= 1
            loc_of[k] = j
            if j == nd + 1:
                order[t] = k
    return True


@njit(cache=True)
def _build(state, player, opts, deck, cards, caps, slots, nd, loc_of, order, m, rec, rec_step, nrec, world, wdeck):
    """Write into ``world`` the game of one placement, replayed; returns True when every action is legal and every
    announcement's public record equals the recorded one."""
    n = opts[O_DECK]
    dealer = state[L.DEALER]
    fh = 1 - dealer
    opp = 1 - player
    for i in range(n):
        wdeck[i] = deck[i]
    # the opponent's dealt hand, ascending, into his deal positions
    k = 0
    for q in range(m):
        if loc_of[q] == 0:
            while (fh if k % 2 == 0 else dealer) != opp:
                k += 1
            wdeck[k] = cards[q]
            k += 1
    for q in range(m):
        j = loc_of[q]
        if 1 <= j <= nd:
            wdeck[slots[j]] = cards[q]
    for t in range(caps[nd + 1]):
        wdeck[slots[nd + 1] + t] = cards[order[t]]
    return _replay_ok(state, opts, wdeck, rec, rec_step, nrec, world)


@njit(cache=True)
def _replay_ok(state, opts, wdeck, rec, rec_step, nrec, world):
    """Replay ``state``'s history on the shuffle ``wdeck`` into ``world``; True when every action is legal and
    every announcement's public record equals the recorded one."""
    init_from_deck(world, wdeck, state[L.DEALER], opts)
    r = 0
    n = opts[O_DECK]
    hl = state[L.HIST_LEN]
    for i in range(hl):
        a = state[L.HIST + i]
        # a play is legal by construction: the player's cards are his own at every moment, the opponent's card
        # was his before he played it (its bound), and final-phase duties concern hands that every world shares
        if a >= n and not is_legal(world, a, opts):
            return False
        apply_unchecked(world, a, opts)
        if r < nrec and rec_step[r] == i:
            for j in range(NREC):
                if world[_REC_SLOTS[j]] != rec[r, j]:
                    return False
            r += 1
    return True


@njit(cache=True)
def _prepare(state, player, opts):
    n = opts[O_DECK]
    cap_h = 3 * n
    deck = np.zeros(n, dtype=np.int64)
    cards = np.zeros(n, dtype=np.int64)
    bound = np.zeros(n, dtype=np.int64)
    caps = np.zeros(n + 2, dtype=np.int64)
    slots = np.zeros(n + 2, dtype=np.int64)
    rec = np.zeros((cap_h, NREC), dtype=np.int64)
    rec_step = np.zeros(cap_h, dtype=np.int64)
    m, nd, nrec = _setup(state, player, opts, deck, cards, bound, caps, slots, rec, rec_step)
    total = 0.0 if m < 0 else _count(m, bound, caps, nd)
    return deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, total


@njit(cache=True)
def count_candidates(state, player, opts):
    """The number of deals satisfying the per-card facts of ``player``'s view (float64).

    Without announcements in the history (or when none of them depends on the hidden cards) this is the number
    of worlds; otherwise the worlds are the candidates whose replay matches every announcement, counted by
    :func:`count_worlds`.
    """
    return _prepare(state, player, opts)[10]


@njit(cache=True)
def _sample_into(state, player, opts, deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, rs, world,
                 loc_of, order, pool, wdeck):
    """The accept/reject draw (used only as the fallback above the programme's state budget, and by
    :func:`acceptance`): uniform candidates of the per-card facts until one passes the announcement check."""
    for _ in range(MAX_TRIES):
        if not _draw(m, cards, bound, caps, nd, rs, loc_of, order, pool):
            return False
        if _build(state, player, opts, deck, cards, caps, slots, nd, loc_of, order, m, rec, rec_step, nrec, world,
                  wdeck):
            return True
    return False


@njit(cache=True)
def _draw_buffers(n):
    """The scratch of :func:`_draw` and :func:`_build` for an ``n``-card pack: ``(loc_of, order, pool, wdeck)``."""
    loc_of = np.zeros(n, dtype=np.int64)
    order = np.zeros(n, dtype=np.int64)
    pool = np.zeros(n, dtype=np.int64)
    wdeck = np.zeros(n, dtype=np.int64)
    return loc_of, order, pool, wdeck


@njit(cache=True)
def _plan(state, player, opts, cards, bound, caps, m, nd, max_states):
    """The announcement facts and, when there are any, the counting programme (:mod:`.factdp`).

    Returns ``(nf, ni, ends, icap, k1, nst, succ, comp, card_q, worlds_factor)``: ``nf`` facts that depend on
    hidden cards (0: the product of binomials counts the worlds), the coarse intervals, the programme (``nst``
    states, -1 above the budget) and the arrangements per assignment (``worlds = comp[0] * worlds_factor``)."""
    nf, level, kind, fixed, unc, key, need_legal, scoring, tie, okw, before, allow, legr = factdp.collect_facts(
        state, player, opts, m, cards, bound, nd, caps[nd + 1])
    ni, ends, icap, ivl, k1 = factdp.intervals(m, bound, caps, nd, nf, level)
    if nf == 0:
        return (nf, ni, ends, icap, k1, np.int64(0), np.full((1, 1), -1, dtype=np.int64), np.zeros(1),
                np.full(opts[O_DECK], -1, dtype=np.int64), 0.0)
    nst, succ, comp, layer_start, card_q = factdp.build(
        opts, state[L.TRUMP], m, cards, bound, nd, nf, kind, fixed, unc, key, need_legal, scoring, tie, okw,
        before, allow, legr, ni, ends, icap, ivl, max_states)
    factor = factdp.i0_arrangements(m, bound, caps, k1, icap[0])
    for i in range(1, ni):
        for x in range(2, icap[i] + 1):
            factor *= x
    return nf, ni, ends, icap, k1, nst, succ, comp, card_q, factor


@njit(cache=True)
def count_worlds(state, player, opts):
    """The exact number of worlds of ``player``'s view (float64): deals meeting every per-card fact and every
    announcement fact, counted by the product of binomials or, with announcements that depend on hidden cards,
    by the programme of :mod:`.factdp`. Returns -1.0 when the programme exceeds ``factdp.HARD_STATES`` states
    (never in the 3,000 random positions measured; the largest needed 1.9M)."""
    deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, total = _prepare(state, player, opts)
    if not total > 0.0:
        return 0.0
    nf, ni, ends, icap, k1, nst, succ, comp, card_q, factor = _plan(state, player, opts, cards, bound, caps, m, nd,
                                                                   factdp.HARD_STATES)
    if nf == 0:
        return total
    if nst < 0:
        return -1.0
    return comp[0] * factor


@njit(cache=True)
def plan_size(state, player, opts):
    """``(facts, intervals, states)`` of the counting programme for ``player``'s view (a diagnostic for tests
    and benchmarks; states is -1 above the budget, 0 without facts)."""
    deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, total = _prepare(state, player, opts)
    if not total > 0.0:
        return 0, 0, 0
    nf, ni, ends, icap, k1, nst, succ, comp, card_q, factor = _plan(state, player, opts, cards, bound, caps, m, nd,
                                                                   factdp.HARD_STATES)
    return nf, ni, nst


@njit(cache=True)
def _sample_many(state, player, opts, out, base, single, rng):
    """Draw ``out.shape[0]`` worlds into ``out`` (world i from stream ``(base, i)``, or from ``rng`` when ``single``);
    returns ``(failures, rng)`` (the kernel :mod:`tarockrl.games.sampler_template` binds). A world fails only when
    the state is inconsistent (no world at all)."""
    count = out.shape[0]
    deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, total = _prepare(state, player, opts)
    if not total > 0.0:
        return count, rng
    n = opts[O_DECK]
    r = n // 4
    d = 1 if n == 36 else 0
    loc_of, order, pool, wdeck = _draw_buffers(n)
    iv = np.zeros(n, dtype=np.int64)
    rs = np.zeros(1, dtype=np.int64)
    # the programme is built on first need (a single world first tries QUICK_TRIES candidates, see the docstring)
    planned = False
    nf, ni, k1, nst, factor = 0, 0, np.int64(0), np.int64(0), 0.0
    ends = np.zeros(1, dtype=np.int64)
    icap = np.zeros(1, dtype=np.int64)
    succ = np.full((1, 1), -1, dtype=np.int64)
    comp = np.zeros(1)
    card_q = np.full(n, -1, dtype=np.int64)
    fails = 0
    for i in range(count):
        rs[0] = rng if single else stream_seed(base, i)
        good = False
        if single:
            for _ in range(QUICK_TRIES):
                _draw(m, cards, bound, caps, nd, rs, loc_of, order, pool)
                if _build(state, player, opts, deck, cards, caps, slots, nd, loc_of, order, m, rec, rec_step, nrec,
                          out[i], wdeck):
                    good = True
                    break
        if not good:
            if not planned:
                nf, ni, ends, icap, k1, nst, succ, comp, card_q, factor = _plan(state, player, opts, cards, bound,
                                                                               caps, m, nd, factdp.MAX_STATES)
                planned = True
            if nf > 0 and nst < 0:
                # above the budget: the exact accept/reject fallback, and if it finds nothing the programme again
                # with the hard budget (never observed; see the docstring)
                good = _sample_into(state, player, opts, deck, cards, bound, caps, slots, rec, rec_step, m, nd,
                                    nrec, rs, out[i], loc_of, order, pool, wdeck)
                if not good:
                    nf, ni, ends, icap, k1, nst, succ, comp, card_q, factor = _plan(
                        state, player, opts, cards, bound, caps, m, nd, factdp.HARD_STATES)
            if good:
                pass
            elif nf > 0 and nst >= 0:
                good = comp[0] > 0.0 and factdp.draw(rs, n, r, d, m, cards, bound, caps, nd, ni, ends, icap, k1,
                                                     succ, comp, card_q, loc_of, order, pool, iv)
                # the replay rebuilds the world's row; its check cannot fail for an assignment of the programme
                good = good and _build(state, player, opts, deck, cards, caps, slots, nd, loc_of, order, m, rec,
                                       rec_step, nrec, out[i], wdeck)
            else:
                # without facts every candidate is a world (the first one passes); above the budget: the fallback
                good = _sample_into(state, player, opts, deck, cards, bound, caps, slots, rec, rec_step, m, nd,
                                    nrec, rs, out[i], loc_of, order, pool, wdeck)
        if not good:
            fails += 1
    return fails, rs[0]


resample_hidden, sample_worlds = bind_sampler(_sample_many, slot_phase=L.PHASE, terminal_phase=L.TERMINAL,
                                              terminal_shortcut=False, remap_zero_base=False)


@njit(cache=True)
def acceptance(state, player, opts, seed, tries):
    """Fraction of ``tries`` per-card candidates that pass the announcement check (a diagnostic for tests and
    benchmarks: the sampler itself never rejects; it estimates ``count_worlds / count_candidates``)."""
    deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, total = _prepare(state, player, opts)
    if not total > 0.0:
        return 0.0
    n = opts[O_DECK]
    world = np.zeros(state.shape[0], dtype=np.int64)
    loc_of, order, pool, wdeck = _draw_buffers(n)
    rs = np.zeros(1, dtype=np.int64)
    rs[0] = stream_seed(seed, player)
    good = 0
    for _ in range(tries):
        _draw(m, cards, bound, caps, nd, rs, loc_of, order, pool)
        if _build(state, player, opts, deck, cards, caps, slots, nd, loc_of, order, m, rec, rec_step, nrec, world,
                  wdeck):
            good += 1
    return good / tries


@njit(cache=True)
def deal_verdict(state, player, opts, wdeck):
    """The sampler's membership test for one shuffle ``wdeck`` (same dealer as ``state``): 0 when it is one of
    the worlds the sampler draws from; 1 when it differs from ``player``'s known places; 2 when a hidden card
    breaks its per-card bound; 3 when the replay fails (an illegal action or an announcement record differs).
    Exposed so that tests can compare it with a brute-force check of every observation.
    """
    deck, cards, bound, caps, slots, rec, rec_step, m, nd, nrec, total = _prepare(state, player, opts)
    n = opts[O_DECK]
    h2 = 2 * opts[O_HAND]
    dealer = state[L.DEALER]
    opp = 1 - player
    for i in range(n):
        if deck[i] >= 0 and wdeck[i] != deck[i]:
            return 1
    place = np.full(n, -1, dtype=np.int64)
    for i in range(h2):
        if ((1 - dealer) if i % 2 == 0 else dealer) == opp:
            place[wdeck[i]] = 0
    for j in range(1, nd + 1):
        place[wdeck[slots[j]]] = j
    for t in range(caps[nd + 1]):
        place[wdeck[slots[nd + 1] + t]] = nd + 1
    for k in range(m):
        if place[cards[k]] < 0 or place[cards[k]] > bound[k]:
            return 2
    world = np.zeros(state.shape[0], dtype=np.int64)
    if not _replay_ok(state, opts, wdeck, rec, rec_step, nrec, world):
        return 3
    return 0
