"""Paired per-board comparison of two ``tarockrl eval`` runs of the same boards and seed.

Usage: ``python scripts/paired_diff.py BASE_RUN_DIR RUN_DIR [RUN_DIR ...]``. For every run it prints the mean
per-board difference against the second agent (as ``tarockrl eval`` reports it) and the mean of ``diff(run) -
diff(base)`` over the boards both runs played, with a bootstrap 95% CI (2,000 resamples, seed 0): the effect of
changing the first agent with the boards' luck cancelled (docs/training.md, "Acting of the neural agents").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np


def board_diffs(run_dir: str) -> dict[int, float]:
    """Per board: the difference A − B in game points, from ``run_dir/results.jsonl``."""
    out: dict[int, float] = {}
    with open(Path(run_dir) / "results.jsonl") as fh:
        for line in fh:
            rec = json.loads(line)
            out[int(rec["board"])] = float(rec["diff"])
    return out


def _ci(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    means = rng.choice(values, (2000, values.size)).mean(axis=1)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def main(argv: list[str]) -> None:
    """Print the comparison of every run with the base run."""
    if len(argv) < 2:
        raise SystemExit(__doc__)
    base = board_diffs(argv[0])
    for run in argv[1:]:
        x = board_diffs(run)
        boards = sorted(set(base) & set(x))
        if not boards:
            raise SystemExit(f"{run}: no board in common with {argv[0]}")
        xs = np.array([x[b] for b in boards])
        d = xs - np.array([base[b] for b in boards])
        rng = np.random.default_rng(0)
        lo, hi = _ci(xs, rng)
        dlo, dhi = _ci(d, rng)
        print(f"{run}: boards {len(boards)}  A-B {xs.mean():+.3f} [{lo:+.3f}, {hi:+.3f}]  "
              f"minus base {d.mean():+.3f} [{dlo:+.3f}, {dhi:+.3f}]  boards changed {np.mean(d != 0):.0%}")


if __name__ == "__main__":
    main(sys.argv[1:])
