"""Solver benchmark: nodes per second and milliseconds per solve by tricks left, per game.

``bench_solver()`` builds random positions of each game (random legal play from ``seed = 0, 1, ...`` until the
first trick boundary of the card play with the wanted number of tricks left; any contract the random auction
gives, Räuber/Trischaken included), solves each with ``objective="returns"`` on one thread, and reports per
(game, tricks left) the positions solved within ``max_nodes``, the median and maximum milliseconds and the median
nodes of the solved ones, the nodes per second (total nodes over total time, unsolved searches included), and the
median over *all* positions with an unsolved one counted as longer than any solved one (``all_median_ms``; None,
printed as ``> budget``, when that median falls on an unsolved position). 16 tricks left is a whole deal from the
start of the card play. The first solve of each game (which compiles or loads the kernels) is not timed.
"""

from __future__ import annotations

import random
import statistics
import time

import tarockrl
from tarockrl.solvers import SearchLimitError, solver_for

TRICKS_LEFT = (4, 6, 8, 10, 12, 14, 16)
GAMES = ("dreierles", "dreiertarock", "troccas", "tatteln")


def _total_tricks(game) -> int:
    return {"dreierles": 16, "dreiertarock": 16, "troccas": 19}.get(game.name, game.options.get("deck_size", 32) // 2)


def _position(game, seed: int, left: int):
    """A random position at a trick boundary with ``left`` tricks left, or None."""
    solver = solver_for(game.name)
    k = solver.kernels
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    total = _total_tricks(game)
    while not state.is_terminal():
        if k.in_play(state._row) and _trick_start(state) and total - _tricks_done(state) == left:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return None


def _tricks_done(state) -> int:
    name, row = state.game.name, state._row
    if name == "dreierles":
        from tarockrl.games.dreierles import layout as L

        return int(row[L.TRICK_NO])
    if name == "dreiertarock":
        from tarockrl.games.dreiertarock import layout as L

        return int(row[L.TRICK_NO])
    if name == "troccas":
        from tarockrl.games.troccas import layout as L

        return int(row[L.TRICK_NO])
    from tarockrl.games.tatteln import layout as L

    return int(row[L.TRICKS])


def _trick_start(state) -> bool:
    name, row = state.game.name, state._row
    if name == "dreierles":
        from tarockrl.games.dreierles import layout as L

        return row[L.TRICK_N] == 0
    if name == "dreiertarock":
        from tarockrl.games.dreiertarock import layout as L

        return row[L.TRICK_N] == 0
    if name == "troccas":
        from tarockrl.games.troccas import layout as L

        return row[L.TRICK_N] == 0 and row[L.PHASE] == L.PLAY
    from tarockrl.games.tatteln import layout as L

    return row[L.LED] < 0


def bench_solver(games=GAMES, tricks_left=TRICKS_LEFT, positions: int = 5, max_nodes: int = 20_000_000,
                 seed: int = 0, verbose: bool = True, per_position: bool = False,
                 value_only: bool = False) -> list[dict]:
    """Measure the solver; returns one dict per (game, tricks left) and prints a table when ``verbose``
    (with ``per_position`` also one line per position: its seed, nodes and milliseconds; node counts do not
    depend on the machine's load, so they compare versions on the same positions). ``value_only``: solve for the
    value and one best action only (``solve(..., value_only=True)``), not every root action's exact value."""
    rows = []
    for name in games:
        game = tarockrl.make_game(name)
        solver = solver_for(name)
        for w in range(seed, seed + 50):  # compile or load the kernels outside the timings
            warm = _position(game, w, 2)
            if warm is not None:
                solver.solve(warm)
                break
        for left in tricks_left:
            if left > _total_tricks(game):
                continue
            times, nodes, over, tried, s = [], [], 0, 0, seed
            all_nodes, all_time = 0, 0.0
            while tried < positions and s < seed + 50 * positions:
                state = _position(game, s, left)
                s += 1
                if state is None:
                    continue
                tried += 1
                t0 = time.perf_counter()
                try:
                    r = solver.solve(state, max_nodes=max_nodes, value_only=value_only)
                except SearchLimitError:
                    over += 1
                    all_nodes += max_nodes
                    all_time += time.perf_counter() - t0
                    if per_position:
                        print(f"  {name} {left} tricks seed {s - 1}: over {max_nodes:,} nodes", flush=True)
                    continue
                times.append(time.perf_counter() - t0)
                if per_position:
                    print(f"  {name} {left} tricks seed {s - 1}: {r.nodes:,} nodes {times[-1] * 1e3:.1f} ms",
                          flush=True)
                nodes.append(r.nodes)
                all_nodes += r.nodes
                all_time += times[-1]
            row = {"game": name, "tricks_left": left, "solved": len(times), "over": over,
                   "median_ms": statistics.median(times) * 1e3 if times else float("nan"),
                   "max_ms": max(times) * 1e3 if times else float("nan"),
                   "median_nodes": int(statistics.median(nodes)) if nodes else 0,
                   "nodes_per_s": all_nodes / all_time if all_time else float("nan"),
                   "all_median_ms": _median_with_over(times, over)}
            rows.append(row)
            if verbose:
                am = row["all_median_ms"]
                am = "> budget" if am is None else f"{am:.1f} ms"
                print(f"{name:13s} {left:3d} tricks: solved {row['solved']}/{tried} (over {max_nodes:,} nodes: "
                      f"{over})  median {row['median_ms']:9.1f} ms  max {row['max_ms']:9.1f} ms  "
                      f"median nodes {row['median_nodes']:>11,}  {row['nodes_per_s'] / 1e6:6.2f} M nodes/s  "
                      f"median of all {am}", flush=True)
    return rows


def _median_with_over(times: list[float], over: int) -> float | None:
    """Median milliseconds over all positions, an unsolved one counted as longer than every solved one; None
    when the median is not determined by solved positions (unsolved ones reach it)."""
    n = len(times) + over
    if n == 0:
        return None
    ts = sorted(times)
    k = n // 2
    if n % 2 == 1:
        return ts[k] * 1e3 if k < len(ts) else None
    return (ts[k - 1] + ts[k]) / 2 * 1e3 if k < len(ts) else None
