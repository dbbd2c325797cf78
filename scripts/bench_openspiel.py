"""Time per decision of OpenSpiel's search bots on tarockrl games (``make_agent("openspiel:...")``).

    python scripts/bench_openspiel.py --game dreierles --specs openspiel:ismcts,simulations=20 --deals 3

Plays ``--deals`` deals with the bot in every seat (random decisions would change the positions searched, so the
bot plays them all) and reports the mean and median wall time of the decisions with two or more legal actions
(decisions with one legal action are answered without a search and not counted). Needs open_spiel.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    """Run the benchmark and print one line per spec."""
    import tarockrl
    from tarockrl.agents import make_agent

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="dreierles")
    p.add_argument("--specs", nargs="+", default=["openspiel:ismcts,simulations=20"])
    p.add_argument("--deals", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-decisions", type=int, default=0, help="stop a spec after this many timed decisions")
    args = p.parse_args()
    game = tarockrl.make_game(args.game)
    print(f"load average {os.getloadavg()[0]:.1f}; game {args.game}; {args.deals} deals, the bot in every seat")
    for spec in args.specs:
        agent = make_agent(spec, game, seed=args.seed)
        agent.step(game.new_initial_state(seed=10_000))  # first call: imports and kernels loaded
        times = []
        cpu0 = time.process_time()
        for d in range(args.deals):
            state = game.new_initial_state(seed=args.seed, deal_id=d)
            while not state.is_terminal():
                searched = len(state.legal_actions()) > 1
                t = time.perf_counter()
                a = agent.step(state)
                if searched:
                    times.append(time.perf_counter() - t)
                state.apply_action(a)
                if args.max_decisions and len(times) >= args.max_decisions:
                    break
            if args.max_decisions and len(times) >= args.max_decisions:
                break
        cpu = time.process_time() - cpu0
        print(f"{spec}: {len(times)} decisions, CPU {1000 * cpu / len(times):.1f} ms per decision; wall: mean "
              f"{1000 * statistics.mean(times):.1f} ms, median {1000 * statistics.median(times):.1f} ms")


if __name__ == "__main__":
    main()
