"""The generic counting core: exact counts against brute force, and uniform draws."""

from __future__ import annotations

from collections import Counter

import numpy as np

from tarockrl.games import worlds as W
from tests.hidden.common import chi2_pvalue, chi_square_uniform


def _problem(rng, n_loc, n_card):
    caps = rng.multinomial(n_card, [1 / n_loc] * n_loc)
    allow = [int(rng.integers(1, 1 << n_loc)) for _ in range(n_card)]
    return allow, [int(c) for c in caps]


def test_counts_equal_brute_force():
    rng = np.random.default_rng(0)
    nonzero = 0
    for _ in range(300):
        n_loc = int(rng.integers(1, 6))
        allow, caps = _problem(rng, n_loc, int(rng.integers(0, 10)))
        T, tallow, tsize, order, tstart, strides, table = W.plan(
            len(allow), np.array(allow + [0], dtype=np.int64), np.array(caps, dtype=np.int64), n_loc
        )
        full = sum(c * s for c, s in zip(caps, strides))
        exact = W.count_worlds_python(allow, caps)
        assert table[0, full] == exact
        nonzero += exact > 0
    assert nonzero > 50


def test_draws_are_uniform():
    rng = np.random.default_rng(1)
    tested = 0
    while tested < 20:
        n_loc = int(rng.integers(2, 5))
        allow, caps = _problem(rng, n_loc, int(rng.integers(3, 8)))
        exact = W.count_worlds_python(allow, caps)
        if not 2 <= exact <= 300:
            continue
        a = np.array(allow + [0], dtype=np.int64)
        c = np.array(caps, dtype=np.int64)
        plan = W.plan(len(allow), a, c, n_loc)
        loc = np.zeros(len(allow) + 1, dtype=np.int64)
        perm = np.zeros(len(allow) + 3 * (n_loc + 1), dtype=np.int64)
        rs = np.array([tested], dtype=np.int64)
        draws = 60 * exact
        counts = Counter()
        for _ in range(draws):
            W.draw(*plan, c, n_loc, rs, loc, perm)
            world = tuple(int(x) for x in loc[: len(allow)])
            for k, j in enumerate(world):
                assert (allow[k] >> j) & 1
            assert [world.count(j) for j in range(n_loc)] == caps
            counts[world] += 1
        assert len(counts) == exact
        stat, dof = chi_square_uniform(counts, exact, draws)
        assert chi2_pvalue(stat, dof) > 1e-4
        tested += 1
