#!/usr/bin/env python
"""How much better move ordering could still make a whole-deal Dreierles solve: the "oracle" experiment.

    python scripts/oracle_ordering.py 0 11 28       # deals of scripts/solve_deals.py

Each deal (``tarockrl.solvers.bench._position(game, seed, 16)``) is solved value-only twice with the same table
salt: first normally from an empty table; then every entry that solve stored keeps its best move (and the
refutation memo its moves) but loses its bounds, and the deal is solved again. The second solve has an oracle's
move ordering (the moves the finished search found best) and no stored result to cut with, so the ratio of the
two node counts bounds what any move ordering could still save (docs/solver.md, rounds "the oracle, budgeted
rounds, a refutation memo" and "whole deal: session 16"). One line per deal: the value of both solves (they must
agree), the nodes of each, and their ratio.
"""

from __future__ import annotations

import argparse

import numpy as np

import tarockrl
from tarockrl.solvers import Solver
from tarockrl.solvers.bench import _position

NO_BOUND = 1 << 40  # the search's infinity: an entry with these bounds cuts nothing


def _solve(sol: Solver, row: np.ndarray, opts: np.ndarray, salt: int, keep_memo: bool, max_nodes: int):
    """The value and nodes of one value-only kernel solve of ``row`` with table salt ``salt``."""
    k = sol.kernels
    ctx = np.zeros(k.CTX_LEN, dtype=np.int64)
    ctx[k.C_MAX] = max_nodes
    ctx[k.C_SALT] = salt
    ctx[k.C_MSALT] = salt
    ctx[k.C_MERGE] = 1
    ctx[k.C_VONLY] = 1
    if keep_memo:
        sol._hist[:k.HIST_BASE] = 0  # the history restarts, the memo's moves stay
    else:
        sol._hist[:] = 0
    actions = np.zeros(k.MAX_MOVES, dtype=np.int64)
    values = np.zeros(k.MAX_MOVES, dtype=np.int64)
    k.solve_root(row.copy(), opts, ctx, np.int64(1), actions, values, sol._tt, sol._hist, np.int64(row.shape[0]),
                 np.zeros((1, k.ST_LEN), dtype=np.int64), np.zeros((1, 4), dtype=np.int64))
    if ctx[k.C_ABORT] != 0:
        return None, int(ctx[k.C_NODES])
    return int(values[0]), int(ctx[k.C_NODES])


def main() -> None:
    """Parse the arguments and print one line per deal."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seeds", nargs="+", type=int, help="deal seeds (the positions of scripts/solve_deals.py)")
    ap.add_argument("--max-nodes", type=int, default=40_000_000, help="node budget of each solve")
    args = ap.parse_args()
    if args.max_nodes < 1:
        ap.error("--max-nodes must be positive")
    game = tarockrl.make_game("dreierles")
    sol = Solver("dreierles")
    opts = game.encoded_options
    for seed in args.seeds:
        row = _position(game, seed, 16)._row
        salt = 0x5EED0000 + seed
        sol._tt[:] = 0
        v1, n1 = _solve(sol, row, opts, salt, False, args.max_nodes)
        if v1 is None:
            print(f"seed {seed:3d} over {args.max_nodes:,} nodes", flush=True)
            continue
        live = sol._tt[:, 6] == salt  # this solve's entries: keep the move, drop every bound
        sol._tt[live, 1] = -NO_BOUND
        sol._tt[live, 4] = -NO_BOUND
        sol._tt[live, 2] = NO_BOUND
        sol._tt[live, 5] = NO_BOUND
        v2, n2 = _solve(sol, row, opts, salt, True, args.max_nodes)
        if v2 != v1:
            raise SystemExit(f"seed {seed}: the oracle solve gave {v2}, the first solve {v1}")
        print(f"seed {seed:3d} value {v1:5d} nodes {n1:>11,} oracle {n2:>11,} ratio {n1 / n2:5.2f}", flush=True)


if __name__ == "__main__":
    main()
