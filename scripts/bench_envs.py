"""Benchmark the environments: single Gymnasium env, batched vector env and self-play batch, against baselines.

Run::

    python scripts/bench_envs.py                      # every game, 3 s per measurement
    python scripts/bench_envs.py --game dreierles --seconds 5 --num-envs 4096
    python scripts/bench_envs.py --vector-only --obs-dtype float32 --obs-dtype uint8   # compact observations
    python scripts/bench_envs.py --vector-only --obs-dtype float32 --obs-dtype uint8 --seconds 4 --windows 8

Figures (learner steps per second; a learner step = one action of the learning seat plus every opponent action up
to its next turn, random opponents played inside the engine):

* ``single``: ``gymnasium.make(id)`` (with Gymnasium's default wrappers) stepped by a Python loop that picks a
  random legal action from ``info["action_mask"]``; ``single unwrapped``: the same on ``env.unwrapped``.
* ``state loop``: the baseline, a plain Python loop over the ``State`` API doing the same (learner and opponents
  pick random legal actions from ``legal_actions()``), run in the same process.
* ``vector``: ``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")`` with a numba
  random-legal policy on the masks, per core (``num_threads=1``) and with every thread; ``env only`` excludes
  the policy's time.
* ``self-play``: ``SelfPlayBatch`` (every seat's action is one step), every thread.
* start-up: a fresh interpreter importing tarockrl and making, resetting and stepping the env (cached kernels).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import gymnasium
import numba
import numpy as np
from numba import njit

import tarockrl
from tarockrl.envs import SelfPlayBatch, env_id


@njit(cache=True)
def random_legal_rows(masks, state, out):
    """A uniformly random legal action per row of int8 masks (xorshift stream ``state``); returns the new state."""
    n, a = masks.shape
    for i in range(n):
        k = 0
        for j in range(a):
            k += masks[i, j]
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        r = (state & 0x7FFFFFFF) % max(k, 1)
        out[i] = 0
        for j in range(a):
            if masks[i, j]:
                if r == 0:
                    out[i] = j
                    break
                r -= 1
    return state


class Rate:
    """Steps per wall-clock second and per CPU second (all threads of the process; "per core")."""

    def __init__(self, steps: int, wall: float, cpu: float) -> None:
        self.steps, self.wall, self.cpu = steps, wall, cpu

    @property
    def per_s(self) -> float:
        return self.steps / self.wall

    @property
    def per_cpu_s(self) -> float:
        return self.steps / max(self.cpu, 1e-9)


def timed(fn, seconds: float) -> Rate:
    """Run ``fn()`` (returns a step count) repeatedly for about ``seconds``."""
    steps, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        steps += fn()
    return Rate(steps, time.perf_counter() - t0, time.process_time() - c0)


def bench_single(game: str, seconds: float, unwrapped: bool) -> Rate:
    env = gymnasium.make(env_id(game))
    if unwrapped:
        env = env.unwrapped
    rng = np.random.default_rng(0)
    u = rng.random(1 << 16)
    obs, info = env.reset(seed=0)
    pos = 0

    def run() -> int:
        nonlocal obs, info, pos
        for _ in range(1000):
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(legal[int(u[pos & 0xFFFF] * legal.size)]))
            pos += 1
            if terminated:
                obs, info = env.reset()
        return 1000

    run()
    return timed(run, seconds)


def bench_state_loop(game: str, seconds: float) -> Rate:
    g = tarockrl.make_game(game)
    rng = np.random.default_rng(0)
    deal = 0

    def run() -> int:
        nonlocal deal
        learner_steps = 0
        for _ in range(20):
            state = g.new_initial_state(seed=0, deal_id=deal)
            deal += 1
            while not state.is_terminal():
                p = state.current_player()
                legal = state.legal_actions()
                a = legal[int(rng.integers(len(legal)))]
                if p == 0:
                    state.observation(0)  # what an env would compute for the learner
                    learner_steps += 1
                state.apply_action(a)
        return learner_steps

    run()
    return timed(run, seconds)


def bench_vector(game: str, seconds: float, num_envs: int, threads: int | None,
                 obs_dtype: str = "float32", windows: int = 1) -> tuple[Rate, Rate, list[Rate]]:
    """The vector env's bench loop for ``seconds``: (loop, env.step only, the loop in each of ``windows`` equal
    windows)."""
    envs = gymnasium.make_vec(env_id(game), num_envs=num_envs, vectorization_mode="vector_entry_point",
                              num_threads=threads, obs_dtype=obs_dtype)
    obs, info = envs.reset(seed=0)
    actions = np.zeros(num_envs, dtype=np.int64)
    rng_state = np.int64(88172645463325252)
    env_wall = env_cpu = 0.0

    def run() -> int:
        nonlocal obs, info, rng_state, env_wall, env_cpu
        for _ in range(10):
            rng_state = random_legal_rows(info["action_mask"], rng_state, actions)
            t, c = time.perf_counter(), time.process_time()
            obs, rewards, terminated, truncated, info = envs.step(actions)
            env_wall += time.perf_counter() - t
            env_cpu += time.process_time() - c
        return 10 * num_envs

    run()
    env_wall = env_cpu = 0.0
    parts = [timed(run, seconds / windows) for _ in range(windows)]
    envs.close()
    total = Rate(sum(r.steps for r in parts), sum(r.wall for r in parts), sum(r.cpu for r in parts))
    return total, Rate(total.steps, env_wall, env_cpu), parts


def bench_selfplay(game: str, seconds: float, num_envs: int) -> Rate:
    sp = SelfPlayBatch(game, num_envs=num_envs, seed=0)
    step = sp.reset()
    actions = np.zeros(num_envs, dtype=np.int64)
    rng_state = np.int64(88172645463325252)

    def run() -> int:
        nonlocal step, rng_state
        for _ in range(10):
            rng_state = random_legal_rows(step.action_masks, rng_state, actions)
            step = sp.step(actions)
        return 10 * num_envs

    run()
    rate = timed(run, seconds)
    sp.close()
    return rate


def startup(game: str) -> float:
    code = (
        "import time; t = time.perf_counter(); import gymnasium, tarockrl, numpy as np\n"
        f"env = gymnasium.make({env_id(game)!r}); obs, info = env.reset(seed=0)\n"
        "env.step(int(np.flatnonzero(info['action_mask'])[0])); print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="game(s) to run (default: every game)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--num-envs", type=int, default=4096, help="sub-envs of the vector env")
    parser.add_argument("--obs-dtype", action="append", choices=("float32", "uint8", "int8"),
                        help="observation dtype(s) of the vector env, measured side by side (default: float32)")
    parser.add_argument("--vector-only", action="store_true", help="only the vector env (one thread per dtype)")
    parser.add_argument("--windows", type=int, default=1,
                        help="with --vector-only: also print the best and the median per-core rate of this many "
                             "equal windows (on a loaded machine the best window is the least disturbed)")
    args = parser.parse_args()
    dtypes = args.obs_dtype or ["float32"]
    games = args.game or tarockrl.list_games()
    threads = numba.get_num_threads()
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"tarockrl {tarockrl.__version__}, numba {numba.__version__}, {os.cpu_count()} CPUs, {threads} numba "
          f"threads{load}")
    print("rates: steps per wall-clock second | steps per CPU second of this process (= per core)")
    for game in games:
        if args.vector_only:
            print(f"\n== {game}: vector env, 1 thread, {args.num_envs} envs (steps per CPU second = per core)")
            for dt in dtypes:
                bench_vector(game, 0.2, args.num_envs, 1, dt)  # compile outside the measurement
            for dt in dtypes:
                total, step_only, parts = bench_vector(game, args.seconds, args.num_envs, 1, dt, max(1, args.windows))
                print(f"  obs_dtype={dt:<8} {total.per_cpu_s:>12,.0f} per core (loop) | {step_only.per_cpu_s:>12,.0f} "
                      f"per core (env.step only) | {total.per_s:>12,.0f} per wall-clock s")
                if args.windows > 1:
                    rates = sorted(r.per_cpu_s for r in parts)
                    print(f"  {'':<18}{rates[-1]:>12,.0f} per core (loop, best of {len(rates)} windows) | "
                          f"{rates[len(rates) // 2]:>12,.0f} median")
            continue
        bench_single(game, 0.2, True)  # compile outside the measurements
        base = bench_state_loop(game, args.seconds)
        single = bench_single(game, args.seconds, False)
        single_raw = bench_single(game, args.seconds, True)
        vec1, vec1_env, _ = bench_vector(game, args.seconds, args.num_envs, 1)
        vec, vec_env, _ = bench_vector(game, args.seconds, args.num_envs, None)
        sp = bench_selfplay(game, args.seconds, args.num_envs)
        start = startup(game)

        def row(label: str, r: Rate, unit: str = "steps", base: Rate = base) -> str:
            return (f"  {label:<34}{r.per_s:>12,.0f} {unit}/s | {r.per_cpu_s:>12,.0f} per core "
                    f"| {r.per_cpu_s / base.per_cpu_s:6.1f}x baseline per core")

        print(f"\n== {game}")
        print(row("state loop (baseline)", base, "learner steps"))
        print(row("single env (gymnasium.make)", single))
        print(row("single env (unwrapped)", single_raw))
        print(row(f"vector env, 1 thread, {args.num_envs} envs", vec1))
        print(row("  env.step only", vec1_env))
        print(row(f"vector env, {threads} threads", vec))
        print(row("  env.step only", vec_env))
        print(row(f"self-play batch, {threads} threads", sp, "actions"))
        print(f"  start-up: {start:.2f} s from a fresh interpreter to the first step (cached kernels)")


if __name__ == "__main__":
    main()
