"""Evaluation during training: a duplicate match of the learner against a fixed opponent on fixed boards.

The boards come from ``generate_boards(game, boards, seed)`` with the config's evaluation seed, so every evaluation
of a run (and of every run with the same settings) plays the same deals: the curve in TensorBoard compares like
with like. The numbers are those of :func:`tarockrl.evaluation.duplicate_match` (per-board paired difference in
game points, learner minus opponent, with a bootstrap 95% confidence interval over boards).
"""

from __future__ import annotations

from typing import Any

__all__ = ["evaluate_against"]


def evaluate_against(game: Any, agent: Any, opponent: str, boards: int, seed: int) -> dict[str, float]:
    """``{"mean", "se", "ci_low", "ci_high", "win", "boards"}`` of ``agent`` against ``opponent``."""
    from tarockrl.evaluation import duplicate_match, generate_boards

    result = duplicate_match(game, [agent, opponent], generate_boards(game, boards, seed=seed), seed=seed,
                             labels=("learner", opponent), half_width=None, resamples=1000)
    d = result.diff
    lo, hi = d["ci_bootstrap"]
    return {"mean": float(d["mean"]), "se": float(d["se"]), "ci_low": float(lo), "ci_high": float(hi),
            "win": float(d["win"]), "boards": float(d["n"])}
