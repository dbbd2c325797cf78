#!/usr/bin/env python
"""Search benchmarks: hidden-card worlds per second (single and batched) per game; solver figures are added later.

Usage: python scripts/bench_search.py [--games dreierles,dreiertarock] [--positions 20] [--worlds 20000]

``bench_worlds()`` measures, per game, over random mid-game positions (a defender's / the non-mover's view):

* single: ``state.resample_hidden(player, seed)`` calls per second through the Python API (one world per call,
  counting included);
* batched: worlds per second of ``game.sample_worlds(state, player, n, seed)`` (one numba call per position:
  one counting pass, then ``n`` draws, each rebuilt as a deal plus the replayed history).

Everything runs on one thread (the figures are per core). Compile time is excluded (a warm-up call first).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tarockrl

GAMES_WITH_WORLDS = ("dreierles", "dreiertarock")
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


def main() -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES_WITH_WORLDS))
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=20000)
    args = ap.parse_args()
    import numba

    numba.set_num_threads(1)
    bench_worlds(tuple(args.games.split(",")), args.positions, args.worlds)


if __name__ == "__main__":
    main()
