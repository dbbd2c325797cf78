"""The Dreierles Pfeife bonus game (``tarockrl/solvers/adapters/_dreierles_bonus.py``) and the cut the solver
makes with it (``bonus_amounts`` and ``bonus_claim`` in the adapter, ``BONUS_BITS`` in the template).

The bonus game's answer is checked against plain minimax of the real game under a rule set whose silent Pfeife
bonus (1000 per side) outweighs every other part of the settlement: there the declarer's value is above -1000
exactly when he can keep the bonus from the defenders. Positions: random descents from whole deals of the
benchmark in which a defender holds the Pfeife (seeds 8, 15, 17, 19, 60, 70) or the declarer holds it silently
(seeds 4, 11, 27, 32, 45, 47, 52, 65, 69) or announced (seeds 3, 7, 26, 42, 58, 62, 64, 72)."""

from __future__ import annotations

import numpy as np

import tarockrl
import tarockrl.solvers.adapters.dreierles as A
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreierles.cards import PFEIFE
from tarockrl.solvers import STATS_COLUMNS, solver_for
from tarockrl.solvers.adapters._dreierles_bonus import DENIED, MINE, SCORED, THEIRS, UNKNOWN, bonus_game
from tests.solvers._minimax import assert_solve_matches_minimax
from tests.solvers.test_pfeife_sweep import _descents as pfeife_descents

BITS = np.int64(12)
BIG = np.int64(1 << 40)


def _holder(row) -> int:
    return next((s for s in range(3) if row[DL.HAND + s] & PFEIFE), -1)


def _descents(seeds, tricks_left, count, trick_n=0, declarers=False, announced=False):
    """The Pfeife sweeps' random descents (``tests/solvers/test_pfeife_sweep.py``) in which a defender still holds
    the Pfeife (with ``declarers``: the declarer, not announced; with ``announced``: the declarer, announced)."""
    for s in pfeife_descents(seeds, tricks_left, count, trick_n):
        row = s._row
        own = _holder(row) == row[DL.DECLARER]
        if own and (declarers or announced) and (row[DL.ANNOUNCED] == 1) == announced:
            yield s
        elif not (own or declarers or announced):
            yield s


def _bonus_decides_opts():
    return tarockrl.make_game("dreierles", pfeife_value_silent=1000, pfeife_value_announced=1000).encoded_options


def _game(row, table, budget=BIG, question=THEIRS):
    return bonus_game(row[DL.HAND], row[DL.HAND + 1], row[DL.HAND + 2], row[DL.CUR], row[DL.DECLARER],
                      np.int64(_holder(row)), table, np.int64(0), BITS, np.int64(0), budget, question)


def test_bonus_game_matches_minimax_of_the_real_game():
    """At trick starts with 2-5 tricks left, both questions: the answer (with a fresh table, and with one table
    shared by every position, whose answers then come from rank-equal positions too) equals plain minimax where
    the bonus outweighs everything else (silent or announced 1000: the declarer's value is above -1000 exactly
    when he can keep the defenders from scoring, above 1000 when silent and above 0 when announced exactly when he
    can make his own Pfeife win the 16th trick); every answer occurs often enough to count."""
    k = solver_for("dreierles").kernels
    opts = _bonus_decides_opts()
    shared = np.zeros(2 << int(BITS), dtype=np.int64)
    seen = {(q, a): 0 for q in (THEIRS, MINE) for a in (DENIED, SCORED)}
    defenders = _descents((8, 15, 17, 19, 60, 70), (2, 3, 4, 5), 80)
    declarers = _descents((4, 11, 27, 32, 45, 47, 52, 65, 69), (2, 3, 4, 5), 40, declarers=True)
    announced = _descents((3, 7, 26, 42, 58, 62, 64, 72), (2, 3, 4, 5), 40, announced=True)
    for s in [*defenders, *declarers, *announced]:
        row = s._row
        d = int(row[DL.DECLARER])
        value = int(k.minimax_plain(row.copy(), opts, np.int64(d), np.int64(0)))
        questions = []
        if row[DL.ANNOUNCED] != 1:
            questions.append((THEIRS, DENIED if value > -1000 else SCORED))
        if _holder(row) == d:
            questions.append((MINE, SCORED if value > (0 if row[DL.ANNOUNCED] == 1 else 1000) else DENIED))
        for q, want in questions:
            r, nodes = _game(row, np.zeros(2 << int(BITS), dtype=np.int64), question=q)
            assert r == want and nodes >= 0, (q, r, want)
            assert _game(row, shared, question=q)[0] == want
            seen[q, want] += 1
    assert min(seen.values()) >= 5, seen


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


def test_bonus_amounts_only_at_trick_starts():
    """``bonus_amounts`` puts a bonus at stake only at a trick start: the defenders' for a defender's Pfeife, both
    for the declarer's silent one, only his own for an announced one (its failure is in the table of values
    already), each signed for the root's side; ``bonus_claim`` answers as the bonus game does."""
    opts = tarockrl.make_game("dreierles").encoded_options
    table = np.zeros(2 << A.BONUS_BITS, dtype=np.int64)
    mid = next(_descents((8, 15, 17, 19, 60, 70), (4, 5, 6), 20, trick_n=1))
    assert A.bonus_amounts(mid._row, opts, np.int64(mid._row[DL.DECLARER])) == (0, 0)
    s = next(_descents(range(40), (4, 5, 6), 5, declarers=True))
    d = int(s._row[DL.DECLARER])
    theirs, mine = A.bonus_amounts(s._row, opts, np.int64(d))
    assert theirs < 0 < mine and theirs == -mine
    assert A.bonus_amounts(s._row, opts, np.int64((d + 1) % 3)) == (-theirs, -mine)
    row = s._row.copy()
    row[DL.ANNOUNCED] = 1
    theirs, mine = A.bonus_amounts(row, opts, np.int64(d))
    assert theirs == 0 and mine > 0
    for question in (THEIRS, MINE):
        fresh = np.zeros(2 << int(BITS), dtype=np.int64)
        answer, nodes = A.bonus_claim(s._row, opts, table, np.int64(0), np.int64(5), np.int64(question))
        assert answer == _game(s._row, fresh, question=question)[0] and nodes > 0
    s = next(_descents((8, 15, 17, 19, 60, 70), (4, 5, 6), 20))
    d = int(s._row[DL.DECLARER])
    theirs, mine = A.bonus_amounts(s._row, opts, np.int64(d))
    assert theirs < 0 and mine == 0


def test_values_stay_exact_where_the_bonus_game_cuts():
    """Whole solves (every root action, and the value alone) against plain minimax at positions with 4-5 tricks
    left and the Pfeife in a hand (a defender's, the declarer's silent or announced one), at every position in a
    trick, the root either side; the cut fires in enough of them to count."""
    solver = solver_for("dreierles")
    col = STATS_COLUMNS.index("bonus_nodes")
    checked = fired = 0
    for trick_n in (0, 1, 2):
        for s in [*_descents((8, 15, 17, 19, 60, 70), (4, 5), 15, trick_n),
                  *_descents((4, 11, 27, 32, 45), (4, 5), 8, trick_n, declarers=True),
                  *_descents((3, 26, 62, 64, 72), (4, 5), 8, trick_n, announced=True)]:
            st = np.zeros(solver.search_stats_shape(), dtype=np.int64)
            assert_solve_matches_minimax(solver, s, st)
            fired += int(st[:, col].sum() > 0)
            checked += 1
    assert checked >= 60 and fired >= 20, (checked, fired)
