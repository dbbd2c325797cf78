"""Benchmark of the hidden-information layer: world samplers and the open-hand solver.

    python scripts/bench_search.py                       # everything that exists
    python scripts/bench_search.py --solver-only --games dreierles --positions 9

``bench_solver()`` (in :mod:`tarockrl.solvers.bench`) measures the solver: nodes per second and milliseconds per
solve at 4, 6, 8, 10, 12 and 16 tricks left, per game. ``bench_worlds()`` (the world samplers) is called when
it is defined in this file.
"""

from __future__ import annotations

import argparse


def bench_solver(games=None, positions: int = 5, max_nodes: int = 20_000_000, tricks_left=None) -> list[dict]:
    """The solver benchmark of :func:`tarockrl.solvers.bench.bench_solver` (prints a table)."""
    from tarockrl.solvers import bench

    return bench.bench_solver(games=games or bench.GAMES, tricks_left=tricks_left or bench.TRICKS_LEFT,
                              positions=positions, max_nodes=max_nodes)


def main(argv=None) -> None:
    """Run the benchmarks defined in this file."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all four)")
    parser.add_argument("--positions", type=int, default=5, help="solver: random positions per cell")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="solver: node budget per solve")
    parser.add_argument("--tricks", type=int, nargs="*", default=None, help="solver: tricks left (4 6 8 10 12 16)")
    parser.add_argument("--solver-only", action="store_true", help="skip the world-sampler benchmark")
    args = parser.parse_args(argv)
    worlds = globals().get("bench_worlds")
    if worlds is not None and not args.solver_only:
        worlds()
    print("open-hand solver (objective='returns', one thread)")
    bench_solver(games=args.games, positions=args.positions, max_nodes=args.max_nodes, tricks_left=args.tricks)


if __name__ == "__main__":
    main()
