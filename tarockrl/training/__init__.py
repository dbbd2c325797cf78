"""Self-play training in PyTorch: Deep Monte Carlo and masked PPO over the batched engine.

``tarockrl train --config configs/dreierles_dmc.yaml`` runs it from the command line; from Python::

    from tarockrl.training import load_config, train
    cfg = load_config("configs/dreierles_dmc_smoke.yaml", overrides=["seed=1"])
    train(cfg, "runs/my_run")                      # resumable: train(None, "runs/my_run", resume=True)

Modules: :mod:`.config` (the schema), :mod:`.collect` (lock-step self-play), :mod:`.dmc`, :mod:`.ppo`,
:mod:`.run` (the loop, logging, checkpoints), :mod:`.evaluate` (duplicate matches during training).
"""

from __future__ import annotations

from tarockrl.training.config import BadConfigError, TrainConfig, load_config
from tarockrl.training.run import train

__all__ = ["BadConfigError", "TrainConfig", "load_config", "train"]
