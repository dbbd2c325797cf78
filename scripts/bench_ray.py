"""Ray training throughput: decisions/s with 1, 2, ... rollout actors, and a scaling estimate from measured costs.

Three measurements on one training config (default: the Dreierles Deep Monte Carlo config, pool and evaluation
off), all after warm-up:

1. **Costs in this process, without Ray**: one actor's seconds per decision (a Collector rollout with the acting
   network, ``--actor-threads`` numba/torch threads, split into engine and network), the learner's seconds per
   decision (its update on that rollout, torch's own thread count), the bytes a decision takes in a rollout and the
   size of the published weights.
2. **The object store**: ``ray.put`` of one rollout and ``ray.get`` of it in another process (an actor), MB/s.
3. **End to end**: ``backend: ray`` runs with each number of actors of ``--actors`` on a local Ray instance; the
   decisions/s the learner consumed between the end of the warm-up iterations and the end of the run.

It then prints the estimate for ``--estimate`` actors (default 8, 32, 128): each actor supplies ``1 / actor_cost``
decisions/s, the learner consumes at most ``1 / learner_cost``, the store/network carries ``bytes_per_decision x
rate``, and the weights go to every node every ``broadcast_every`` updates. See docs/ray.md for the figures.

    nice -n 10 python scripts/bench_ray.py                           # configs/dreierles_dmc.yaml, 1 and 2 actors
    nice -n 10 python scripts/bench_ray.py --actors 1 --iterations 4 -o num_envs=256 --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def component_costs(cfg, actor_threads: int, rounds: int) -> dict[str, float]:
    """Seconds per decision of one actor (engine + network) and of the learner, bytes per decision, weights MB."""
    import numba
    import torch

    from tarockrl.games import make_game
    from tarockrl.training.collect import Collector
    from tarockrl.training.common import resolve_device
    from tarockrl.training.config import resolved_reward_scale
    from tarockrl.training.run import make_learner

    game = make_game(cfg.game, **cfg.game_options)
    learner = make_learner(cfg, game, resolve_device(cfg.device), np.random.default_rng(0))
    learner_threads = torch.get_num_threads()
    collector = Collector(game, cfg.num_envs, cfg.seed, full_obs=getattr(learner, "needs_full_obs", False))
    numba_threads = numba.get_num_threads()
    numba.set_num_threads(min(actor_threads, numba_threads))
    torch.set_num_threads(actor_threads)
    collector.rollout(0, learner.policy)  # warm-up
    decisions = engine = policy = 0.0
    start = time.perf_counter()
    rollouts = []
    for i in range(rounds):
        r = collector.rollout(i + 1, learner.policy)
        decisions += len(r)
        engine += r.engine_seconds
        policy += r.policy_seconds
        rollouts.append(r)
    actor = (time.perf_counter() - start) / decisions
    collector.close()
    numba.set_num_threads(numba_threads)
    torch.set_num_threads(learner_threads)
    scale = resolved_reward_scale(cfg)
    learner.update(rollouts[0], scale)  # warm-up
    start = time.perf_counter()
    n = 0
    for r in rollouts:
        learner.update(r, scale)
        n += len(r)
    learn = (time.perf_counter() - start) / n
    r = rollouts[0]
    arrays = [r.obs, r.masks, r.actions, r.players, r.rows, r.steps, r.learner, *r.extras.values()]
    if r.full_obs is not None:
        arrays.append(r.full_obs)
    nbytes = sum(a.nbytes for a in arrays) / len(r)
    weights = sum(p.numel() * p.element_size() for p in learner.modules()["model"].parameters())
    return {"actor_s_per_decision": actor, "engine_share": engine / (actor * decisions),
            "network_share": policy / (actor * decisions), "learner_s_per_decision": learn,
            "learner_torch_threads": learner_threads, "bytes_per_decision": nbytes, "weights_mb": weights / 1e6,
            "decisions_per_rollout": decisions / rounds}


def store_bandwidth(cfg, repeats: int = 3) -> dict[str, float]:
    """MB/s of putting one rollout-sized payload into the object store and getting it in another process."""
    import ray

    from tarockrl.training.collect import Collector  # noqa: F401  (the actor imports tarockrl)

    @ray.remote(num_cpus=0)
    def fetch(boxed):
        t = time.perf_counter()
        arrays = ray.get(boxed[0])
        return sum(a.nbytes for a in arrays), time.perf_counter() - t

    payload = [np.random.default_rng(0).random((cfg.num_envs * 50, 768), dtype=np.float32)]
    ray.get(fetch.remote([ray.put(payload)]))  # warm-up (starts a worker)
    put = get = 0.0
    size = 0
    for _ in range(repeats):
        t = time.perf_counter()
        ref = ray.put(payload)
        put += time.perf_counter() - t
        size, g = ray.get(fetch.remote([ref]))
        get += g
        del ref
    return {"put_mb_per_s": size * repeats / put / 1e6, "get_mb_per_s": size * repeats / get / 1e6,
            "payload_mb": size / 1e6}


def end_to_end(cfg, actors: int, iterations: int, warmup: int, actor_threads: int) -> dict[str, float]:
    """Decisions/s the learner consumed in a ``backend: ray`` run with ``actors`` actors (after ``warmup``)."""
    from tarockrl.training import train
    from tarockrl.training.config import config_from_dict

    data = cfg.model_dump(mode="json")
    data["ray"].update(num_actors=actors, actor_threads=actor_threads)
    data["checkpoint"]["every_iterations"] = 10**6
    run_cfg = config_from_dict({**data, "backend": "ray"})
    with tempfile.TemporaryDirectory() as tmp:
        result = train(run_cfg, Path(tmp) / "run", progress=False, max_iterations=warmup + iterations)
        lines = [json.loads(x) for x in (Path(tmp) / "run/progress.jsonl").read_text().splitlines()]
    # wall time between the end of the warm-up iterations and the end of the run (the learner's own clock)
    a, b = lines[warmup - 1], lines[-1]
    return {"actors": actors, "decisions_per_s": (b["decisions"] - a["decisions"]) / (b["seconds"] - a["seconds"]),
            "learner_wait_s_per_unit": result["scalars"]["ray/learner_wait_seconds"],
            "actor_s_per_unit": result["scalars"]["ray/actor_seconds_per_unit"],
            "mb_per_unit": result["scalars"]["ray/megabytes_per_unit"]}


def estimate(costs: dict[str, float], store: dict[str, float] | None, actors: list[int], broadcast_every: int,
             network_mb_per_s: float, actors_per_node: int) -> list[dict[str, float]]:
    """The scaling model: supply A / actor_cost against the learner's and the network's capacity."""
    out = []
    supply1 = 1.0 / costs["actor_s_per_decision"]
    learner = 1.0 / costs["learner_s_per_decision"]
    ingest = network_mb_per_s * 1e6 / costs["bytes_per_decision"]  # decisions/s the learner's NIC can take in
    if store:
        ingest = min(ingest, store["get_mb_per_s"] * 1e6 / costs["bytes_per_decision"])
    for a in actors:
        supply = a * supply1
        rate = min(supply, learner, ingest)
        updates_per_s = rate / costs["decisions_per_rollout"]
        nodes = max(1, -(-a // actors_per_node))
        broadcast_mb_per_s = costs["weights_mb"] * nodes * updates_per_s / broadcast_every
        bound = "actors" if rate == supply else ("learner" if rate == learner else "network/store")
        out.append({"actors": a, "supply_decisions_per_s": supply, "decisions_per_s": rate, "bound": bound,
                    "ingest_mb_per_s": rate * costs["bytes_per_decision"] / 1e6,
                    "broadcast_mb_per_s": broadcast_mb_per_s, "learner_busy": rate / learner})
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the tables (``--json`` for machine-readable output)."""
    from tarockrl.training import load_config

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default=str(ROOT / "configs/dreierles_dmc.yaml"))
    ap.add_argument("-o", "--override", action="append", default=[])
    ap.add_argument("--actors", default="1,2", help="actor counts of the end-to-end runs (empty: none)")
    ap.add_argument("--iterations", type=int, default=6, help="measured iterations per end-to-end run")
    ap.add_argument("--warmup", type=int, default=4, help="iterations before the measurement starts")
    ap.add_argument("--rounds", type=int, default=3, help="rollouts for the component costs")
    ap.add_argument("--actor-threads", type=int, default=1)
    ap.add_argument("--learner-threads", type=int, default=0, help="torch threads of the learner (0: torch's own)")
    ap.add_argument("--estimate", default="8,32,128", help="actor counts of the scaling estimate")
    ap.add_argument("--network-mb-per-s", type=float, default=1250.0,
                    help="the learner node's network bandwidth for the estimate (default 10 Gb/s)")
    ap.add_argument("--actors-per-node", type=int, default=16, help="for the broadcast traffic of the estimate")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cfg = load_config(args.config, [*args.override, "eval.every_iterations=0", "pool.size=0", "device=cpu"])
    if args.learner_threads:
        import torch

        torch.set_num_threads(args.learner_threads)
    out: dict = {"config": args.config, "overrides": args.override, "num_envs": cfg.num_envs,
                 "load_average": os.getloadavg()}
    out["costs"] = component_costs(cfg, args.actor_threads, args.rounds)
    runs = [int(x) for x in args.actors.split(",") if x.strip()]
    store = None
    if runs:
        from tarockrl._ray import connect

        started = connect(cfg.ray.address, cfg.ray.local_cpus)
        try:
            store = out["store"] = store_bandwidth(cfg)
            out["runs"] = [end_to_end(cfg, a, args.iterations, args.warmup, args.actor_threads) for a in runs]
        finally:
            if started:
                import ray

                ray.shutdown()
    out["estimate"] = estimate(out["costs"], store, [int(x) for x in args.estimate.split(",") if x.strip()],
                               cfg.ray.broadcast_every, args.network_mb_per_s, args.actors_per_node)
    out["load_average_end"] = os.getloadavg()
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    c = out["costs"]
    print(f"{cfg.game} {cfg.algo}, num_envs {cfg.num_envs}, hidden {cfg.network.hidden}; load average "
          f"{out['load_average'][0]:.1f} at the start, {out['load_average_end'][0]:.1f} at the end")
    print(f"one actor ({args.actor_threads} thread): {c['actor_s_per_decision'] * 1e6:.0f} us/decision "
          f"({1 / c['actor_s_per_decision']:,.0f} decisions/s; engine {c['engine_share']:.0%}, network "
          f"{c['network_share']:.0%}); learner ({c['learner_torch_threads']} torch threads): "
          f"{c['learner_s_per_decision'] * 1e6:.0f} us/decision ({1 / c['learner_s_per_decision']:,.0f}/s)")
    print(f"rollout: {c['bytes_per_decision']:,.0f} bytes/decision, {c['decisions_per_rollout']:,.0f} decisions "
          f"per rollout; weights {c['weights_mb']:.2f} MB")
    if store:
        print(f"object store: put {store['put_mb_per_s']:,.0f} MB/s, get in another process "
              f"{store['get_mb_per_s']:,.0f} MB/s ({store['payload_mb']:.0f} MB payload)")
    for r in out.get("runs", []):
        print(f"ray, {r['actors']} actor(s): {r['decisions_per_s']:,.0f} decisions/s (learner waits "
              f"{r['learner_wait_s_per_unit']:.2f} s/unit, an actor takes {r['actor_s_per_unit']:.2f} s/unit, "
              f"{r['mb_per_unit']:.1f} MB/unit)")
    print(f"{'actors':>7} {'supply/s':>10} {'decisions/s':>12} {'bound':>14} {'ingest MB/s':>12} "
          f"{'weights MB/s':>13} {'learner busy':>13}")
    for e in out["estimate"]:
        print(f"{e['actors']:>7} {e['supply_decisions_per_s']:>10,.0f} {e['decisions_per_s']:>12,.0f} "
              f"{e['bound']:>14} {e['ingest_mb_per_s']:>12,.0f} {e['broadcast_mb_per_s']:>13,.1f} "
              f"{e['learner_busy']:>13.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
