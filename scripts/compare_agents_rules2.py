"""Seat-rotated strength comparison of two agents in Troccas and Tatteln (a stop-gap until ``tarockrl eval``).

Every deal is played twice with the same cards: in Troccas once with agent A as team A (seats 0 and 2) and B as
team B, once with the teams swapped; in Tatteln once with A in seat 0 and once in seat 1. The figure per deal is
A's settlement averaged over the two tables, so the luck of the cards cancels in pairs; the table reports its
mean in game points per deal with a 95% confidence interval (normal approximation over deals), A's mean on each
table, and A's CPU time per decision (process time, so other load on the machine does not count).

    python scripts/compare_agents_rules2.py --game troccas --deals 1000
    python scripts/compare_agents_rules2.py --game tatteln --deals 1000 -o final_must_head=true
    python scripts/compare_agents_rules2.py --game all --deals 1000 --a rules --b random
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

import tarockrl
from tarockrl.agents import make_agent


def _parse_option(text: str) -> tuple[str, object]:
    key, eq, value = text.partition("=")
    if not eq:
        raise SystemExit(f"option {text!r} must be key=value")
    low = value.lower()
    if low in ("true", "false"):
        return key, low == "true"
    try:
        return key, int(value)
    except ValueError:
        return key, value


def play_pair(game, agents_a, agents_b, seed: int, deal_id: int, clock: list[float]) -> tuple[float, float]:
    """A's settlement on the two tables of one deal (A's seats, then the swapped seats)."""
    n = game.num_players
    out = []
    for table in range(2):
        # Troccas: A holds the seats of team `table`; Tatteln: A holds seat `table`
        a_seats = {s for s in range(n) if (s % 2 if n == 4 else s) == table}
        state = game.new_initial_state(seed=seed, deal_id=deal_id)
        while not state.is_terminal():
            p = state.current_player()
            if p in a_seats:
                t0 = time.process_time()
                action = agents_a[p].step(state)
                clock[0] += time.process_time() - t0
                clock[1] += 1
            else:
                action = agents_b[p].step(state)
            state.apply_action(action)
        out.append(float(state.returns()[min(a_seats)]))
    return out[0], out[1]


def compare(game_name: str, a: str, b: str, deals: int, seed: int, options: dict) -> dict:
    """Play ``deals`` paired deals and return the summary figures."""
    game = tarockrl.make_game(game_name, **options)
    agents_a = [make_agent(a, game, seed=seed + 101 * p) for p in range(game.num_players)]
    agents_b = [make_agent(b, game, seed=seed + 101 * p + 7) for p in range(game.num_players)]
    clock = [0.0, 0]
    t1 = np.zeros(deals)
    t2 = np.zeros(deals)
    for i in range(deals):
        t1[i], t2[i] = play_pair(game, agents_a, agents_b, seed, i, clock)
    diff = (t1 + t2) / 2
    half = 1.96 * diff.std(ddof=1) / math.sqrt(deals) if deals > 1 else float("nan")
    return {"game": game_name, "a": a, "b": b, "deals": deals, "mean": diff.mean(), "lo": diff.mean() - half,
            "hi": diff.mean() + half, "table1": t1.mean(), "table2": t2.mean(),
            "ms": 1e3 * clock[0] / max(clock[1], 1)}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="all", choices=["troccas", "tatteln", "all"])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--a", default="rules", help="agent spec A (default rules)")
    ap.add_argument("--b", default="random", help="agent spec B (default random)")
    ap.add_argument("-o", "--option", action="append", default=[], help="rules option key=value (repeatable)")
    args = ap.parse_args(argv)
    options = dict(_parse_option(o) for o in args.option)
    games = ["troccas", "tatteln"] if args.game == "all" else [args.game]
    print("| game | A vs B | deals | A's mean per deal (game points) | 95% CI | A, table 1 | A, table 2 | "
          "A CPU ms/decision |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for g in games:
        r = compare(g, args.a, args.b, args.deals, args.seed, options)
        print(f"| {g} | {r['a']} vs {r['b']} | {r['deals']} | {r['mean']:+.2f} | [{r['lo']:+.2f}, {r['hi']:+.2f}] | "
              f"{r['table1']:+.2f} | {r['table2']:+.2f} | {r['ms']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
