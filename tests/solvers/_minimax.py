"""A check shared by the solver tests: a solve equals plain minimax (no pruning, no table, no merging)."""

from __future__ import annotations

import numpy as np


def assert_solve_matches_minimax(solver, state, stats: np.ndarray | None = None) -> None:
    """``solver.solve(state)`` (every root action; ``stats`` passed on) and its value-only solve equal plain
    minimax of the position, and each root action's value equals plain minimax of the position after it, all for
    the side of the seat to move."""
    k = solver.kernels
    opts = state.game.encoded_options
    root = np.int64(int(state.current_player()))
    plain = int(k.minimax_plain(state._row.copy(), opts, root, np.int64(0)))
    r = solver.solve(state, stats=stats)
    assert r.value == plain
    for a, v in r.action_values.items():
        child = state.clone()
        child.apply_action(a)
        assert v == int(k.minimax_plain(child._row.copy(), opts, root, np.int64(0))), a
    assert solver.solve(state, value_only=True).value == plain
