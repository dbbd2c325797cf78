"""The generic open-hand search in numba, compiled once per game.

The names in the bindings block are placeholders: :mod:`tarockrl.solvers._bind` writes a copy of this file per
game with the block replaced by an import of that game's adapter (:mod:`tarockrl.solvers.adapters`), so numba
caches the compiled search on disk like any module (numba cannot cache a function that receives other jitted
functions as arguments, and a function made in a factory never hits the cache).

The search is fail-soft alpha-beta over the game's own kernels, values always seen from the root side
(``side(row, seat, root) == 0`` maximises, the other side minimises). A node's row is a copy of its parent's
row (the first ``COPY_LEN`` slots; the history beyond is never read in play) with the game's ``step`` applied:
the state row is small, so a copy is as cheap as an undo. Per node:

1. terminal: the adapter's ``leaf`` value;
2. transposition table probe (``key`` salted per solve, 64-bit keys, one slot per index, always replaced):
   stored lower/upper bounds cut off or narrow the window; the stored best move is tried first;
3. move generation with equivalent-card merging (only one representative of each class is searched),
   ordered by the table's move, then the adapter's ``hint`` (a static trick-play heuristic), then a history
   heuristic (cutoffs per seat and action, weighted by the square of the actions left);
4. the bound found is stored (exact, lower or upper, as fail-soft alpha-beta defines it).

A node budget (``ctx[C_MAX]``) aborts the search: ``ctx[C_ABORT]`` is set and the values are meaningless.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
from tarockrl.solvers.adapters.dreierles import (  # noqa: F401
    COPY_LEN,
    GT_LEN,
    MAX_DEPTH,
    MAX_MOVES,
    NUM_ACTIONS,
    NUM_PLAYERS,
    additive,
    akey,
    apast,
    apply,
    cur,
    gen,
    gtable,
    hint,
    in_play,
    is_over,
    key,
    leaf,
    paranoid,
    side,
)

# ---- bindings (end) -------------------------------------------------------------------------------------------

INF = np.int64(1) << np.int64(40)
# ctx slots
C_NODES, C_MAX, C_ABORT, C_ROOT, C_OBJ, C_SALT, C_MERGE, C_GLEN, C_GDIR = 0, 1, 2, 3, 4, 5, 6, 7, 8
CTX_LEN = 10
ADD_SALT = np.int64(0x3C6EF372FE94F82B)  # keeps keys of additive positions apart from full keys


@njit(cache=True, inline="always")
def _gval(gt, glen, p):
    if p < 0:
        p = 0
    if p >= glen:
        p = glen - 1
    return gt[p]


@njit(cache=True)
def _f_to_r(flo, fhi, p0, gt, glen, gdir):
    """Bounds on the future points F of an additive position -> bounds on the root side's value."""
    if gdir > 0:
        rlo = -INF if flo <= -INF else _gval(gt, glen, p0 + flo)
        rhi = INF if fhi >= INF else _gval(gt, glen, p0 + fhi)
    else:
        rlo = -INF if fhi >= INF else _gval(gt, glen, p0 + fhi)
        rhi = INF if flo <= -INF else _gval(gt, glen, p0 + flo)
    return rlo, rhi


@njit(cache=True)
def _first(gt, glen, r, ge, gdir):
    """Binary search on the monotone table: the smallest P with gt[P] >= r (``ge``; increasing table) or
    gt[P] <= r (decreasing table); glen when none."""
    lo = 0
    hi = glen
    while lo < hi:
        mid = (lo + hi) // 2
        ok = gt[mid] >= r if ge else gt[mid] <= r
        if ok:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def _r_to_f(rlo, rhi, p0, gt, glen, gdir):
    """Bounds on the root side's value -> bounds on the future points F (the table is monotone)."""
    flo = -INF
    fhi = INF
    if gdir > 0:
        if rlo > -INF:  # value >= rlo  <=>  P >= first P with gt >= rlo
            flo = _first(gt, glen, rlo, True, gdir) - p0
        if rhi < INF:  # value <= rhi  <=>  P < first P with gt >= rhi + 1
            fhi = _first(gt, glen, rhi + 1, True, gdir) - 1 - p0
    else:
        if rhi < INF:  # value <= rhi  <=>  P >= first P with gt <= rhi
            flo = _first(gt, glen, rhi, False, gdir) - p0
        if rlo > -INF:  # value >= rlo  <=>  P < first P with gt <= rlo - 1
            fhi = _first(gt, glen, rlo - 1, False, gdir) - 1 - p0
    return flo, fhi
HINT_UNIT = np.int64(1) << np.int64(32)  # move score = adapter hint * HINT_UNIT + history (capped)


@njit(cache=True)
def _search(stack, d, alpha, beta, opts, ctx, moves, reps, scores, tt, hist, gt):
    row = stack[d]
    ctx[C_NODES] += 1
    if ctx[C_NODES] > ctx[C_MAX]:
        ctx[C_ABORT] = 1
        return np.int64(0)
    if is_over(row):
        return leaf(row, opts, ctx[C_ROOT], ctx[C_OBJ])
    glen = ctx[C_GLEN]
    gdir = ctx[C_GDIR]
    add = glen > 0 and additive(row, ctx[C_OBJ])
    p0 = np.int64(0)
    if add:
        k = akey(row) ^ ctx[C_SALT] ^ ADD_SALT
        p0 = apast(row, opts)
    else:
        k = key(row) ^ ctx[C_SALT]
    slot = k & (tt.shape[0] - 1)
    e = tt[slot]
    ttm = np.int64(-1)
    if e[0] == k:
        lo = e[1]
        hi = e[2]
        if add:
            lo, hi = _f_to_r(lo, hi, p0, gt, glen, gdir)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        ttm = e[3]
    mv = moves[d]
    rp = reps[d]
    sc = scores[d]
    n = gen(row, opts, mv, rp, ctx[C_MERGE])
    p = cur(row)
    left = MAX_DEPTH - d if d < MAX_DEPTH else 1
    # keep the representatives only, scored; insertion sort by score (descending)
    m = 0
    for i in range(n):
        if rp[i] == i:
            a = mv[i]
            s = hint(row, opts, a, ctx[C_ROOT]) * HINT_UNIT + min(hist[p * NUM_ACTIONS + a], HINT_UNIT - 1)
            if a == ttm:
                s = INF
            j = m
            while j > 0 and sc[j - 1] < s:
                mv[j] = mv[j - 1]
                sc[j] = sc[j - 1]
                j -= 1
            mv[j] = a
            sc[j] = s
            m += 1
    maximize = side(row, p, ctx[C_ROOT]) == 0
    child = stack[d + 1]
    best = -INF if maximize else INF
    best_move = mv[0]
    a0 = alpha
    b0 = beta
    for i in range(m):
        a = mv[i]
        for j in range(COPY_LEN):
            child[j] = row[j]
        apply(child, a, opts)
        v = _search(stack, d + 1, alpha, beta, opts, ctx, moves, reps, scores, tt, hist, gt)
        if ctx[C_ABORT] != 0:
            return np.int64(0)
        if maximize:
            if v > best:
                best = v
                best_move = a
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_move = a
                if v < beta:
                    beta = v
        if alpha >= beta:
            hist[p * NUM_ACTIONS + a] += left * left
            break
    # store the bound (as bounds on the future points at an additive position)
    nlo = -INF
    nhi = INF
    if best <= a0:
        nhi = best
    elif best >= b0:
        nlo = best
    else:
        nlo = best
        nhi = best
    if add:
        nlo, nhi = _r_to_f(nlo, nhi, p0, gt, glen, gdir)
    if e[0] == k:
        lo = max(e[1], nlo)
        hi = min(e[2], nhi)
    else:
        lo = nlo
        hi = nhi
    e[0] = k
    e[1] = lo
    e[2] = hi
    e[3] = best_move
    return best


@njit(cache=True)
def solve_root(row, opts, ctx, merge_root, out_actions, out_values, tt, hist, stack_len):
    """Exact values of every legal action of ``row`` (the root) for the root side; returns their number.

    ``ctx`` holds the node budget, root seat, objective, salt and merge flag (see ``C_*``); each distinct
    (non-equivalent) root action is solved exactly by MTD(f) (zero-window searches from a guess, the previous
    action's value, until the lower and upper bound meet); an equivalent action gets its representative's
    value. On an exceeded budget ``ctx[C_ABORT]`` is 1 and nothing is meaningful.
    """
    stack = np.empty((MAX_DEPTH + 2, stack_len), dtype=np.int64)
    for d in range(MAX_DEPTH + 2):
        stack[d, :] = row
    moves = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    reps = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    scores = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    ctx[C_ROOT] = cur(row)
    gt = np.zeros(max(GT_LEN, 1), dtype=np.int64)
    glen = gtable(row, opts, ctx[C_ROOT], ctx[C_OBJ], gt)
    gdir = np.int64(0)
    if glen > 0:
        inc = True
        dec = True
        for p in range(1, glen):
            if gt[p] < gt[p - 1]:
                inc = False
            if gt[p] > gt[p - 1]:
                dec = False
        if inc:
            gdir = np.int64(1)
        elif dec:
            gdir = np.int64(-1)
        else:
            glen = np.int64(0)  # not monotone: use full keys everywhere
    ctx[C_GLEN] = glen
    ctx[C_GDIR] = gdir
    root_moves = np.zeros(MAX_MOVES, dtype=np.int64)
    root_reps = np.zeros(MAX_MOVES, dtype=np.int64)
    n = gen(row, opts, root_moves, root_reps, merge_root)
    guess = np.int64(0)
    # search the representatives, the table's favourite first
    for i in range(n):
        out_actions[i] = root_moves[i]
        out_values[i] = 0
        if root_reps[i] != i:
            out_values[i] = out_values[root_reps[i]]
            continue
        child = stack[1]
        for j in range(COPY_LEN):
            child[j] = row[j]
        apply(child, root_moves[i], opts)
        # MTD(f): zero-window searches from a guess (the previous action's value) until the bounds meet
        lo = -INF
        hi = INF
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = _search(stack, 1, beta - 1, beta, opts, ctx, moves, reps, scores, tt, hist, gt)
            if ctx[C_ABORT] != 0:
                return n
            if g < beta:
                hi = g
            else:
                lo = g
        out_values[i] = g
        guess = g
    return n


@njit(cache=True)
def minimax_plain(row, opts, root, objective):
    """Plain minimax (no pruning, no table, no merging) of ``row`` for ``root``'s side: a cross-check."""
    if is_over(row):
        return leaf(row, opts, root, objective)
    mv = np.zeros(MAX_MOVES, dtype=np.int64)
    rp = np.zeros(MAX_MOVES, dtype=np.int64)
    n = gen(row, opts, mv, rp, 0)
    maximize = side(row, cur(row), root) == 0
    best = -INF if maximize else INF
    child = row.copy()
    for i in range(n):
        child[:] = row
        apply(child, mv[i], opts)
        v = minimax_plain(child, opts, root, objective)
        if maximize:
            best = max(best, v)
        else:
            best = min(best, v)
    return best
