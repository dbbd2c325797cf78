"""The generic open-hand search in numba, compiled once per game.

The names in the bindings block are placeholders: :mod:`tarockrl.solvers._bind` writes a copy of this file per
game with the block replaced by an import of that game's adapter (:mod:`tarockrl.solvers.adapters`), so numba
caches the compiled search on disk like any module (numba cannot cache a function that receives other jitted
functions as arguments, and a function made in a factory never hits the cache).

The search is fail-soft alpha-beta over the game's own kernels, values always seen from the root side
(``side(row, seat, root) == 0`` maximises, the other side minimises). A node's row is a copy of its parent's
row (the adapter's ``copy_row``: by default the first ``COPY_LEN`` slots, the history beyond is never read in
play; an adapter may copy only the slots the play changes) with the adapter's ``apply`` (the game's step):
the state row is small, so a copy is as cheap as an undo. Per node:

1. terminal: the adapter's ``leaf`` value; when every play left is forced (the adapter's optional
   ``forced_rest``, e.g. the last trick) the rest is played out and counts as one node;
2. transposition table probe (``key`` salted per solve, 64-bit keys, two-slot buckets: the entry with the bigger
   subtree of the current solve keeps the even slot, the odd slot is always replaced; entries of earlier solves
   count as empty), except at positions the adapter's optional ``tt_skip`` keeps out of the table:
   stored lower/upper bounds cut off or narrow the window; the stored best move is tried first. Threshold
   entries (positions with a monotone past, zero windows) are keyed by the position alone and hold two facts,
   "for every past at least ``lo`` the value is at least ``vlo``" and "for every past at most ``hi`` it is at most
   ``vhi``", usable by the zero-window searches of every threshold;
3. move generation with equivalent-card merging (only one representative of each class is searched),
   ordered by the table's move, then the adapter's ``hint`` (a static trick-play heuristic), then a history
   heuristic (cutoffs per seat and action, weighted by the square of the actions left; one table per value of
   the adapter's optional ``hist_slot``, e.g. the position in the trick); with the adapter's optional
   ``MEMO_BITS``/``memo_key`` a node without a table move tries first the move that last cut at a node of the
   same memo key (a refutation memo, e.g. per trick start and hand of the mover); with ``MEMO_LEARN`` only at
   the nodes of a side (and depth bucket) whose memo moves cut often enough in the current zero-window probe;
4. the bound found is stored (exact, lower or upper, as fail-soft alpha-beta defines it).

Adapters may add exact claims at threshold nodes after a table miss: ``sweep`` (the exact value) and, with
``BONUS_BITS``, ``bonus_amounts``/``bonus_claim``/``claim_points`` (a bonus decided later whose outcome one side
can make sure of: the table at the declarer's least or most points in every play, plus that outcome, bounds the
value; its own table lives in ``hist`` after the memo, its keys salted per solve). With ``PRESEARCH``, at the
threshold nodes the adapter's ``pre_at`` selects, the same position is first searched for the points alone (the
objective ``OBJ_NO_BONUS``: every node below is additive, a finished deal worth the monotone table at its final
points). That value bounds the real one within the bonus range, so where the range's end on the side of its result
is 0 it settles the node; else the node is searched as usual. Per probe the pre-searches run only while enough of
them settle their node (``_pre_learned``).

A node budget (``ctx[C_MAX]``) aborts the search: ``ctx[C_ABORT]`` is set and the values are meaningless.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import prefetch_read
from tarockrl.solvers._bits import unmanaged
from tarockrl.solvers._common import (  # noqa: F401
    BONUS_DENIED,
    BONUS_SCORED,
    BW_CUT,
    BW_NO_TTMOVE,
    BW_ROOT_ALL,
    BW_TT_DIR,
    OBJ_NO_BONUS,
    budget_word,
)

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
from tarockrl.solvers._common import NO_BAND_FIRST as BAND_FIRST  # noqa: F401
from tarockrl.solvers._common import NO_BONUS_BITS as BONUS_BITS  # noqa: F401
from tarockrl.solvers._common import NO_BOUND_NEED as BOUND_NEED  # noqa: F401
from tarockrl.solvers._common import NO_BUDGET_ROUNDS as BUDGET_ROUNDS  # noqa: F401
from tarockrl.solvers._common import NO_HINT_CTX as HINT_CTX  # noqa: F401
from tarockrl.solvers._common import NO_HIST_BAND_SHIFT as HIST_BAND_SHIFT  # noqa: F401
from tarockrl.solvers._common import NO_HIST_MALUS as HIST_MALUS  # noqa: F401
from tarockrl.solvers._common import NO_MEMO_BITS as MEMO_BITS  # noqa: F401
from tarockrl.solvers._common import NO_MEMO_LEARN as MEMO_LEARN  # noqa: F401
from tarockrl.solvers._common import NO_ORDER_LEARN as ORDER_LEARN  # noqa: F401
from tarockrl.solvers._common import NO_PAYOFF_SIM as PAYOFF_SIM  # noqa: F401
from tarockrl.solvers._common import NO_PLAYOUT_GUESS as PLAYOUT_GUESS  # noqa: F401
from tarockrl.solvers._common import NO_PRESEARCH as PRESEARCH  # noqa: F401
from tarockrl.solvers._common import NO_SWEEP as SWEEP  # noqa: F401
from tarockrl.solvers._common import no_alt_class as alt_class  # noqa: F401
from tarockrl.solvers._common import no_bonus_amounts as bonus_amounts  # noqa: F401
from tarockrl.solvers._common import no_bonus_claim as bonus_claim  # noqa: F401
from tarockrl.solvers._common import no_bound_need as afmax_need  # noqa: F401
from tarockrl.solvers._common import no_bound_need as afmin_need  # noqa: F401
from tarockrl.solvers._common import no_budget_at as budget_at  # noqa: F401
from tarockrl.solvers._common import no_claim_points as claim_points  # noqa: F401
from tarockrl.solvers._common import no_hint_alt as hint_alt  # noqa: F401
from tarockrl.solvers._common import no_hint_at as hint_at  # noqa: F401
from tarockrl.solvers._common import no_hint_ctx as hint_ctx  # noqa: F401
from tarockrl.solvers._common import no_hist_slot as hist_slot  # noqa: F401
from tarockrl.solvers._common import no_memo_key as memo_key  # noqa: F401
from tarockrl.solvers._common import no_pdelta as pdelta  # noqa: F401
from tarockrl.solvers._common import no_pre_at as pre_at  # noqa: F401
from tarockrl.solvers._common import no_pvec as pvec  # noqa: F401
from tarockrl.solvers._common import no_root_levels as root_levels  # noqa: F401
from tarockrl.solvers._common import no_skey as skey  # noqa: F401
from tarockrl.solvers._common import no_sweep as sweep  # noqa: F401
from tarockrl.solvers.adapters.dreierles import (  # noqa: F401
    COPY_LEN,
    GT_LEN,
    MAX_DEPTH,
    MAX_MOVES,
    NUM_ACTIONS,
    NUM_PLAYERS,
    additive,
    afmax,
    afmin,
    akey,
    apast,
    apply,
    bonus_range,
    copy_row,
    cur,
    forced_rest,
    gen,
    gtable,
    hint,
    in_play,
    is_over,
    key,
    leaf,
    monotone_past,
    paranoid,
    side,
    tt_skip,
)

# ---- bindings (end) -------------------------------------------------------------------------------------------

INF = np.int64(1) << np.int64(40)
# ctx slots
(C_NODES, C_MAX, C_ABORT, C_ROOT, C_OBJ, C_SALT, C_MERGE, C_GLEN, C_GDIR, C_PLAIN, C_NOTT, C_PROBES,
 C_STATS, C_VONLY, C_BMOVE, C_MSALT) = range(16)
C_BUDGET = 16  # the budgeted rounds' parameters (``budget_word``; 0: the adapter's ``BUDGET_ROUNDS``, -1: off)
# with ``MEMO_LEARN``: per depth bucket (``MEMO_BUCKETS`` of ``NUM_PLAYERS`` plies below the search's root) and side
# (0: the root's), the memo moves that cut first (at C_MCOUNT + 4 * bucket + side) and those that did not (+ 2)
C_MCOUNT = 17
MEMO_BUCKETS = 12
# with ``ORDER_LEARN``: per class of node (the adapter's ``alt_class``, below ``ALT_CLASSES``) the cut nodes whose
# cutting move is the first move of the adapter's alternative ordering ``hint_alt`` (at C_OCOUNT + 2 * class) and
# those whose cutting move is the first of the default ``hint_at`` (+ 1), where the two differ
C_OCOUNT = C_MCOUNT + (4 * MEMO_BUCKETS if MEMO_LEARN > 0 else 0)
ALT_CLASSES = 64
# ``PRESEARCH``: per zero-window probe, the pre-searches run, those that settled their node, and the nodes where
# one was not run
C_PTRY = C_OCOUNT + (2 * ALT_CLASSES if ORDER_LEARN > 0 else 0)
C_PCUT = C_PTRY + 1
C_PSKIP = C_PTRY + 2
CTX_LEN = C_PTRY + (3 if PRESEARCH else 0)
# C_VONLY: the root's value and one best action only (no exact value of the other root actions);
# C_BMOVE: set by ``_mtdf`` at the root, the best move of its last fail-high search (-1: none known);
# C_MSALT: the salt of the refutation memo's keys (``MEMO_BITS``; ``Solver`` sets it per solve)
# search statistics per depth (``ctx[C_STATS]`` set; ``st`` is int64[MAX_DEPTH + 2, ST_LEN]): nodes entered, cut by
# the static bounds, table probes, probes that found the key, cut by the table entry, nodes expanded (moves
# generated), expanded nodes with a cutoff, cutoffs on the first move, children searched, threshold-entry nodes,
# additive nodes, expanded nodes with a table move, probes that found the entry of a similar position
# (``PAYOFF_SIM``: the same structure, other counting values), the bonus game's nodes, and with ``PRESEARCH`` the
# pre-searches run, those that settled their node, and the nodes of all of them
(S_NODES, S_STATIC, S_PROBE, S_HIT, S_TTCUT, S_EXP, S_CUT, S_CUT1, S_MOVES, S_SEMI, S_ADD, S_TTMOVE,
 S_SIM, S_BONUS, S_PRE, S_PRECUT, S_PRENODES) = range(17)
ST_LEN = 17
ADD_SALT = np.int64(0x3C6EF372FE94F82B)  # keeps keys of additive positions apart from full keys
SEMI_SALT = np.int64(0x1B873593)  # keeps keys of threshold entries (positions with a monotone past) apart


@njit(cache=True, inline="always")
def _gval(gt, glen, p):
    if p < 0:
        p = 0
    if p >= glen:
        p = glen - 1
    return gt[p]


@njit(cache=True)
def _bonus_bounds(bq, glo, ghi, alpha, beta):
    """For a bonus that moves the root side's value by ``bq`` when scored, with the value ``glo``..``ghi`` without
    it: ``(scored bound, it cuts, denied bound, it cuts)``. Scored, the value moves by the bonus; denied, the bonus
    cannot move it its way (a lower bound when it is against the root side, an upper one when for it)."""
    if bq > 0:
        return glo + bq, glo + bq >= beta, ghi, ghi <= alpha
    return ghi + bq, ghi + bq <= alpha, glo, glo >= beta


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


@njit(cache=True, inline="always")
def _f_shift(flo, fhi, dlo, dhi):
    """``PAYOFF_SIM``: bounds on the rest's points of a similar position -> bounds here, where the rest's points
    differ from its by ``dlo`` to ``dhi`` over the same play (the infinite ends stay infinite)."""
    if flo > -INF:
        flo += dlo
    if fhi < INF:
        fhi += dhi
    return flo, fhi


@njit(cache=True, inline="always")
def _semi_shift(lo, hi, dlo, dhi, gdir):
    """``PAYOFF_SIM``: a threshold entry's signed pasts (reach the value from ``lo`` up, miss it up to ``hi``) of a
    similar position -> the pasts that are sure to do the same here (``INF``/``-INF``: no fact, kept)."""
    if lo < INF:
        lo -= dlo if gdir > 0 else -dhi
    if hi > -INF:
        hi -= dhi if gdir > 0 else -dlo
    return lo, hi


@njit(cache=True, inline="always")
def _carried(lo, hi, vfrom, vto, row, opts, mode_, gdir):
    """``PAYOFF_SIM``: a stored entry's two facts, found with the counting values ``vfrom``, carried over to
    ``vto`` (``row``'s): bounds on the rest's points (``mode_`` 1) or threshold pasts (2)."""
    dlo, dhi = pdelta(vfrom, vto, row, opts)
    if mode_ == 1:
        return _f_shift(lo, hi, dlo, dhi)
    return _semi_shift(lo, hi, dlo, dhi, gdir)


@njit(cache=True, inline="always")
def _merge_semi(olo, ohi, ovlo, ovhi, nlo, nhi, vlo, vhi):
    """A threshold entry (mode 2) updated with a new fact. ``lo``/``wlo``: for every signed past at least ``lo``
    the value is at least ``wlo``; ``hi``/``whi``: for every signed past at most ``hi`` the value is at most
    ``whi`` (``lo = INF``, ``hi = -INF``: no such fact). A new fact replaces the stored one unless the stored
    one implies it (a smaller or equal past with a value bound at least as strong)."""
    lo = olo
    wlo = ovlo
    if nlo < INF and not (olo <= nlo and ovlo >= vlo):
        lo = nlo
        wlo = vlo
    hi = ohi
    whi = ovhi
    if nhi > -INF and not (ohi >= nhi and ovhi <= vhi):
        hi = nhi
        whi = vhi
    return lo, hi, wlo, whi


HINT_UNIT = np.int64(1) << np.int64(32)  # move score = adapter hint * HINT_UNIT + history (capped)
# the history table: cutoffs per (the adapter's ``hist_slot``, seat to move, action); ``Solver`` allocates it
HIST_BASE = NUM_PLAYERS * NUM_PLAYERS * NUM_ACTIONS
# with the adapter's ``MEMO_BITS``: the refutation memo after the history, 2 ** MEMO_BITS slots of (salted key, move):
# the last move that cut at a position with that ``memo_key`` (e.g. a trick start by the mover's hand), tried first
# at a position with the same memo key and no table move. Its keys carry ``ctx[C_MSALT]`` (a fresh salt per solve,
# so ``Solver`` clears only the history part); ordering only, so values do not depend on it
MEMO_LEN = (1 << MEMO_BITS) if MEMO_BITS > 0 else 0
# with the adapter's ``BONUS_BITS``: the table of the adapter's ``bonus_claim`` after the memo, 2 ** BONUS_BITS slots
# of (key, answer); its keys carry the solve's salt (``ctx[C_SALT]``), so it is never cleared
BONUS_BASE = HIST_BASE + 2 * MEMO_LEN
HIST_LEN = BONUS_BASE + ((2 << BONUS_BITS) if BONUS_BITS > 0 else 0)


@njit(cache=True, inline="always")
def _insert_by_score(mv, sc, m, a, s):
    """Insert action ``a`` with score ``s`` into ``mv[:m]``/``sc[:m]``, kept sorted by score, descending (after
    the moves of an equal score: a stable insertion sort)."""
    j = m
    while j > 0 and sc[j - 1] < s:
        mv[j] = mv[j - 1]
        sc[j] = sc[j - 1]
        j -= 1
    mv[j] = a
    sc[j] = s


@njit(cache=True, inline="always")
def _move_score(row, opts, a, root, hist, hoff, ttm, hc):
    """The ordering score of action ``a``: the table's move ``ttm`` first, then the adapter's ``hint``, then the
    history (``hist[hoff + a]``, capped below one hint step). With the adapter's ``HINT_CTX`` the hint is
    ``hint_at`` with ``hc``, what ``hint_ctx`` computed once for the node (the same scores)."""
    if a == ttm:
        return INF
    h = hint_at(row, opts, a, root, hc) if HINT_CTX else hint(row, opts, a, root)
    return _hint_score(h, hist, hoff, a)


@njit(cache=True, inline="always")
def _hint_score(h, hist, hoff, a):
    """The ordering score of action ``a`` from its hint ``h``: the hint, then the history (``hist[hoff + a]``,
    capped below one hint step)."""
    return h * HINT_UNIT + min(hist[hoff + a], HINT_UNIT - 1)


@njit(cache=True, inline="always")
def _tt_key(row, opts, salt, add, semi):
    """The table key of ``row``: an additive position's (``add``) or a threshold entry's (``semi``: the position
    alone, ``akey``) apart from each other and from a full key (``key``), salted per solve."""
    if add:
        return (skey(row) if PAYOFF_SIM else akey(row)) ^ salt ^ ADD_SALT
    if semi:  # keyed by the position; the entry holds bounds on the value for pasts beyond a point
        return (skey(row) if PAYOFF_SIM else akey(row)) ^ salt ^ SEMI_SALT
    return key(row, opts) ^ salt


PRE_WARM = 32  # the first pre-searches of a probe always run
PRE_LEARN = 25  # then only while at least this share (%) of them settled their node
PRE_EXPLORE = 16  # and one in this many of the others


@njit(cache=True, inline="always")
def _pre_learned(ctx):
    """Whether a pre-search runs at this node (``PRESEARCH``): while the probe's first ``PRE_WARM`` run, then
    where at least ``PRE_LEARN`` % of the probe's pre-searches settled their node, and at one node in
    ``PRE_EXPLORE`` of the others (the share is learned again as the probe goes on)."""
    t = ctx[C_PTRY]
    if t < PRE_WARM or 100 * ctx[C_PCUT] >= PRE_LEARN * t:
        return True
    ctx[C_PSKIP] += 1
    return ctx[C_PSKIP] % PRE_EXPLORE == 0


@njit(cache=True, inline="always")
def _leaf_value(row, opts, root, obj, gt, glen):
    """The value of a finished deal: the adapter's ``leaf``, or in a points-only pre-search (``PRESEARCH``,
    objective ``OBJ_NO_BONUS``) the monotone table at the declarer's final points (no bonus)."""
    if PRESEARCH and obj == OBJ_NO_BONUS:
        return _gval(gt, glen, apast(row, opts))
    return leaf(row, opts, root, obj)


# per-depth frame slots of the iterative search (int64[MAX_DEPTH + 2, F_LEN])
F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_BM, F_I, F_M, F_MAX, F_KEY, F_ADD, F_P0, F_N0, F_TT = range(14)
# budgeted rounds: node deadline, base budget, round, open moves, expected cut node
F_DL, F_BUD, F_RND, F_PEND, F_CUTX = range(14, 19)
F_MEMO = 19  # ``MEMO_LEARN``: the memo's move at this node (-1: none), ordered first or not
# ``ORDER_LEARN``: the first move of the default and of the alternative ordering (-1: they agree or no class),
# the node's class
F_ADEF, F_AALT, F_ACLS = 20, 21, 22
F_LEN = 23 if ORDER_LEARN > 0 else 20
MOVE_BITS = np.int64(16)  # table slot 3: best move + (subtree nodes << MOVE_BITS), the replacement priority
MOVE_MASK = (np.int64(1) << MOVE_BITS) - np.int64(1)
# key, lower, upper, move + work, (threshold entries) the two value bounds, the solve's salt; with ``PAYOFF_SIM``
# the counting values (``pvec``, below 2 ** 32) of the position where the lower (reach) and where the upper
# (miss) fact was found, in one word
TT_COLS = 8 if PAYOFF_SIM else 7
PV_BITS = np.int64(32)  # ``PAYOFF_SIM``: slot 7 holds the lower fact's values + (the upper fact's << PV_BITS)
PV_MASK = (np.int64(1) << PV_BITS) - np.int64(1)
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True)
def _search(stack, d0, alpha, beta, opts, ctx, moves, reps, scores, tt, hist, gt, fr, st):
    """Fail-soft alpha-beta value of ``stack[d0]`` for the root side, within ``(alpha, beta)``.

    Iterative (an explicit frame per depth in ``fr``): numba's on-disk cache does not reliably reload
    self-recursive functions. With ``ctx[C_PLAIN]`` set it is plain minimax: full windows, no table, no merging.
    """
    # the same arrays without reference counting (the caller keeps them alive): the views taken per node (rows,
    # table entries, move lists) and the arrays passed to the adapter's kernels cost no atomic updates
    stack, opts, ctx, moves, reps, scores = unmanaged(stack), unmanaged(opts), unmanaged(ctx), unmanaged(moves), \
        unmanaged(reps), unmanaged(scores)
    tt, hist, gt, fr, st = unmanaged(tt), unmanaged(hist), unmanaged(gt), unmanaged(fr), unmanaged(st)
    plain = ctx[C_PLAIN] != 0
    usett0 = not plain and ctx[C_NOTT] == 0  # C_NOTT: alpha-beta without the table (a cross-check)
    merge = 0 if plain else ctx[C_MERGE]
    glen = 0 if plain else ctx[C_GLEN]
    gdir = ctx[C_GDIR]
    root = ctx[C_ROOT]
    stats = ctx[C_STATS] != 0
    mask = (tt.shape[0] - 1) & ~np.int64(1)  # two-slot buckets: even slot by size of subtree, odd slot always
    nk1 = -INF - 1  # BOUND_NEED: the last windows' cut points on the table (key and value)
    nv1 = np.int64(0)
    nk2 = -INF - 1
    nv2 = np.int64(0)
    # budgeted rounds (``BUDGET_ROUNDS``, ``budget_word``): at selected nodes each move still open gets a node
    # budget per round (``b0 << (bsh * round)``); a move whose subtree completes within it is done (the usual
    # alpha-beta update), one whose subtree runs out is abandoned (unwound without storing anything for the
    # frames in between; what completed deeper subtrees stored stays valid) and tried again in the next round.
    # ``fr[d, F_DL]``: the node count at which the node at depth d runs out (nested: never later than its parent's)
    bw = np.int64(0)
    if BUDGET_ROUNDS:
        bw = ctx[C_BUDGET]
        if plain or bw < 0:
            bw = np.int64(0)
        fr[d0, F_DL] = INF
    cdl = INF  # the current frame's deadline (``fr[d, F_DL]``)
    bb0 = bw & np.int64(0xFFFFFF)
    bsh = max((bw >> np.int64(24)) & np.int64(15), np.int64(1))
    bk = (bw >> np.int64(28)) & np.int64(255)
    bcls = (bw >> np.int64(36)) & np.int64(15)
    bflags = ((bw >> np.int64(36)) & np.int64(0xF0)) | ((bw >> np.int64(40)) & np.int64(0xFF00))
    bst = (bw >> np.int64(44)) & np.int64(15)
    d = d0
    fr[d, F_ALPHA] = alpha
    fr[d, F_BETA] = beta
    # ``PRESEARCH`` (one pre-search at a time): the depth of the node whose pre-search runs (-1: none), the
    # objective it replaced, that node's bonus range and node count; the depth of a node entered again after its
    # pre-search did not settle it (-1: none)
    pre_d = np.int64(-1)
    pre_obj = ctx[C_OBJ]
    pre_blo = np.int64(0)
    pre_bhi = np.int64(0)
    pre_n0 = np.int64(0)
    pre_again = np.int64(-1)
    ret = np.int64(0)
    mode = ENTER
    while True:
        if mode == ENTER:
            row = stack[d]
            ctx[C_NODES] += 1
            pre_skip = d == pre_again  # this node's pre-search ran already
            pre_again = np.int64(-1)
            if stats:
                st[d, S_NODES] += 1
            if ctx[C_NODES] > ctx[C_MAX]:
                ctx[C_ABORT] = 1
                return np.int64(0)
            if BUDGET_ROUNDS and ctx[C_NODES] > cdl:  # a budget ran out: back to the frame that set the
                # shallowest one that ran out (its move stays open), nothing stored on the way
                j = d0 + 1
                while fr[j, F_DL] >= ctx[C_NODES]:
                    j += 1
                d = j - 1
                cdl = fr[d, F_DL]
                if PRESEARCH and 0 <= pre_d and d <= pre_d:  # unwound out of a pre-search: its objective ends
                    ctx[C_OBJ] = pre_obj
                    pre_d = np.int64(-1)
                mode = NEXT
                continue
            if is_over(row):
                ret = _leaf_value(row, opts, root, ctx[C_OBJ], gt, glen)
                mode = RETURN
                continue
            if not plain and forced_rest(row):  # every play left is forced: play it out
                child = stack[d + 1]
                copy_row(child, row, COPY_LEN)
                while not is_over(child):
                    gen(child, opts, moves[d + 1], reps[d + 1], 0)
                    apply(child, moves[d + 1, 0], opts)
                ret = _leaf_value(child, opts, root, ctx[C_OBJ], gt, glen)
                mode = RETURN
                continue
            a_ = fr[d, F_ALPHA]
            b_ = fr[d, F_BETA]
            ttm = np.int64(-1)
            ttdir = np.int64(0)  # ``BW_TT_DIR``: the outcome the table entry's one bound expects (1 high, -1 low)
            usett = usett0 and not tt_skip(row)
            fr[d, F_TT] = 1 if usett else 0
            if usett0:  # static bounds everywhere, the table where the adapter keeps the position
                add = glen > 0 and additive(row, ctx[C_OBJ])
                semi = not add and glen > 0 and a_ + 1 == b_ and monotone_past(row, ctx[C_OBJ])
                p0 = np.int64(0)
                if add:
                    p0 = apast(row, opts)
                elif semi:
                    p0 = apast(row, opts) * gdir
                if stats:
                    st[d, S_SEMI] += 1 if semi else 0
                    st[d, S_ADD] += 1 if add else 0
                k = np.int64(0)
                hit = False
                blo = np.int64(0)  # the bonus range (threshold nodes)
                bhi = np.int64(0)
                if usett:  # the key first: its table bucket loads (prefetch) while the static bounds are computed
                    k = _tt_key(row, opts, ctx[C_SALT], add, semi)
                    prefetch_read(tt, (k & mask) * TT_COLS)
                    prefetch_read(tt, (k & mask) * TT_COLS + 2 * TT_COLS - 1)
                if add or semi:  # static bounds on the rest's points (and the bonus range of a monotone past):
                    # a window outside the values they reach cuts off (before the table probe). ``afmin`` first:
                    # when the value bound it gives already cuts, ``afmax`` is not computed (the same cut and
                    # value as with both, since a bound that cuts decides the returned value alone)
                    pp = p0 if add else p0 * gdir
                    if semi:
                        blo, bhi = bonus_range(row, opts, ctx[C_ROOT])
                    if BOUND_NEED:  # the adapter's bounds are told the rest's points at which they cut
                        # (``afmin`` from ``need`` up, ``afmax`` up to ``lim``) and stop once they know the answer;
                        # the table's binary searches are kept for the last window and bonus range
                        if gdir > 0:
                            r1 = b_ - blo
                            r2 = a_ - bhi + 1
                        else:
                            r1 = a_ - bhi
                            r2 = b_ - blo - 1
                        if r1 != nk1:
                            nk1 = r1
                            nv1 = _first(gt, glen, r1, gdir > 0, gdir)
                        if r2 != nk2:
                            nk2 = r2
                            nv2 = _first(gt, glen, r2, gdir > 0, gdir)
                        need = INF if nv1 >= glen else nv1 - pp
                        lim = INF if nv2 >= glen else nv2 - 1 - pp
                        v1 = _gval(gt, glen, pp + afmin_need(row, opts, need))
                    else:
                        lim = INF
                        v1 = _gval(gt, glen, pp + afmin(row, opts))
                    if gdir > 0:
                        rlo = v1 + blo
                        rhi = INF
                        if rlo < b_:
                            rhi = _gval(gt, glen, pp + (afmax_need(row, opts, lim) if BOUND_NEED else
                                                        afmax(row, opts))) + bhi
                    else:
                        rhi = v1 + bhi
                        rlo = -INF
                        if rhi > a_:
                            rlo = _gval(gt, glen, pp + (afmax_need(row, opts, lim) if BOUND_NEED else
                                                        afmax(row, opts))) + blo
                    if rlo >= b_ or rlo == rhi or rhi <= a_:
                        if stats:
                            st[d, S_STATIC] += 1
                        ret = rlo if rlo >= b_ or rlo == rhi else rhi
                        mode = RETURN
                        continue
                if usett:
                    fr[d, F_KEY] = k
                    fr[d, F_ADD] = 1 if add else (2 if semi else 0)
                    fr[d, F_P0] = p0
                    fr[d, F_N0] = ctx[C_NODES]
                    slot = k & mask
                    if tt[slot, 0] != k:
                        slot += 1
                    e = tt[slot]
                    if stats:
                        st[d, S_PROBE] += 1
                        if e[0] == k:
                            st[d, S_HIT] += 1
                    hit = e[0] == k
                    if hit:
                        # ``PAYOFF_SIM``: the entry may be of a position of the same structure with other counting
                        # values; ``pdelta`` bounds (these points of the rest) - (its) over the same play, so its
                        # facts hold here with the past shifted by the worst (``sr``) or best (``sn``) case
                        dlo = np.int64(0)  # for the lower (reach) fact, found with the values in e[7]'s low half
                        dhi = np.int64(0)
                        ulo = np.int64(0)  # for the upper (miss) fact, found with those in its high half
                        uhi = np.int64(0)
                        if PAYOFF_SIM:
                            pv = pvec(row)
                            vl_ = e[7] & PV_MASK
                            vu_ = e[7] >> PV_BITS
                            if vl_ != pv:
                                dlo, dhi = pdelta(vl_, pv, row, opts)
                            if vu_ == vl_:
                                ulo = dlo
                                uhi = dhi
                            elif vu_ != pv:
                                ulo, uhi = pdelta(vu_, pv, row, opts)
                            if stats and (vl_ != pv or vu_ != pv):
                                st[d, S_SIM] += 1
                        if semi:
                            sr = dlo if gdir > 0 else -dhi
                            sn = uhi if gdir > 0 else -ulo
                            if p0 + sr >= e[1] and e[4] >= b_:  # value >= e[4] for every past at least e[1]
                                if stats:
                                    st[d, S_TTCUT] += 1
                                ret = e[4]
                                mode = RETURN
                                continue
                            if p0 + sn <= e[2] and e[5] <= a_:  # value <= e[5] for every past at most e[2]
                                if stats:
                                    st[d, S_TTCUT] += 1
                                ret = e[5]
                                mode = RETURN
                                continue
                        else:
                            lo = e[1]
                            hi = e[2]
                            if add:
                                if PAYOFF_SIM:
                                    lo, hi = _f_shift(lo, hi, dlo, uhi)
                                lo, hi = _f_to_r(lo, hi, p0, gt, glen, gdir)
                            if lo >= b_ or lo == hi or hi <= a_:
                                if stats:
                                    st[d, S_TTCUT] += 1
                                ret = lo if lo >= b_ or lo == hi else hi
                                mode = RETURN
                                continue
                            if lo > a_:
                                a_ = lo
                            if hi < b_:
                                b_ = hi
                            if BUDGET_ROUNDS:
                                if lo > -INF and hi >= INF:
                                    ttdir = np.int64(-1)
                                elif hi < INF and lo <= -INF:
                                    ttdir = np.int64(1)
                        ttm = e[3] & MOVE_MASK
                # a bonus decided later (the adapter's ``bonus_claim``, e.g. Dreierles' Pfeife bonus game): once the
                # side that can make sure of it (or of its failure) is known, the table at the points every play
                # adds at least (or at most), plus that outcome, bounds the value; where the bound passes the
                # window, it settles the node. ``bonus_amounts``: each bonus at stake in the root side's value
                if BONUS_BITS > 0 and semi and not hit:
                    bq0_, bq1_ = bonus_amounts(row, opts, root)
                    if bq0_ != 0 or bq1_ != 0:
                        pa_ = p0 * gdir  # the declarer's points so far
                        gl_ = _gval(gt, glen, pa_ + claim_points(row, opts, False))
                        gh_ = _gval(gt, glen, pa_ + claim_points(row, opts, True))
                        glo_ = min(gl_, gh_)
                        ghi_ = max(gl_, gh_)
                        got_ = False
                        for q_ in range(2):
                            bq_ = bq0_ if q_ == 0 else bq1_
                            if got_ or bq_ == 0:
                                continue
                            csc_, wsc_, cdn_, wdn_ = _bonus_bounds(bq_, glo_, ghi_, a_, b_)
                            if not (wsc_ or wdn_):
                                continue
                            ans_, bn_ = bonus_claim(row, opts, hist, BONUS_BASE, ctx[C_SALT], q_)
                            if stats:
                                st[d, S_BONUS] += bn_
                            if ans_ == BONUS_SCORED and wsc_:
                                got_ = True
                                ret = csc_
                            elif ans_ == BONUS_DENIED and wdn_:
                                got_ = True
                                ret = cdn_
                        if got_:
                            if stats:
                                st[d, S_STATIC] += 1
                            mode = RETURN
                            continue
                # the adapter's exact value of a position with a monotone past, when it has one (a position in the
                # table was searched, so the adapter had none: a sweep's value is never stored)
                if SWEEP and semi and not hit:
                    ok_, f_, b_s = sweep(row, opts, root)
                    if ok_:
                        if stats:
                            st[d, S_STATIC] += 1
                        ret = _gval(gt, glen, p0 * gdir + f_) + b_s
                        mode = RETURN
                        continue
                # ``PRESEARCH``: the same position searched for the points alone (the bonus in play left out, so
                # every node below is additive, its entries shared by every past and threshold). The value lies in
                # [g + lo, g + hi] for g that search's value and [lo, hi] the bonus range (the side keeping the
                # points to g holds the value within the bonus range of every play): where the range's end on one
                # side is 0, the pre-search's result on that side of the window settles the node
                if (PRESEARCH and semi and not pre_skip and pre_d < 0 and (blo == 0 or bhi == 0)
                        and pre_at(row, opts) and _pre_learned(ctx)):
                    ctx[C_PTRY] += 1
                    if stats:
                        st[d, S_PRE] += 1
                    pre_d = np.int64(d)
                    pre_obj = ctx[C_OBJ]
                    pre_blo = blo
                    pre_bhi = bhi
                    pre_n0 = ctx[C_NODES]
                    ctx[C_OBJ] = OBJ_NO_BONUS
                    child = stack[d + 1]
                    copy_row(child, row, COPY_LEN)
                    fr[d + 1, F_ALPHA] = a_
                    fr[d + 1, F_BETA] = b_
                    if BUDGET_ROUNDS:
                        fr[d + 1, F_DL] = cdl
                    fr[d, F_MAX] = 1 if side(row, cur(row), root) == 0 else 0
                    fr[d, F_I] = 0
                    if BUDGET_ROUNDS:
                        fr[d, F_CUTX] = 0
                    d += 1
                    mode = ENTER
                    continue
            if MEMO_LEARN > 0:
                fr[d, F_MEMO] = -1
            if MEMO_BITS > 0 and ttm < 0 and not plain:  # no table move: the memo's, when it has one
                mk = memo_key(row)
                if mk >= 0:
                    mk ^= ctx[C_MSALT]
                    mi = HIST_BASE + 2 * (mk & (MEMO_LEN - 1))
                    if hist[mi] == mk:
                        if MEMO_LEARN > 0:  # only where the memo's moves of this side and depth cut often enough
                            # in this probe (at least MEMO_LEARN %; each memo move is scored, tried first or not)
                            fr[d, F_MEMO] = hist[mi + 1]
                            ci = C_MCOUNT + side(row, cur(row), root) + 4 * min((d - d0) // NUM_PLAYERS,
                                                                                MEMO_BUCKETS - 1)
                            if 100 * ctx[ci] >= MEMO_LEARN * (ctx[ci] + ctx[ci + 2]):
                                ttm = hist[mi + 1]
                        else:
                            ttm = hist[mi + 1]
            mv = moves[d]
            rp = reps[d]
            sc = scores[d]
            n = gen(row, opts, mv, rp, merge)
            # a table or memo move that this node merges into another card (an equivalent card, or one that
            # dominance keeps instead) stands for that card
            if ttm >= 0 or (MEMO_LEARN > 0 and fr[d, F_MEMO] >= 0):
                for i in range(n):
                    if rp[i] != i:
                        if mv[i] == ttm:
                            ttm = mv[rp[i]]
                        if MEMO_LEARN > 0 and mv[i] == fr[d, F_MEMO]:
                            fr[d, F_MEMO] = mv[rp[i]]
            p = cur(row)
            hoff = (hist_slot(row) * NUM_PLAYERS + p) * NUM_ACTIONS
            # keep the representatives only, scored; insertion sort by score (descending)
            hc = hint_ctx(row, opts, root)
            acls = np.int64(-1)
            use_alt = False
            if ORDER_LEARN > 0:  # the adapter's alternative order (``hint_alt``) at a node of a class (``alt_class``)
                # where, in this probe, its first move has cut at least once and in at least ORDER_LEARN % of the
                # cut nodes where the two orderings' first moves differ and one of them cut
                fr[d, F_ADEF] = -1
                if ttm < 0 and not plain:
                    acls = alt_class(row, opts, root, hc)
                    if acls >= 0:
                        ci = C_OCOUNT + 2 * acls
                        use_alt = ctx[ci] > 0 and 100 * ctx[ci] >= ORDER_LEARN * (ctx[ci] + ctx[ci + 1])
            bd = np.int64(-(1 << 62))
            ba = bd
            fd = np.int64(-1)
            fa = np.int64(-1)
            m = 0
            for i in range(n):
                if rp[i] == i:
                    a = mv[i]
                    s = np.int64(0)
                    if not plain:
                        s = _move_score(row, opts, a, root, hist, hoff, ttm, hc)
                        if ORDER_LEARN > 0 and acls >= 0:
                            s2 = _hint_score(hint_alt(row, opts, a, root, hc), hist, hoff, a)
                            if s > bd:
                                bd = s
                                fd = a
                            if s2 > ba:
                                ba = s2
                                fa = a
                            if use_alt:
                                s = s2
                    _insert_by_score(mv, sc, m, a, s)
                    m += 1
            if ORDER_LEARN > 0 and acls >= 0 and fd != fa:
                fr[d, F_ADEF] = fd
                fr[d, F_AALT] = fa
                fr[d, F_ACLS] = acls
            maximize = side(row, p, root) == 0
            if stats:
                st[d, S_EXP] += 1
                if ttm >= 0:
                    st[d, S_TTMOVE] += 1
            fr[d, F_ALPHA] = a_
            fr[d, F_BETA] = b_
            fr[d, F_A0] = a_
            fr[d, F_B0] = b_
            fr[d, F_BEST] = -INF if maximize else INF
            fr[d, F_BM] = mv[0]
            fr[d, F_I] = 0
            fr[d, F_M] = m
            fr[d, F_MAX] = 1 if maximize else 0
            if BUDGET_ROUNDS:
                fr[d, F_BUD] = 0
                if bb0 > 0:
                    bc, bs = budget_at(row)
                    if bs >= bk:  # ``budget_at``'s size never grows along a path: every ancestor's type is known
                        # the expected node type (a cut node: the side to move is expected to refute the window):
                        # the probe's root is (unless ``BW_ROOT_ALL``); a node whose parent's side moves keeps the
                        # parent's type; else the first child of a cut node is an all-node, every other a cut node
                        cutx = np.int64(0) if bflags & BW_ROOT_ALL else np.int64(1)
                        if d > d0:
                            cutx = np.int64(1)
                            if fr[d - 1, F_MAX] == (1 if maximize else 0):
                                cutx = fr[d - 1, F_CUTX]
                            elif fr[d - 1, F_CUTX] != 0 and fr[d - 1, F_I] == 1:
                                cutx = np.int64(0)
                            if bflags & BW_TT_DIR and ttdir != 0:  # the table entry's bound says which way
                                cutx = np.int64(1) if (ttdir > 0) == maximize else np.int64(0)
                        fr[d, F_CUTX] = cutx
                        if (bc >= 0 and (bcls >> bc) & 1 != 0 and m > 1 and ((bflags & BW_NO_TTMOVE) == 0 or ttm < 0)
                                and ((bflags & BW_CUT) == 0 or cutx != 0)):
                            fr[d, F_BUD] = bb0
                            fr[d, F_RND] = 0
                            fr[d, F_PEND] = (np.int64(1) << m) - 1
            mode = NEXT
        if mode == NEXT:
            i = fr[d, F_I]
            go = i < fr[d, F_M] and fr[d, F_ALPHA] < fr[d, F_BETA]
            dl = INF
            if BUDGET_ROUNDS:
                dl = cdl
                if fr[d, F_BUD] > 0:  # the next open move of this round, else of the next round
                    pend = fr[d, F_PEND]
                    go = pend != 0 and fr[d, F_ALPHA] < fr[d, F_BETA]
                    if go:  # the move of rank i in round r: ``b0 << (bsh * r - bst * i)``, not tried while below b0
                        r_ = fr[d, F_RND]
                        while True:
                            rest = pend >> i
                            if rest == 0:
                                r_ += 1
                                i = np.int64(0)
                            elif rest & 1 == 0 or bsh * r_ < bst * i:
                                i += 1
                            else:
                                break
                        fr[d, F_RND] = r_
                        dl = min(dl, ctx[C_NODES] + (fr[d, F_BUD] << min(bsh * r_ - bst * i, np.int64(40))))
            if go:
                fr[d, F_I] = i + 1
                row = stack[d]
                child = stack[d + 1]
                copy_row(child, row, COPY_LEN)
                apply(child, moves[d, i], opts)
                if plain:
                    fr[d + 1, F_ALPHA] = -INF
                    fr[d + 1, F_BETA] = INF
                else:
                    fr[d + 1, F_ALPHA] = fr[d, F_ALPHA]
                    fr[d + 1, F_BETA] = fr[d, F_BETA]
                if BUDGET_ROUNDS:
                    fr[d + 1, F_DL] = dl
                    cdl = dl
                d += 1
                mode = ENTER
                continue
            # all moves searched (or a cutoff): store the bound, return the best value
            best = fr[d, F_BEST]
            if MEMO_LEARN > 0 and fr[d, F_MEMO] >= 0:  # did the memo's move cut here (tried first or not)?
                ci = C_MCOUNT + 1 - fr[d, F_MAX] + 4 * min((d - d0) // NUM_PLAYERS, MEMO_BUCKETS - 1)
                if fr[d, F_ALPHA] >= fr[d, F_BETA] and fr[d, F_BM] == fr[d, F_MEMO]:
                    ctx[ci] += 1
                else:
                    ctx[ci + 2] += 1
            if ORDER_LEARN > 0 and fr[d, F_ADEF] >= 0 and fr[d, F_ALPHA] >= fr[d, F_BETA]:  # which first move cut?
                ci = C_OCOUNT + 2 * fr[d, F_ACLS]
                if fr[d, F_BM] == fr[d, F_AALT]:
                    ctx[ci] += 1
                elif fr[d, F_BM] == fr[d, F_ADEF]:
                    ctx[ci + 1] += 1
            if stats:
                st[d, S_MOVES] += fr[d, F_I]
                if fr[d, F_ALPHA] >= fr[d, F_BETA]:
                    st[d, S_CUT] += 1
                    if fr[d, F_I] == 1:
                        st[d, S_CUT1] += 1
            if fr[d, F_TT] != 0:
                a0 = fr[d, F_A0]
                b0 = fr[d, F_B0]
                nlo = -INF
                nhi = INF
                if best <= a0:
                    nhi = best
                elif best >= b0:
                    nlo = best
                else:
                    nlo = best
                    nhi = best
                k = fr[d, F_KEY]
                mode_ = fr[d, F_ADD]
                if mode_ == 1:
                    nlo, nhi = _r_to_f(nlo, nhi, fr[d, F_P0], gt, glen, gdir)
                elif mode_ == 2:  # thresholds on the (signed) past: the least known to reach b0, the most known not to
                    if best >= b0:
                        nlo = fr[d, F_P0]
                        nhi = -INF
                    else:
                        nlo = INF
                        nhi = fr[d, F_P0]
                sv_lo = best  # mode 2: the value bound found at the threshold (kept with it)
                sv_hi = best
                work = ctx[C_NODES] - fr[d, F_N0]
                slot = k & mask
                e = tt[slot]
                old = e
                if e[0] != k:
                    old = tt[slot + 1]
                pv = np.int64(0)
                if PAYOFF_SIM and mode_ != 0:
                    pv = pvec(stack[d])
                vl = pv  # the values of the lower and of the upper fact stored
                vu = pv
                if old[0] == k:
                    olo = old[1]
                    ohi = old[2]
                    if PAYOFF_SIM and mode_ != 0:  # a fact this search found replaces or joins the stored one of
                        # its side carried over to these values; a side without a new fact keeps its own values
                        newlo = nlo < INF if mode_ == 2 else nlo > -INF
                        newhi = nhi > -INF if mode_ == 2 else nhi < INF
                        ovl = old[7] & PV_MASK
                        ovu = old[7] >> PV_BITS
                        if newlo and ovl != pv:
                            olo = _carried(olo, ohi, ovl, pv, stack[d], opts, mode_, gdir)[0]
                        if newhi and ovu != pv:
                            ohi = _carried(olo, ohi, ovu, pv, stack[d], opts, mode_, gdir)[1]
                        if not newlo:
                            vl = ovl
                        if not newhi:
                            vu = ovu
                    if mode_ == 2:
                        lo, hi, sv_lo, sv_hi = _merge_semi(olo, ohi, old[4], old[5], nlo, nhi, sv_lo, sv_hi)
                    else:
                        lo = max(olo, nlo)
                        hi = min(ohi, nhi)
                    work = max(work, old[3] >> MOVE_BITS)
                else:
                    lo = nlo
                    hi = nhi
                if e[0] != k:
                    ework = (e[3] >> MOVE_BITS) if e[6] == ctx[C_SALT] else np.int64(-1)  # older solves' entries: none
                    if work >= ework:  # the bigger subtree keeps the even slot, the other goes odd
                        e1 = tt[slot + 1]
                        for j in range(TT_COLS):
                            e1[j] = e[j]
                    else:
                        e = tt[slot + 1]
                e[0] = k
                e[1] = lo
                e[2] = hi
                e[4] = sv_lo
                e[5] = sv_hi
                e[3] = fr[d, F_BM] + (min(work, np.int64(1) << np.int64(46)) << MOVE_BITS)
                e[6] = ctx[C_SALT]
                if PAYOFF_SIM:
                    e[7] = vl | (vu << PV_BITS)
            ret = best
            mode = RETURN
        if mode == RETURN:
            if d == d0:
                return ret
            d -= 1
            if PRESEARCH and d == pre_d:  # the pre-search of the node at d is done: it settles the node or not
                ctx[C_OBJ] = pre_obj
                pre_d = np.int64(-1)
                if stats:
                    st[d, S_PRENODES] += ctx[C_NODES] - pre_n0
                if (ret <= fr[d, F_ALPHA] and pre_bhi == 0) or (ret >= fr[d, F_BETA] and pre_blo == 0):
                    ctx[C_PCUT] += 1
                    if stats:
                        st[d, S_STATIC] += 1
                        st[d, S_PRECUT] += 1
                    mode = RETURN  # the node's value bound: the pre-search's, as its bonus end is 0
                    continue
                pre_again = np.int64(d)
                mode = ENTER  # the node again, searched as before
                continue
            v = ret
            a = moves[d, fr[d, F_I] - 1]
            if BUDGET_ROUNDS and fr[d, F_BUD] > 0:  # the move is done; this frame's deadline again
                fr[d, F_PEND] &= ~(np.int64(1) << (fr[d, F_I] - 1))
                cdl = fr[d, F_DL]
            if fr[d, F_MAX] != 0:
                if v > fr[d, F_BEST]:
                    fr[d, F_BEST] = v
                    fr[d, F_BM] = a
                    if v > fr[d, F_ALPHA]:
                        fr[d, F_ALPHA] = v
            else:
                if v < fr[d, F_BEST]:
                    fr[d, F_BEST] = v
                    fr[d, F_BM] = a
                    if v < fr[d, F_BETA]:
                        fr[d, F_BETA] = v
            if fr[d, F_ALPHA] >= fr[d, F_BETA] and not plain:
                left = MAX_DEPTH - d if d < MAX_DEPTH else 1
                hoff = (hist_slot(stack[d]) * NUM_PLAYERS + cur(stack[d])) * NUM_ACTIONS
                hist[hoff + a] += left * left
                if HIST_MALUS:  # the moves tried before the cutoff lose what the cutting move gains
                    for j in range(fr[d, F_I] - 1):
                        b = moves[d, j]
                        hist[hoff + b] = max(hist[hoff + b] - left * left, np.int64(0))
                if MEMO_BITS > 0:  # the cutting move into the memo (replacing what its slot held)
                    mk = memo_key(stack[d])
                    if mk >= 0:
                        mk ^= ctx[C_MSALT]
                        mi = HIST_BASE + 2 * (mk & (MEMO_LEN - 1))
                        hist[mi] = mk
                        hist[mi + 1] = a
            mode = NEXT


@njit(cache=True)
def solve_root(row, opts, ctx, merge_root, out_actions, out_values, tt, hist, stack_len, st, plog):
    """Exact values of every legal action of ``row`` (the root) for the root side; returns their number.

    ``ctx`` holds the node budget, root seat, objective, salt and merge flag (see ``C_*``). The values the root
    can take (MTD(f)'s levels) come from the adapter's ``root_levels`` when it gives them, else from ``gtable``
    and ``bonus_range``. The root's value is found first by MTD(f) (zero-window searches from a guess until the
    lower and upper bound meet; the guess is the level nearest 0, or with the adapter's optional ``PLAYOUT_GUESS``
    the value of one playout by the ``hint``, see ``_playout``); then each distinct (non-equivalent) root action
    is solved exactly by MTD(f) from that value, also its upper bound (one zero-window search settles a best
    action); an equivalent action gets its representative's value. On an exceeded budget ``ctx[C_ABORT]`` is 1
    and nothing is meaningful. ``plog`` (int64[k, 4]) logs the zero-window searches of the root's value when
    ``k > 1``: row 0 holds their number, row ``i`` the i-th one's threshold, fail-soft result and nodes (only the
    first ``k - 1`` are kept; diagnostics, ``Solver.solve(probes=...)``).
    """
    stack = np.empty((MAX_DEPTH + 2, stack_len), dtype=np.int64)
    for d in range(MAX_DEPTH + 2):
        stack[d, :] = row
    moves = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    reps = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    scores = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    fr = np.zeros((MAX_DEPTH + 2, F_LEN), dtype=np.int64)
    ctx[C_ROOT] = cur(row)
    if ctx[C_BUDGET] == 0:
        ctx[C_BUDGET] = BUDGET_ROUNDS
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
    # the values the root can take, when the table gives them: the table's values plus the bonus range's ends
    levels = np.zeros(3 * max(GT_LEN, 1), dtype=np.int64)
    # with the adapter's ``BAND_FIRST`` and a bonus range: the settlement steps' lowest values (each step's value
    # plus the least bonus), which MTD(f) tests before the others (see ``_mtdf``)
    blevels = np.zeros(max(GT_LEN, 1), dtype=np.int64)
    nblev = 0
    # the adapter's own levels (a superset of the values the root can take), or -1 for this rule
    nlev = root_levels(row, opts, ctx[C_ROOT], ctx[C_OBJ], levels)
    if nlev < 0:
        nlev = 0
        if glen > 0 and ctx[C_OBJ] == 0 and not additive(row, ctx[C_OBJ]) and monotone_past(row, ctx[C_OBJ]):
            blo, bhi = bonus_range(row, opts, ctx[C_ROOT])
            for p in range(glen):
                levels[3 * p] = gt[p] + blo
                levels[3 * p + 1] = gt[p]
                levels[3 * p + 2] = gt[p] + bhi
                blevels[p] = gt[p] + blo
            nlev = 3 * glen
            if BAND_FIRST and blo < bhi:
                nblev = glen
        elif glen > 0 and additive(row, ctx[C_OBJ]):
            for p in range(glen):
                levels[p] = gt[p]
            nlev = glen
    nlev = _sort_unique(levels, nlev)
    nblev = _sort_unique(blevels, nblev)
    # the value of the root itself first: no action is worth more, and most are worth as much, so one
    # zero-window search (value >= best) settles those
    ctx[C_BMOVE] = -1
    guess = -INF
    if PLAYOUT_GUESS >= 2:
        guess = _playout_look(stack, opts, ctx, moves, reps)
    elif PLAYOUT_GUESS:
        guess = _playout(stack, opts, ctx, moves, reps)
    best = _mtdf(stack, 0, guess, -INF, INF, opts, ctx, moves, reps, scores, tt, hist, gt, fr, levels, nlev, blevels,
                 nblev, st, plog)
    if ctx[C_ABORT] != 0:
        return n
    if ctx[C_VONLY] != 0:
        # one best action: the move of the root's last fail-high search (its child's fail-soft value, a lower
        # bound of the child's value, is the root's value), else the first action a zero-window test at the
        # root's value does not refute (no action is worth more than the root)
        a_best = ctx[C_BMOVE]
        if a_best < 0:
            order = np.zeros(MAX_MOVES, dtype=np.int64)
            m = _root_order(row, opts, ctx, root_moves, root_reps, n, tt, hist, order)
            for j in range(m):
                child = stack[1]
                copy_row(child, row, COPY_LEN)
                apply(child, order[j], opts)
                g = _search(stack, 1, best - 1, best, opts, ctx, moves, reps, scores, tt, hist, gt, fr, st)
                if ctx[C_ABORT] != 0:
                    return n
                if g >= best:
                    a_best = order[j]
                    break
        out_actions[0] = a_best
        out_values[0] = best
        return np.int64(1)
    nolog = np.zeros((1, 4), dtype=np.int64)  # the root's value alone is logged
    for i in range(n):
        out_actions[i] = root_moves[i]
        out_values[i] = 0
        if root_reps[i] != i:
            out_values[i] = out_values[root_reps[i]]
            continue
        child = stack[1]
        copy_row(child, row, COPY_LEN)
        apply(child, root_moves[i], opts)
        # first the test "as good as the best" (``BAND_FIRST`` only for the root's value: most actions are)
        out_values[i] = _mtdf(stack, 1, best, -INF, best, opts, ctx, moves, reps, scores, tt, hist, gt, fr, levels,
                              nlev, blevels, np.int64(0), st, nolog)
        if ctx[C_ABORT] != 0:
            return n
    return n


@njit(cache=True)
def _root_order(row, opts, ctx, root_moves, root_reps, n, tt, hist, order):
    """The root's representative actions into ``order`` in the search's own move order: the move of the root's
    table entry first (an earlier zero-window search at the root stored it), then by the adapter's ``hint`` and
    the history (trained by the root's searches); returns their number. Used when the root's value is known but
    its last search left no best move (a static or table cut at the root): the first action whose zero-window
    test reaches the value is a best one, and in this order the first one tried usually is."""
    root = ctx[C_ROOT]
    ttm = np.int64(-1)
    if ctx[C_NOTT] == 0 and not tt_skip(row):
        add = ctx[C_GLEN] > 0 and additive(row, ctx[C_OBJ])
        semi = not add and ctx[C_GLEN] > 0 and monotone_past(row, ctx[C_OBJ])  # the root's searches: zero windows
        k = _tt_key(row, opts, ctx[C_SALT], add, semi)
        slot = k & ((tt.shape[0] - 1) & ~np.int64(1))
        for s_ in range(2):
            if tt[slot + s_, 0] == k:
                ttm = tt[slot + s_, 3] & MOVE_MASK
    p = cur(row)
    hoff = (hist_slot(row) * NUM_PLAYERS + p) * NUM_ACTIONS
    sc = np.zeros(MAX_MOVES, dtype=np.int64)
    hc = hint_ctx(row, opts, root)
    m = 0
    for i in range(n):
        if root_reps[i] != i:
            continue
        a = root_moves[i]
        _insert_by_score(order, sc, m, a, _move_score(row, opts, a, root, hist, hoff, ttm, hc))
        m += 1
    return np.int64(m)


@njit(cache=True)
def _playout(stack, opts, ctx, moves, reps):
    """MTD(f)'s first guess of the root's value (the adapter's ``PLAYOUT_GUESS``): the value of one playout from
    ``stack[0]`` in which every seat plays the legal action with the highest ``hint`` (the first one on a tie). A
    real outcome of the position, so a value it can take; only the order of the root's probes depends on it."""
    root = ctx[C_ROOT]
    child = stack[1]
    copy_row(child, stack[0], COPY_LEN)
    while not is_over(child):
        n = gen(child, opts, moves[1], reps[1], 0)
        a = moves[1, 0]
        h = hint(child, opts, a, root)
        for i in range(1, n):
            hi = hint(child, opts, moves[1, i], root)
            if hi > h:
                h = hi
                a = moves[1, i]
        apply(child, a, opts)
    return leaf(child, opts, root, ctx[C_OBJ])


@njit(cache=True)
def _greedy_rest(stack, d, opts, root, moves, reps, obj):
    """The value for ``root`` of the rest of ``stack[d]`` played out by the ``hint`` (every seat plays its legal
    action with the highest score, the first one on a tie), played in ``stack[d + 1]`` (``moves[d + 1]``)."""
    child = stack[d + 1]
    copy_row(child, stack[d], COPY_LEN)
    while not is_over(child):
        n = gen(child, opts, moves[d + 1], reps[d + 1], 0)
        a = moves[d + 1, 0]
        h = hint(child, opts, a, root)
        for i in range(1, n):
            hi = hint(child, opts, moves[d + 1, i], root)
            if hi > h:
                h = hi
                a = moves[d + 1, i]
        apply(child, a, opts)
    return leaf(child, opts, root, obj)


@njit(cache=True)
def _playout_look(stack, opts, ctx, moves, reps):
    """MTD(f)'s first guess with ``PLAYOUT_GUESS >= 2``: one playout from ``stack[0]`` in which every seat plays
    the action (one per class of equivalent actions) whose greedy playout after it (``_greedy_rest``) is best
    for its side (the root side's highest value, the other side's lowest; the first one on a tie). A one-step
    lookahead over the ``hint`` playout: still a real outcome of the position (only the order of the root's
    probes depends on it), closer to the value on most deals (docs/solver.md)."""
    root = ctx[C_ROOT]
    obj = ctx[C_OBJ]
    cur_row = stack[1]
    copy_row(cur_row, stack[0], COPY_LEN)
    while not is_over(cur_row):
        n = gen(cur_row, opts, moves[1], reps[1], 1)
        maximize = side(cur_row, cur(cur_row), root) == 0
        best_a = moves[1, 0]
        best_v = -INF if maximize else INF
        for i in range(n):
            if reps[1, i] != i:
                continue
            child = stack[2]
            copy_row(child, cur_row, COPY_LEN)
            apply(child, moves[1, i], opts)
            v = leaf(child, opts, root, obj) if is_over(child) else _greedy_rest(stack, 2, opts, root, moves, reps,
                                                                                 obj)
            if (maximize and v > best_v) or (not maximize and v < best_v):
                best_v = v
                best_a = moves[1, i]
        apply(cur_row, best_a, opts)
    return leaf(cur_row, opts, root, obj)


@njit(cache=True)
def _sort_unique(a, n):
    """Sort ``a[:n]`` and drop repeated values in place; returns the new length."""
    if n <= 0:
        return np.int64(0)
    a[:n] = np.sort(a[:n])
    m = 1
    for i in range(1, n):
        if a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    return np.int64(m)


@njit(cache=True)
def _mtdf(stack, d0, guess, lo, hi, opts, ctx, moves, reps, scores, tt, hist, gt, fr, levels, nlev, blevels, nblev,
          st, plog):
    """The exact value of ``stack[d0]``, known to lie in ``[lo, hi]``, by zero-window searches until the bounds
    meet (a fail-soft result moves a bound past the window when it can). The first search tests ``guess`` when
    it lies in ``(lo, hi]``. Then MTD(f) tests the last result (from 0): after a fail high the next value above
    it, after a fail low that value. When the values the position can take are known (``levels[:nlev]``,
    sorted; the settlement is a step function of the points), the tests snap to them: the least level above the
    lower bound, the greatest level at most the upper bound, so no search tests a value between two steps. Each
    search is logged in ``plog`` when it has more than one row (see ``solve_root``)."""
    g = guess
    first = True
    band = nblev > 0
    while lo < hi:
        if band:  # first the steps' lowest values only (``blevels``): which step the value lies in
            i0 = np.searchsorted(blevels[:nblev], lo, side="right")
            i1 = np.searchsorted(blevels[:nblev], hi, side="right")
            if i0 >= i1:
                band = False  # the step is known: the other levels inside it follow
                if HIST_BAND_SHIFT > 0 and not first:  # the step probes' history, scaled down for the bonus
                    # probes (``HIST_BAND_SHIFT`` bits): it ordered another question (docs/solver.md, round semi9)
                    for j in range(HIST_BASE):
                        hist[j] >>= HIST_BAND_SHIFT
                if MEMO_BITS > 0 and not first:  # the memo too: a new salt drops the step probes' entries
                    ctx[C_MSALT] = ctx[C_MSALT] * np.int64(6364136223846793005) + np.int64(1442695040888963407)
                continue
            if first:  # the step of the guess (its lowest value at most the guess), else the one nearest 0
                ref = guess if guess > -INF else np.int64(0)
                j = min(max(np.searchsorted(blevels[:nblev], ref, side="right") - 1, i0), i1 - 1)
            elif g == lo:
                j = i0
            else:
                j = i1 - 1
            beta = blevels[j]
        elif first and lo < guess <= hi:
            beta = guess
        elif nlev > 0:
            i0 = np.searchsorted(levels[:nlev], lo, side="right")  # first level > lo
            i1 = np.searchsorted(levels[:nlev], hi, side="right")  # levels[i0:i1] lie in (lo, hi]
            if i0 >= i1:
                return lo  # no value the position can take lies above lo
            if first:  # the level nearest above 0
                j = min(max(np.searchsorted(levels[:nlev], np.int64(0), side="left"), i0), i1 - 1)
            elif g == lo:  # failed high: the least level above the new lower bound
                j = i0
            else:  # failed low: the greatest level at most the new upper bound
                j = i1 - 1
            beta = levels[j]
        else:
            if first:
                g = np.int64(0)
            beta = max(g, lo + 1)
            if beta > hi:
                beta = hi
        if MEMO_LEARN > 0:  # every probe learns afresh which side's memo moves cut (the refuting side changes)
            for j in range(4 * MEMO_BUCKETS):
                ctx[C_MCOUNT + j] = 0
        if ORDER_LEARN > 0:  # every probe learns afresh where the alternative ordering cuts
            for j in range(2 * ALT_CLASSES):
                ctx[C_OCOUNT + j] = 0
        if PRESEARCH:  # and how often the pre-searches settle their node
            ctx[C_PTRY] = 0
            ctx[C_PCUT] = 0
            ctx[C_PSKIP] = 0
        first = False
        ctx[C_PROBES] += 1
        fr[d0, F_BM] = -1  # set only when the search expands stack[d0] (not on a static or table cut there)
        n0 = ctx[C_NODES]
        g = _search(stack, d0, beta - 1, beta, opts, ctx, moves, reps, scores, tt, hist, gt, fr, st)
        if plog.shape[0] > 1:  # the log: threshold, result, nodes (the number of searches in row 0)
            plog[0, 0] += 1
            if plog[0, 0] < plog.shape[0]:
                pr = plog[plog[0, 0]]
                pr[0] = beta
                pr[1] = g
                pr[2] = ctx[C_NODES] - n0
                pr[3] = ctx[C_ABORT]
        if ctx[C_ABORT] != 0:
            return np.int64(0)
        if g < beta:
            hi = g
        else:
            lo = g
            if d0 == 0:
                ctx[C_BMOVE] = fr[d0, F_BM]
    return lo


@njit(cache=True)
def minimax_plain(row, opts, root, objective):
    """Plain minimax (no pruning, no table, no merging) of ``row`` for ``root``'s side: a cross-check."""
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[C_MAX] = np.int64(1) << np.int64(62)
    ctx[C_ROOT] = root
    ctx[C_OBJ] = objective
    ctx[C_PLAIN] = 1
    stack = np.empty((MAX_DEPTH + 2, row.shape[0]), dtype=np.int64)
    for d in range(MAX_DEPTH + 2):
        stack[d, :] = row
    moves = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    reps = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    scores = np.zeros((MAX_DEPTH + 2, MAX_MOVES), dtype=np.int64)
    fr = np.zeros((MAX_DEPTH + 2, F_LEN), dtype=np.int64)
    tt = np.zeros((2, TT_COLS), dtype=np.int64)
    hist = np.zeros(1, dtype=np.int64)
    gt = np.zeros(1, dtype=np.int64)
    st = np.zeros((1, ST_LEN), dtype=np.int64)
    return _search(stack, 0, -INF, INF, opts, ctx, moves, reps, scores, tt, hist, gt, fr, st)
