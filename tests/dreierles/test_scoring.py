"""Scoring examples of the rules: card counting, contract units, Pfeife and hand bonuses, Räuber payments.

Deals whose play is not given move by move are checked on hand-made terminal rows: the piles, the last trick
and the start-of-play hands are set, and the kernel's ``score`` computes the settlement.
"""

from __future__ import annotations

import numpy as np
import pytest

from tarockrl.games import options as opt
from tarockrl.games.dreierles import kernels as k
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.cards import ALL, CODE_TO_CARD
from tarockrl.games.dreierles.rules import DreierlesRules
from tests.dreierles.helpers import mask


def _opts(**kw):
    return opt.encode(DreierlesRules(**kw))


def _points(text, **kw):
    return int(k.pile_points(np.int64(mask(text)), _opts(**kw)))


def test_counting_examples():
    assert _points("ST T21 T1") == 13
    assert _points("HK HQ") == 8
    assert int(k.pile_points(np.int64(ALL), _opts())) == 70
    assert int(k.pile_points(np.int64(ALL), _opts(counting_method="exact_thirds"))) == 210
    assert int(k.pile_points(np.int64(0), _opts())) == 0


@pytest.mark.parametrize(
    "p,units", [(36, 1), (40, 1), (41, 2), (45, 2), (46, 3), (66, 7), (70, 7), (35, 0), (34, 1), (30, 1),
                (29, 2), (5, 6), (4, 7), (0, 7)],
)
def test_units_table(p, units):
    pay = int(k.contract_payment(np.int64(p), np.int64(1), np.int64(0), _opts()))
    assert abs(pay) == units
    assert (pay > 0) == (p >= 36) or units == 0


def test_e5_exactly_35_and_min_one_unit_and_zweier_46():
    assert int(k.contract_payment(np.int64(35), np.int64(3), np.int64(0), _opts())) == 0
    assert int(k.contract_payment(np.int64(35), np.int64(3), np.int64(0), _opts(min_one_unit_on_loss=True))) == -3
    assert int(k.contract_payment(np.int64(46), np.int64(2), np.int64(0), _opts())) == 6


@pytest.mark.parametrize(
    "pts,knocks,base,expected",
    [
        ((20, 20, 18), 1, 2, (-2, -2, 4)),
        ((20, 20, 20), 0, 2, (0, 0, 0)),
        ((25, 9, 30), 0, 4, (4, 4, -8)),
        ((25, 25, 10), 1, 4, (-4, -4, 8)),
        ((12, 17, 31), 2, 2, (8, 8, -16)),
    ],
)
def test_e7_raeuber_settlement(pts, knocks, base, expected):
    delta = np.zeros(3, dtype=np.int64)
    k.raeuber_settlement(np.asarray(pts, dtype=np.int64), np.int64(knocks), np.int64(base), delta)
    assert tuple(delta.tolist()) == expected


def _terminal_row(*, declarer, contract, decl_pile, knocks=0, announced=-1, last_leader, last_trick, last_winner,
                  start_hands, dealt=None):
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.DECLARER] = declarer
    row[L.HIGH] = contract
    row[L.KNOCKS] = knocks
    row[L.ANNOUNCED] = announced
    decl = mask(decl_pile)
    row[L.DISCARDS] = decl  # the declarer's pile, wherever it came from
    row[L.BLIND_REST] = int(ALL) & ~decl
    row[L.LAST_LEADER] = last_leader
    row[L.LAST_WINNER] = last_winner
    for i, c in enumerate(last_trick.split()):
        row[L.LAST_TRICK + i] = CODE_TO_CARD[c]
    for s in range(3):
        row[L.START_HAND + s] = mask(start_hands[s])
        row[L.DEALT + s] = mask((dealt or start_hands)[s])
    return row


def test_e3_einer_lost_after_knock():
    row = _terminal_row(
        declarer=2, contract=3, knocks=1, announced=0,
        decl_pile="T4 T5 T9 T10 T11 T12 T15 T17 T18 T21 H3 H1 HK D3 D1 DJ DK C9 C10 CN CQ CK S7 S8 S9",
        last_leader=2, last_trick="T1 T19 C7", last_winner=0,
        start_hands=[
            "T3 T7 T10 T12 T16 T19 H2 HK D3 D2 DK CN CK S7 SJ SK",
            "",
            "T1 T4 T6 T11 T13 T14 T15 T17 T18 T21 HN D4 DJ S9 S10 SN",
        ],
    )
    k.score(row, _opts())
    assert row[L.POINTS + 2] == 30 and row[L.POINTS + 0] == 40
    assert row[L.RESULT : L.RESULT + 3].tolist() == [8, 5, -13]


def test_e4_solo_announced_pfeife_won():
    row = _terminal_row(
        declarer=0, contract=4, announced=1,
        decl_pile="T1 T3 T4 T9 T11 T12 T13 T14 T15 T17 T18 T19 T20 T21 ST H4 H3 H2 H1 HJ HN HQ "
        "D2 D1 DJ DQ DK C8 S7 S8 S9 S10 SJ SN SQ SK",
        last_leader=0, last_trick="T1 SQ DQ", last_winner=0,
        start_hands=["T1 T3 T4 T6 T12 T13 T15 T17 T18 T19 T21 ST HN D4 C7 C10", "", ""],
    )
    k.score(row, _opts())
    assert row[L.POINTS] == 48 and row[L.POINTS + 1] == 22
    assert row[L.RESULT : L.RESULT + 3].tolist() == [32, -16, -16]


def _pile_with_points(target, must_have="", must_not="", seed=0):
    """A declarer pile (random search, fixed seed) with exactly ``target`` points."""
    rng = np.random.default_rng(seed)
    need = mask(must_have)
    avoid = mask(must_not)
    free = [c for c in range(54) if not (need >> c) & 1 and not (avoid >> c) & 1]
    opts = _opts()
    for _ in range(100000):
        n = int(rng.integers(15, 35))
        pick = rng.choice(free, size=n - bin(need).count("1"), replace=False)
        m = need
        for c in pick:
            m |= 1 << int(c)
        if int(k.pile_points(np.int64(m), opts)) == target:
            return m
    raise AssertionError("no pile found")


def test_e1_seed_example_einer_announced_pfeife_fails():
    decl = _pile_with_points(43, must_not="T1")
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.DECLARER] = 0
    row[L.HIGH] = 3
    row[L.ANNOUNCED] = 1
    row[L.DISCARDS] = decl
    row[L.BLIND_REST] = int(ALL) & ~decl
    row[L.LAST_LEADER] = 0
    row[L.LAST_WINNER] = 1
    for i, c in enumerate(("T1", "T5", "H4")):
        row[L.LAST_TRICK + i] = CODE_TO_CARD[c]
    row[L.START_HAND + 0] = mask("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 H4 H3 H2 H1 HJ HN")  # ten trumps
    row[L.START_HAND + 1] = mask("HK DK CK SK T11 T12 T13 D4 D3 D2 D1 DJ DN DQ C7 C8")  # four kings
    row[L.START_HAND + 2] = mask("T14 T15 T16 T17 C9 C10 CJ CN CQ S7 S8 S9 S10 SJ SN SQ")
    k.score(row, _opts())
    assert row[L.POINTS] == 43
    assert row[L.RESULT : L.RESULT + 3].tolist() == [9, -3, -6]


@pytest.mark.parametrize(
    "announced,last_trick,leader,winner,declarer,expected_side,value",
    [
        (1, "T1 T5 H4", 0, 0, 0, 1, 2),  # announced and won
        (1, "T5 H4 C7", 0, 0, 0, -1, 2),  # announced, Pfeife played earlier
        (0, "T1 T5 H4", 0, 1, 0, -1, 1),  # silent, declarer's Pfeife captured
        (0, "T5 T1 H4", 0, 0, 0, 1, 1),  # silent, defender's Pfeife captured by the declarer
        (0, "T5 T1 H4", 1, 1, 0, 0, 1),  # silent, defender's Pfeife beaten by the partner
        (0, "H4 T1 H3", 0, 1, 0, -1, 1),  # silent, defender's Pfeife wins
        (0, "H4 H3 H2", 0, 0, 0, 0, 1),  # no Pfeife in the last trick
    ],
)
def test_pfeife_outcomes(announced, last_trick, leader, winner, declarer, expected_side, value):
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.DECLARER] = declarer
    row[L.ANNOUNCED] = announced
    row[L.LAST_LEADER] = leader
    row[L.LAST_WINNER] = winner
    for i, c in enumerate(last_trick.split()):
        row[L.LAST_TRICK + i] = CODE_TO_CARD[c]
    side, v = k.pfeife_outcome(row, _opts())
    assert (int(side), int(v)) == (expected_side, value)


def test_defender_pfeife_capture_option_off():
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.ANNOUNCED] = 0
    row[L.LAST_LEADER] = 0
    row[L.LAST_WINNER] = 0
    for i, c in enumerate(("T5", "T1", "H4")):
        row[L.LAST_TRICK + i] = CODE_TO_CARD[c]
    side, _ = k.pfeife_outcome(row, _opts(pfeife_defender_loss_scores_declarer=False))
    assert int(side) == 0


def test_hand_bonus_combinations_add_up():
    opts = _opts()
    eleven_with_honours = mask("T1 T2 T3 T4 T5 T6 T7 T8 T21 ST T9 H4")
    assert int(k.hand_bonus(np.int64(eleven_with_honours), opts)) == 2
    assert int(k.hand_bonus(np.int64(mask("HK DK CK SK T1 T21 ST")), opts)) == 2
    assert int(k.hand_bonus(np.int64(mask("T1 T2 T3 T4 T5 T6 T7 T8 T9 H4")), opts)) == 0
    assert int(k.hand_bonus(np.int64(mask("T1 T2 T3 T4 T5 T6 T7 T8 T9 H4")), _opts(zehn_druck_min_trumps=9))) == 1
