"""The shared engine helpers against plain-Python versions: bits, RNG, selection, shuffles, tricks, cache guard."""

from __future__ import annotations

import numpy as np
import pytest

from tarockrl.engine import bits, cache, rng, select, shuffle, tricks

MASK64 = (1 << 64) - 1


def _indices(mask: int) -> list[int]:
    return [i for i in range(64) if (mask >> i) & 1]


def _random_masks(count, seed=0, width=62):
    generator = np.random.default_rng(seed)
    return [int(generator.integers(0, 1 << width)) for _ in range(count)] + [0, 1, (1 << width) - 1]


def test_popcount_lowest_nth_and_select_match_python():
    for m in _random_masks(300):
        x = np.int64(m)
        assert bits.popcount(x) == bin(m).count("1")
        indices = _indices(m)
        if m:
            assert bits.lowest_index(x) == indices[0]
        for k in range(len(indices)):
            assert bits.nth_set_index(x, np.int64(k)) == indices[k]
            assert select.select_bit(x, np.int64(k)) == indices[k]
            assert select.broadword_select(x, np.int64(k)) == indices[k]


def test_prefetch_hints_compile_and_change_nothing():
    from numba import njit

    @njit
    def touch(a, b):
        for i in range(a.size + 64):  # past the end too: a prefetch never faults
            bits.prefetch_read(a, i)
            bits.prefetch_write(b, i)
        return a.sum() + b.sum()

    a = np.arange(24, dtype=np.int64).reshape(4, 6)
    b = np.arange(10, dtype=np.uint8)
    before = (a.copy(), b.copy())
    assert touch(a, b) == a.sum() + b.sum()
    np.testing.assert_array_equal(a, before[0])
    np.testing.assert_array_equal(b, before[1])


def _splitmix_reference(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def test_splitmix_is_bit_identical_to_the_uint64_reference():
    state_ref = 987654321
    state = np.int64(state_ref)
    for _ in range(100):
        state, z = rng.next_u64(state)
        state_ref, z_ref = _splitmix_reference(state_ref)
        assert int(state) & MASK64 == state_ref and int(z) & MASK64 == z_ref


def test_below_is_in_range_and_roughly_uniform():
    state = rng.stream_seed(np.int64(5), np.int64(0))
    counts = np.zeros(7, dtype=np.int64)
    for _ in range(70_000):
        state, r = rng.below(state, np.int64(7))
        counts[r] += 1
    assert counts.min() > 9_000 and counts.max() < 11_000


def test_streams_differ_by_seed_and_id():
    seeds = {int(rng.stream_seed(np.int64(s), np.int64(i))) for s in range(20) for i in range(20)}
    assert len(seeds) == 400


@pytest.mark.parametrize("shuffler", [rng.shuffle_prefix, shuffle.shuffle_prefix_pairs])
def test_shuffles_are_permutations_and_cover_positions(shuffler):
    first = np.zeros(10, dtype=np.int64)
    state = np.int64(1)
    for _ in range(5000):
        values = np.arange(10, dtype=np.int64)
        state = shuffler(state, values, 10)
        assert sorted(values.tolist()) == list(range(10))
        first[values[0]] += 1
    assert first.min() > 350  # every card reaches the top (expected 500 each)


def _naive_winner(cards, led_mask, trump_mask):
    trumps = [c for c in cards if (trump_mask >> c) & 1]
    if trumps:
        return cards.index(max(trumps))
    followers = [c for c in cards if (led_mask >> c) & 1]
    return cards.index(max(followers))


def test_beats_agrees_with_naive_rule():
    trump = (1 << 22) - 1
    suit_of = [trump if c < 22 else 0xFF << (22 + 8 * ((c - 22) // 8)) for c in range(54)]
    generator = np.random.default_rng(3)
    for _ in range(2000):
        cards = [int(c) for c in generator.choice(54, size=3, replace=False)]
        led = suit_of[cards[0]]
        expected = _naive_winner(cards, led, trump)
        best, pos = cards[0], 0
        for i in (1, 2):
            if tricks.beats_highest_index(np.int64(cards[i]), np.int64(best), np.int64(led), np.int64(trump)):
                best, pos = cards[i], i
        assert pos == expected


def test_follow_or_trump():
    hearts, trumps = np.int64(0b1111 << 4), np.int64(0b1111)
    assert tricks.follow_or_trump(np.int64(0b0001_0010), hearts, trumps) == 0b0001_0000
    assert tricks.follow_or_trump(np.int64(0b1_0000_0010), hearts, trumps) == 0b0010
    assert tricks.follow_or_trump(np.int64(0b1_0000_0000), hearts, trumps) == 0b1_0000_0000


def test_value_counting_helpers_agree():
    values = np.array([1 + (i % 5) for i in range(54)], dtype=np.int64)
    classes = np.array([sum(1 << c for c in range(54) if values[c] == v) for v in (2, 3, 4, 5)], dtype=np.int64)
    extra = np.array([1, 2, 3, 4], dtype=np.int64)
    for m in _random_masks(200, seed=4, width=54):
        total, n = tricks.sum_values(np.int64(m), values)
        assert total == sum(values[c] for c in _indices(m)) and n == bin(m).count("1")
        assert n + tricks.weighted_popcount(np.int64(m), classes, extra) == total


def test_cache_guard_clears_only_changed_groups(tmp_path):
    pkg = tmp_path / "pkg"
    for folder in ("engine", "games/a", "games/b"):
        (pkg / folder / "__pycache__").mkdir(parents=True)
        (pkg / folder / "mod.py").write_text("x = 1\n")
        (pkg / folder / "__pycache__" / "mod.f-1.py311.nbi").write_text("index")
    first = cache.ensure_fresh_cache(pkg)
    assert set(first) == {"engine", "games/a", "games/b"}
    for folder in ("engine", "games/a", "games/b"):  # numba writes its files again
        (pkg / folder / "__pycache__" / "mod.f-1.py311.nbi").write_text("index")
    assert cache.ensure_fresh_cache(pkg) == []
    (pkg / "games/a/mod.py").write_text("x = 2\n")
    assert cache.ensure_fresh_cache(pkg) == ["games/a"]
    assert not (pkg / "games/a/__pycache__/mod.f-1.py311.nbi").exists()
    assert (pkg / "games/b/__pycache__/mod.f-1.py311.nbi").exists()
    (pkg / "engine/mod.py").write_text("x = 3\n")
    assert cache.ensure_fresh_cache(pkg) == ["engine"]
    assert not (pkg / "games/b/__pycache__/mod.f-1.py311.nbi").exists()
