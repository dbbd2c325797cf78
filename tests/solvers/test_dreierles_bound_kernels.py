"""The Dreierles adapter's rewritten static-bound kernels give exactly the results of the formulas they replace.

``_kills_kf``/``_sure_k`` (one pass over the killers instead of two or three greedy scans), ``_cash_f`` (values
by bit planes) and the trick-start bounds ``_start_lo``/``_start_hi_static`` built on them are compared with
reference copies of the earlier code (built from :mod:`tarockrl.solvers._common`'s ``kills``, ``sure_trumps``
and ``cash_tops_followed``) on thousands of random hands, both counting methods.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import tarockrl
from tarockrl.engine.bits import popcount
from tarockrl.games.dreierles.cards import CARD_VALUES, TRUMPS
from tarockrl.games.dreierles.kernels import pile_points
from tarockrl.solvers._common import cash_tops_followed, kills, sure_trumps, trumpless_run
from tarockrl.solvers.adapters import _dreierles_bounds as B
from tarockrl.solvers.adapters import dreierles as A
from tarockrl.solvers.adapters._dreierles_bounds import _k_sum

ONE = np.int64(1)
FIVE = A.FIVE_TRUMPS
PLAIN = A.PLAIN_SUITS
BYV = A.BY_VALUE
VALUES = CARD_VALUES


@njit(cache=True)
def _ref_start_lo(ha, hb, hc, leader, d, opts, followers):
    """The earlier ``_start_lo`` (``SURE_FOLLOWERS`` bit 1 as ``followers``, ``STRATEGY_LO`` off)."""
    hd = ha if d == 0 else (hb if d == 1 else hc)
    theirs = (ha | hb | hc) & ~hd & TRUMPS
    v = np.int64(0)
    if (hd & TRUMPS) != 0:
        v = sure_trumps(hd & TRUMPS, theirs, ONE, False, FIVE)
        if followers and leader != d:
            u = popcount(hd & TRUMPS) - kills(theirs, hd & TRUMPS, ONE)
            if u > 0:
                h1 = ha if d == 2 else (hb if d == 0 else hc)
                h2 = ha if d == 1 else (hb if d == 2 else hc)
                v += _k_sum(h1, u, False) + _k_sum(h2, u, False) - 2 * u
    if leader == d:
        f1 = (d + 1) % 3
        f2 = (d + 2) % 3
        h1 = ha if f1 == 0 else (hb if f1 == 1 else hc)
        h2 = ha if f2 == 0 else (hb if f2 == 1 else hc)
        v += cash_tops_followed(hd, h1, h2, h1 | h2, PLAIN, VALUES, (h1 & TRUMPS) == 0, (h2 & TRUMPS) == 0)
    return v * (3 if opts[A.O_COUNTING] == 1 else 1)


@njit(cache=True)
def _ref_start_hi_static(ha, hb, hc, leader, d, opts, followers):
    """The earlier ``_start_hi_static`` (``SURE_FOLLOWERS`` bit 2 as ``followers``)."""
    sc = 3 if opts[A.O_COUNTING] == 1 else 1
    hd = ha if d == 0 else (hb if d == 1 else hc)
    rem = ha | hb | hc
    total = pile_points(rem, opts)
    theirs = rem & ~hd & TRUMPS
    v = np.int64(0)
    if theirs != 0:
        v = sure_trumps(theirs, hd & TRUMPS, np.int64(2), True, FIVE)
    if leader == d:
        if followers and theirs != 0:
            u = popcount(theirs) - kills(hd & TRUMPS, theirs, np.int64(2))
            m = (u + 1) // 2
            if m > 0:
                v += _k_sum(hd, m, False) - m
        return total - v * sc
    f1 = (leader + 1) % 3
    f2 = (leader + 2) % 3
    hl = ha if leader == 0 else (hb if leader == 1 else hc)
    h1 = ha if f1 == 0 else (hb if f1 == 1 else hc)
    h2 = ha if f2 == 0 else (hb if f2 == 1 else hc)
    v += cash_tops_followed(hl, h1, h2, hd, PLAIN, VALUES, f1 == d and (h1 & TRUMPS) == 0,
                            f2 == d and (h2 & TRUMPS) == 0)
    hi = total - v * sc
    if (hd & TRUMPS) == 0:
        partner = h1 if f2 == d else h2
        r = trumpless_run(hl, partner, hd, PLAIN, TRUMPS, BYV)
        hi = min(hi, total - r * sc)
    return hi


def _hands(rng, n_max=16):
    """Three disjoint random hands of one random size (a random deal's cards in play), sometimes trump-heavy or
    trumpless for one seat, and sometimes of unequal sizes (the kernels read masks only)."""
    n = int(rng.integers(1, n_max + 1))
    cards = rng.permutation(54)
    if rng.random() < 0.3:  # k trumps in play, all dealt (the hands may run short of cards)
        k = int(rng.integers(0, 23))
        cards = rng.permutation(np.concatenate([rng.permutation(22)[:k], 22 + rng.permutation(32)])[: 3 * n])
    hands = [int(sum(1 << int(c) for c in cards[i * n:(i + 1) * n])) for i in range(3)]
    if rng.random() < 0.2:  # a trumpless seat
        s = int(rng.integers(3))
        hands[s] &= ~int(TRUMPS)
    if rng.random() < 0.2:  # unequal sizes
        s = int(rng.integers(3))
        h = hands[s]
        if h:
            hands[s] = h & (h - 1)
    return [np.int64(h) for h in hands]


def test_kills_kf_and_sure_k_match_the_greedy_scans():
    """``_kills_kf`` is ``kills`` of the targets and of their trumps worth 5; ``_sure_k`` is ``sure_trumps`` and
    ``kills``; on 20000 random disjoint trump sets, both caps, with and without pairs."""
    rng = np.random.default_rng(7)
    for _ in range(20000):
        perm = rng.permutation(22)
        a = int(rng.integers(0, 12))
        b = int(rng.integers(0, 12))
        own = np.int64(sum(1 << int(c) for c in perm[:a]))
        oth = np.int64(sum(1 << int(c) for c in perm[a:a + b]))
        for cap in (ONE, np.int64(2)):
            k, f = A._kills_kf(oth, own, cap)
            assert (k, f) == (kills(oth, own, cap), kills(oth, own & FIVE, cap))
            for pairs in (False, True):
                v, k2 = A._sure_k(own, oth, cap, pairs)
                assert (v, k2) == (sure_trumps(own, oth, cap, pairs, FIVE), k)


def test_cash_f_matches_cash_tops_followed():
    """``_cash_f`` is ``cash_tops_followed`` over the plain suits on 20000 random hands and free flags."""
    rng = np.random.default_rng(11)
    for _ in range(20000):
        h = _hands(rng)
        opp = h[1] | h[2] if rng.random() < 0.5 else h[2]
        fa, fb = bool(rng.integers(2)), bool(rng.integers(2))
        got = A._cash_f(h[0], h[1], h[2], opp, fa, fb)
        assert got == cash_tops_followed(h[0], h[1], h[2], opp, PLAIN, VALUES, fa, fb)
        assert A._excess(h[0]) == sum(int(VALUES[c]) - 1 for c in range(54) if (int(h[0]) >> c) & 1)


@pytest.mark.parametrize("options", [{}, {"counting_method": "exact_thirds"}], ids=["default", "thirds"])
def test_trick_start_bounds_match_the_earlier_formulas(options):
    """``_start_lo`` and ``_start_hi_static`` equal the earlier code on 10000 random hand triples per option set,
    every seat on lead and every declarer seat."""
    opts = tarockrl.make_game("dreierles", **options).encoded_options
    rng = np.random.default_rng(3 + len(options))
    lo_bit = bool(A.SURE_FOLLOWERS & 1)
    hi_bit = bool(A.SURE_FOLLOWERS & 2)
    assert not A.STRATEGY_LO
    for _ in range(10000):
        h = _hands(rng)
        d = int(rng.integers(3))
        for leader in range(3):
            lo = A._start_lo(h[0], h[1], h[2], leader, d, opts)
            assert lo == _ref_start_lo(h[0], h[1], h[2], leader, d, opts, lo_bit), (h, leader, d)
            hi = A._start_hi_static(h[0], h[1], h[2], leader, d, opts)
            assert hi == _ref_start_hi_static(h[0], h[1], h[2], leader, d, opts, hi_bit), (h, leader, d)


@njit(cache=True)
def _ref_run(c, legal, rem, same):
    """The legal cards in one run with ``c`` for value dominance, by definition: of its suit, neither singled out
    by a rule, in ``same`` (the cards that take the trick or stay under it as ``c`` does, at the third card), and
    every card of ``rem`` between them is such a legal card too."""
    out = np.int64(0)
    if ((A.MERGEABLE >> c) & ONE) == 0:
        return out
    ok = legal & A.MERGEABLE & same
    m = ok & A.SUIT_OF_CARD[c]
    while m != 0:
        x = A.lowest_index(m)
        m &= m - ONE
        lo, hi = min(c, x), max(c, x)
        between = rem & ((ONE << hi) - (ONE << (lo + 1))) if hi > lo else np.int64(0)
        if (between & ~ok) == 0:
            out |= ONE << x
    return out


@njit(cache=True)
def _ref_dominated(c, run, sure):
    """``c`` is dominated: ``sure`` (1: the mover's side surely takes the trick, -1: surely loses it, 0: depends)
    and a card of its run is worth more (a won trick) or less (a lost one)."""
    if not A.DOMINANCE or sure == 0:
        return False
    m = run
    while m != 0:
        x = A.lowest_index(m)
        m &= m - ONE
        if (sure > 0 and VALUES[x] > VALUES[c]) or (sure < 0 and VALUES[x] < VALUES[c]):
            return True
    return False


@njit(cache=True)
def _ref_third_m(ha, hb, hc, t0, t1, s0, p3, legal, d, lower, opts, stop):
    """The earlier ``_third_m`` (``STRATEGY_LEAVES`` 0): each child's trick-start bound computed in full, every
    legal card but those value dominance leaves out (``_ref_dominated``)."""
    led = A.SUIT_OF_CARD[t0]
    two = (ONE << t0) | (ONE << t1)
    sc = 3 if opts[A.O_COUNTING] == 1 else 1
    base = VALUES[t0] + VALUES[t1] - 2
    take_max = p3 == d
    inf = np.int64(1) << np.int64(40)
    best = -inf if take_max else inf
    takers = np.int64(0)  # the legal cards that take the trick
    m = legal
    while m != 0:
        c = A.lowest_index(m)
        m &= m - ONE
        if A.winning_card(two | (ONE << c), led, TRUMPS) == c:
            takers |= ONE << c
    m = legal
    while m != 0:
        c = A.lowest_index(m)
        m &= m - ONE
        b = ONE << c
        w = A.winning_card(two | b, led, TRUMPS)
        ws = s0 if w == t0 else ((s0 + 1) % 3 if w == t1 else p3)
        same = takers if (takers & b) != 0 else ~takers
        if _ref_dominated(c, _ref_run(c, legal, ha | hb | hc, same), 1 if (ws == d) == take_max else -1):
            continue
        g = (base + VALUES[c]) * sc if ws == d else np.int64(0)
        if lower:
            g += A._start_lo(ha & ~b, hb & ~b, hc & ~b, ws, d, opts)
        else:
            g += A._start_hi_static(ha & ~b, hb & ~b, hc & ~b, ws, d, opts)
        if take_max:
            if g > best:
                best = g
                if best >= stop:
                    return best
        elif g < best:
            best = g
            if best <= stop:
                return best
    return best


def test_third_m_matches_the_earlier_loop():
    """``_third_m`` equals ``_ref_third_m`` (the same loop over ``_start_lo``/``_start_hi_static``, which the test
    above checks against the earlier formulas) on 10000 random third-card positions, both bounds, with and
    without a stop."""
    assert A.STRATEGY_LEAVES == 0
    opts = tarockrl.make_game("dreierles").encoded_options
    rng = np.random.default_rng(5)
    inf = np.int64(1) << np.int64(40)
    for _ in range(10000):
        cards = [int(c) for c in rng.permutation(54)]
        n = int(rng.integers(1, 16))
        t0, t1 = np.int64(cards[0]), np.int64(cards[1])
        h = [np.int64(sum(1 << c for c in cards[2 + i * n:2 + (i + 1) * n])) for i in range(3)]
        s0 = int(rng.integers(3))
        p3 = (s0 + 2) % 3
        d = int(rng.integers(3))
        legal = A._legal_m(h[p3], A.SUIT_OF_CARD[t0])
        for lower in (True, False):
            for stop in (inf if p3 == d else -inf, np.int64(rng.integers(0, 60))):
                got = A._third_m(h[0], h[1], h[2], t0, t1, s0, p3, legal, d, lower, opts, stop)
                assert got == _ref_third_m(h[0], h[1], h[2], t0, t1, s0, p3, legal, d, lower, opts, stop)


@pytest.mark.parametrize("options", [{}, {"counting_method": "exact_thirds"}], ids=["default", "thirds"])
def test_pile_points_by_bit_planes(options):
    """``_pile_points`` is the game's ``pile_points`` on 20000 random masks."""
    opts = tarockrl.make_game("dreierles", **options).encoded_options
    rng = np.random.default_rng(13)
    for _ in range(20000):
        m = np.int64(sum(1 << int(c) for c in rng.permutation(54)[: int(rng.integers(0, 55))]))
        assert A._pile_points(m, opts) == pile_points(m, opts)


# ---- kspeed10: the strategy runs and ``_third_m``'s winner mask --------------------------------------------------


@njit(cache=True)
def _ref_value_sum(m):
    """The earlier ``_value_sum``: per value class."""
    s = np.int64(0)
    for v in range(1, 6):
        s += v * popcount(m & B.BY_VALUE[v])
    return s


@njit(cache=True)
def _ref_defender_run(lh, ph, dh):
    """The earlier ``defender_run`` (the last trick by a loop over the declarer's cards, the values by value class)."""
    dtop = np.int64(0)
    follow = np.int64(0)
    for g in range(5):
        sm = B.SUITS[g]
        dtop |= sm & B._above(dh & sm)
        if g > 0 and (dh & sm) != 0:
            follow |= sm
    td = popcount(dh & TRUMPS)
    led = np.int64(0)  # one card per lead of a suit he followed (counts his cards of the suit played)
    cur = lh
    oth = ph
    n = popcount(dh)
    r = np.int64(0)
    while cur != 0:
        safe = B._def_safe(dtop, td, follow)
        cand = cur & safe
        best = np.int64(9)
        bx = np.int64(-1)
        by = np.int64(-1)
        bs = np.int64(0)
        for g in range(5):
            sm = B.SUITS[g]
            cs = cand & sm
            if cs == 0:
                continue
            x = A.highest_index(cs)
            y, cls = B._partner_reply(oth, x, sm, safe)
            if cls < best:
                best = cls
                bx = x
                by = y
                bs = sm
                if cls == 0:
                    break
        if best > 2:
            for g in range(5):
                sm = B.SUITS[g]
                un = cur & sm & ~safe
                if un == 0:
                    continue
                cv = B._cover(oth, sm, dtop, td, follow)
                if cv != 0:
                    best = np.int64(3)
                    bx = B._by_value(un, True)
                    by = A.lowest_index(cv)
                    bs = sm
                    break
        if best == 9:
            break
        cur ^= ONE << bx
        oth ^= ONE << by
        r += 1
        if td > 0:  # the declarer's forced play: the led suit if he holds it, else a trump
            if bs == TRUMPS or (follow & bs) == 0:
                td -= 1
            else:
                left = popcount(dh & bs) - popcount(led & bs) - 1  # his cards of the suit after this trick
                if left == 0:
                    follow &= ~bs
                led |= ONE << bx
        if best >= 2:  # the partner took the trick: he leads the next one
            t = cur
            cur = oth
            oth = t
    k = n - r
    if k == 0:
        return np.int64(0)
    if k == 1:
        x = A.lowest_index(cur)
        y = A.lowest_index(oth)
        sm = A.SUIT_OF_CARD[x]
        best = np.int64(0)
        m = dh
        while m != 0:
            c = A.lowest_index(m)
            m &= m - ONE
            if A.winning_card((ONE << x) | (ONE << y) | (ONE << c), sm, TRUMPS) == c:
                best = max(best, VALUES[x] + VALUES[y] + VALUES[c] - 2)
        return best
    return _ref_value_sum(cur | oth) + B._k_sum(dh, k, True) - 2 * k


@njit(cache=True)
def _ref_declarer_run(dh, h1, h2):
    """The earlier ``declarer_run`` (the safe plain lead found by a loop over cards)."""
    other = h1 | h2
    ttop = TRUMPS & B._above(other & TRUMPS)
    ptop = np.int64(0)
    for g in range(1, 5):
        sm = B.SUITS[g]
        ptop |= sm & B._above(other & sm)
    t1 = popcount(h1 & TRUMPS)
    t2 = popcount(h2 & TRUMPS)
    led = np.int64(0)
    cur = dh
    r = np.int64(0)
    v = np.int64(0)
    while cur != 0:
        x = np.int64(-1)
        if t1 == 0 and t2 == 0:
            safe_t = cur & TRUMPS
        else:
            safe_t = cur & ttop
        if safe_t != 0 and (t1 > 0 or t2 > 0):
            x = A.highest_index(safe_t)
        else:
            m = cur & ptop
            while m != 0:
                c = A.lowest_index(m)
                m &= m - ONE
                sm = A.SUIT_OF_CARD[c]
                nl = popcount(led & sm)
                if (t1 == 0 or popcount(h1 & sm) > nl) and (t2 == 0 or popcount(h2 & sm) > nl):
                    x = A.highest_index(cur & ptop & sm)
                    break
            if x < 0 and safe_t != 0:
                x = A.highest_index(safe_t)
        if x < 0:
            break
        b = ONE << x
        cur ^= b
        led |= b
        if x < 22:  # a trump lead: each defender holding trumps follows with one
            if t1 > 0:
                t1 -= 1
            if t2 > 0:
                t2 -= 1
        r += 1
        v += VALUES[x]
    if r == 0:
        return np.int64(0)
    return v + B._k_sum(h1, r, False) + B._k_sum(h2, r, False) - 2 * r


def test_strategy_runs_match_the_earlier_loops():
    """``defender_run`` (last trick by a beat mask, ``_value_sum`` by bit planes; hands of equal sizes, as its
    callers pass them) and ``declarer_run`` (the safe plain lead found per suit; equal and unequal sizes) equal
    the earlier loops on 30000 random hand triples, four seatings each; ``_value_sum`` equals the per-class sum."""
    rng = np.random.default_rng(17)
    for i in range(30000):
        h = _hands(rng)
        if i % 2 == 0:  # equal sizes
            n = min(popcount(x) for x in h)
            h = [np.int64(_low(int(x), n)) for x in h]
        for a, b, c in ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1)):
            if i % 2 == 0:  # the last trick reads one card of each defender: equal sizes only
                assert B.defender_run(h[a], h[b], h[c]) == _ref_defender_run(h[a], h[b], h[c]), (h, a, b, c)
            assert B.declarer_run(h[a], h[b], h[c]) == _ref_declarer_run(h[a], h[b], h[c]), (h, a, b, c)
        assert B._value_sum(h[0] | h[1]) == _ref_value_sum(h[0] | h[1])


def _low(x, n):
    """The ``n`` lowest cards of the mask ``x``."""
    out = 0
    while n > 0 and x:
        b = x & -x
        out |= b
        x ^= b
        n -= 1
    return out


# ---- kern11: the look-ahead skips cards equivalent to the previous one ------------------------------------------


@njit(cache=True)
def _ref_second_win(row, opts, lower, alpha, beta):
    """The earlier ``_second_win`` verbatim, over ``_ref_third_m`` (every legal third card's bound): every legal
    second card tried but those value dominance leaves out (the trick's outcome found over every third card)."""
    d = row[A.L.DECLARER]
    p2 = row[A.L.CUR]
    p3 = (p2 + 1) % 3
    t0 = row[A.L.TRICK_CARD]
    led = A.SUIT_OF_CARD[t0]
    ha = row[A.L.HAND]
    hb = row[A.L.HAND + 1]
    hc = row[A.L.HAND + 2]
    h3 = ha if p3 == 0 else (hb if p3 == 1 else hc)
    l3 = A._legal_m(h3, led)
    take_max = p2 == d
    inf = np.int64(1) << np.int64(40)
    best = -inf if take_max else inf
    l2 = A._legal_m(row[A.L.HAND + p2], led)
    rem = ha | hb | hc | (ONE << t0)
    m = l2
    while m != 0:
        c = A.lowest_index(m)
        m &= m - ONE
        b = ONE << c
        wins = 0
        loses = 0
        x3 = l3
        while x3 != 0:
            x = A.lowest_index(x3)
            x3 &= x3 - ONE
            w = A.winning_card((ONE << t0) | b | (ONE << x), led, TRUMPS)
            owner = row[A.L.LEADER] if w == t0 else (p2 if w == c else p3)
            if (owner == d) == (p2 == d):
                wins += 1
            else:
                loses += 1
        sure = 1 if loses == 0 and wins > 0 else (-1 if wins == 0 and loses > 0 else 0)
        if _ref_dominated(c, _ref_run(c, l2, rem, np.int64(-1)), sure):
            continue
        if take_max:
            stop = max(best, alpha)
        elif p3 == d:
            stop = min(best, beta)
        else:
            stop = alpha
        g = _ref_third_m(ha & ~b, hb & ~b, hc & ~b, t0, c, row[A.L.LEADER], p3, l3, d, lower, opts, stop)
        if take_max:
            if g > best:
                best = g
                if best >= beta:
                    return best
        elif g < best:
            best = g
            if best <= alpha:
                return best
    return best


def _follow_heavy(rng, k, n):
    """``k`` cards (a trick's cards first) and three hands of ``n`` each, drawn so that the seats often hold runs
    of a suit (the cases where equivalent cards occur): the cards are taken suit by suit in random blocks."""
    order = [int(c) for c in rng.permutation(54)]
    if rng.random() < 0.6:  # block-shuffle: runs of adjacent cards go to one seat
        cuts = [0]
        while cuts[-1] < 54:
            cuts.append(min(54, cuts[-1] + int(rng.integers(2, 6))))
        blocks = [list(range(a, b)) for a, b in zip(cuts, cuts[1:])]
        rng.shuffle(blocks)
        order = [c for blk in blocks for c in blk]
    return order[:k], [np.int64(sum(1 << c for c in order[k + i * n:k + (i + 1) * n])) for i in range(3)]


def test_third_m_and_second_win_skip_only_equivalent_cards():
    """``_third_m`` and ``_second_win`` (which skip a legal card equivalent to the previous one, ``_same_class``)
    equal the earlier loops over every legal card on 20000 random positions each, both bounds, both counting
    methods, with and without a stop (``_third_m``) or window (``_second_win``); the positions often give the seats
    runs of adjacent cards, where the skipping happens."""
    assert A.STRATEGY_LEAVES == 0 and A.SKIP_EQUIVALENT
    inf = np.int64(1) << np.int64(40)
    row = np.zeros(A.L.STATE_LEN, np.int64)
    skipped = 0
    for options in ({}, {"counting_method": "exact_thirds"}):
        opts = tarockrl.make_game("dreierles", **options).encoded_options
        rng = np.random.default_rng(23 + len(options))
        for _ in range(10000):
            n = int(rng.integers(1, 16))
            (t0, t1), h = _follow_heavy(rng, 2, n)
            t0, t1 = np.int64(t0), np.int64(t1)
            s0 = int(rng.integers(3))
            p3 = (s0 + 2) % 3
            d = int(rng.integers(3))
            legal = A._legal_m(h[p3], A.SUIT_OF_CARD[t0])
            for lower in (True, False):
                for stop in (inf if p3 == d else -inf, np.int64(rng.integers(0, 60))):
                    got = A._third_m(h[0], h[1], h[2], t0, t1, s0, p3, legal, d, lower, opts, stop)
                    ref = _ref_third_m(h[0], h[1], h[2], t0, t1, s0, p3, legal, d, lower, opts, stop)
                    assert got == ref, (h, t0, t1, s0, d, lower, stop)
            # a second-card position: the leader's card t0 played, seat p2 to move
            (t0,), h = _follow_heavy(rng, 1, n)
            s0 = int(rng.integers(3))
            p2 = (s0 + 1) % 3
            h[s0] &= h[s0] - 1  # the leader has played one card more
            row[:] = 0
            for s in range(3):
                row[A.L.HAND + s] = h[s]
            row[A.L.TRICK_CARD] = t0
            row[A.L.TRICK_N] = 1
            row[A.L.LEADER] = s0
            row[A.L.CUR] = p2
            row[A.L.DECLARER] = int(rng.integers(3))
            cs = [c for c in range(54) if (int(A._legal_m(h[p2], A.SUIT_OF_CARD[t0])) >> c) & 1]
            rem = h[0] | h[1] | h[2] | (ONE << np.int64(t0))
            skipped += sum(1 for p, c in zip(cs, cs[1:]) if A._same_class(np.int64(p), np.int64(c), rem))
            for lower in (True, False):
                t = np.int64(rng.integers(0, 60))
                for a, b in ((-inf, inf), (t - 1, t), (t, t + 1)):
                    got = A._second_win(row, opts, lower, a, b)
                    assert got == _ref_second_win(row, opts, lower, a, b), (h, t0, s0, lower, a, b)
    assert skipped > 1000  # the skipping is exercised
