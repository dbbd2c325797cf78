"""Seat-rotated comparison of two agents, paired by deal (a stop-gap until ``tarockrl eval`` exists).

Every deal is played once per seating pattern in which both agents sit: for three players the six patterns
AAB, ABA, BAA, ABB, BAB, BBA, for four players the fourteen mixed patterns, for two players AB and BA. Agent
A's score for a deal is the mean settlement of the seats it held over all those plays; because every pattern is
played on the same cards, the luck of the deal cancels to a large extent. The script prints A's mean score per
seat and deal in game points with a 95% confidence interval over deals (B's score is its negative: the
settlement is zero-sum and both agents hold the same number of seats over the patterns).

    python scripts/compare_agents.py --game dreierles --a rules --b random --deals 1000
    python scripts/compare_agents.py --game dreiertarock --a rules --b random --deals 1000 -o all_pass_rule=trischaken

Agents are built with ``tarockrl.agents.make_agent(spec, game, seed=...)`` and stepped through ``agent.step``;
every agent gets a seed derived from ``--seed``, the deal number and the pattern, so a run is reproducible.

``--a-set NAME=VALUE`` (repeatable) sets an attribute on every A agent after it is built: with ``--a rules --b
rules`` this compares a variant of the rule-based player with the player itself, which is how its thresholds
were tuned (``VALUE`` is JSON; ``NAME.KEY=VALUE`` sets one entry of a dict attribute), e.g.

    python scripts/compare_agents.py --game dreierles --a rules --b rules --a-set RAEUBER_KNOCK=2.0 --deals 400
    python scripts/compare_agents.py --game dreierles --a rules --b rules --a-set DECLARE.1=12.5 --deals 400
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import math
import sys
import time

import numpy as np

import tarockrl
from tarockrl.agents import make_agent


def _option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    try:
        return key.strip(), ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        return key.strip(), value.strip()


def patterns(n_players: int) -> list[str]:
    """Every seating of agents ``A`` and ``B`` over ``n_players`` seats in which both agents sit."""
    return ["".join(p) for p in itertools.product("AB", repeat=n_players) if "A" in p and "B" in p]


def apply_settings(agent, settings: dict[str, object]) -> None:
    """Set attributes on ``agent``: ``{"NAME": value}``, or ``{"NAME.KEY": value}`` for one entry of a dict."""
    for name, value in settings.items():
        attr, _, key = name.partition(".")
        if not hasattr(agent, attr):
            raise SystemExit(f"{agent!r} has no attribute {attr!r}")
        if key:
            d = dict(getattr(agent, attr))
            d[type(next(iter(d)))(key) if d else key] = value
            value = d
        setattr(agent, attr, value)


def play_deal(
    game,
    specs: dict[str, str],
    pattern: str,
    seed: int,
    deal_id: int,
    agent_seed: int,
    clock: dict | None = None,
    a_settings: dict[str, object] | None = None,
) -> np.ndarray:
    """Play deal ``(seed, deal_id)`` with the seating ``pattern``; the settlement per seat.

    ``clock``, when given, accumulates ``{"A": [seconds, decisions], "B": [...]}`` spent in ``agent.step``;
    ``a_settings`` are attributes set on every A agent (see :func:`apply_settings`).
    """
    seats = [make_agent(specs[x], game, seed=agent_seed * 16 + i) for i, x in enumerate(pattern)]
    if a_settings:
        for agent, x in zip(seats, pattern, strict=True):
            if x == "A":
                apply_settings(agent, a_settings)
    state = game.new_initial_state(seed=seed, deal_id=deal_id)
    while not state.is_terminal():
        p = state.current_player()
        t = time.perf_counter()
        action = seats[p].step(state)
        if clock is not None:
            c = clock[pattern[p]]
            c[0] += time.perf_counter() - t
            c[1] += 1
        state.apply_action(action)
    return state.returns()


def compare(
    game, a: str, b: str, deals: int, seed: int = 0, progress: bool = True, a_settings: dict | None = None
) -> dict:
    """A's mean score per seat and deal against ``b`` (seat-rotated, paired by deal) with a 95% CI."""
    pats = patterns(game.num_players)
    scores = np.zeros(deals)
    clock = {"A": [0.0, 0], "B": [0.0, 0]}
    t0 = time.perf_counter()
    for d in range(deals):
        total, seats_a = 0.0, 0
        for k, pat in enumerate(pats):
            ret = play_deal(
                game, {"A": a, "B": b}, pat, seed, d, (d * len(pats) + k) & 0x7FFFFFFF, clock, a_settings
            )
            for s, x in enumerate(pat):
                if x == "A":
                    total += ret[s]
                    seats_a += 1
        scores[d] = total / seats_a
        if progress and (d + 1) % max(1, deals // 20) == 0:
            so_far = scores[: d + 1].mean()
            elapsed = time.perf_counter() - t0
            print(f"  {d + 1}/{deals} deals, {elapsed:.0f} s, mean so far {so_far:+.3f}", file=sys.stderr)
    mean = float(scores.mean())
    half = 1.96 * float(scores.std(ddof=1)) / math.sqrt(deals) if deals > 1 else float("nan")
    per_decision = {x: (c[0] / c[1] if c[1] else float("nan")) for x, c in clock.items()}
    return {"mean": mean, "ci": half, "deals": deals, "patterns": pats, "seconds": time.perf_counter() - t0,
            "step_seconds": per_decision}


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="dreierles")
    ap.add_argument("--a", default="rules", help="agent spec of A")
    ap.add_argument("--b", default="random", help="agent spec of B")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--option", action="append", default=[], help="rules option key=value")
    ap.add_argument("--a-set", action="append", default=[], help="attribute NAME=JSON (or NAME.KEY=JSON) of A")
    args = ap.parse_args(argv)
    game = tarockrl.make_game(args.game, **dict(_option(o) for o in args.option))
    a_settings = {}
    for text in args.a_set:
        name, _, value = text.partition("=")
        a_settings[name.strip()] = json.loads(value)
    r = compare(game, args.a, args.b, args.deals, args.seed, a_settings=a_settings)
    print("| game | A | B | deals x seatings | A's game points per seat and deal (95% CI) | A - B per seat and deal |")
    print("|---|---|---|---:|---:|---:|")
    opts = (" " + " ".join(args.option)) if args.option else ""
    a_name = args.a + "".join(f" {t}" for t in args.a_set)
    print(f"| {args.game}{opts} | {a_name} | {args.b} | {r['deals']} x {len(r['patterns'])} | "
          f"{r['mean']:+.3f} ± {r['ci']:.3f} | {2 * r['mean']:+.3f} ± {2 * r['ci']:.3f} |")
    us = {x: 1e6 * v for x, v in r["step_seconds"].items()}
    print(f"mean time per decision: A {us['A']:.0f} us, B {us['B']:.0f} us; total {r['seconds']:.0f} s")


if __name__ == "__main__":
    main()
