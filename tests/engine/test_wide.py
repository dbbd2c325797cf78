"""The two-word card-set helpers of tarockrl.engine.wide against plain-Python references."""

from __future__ import annotations

import numpy as np

from tarockrl.engine import wide as W
from tarockrl.engine.bits import nth_set_index

SPLIT = 22
RNG = np.random.default_rng(11)


def _wide(cards) -> tuple[int, int]:
    lo = sum(1 << c for c in cards if c < SPLIT)
    hi = sum(1 << (c - SPLIT) for c in cards if c >= SPLIT)
    return lo, hi


def _random_set(p=0.3):
    cards = [i for i in range(78) if RNG.random() < p]
    lo, hi = _wide(cards)
    return cards, np.int64(lo), np.int64(hi)


def test_highest_index_of_wide_sets():
    for _ in range(300):
        cards, lo, hi = _random_set(RNG.random())
        assert W.wide_highest_index(lo, hi, SPLIT) == (cards[-1] if cards else -1)


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


def test_follow_or_trump():
    trump_lo, trump_hi = np.int64((1 << 21) - 1), np.int64(0)
    cups_lo, cups_hi = np.int64(0), np.int64(0x3FFF)
    hand = _wide([3, 21, 30, 50])  # T4, FOOL, c2, b1
    assert W.wide_follow_or_trump(np.int64(hand[0]), np.int64(hand[1]), cups_lo, cups_hi, trump_lo, trump_hi) == (
        0, 1 << 8)
    void = _wide([3, 21, 50])
    assert W.wide_follow_or_trump(np.int64(void[0]), np.int64(void[1]), cups_lo, cups_hi, trump_lo, trump_hi) == (
        1 << 3, 0)
    plain = _wide([21, 50])
    assert W.wide_follow_or_trump(np.int64(plain[0]), np.int64(plain[1]), cups_lo, cups_hi, trump_lo, trump_hi) == (
        plain[0], plain[1])


def test_sum_values():
    values = np.arange(78, dtype=np.int64) % 7
    for _ in range(100):
        cards, lo, hi = _random_set()
        assert W.wide_sum_values(lo, hi, values, SPLIT) == (int(values[cards].sum()), len(cards))
