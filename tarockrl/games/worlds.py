"""Exact uniform sampling of hidden cards: the generic counting core shared by every game's ``resample`` module.

A game's sampler reduces what a seat knows to a *placement problem*: a list of hidden cards, a list of hidden
locations with capacities (another seat's hand, face-down discards, an unseen talon, a stock, ...) and, for every
card, the set of locations it may lie in (a bit mask over the locations). Every constraint the games need (voids,
forbidden discards, cards that must be in one place, cards that may lie only in a seat's hand or its discards)
is of this per-card form. The worlds are the assignments of cards to locations that fill every location exactly.

The sampler here is exact and constructive (no rejection):

1. cards with the same allowed set form a *type*; a world is determined up to the order inside each type by the
   matrix ``n[type, location]`` of counts, and the number of worlds with a given matrix is the product over types
   of the multinomials ``size! / prod(n!)``;
2. a dynamic programme over the types counts the completions ``f[t][remaining capacities]`` (float64: the counts
   stay below 1e45 for every game, far inside its range, and carry a relative error near 1e-15, so the sampled
   frequencies are uniform to that accuracy);
3. a world is drawn by choosing each type's row of counts in proportion to ``multinomial * f[t+1][...]``, then
   spreading the type's cards over its locations by a uniform shuffle.

Every assignment is then equally likely. Both steps walk only the splits that can be completed: a type must put
at least ``remaining capacity - cards of the later types allowed there`` cards into each location (fewer leaves
a capacity nothing can fill, a term that is exactly zero), and a remaining-capacity state that the cards left
cannot fill is skipped; the terms left out are zeros, so counts and draws are those of the full walk.
:func:`plan` does steps 1-2 once per position; :func:`draw` does step 3
once per world (a few microseconds). The game modules turn an assignment back into a whole game that could have
happened (a deal plus a history replayed by the rule kernels).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.rng import GOLDEN, mix64

MAX_LOCATIONS = 6
MAX_CARDS = 80

_FACT = np.ones(MAX_CARDS + 1, dtype=np.float64)
for _i in range(1, MAX_CARDS + 1):
    _FACT[_i] = _FACT[_i - 1] * _i
FACTORIALS = _FACT
"""``FACTORIALS[k] = k!`` as float64 (exact to about 1e-16 relative for every k <= 80)."""


@njit(cache=True)
def rand_below(rs, n):
    """Advance the generator held in ``rs[0]`` (SplitMix64); return an integer uniform in ``[0, n)``, n < 2**31.

    The generator lives in a one-element array rather than a returned tuple (a tuple threaded through loops of
    these kernels was miscompiled by the numba version in use).
    """
    rs[0] = rs[0] + GOLDEN
    z = mix64(rs[0])
    return (((z >> 33) & 0x7FFFFFFF) * n) >> 31


@njit(cache=True)
def rand_unit(rs):
    """Advance the generator held in ``rs[0]``; return a float uniform in [0, 1) on 53 bits."""
    rs[0] = rs[0] + GOLDEN
    z = mix64(rs[0])
    return ((z >> 11) & 0x1FFFFFFFFFFFFF) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def weighted_index(rs, weights, n, total):
    """Advance the generator in ``rs[0]``; return ``i`` with probability ``weights[i] / total`` (``total`` the sum of
    ``weights[:n]``, every weight >= 0): a world's group in samplers that mix several placement problems."""
    target = rand_unit(rs) * total
    acc = 0.0
    pick = 0
    for i in range(n):
        if weights[i] > 0.0:
            pick = i
            acc += weights[i]
            if acc > target:
                break
    return pick


@njit(cache=True)
def _first(allow_mask, lb, L, n):
    """Reset ``n`` to the first distribution of the odometer (every location at its lower bound ``lb``)."""
    for j in range(L):
        n[j] = lb[j] if (allow_mask >> j) & 1 else 0


@njit(cache=True)
def _next_dist(s, amask, rem, lb, L, n):
    """Advance ``n`` (counts per location, allowed by ``amask``, between ``lb`` and ``rem``) to the next partial
    choice.

    The odometer runs over every allowed location but the last allowed one, which takes the rest; returns False
    when exhausted. The caller checks the rest fits. The order is that of the odometer without lower bounds with
    the choices below a bound left out.
    """
    last = -1
    for j in range(L):
        if (amask >> j) & 1:
            last = j
    j = 0
    while j < last:
        if (amask >> j) & 1:
            tot = 0
            for q in range(L):
                if q != last:
                    tot += n[q]
            if n[j] < rem[j] and tot < s:
                n[j] += 1
                return True
            n[j] = lb[j]
        j += 1
    return False


@njit(cache=True)
def _rest_ok(s, amask, rem, lb, L, n):
    """Complete ``n`` by giving the rest of the ``s`` cards to the last allowed location; True when it fits."""
    last = -1
    for j in range(L):
        if (amask >> j) & 1:
            last = j
    if last < 0:
        return s == 0
    tot = 0
    for q in range(L):
        if q != last:
            tot += n[q]
    r = s - tot
    if r < lb[last] or r > rem[last]:
        return False
    n[last] = r
    return True


@njit(cache=True)
def _lower_bounds(rem, avail_after, L, lb):
    """``lb[j]``: the fewest cards of the current type location ``j`` must take, because the later types can put
    at most ``avail_after[j]`` cards there (a split below it leaves a capacity nothing can fill: zero worlds)."""
    for j in range(L):
        lb[j] = max(0, rem[j] - avail_after[j])


@njit(cache=True)
def _avail(T, tallow, tsize, L):
    """``avail[t, j]``: the number of cards of types ``t..T-1`` allowed in location ``j``."""
    avail = np.zeros((T + 1, L + 1), dtype=np.int64)
    for t in range(T - 1, -1, -1):
        for j in range(L):
            avail[t, j] = avail[t + 1, j] + (tsize[t] if (tallow[t] >> j) & 1 else 0)
    return avail


@njit(cache=True)
def plan(ncard, allow, caps, L):
    """Group the cards into types and count the completions.

    ``allow[k]`` is the location mask of card ``k`` (``k < ncard``), ``caps[:L]`` the capacities. Returns
    ``(T, tallow, tsize, order, tstart, strides, table)``: the types, their members (``order[tstart[t]:tstart[t+1]]``
    are card positions), the mixed-radix strides of the remaining-capacity index and ``table[t, idx]``, the number
    of ways to fill the remaining capacities ``idx`` with types ``t..T-1``. ``table[0, full]`` is the number of
    worlds (0 when the information is contradictory).
    """
    tallow = np.zeros(ncard + 1, dtype=np.int64)
    tsize = np.zeros(ncard + 1, dtype=np.int64)
    T = 0
    type_of = np.zeros(ncard + 1, dtype=np.int64)
    for k in range(ncard):
        a = allow[k]
        t = -1
        for u in range(T):
            if tallow[u] == a:
                t = u
                break
        if t < 0:
            t = T
            tallow[T] = a
            T += 1
        tsize[t] += 1
        type_of[k] = t
    tstart = np.zeros(T + 1, dtype=np.int64)
    for t in range(T):
        tstart[t + 1] = tstart[t] + tsize[t]
    fill = tstart.copy()
    order = np.zeros(ncard + 1, dtype=np.int64)
    for k in range(ncard):
        t = type_of[k]
        order[fill[t]] = k
        fill[t] += 1
    strides = np.zeros(L + 1, dtype=np.int64)
    strides[0] = 1
    for j in range(L):
        strides[j + 1] = strides[j] * (caps[j] + 1)
    S = strides[L]
    table = np.zeros((T + 1, S), dtype=np.float64)
    table[T, 0] = 1.0
    suffix = 0
    rem = np.zeros(L + 1, dtype=np.int64)
    n = np.zeros(L + 1, dtype=np.int64)
    lb = np.zeros(L + 1, dtype=np.int64)
    avail = _avail(T, tallow, tsize, L)
    for t in range(T - 1, -1, -1):
        s = tsize[t]
        a = tallow[t]
        suffix += s
        for idx in range(S):
            x = idx
            tot = 0
            fits = True
            for j in range(L):
                rem[j] = x % (caps[j] + 1)
                x //= caps[j] + 1
                tot += rem[j]
                if rem[j] > avail[t, j]:  # the cards left cannot fill location j: no completion
                    fits = False
            if tot != suffix or not fits:
                continue
            acc = 0.0
            _lower_bounds(rem, avail[t + 1], L, lb)
            _first(a, lb, L, n)
            while True:
                if _rest_ok(s, a, rem, lb, L, n):
                    sub = idx
                    w = FACTORIALS[s]
                    for j in range(L):
                        sub -= n[j] * strides[j]
                        w /= FACTORIALS[n[j]]
                    acc += w * table[t + 1, sub]
                if not _next_dist(s, a, rem, lb, L, n):
                    break
            table[t, idx] = acc
    return T, tallow, tsize, order, tstart, strides, table


@njit(cache=True)
def draw(T, tallow, tsize, order, tstart, strides, table, caps, L, rs, loc_of, perm):
    """Draw one uniformly random world of a :func:`plan`: ``loc_of[k]`` gets the location of card ``k``.

    ``perm`` is an int64 scratch of at least ``ncard + 3 * (L + 1)`` entries; ``rs[0]`` is the generator state
    (advanced). The plan must have
    at least one world (``table[0, full] > 0``).
    """
    m = perm.shape[0] - 3 * (L + 1)
    rem = perm[m : m + L + 1]
    n = perm[m + L + 1 : m + 2 * (L + 1)]
    best = perm[m + 2 * (L + 1) : m + 3 * (L + 1)]
    lb = np.zeros(L + 1, dtype=np.int64)
    avail = np.zeros(L + 1, dtype=np.int64)  # cards of the types after the current one allowed per location
    for t in range(T):
        for j in range(L):
            if (tallow[t] >> j) & 1:
                avail[j] += tsize[t]
    idx = 0
    for j in range(L):
        rem[j] = caps[j]
        idx += caps[j] * strides[j]
    for t in range(T):
        s = tsize[t]
        a = tallow[t]
        u = rand_unit(rs)
        target = u * table[t, idx]
        acc = 0.0
        for j in range(L):
            if (a >> j) & 1:
                avail[j] -= s
        _lower_bounds(rem, avail, L, lb)
        _first(a, lb, L, n)
        found = False
        while True:
            if _rest_ok(s, a, rem, lb, L, n):
                sub = idx
                w = FACTORIALS[s]
                for j in range(L):
                    sub -= n[j] * strides[j]
                    w /= FACTORIALS[n[j]]
                v = w * table[t + 1, sub]
                if v > 0.0:
                    for j in range(L):
                        best[j] = n[j]
                    acc += v
                    if acc > target:
                        found = True
                if found:
                    break
            if not _next_dist(s, a, rem, lb, L, n):
                break
        # ``best`` holds the chosen row (the last positive one if rounding left ``acc`` at or below ``target``)
        lo = tstart[t]
        for i in range(s):
            perm[i] = order[lo + i]
        for i in range(s - 1, 0, -1):
            r = rand_below(rs, i + 1)
            tmp = perm[i]
            perm[i] = perm[r]
            perm[r] = tmp
        pos = 0
        for j in range(L):
            for q in range(best[j]):
                loc_of[perm[pos + q]] = j
            pos += best[j]
            rem[j] -= best[j]
            idx -= best[j] * strides[j]


@njit(cache=True)
def total_worlds(table, caps, strides, L):
    """The number of worlds of a :func:`plan` (``table[0, full]``, ``full`` the index of the capacities ``caps``)."""
    full = 0
    for j in range(L):
        full += caps[j] * strides[j]
    return table[0, full]


def count_worlds_python(allow: list[int], caps: list[int]) -> int:
    """The exact number of worlds of a placement problem, by brute force over cards (for tests on small cases)."""
    from functools import cache

    allow_t = tuple(allow)

    @cache
    def go(k: int, rem: tuple[int, ...]) -> int:
        if k == len(allow_t):
            return int(all(r == 0 for r in rem))
        total = 0
        for j, r in enumerate(rem):
            if r > 0 and (allow_t[k] >> j) & 1:
                total += go(k + 1, rem[:j] + (r - 1,) + rem[j + 1 :])
        return total

    return go(0, tuple(caps))
