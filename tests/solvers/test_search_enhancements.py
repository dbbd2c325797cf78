"""The search enhancements of the solver template that adapters switch on (``hist_slot``: one history table per
position in the trick; ``PLAYOUT_GUESS``: MTD(f) starts from the value of one playout by the ``hint``;
``HIST_MALUS``: a cutoff also lowers the history of the moves tried before the cutting one), and the order in
which a ``value_only`` root that a cut settled tries its actions for a best one (``_root_order``).

They change only the order of the search, never a value: checked against the plain minimax compiled in the
solver's kernels (``minimax_plain``: no pruning, no table, no merging) on Dreierles positions at every position
in a trick, in both solve modes and for both objectives; the playout guess against a playout replayed through
the public State API.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import layout as DL
from tarockrl.solvers import _salt_of, solver_for
from tarockrl.solvers._bind import search_module
from tests.solvers._minimax import assert_solve_matches_minimax


def _positions(tricks: int, count: int, pass_all: bool = False, seed0: int = 1000, options: dict | None = None,
               spread: bool = False):
    """Dreierles play positions with at most ``tricks`` tricks left, at every position in the trick (0, 1, 2
    cards played to it, in turn), from random play (deals ``seed0``, ``seed0 + 1``, ...). With ``spread`` at
    least a random number of tricks is done first, so that any seat may be on lead."""
    game = tarockrl.make_game("dreierles", **(options or {}))
    out, seed = [], 0
    while len(out) < count and seed < 40 * count:
        rng = random.Random(seed0 + seed)
        state = game.new_initial_state(seed=seed0 + seed)
        seed += 1
        want = len(out) % 3
        done = rng.randrange(16 - tricks, 15) if spread else 16 - tricks
        while not state.is_terminal():
            row = state._row
            if row[DL.PHASE] == DL.PLAY and row[DL.TRICK_NO] >= done and row[DL.TRICK_N] == want:
                out.append(state)
                break
            legal = state.legal_actions()
            a = DL.A_PASS if pass_all and row[DL.PHASE] == DL.AUCTION else rng.choice(legal)
            state.apply_action(a)
    assert len(out) == count
    return out


def test_adapters_switch_the_enhancements():
    """Dreierles uses all three (the playout guess with a one-step lookahead, level 2); Troccas the playout guess,
    the malus and a refutation memo; the other games keep the defaults (one history table, MTD(f) from the level
    nearest 0, no history malus)."""
    assert search_module("dreierles").PLAYOUT_GUESS == 2
    assert search_module("dreierles").HIST_MALUS is True
    assert search_module("dreierles").BAND_FIRST is True
    assert search_module("dreierles").HIST_BAND_SHIFT == 2
    assert search_module("dreierles").MEMO_BITS == 18
    assert search_module("dreierles").MEMO_LEARN == 25
    assert search_module("dreierles").ORDER_LEARN == 50
    assert search_module("dreierles").PAYOFF_SIM == 1 and search_module("dreierles").TT_COLS == 8
    assert search_module("dreierles").PRESEARCH is True and search_module("troccas").PRESEARCH is False
    troccas = search_module("troccas")  # the playout guess (level 1), the malus and a memo, nothing learned
    assert troccas.PLAYOUT_GUESS == 1 and troccas.HIST_MALUS is True and troccas.MEMO_BITS == 18
    assert troccas.MEMO_LEARN == 0 and troccas.ORDER_LEARN == 0 and troccas.BAND_FIRST is False
    assert troccas.HIST_LEN == troccas.HIST_BASE + 2 * (1 << 18)
    for name in ("dreiertarock", "tatteln"):
        m = search_module(name)
        assert m.PLAYOUT_GUESS is False
        assert m.HIST_MALUS is False
        assert m.BAND_FIRST is False
        assert m.HIST_BAND_SHIFT == 0
        assert m.MEMO_BITS == 0
        assert m.MEMO_LEARN == 0
        assert m.ORDER_LEARN == 0
        assert m.PAYOFF_SIM == 0 and m.TT_COLS == 7  # no payoff-similar entries, no values column
        assert m.PRESEARCH is False
        assert m.CTX_LEN == m.C_MCOUNT  # no memo counters, no alternative-order counters, no pre-search counters
        assert m.F_LEN == 20
        assert m.HIST_LEN == m.NUM_PLAYERS * m.NUM_PLAYERS * m.NUM_ACTIONS


@pytest.mark.parametrize("pass_all", [False, True], ids=["contract", "raeuber"])
@pytest.mark.parametrize("objective", ["returns", "card_points"])
def test_values_stay_exact(objective, pass_all):
    """Every root action's value (full mode) and the value alone (``value_only``) equal plain minimax, with the
    history per trick position, the history malus and the playout guess in use, at every position in a trick."""
    solver = solver_for("dreierles")
    k = solver.kernels
    obj = 0 if objective == "returns" else 1
    slots = set()
    for state in _positions(4, 9, pass_all):
        row = state._row
        root = int(state.current_player())
        slots.add(int(k.hist_slot(row)))
        opts = state.game.encoded_options
        plain = int(k.minimax_plain(row.copy(), opts, np.int64(root), np.int64(obj)))
        r = solver.solve(state, objective=objective)
        assert r.value == plain
        for a, v in r.action_values.items():
            child = state.clone()
            child.apply_action(a)
            want = int(k.minimax_plain(child._row.copy(), opts, np.int64(root), np.int64(obj)))
            assert v == want, (a, v, want)
        rv = solver.solve(state, objective=objective, value_only=True)
        assert rv.value == plain
        child = state.clone()
        child.apply_action(rv.best_action)
        assert int(k.minimax_plain(child._row.copy(), opts, np.int64(root), np.int64(obj))) == plain
    assert slots == {0, 1, 2}


def _playout_arrays(k, row, root):
    """The arrays the template's playouts take: the search stack (every row a copy of ``row``), the context with
    the root seat, and the per-depth move and representative lists."""
    ctx = np.zeros(k.CTX_LEN, dtype=np.int64)
    ctx[k.C_ROOT] = root
    stack = np.empty((k.MAX_DEPTH + 2, row.shape[0]), dtype=np.int64)
    stack[:] = row
    moves = np.zeros((k.MAX_DEPTH + 2, k.MAX_MOVES), dtype=np.int64)
    reps = np.zeros((k.MAX_DEPTH + 2, k.MAX_MOVES), dtype=np.int64)
    return stack, ctx, moves, reps


def test_playout_guess_is_a_real_outcome():
    """``_playout`` returns the value of the playout in which every seat takes the first legal action with the
    highest ``hint``, replayed here through the public State API."""
    solver = solver_for("dreierles")
    k = solver.kernels
    for state in _positions(6, 6):
        row = state._row
        root = int(state.current_player())
        opts = state.game.encoded_options
        stack, ctx, moves, reps = _playout_arrays(k, row, root)
        got = int(k._playout(stack, opts, ctx, moves, reps))
        s = state.clone()
        while not s.is_terminal():
            legal = sorted(s.legal_actions())
            hints = [int(k.hint(s._row, opts, np.int64(a), np.int64(root))) for a in legal]
            s.apply_action(legal[hints.index(max(hints))])
        want = int(k.leaf(s._row, opts, np.int64(root), np.int64(0)))
        assert got == want
        assert (stack[0] == row).all()  # the root row is left as it was


def _greedy_value(state, k, opts, root):
    """The ``hint`` playout's value for ``root`` (the first legal action with the highest hint), by the State API."""
    s = state.clone()
    while not s.is_terminal():
        legal = sorted(s.legal_actions())
        hints = [int(k.hint(s._row, opts, np.int64(a), np.int64(root))) for a in legal]
        s.apply_action(legal[hints.index(max(hints))])
    return int(k.leaf(s._row, opts, np.int64(root), np.int64(0)))


def test_lookahead_playout_guess_is_a_real_outcome():
    """``_playout_look`` (``PLAYOUT_GUESS = 2``) returns the value of the playout in which every seat takes, among
    one action per class of equivalent actions (in ascending order), the first whose ``hint`` playout after it is
    best for its side: replayed here through the public State API."""
    solver = solver_for("dreierles")
    k = solver.kernels
    for state in _positions(5, 6):
        row = state._row
        root = int(state.current_player())
        opts = state.game.encoded_options
        stack, ctx, moves, reps = _playout_arrays(k, row, root)
        got = int(k._playout_look(stack, opts, ctx, moves, reps))
        s = state.clone()
        mv = np.zeros(k.MAX_MOVES, dtype=np.int64)
        rp = np.zeros(k.MAX_MOVES, dtype=np.int64)
        while not s.is_terminal():
            n = int(k.gen(s._row, opts, mv, rp, np.int64(1)))
            reps_ = [int(mv[i]) for i in range(n) if rp[i] == i]
            assert set(reps_) <= set(s.legal_actions())
            maximize = int(k.side(s._row, np.int64(s.current_player()), np.int64(root))) == 0
            values = []
            for a in reps_:
                c = s.clone()
                c.apply_action(a)
                values.append(_greedy_value(c, k, opts, root))
            pick = values.index(max(values) if maximize else min(values))
            s.apply_action(reps_[pick])
        assert got == int(k.leaf(s._row, opts, np.int64(root), np.int64(0)))
        assert (stack[0] == row).all()


def test_band_first_values_stay_exact_with_the_pfeife_in_play():
    """``BAND_FIRST``: with the Pfeife still in a hand (its bonus undecided, so the root's levels are each
    settlement step plus the bonus range), MTD(f) first tests only the steps' lowest values and then the levels
    inside the step found. A different order of probes, never a different value: every root action's value and
    the value alone against plain minimax, at every position in a trick."""
    solver = solver_for("dreierles")
    k = solver.kernels
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    found, seed = 0, 0
    while found < 9 and seed < 600:
        rng = random.Random(5000 + seed)
        state = game.new_initial_state(seed=5000 + seed)
        seed += 1
        want = found % 3
        while not state.is_terminal():
            row = state._row
            if (row[DL.PHASE] == DL.PLAY and 16 - row[DL.TRICK_NO] <= 4 and row[DL.TRICK_N] == want
                    and row[DL.RAEUBER] == 0
                    and any(row[DL.HAND + s] & 1 for s in range(3))):  # card 0, the Pfeife, in a hand
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        row = state._row
        root = int(state.current_player())
        blo, bhi = k.bonus_range(row, opts, np.int64(root))
        if blo >= bhi:
            continue
        found += 1
        assert_solve_matches_minimax(solver, state)
    assert found == 9


def test_value_only_best_action_after_a_cut_at_the_root():
    """With ``value_only``, a root whose value a static bound or a table entry settled has no best move from its
    last search; ``_root_order`` then gives the root's representative actions (each once) in the search's order,
    and the first that reaches the value is returned: it must be a best action by the full solve. The test counts
    that such roots occur (the root cut at least once) so the path is exercised."""
    from tarockrl.solvers import STATS_COLUMNS

    solver = solver_for("dreierles")
    k = solver.kernels
    cut_cols = [STATS_COLUMNS.index("static_cut"), STATS_COLUMNS.index("tt_cut")]
    root_cut = 0
    for state in _positions(5, 60):
        st = np.zeros(solver.search_stats_shape(), dtype=np.int64)
        r = solver.solve(state, value_only=True, stats=st)
        full = solver.solve(state)
        assert r.value == full.value
        assert full.action_values[r.best_action] == full.value, state.history()
        root_cut += int(st[0, cut_cols].sum() > 0)
        # the order itself: every representative once
        row = state._row
        opts = state.game.encoded_options
        moves = np.zeros(k.MAX_MOVES, dtype=np.int64)
        reps = np.zeros(k.MAX_MOVES, dtype=np.int64)
        n = k.gen(row, opts, moves, reps, 1)
        ctx = np.zeros(k.CTX_LEN, dtype=np.int64)
        ctx[k.C_ROOT] = k.cur(row)
        ctx[k.C_NOTT] = 1
        order = np.zeros(k.MAX_MOVES, dtype=np.int64)
        m = k._root_order(row, opts, ctx, moves, reps, n, solver._tt, solver._hist, order)
        assert sorted(order[:m].tolist()) == sorted(int(moves[i]) for i in range(n) if reps[i] == i)
    assert root_cut >= 5


def _assert_equals_unpruned_search(sol, state) -> None:
    """Every root action's value and the value-only value of ``state`` equal alpha-beta without the table and
    without merging (a search of another order)."""
    ref = sol.solve(state, table=False, merge=False)
    assert sol.solve(state).action_values == ref.action_values
    assert sol.solve(state, value_only=True).value == ref.value


# Positions of 9 tricks left whose unpruned reference search takes 20 s to 4 min each (20M-3.1G nodes): the
# memo tests below check the cheaper ones in the default suite and these in the slow suite.
_EXPENSIVE_NINE_TRICK_POSITIONS = [(6, 0), (6, 1), (8, 6), (8, 7), (10, 9)]


@pytest.mark.slow
@pytest.mark.parametrize("count,index", _EXPENSIVE_NINE_TRICK_POSITIONS)
def test_memo_and_learned_orders_keep_expensive_positions_exact(count, index):
    """The refutation memo, the side-aware memo and the learned follow order (all on in Dreierles) keep every root
    action's value and the value-only value of these positions of 9 tricks left equal to the unpruned search's."""
    _assert_equals_unpruned_search(solver_for("dreierles"), _positions(9, count)[index])


def test_refutation_memo_values_stay_exact():
    """The refutation memo (``MEMO_BITS``/``memo_key``: a defender's trick start of the first ``MEMO_TRICKS`` (10)
    tricks without a table move tries first the lead that last cut with the same hand) changes only the order:
    positions with 9 tricks left (the memo in use at their first three trick starts), every root action's value and
    the value-only value against alpha-beta without the table and without merging (a search of another order); and
    the memo is used (it holds entries, each a card play of the game). Then whole deals, where the memo orders most
    of the defenders' leads in the upper tree: their values as the search without the memo found them (main before
    the memo, docs/solver.md, round oracle11)."""
    sol = solver_for("dreierles")
    k = sol.kernels
    used = 0
    for state in _positions(9, 6)[2:]:  # 0 and 1: in the slow suite
        _assert_equals_unpruned_search(sol, state)
        used += int(np.count_nonzero(sol._hist[k.HIST_BASE:k.BONUS_BASE:2]))
    assert used > 0
    memo = sol._hist[k.HIST_BASE:k.BONUS_BASE].reshape(-1, 2)
    moves = memo[memo[:, 0] != 0, 1]
    assert ((moves >= DL.A_PLAY) & (moves < DL.A_PLAY + 54)).all()
    from tarockrl.solvers.bench import _position

    game = tarockrl.make_game("dreierles")
    for seed, value in ((6, -56), (7, -124), (8, -163)):
        assert sol.solve(_position(game, seed, 16), value_only=True, max_nodes=5_000_000).value == value


def _value_only_solve_root(sol, row, opts, salt_seed: int, value: int) -> np.ndarray:
    """A kernel-level value-only ``solve_root`` of ``row`` with ``sol``'s table and a cleared history, the table and
    memo salt from ``salt_seed``; checks that it finished with ``value`` and returns its context (memo counters)."""
    k = sol.kernels
    ctx, _, _, values = sol._run_kernel(row, opts, salt=_salt_of(salt_seed), budget=10_000_000, value_only=True)
    assert ctx[k.C_ABORT] == 0 and values[0] == value
    return ctx


def test_memo_learn_values_stay_exact_and_score_both_sides():
    """The side-aware memo (``MEMO_LEARN``: both sides' trick starts have memo slots; a side's memo move is tried
    first only where that side's memo moves cut in at least ``MEMO_LEARN`` % of the nodes scored so far in the
    probe, per depth bucket) changes only the order: positions with 9 tricks left (the memo at their first two
    trick starts, the declarer's or the defenders'), every root action's value and the value-only value against
    alpha-beta without the table and without merging. Then a kernel-level whole-deal solve (deal 6): in its last
    probe the memo moves of both sides were scored (the counters hold nodes of side 0 and side 1). Then whole
    deals' values as main before the side-aware memo found them (docs/solver.md, round memo12)."""
    sol = solver_for("dreierles")
    k = sol.kernels
    positions = _positions(9, 14)
    for index in (10, 13):  # beyond the plain memo test's; 6 and 7 in the slow suite
        _assert_equals_unpruned_search(sol, positions[index])
    from tarockrl.solvers.bench import _position

    game = tarockrl.make_game("dreierles")
    ctx = _value_only_solve_root(sol, _position(game, 6, 16)._row.copy(), game.encoded_options, 12345, -56)
    counts = ctx[k.C_MCOUNT:k.C_OCOUNT].reshape(k.MEMO_BUCKETS, 4)  # per bucket: hits side 0, 1; misses side 0, 1
    assert (counts[:, 0] + counts[:, 2]).sum() > 0 and (counts[:, 1] + counts[:, 3]).sum() > 0
    assert counts[:, :2].sum() > 0
    for seed, value in ((1, -45), (6, -56), (8, -163), (10, -32), (3, -52)):  # deal 3: 10.9M nodes
        assert sol.solve(_position(game, seed, 16), value_only=True, max_nodes=20_000_000).value == value


def _memo_entries_found(sol, ctx, keys) -> int:
    """How many of the memo ``keys`` (``memo_key`` values) hold an entry in ``sol``'s memo under the salt of the
    last probe of the kernel-level solve whose context is ``ctx``."""
    k = sol.kernels
    found = 0
    for key in keys:
        mk = key ^ int(ctx[k.C_MSALT])
        found += int(sol._hist[k.HIST_BASE + 2 * (mk & (k.MEMO_LEN - 1))] == mk)
    return found


def test_memo_second_card_slots():
    """``MEMO_SECOND`` (Dreierles): the second card of tricks 1-10 (``MEMO_TRICKS``) has a memo slot, keyed by the
    mover, his hand and the led card (another led card, another slot; never a trick start's slot); third cards have
    none. A kernel-level solve of whole deal 6 writes second-card entries (the refutations of the first trick's
    leads are found in the memo under the last probe's salt). Then whole deals' values as the memo without second
    cards found them (docs/solver.md, round memo13; deal 6 as main, deals 0 and 20 as integ12)."""
    from tarockrl.solvers.bench import _position

    sol = solver_for("dreierles")
    k = sol.kernels
    from tarockrl.solvers.adapters import dreierles as adapter

    assert adapter.MEMO_SECOND is True
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    root = _position(game, 6, 16)._row.copy()
    moves = np.zeros(k.MAX_MOVES, dtype=np.int64)
    reps = np.zeros(k.MAX_MOVES, dtype=np.int64)
    n = k.gen(root, opts, moves, reps, np.int64(0))
    assert n >= 2
    start = int(k.memo_key(root))
    seconds, thirds = [], []
    for i in range(n):
        row = root.copy()
        k.apply(row, moves[i], opts)
        assert row[DL.TRICK_N] == 1
        seconds.append(int(k.memo_key(row)))
        m2 = k.gen(row, opts, moves.copy(), reps.copy(), np.int64(0))
        assert m2 >= 1
        mv2 = np.zeros(k.MAX_MOVES, dtype=np.int64)
        k.gen(row, opts, mv2, reps.copy(), np.int64(0))
        k.apply(row, mv2[0], opts)
        thirds.append(int(k.memo_key(row)))
    assert start >= 0 and min(seconds) >= 0
    assert len(set(seconds)) == n and start not in seconds  # each led card its own slot
    assert thirds == [-1] * n
    ctx = _value_only_solve_root(sol, root.copy(), opts, 4321, -56)
    assert _memo_entries_found(sol, ctx, seconds) > 0
    for seed, value in ((0, -48), (20, -120)):
        assert sol.solve(_position(game, seed, 16), value_only=True, max_nodes=20_000_000).value == value


def test_memo_deep_trick_start_slots():
    """``MEMO_DEEP`` (Dreierles): the trick starts of tricks 11-12 have memo slots too, keyed by the leader, his
    hand and the cards in play (not by his hand alone), and their second and third cards none (slots of tricks
    1-10 as before). The key does not change when the other two seats swap cards, and does when a card leaves
    play. The memo changes only the order: positions with 7 tricks left (the deep slots at their trick starts),
    every root action's value and the value-only value against alpha-beta without the table and without
    merging; a kernel-level solve of one of them writes deep entries (the trick-11 starts after its first trick
    are found in the memo under the last probe's salt). Then whole deals' values (docs/solver.md, round memo14)."""
    from tarockrl.solvers.adapters import dreierles as adapter
    from tarockrl.solvers.bench import _position

    assert adapter.MEMO_TRICKS == 10 and adapter.MEMO_DEEP == 12
    shallow, deep_end = adapter.MEMO_TRICKS, adapter.MEMO_DEEP
    sol = solver_for("dreierles")
    k = sol.kernels
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    deep = 0
    for seed in range(6):  # the slot classes along random card play
        rng = random.Random(seed)
        state = game.new_initial_state(seed=7000 + seed)
        while not state.is_terminal():
            row = state._row
            if row[DL.PHASE] == DL.PLAY and row[DL.RAEUBER] == 0:
                t, n = int(row[DL.TRICK_NO]), int(row[DL.TRICK_N])
                slot = (t < shallow and n <= 1) or (shallow <= t < deep_end and n == 0)
                assert (int(k.memo_key(row)) >= 0) == slot, (t, n)
                if shallow <= t < deep_end and n == 0:
                    deep += 1
                    p = int(row[DL.CUR])
                    q, r = (p + 1) % 3, (p + 2) % 3
                    cq = int(row[DL.HAND + q]) & -int(row[DL.HAND + q])
                    cr = int(row[DL.HAND + r]) & -int(row[DL.HAND + r])
                    swapped = row.copy()
                    swapped[DL.HAND + q] = row[DL.HAND + q] ^ cq ^ cr
                    swapped[DL.HAND + r] = row[DL.HAND + r] ^ cq ^ cr
                    assert k.memo_key(swapped) == k.memo_key(row)
                    gone = row.copy()
                    gone[DL.HAND + q] = row[DL.HAND + q] ^ cq
                    assert k.memo_key(gone) != k.memo_key(row)
                    other = row.copy()
                    other[DL.CUR] = q
                    assert k.memo_key(other) != k.memo_key(row)
            state.apply_action(rng.choice(state.legal_actions()))
    assert deep >= 6
    for state in _positions(7, 6):
        _assert_equals_unpruned_search(sol, state)
    root = next(s for s in _positions(7, 6) if s._row[DL.TRICK_N] == 0 and s._row[DL.RAEUBER] == 0)
    row0 = root._row.copy()
    value = sol.solve(root, value_only=True).value
    ctx = _value_only_solve_root(sol, row0.copy(), opts, 2468, value)
    keys = set()
    for a in root.legal_actions():  # the trick-11 starts after the first trick
        s1 = root.clone()
        s1.apply_action(a)
        for b in s1.legal_actions():
            s2 = s1.clone()
            s2.apply_action(b)
            for c in s2.legal_actions():
                s3 = s2.clone()
                s3.apply_action(c)
                assert s3._row[DL.TRICK_NO] == 10 and s3._row[DL.TRICK_N] == 0
                keys.add(int(k.memo_key(s3._row)))
    assert _memo_entries_found(sol, ctx, keys) > 0
    for seed, value in ((14, -26), (24, -36)):
        assert sol.solve(_position(game, seed, 16), value_only=True, max_nodes=20_000_000).value == value


def test_order_learn_values_stay_exact_and_count_both_orders():
    """The alternative order of the follows learned per probe (``ORDER_LEARN``: at a node of a class of
    ``alt_class`` without a table move, ``hint_alt``'s order where its first move has cut at least once and in at
    least ``ORDER_LEARN`` % of the counted cut nodes of that class in the probe, else ``hint_at``'s) changes only the
    order: positions with 9 tricks left, every root action's value and the value-only value against alpha-beta
    without the table and without merging. Then a kernel-level whole-deal solve (deal 6): in its last probe cut
    nodes of both kinds were counted (the cutting move was the alternative's first move at some, the default's at
    others), and the search used the alternative order (a class with a hit). Then whole deals' values as main
    before this round found them (docs/solver.md, round order14)."""
    sol = solver_for("dreierles")
    k = sol.kernels
    assert k.ORDER_LEARN == 50 and k.CTX_LEN == k.C_OCOUNT + 2 * k.ALT_CLASSES + 3
    positions = _positions(9, 17)
    for index in (8, 14, 16):  # 9 in the slow suite
        _assert_equals_unpruned_search(sol, positions[index])
    from tarockrl.solvers.bench import _position

    game = tarockrl.make_game("dreierles")
    ctx = _value_only_solve_root(sol, _position(game, 6, 16)._row.copy(), game.encoded_options, 777, -56)
    # per class: the alternative's first move cut, the default's (the pre-search's counters follow)
    counts = ctx[k.C_OCOUNT:k.C_PTRY].reshape(k.ALT_CLASSES, 2)
    assert counts[:, 0].sum() > 0 and counts[:, 1].sum() > 0
    assert counts[36:].sum() == 0  # classes 3 * trick (at most 11) + kind (0-2)
    for seed, value in ((1, -45), (7, -124), (8, -163), (10, -32), (20, -120)):
        assert sol.solve(_position(game, seed, 16), value_only=True, max_nodes=20_000_000).value == value
