"""Training throughput: decisions per second end to end (self-play collection + learning), and where time goes.

Runs a few iterations of a training config (default: the Dreierles Deep Monte Carlo config) in a temporary run
directory, after one warm-up iteration that pays numba's and torch's start-up, and prints decisions/s with the
split between the engine (dealing, stepping, observations), the network's forward passes while collecting, and the
learner (the gradient steps). The baseline in the same process is the engine alone: random legal play of the same
number of deals through the same self-play batch, so the ratio says what the learning costs on top of the engine.

    python scripts/bench_train.py                              # configs/dreierles_dmc.yaml, 5 iterations
    python scripts/bench_train.py --config configs/tatteln_ppo.yaml --iterations 3
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def engine_baseline(game, num_envs: int, seed: int, rounds: int) -> float:
    """Decisions/s of random legal self-play through the self-play batch (no network)."""
    from tarockrl.training.collect import Collector
    from tarockrl.training.common import random_legal

    rng = np.random.default_rng(0)
    collector = Collector(game, num_envs, seed)

    def policy(obs, masks, players, rows):
        return random_legal(masks, rng), {}

    collector.rollout(0, policy)
    start, total = time.perf_counter(), 0
    for i in range(rounds):
        total += len(collector.rollout(i + 1, policy))
    collector.close()
    return total / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table (``--json`` for machine-readable output)."""
    from tarockrl.training import load_config, train

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default=str(ROOT / "configs/dreierles_dmc.yaml"))
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("-o", "--override", action="append", default=[])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cfg = load_config(args.config, [*args.override, "eval.every_iterations=0", "pool.size=0"])
    with tempfile.TemporaryDirectory() as tmp:
        train(cfg, Path(tmp) / "warm", progress=False, max_iterations=1)
        start = time.perf_counter()
        result = train(cfg, Path(tmp) / "run", progress=False, max_iterations=args.iterations)
        wall = time.perf_counter() - start
        lines = [json.loads(x) for x in (Path(tmp) / "run/progress.jsonl").read_text().splitlines()]
    decisions = result["counters"]["decisions"]
    share = {k: float(np.mean([x[f"time/{k}_share"] for x in lines])) for k in ("engine", "network", "learner")}
    from tarockrl.games import make_game

    base = engine_baseline(make_game(cfg.game, **cfg.game_options), cfg.num_envs, cfg.seed, 3)
    out = {"config": args.config, "game": cfg.game, "algo": cfg.algo, "num_envs": cfg.num_envs,
           "hidden": cfg.network.hidden, "decisions": decisions, "seconds": wall,
           "decisions_per_s": decisions / wall, "engine_only_decisions_per_s": base, "share": share}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{cfg.game} {cfg.algo}, {cfg.num_envs} envs, net {cfg.network.hidden}: {decisions:,} decisions in "
              f"{wall:.1f} s = {decisions / wall:,.0f} decisions/s end to end")
        print(f"  time split: engine {share['engine']:.0%}, network forward {share['network']:.0%}, "
              f"learner {share['learner']:.0%}")
        print(f"  baseline in this process, engine alone (random legal self-play): {base:,.0f} decisions/s "
              f"({base / (decisions / wall):.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
