#!/usr/bin/env python
"""Benchmark of the hidden-information layer: world samplers and the open-hand solver, per game.

    python scripts/bench_search.py                                    # worlds, then the solver
    python scripts/bench_search.py --worlds-only --positions 20 --worlds 20000
    python scripts/bench_search.py --solver-only --games dreierles --positions 9

``bench_worlds()`` measures, per game, over random mid-game positions (the view of the seat after the mover):

* single: ``state.resample_hidden(player, seed)`` calls per second through the Python API (one world per call,
  counting included);
* batched: worlds per second of ``game.sample_worlds(state, player, n, seed)`` (one numba call per position:
  one counting pass, then ``n`` draws, each rebuilt as a deal plus the replayed history).

``bench_solver()`` (in :mod:`tarockrl.solvers.bench`) measures the solver: nodes per second and milliseconds per
solve at 4, 6, 8, 10, 12, 14 and 16 tricks left (16: a whole deal from the start of the card play), per game,
with the number of positions solved within the node budget. Everything runs on one thread (figures per core); compile
time is excluded (a warm-up call first).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tarockrl

GAMES_WITH_WORLDS = ("dreierles", "dreiertarock", "troccas", "tatteln")
MID_GAME_STEPS = {"dreierles": 30, "dreiertarock": 28, "tatteln": 16, "troccas": 60}


def _position(game, seed: int, steps: int):
    state = game.new_initial_state(seed=seed, deal_id=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def bench_worlds(games=GAMES_WITH_WORLDS, positions: int = 20, worlds: int = 20000) -> dict:
    """Worlds per second, single (API call per world) and batched (``sample_worlds``), per game; prints a table."""
    results = {}
    for name in games:
        game = tarockrl.make_game(name)
        states = []
        seed = 0
        while len(states) < positions:
            s = _position(game, seed, MID_GAME_STEPS.get(name, 30))
            seed += 1
            if not s.is_terminal() and s.current_player() >= 0:
                states.append(s)
        player_of = [(s.current_player() + 1) % game.num_players for s in states]
        states[0].resample_hidden(player_of[0], 0)  # compile
        game.sample_worlds(states[0], player_of[0], 2, 0)
        calls = 0
        t0 = time.perf_counter()
        for s, p in zip(states, player_of, strict=True):
            for k in range(max(1, worlds // (10 * positions))):
                s.resample_hidden(p, k)
                calls += 1
        single = calls / (time.perf_counter() - t0)
        n = max(1, worlds // positions)
        t0 = time.perf_counter()
        for i, (s, p) in enumerate(zip(states, player_of, strict=True)):
            game.sample_worlds(s, p, n, i)
        batched = n * positions / (time.perf_counter() - t0)
        results[name] = {"single_per_s": single, "batched_per_s": batched}
        print(f"{name:14s} worlds/s single {single:12,.0f}   batched {batched:12,.0f}   ({positions} positions)")
    return results


def bench_solver(games=None, positions: int = 5, max_nodes: int = 20_000_000, tricks_left=None,
                 per_position: bool = False, value_only: bool = False) -> list[dict]:
    """The solver benchmark of :func:`tarockrl.solvers.bench.bench_solver` (prints a table)."""
    from tarockrl.solvers import bench

    return bench.bench_solver(games=games or bench.GAMES, tricks_left=tricks_left or bench.TRICKS_LEFT,
                              positions=positions, max_nodes=max_nodes, per_position=per_position,
                              value_only=value_only)


def main(argv=None) -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None, help="games (default: every game that has it)")
    parser.add_argument("--positions", type=int, default=5, help="random positions per game (and per solver cell)")
    parser.add_argument("--worlds", type=int, default=20000, help="worlds: worlds drawn per game")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="solver: node budget per solve")
    parser.add_argument("--tricks", type=int, nargs="*", default=None, help="solver: tricks left (4 6 8 10 12 14 16)")
    parser.add_argument("--per-position", action="store_true", help="solver: one line per position (seed, nodes)")
    parser.add_argument("--value-only", action="store_true",
                        help="solver: the value and one best action only (not every root action's exact value)")
    parser.add_argument("--solver-only", action="store_true", help="skip the world-sampler benchmark")
    parser.add_argument("--worlds-only", action="store_true", help="skip the solver benchmark")
    args = parser.parse_args(argv)
    import numba

    numba.set_num_threads(1)
    if not args.solver_only:
        games = [g for g in (args.games or tarockrl.list_games())
                 if tarockrl.make_game(g).definition.sample_worlds is not None]
        bench_worlds(tuple(games), args.positions, args.worlds)
    if not args.worlds_only:
        what = "value and one best action" if args.value_only else "every root action's value"
        print(f"open-hand solver (objective='returns', {what}, one thread)")
        bench_solver(games=args.games, positions=args.positions, max_nodes=args.max_nodes, tricks_left=args.tricks,
                     per_position=args.per_position, value_only=args.value_only)


if __name__ == "__main__":
    main()
