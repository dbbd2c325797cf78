"""Tatteln worlds under announcement facts: an exact counting dynamic programme over the cards (numba).

Used by :mod:`tarockrl.games.tatteln.resample` (read its docstring first). The per-card facts make a world a
placement of the hidden cards into *places* (0: the opponent's dealt hand; ``1..D``: his hidden draws in time
order; ``D + 1``: the hidden rest of the stock), card ``q`` allowed in places ``0..bound[q]``. An announcement at
a moment when the opponent had made ``k`` hidden draws (its *level*) depends on his hand then, which is

    ``fixed`` (cards every world puts there: public cards, cards he was seen to hold by then, minus what he played)
    plus ``{hidden card c with bound[c] > k : place(c) <= k}`` (the *uncertain* cards of the fact).

**Coarse places.** Cut the places after ``k1`` (the lowest fact level), after every fact level, after every
bound ``b > k1`` of a hidden card and after ``D + 1``: intervals ``I0 = 0..k1``, ``I1``, ... . A card may lie in
``I0`` (always) and in a later interval ``Ii`` iff the interval ends at or before its bound, and then in *every*
place of it. So the number of placements with a given assignment of cards to intervals is the product of the
arrangements inside the intervals: ``cap_i!`` for ``i >= 1`` (draws and the ordered rest), and for ``I0`` the
nested-prefix product of its cards' bounds, which is the same for every assignment (the cards with a bound below
``k1`` must lie in ``I0``; every other card of ``I0`` may lie anywhere in it). Every fact depends only on the
interval of each card (``place <= k`` iff ``interval <= the interval ending at k``). Hence

    ``worlds = (assignments of cards to intervals meeting every capacity and every fact) * constant``,

and drawing the assignment uniformly, then each interval's arrangement uniformly, is exactly uniform.

**The programme** scans the N cards of the pack suit by suit, in the natural order of each suit (the order of
sequences), one layer per card. A state holds the cards assigned to each interval so far and, per fact, a small
automaton of the opponent's hand at that moment: for a sequence fact the length of the run ending at the current
card and three flags (a window with the target key was held; an unscored window was held; one in the trump
suit), for a set fact the count of each eligible rank so far (final after the last suit) and a flag. A window
above the target key, a held unscored window outside the scored ones, or a rank count outside its allowed set
kills the state. Each state keeps its successor per choice; a backward pass counts the completions (float64, as
:mod:`tarockrl.games.worlds`: exact integers below 2**53, a relative error near 1e-16 beyond), and a world walks
the layers choosing each card's interval in proportion to its completions. States are merged by a hash table
per layer. Nothing here reads the true hidden cards: the facts come from the public record.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.rng import GOLDEN, mix64
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import NATPOS_TO_R, NATURAL_POS
from tarockrl.games.tatteln.kernels import apply_unchecked, deck_card, init_from_deck
from tarockrl.games.tatteln.melds import SEQ_BEST, meld_cfg, set_ranks, window_offsets
from tarockrl.games.tatteln.rules import O_BLOCKER, O_DECK, O_HAND, O_LMAX, O_TIE_TRUMP
from tarockrl.games.worlds import rand_below, rand_unit

ONE = np.int64(1)
M32 = np.int64(0xFFFFFFFF)
MAX_STATES = 400_000
"""State budget of the programme when sampling (all layers); above it the sampler first tries its exact
accept/reject fallback (see resample)."""
HARD_STATES = 4_000_000
"""State budget of the programme when the fallback found no world, and of ``count_worlds``."""

# WIN_ID[pack, L, t]: local window id of the window of length L ending at natural position t (-1: none)
WIN_ID = np.full((2, 9, 9), -1, dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    _off = window_offsets(_R, 8)
    for _L in range(3, 9):
        for _t in range(_L - 1, _R):
            WIN_ID[_d, _L, _t] = _off[_L] + _t - (_L - 1)
WIN_ID.setflags(write=False)

# fact kinds
F_SEQ = 0
F_SET = 1
# sequence flags
SQ_FOUND, SQ_UNSC, SQ_TRK = 1, 2, 4


@njit(cache=True)
def collect_facts(state, player, opts, m, cards, bound, nd, rest):
    """The announcement facts of ``player``'s view that depend on hidden cards.

    Replays the public history (the true deal is replayed only to read public records and the opponent's hand
    *minus its uncertain cards*, which is the same in every world). Returns ``(nf, level, kind, fixed, unc, key,
    need_legal, scoring, tie, ok, before, allow, legr)`` with per fact ``f < nf``: the level, SEQ/SET, the fixed
    part of the opponent's hand, the uncertain cards, the opponent's exact key, whether his announcement must be
    legal, whether he scored, the required value of "the trump suit holds the key window" (-1: free), the scored
    windows per suit after (``ok``) and before (``before``), and for sets the allowed rank counts (5-bit masks
    ``allow[f, r]``) and the counts that make an announcement legal (``legr``).
    """
    n = opts[O_DECK]
    h = opts[O_HAND]
    r = n // 4
    d = 1 if n == 36 else 0
    cfg = meld_cfg(opts, d)
    rm = (ONE << r) - 1
    h2 = 2 * h
    sl = n - h2
    trump = state[L.TRUMP]
    opp = 1 - player
    hl = state[L.HIST_LEN]
    cap = hl + 1
    level = np.zeros(cap, dtype=np.int64)
    kind = np.zeros(cap, dtype=np.int64)
    fixed = np.zeros(cap, dtype=np.int64)
    unc = np.zeros(cap, dtype=np.int64)
    key = np.zeros(cap, dtype=np.int64)
    need_legal = np.zeros(cap, dtype=np.int64)
    scoring = np.zeros(cap, dtype=np.int64)
    tie = np.full(cap, -1, dtype=np.int64)
    ok = np.zeros((cap, 4), dtype=np.int64)
    before = np.zeros((cap, 4), dtype=np.int64)
    allow = np.zeros((cap, 9), dtype=np.int64)
    legr = np.zeros((cap, 9), dtype=np.int64)
    true_deck = np.zeros(n, dtype=np.int64)
    for i in range(n):
        true_deck[i] = deck_card(state, i)
    tr = np.zeros(state.shape[0], dtype=np.int64)
    init_from_deck(tr, true_deck, state[L.DEALER], opts)
    drawer = np.full(sl, -1, dtype=np.int64)
    elig = set_ranks(opts, d)
    nhd = 0
    nf = 0
    for i in range(hl):
        a = state[L.HIST + i]
        is_ann = a == n or a == n + 1
        announcer = tr[L.CUR]
        hand_o = tr[L.HAND + opp]
        hand_p = tr[L.HAND + player]
        sc_b0 = tr[L.SCORED + 2 * opp]
        sc_b1 = tr[L.SCORED + 2 * opp + 1]
        sets_b = tr[L.SETS] >> (18 * opp)
        pos_before = tr[L.STOCK_POS]
        apply_unchecked(tr, a, opts)
        if tr[L.STOCK_POS] > pos_before:
            w = tr[L.LEADER]
            drawer[pos_before] = w
            drawer[pos_before + 1] = 1 - w
            for q in range(pos_before, pos_before + 2):
                if drawer[q] == opp and (trump < 0 or q < sl - 1):
                    nhd += 1
        if not is_ann:
            continue
        k = nhd
        u = np.int64(0)
        for q in range(m):
            if bound[q] > k:
                u |= ONE << cards[q]
        if u == 0 or (nd - k) + rest == 0:
            continue  # the opponent's hand at this moment is the same in every world
        ann = tr[L.ANN]
        ka = (ann >> L.ANN_KA_SHIFT) & 255
        kb = (ann >> L.ANN_KB_SHIFT) & 255
        outcome = (ann >> L.ANN_OUTCOME_SHIFT) & 3
        kopp = ka if announcer == opp else kb
        if outcome == L.OUT_GOOD:
            winner = announcer
        elif outcome == L.OUT_NOT_GOOD:
            winner = 1 - announcer
        else:
            winner = -1
        level[nf] = k
        kind[nf] = F_SEQ if a == n else F_SET
        fixed[nf] = hand_o & ~u
        unc[nf] = u
        key[nf] = kopp
        need_legal[nf] = 1 if announcer == opp else 0
        scoring[nf] = 1 if (winner == opp and (announcer == opp or opts[O_BLOCKER] != 0)) else 0
        if a == n:
            for s in range(4):
                wb = sc_b0 if s < 2 else sc_b1
                wa = tr[L.SCORED + 2 * opp + (s >> 1)]
                before[nf, s] = (wb >> (32 * (s & 1))) & M32
                ok[nf, s] = (wa >> (32 * (s & 1))) & M32
            if opts[O_TIE_TRUMP] != 0 and trump >= 0 and ka == kb:
                if announcer == opp:
                    tie[nf] = 1 if outcome == L.OUT_GOOD else 0
                elif SEQ_BEST[cfg, (hand_p >> (r * trump)) & rm] != ka:
                    tie[nf] = 1 if outcome == L.OUT_NOT_GOOD else 0
        else:
            sets_a = tr[L.SETS] >> (18 * opp)
            trio_b = sets_b & 511
            four_b = (sets_b >> 9) & 511
            trio_a = sets_a & 511
            four_a = (sets_a >> 9) & 511
            four_av = four_a & ~four_b
            trio_av = (trio_a & ~trio_b) & ~four_av
            for rr in range(r):
                if ((elig >> rr) & 1) == 0:
                    continue
                al = np.int64(31)
                npos = NATURAL_POS[d, rr]
                if kopp == 0:
                    al &= 7
                elif kopp < 64:
                    al &= 15
                    if npos == kopp - 48:
                        al &= 8
                    elif npos > kopp - 48:
                        al &= 7
                else:
                    if npos == kopp - 64:
                        al &= 16
                    elif npos > kopp - 64:
                        al &= 15
                if scoring[nf] != 0 and ((four_b >> rr) & 1) == 0:
                    if (trio_b >> rr) & 1:
                        al &= 16 if (four_av >> rr) & 1 else 15
                    elif (four_av >> rr) & 1:
                        al &= 16
                    elif (trio_av >> rr) & 1:
                        al &= 8
                    else:
                        al &= 7
                allow[nf, rr] = al
                if (four_b >> rr) & 1:
                    legr[nf, rr] = 0
                elif (trio_b >> rr) & 1:
                    legr[nf, rr] = 16
                else:
                    legr[nf, rr] = 24
        nf += 1
    return nf, level, kind, fixed, unc, key, need_legal, scoring, tie, ok, before, allow, legr


@njit(cache=True)
def intervals(m, bound, caps, nd, nf, level):
    """The coarse places: ``(ni, ends, icap, ivl_of_fact, k1)``; interval ``i`` covers places
    ``ends[i-1]+1 .. ends[i]`` (``0 .. ends[0]`` for ``I0``), ``icap[i]`` its capacity."""
    k1 = nd + 1
    for f in range(nf):
        k1 = min(k1, level[f])
    is_end = np.zeros(nd + 2, dtype=np.bool_)
    is_end[k1] = True
    is_end[nd + 1] = True
    for f in range(nf):
        is_end[level[f]] = True
    for q in range(m):
        if k1 < bound[q] <= nd:
            is_end[bound[q]] = True
    ends = np.zeros(nd + 2, dtype=np.int64)
    icap = np.zeros(nd + 2, dtype=np.int64)
    ni = 0
    acc = 0
    for p in range(nd + 2):
        acc += caps[p]
        if p >= k1 and is_end[p]:
            ends[ni] = p
            icap[ni] = acc
            acc = 0
            ni += 1
    ivl = np.zeros(max(nf, 1), dtype=np.int64)
    for f in range(nf):
        for i in range(ni):
            if ends[i] == level[f]:
                ivl[f] = i
    return ni, ends, icap, ivl, k1


@njit(cache=True)
def _hash(words, w):
    x = np.int64(0x1234567)
    for j in range(w):
        x = mix64(x ^ (words[j] + GOLDEN))
    return x


@njit(cache=True)
def build(opts, trump, m, cards, bound, nd, nf, kind, fixed, unc, key, need_legal, scoring, tie, ok, before, allow,
          legr, ni, ends, icap, ivl, max_states):
    """Build the programme. Returns ``(nstates, succ, comp, layer_start, card_q)``; ``nstates`` is -1 when the
    state budget ``max_states`` was exceeded. ``comp[s]`` counts the assignments completing state ``s``;
    ``comp[0]`` is the number of assignments of cards to intervals meeting every fact."""
    n = opts[O_DECK]
    r = n // 4
    d = 1 if n == 36 else 0
    lmax = opts[O_LMAX]
    elig = set_ranks(opts, d)
    card_q = np.full(n, -1, dtype=np.int64)
    for q in range(m):
        card_q[cards[q]] = q
    # ---- field layout: (word, shift, width) ----
    nfld_max = ni + nf * (r + 2)
    fw = np.zeros(nfld_max, dtype=np.int64)
    fs = np.zeros(nfld_max, dtype=np.int64)
    fbits = np.zeros(nfld_max, dtype=np.int64)
    fstart = np.zeros(nf + 1, dtype=np.int64)
    nfld = 0
    word = 0
    used = 0

    for _i in range(ni):
        fbits[nfld] = 5
        nfld += 1
    for f in range(nf):
        fstart[f] = nfld
        if kind[f] == F_SEQ:
            fbits[nfld] = 4  # run length
            fbits[nfld + 1] = 3  # flags
            nfld += 2
        else:
            for _rr in range(r):
                fbits[nfld] = 3  # count of one rank
                nfld += 1
            fbits[nfld] = 1  # legality flag
            nfld += 1
    fstart[nf] = nfld
    for j in range(nfld):
        if used + fbits[j] > 63:
            word += 1
            used = 0
        fw[j] = word
        fs[j] = used
        used += fbits[j]
    nw = word + 1
    # allowed intervals per hidden card; remaining cards allowed per interval (for pruning)
    ok_iv = np.zeros((max(m, 1), ni), dtype=np.bool_)
    for q in range(m):
        ok_iv[q, 0] = True
        for i in range(1, ni):
            ok_iv[q, i] = ends[i] <= bound[q]
    scan_card = np.zeros(n, dtype=np.int64)
    for ell in range(n):
        scan_card[ell] = r * (ell // r) + NATPOS_TO_R[d, ell % r]
    rem = np.zeros((n + 1, ni), dtype=np.int64)
    for ell in range(n - 1, -1, -1):
        for i in range(ni):
            rem[ell, i] = rem[ell + 1, i]
        q = card_q[scan_card[ell]]
        if q >= 0:
            for i in range(ni):
                if ok_iv[q, i]:
                    rem[ell, i] += 1
    # ---- storage ----
    cap = 4096
    S = np.zeros((cap, nw), dtype=np.int64)
    succ = np.full((cap, ni), -1, dtype=np.int64)
    layer_start = np.zeros(n + 2, dtype=np.int64)
    nst = 1
    layer_start[0] = 0
    layer_start[1] = 1
    vals = np.zeros(nfld, dtype=np.int64)
    v2 = np.zeros(nfld, dtype=np.int64)
    kw = np.zeros(nw, dtype=np.int64)
    for ell in range(n):
        c = scan_card[ell]
        s = ell // r
        t = ell % r
        rr = c % r
        q = card_q[c]
        lo = layer_start[ell]
        hi = layer_start[ell + 1]
        nch = ni if q >= 0 else 1
        hsize = 64
        while hsize < 4 * (hi - lo) * nch:
            hsize *= 2
        table = np.full(hsize, -1, dtype=np.int64)
        for si in range(lo, hi):
            for j in range(nfld):
                vals[j] = (S[si, fw[j]] >> fs[j]) & ((ONE << fbits[j]) - 1)
            for ch in range(nch):
                if q >= 0:
                    if not ok_iv[q, ch] or vals[ch] >= icap[ch]:
                        continue
                for j in range(nfld):
                    v2[j] = vals[j]
                if q >= 0:
                    v2[ch] += 1
                alive = True
                # capacity still fillable by the cards after this one
                for i in range(ni):
                    if icap[i] - v2[i] > rem[ell + 1, i]:
                        alive = False
                        break
                f = 0
                while alive and f < nf:
                    bit = ONE << c
                    if (fixed[f] & bit) != 0:
                        member = True
                    elif (unc[f] & bit) != 0 and q >= 0:
                        member = ch <= ivl[f]
                    else:
                        member = False
                    j0 = fstart[f]
                    if kind[f] == F_SEQ:
                        run = v2[j0]
                        flags = v2[j0 + 1]
                        if member:
                            run = min(run + 1, lmax)
                            for ln in range(3, run + 1):
                                kk = 16 * ln + t
                                if kk > key[f]:
                                    alive = False
                                    break
                                if kk == key[f]:
                                    flags |= SQ_FOUND
                                    if s == trump:
                                        flags |= SQ_TRK
                                wid = WIN_ID[d, ln, t]
                                if scoring[f] != 0 and ((ok[f, s] >> wid) & 1) == 0:
                                    alive = False
                                    break
                                if ((before[f, s] >> wid) & 1) == 0:
                                    flags |= SQ_UNSC
                        else:
                            run = 0
                        if t == r - 1:
                            run = 0
                        v2[j0] = run
                        v2[j0 + 1] = flags
                        if alive and ell == n - 1:
                            if key[f] > 0 and (flags & SQ_FOUND) == 0:
                                alive = False
                            if need_legal[f] != 0 and (flags & SQ_UNSC) == 0:
                                alive = False
                            if tie[f] >= 0 and ((flags & SQ_TRK) != 0) != (tie[f] == 1):
                                alive = False
                    else:
                        if (elig >> rr) & 1:
                            cnt = v2[j0 + rr] + (1 if member else 0)
                            if cnt > 4 or ((allow[f, rr] >> cnt) == 0):
                                alive = False  # no allowed count is this high
                            elif s == 3:
                                if ((allow[f, rr] >> cnt) & 1) == 0:
                                    alive = False
                                elif ((legr[f, rr] >> cnt) & 1) != 0:
                                    v2[j0 + r] = 1
                                cnt = 0
                            v2[j0 + rr] = cnt
                        if alive and ell == n - 1 and need_legal[f] != 0 and v2[j0 + r] == 0:
                            alive = False
                    f += 1
                if not alive:
                    continue
                for j in range(nw):
                    kw[j] = 0
                for j in range(nfld):
                    kw[fw[j]] |= v2[j] << fs[j]
                hpos = _hash(kw, nw) & (hsize - 1)
                found = -1
                while table[hpos] >= 0:
                    cand = table[hpos]
                    same = True
                    for j in range(nw):
                        if S[cand, j] != kw[j]:
                            same = False
                            break
                    if same:
                        found = cand
                        break
                    hpos = (hpos + 1) & (hsize - 1)
                if found < 0:
                    if nst >= max_states:
                        return -1, succ, np.zeros(1), layer_start, card_q
                    if nst >= cap:
                        cap2 = 2 * cap
                        S2 = np.zeros((cap2, nw), dtype=np.int64)
                        S2[:cap] = S
                        succ2 = np.full((cap2, ni), -1, dtype=np.int64)
                        succ2[:cap] = succ
                        S = S2
                        succ = succ2
                        cap = cap2
                    for j in range(nw):
                        S[nst, j] = kw[j]
                    found = nst
                    table[hpos] = nst
                    nst += 1
                succ[si, ch] = found
        layer_start[ell + 2] = nst
    comp = np.zeros(nst, dtype=np.float64)
    for si in range(layer_start[n], layer_start[n + 1]):
        comp[si] = 1.0
    for ell in range(n - 1, -1, -1):
        for si in range(layer_start[ell], layer_start[ell + 1]):
            tot = 0.0
            for ch in range(ni):
                x = succ[si, ch]
                if x >= 0:
                    tot += comp[x]
            comp[si] = tot
    return nst, succ, comp, layer_start, card_q


@njit(cache=True)
def i0_arrangements(m, bound, caps, k1, icap0):
    """The arrangements of interval ``I0`` (places ``0..k1``): the nested-prefix product for its cards, which are
    the cards with a bound below ``k1`` and ``icap0`` minus those with bound ``>= k1`` (the same for every
    assignment). Returns 0.0 when the forced cards exceed the interval."""
    forced = 0
    for q in range(m):
        if bound[q] < k1:
            forced += 1
    if forced > icap0:
        return 0.0
    total = 1.0
    placed = 0
    for j in range(k1, -1, -1):
        avail = icap0 - forced
        for q in range(m):
            if bound[q] < k1 and bound[q] >= j:
                avail += 1
        avail -= placed
        c = caps[j]
        if avail < c:
            return 0.0
        for x in range(c):
            total *= (avail - x) / (x + 1.0)
        placed += c
    return total


@njit(cache=True)
def draw(rs, n, r, d, m, cards, bound, caps, nd, ni, ends, icap, k1, succ, comp, card_q, loc_of, order, pool, iv):
    """Draw one placement: the intervals by the programme, then a uniform arrangement inside each interval.

    Writes ``loc_of[q]`` (the place of hidden card ``q``) and ``order`` (the rest of the stock, top first, as
    positions in ``cards``), as :func:`tarockrl.games.tatteln.resample._draw` does. Returns False only when the
    programme has no completion (an inconsistent state)."""
    si = 0
    if not comp[0] > 0.0:
        return False
    for ell in range(n):
        c = r * (ell // r) + NATPOS_TO_R[d, ell % r]
        q = card_q[c]
        if q < 0:
            si = succ[si, 0]
            continue
        target = rand_unit(rs) * comp[si]
        acc = 0.0
        pick = -1
        last = -1
        for ch in range(ni):
            x = succ[si, ch]
            if x >= 0 and comp[x] > 0.0:
                last = ch
                acc += comp[x]
                if target < acc:
                    pick = ch
                    break
        if pick < 0:
            pick = last
        iv[q] = pick
        si = succ[si, pick]
    # I0: the nested draw over places k1 .. 0 among its cards
    npool = 0
    for j in range(k1, -1, -1):
        for q in range(m):
            if iv[q] == 0 and min(bound[q], k1) == j:
                pool[npool] = q
                npool += 1
        for _ in range(caps[j]):
            x = rand_below(rs, npool)
            q = pool[x]
            pool[x] = pool[npool - 1]
            npool -= 1
            loc_of[q] = j
    # later intervals: a uniform permutation of the interval's cards over its places (draws, then the rest)
    for i in range(1, ni):
        k = 0
        for q in range(m):
            if iv[q] == i:
                pool[k] = q
                k += 1
        for x in range(k - 1, 0, -1):
            y = rand_below(rs, x + 1)
            tmp = pool[x]
            pool[x] = pool[y]
            pool[y] = tmp
        p = ends[i - 1] + 1
        t = 0
        for x in range(k):
            q = pool[x]
            if p <= nd and p <= ends[i]:
                loc_of[q] = p
                p += 1
            else:
                loc_of[q] = nd + 1
                order[t] = q
                t += 1
    return True
