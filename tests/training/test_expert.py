"""Expert iteration (``expert:``) and fine-tuning from a checkpoint (``init_from``): a few updates, config errors."""

import json

import pytest
import torch

from tarockrl.agents.checkpoint import load_checkpoint
from tarockrl.training import BadConfigError, train
from tarockrl.training.config import config_from_dict

EXPERT = "pimc:worlds=2,rollouts=1,solve_tricks=0"


def tiny(game, **extra):
    data = {"game": game, "algo": "dmc", "num_envs": 4, "total_decisions": 10**9, "network": {"hidden": [32]},
            "dmc": {"batch_size": 128, "imitation_coef": 1.0, "support_threshold": 0.2},
            "pool": {"rules_share": 1.0}, "checkpoint": {"every_iterations": 1, "keep_last": 2}}
    data.update(extra)
    return config_from_dict(data)


def test_expert_iteration_labels_and_distils(tmp_path):
    """PIMC labels a share of the learner's decisions; the expert losses are logged."""
    cfg = tiny("dreierles", num_envs=2, expert={"share": 0.5, "agent": "pimc:worlds=1,rollouts=1,solve_tricks=0",
                                                "value_coef": 0.5, "imitate_fixed": False})
    s = train(cfg, tmp_path / "a", progress=False, max_iterations=1)["scalars"]
    assert s["charts/expert_labels"] > 0
    assert s["losses/expert_loss"] > 0 and s["losses/expert_value_loss"] > 0
    assert s["losses/imitation_loss"] == 0.0  # imitate_fixed: false


@pytest.mark.slow
def test_expert_iteration_resumes_exactly(tmp_path):
    cfg = tiny("dreierles", expert={"share": 0.5, "agent": EXPERT, "min_margin": 1.0})
    straight = train(cfg, tmp_path / "a", progress=False, max_iterations=2)
    train(cfg, tmp_path / "b", progress=False, max_iterations=1)
    resumed = train(None, tmp_path / "b", resume=True, progress=False, max_iterations=1)
    assert straight["counters"] == {**resumed["counters"], "seconds": straight["counters"]["seconds"]}
    wa = load_checkpoint(tmp_path / "a/checkpoints/last.pt")["model"]
    wb = load_checkpoint(tmp_path / "b/checkpoints/last.pt")["model"]
    for k in wa:
        torch.testing.assert_close(wa[k], wb[k], rtol=0, atol=0)


def test_init_from_starts_from_the_checkpoint(tmp_path):
    first = train(tiny("tatteln"), tmp_path / "a", progress=False, max_iterations=1)
    assert first["counters"]["iteration"] == 1
    src = tmp_path / "a/checkpoints/last.pt"
    cfg = tiny("tatteln", init_from=str(src), dmc={"batch_size": 128, "imitation_coef": 1.0,
                                                    "learning_rate": 1e-12})
    train(cfg, tmp_path / "b", progress=False, max_iterations=1)
    wa, wb = load_checkpoint(src)["model"], load_checkpoint(tmp_path / "b/checkpoints/last.pt")["model"]
    for k in wa:  # a step of 1e-12 leaves the weights where init_from put them
        torch.testing.assert_close(wa[k], wb[k], rtol=0, atol=1e-6)
    saved = json.dumps(load_checkpoint(tmp_path / "b/checkpoints/last.pt")["config"])
    assert str(src) in saved


def test_expert_and_init_from_config_errors(tmp_path):
    with pytest.raises(BadConfigError, match=r"expert.share > 0 needs algo: dmc with dmc.imitation_coef > 0"):
        config_from_dict({"expert": {"share": 0.5}})
    with pytest.raises(BadConfigError, match=r"expert.share > 0 needs algo: dmc"):
        config_from_dict({"algo": "ppo", "expert": {"share": 0.5}})
    with pytest.raises(BadConfigError, match=r"unknown key 'expert.shares'.*did you mean 'expert.share'"):
        config_from_dict({"expert": {"shares": 0.5}})
    with pytest.raises(BadConfigError, match=r"expert.share"):
        config_from_dict({"expert": {"share": 1.5}})
    with pytest.raises(BadConfigError, match="expert.agent"):
        train(tiny("tatteln", expert={"share": 0.5, "agent": "nosuchagent"}), tmp_path / "a", progress=False,
              max_iterations=1)
    with pytest.raises(BadConfigError, match="expert.value_coef > 0 or expert.min_margin > 0 needs an expert that"):
        train(tiny("tatteln", expert={"share": 0.5, "agent": "rules", "value_coef": 1.0}), tmp_path / "b",
              progress=False, max_iterations=1)
    with pytest.raises(BadConfigError, match="init_from: .*trained on 'dreierles', not on 'tatteln'"):
        train(tiny("tatteln", init_from="tarockrl/agents/pretrained/dreierles.pt"), tmp_path / "c", progress=False,
              max_iterations=1)
    with pytest.raises(BadConfigError, match=r"init_from: .*network"):  # [256, 256] shipped, [32] here
        train(tiny("tatteln", init_from="pretrained"), tmp_path / "d", progress=False, max_iterations=1)
    with pytest.raises(BadConfigError, match="init_from: no checkpoint file"):
        train(tiny("tatteln", init_from=str(tmp_path / "missing.pt")), tmp_path / "e", progress=False,
              max_iterations=1)
