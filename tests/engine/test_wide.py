"""The two-word card-set helpers of tarockrl.engine.wide against plain-Python references."""

from __future__ import annotations

import numpy as np

from tarockrl.engine import wide as W
from tarockrl.engine.bits import nth_set_index

SPLIT = 22
RNG = np.random.default_rng(11)


def _random_set(p=0.3):
    cards = [i for i in range(78) if RNG.random() < p]
    lo, hi = W.indices_to_wide_mask(cards, SPLIT)
    return cards, np.int64(lo), np.int64(hi)


def test_round_trip_and_counts():
    for _ in range(300):
        cards, lo, hi = _random_set(RNG.random())
        assert W.wide_mask_to_indices(lo, hi, SPLIT) == cards
        assert W.wide_popcount(lo, hi) == len(cards)
        assert W.wide_lowest_index(lo, hi, SPLIT) == (cards[0] if cards else -1)
        assert W.wide_highest_index(lo, hi, SPLIT) == (cards[-1] if cards else -1)
        for n, c in enumerate(cards):
            assert W.wide_nth_set_index(lo, hi, n, SPLIT) == c
        for i in range(78):
            assert W.wide_has(lo, hi, i, SPLIT) == (i in cards)
        assert W.wide_bit(5, SPLIT) == (32, 0) and W.wide_bit(22, SPLIT) == (0, 1)


def test_one_word_primitives():
    assert W.highest_index(np.int64(0)) == -1
    assert W.highest_index(np.int64(1)) == 0
    assert W.highest_index(np.int64(-1)) == 63
    for _ in range(500):
        x = np.int64(int(RNG.integers(1, 2**62)))
        assert W.highest_index(x) == int(x).bit_length() - 1
        k = bin(int(x)).count("1")
        n = int(RNG.integers(0, k))
        assert W.select_index(x, np.int64(n)) == nth_set_index(x, n)
        assert W.wide_nth_set_index(x, np.int64(0), n, 64) == nth_set_index(x, n)


def test_one_word_games_are_the_case_hi_zero():
    x = np.int64(0b1011_0000_0001)
    assert W.wide_nth_set_index(x, np.int64(0), 2, 64) == 9  # bits 0, 8, 9, 11
    assert W.wide_popcount(x, np.int64(0)) == 4
    assert W.wide_has(x, np.int64(0), 11, 64)


def test_follow_or_trump_and_winner():
    trump_lo, trump_hi = np.int64((1 << 21) - 1), np.int64(0)
    cups_lo, cups_hi = np.int64(0), np.int64(0x3FFF)
    hand = W.indices_to_wide_mask([3, 21, 30, 50], SPLIT)  # T4, FOOL, c2, b1
    assert W.wide_follow_or_trump(np.int64(hand[0]), np.int64(hand[1]), cups_lo, cups_hi, trump_lo, trump_hi) == (
        0, 1 << 8)
    void = W.indices_to_wide_mask([3, 21, 50], SPLIT)
    assert W.wide_follow_or_trump(np.int64(void[0]), np.int64(void[1]), cups_lo, cups_hi, trump_lo, trump_hi) == (
        1 << 3, 0)
    plain = W.indices_to_wide_mask([21, 50], SPLIT)
    assert W.wide_follow_or_trump(np.int64(plain[0]), np.int64(plain[1]), cups_lo, cups_hi, trump_lo, trump_hi) == (
        plain[0], plain[1])
    trick = np.array([21, 30, 35, 23], dtype=np.int64)  # FOOL led, c2, cK, c9
    assert W.wide_winner_highest_index(trick, 4, cups_lo, cups_hi, trump_lo, trump_hi, SPLIT) == 2
    trick = np.array([30, 0, 35, 21], dtype=np.int64)  # c2, T1, cK, FOOL
    assert W.wide_winner_highest_index(trick, 4, cups_lo, cups_hi, trump_lo, trump_hi, SPLIT) == 1


def test_sum_values():
    values = np.arange(78, dtype=np.int64) % 7
    for _ in range(100):
        cards, lo, hi = _random_set()
        assert W.wide_sum_values(lo, hi, values, SPLIT) == (int(values[cards].sum()), len(cards))
