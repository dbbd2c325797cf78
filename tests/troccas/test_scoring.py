"""Cards, masks and counting of Troccas (spec 2 and 9.5): the index table, card points, groups of four."""

from __future__ import annotations

import numpy as np
import pytest

from tarockrl.engine.bits import popcount
from tarockrl.games.troccas import cards as C
from tarockrl.games.troccas.kernels import pile_points
from tests.troccas.helpers import words


def test_index_table_and_codes():
    assert C.NUM_CARDS == len(C.CARD_CODES) == 78
    expected = {0: "T1", 20: "T21", 21: "FOOL", 22: "c10", 31: "c1", 32: "cV", 35: "cK", 36: "o10", 45: "o1",
                49: "oK", 50: "b1", 59: "b10", 60: "bV", 63: "bK", 64: "s1", 73: "s10", 74: "sV", 77: "sK"}
    for i, code in expected.items():
        assert C.CARD_CODES[i] == code and C.parse_card(code) == i
    for s in range(4):
        assert C.jack_of(s) == 32 + 14 * s and C.king_of(s) == 35 + 14 * s
        assert C.CARD_CODES[C.jack_of(s)].endswith("V") and C.CARD_CODES[C.king_of(s)].endswith("K")
    for i in range(22, 78):
        assert C.SUIT_OF_CARD[i] == (i - 22) // 14
    assert C.SUIT_OF_CARD[21] == -1 and all(C.SUIT_OF_CARD[i] == 4 for i in range(21))
    with pytest.raises(ValueError, match="unknown Troccas card code"):
        C.parse_card("T22")
    assert C.parse_card("fool") == 21 and C.parse_card("SK") == 77 and C.parse_card("cc") == 33


def test_masks_of_9_5():
    assert int(C.TRUMPS) == 0x1FFFFF and int(C.FOOL) == 0x200000 and int(C.TW_FIVES) == 0x300001
    assert [int(m) for m in C.SUIT_MASKS] == [0x3FFF, 0xFFFC000, 0x3FFF0000000, 0xFFFC0000000000]
    assert int(C.KINGS) == 0x80020008002000 and int(C.QUEENS) == 0x40010004001000
    assert int(C.CAVALIERS) == 0x20008002000800 and int(C.JACKS) == 0x10004001000400
    assert C.words_of([35, 49, 63, 77]) == (0, int(C.KINGS))


def test_card_points_table():
    v = C.CARD_VALUES
    assert v.sum() == 130 == C.TOTAL_RAW_POINTS
    assert sorted(np.bincount(v).tolist()) == sorted([0, 59, 4, 4, 4, 7])
    assert (v > 1).sum() == 19 and v[v > 1].sum() == 71
    assert [v[C.parse_card(c)] for c in ("T1", "T21", "FOOL", "oK", "bQ", "sC", "cV", "T2", "c1", "b10")] == [
        5, 5, 5, 5, 4, 3, 2, 1, 1, 1]


def _bitboard_sum(tw, sw):
    return (popcount(tw) + popcount(sw) + 4 * (popcount(tw & C.TW_FIVES) + popcount(sw & C.KINGS))
            + 3 * popcount(sw & C.QUEENS) + 2 * popcount(sw & C.CAVALIERS) + popcount(sw & C.JACKS))


def test_counting_formulas_agree_on_random_piles():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        perm = rng.permutation(78)
        k = int(rng.integers(0, 20))
        a = perm[: 4 * k + 2]
        b = perm[4 * k + 2:]
        totals = 0
        for pile in (a, b):
            tw, sw = C.words_of(pile)
            s = int(C.CARD_VALUES[pile].sum())
            n = len(pile)
            assert _bitboard_sum(np.int64(tw), np.int64(sw)) == s
            p = pile_points(np.int64(tw), np.int64(sw))
            assert p == s - 3 * (n // 4) - (n % 4) // 2
            assert p == int((C.CARD_VALUES[pile] - 1).sum()) + n // 4 + (1 if n % 4 == 2 else 0)
            totals += p
        assert totals == 72


@pytest.mark.parametrize(
    "pile,points",
    [
        ("cK c2 c3 c4", 5),  # one counter with three blanks: the counter's value
        ("cK oQ c3 c4", 8),  # two counters with two blanks: their sum minus 1
        ("cK oQ bC c4", 10),  # three counters with one blank: sum minus 2
        ("cK oQ bC sV", 11),  # four counters: sum minus 3
        ("c2 c3 c4 c5", 1),  # four blanks
        ("c2 c3", 1),  # a scart of two blanks
        ("cQ b5", 4),  # a scart with one counter: its value
        ("cC cQ", 6),  # a scart of cavalier and queen
    ],
)
def test_1962_sheet_groups(pile, points):
    assert pile_points(*[np.int64(x) for x in words(pile)]) == points
