"""Statistics over boards: mean, standard error, bootstrap and normal 95% intervals, win rates, boards needed."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["summarize", "bootstrap_ci", "normal_ci", "boards_needed", "Z95"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""


def normal_ci(values: np.ndarray, level_z: float = Z95) -> tuple[float, float]:
    """``mean ± z · SE`` (SE with ``ddof=1``); ``(nan, nan)`` for fewer than two values."""
    x = np.asarray(values, dtype=np.float64)
    if x.size < 2:
        return (math.nan, math.nan)
    m, se = float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size))
    return (m - level_z * se, m + level_z * se)


def bootstrap_ci(values: np.ndarray, resamples: int = 2000, seed: int = 0, level: float = 0.95,
                 chunk: int = 500) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean: ``resamples`` resamplings of the values with replacement.

    Reproducible from ``seed`` (a ``numpy`` generator of its own). ``(nan, nan)`` for fewer than two values.
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n < 2 or resamples < 1:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    for start in range(0, resamples, chunk):
        m = min(chunk, resamples - start)
        means[start:start + m] = x[rng.integers(0, n, size=(m, n))].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return (float(lo), float(hi))


def boards_needed(sd: float, half_width: float, z: float = Z95) -> int | None:
    """Boards for a normal 95% interval of half-width ``half_width`` given a per-board standard deviation."""
    if not (half_width > 0) or not math.isfinite(sd):
        return None
    return max(2, math.ceil((z * sd / half_width) ** 2))


def summarize(values: np.ndarray, resamples: int = 2000, seed: int = 0, half_width: float | None = None) -> dict[
        str, Any]:
    """Every number of a per-board sample: n, mean, sd, se, normal and bootstrap 95% CIs, win/tie/loss rates.

    ``win``/``tie``/``loss`` are the shares of boards with a positive / zero / negative value;
    ``boards_needed`` is the number of boards for a 95% CI of half-width ``half_width`` (when given).
    """
    x = np.asarray(values, dtype=np.float64)
    n = int(x.size)
    out: dict[str, Any] = {"n": n}
    if n == 0:
        return out | {"mean": math.nan, "sd": math.nan, "se": math.nan, "ci_normal": [math.nan, math.nan],
                      "ci_bootstrap": [math.nan, math.nan], "win": math.nan, "tie": math.nan, "loss": math.nan}
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    out.update(
        mean=float(x.mean()),
        sd=sd,
        se=sd / math.sqrt(n) if n > 1 else math.nan,
        ci_normal=list(normal_ci(x)),
        ci_bootstrap=list(bootstrap_ci(x, resamples=resamples, seed=seed)),
        win=float((x > 0).mean()),
        tie=float((x == 0).mean()),
        loss=float((x < 0).mean()),
    )
    if half_width is not None:
        out["half_width"] = float(half_width)
        out["boards_needed"] = boards_needed(sd, half_width)
    return out
