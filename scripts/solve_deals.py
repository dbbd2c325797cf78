#!/usr/bin/env python
"""Whole Dreierles deals solved value-only, one line per deal: value, nodes and process CPU time.

    python scripts/solve_deals.py 0 1 8                       # the benchmark's deals 0, 1, 8
    python scripts/solve_deals.py --max-nodes 30000000 $(seq 0 24)
    python scripts/solve_deals.py --budget-rounds off 0       # the budgeted rounds switched off
    python scripts/solve_deals.py --budget-rounds 256,2,13,2,32,2 0
    python scripts/solve_deals.py --warm-up 7 0 1 3           # deal 7 solved first, untimed (loads the kernels)
    python scripts/solve_deals.py --probes 28 32              # also each zero-window search of the root's value
    python scripts/solve_deals.py --table-bits 22 0 1         # a table of 2**22 slots (default 2**20)
    python scripts/solve_deals.py --option pfeife_value_silent=0 --option pfeife_value_announced=0 60 70
    python scripts/solve_deals.py --pfeife $(seq 0 24)       # also where the Pfeife lies at the start of play

A deal is the start of the card play of ``tarockrl.solvers.bench._position(game, seed, 16)`` (the positions of
``scripts/bench_search.py --tricks 16``). ``--budget-rounds`` takes ``def`` (the adapter's setting), ``off`` or the
arguments of ``tarockrl.solvers._common.budget_word`` (b0, shift, k, classes, flags, stagger; docs/solver.md).
A deal over the node budget prints ``over``; the summary gives the median of all deals (an over-budget deal
counts as the largest). ``--probes`` prints, before each deal's line, MTD(f)'s searches of the root's value in order:
``probe THRESHOLD H|L RESULT NODES`` (H: the side to move reaches the threshold, and the fail-soft result is a lower
bound of the value; L: it does not, and the result is an upper bound; ``aborted``: the budget ran out in it).
``--option NAME=VALUE`` (repeatable) sets a rules option of the game the deals are dealt and solved under (the same
random auction and play lead to the same deal as long as the option changes only the scoring). ``--pfeife`` ends
each deal's line with where the Pfeife lies when the card play starts: ``declarer``, ``declarer-announced``,
``defender``, ``none`` (in the blind or the discards) or ``raeuber``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import tarockrl
from tarockrl.errors import BadOptionError
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreierles.cards import PFEIFE
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


def _option(text: str) -> tuple[str, object]:
    """``--option NAME=VALUE``: the name and the value (``true``/``false`` a flag, else an integer if it is one,
    else the text); the game checks both when it is made."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--option: expected NAME=VALUE, got {text!r}")
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    try:
        return name, int(value)
    except ValueError:
        return name, value


def _pfeife_place(row) -> str:
    """Where the Pfeife lies at the start of the card play (``--pfeife``)."""
    if row[DL.DECLARER] < 0:
        return "raeuber"
    holders = [s for s in range(3) if int(row[DL.HAND + s]) & PFEIFE]
    if not holders:
        return "none"
    if holders[0] != row[DL.DECLARER]:
        return "defender"
    return "declarer-announced" if row[DL.ANNOUNCED] == 1 else "declarer"


def _print_probes(probes: list | None) -> None:
    """One line per zero-window search of the root's value (``--probes``); nothing without the option."""
    for p in probes or ():
        outcome = "aborted" if p.aborted else ("H" if p.reached else "L")
        print(f"  probe {p.threshold:5d} {outcome} {p.result:5d} {p.nodes:>11,}", flush=True)


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
    ap.add_argument("--probes", action="store_true",
                    help="print each zero-window search of the root's value (threshold, H/L, result, nodes)")
    ap.add_argument("--table-bits", type=int, default=20, metavar="BITS",
                    help="the transposition table has 2**BITS slots (8..28; default 20)")
    ap.add_argument("--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                    help="a rules option of the game (repeatable), e.g. pfeife_value_silent=0")
    ap.add_argument("--pfeife", action="store_true",
                    help="end each deal's line with where the Pfeife lies at the start of the card play")
    args = ap.parse_args()
    if args.max_nodes < 1:
        ap.error("--max-nodes must be positive")
    if not 8 <= args.table_bits <= 28:
        ap.error(f"--table-bits must be in 8..28, got {args.table_bits}")
    try:
        game = tarockrl.make_game("dreierles", **dict(args.option))
    except BadOptionError as e:
        ap.error(f"--option: {e}")
    solver = Solver("dreierles", table_bits=args.table_bits)
    solver.budget_rounds = args.budget_rounds
    if args.warm_up is not None:
        try:
            solver.solve(_position(game, args.warm_up, 16), value_only=True, max_nodes=args.max_nodes)
        except SearchLimitError:
            pass  # the kernels are loaded all the same
    times = []
    for seed in args.seeds:
        state = _position(game, seed, 16)
        probes = [] if args.probes else None
        place = f" pfeife {_pfeife_place(state._row)}" if args.pfeife else ""
        t0 = time.process_time()
        try:
            r = solver.solve(state, value_only=True, max_nodes=args.max_nodes, probes=probes)
        except SearchLimitError:
            _print_probes(probes)
            times.append(float("inf"))
            print(f"seed {seed:3d} over {args.max_nodes:,} nodes{place}", flush=True)
            continue
        dt = time.process_time() - t0
        _print_probes(probes)
        times.append(dt)
        print(f"seed {seed:3d} value {r.value:5d} nodes {r.nodes:>11,} cpu {dt:6.2f} s{place}", flush=True)
    med = statistics.median(times)
    print(f"median of all {len(times)} deals: " + ("over budget" if med == float("inf") else f"{med:.2f} s"))


if __name__ == "__main__":
    main()
