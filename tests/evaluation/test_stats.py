"""Bootstrap vs normal intervals, boards needed, Bradley-Terry ratings."""

import math

import numpy as np

from tarockrl.evaluation.ratings import bradley_terry, fit_bt, win_matrix
from tarockrl.evaluation.stats import Z95, boards_needed, bootstrap_ci, normal_ci, summarize


def test_bootstrap_matches_normal_on_large_sample():
    rng = np.random.default_rng(0)
    for x in (rng.normal(1.5, 10.0, 10_000), rng.exponential(5.0, 10_000) - 5.0):
        lo_b, hi_b = bootstrap_ci(x, resamples=1500, seed=1)
        lo_n, hi_n = normal_ci(x)
        width = hi_n - lo_n
        assert abs(lo_b - lo_n) < 0.06 * width and abs(hi_b - hi_n) < 0.06 * width
        assert abs((hi_b - lo_b) / width - 1) < 0.08


def test_bootstrap_reproducible_and_degenerate():
    x = np.arange(50.0)
    assert bootstrap_ci(x, 300, seed=4) == bootstrap_ci(x, 300, seed=4)
    assert all(math.isnan(v) for v in bootstrap_ci(np.array([1.0]), 100))
    assert bootstrap_ci(np.zeros(10), 100) == (0.0, 0.0)


def test_summarize_numbers():
    x = np.array([1.0, -1.0, 0.0, 2.0, 3.0])
    s = summarize(x, resamples=100, half_width=0.5)
    assert s["n"] == 5 and s["mean"] == 1.0
    assert math.isclose(s["se"], x.std(ddof=1) / math.sqrt(5))
    assert (s["win"], s["tie"], s["loss"]) == (0.6, 0.2, 0.2)
    assert s["boards_needed"] == math.ceil((Z95 * x.std(ddof=1) / 0.5) ** 2)


def test_boards_needed_halves_width_with_four_times_the_boards():
    assert boards_needed(10.0, 1.0) == math.ceil((Z95 * 10) ** 2)
    assert abs(boards_needed(10.0, 0.5) / boards_needed(10.0, 1.0) - 4) < 0.01
    assert boards_needed(10.0, 0.0) is None


def test_bradley_terry_recovers_known_strengths():
    rng = np.random.default_rng(3)
    true = np.array([0.0, 200.0, 400.0])  # Elo
    p = 10 ** (true / 400)
    diffs = {}
    for i in range(3):
        for j in range(i + 1, 3):
            win = rng.random(4000) < p[i] / (p[i] + p[j])
            diffs[(i, j)] = np.where(win, 1.0, -1.0)
    r = bradley_terry(3, diffs, resamples=100, seed=0)
    est = np.array(r["rating"])
    assert np.allclose(est - est.mean(), true - true.mean(), atol=30)
    assert all(lo <= x <= hi for lo, x, hi in zip(r["ci_low"], r["rating"], r["ci_high"], strict=True))


def test_bradley_terry_symmetric_and_finite():
    d = {(0, 1): np.array([1.0, -1.0, 0.0, 1.0, -1.0])}
    r = bradley_terry(2, d, resamples=50)
    assert np.allclose(r["rating"], 0.0, atol=1e-6)
    sweep = fit_bt(win_matrix(2, {(0, 1): np.ones(30)}))  # one agent wins everything: still finite
    assert np.all(np.isfinite(sweep)) and sweep[0] > sweep[1]
