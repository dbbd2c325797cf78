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
   ordered by the table's move, then a history heuristic (cutoffs per seat and action, weighted by the
   actions left);
4. the bound found is stored (exact, lower or upper, as fail-soft alpha-beta defines it).

A node budget (``ctx[C_MAX]``) aborts the search: ``ctx[C_ABORT]`` is set and the values are meaningless.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
from tarockrl.solvers.adapters.dreierles import (  # noqa: F401
    COPY_LEN,
    MAX_DEPTH,
    MAX_MOVES,
    NUM_ACTIONS,
    NUM_PLAYERS,
    apply,
    cur,
    gen,
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
C_NODES, C_MAX, C_ABORT, C_ROOT, C_OBJ, C_SALT, C_MERGE = 0, 1, 2, 3, 4, 5, 6
CTX_LEN = 8


@njit(cache=True)
def _search(stack, d, alpha, beta, opts, ctx, moves, reps, scores, tkey, tlo, thi, tmove, hist):
    row = stack[d]
    ctx[C_NODES] += 1
    if ctx[C_NODES] > ctx[C_MAX]:
        ctx[C_ABORT] = 1
        return np.int64(0)
    if is_over(row):
        return leaf(row, opts, ctx[C_ROOT], ctx[C_OBJ])
    k = key(row) ^ ctx[C_SALT]
    slot = k & (tkey.shape[0] - 1)
    ttm = np.int64(-1)
    if tkey[slot] == k:
        lo = tlo[slot]
        hi = thi[slot]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        ttm = tmove[slot]
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
            s = hist[p * NUM_ACTIONS + a]
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
        child[:COPY_LEN] = row[:COPY_LEN]
        apply(child, a, opts)
        v = _search(stack, d + 1, alpha, beta, opts, ctx, moves, reps, scores, tkey, tlo, thi, tmove, hist)
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
    # store the bound
    if tkey[slot] == k:
        lo = tlo[slot]
        hi = thi[slot]
    else:
        lo = -INF
        hi = INF
    if best <= a0:
        hi = min(hi, best)
    elif best >= b0:
        lo = max(lo, best)
    else:
        lo = best
        hi = best
    tkey[slot] = k
    tlo[slot] = lo
    thi[slot] = hi
    tmove[slot] = best_move
    return best


@njit(cache=True)
def solve_root(row, opts, ctx, merge_root, out_actions, out_values, tkey, tlo, thi, tmove, hist, stack_len):
    """Exact values of every legal action of ``row`` (the root) for the root side; returns their number.

    ``ctx`` holds the node budget, root seat, objective, salt and merge flag (see ``C_*``); each distinct
    (non-equivalent) root action is searched with a full window; an equivalent action gets its
    representative's value. On an exceeded budget ``ctx[C_ABORT]`` is 1 and nothing is meaningful.
    """
    stack = np.empty((MAX_DEPTH + 2, stack_len), dtype=np.int64)
    for d in range(MAX_DEPTH + 2):
        stack[d, :] = row
    moves = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    reps = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    scores = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    ctx[C_ROOT] = cur(row)
    root_moves = np.zeros(MAX_MOVES, dtype=np.int64)
    root_reps = np.zeros(MAX_MOVES, dtype=np.int64)
    n = gen(row, opts, root_moves, root_reps, merge_root)
    # search the representatives, the table's favourite first
    for i in range(n):
        out_actions[i] = root_moves[i]
        out_values[i] = 0
        if root_reps[i] != i:
            out_values[i] = out_values[root_reps[i]]
            continue
        child = stack[1]
        child[:COPY_LEN] = row[:COPY_LEN]
        apply(child, root_moves[i], opts)
        v = _search(stack, 1, -INF, INF, opts, ctx, moves, reps, scores, tkey, tlo, thi, tmove, hist)
        if ctx[C_ABORT] != 0:
            return n
        out_values[i] = v
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
