"""Creating envs, batches, self-play batches or random playouts never changes torch's thread count (issue 15)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")

SCRIPT = textwrap.dedent(
    """
    import torch
    torch.set_num_threads(1)
    torch.ones(300, 300) @ torch.ones(300, 300)      # torch has run a parallel op
    import gymnasium, numba, tarockrl
    from tarockrl.envs import SelfPlayBatch
    seen = []
    game = tarockrl.make_game("dreierles"); seen.append(torch.get_num_threads())
    game.random_playouts(64, seed=0); seen.append(torch.get_num_threads())
    tarockrl.make_game("troccas").new_batch(4, seed=0).legal_masks(); seen.append(torch.get_num_threads())
    gymnasium.make_vec("tarockrl/Dreierles-v0", num_envs=256, vectorization_mode="vector_entry_point")
    seen.append(torch.get_num_threads())
    SelfPlayBatch("dreierles", num_envs=256); seen.append(torch.get_num_threads())
    gymnasium.make("tarockrl/Dreierles-v0").reset(seed=0); seen.append(torch.get_num_threads())
    numba.get_num_threads(); seen.append(torch.get_num_threads())
    print("THREADS", seen)
    """
)


def test_torch_thread_count_is_left_alone() -> None:
    env = dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=900, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    line = [x for x in out.stdout.splitlines() if x.startswith("THREADS")][0]
    assert line == "THREADS [1, 1, 1, 1, 1, 1, 1]", line
