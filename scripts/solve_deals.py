#!/usr/bin/env python
"""Whole Dreierles deals solved value-only, one line per deal: value, nodes and process CPU time.

    python scripts/solve_deals.py 0 1 8                       # the benchmark's deals 0, 1, 8
    python scripts/solve_deals.py --max-nodes 30000000 $(seq 0 24)
    python scripts/solve_deals.py --budget-rounds off 0       # the budgeted rounds switched off
    python scripts/solve_deals.py --budget-rounds 256,2,13,2,32,2 0
    python scripts/solve_deals.py --warm-up 7 0 1 3           # deal 7 solved first, untimed (loads the kernels)

A deal is the start of the card play of ``tarockrl.solvers.bench._position(game, seed, 16)`` (the positions of
``scripts/bench_search.py --tricks 16``). ``--budget-rounds`` takes ``def`` (the adapter's setting), ``off`` or the
arguments of ``tarockrl.solvers._common.budget_word`` (b0, shift, k, classes, flags, stagger; docs/solver.md).
A deal over the node budget prints ``over``; the summary gives the median of all deals (an over-budget deal
counts as the largest).
"""

from __future__ import annotations

import argparse
import statistics
import time

import tarockrl
from tarockrl.solvers import SearchLimitError, Solver
from tarockrl.solvers._common import budget_word
from tarockrl.solvers.bench import _position


def _budget_rounds(text: str) -> int | None:
    """The ``Solver.budget_rounds`` value for ``--budget-rounds``: None (adapter's), -1 (off) or a word."""
    if text == "def":
        return None
    if text == "off":
        return -1
    try:
        parts = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--budget-rounds: expected def, off or integers b0,shift,k,classes"
                                         f"[,flags[,stagger]], got {text!r}") from None
    if not 4 <= len(parts) <= 6 or min(parts) < 0:
        raise argparse.ArgumentTypeError(f"--budget-rounds: expected 4 to 6 non-negative integers, got {text!r}")
    return budget_word(*parts)


def main() -> None:
    """Parse the arguments, solve each deal and print the lines and the median."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seeds", nargs="+", type=int, help="deal seeds (the benchmark's positions)")
    ap.add_argument("--max-nodes", type=int, default=30_000_000, help="node budget per deal")
    ap.add_argument("--budget-rounds", type=_budget_rounds, default=None, metavar="WORD",
                    help="def (default), off, or b0,shift,k,classes[,flags[,stagger]]")
    ap.add_argument("--warm-up", type=int, default=None, metavar="SEED",
                    help="solve this deal first, untimed and not printed (the first solve also loads or compiles "
                         "the kernels, which the CPU time of the first deal would otherwise include)")
    args = ap.parse_args()
    if args.max_nodes < 1:
        ap.error("--max-nodes must be positive")
    game = tarockrl.make_game("dreierles")
    solver = Solver("dreierles")
    solver.budget_rounds = args.budget_rounds
    if args.warm_up is not None:
        try:
            solver.solve(_position(game, args.warm_up, 16), value_only=True, max_nodes=args.max_nodes)
        except SearchLimitError:
            pass  # the kernels are loaded all the same
    times = []
    for seed in args.seeds:
        state = _position(game, seed, 16)
        t0 = time.process_time()
        try:
            r = solver.solve(state, value_only=True, max_nodes=args.max_nodes)
        except SearchLimitError:
            times.append(float("inf"))
            print(f"seed {seed:3d} over {args.max_nodes:,} nodes", flush=True)
            continue
        dt = time.process_time() - t0
        times.append(dt)
        print(f"seed {seed:3d} value {r.value:5d} nodes {r.nodes:>11,} cpu {dt:6.2f} s", flush=True)
    med = statistics.median(times)
    print(f"median of all {len(times)} deals: " + ("over budget" if med == float("inf") else f"{med:.2f} s"))


if __name__ == "__main__":
    main()
