"""The Dreierles Pfeife sweeps (``sweep`` in the adapter, ``pfeife_defender_sweep`` and ``pfeife_declarer_sweep``
in ``tarockrl/solvers/adapters/_dreierles_bounds.py``): where they claim a value, it is the exact value (plain
minimax), and solves whose trees they cut keep every value exact. Positions: random descents from whole deals of
the benchmark with the Pfeife in a hand and its bonus open (seed 11: the declarer holds it; seeds 8, 17, 19: a
defender)."""

from __future__ import annotations

import random

import numpy as np

import tarockrl
import tarockrl.solvers.adapters.dreierles as A
from tarockrl.games.dreierles import layout as DL
from tarockrl.solvers import solver_for
from tarockrl.solvers.bench import _position
from tests.solvers._minimax import assert_solve_matches_minimax


def _descents(seeds, tricks_left, count, trick_n=0):
    """Up to ``count`` positions per seed: random plays from the whole deal to ``trick_n`` cards into the trick
    with ``tricks_left`` tricks left (one of them per descent), the Pfeife still in a hand."""
    game = tarockrl.make_game("dreierles")
    for seed in seeds:
        base = _position(game, seed, 16)
        for i in range(count):
            rng = random.Random(1000 * seed + i)
            left = rng.choice(tricks_left)
            s = base.clone()
            while not s.is_terminal() and (16 - s._row[DL.TRICK_NO] > left or s._row[DL.TRICK_N] != trick_n):
                s.apply_action(rng.choice(s.legal_actions()))
            if s.is_terminal() or not any(s._row[DL.HAND + x] & 1 for x in range(3)):
                continue
            yield s


def _claim(k, row, opts, root, f, b):
    gt = np.zeros(k.GT_LEN, dtype=np.int64)
    k.gtable(row, opts, np.int64(root), np.int64(0), gt)
    return int(gt[int(k.apast(row, opts)) + int(f)] + b)


def test_pfeife_sweeps_claim_the_exact_value():
    """Every claim of ``sweep`` (4-5 tricks left) equals plain minimax; both sweeps fire often enough to count."""
    solver = solver_for("dreierles")
    k = solver.kernels
    opts = tarockrl.make_game("dreierles").encoded_options
    fired = {True: 0, False: 0}  # the declarer's sweep, the defenders'
    after_lead = 0  # the defenders' sweep after the declarer's lead
    for s in [*_descents((11,), (4, 5), 150), *_descents((8, 17, 19), (4, 5), 40)]:
        row = s._row
        root = int(s.current_player())
        ok, f, b = A.sweep(row, opts, np.int64(root))
        if not ok:
            continue
        decl_holds = bool(row[DL.HAND + row[DL.DECLARER]] & 1)
        fired[decl_holds] += 1
        after_lead += not decl_holds and row[DL.CUR] == row[DL.DECLARER]
        assert _claim(k, row, opts, root, f, b) == int(k.minimax_plain(row.copy(), opts, np.int64(root),
                                                                       np.int64(0)))
    assert fired[True] >= 4 and fired[False] >= 10 and after_lead >= 3, (fired, after_lead)


def test_pfeife_sweeps_claim_the_exact_value_six_tricks():
    """The same with 6 tricks left, against alpha-beta without table (no static bounds, no sweeps)."""
    solver = solver_for("dreierles")
    k = solver.kernels
    opts = tarockrl.make_game("dreierles").encoded_options
    fired = 0
    for s in _descents((17, 19, 8), (6,), 25):
        row = s._row
        root = int(s.current_player())
        ok, f, b = A.sweep(row, opts, np.int64(root))
        if not ok:
            continue
        fired += 1
        assert _claim(k, row, opts, root, f, b) == solver.solve(s, table=False, merge=False).value
    assert fired >= 5, fired


def test_values_stay_exact_where_pfeife_sweeps_cut():
    """Whole solves (every root action, and the value alone) against plain minimax at positions with 4-5 tricks
    left and the bonus open, at every position in a trick, from the descents where the sweeps fire (above)."""
    solver = solver_for("dreierles")
    k = solver.kernels
    opts = tarockrl.make_game("dreierles").encoded_options
    checked = 0
    for trick_n in (0, 1, 2):
        for s in _descents((11, 17, 19), (4, 5), 12, trick_n):
            row = s._row
            root = int(s.current_player())
            blo, bhi = k.bonus_range(row, opts, np.int64(root))
            if blo >= bhi:
                continue
            assert_solve_matches_minimax(solver, s, np.zeros(solver.search_stats_shape(), dtype=np.int64))
            checked += 1
    assert checked >= 20, checked


def _mask(codes: str) -> int:
    from tarockrl.games.dreierles.cards import parse_card

    m = 0
    for c in codes.split():
        m |= 1 << parse_card(c)
    return m


def test_pfeife_sweeps_need_every_other_last_card_plain():
    """Small hands where the Pfeife's side takes every trick but one opponent (or the partner) keeps a trump to the
    last trick, which beats the Pfeife: no claim; with a plain card instead, a claim."""
    from tarockrl.solvers.adapters._dreierles_bounds import pfeife_declarer_sweep, pfeife_defender_sweep

    budget = np.int64(64)
    # the declarer leads the top spade, both defenders follow; then the Pfeife against T2 (or S10)
    assert not pfeife_declarer_sweep(_mask("T1 SK"), _mask("T2 S7"), _mask("S8 S9"), budget)
    assert pfeife_declarer_sweep(_mask("T1 SK"), _mask("S10 S7"), _mask("S8 S9"), budget)
    # a defender on lead: the holder's top spade, his partner and the declarer follow; then the Pfeife against the
    # partner's T2 (or S10) and the declarer's spade
    assert not pfeife_defender_sweep(_mask("T1 SK"), _mask("T2 S7"), _mask("S8 S9"), True, budget)
    assert pfeife_defender_sweep(_mask("T1 SK"), _mask("S10 S7"), _mask("S8 S9"), True, budget)
    # the declarer keeps a trump: no claim
    assert not pfeife_defender_sweep(_mask("T1 SK"), _mask("S10 S7"), _mask("T2 S9"), True, budget)


def test_defenders_sweep_after_the_lead_needs_every_lead_beaten():
    """The declarer leads: a claim needs a reply that takes the trick for **every** lead of his. His top spade
    cannot be beaten (both defenders must follow spades): no claim; with the top spade in the partner's hand, a
    claim (the partner overtakes any spade, the holder then leads into the Pfeife's last trick)."""
    assert not A._sweep_after_lead(_mask("T1 S8"), _mask("S9 S10"), _mask("SK S7"), True, 2)
    assert A._sweep_after_lead(_mask("T1 S8"), _mask("SK S10"), _mask("S9 S7"), True, 2)
