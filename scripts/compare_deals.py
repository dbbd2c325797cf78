#!/usr/bin/env python
"""Compare two runs of ``scripts/solve_deals.py`` deal by deal: values, solved counts, medians, node ratios.

    python scripts/solve_deals.py --max-nodes 20000000 --warm-up 7 $(seq 0 74) > base.txt     # on main
    python scripts/solve_deals.py --max-nodes 20000000 --warm-up 7 $(seq 0 74) > new.txt      # on a variant
    python scripts/compare_deals.py base.txt new.txt
    python scripts/compare_deals.py base.txt new.txt --groups 25 --budget 20000000 --moved 1.5

``docs/data/solve_deals_75.txt`` is main's run of the 75 deals (the first command), so a variant can be compared
with it without running main again; refresh it whenever a change to the search moves a node count.

Both files are read for their ``seed N value V nodes K ...`` and ``seed N over ...`` lines (anything else, such as
probe lines and the median line, is skipped). The two runs must cover the same deals. The script prints:
- every deal solved by both runs whose values differ (a change of move ordering or of the table must never change
  one; the exit status is then 1);
- per group of deals in seed order (``--groups``, default 25) and over all: the number solved by each run, the
  median of each run's nodes over all the group's deals (a deal over the budget counts as ``--budget``), and the
  geometric mean of new/base nodes over the deals both runs solved;
- the deals whose nodes moved by more than ``--moved`` (default 1.5x) either way, where one count is above 1M.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

_LINE = re.compile(r"seed\s+(\d+)\s+(?:value\s+(-?\d+)\s+nodes\s+([\d,]+)|over\b)")


def read_run(path: Path) -> dict[int, tuple[int | None, int | None]]:
    """``seed -> (value, nodes)`` from a ``solve_deals.py`` output; ``(None, None)`` for a deal over the budget."""
    out: dict[int, tuple[int | None, int | None]] = {}
    for line in path.read_text().splitlines():
        m = _LINE.match(line.strip())
        if not m:
            continue
        seed = int(m[1])
        if seed in out:
            raise ValueError(f"{path}: deal {seed} appears twice")
        out[seed] = (None, None) if m[2] is None else (int(m[2]), int(m[3].replace(",", "")))
    if not out:
        raise ValueError(f"{path}: no 'seed N value V nodes K' or 'seed N over' lines (not a solve_deals.py output?)")
    return out


def _nodes(entry: tuple[int | None, int | None], budget: int) -> int:
    return budget if entry[1] is None else entry[1]


def compare(base: dict, new: dict, groups: int, budget: int, moved: float) -> tuple[list[str], bool]:
    """The report's lines and whether every value that both runs found agrees."""
    if set(base) != set(new):
        only = sorted(set(base) ^ set(new))
        raise ValueError(f"the runs cover different deals (in one only: {only[:10]}{' ...' if len(only) > 10 else ''})")
    seeds = sorted(base)
    both = [s for s in seeds if base[s][0] is not None and new[s][0] is not None]
    mismatch = [s for s in both if base[s][0] != new[s][0]]
    lines = []
    if mismatch:
        lines.append("VALUES DIFFER: " + ", ".join(f"deal {s}: {base[s][0]} -> {new[s][0]}" for s in mismatch))
    else:
        lines.append(f"values: the same on all {len(both)} deals both runs solved")
    chunks = [seeds[i:i + groups] for i in range(0, len(seeds), groups)] if groups > 0 else []
    if len(chunks) != 1:
        chunks.append(seeds)
    for chunk in chunks:
        solved_b = sum(base[s][0] is not None for s in chunk)
        solved_n = sum(new[s][0] is not None for s in chunk)
        med_b = statistics.median(_nodes(base[s], budget) for s in chunk)
        med_n = statistics.median(_nodes(new[s], budget) for s in chunk)
        pairs = [s for s in chunk if s in both]
        geo = statistics.geometric_mean([new[s][1] / base[s][1] for s in pairs]) if pairs else float("nan")
        lines.append(f"deals {chunk[0]}-{chunk[-1]} ({len(chunk)}): solved {solved_b} -> {solved_n}, "
                     f"median {med_b / 1e6:.2f}M -> {med_n / 1e6:.2f}M nodes, "
                     f"geometric mean {geo:.3f} over {len(pairs)} solved by both")
    movers = []
    for s in seeds:
        a, b = _nodes(base[s], budget), _nodes(new[s], budget)
        if max(a, b) > 1_000_000 and max(a, b) > moved * min(a, b):
            movers.append(f"{s}: {a / 1e6:.2f}M -> {b / 1e6:.2f}M")
    lines.append(f"moved more than {moved:g}x: " + ("; ".join(movers) if movers else "none"))
    return lines, not mismatch


def main() -> None:
    """Parse the arguments, read both runs and print the comparison."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base", type=Path, help="solve_deals.py output of the base build")
    ap.add_argument("new", type=Path, help="solve_deals.py output of the build to compare")
    ap.add_argument("--groups", type=int, default=25, help="deals per group in seed order (0: all only)")
    ap.add_argument("--budget", type=int, default=20_000_000, help="nodes an over-budget deal counts as")
    ap.add_argument("--moved", type=float, default=1.5, help="list deals whose nodes changed more than this factor")
    args = ap.parse_args()
    if args.groups < 0 or args.budget < 1 or args.moved <= 1:
        ap.error("--groups must be >= 0, --budget >= 1 and --moved > 1")
    try:
        lines, same = compare(read_run(args.base), read_run(args.new), args.groups, args.budget, args.moved)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    print("\n".join(lines))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
