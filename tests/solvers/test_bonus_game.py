"""The Dreierles Pfeife bonus game (``tarockrl/solvers/adapters/_dreierles_bonus.py``) and the cut the solver
makes with it (``bonus_floor`` in the adapter, ``BONUS_BITS`` in the template).

The bonus game's answer is checked against plain minimax of the real game under a rule set whose silent Pfeife
bonus (1000 per side) outweighs every other part of the settlement: there the declarer's value is above -1000
exactly when he can keep the bonus from the defenders. Positions: random descents from whole deals of the
benchmark in which a defender holds the Pfeife (seeds 8, 15, 17, 19, 60, 70) or the declarer holds it silently
(seeds 4, 11, 27, 32, 45, 47, 52, 65, 69)."""

from __future__ import annotations

import numpy as np

import tarockrl
import tarockrl.solvers.adapters.dreierles as A
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreierles.cards import PFEIFE
from tarockrl.solvers import STATS_COLUMNS, solver_for
from tarockrl.solvers.adapters._dreierles_bonus import DENIED, SCORED, UNKNOWN, bonus_game
from tests.solvers._minimax import assert_solve_matches_minimax
from tests.solvers.test_pfeife_sweep import _descents as pfeife_descents

BITS = np.int64(12)
BIG = np.int64(1 << 40)


def _holder(row) -> int:
    return next((s for s in range(3) if row[DL.HAND + s] & PFEIFE), -1)


def _descents(seeds, tricks_left, count, trick_n=0, declarers=False):
    """The Pfeife sweeps' random descents (``tests/solvers/test_pfeife_sweep.py``) in which a defender still holds
    the Pfeife (with ``declarers``: the declarer, not announced)."""
    for s in pfeife_descents(seeds, tricks_left, count, trick_n):
        h = _holder(s._row)
        if (h == s._row[DL.DECLARER] and s._row[DL.ANNOUNCED] != 1) if declarers else h != s._row[DL.DECLARER]:
            yield s


def _bonus_decides_opts():
    return tarockrl.make_game("dreierles", pfeife_value_silent=1000).encoded_options


def _game(row, table, budget=BIG):
    return bonus_game(row[DL.HAND], row[DL.HAND + 1], row[DL.HAND + 2], row[DL.CUR], row[DL.DECLARER],
                      np.int64(_holder(row)), table, np.int64(0), BITS, np.int64(0), budget)


def test_bonus_game_matches_minimax_of_the_real_game():
    """At trick starts with 2-5 tricks left: the answer (with a fresh table, and with one table shared by every
    position, whose answers then come from rank-equal positions too) equals plain minimax where the bonus
    outweighs everything else; both answers occur often enough to count."""
    k = solver_for("dreierles").kernels
    opts = _bonus_decides_opts()
    shared = np.zeros(2 << int(BITS), dtype=np.int64)
    seen = {DENIED: 0, SCORED: 0}
    own = 0
    defenders = _descents((8, 15, 17, 19, 60, 70), (2, 3, 4, 5), 80)
    declarers = _descents((4, 11, 27, 32, 45, 47, 52, 65, 69), (2, 3, 4, 5), 40, declarers=True)
    for s in [*defenders, *declarers]:
        row = s._row
        d = int(row[DL.DECLARER])
        denied = int(k.minimax_plain(row.copy(), opts, np.int64(d), np.int64(0))) > -1000
        want = DENIED if denied else SCORED
        r, nodes = _game(row, np.zeros(2 << int(BITS), dtype=np.int64))
        assert r == want and nodes >= 0
        assert _game(row, shared)[0] == want
        seen[want] += 1
        own += int(_holder(row) == d)
    assert seen[DENIED] >= 10 and seen[SCORED] >= 10 and own >= 20, (seen, own)


def test_bonus_game_gives_up_at_its_budget_and_stores_nothing():
    """With a budget of one node a position that needs a search answers UNKNOWN and leaves the table empty; the
    full search then answers."""
    table = np.zeros(2 << int(BITS), dtype=np.int64)
    for s in _descents((17, 70), (5,), 20):
        r, nodes = _game(s._row, table, np.int64(1))
        if r == UNKNOWN:
            assert nodes > 1 and not table.any()
            assert _game(s._row, table)[0] in (DENIED, SCORED)
            return
    raise AssertionError("no position needed more than one node")


def test_bonus_floor_only_at_trick_starts_and_silent():
    """``bonus_floor`` asks the bonus game only at a trick start, and for the declarer's Pfeife only when it was not
    announced (a failed announcement is in the table of values already)."""
    table = np.zeros(2 << A.BONUS_BITS, dtype=np.int64)
    mid = next(_descents((8, 15, 17, 19, 60, 70), (4, 5, 6), 20, trick_n=1))
    assert A.bonus_floor(mid._row, mid.game.encoded_options, table, np.int64(0), np.int64(5)) == (False, 0)
    game = tarockrl.make_game("dreierles")
    s = next(_descents(range(40), (4, 5, 6), 5, declarers=True))  # the declarer's silent Pfeife: asked
    assert A.bonus_floor(s._row, game.encoded_options, table, np.int64(0), np.int64(5))[1] > 0
    row = s._row.copy()
    row[DL.ANNOUNCED] = 1  # the same, announced: not asked
    assert A.bonus_floor(row, game.encoded_options, table, np.int64(0), np.int64(5)) == (False, 0)
    s = next(_descents((8, 15, 17, 19, 60, 70), (4, 5, 6), 20))
    floor, nodes = A.bonus_floor(s._row, game.encoded_options, table, np.int64(0), np.int64(5))
    assert floor == (_game(s._row, np.zeros(2 << int(BITS), dtype=np.int64))[0] == DENIED)


def test_values_stay_exact_where_the_bonus_game_cuts():
    """Whole solves (every root action, and the value alone) against plain minimax at positions with 4-5 tricks
    left and a defender's Pfeife, at every position in a trick, the root either side; the cut fires in enough of
    them to count."""
    solver = solver_for("dreierles")
    col = STATS_COLUMNS.index("bonus_nodes")
    checked = fired = 0
    for trick_n in (0, 1, 2):
        for s in [*_descents((8, 15, 17, 19, 60, 70), (4, 5), 15, trick_n),
                  *_descents((4, 11, 27, 32, 45), (4, 5), 8, trick_n, declarers=True)]:
            st = np.zeros(solver.search_stats_shape(), dtype=np.int64)
            assert_solve_matches_minimax(solver, s, st)
            fired += int(st[:, col].sum() > 0)
            checked += 1
    assert checked >= 40 and fired >= 10, (checked, fired)
