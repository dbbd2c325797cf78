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
def _ref_third_m(ha, hb, hc, t0, t1, s0, p3, legal, d, lower, opts, stop):
    """The earlier ``_third_m`` (``STRATEGY_LEAVES`` 0): each child's trick-start bound computed in full."""
    led = A.SUIT_OF_CARD[t0]
    two = (ONE << t0) | (ONE << t1)
    sc = 3 if opts[A.O_COUNTING] == 1 else 1
    base = VALUES[t0] + VALUES[t1] - 2
    take_max = p3 == d
    inf = np.int64(1) << np.int64(40)
    best = -inf if take_max else inf
    m = legal
    while m != 0:
        c = A.lowest_index(m)
        m &= m - ONE
        b = ONE << c
        w = A.winning_card(two | b, led, TRUMPS)
        ws = s0 if w == t0 else ((s0 + 1) % 3 if w == t1 else p3)
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
