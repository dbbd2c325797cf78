"""``backend: ray`` training on a local Ray instance: two actors, a killed actor, resume (all slow: Ray starts
actor processes that import torch and tarockrl)."""

import pytest
import torch

from tarockrl.agents.checkpoint import load_checkpoint
from tarockrl.training import train
from tarockrl.training.config import config_from_dict


def tiny(algo="dmc", **extra):
    data = {"game": "tatteln", "algo": algo, "num_envs": 8, "total_decisions": 10**9, "network": {"hidden": [16]},
            "dmc": {"batch_size": 128}, "ppo": {"minibatch_size": 128, "epochs": 1, "perfect_info_critic": True},
            "checkpoint": {"every_iterations": 1, "keep_last": 50}, "backend": "ray",
            "ray": {"num_actors": 2, "cpus_per_actor": 1, "broadcast_every": 2}}
    data.update(extra)
    return config_from_dict(data)


def weights(path):
    return load_checkpoint(path)["model"]


def assert_same_weights(a, b):
    for k in a:
        torch.testing.assert_close(a[k], b[k], rtol=0, atol=0)


@pytest.mark.slow
def test_two_actors_kill_and_resume_match_an_uninterrupted_run(ray_local, tmp_path, monkeypatch):
    """Six updates with two actors and an opponent pool; the same run with an actor killed mid-run (restarted by
    Ray, its unit played again) and a run stopped after three updates and resumed end with the same counters and
    bit-identical weights."""
    from tarockrl.training import ray_backend

    cfg = tiny(pool={"size": 2, "snapshot_every": 2, "share": 0.5})
    straight = train(cfg, tmp_path / "straight", progress=False, max_iterations=6)
    c = straight["counters"]
    assert c["iteration"] == 6 and c["deals"] == 6 * 8 and c["decisions"] > 6 * 8
    assert straight["scalars"]["ray/actor_restarts"] == 0

    monkeypatch.setattr(ray_backend, "_TEST_KILL_AT_UNIT", 5)  # dispatched at update 2: actor 1 has run
    killed = train(cfg, tmp_path / "killed", progress=False, max_iterations=6)
    assert ray_backend._TEST_KILL_AT_UNIT is None, "the kill hook did not fire"
    assert killed["scalars"]["ray/actor_restarts"] >= 1
    assert killed["scalars"]["ray/lost_units"] >= 1
    for key in ("iteration", "decisions", "deals"):
        assert killed["counters"][key] == c[key]
    assert_same_weights(weights(tmp_path / "straight/checkpoints/last.pt"),
                        weights(tmp_path / "killed/checkpoints/last.pt"))

    train(cfg, tmp_path / "resumed", progress=False, max_iterations=3)
    ckpt = load_checkpoint(tmp_path / "resumed/checkpoints/last.pt")
    assert ckpt["collector"]["records"], "the checkpoint holds the in-flight units"
    resumed = train(None, tmp_path / "resumed", resume=True, progress=False, max_iterations=3)
    for key in ("iteration", "decisions", "deals"):
        assert resumed["counters"][key] == c[key]
    assert_same_weights(weights(tmp_path / "straight/checkpoints/last.pt"),
                        weights(tmp_path / "resumed/checkpoints/last.pt"))
    assert len((tmp_path / "resumed/progress.jsonl").read_text().splitlines()) == 6


@pytest.mark.slow
def test_ppo_with_critic_on_ray_and_resume_locally(ray_local, tmp_path):
    """PPO with the perfect-information critic runs on two actors; its checkpoint is an agent and the run can be
    continued with the local backend."""
    from tarockrl.agents import make_agent

    cfg = tiny("ppo")
    result = train(cfg, tmp_path / "run", progress=False, max_iterations=3)
    assert result["counters"]["iteration"] == 3
    assert result["scalars"]["ray/megabytes_per_unit"] > 0
    agent = make_agent(f"ckpt:{tmp_path / 'run/checkpoints/last.pt'}", "tatteln")
    import tarockrl

    state = tarockrl.make_game("tatteln").new_initial_state(seed=1)
    assert agent.step(state) in state.legal_actions()
    local = train(None, tmp_path / "run", resume=True, overrides={"backend": "local"}, progress=False,
                  max_iterations=1)
    assert local["counters"]["iteration"] == 4
