"""The points-only pre-search at threshold nodes (template ``PRESEARCH``, Dreierles ``pre_at``).

At a trick start with the Pfeife bonus open (in Dreierles: an announced Pfeife, 2-8 tricks left), the search may
first solve the same position for the points alone (objective ``OBJ_NO_BONUS``: every node below is additive).
Its value ``g`` bounds the real one within the bonus range of every play, so where the range's end on one side is
0 the pre-search's result on that side of the window settles the node. Checked here against plain minimax, with
the pre-search firing often enough to count."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreierles.cards import PFEIFE
from tarockrl.solvers import STATS_COLUMNS, solver_for
from tarockrl.solvers._common import OBJ_NO_BONUS
from tests.solvers._minimax import assert_solve_matches_minimax
from tests.solvers.test_bonus_game import _descents


def test_values_stay_exact_where_the_pre_search_settles_nodes():
    """Whole solves (every root action, and the value alone) against plain minimax with 4-5 tricks left and the
    declarer's announced Pfeife in his hand, at every position in a trick, the root either side; pre-searches run
    and settle nodes in enough of them to count. With a defender's Pfeife none runs (the adapter's ``pre_at``)."""
    solver = solver_for("dreierles")
    tries = STATS_COLUMNS.index("pre_searches")
    cuts = STATS_COLUMNS.index("pre_cuts")
    checked = ran = settled = 0
    for trick_n in (0, 1, 2):
        for s in _descents((3, 7, 26, 42, 58, 62, 64, 72), (4, 5), 8, trick_n, announced=True):
            st = np.zeros(solver.search_stats_shape(), dtype=np.int64)
            assert_solve_matches_minimax(solver, s, st)
            ran += int(st[:, tries].sum() > 0)
            settled += int(st[:, cuts].sum() > 0)
            checked += 1
    assert checked >= 30 and ran >= 15 and settled >= 10, (checked, ran, settled)
    for s in _descents((8, 15, 70), (4, 5), 4):
        st = np.zeros(solver.search_stats_shape(), dtype=np.int64)
        assert_solve_matches_minimax(solver, s, st)
        assert st[:, tries].sum() == 0


def test_a_finished_deal_without_the_bonus_is_the_table_at_the_final_points():
    """The pre-search's leaf value (``OBJ_NO_BONUS``) is the monotone table at the declarer's final points. Where
    the Pfeife was played before the 16th trick (so no bonus was scored, or an announced one failed, which the
    table holds) that equals the game's own settlement: the identity the additive positions rest on."""
    solver = solver_for("dreierles")
    k = solver.kernels
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    rng = np.random.default_rng(5)
    checked = 0
    for deal in range(300):
        s = game.new_initial_state(seed=deal)
        while not s.is_terminal() and int(s._row[DL.PHASE]) != DL.PLAY:
            s.apply_action(int(rng.choice(s.legal_actions())))
        if s.is_terminal() or int(s._row[DL.RAEUBER]) != 0:
            continue
        start = s._row.copy()
        d = int(start[DL.DECLARER])
        while not (int(s._row[DL.TRICK_NO]) == 15 and int(s._row[DL.TRICK_N]) == 0):
            s.apply_action(int(rng.choice(s.legal_actions())))
        in_last_trick = any(int(s._row[DL.HAND + p]) & PFEIFE for p in range(3))
        while not s.is_terminal():
            s.apply_action(int(rng.choice(s.legal_actions())))
        if in_last_trick:
            continue
        gt = np.zeros(k.GT_LEN, dtype=np.int64)
        glen = k.gtable(start, opts, np.int64(d), np.int64(0), gt)
        value = k._leaf_value(s._row, opts, np.int64(d), np.int64(OBJ_NO_BONUS), gt, glen)
        assert value == int(s._row[DL.RESULT + d]) == int(k.leaf(s._row, opts, np.int64(d), np.int64(0)))
        checked += 1
    assert checked >= 100, checked
