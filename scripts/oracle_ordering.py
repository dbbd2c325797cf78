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


def _solve(sol: Solver, row: np.ndarray, opts: np.ndarray, salt: int, max_nodes: int) -> tuple[int | None, int]:
    """The value (None when over ``max_nodes``) and nodes of one value-only solve of ``row`` with table salt
    ``salt`` (the solver's table and memo as they are)."""
    ctx, _, _, values = sol._run_kernel(row, opts, salt=salt, budget=max_nodes, value_only=True)
    nodes = int(ctx[sol.kernels.C_NODES])
    return (None if ctx[sol.kernels.C_ABORT] != 0 else int(values[0])), nodes


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
        salt = 0x5EED0000 + seed  # earlier solves' entries and memo moves (other salts) never match
        v1, n1 = _solve(sol, row, opts, salt, args.max_nodes)
        if v1 is None:
            print(f"seed {seed:3d} over {args.max_nodes:,} nodes", flush=True)
            continue
        # this solve's entries (their salt in column 6): keep the move (column 3), and set the bounds (columns 1, 2)
        # and the threshold entries' value bounds (4, 5) to the search's infinities, which cut nothing
        live = sol._tt[:, 6] == salt
        inf = int(sol.kernels.INF)
        sol._tt[live, 1] = -inf
        sol._tt[live, 4] = -inf
        sol._tt[live, 2] = inf
        sol._tt[live, 5] = inf
        v2, n2 = _solve(sol, row, opts, salt, args.max_nodes)
        if v2 != v1:
            raise SystemExit(f"seed {seed}: the oracle solve gave {v2}, the first solve {v1}")
        print(f"seed {seed:3d} value {v1:5d} nodes {n1:>11,} oracle {n2:>11,} ratio {n1 / n2:5.2f}", flush=True)


if __name__ == "__main__":
    main()
