"""The Ray training backend's bookkeeping with an in-process stand-in for Ray (tests/ray/fake_ray.py): units in
order, a killed actor's units played again with the same result, exact resume from the in-flight records. Runs
without Ray; the same scenario on a real Ray instance is the slow test in test_ray_training.py."""

import sys

import numba
import pytest
import torch

from tarockrl.agents.checkpoint import load_checkpoint
from tarockrl.training import train
from tests.ray import fake_ray
from tests.ray.test_ray_training import assert_same_weights, tiny, weights


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", fake_ray)
    monkeypatch.setattr(fake_ray, "_initialized", True)  # already initialised: the backend neither starts nor stops it
    threads = torch.get_num_threads(), numba.get_num_threads()
    yield fake_ray
    torch.set_num_threads(threads[0])  # the actors ran in this process and set their thread counts
    numba.set_num_threads(threads[1])


@pytest.mark.parametrize("algo", ["dmc", pytest.param("ppo", marks=pytest.mark.slow)])
def test_killed_actor_and_resume_give_the_uninterrupted_run(fake, tmp_path, monkeypatch, algo):
    from tarockrl.training import ray_backend

    cfg = tiny(algo, pool={"size": 2, "snapshot_every": 2, "share": 0.5})
    straight = train(cfg, tmp_path / "straight", progress=False, max_iterations=6)
    c = straight["counters"]
    assert c["iteration"] == 6 and c["deals"] == 48
    assert straight["scalars"]["ray/actor_restarts"] == 0 and straight["scalars"]["ray/lost_units"] == 0

    monkeypatch.setattr(ray_backend, "_TEST_KILL_AT_UNIT", 5)
    killed = train(cfg, tmp_path / "killed", progress=False, max_iterations=6)
    assert killed["scalars"]["ray/actor_restarts"] == 1
    assert killed["scalars"]["ray/lost_units"] >= 1
    assert {k: killed["counters"][k] for k in ("iteration", "decisions", "deals")} == \
        {k: c[k] for k in ("iteration", "decisions", "deals")}
    assert_same_weights(weights(tmp_path / "straight/checkpoints/last.pt"),
                        weights(tmp_path / "killed/checkpoints/last.pt"))

    train(cfg, tmp_path / "resumed", progress=False, max_iterations=3)
    state = load_checkpoint(tmp_path / "resumed/checkpoints/last.pt")["collector"]
    assert [r["unit"] for r in state["records"]] == [3, 4, 5]  # inflight 4: units 3..5 were out at update 3
    resumed = train(None, tmp_path / "resumed", resume=True, progress=False, max_iterations=3)
    assert resumed["counters"]["decisions"] == c["decisions"]
    assert_same_weights(weights(tmp_path / "straight/checkpoints/last.pt"),
                        weights(tmp_path / "resumed/checkpoints/last.pt"))


def test_policy_lag_follows_broadcast_every(fake, tmp_path):
    """With broadcast_every 2 and inflight 4, unit u acts with the weights published at the last even update at or
    before u - 3 (the update after which it was dispatched)."""
    from tarockrl.training import ray_backend

    seen = []
    original = ray_backend.RayCollector._dispatch

    def spy(self, unit):
        original(self, unit)
        seen.append((unit, self.records[unit]["weights"]))

    ray_backend.RayCollector._dispatch = spy
    try:
        train(tiny(), tmp_path / "run", progress=False, max_iterations=5)
    finally:
        ray_backend.RayCollector._dispatch = original
    expected = [(u, f"w{max(0, u - 3) // 2 * 2}") for u in range(8)]
    assert seen == expected
