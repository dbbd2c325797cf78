"""MaskablePPO steps per second: ``gymnasium.make`` (SB3's DummyVecEnv) against ``tarockrl.envs.sb3_vec_env``.

Short runs only; both paths use the same PPO settings except the number of sub-envs. Run from the repository root::

    python scripts/bench_sb3.py --game dreierles --timesteps 8192

Each path learns once for a warm-up (compiles, allocations), then the timed run. torch uses one thread.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import tarockrl
from tarockrl.envs import env_id, sb3_vec_env


def rate(env, n_steps: int, timesteps: int) -> float:
    """Timesteps per second of ``MaskablePPO.learn`` on ``env`` (after a warm-up learn)."""
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=256, n_epochs=1, seed=0, device="cpu", verbose=0)
    model.learn(total_timesteps=n_steps * getattr(env, "num_envs", 1))  # warm-up
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps, reset_num_timesteps=False)
    return timesteps / (time.perf_counter() - start)


def main() -> None:
    """Print both rates side by side."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="dreierles", choices=tarockrl.list_games())
    p.add_argument("--timesteps", type=int, default=8192)
    p.add_argument("--num-envs", type=int, default=64, help="sub-envs of sb3_vec_env")
    a = p.parse_args()
    torch.set_num_threads(1)
    single = gymnasium.make(env_id(a.game), seat="random", reward_scale="auto")
    r1 = rate(single, 512, a.timesteps)
    venv = sb3_vec_env(a.game, num_envs=a.num_envs, seat="random", reward_scale="auto", num_threads=1)
    r2 = rate(venv, max(1, 512 // a.num_envs), a.timesteps)
    print(f"{a.game}: MaskablePPO timesteps/s  gymnasium.make: {r1:,.0f}   sb3_vec_env({a.num_envs}): {r2:,.0f}"
          f"   ratio {r2 / r1:.1f}x   ({a.timesteps} timesteps, n_epochs=1, batch 256, torch 1 thread)")


if __name__ == "__main__":
    main()
