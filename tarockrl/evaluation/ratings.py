"""Ratings from a round robin of duplicate matches: Bradley–Terry strengths on the Elo scale, bootstrap CIs.

Every pair ``(i, j)`` plays the same boards; a board counts as a win for ``i`` when its duplicate difference is
positive, a loss when negative and half a win each when zero. The Bradley–Terry model ``P(i beats j) = p_i / (p_i +
p_j)`` is fitted by the MM algorithm (Hunter, 2004) with one virtual tie per pair (half a win each way), which keeps
every strength finite when an agent wins all its boards. Ratings are ``400 · log10(p_i)`` centred to mean zero, so a
difference of 400 means odds of 10:1 per board. Their 95% intervals come from resampling the boards (one
resampling for all pairs together, as the pairs share the boards) and refitting.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

__all__ = ["bradley_terry", "fit_bt", "win_matrix"]


def win_matrix(k: int, diffs: Mapping[tuple[int, int], np.ndarray], boards: np.ndarray | None = None) -> np.ndarray:
    """``W[i, j]`` = boards won by ``i`` against ``j`` (ties count half), from per-board differences of ``i − j``.

    ``boards`` (optional) indexes the boards to use (a bootstrap resample).
    """
    w = np.zeros((k, k))
    for (i, j), d in diffs.items():
        d = np.asarray(d, dtype=np.float64)
        if boards is not None:
            d = d[boards]
        win = float((d > 0).sum() + 0.5 * (d == 0).sum())
        loss = float((d < 0).sum() + 0.5 * (d == 0).sum())
        w[i, j] += win
        w[j, i] += loss
    return w


def fit_bt(w: np.ndarray, prior: float = 0.5, iters: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths (geometric mean 1) from a win matrix by the MM algorithm.

    ``prior`` virtual wins are added each way to every pair that played (at least one game between them).
    """
    w = np.asarray(w, dtype=np.float64)
    k = w.shape[0]
    played = (w + w.T) > 0
    w = w + prior * played
    n = w + w.T
    wins = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(iters):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, wins / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    return p


def bradley_terry(k: int, diffs: Mapping[tuple[int, int], np.ndarray], resamples: int = 1000, seed: int = 0
                  ) -> dict[str, list[float]]:
    """Elo-scale Bradley–Terry ratings of ``k`` agents with percentile-bootstrap 95% intervals.

    ``diffs[(i, j)]`` holds the per-board duplicate differences of ``i`` against ``j``, all pairs over the same
    boards in the same order. Returns ``{"rating": [...], "ci_low": [...], "ci_high": [...]}``.
    """
    rating = 400.0 * np.log10(fit_bt(win_matrix(k, diffs)))
    rating -= rating.mean()
    sizes = {len(np.asarray(d)) for d in diffs.values()}
    lo = hi = [math.nan] * k
    if len(sizes) == 1 and resamples > 0 and next(iter(sizes)) > 1:
        n = next(iter(sizes))
        rng = np.random.default_rng(seed)
        samples = np.empty((resamples, k))
        for r in range(resamples):
            idx = rng.integers(0, n, n)
            x = 400.0 * np.log10(fit_bt(win_matrix(k, diffs, idx)))
            samples[r] = x - x.mean()
        lo = np.quantile(samples, 0.025, axis=0).tolist()
        hi = np.quantile(samples, 0.975, axis=0).tolist()
    return {"rating": rating.tolist(), "ci_low": list(lo), "ci_high": list(hi)}
