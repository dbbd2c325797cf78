"""PIMC benchmark: seconds per decision, per game, on one core.

Plays deals with the rule-based agent in every seat and, at every decision of every seat with more than one
legal action (bidding, talon, discards, announcements, knocks, card play), times one PIMC decision for that
seat. Prints, per game, the median, 90th percentile and maximum of the CPU seconds per decision (the process's
CPU time: on a loaded machine the wall time mostly measures waiting for a core), the median wall seconds, the
medians before the card play and during it, and the number of decisions taken by the solver. Games without a
batched sampler are listed as skipped.

    NUMBA_NUM_THREADS=1 python scripts/bench_pimc.py --deals 4 --spec pimc:worlds=32

The first decision of each game is not timed (kernels load or compile then). Runs on one numba thread unless
``NUMBA_NUM_THREADS`` is set otherwise before starting.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import tarockrl  # noqa: E402
from tarockrl.agents import make_agent  # noqa: E402
from tarockrl.agents.pimc import has_sampler  # noqa: E402


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def bench_game(name: str, spec: str, deals: int, seed: int) -> dict | None:
    """Time PIMC decisions in ``deals`` rules-played deals of ``name``; ``None`` when the game has no sampler."""
    game = tarockrl.make_game(name)
    if not has_sampler(game):
        return None
    agent = make_agent(spec, game, seed=seed)
    rules = make_agent("rules", game, seed=seed)
    warm = game.new_initial_state(seed=seed, deal_id=10_000)
    while len(warm.legal_actions()) < 2:
        warm.apply_action(rules.step(warm))
    agent.step(warm)  # load / compile
    pre, play, wall, solved = [], [], [], 0
    for d in range(deals):
        state = game.new_initial_state(seed=seed, deal_id=d)
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                t, c = time.perf_counter(), time.process_time()
                agent.step(state)
                dt = time.process_time() - c
                wall.append(time.perf_counter() - t)
                (play if state.phase() == "play" or name == "tatteln" else pre).append(dt)
                solved += agent.last.method == "solver"
            state.apply_action(rules.step(state))
    every = pre + play
    return {"game": name, "decisions": len(every), "median": statistics.median(every), "p90": _pct(every, 0.9),
            "max": max(every), "wall_median": statistics.median(wall),
            "pre_median": statistics.median(pre) if pre else float("nan"),
            "play_median": statistics.median(play) if play else float("nan"), "solved": solved}


def main() -> None:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", help="games (default: all)")
    ap.add_argument("--spec", default="pimc:worlds=32")
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    games = args.game or tarockrl.list_games()
    print(f"{args.spec}, {args.deals} rules-played deals per game, every decision with a choice timed; "
          f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS')}, load average {os.getloadavg()[0]:.1f}")
    print("CPU seconds per decision (wall: elapsed seconds)")
    print(f"{'game':<13} {'decisions':>9} {'median':>8} {'p90':>7} {'max':>7} {'wall median':>11} "
          f"{'before play':>12} {'card play':>10} {'solver':>7}")
    for name in games:
        r = bench_game(name, args.spec, args.deals, args.seed)
        if r is None:
            print(f"{name:<13} skipped: no batched world sampler yet")
            continue
        print(f"{name:<13} {r['decisions']:>9} {r['median']:>8.3f} {r['p90']:>7.3f} {r['max']:>7.3f} "
              f"{r['wall_median']:>11.3f} {r['pre_median']:>12.3f} {r['play_median']:>10.3f} {r['solved']:>7}",
              flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
