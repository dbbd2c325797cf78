"""``tarockrl train``: train from a YAML config, with overrides, resumable.

Examples::

    tarockrl train --config configs/dreierles_dmc_smoke.yaml
    tarockrl train --config configs/dreierles_dmc.yaml -o seed=3 -o dmc.epsilon=0.1 --run-dir runs/d3
    tarockrl train --resume runs/d3                  # after a kill: continues from the newest checkpoint
    tarockrl train --config configs/dreierles_dmc.yaml --backend ray --ray-address auto   # on a Ray cluster
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

__all__ = ["add_parser", "cmd_train"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``train`` subcommand."""
    p = sub.add_parser("train", help="self-play training from a YAML config (resumable)",
                       description=__doc__.split("\n")[0])
    p.add_argument("--config", help="YAML config (see configs/*_dmc*.yaml, *_ppo*.yaml); defaults without it")
    p.add_argument("-o", "--override", action="append", metavar="KEY=VALUE",
                   help="override a config value (repeatable), e.g. -o dmc.epsilon=0.1 -o total_decisions=1e6")
    p.add_argument("--run-dir", help="run directory (default runs/<game>_<algo>_<date-time>)")
    p.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its newest checkpoint")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--backend", choices=["local", "ray"], help="local (this process) or ray (actors, docs/ray.md)")
    p.add_argument("--ray-address",
                   help="Ray cluster to join (auto, HOST:PORT; implies --backend ray); default: a local Ray instance")
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    """Run ``tarockrl train``."""
    from tarockrl.training.config import BadConfigError, apply_overrides, load_config
    from tarockrl.training.run import train

    args.override = list(args.override or [])  # --backend / --ray-address are overrides of the config
    if args.ray_address and args.backend == "local":
        raise BadConfigError("--ray-address is for --backend ray")
    if args.backend or args.ray_address:
        args.override.append(f"backend={args.backend or 'ray'}")
    if args.ray_address:
        args.override.append(f"ray.address={args.ray_address}")
    if args.resume:
        if args.config or args.run_dir:
            raise BadConfigError("--resume takes the run's own config.yaml; give no --config or --run-dir with it")
        overrides = apply_overrides({}, args.override)
        result = train(None, args.resume, resume=True, overrides=overrides, progress=not args.quiet)
    else:
        cfg = load_config(args.config, args.override)
        run_dir = args.run_dir or str(Path("runs") / f"{cfg.game}_{cfg.algo}_{time.strftime('%Y%m%d-%H%M%S')}")
        result = train(cfg, run_dir, progress=not args.quiet)
    c = result["counters"]
    print(f"run {result['run_dir']}: {c['iteration']} iterations, {c['decisions']:,} decisions, {c['deals']:,} "
          f"deals, {c['seconds']:.1f} s of training; checkpoints in {result['run_dir']}/checkpoints")
    return 0
