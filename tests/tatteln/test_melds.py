"""Meld detection as bit operations, checked against the spec's reference loops over windows and ranks."""

from __future__ import annotations

import numpy as np
import pytest

from tarockrl.engine.bits import nth_set_index
from tarockrl.engine.select import select_bit
from tarockrl.games.tatteln import cards as C
from tarockrl.games.tatteln import melds as M
from tests.tatteln.helpers import mask

VALUE = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}


def naive_windows(hand: int, d: int, lmax: int):
    """(suit, L, t, card mask) of every window held, by the spec's loop."""
    r = 8 + d
    out = []
    for s in range(4):
        for L in range(3, lmax + 1):
            for t in range(L - 1, r):
                m = 0
                for n in range(t - L + 1, t + 1):
                    m |= 1 << (r * s + int(C.NATPOS_TO_R[d, n]))
                if hand & m == m:
                    out.append((s, L, t, m))
    return out


def naive_best_seq(hand, d, lmax):
    return max((16 * L + t for _, L, t, _ in naive_windows(hand, d, lmax)), default=0)


def naive_best_set(hand, d, all_ranks=False):
    r = 8 + d
    ranks = range(r) if all_ranks else [C.RANK_LETTERS[d].index(x) for x in "TJQKA"]
    best = 0
    for q in ranks:
        c = sum((hand >> (r * s + q)) & 1 for s in range(4))
        if c >= 3:
            best = max(best, 16 * c + int(C.NATURAL_POS[d, q]))
    return best


def test_window_counting_table():
    # a run of n consecutive cards is worth 3, 10, 32, 54, 76, 98 (windows of length 3..5)
    expect = {3: 3, 4: 10, 5: 32, 6: 54, 7: 76, 8: 98}
    natural = ["H7", "H8", "H9", "HT", "HJ", "HQ", "HK", "HA"]
    opts = np.zeros(32, dtype=np.int64)
    from tarockrl.games.tatteln.rules import O_LMAX, O_V_FUSS, O_V_QUART, O_V_TATTEL
    opts[O_LMAX], opts[O_V_TATTEL], opts[O_V_QUART], opts[O_V_FUSS] = 5, 3, 4, 15
    for n, value in expect.items():
        hand = mask(" ".join(natural[:n]))
        assert sum(VALUE[L] for _, L, _, _ in naive_windows(hand, 0, 5)) == value
        assert M.unscored_seq_value(hand, 0, 0, 0, 8, opts) == value
    # with windows up to 8 a run of n also contains its longer windows
    opts[O_LMAX] = 8
    hand = mask(" ".join(natural))
    assert M.unscored_seq_value(hand, 0, 0, 3, 8, opts) == 98 + 3 * 16 + 2 * 17 + 18


@pytest.mark.parametrize("d", [0, 1])
@pytest.mark.parametrize("lmax", [5, 6, 7, 8])
def test_suit_tables_match_reference(d, lmax):
    cfg = 4 * d + lmax - 5
    r = 8 + d
    wins = M.windows(r, lmax)
    assert M.W_PER_SUIT[cfg] == len(wins) == sum(r - L + 1 for L in range(3, lmax + 1))
    for pat in range(1 << r):
        held = naive_windows(pat, d, lmax)  # suit 0 only
        assert M.SEQ_BEST[cfg, pat] == max((16 * L + t for _, L, t, _ in held), default=0)
        local = 0
        for _, L, t, _ in held:
            local |= 1 << (M.window_offsets(r, lmax)[L] + t - (L - 1))
        assert M.SEQ_HELD[cfg, pat] == local


def test_window_ids_of_the_spec():
    # 32 cards, Lmax 5: 15 windows per suit, OFF = {3: 0, 4: 6, 5: 11}; 36 cards: 18, {0, 7, 13}; Lmax 8: 21
    assert M.window_offsets(8, 5) == {3: 0, 4: 6, 5: 11}
    assert M.window_offsets(9, 5) == {3: 0, 4: 7, 5: 13}
    assert M.window_offsets(8, 8) == {3: 0, 4: 6, 5: 11, 6: 15, 7: 18, 8: 20}
    assert [int(M.W_PER_SUIT[c]) for c in range(8)] == [15, 18, 20, 21, 18, 22, 25, 27]


def test_random_hands_keys_match_reference():
    rng = np.random.default_rng(5)
    for d in (0, 1):
        n = 32 + 4 * d
        r = n // 4
        for _ in range(3000):
            hand = 0
            for c in rng.choice(n, size=rng.integers(3, 13), replace=False):
                hand |= 1 << int(c)
            for lmax in (5, 8):
                assert M.best_seq_key(np.int64(hand), 4 * d + lmax - 5, r) == naive_best_seq(hand, d, lmax)
            for all_ranks in (False, True):
                elig = M.SET_RANKS[d, int(all_ranks)]
                assert M.best_set_key(np.int64(hand), d, r, elig) == naive_best_set(hand, d, all_ranks)


def test_keys_of_the_spec():
    cfg = 0
    assert M.best_seq_key(mask("SA SK SQ"), cfg, 8) == 55
    assert M.best_seq_key(mask("HJ HT H9"), cfg, 8) == 52
    assert M.best_seq_key(mask("DJ DT D9 D8"), cfg, 8) == 68
    assert M.best_seq_key(mask("HQ HJ HT H9"), cfg, 8) == 69
    # a 6-card run to the king (16*5+6) loses to a 5-card run to the ace (16*5+7)
    assert M.best_seq_key(mask("H8 H9 HT HJ HQ HK"), cfg, 8) == 86
    assert M.best_seq_key(mask("CT CJ CQ CK CA"), cfg, 8) == 87
    elig = M.SET_RANKS[0, 0]
    assert M.best_set_key(mask("SK DK CK"), 0, 8, elig) == 54
    assert M.best_set_key(mask("HA DA CA"), 0, 8, elig) == 55
    assert M.best_set_key(mask("HT DT CT ST"), 0, 8, elig) == 67  # any four beats any three
    assert M.best_set_key(mask("HJ DJ CJ SJ"), 0, 8, elig) == 68
    assert M.best_set_key(mask("H9 D9 C9"), 0, 8, elig) == 0  # nines form no set by default
    assert M.best_set_key(mask("H9 D9 C9"), 0, 8, M.SET_RANKS[0, 1]) == 50


def test_36_card_tables():
    assert C.card_codes(36)[:9] == ("H6", "H7", "H8", "H9", "HJ", "HQ", "HK", "HT", "HA")
    assert M.best_seq_key(mask("H6 H7 H8", 36), 4, 9) == 48 + 2
    assert M.best_seq_key(mask("HA HK HQ HJ HT", 36), 4, 9) == 80 + 8
    assert C.SUIT_POINTS[1, 0, (1 << 9) - 1] == 30 and C.SUIT_POINTS[1, 1, (1 << 9) - 1] == 62


def test_card_points_tables():
    for d in (0, 1):
        full = (1 << (8 + d)) - 1
        assert C.SUIT_POINTS[d, 0, full] == 30
        assert C.SUIT_POINTS[d, 1, full] == 62
    assert list(C.POINTS_TRUMP[0, :8]) == [0, 0, 14, 20, 3, 4, 10, 11]
    assert list(C.TRUMP_STRENGTH[0, :8]) == [0, 1, 6, 7, 2, 3, 4, 5]
    assert list(C.NATURAL_POS[0, :8]) == [0, 1, 2, 4, 5, 6, 3, 7]
    assert list(C.NATPOS_TO_R[0, :8]) == [0, 1, 2, 6, 3, 4, 5, 7]
    assert list(C.TRUMP_STRENGTH[1, :9]) == [0, 1, 2, 7, 8, 3, 4, 5, 6]
    assert list(C.NATURAL_POS[1, :9]) == [0, 1, 2, 3, 5, 6, 7, 4, 8]
    assert list(C.NATPOS_TO_R[1, :9]) == [0, 1, 2, 3, 7, 4, 5, 6, 8]


def test_select_bit_matches_loop():
    rng = np.random.default_rng(1)
    for _ in range(20000):
        x = int(rng.integers(1, 1 << 62))
        x &= (1 << int(rng.integers(1, 63))) - 1
        if x == 0:
            continue
        kk = int(rng.integers(0, bin(x).count("1")))
        assert select_bit(np.int64(x), np.int64(kk)) == nth_set_index(np.int64(x), np.int64(kk))
    for x in (1, 3, (1 << 39) - 1, 1 << 38, 0x5555555555):
        for kk in range(bin(x).count("1")):
            assert select_bit(np.int64(x), np.int64(kk)) == nth_set_index(np.int64(x), np.int64(kk))
