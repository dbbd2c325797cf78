"""Self-play training: configs, both algorithms on every game, checkpoints as agents, resume after SIGKILL."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.checkpoint import CheckpointError, list_checkpoints, load_checkpoint
from tarockrl.training import BadConfigError, load_config, train
from tarockrl.training.config import config_from_dict
from tarockrl.training.ppo import seat_gae

ROOT = Path(__file__).resolve().parents[2]


def tiny(game, algo, **extra):
    data = {"game": game, "algo": algo, "num_envs": 8, "total_decisions": 10**9, "network": {"hidden": [32]},
            "dmc": {"batch_size": 128}, "ppo": {"minibatch_size": 128, "epochs": 1,
                                                "perfect_info_critic": algo == "ppo"},
            "checkpoint": {"every_iterations": 1, "keep_last": 2}}
    data.update(extra)
    return config_from_dict(data)


# -- configs ---------------------------------------------------------------------------------------------------
def test_unknown_key_names_it_and_suggests():
    with pytest.raises(BadConfigError, match=r"unknown key 'dmc.epsillon' \(did you mean 'dmc.epsilon'\?\)"):
        config_from_dict({"dmc": {"epsillon": 0.1}})
    with pytest.raises(BadConfigError, match=r"unknown key 'num_env'.*did you mean 'num_envs'"):
        config_from_dict({"num_env": 3})


@pytest.mark.parametrize("data, word", [
    ({"num_envs": 0}, "num_envs"), ({"dmc": {"epsilon": 2}}, "dmc.epsilon"), ({"game": "chess"}, "unknown game"),
    ({"algo": "a2c"}, "algo"), ({"reward_scale": -1.0}, "reward_scale"), ({"device": "tpu"}, "device"),
    ({"game_options": {"no_such_option": 1}}, "game_options"), ({"network": {"hidden": []}}, "network.hidden"),
    ({"backend": "ray", "pool": {"rules_share": 0.5}}, "backend: ray"),
    ({"backend": "ray", "warm_start": {"decisions": 1000}}, "warm_start.decisions=0"),
])
def test_bad_values_are_named(data, word):
    with pytest.raises(BadConfigError, match=word):
        config_from_dict(data)


def test_overrides_and_files(tmp_path):
    cfg = load_config(ROOT / "configs/dreierles_dmc_smoke.yaml", ["dmc.epsilon=0.2", "seed=7", "network.hidden=[8]"])
    assert (cfg.dmc.epsilon, cfg.seed, cfg.network.hidden) == (0.2, 7, [8])
    with pytest.raises(BadConfigError, match="key=value"):
        load_config(None, ["seed"])
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: [1,\n")
    with pytest.raises(BadConfigError, match="not valid YAML"):
        load_config(bad)
    with pytest.raises(BadConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("seed: 1 # \xe9\n".encode("latin-1"))
    with pytest.raises(BadConfigError, match="cannot read"):
        load_config(latin)


def test_every_shipped_config_validates():
    files = sorted((ROOT / "configs").glob("*_dmc*.yaml")) + sorted((ROOT / "configs").glob("*_ppo*.yaml"))
    assert len(files) == 16
    pretrained = sorted((ROOT / "configs").glob("*_pretrained.yaml"))
    assert [f.stem for f in pretrained] == [f"{g}_pretrained" for g in sorted(tarockrl.list_games())]
    for f in files + pretrained:
        load_config(f)


# -- algorithms --------------------------------------------------------------------------------------------------
def test_seat_gae_by_hand():
    # one deal, seats 0 and 1 alternate; seat 0 decides at steps 0, 2; seat 1 at 1, 3; returns +1 / -1
    values = np.array([0.5, -0.5, 0.25, -0.25], dtype=np.float32)
    rows = np.zeros(4, dtype=np.int64)
    players = np.array([0, 1, 0, 1])
    steps = np.arange(4)
    finals = np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32)
    adv = seat_gae(values, rows, players, steps, finals, lam=0.5)
    # seat 0: last (step 2): 1 - 0.25 = 0.75; first: (0.25 - 0.5) + 0.5 * 0.75 = 0.125
    np.testing.assert_allclose(adv, [0.125, -0.125, 0.75, -0.75], atol=1e-6)
    np.testing.assert_allclose(seat_gae(values, rows, players, steps, finals, lam=1.0), finals - values, atol=1e-6)


@pytest.mark.parametrize("algo", ["dmc", "ppo"])
@pytest.mark.parametrize("game", tarockrl.list_games())
def test_a_few_updates_on_every_game(tmp_path, game, algo):
    result = train(tiny(game, algo), tmp_path / "run", progress=False, max_iterations=2)
    c = result["counters"]
    assert c["iteration"] == 2 and c["deals"] == 16 and c["decisions"] > 16
    assert np.isfinite(list(result["scalars"].values())).all()
    agent = make_agent(f"ckpt:{tmp_path / 'run/checkpoints/last.pt'}", game, seed=0)
    state = tarockrl.make_game(game).new_initial_state(seed=5)
    while not state.is_terminal():
        a = agent.step(state)
        assert a in state.legal_actions()
        state.apply_action(a)


def test_checkpoint_errors(tmp_path):
    train(tiny("tatteln", "dmc"), tmp_path / "run", progress=False, max_iterations=1)
    path = tmp_path / "run/checkpoints/last.pt"
    payload = load_checkpoint(path)
    assert payload["game"] == "tatteln" and payload["counters"]["iteration"] == 1
    with pytest.raises(CheckpointError, match="trained on 'tatteln', not on 'dreierles'"):
        make_agent(f"ckpt:{path}", "dreierles")
    with pytest.raises(CheckpointError, match="other rules options"):
        make_agent(f"ckpt:{path}", tarockrl.make_game("tatteln", no_trump=True))
    broken = tmp_path / "broken.pt"
    broken.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        make_agent(f"ckpt:{broken}", "tatteln")
    other = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(2)}, other)
    with pytest.raises(CheckpointError, match="not a tarockrl checkpoint"):
        make_agent(f"ckpt:{other}", "tatteln")
    with pytest.raises(CheckpointError, match="no checkpoint file"):
        make_agent(f"ckpt:{tmp_path / 'nope.pt'}", "tatteln")
    with pytest.raises(BadConfigError, match="already holds a run"):
        train(tiny("tatteln", "dmc"), tmp_path / "run", progress=False, max_iterations=1)


def test_resume_continues_exactly(tmp_path):
    cfg = tiny("tatteln", "ppo", pool={"size": 2, "snapshot_every": 1, "share": 0.5})
    straight = train(cfg, tmp_path / "a", progress=False, max_iterations=4)
    train(cfg, tmp_path / "b", progress=False, max_iterations=2)
    resumed = train(None, tmp_path / "b", resume=True, progress=False, max_iterations=2)
    for key in ("iteration", "decisions", "deals"):
        assert straight["counters"][key] == resumed["counters"][key]
    wa = load_checkpoint(tmp_path / "a/checkpoints/last.pt")["model"]
    wb = load_checkpoint(tmp_path / "b/checkpoints/last.pt")["model"]
    for k in wa:
        torch.testing.assert_close(wa[k], wb[k], rtol=0, atol=0)
    lines = (tmp_path / "b/progress.jsonl").read_text().splitlines()
    assert len(lines) == 4  # nothing logged twice


def test_resume_after_sigkill(tmp_path):
    """A real ``tarockrl train`` process killed with SIGKILL resumes and ends with the uninterrupted counters."""
    run = tmp_path / "killed"
    args = [sys.executable, "-m", "tarockrl", "train", "--config", str(ROOT / "configs/tatteln_dmc_smoke.yaml"),
            "-o", "total_decisions=20000", "-o", "checkpoint.every_iterations=1", "-o", "checkpoint.keep_last=50",
            "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([*args, "--run-dir", str(run)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 600
    while time.time() < deadline and len(list_checkpoints(run / "checkpoints")) < 2 and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be killed; give it a larger budget"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert list_checkpoints(run / "checkpoints"), "no checkpoint was written before the kill"
    subprocess.run([sys.executable, "-m", "tarockrl", "train", "--resume", str(run), "--quiet"], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    straight = tmp_path / "straight"
    subprocess.run([*args, "--run-dir", str(straight)], env=env, check=True, stdout=subprocess.DEVNULL)
    a = load_checkpoint(run / "checkpoints/last.pt")
    b = load_checkpoint(straight / "checkpoints/last.pt")
    assert a["counters"]["decisions"] == b["counters"]["decisions"] >= 20000
    assert a["counters"]["iteration"] == b["counters"]["iteration"]
    for k in a["model"]:
        torch.testing.assert_close(a["model"][k], b["model"][k], rtol=0, atol=0)


def test_export_for_inference_plays_the_same(tmp_path):
    from tarockrl.training.export import main as export_main

    train(tiny("tatteln", "dmc"), tmp_path / "run", progress=False, max_iterations=1)
    src, dst = tmp_path / "run/checkpoints/last.pt", tmp_path / "agent.pt"
    assert export_main([str(src), str(dst)]) == 0
    payload = load_checkpoint(dst)
    assert "optimizer" not in payload and "rng" not in payload and payload["counters"]["iteration"] == 1
    assert dst.stat().st_size < src.stat().st_size
    a, b = make_agent(f"ckpt:{src}", "tatteln"), make_agent(f"ckpt:{dst}", "tatteln")
    state = tarockrl.make_game("tatteln").new_initial_state(seed=2)
    while not state.is_terminal():
        assert a.step(state) == b.step(state)
        state.apply_action(a.step(state))


def test_resume_rejects_model_changes(tmp_path):
    train(tiny("tatteln", "dmc"), tmp_path / "run", progress=False, max_iterations=1)
    with pytest.raises(BadConfigError, match="cannot change 'network'"):
        train(None, tmp_path / "run", resume=True, overrides={"network": {"hidden": [8]}}, progress=False)
    with pytest.raises(BadConfigError, match="no config.yaml"):
        train(None, tmp_path / "nothing", resume=True, progress=False)


def test_pretrained_missing_is_clear(monkeypatch, tmp_path):
    from tarockrl.agents import neural
    from tarockrl.errors import BadAgentSpecError

    monkeypatch.setattr(neural, "PRETRAINED_DIR", tmp_path)  # a version that ships none
    with pytest.raises(BadAgentSpecError, match=r"no pretrained agent for 'troccas'.*shipped: none"):
        make_agent("pretrained", "troccas")


SHIPPED = sorted(p.stem for p in (ROOT / "tarockrl/agents/pretrained").glob("*.pt"))


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_pretrained_agents_load_and_play_legally(game):
    """Every shipped checkpoint loads for its game with default options, is small, and plays whole deals legally."""
    path = ROOT / "tarockrl/agents/pretrained" / f"{game}.pt"
    assert path.stat().st_size < 5_000_000
    payload = load_checkpoint(path)
    assert payload["game"] == game and payload["counters"]["decisions"] > 0
    assert "optimizer" not in payload  # shipped files carry the weights only
    agent = make_agent("pretrained", game, seed=0)
    g = tarockrl.make_game(game)
    for seed in range(2):
        state = g.new_initial_state(seed=seed)
        while not state.is_terminal():
            a = agent.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)


# -- a fixed opponent (the rule-based player) and the warm start ---------------------------------------------------
def test_fixed_opponent_and_warm_start_config_errors(tmp_path):
    with pytest.raises(BadConfigError, match=r"pool.*share.*rules_share.*at most 1"):
        config_from_dict({"pool": {"size": 2, "share": 0.5, "rules_share": 0.6}})
    config_from_dict({"pool": {"size": 0, "share": 0.5, "rules_share": 0.6}})  # no snapshots: share is unused
    with pytest.raises(BadConfigError, match="warm_start.decisions > 0 needs algo: dmc"):
        config_from_dict({"algo": "ppo", "warm_start": {"decisions": 10}})
    with pytest.raises(BadConfigError, match="unknown key 'warm_start.decision'.*did you mean 'warm_start.decisions'"):
        config_from_dict({"warm_start": {"decision": 10}})
    with pytest.raises(BadConfigError, match="pool.rules_agent"):
        train(tiny("tatteln", "dmc", pool={"rules_share": 0.5, "rules_agent": "nosuchagent"}), tmp_path / "a",
              progress=False, max_iterations=1)
    with pytest.raises(BadConfigError, match="warm_start.agent"):
        train(tiny("tatteln", "dmc", warm_start={"decisions": 5, "agent": "nosuchagent"}), tmp_path / "b",
              progress=False, max_iterations=1)


def test_rules_opponents_sit_as_in_a_duplicate_match():
    """With ``pool.rules_share: 1`` the learner holds the A seats of a duplicate seating in every deal, and every
    other decision is the rule-based player's choice on that state."""
    from tarockrl.evaluation.match import seatings
    from tarockrl.training.collect import Collector
    from tarockrl.training.run import _Pool, make_learner

    game = tarockrl.make_game("dreierles")
    cfg = tiny("dreierles", "dmc", pool={"rules_share": 1.0})
    rng = np.random.default_rng(0)
    learner = make_learner(cfg, game, torch.device("cpu"), rng)
    pool = _Pool(cfg, learner, torch.device("cpu"), game)
    collector = Collector(game, 8, seed=3)
    seen = []

    class Recorder:  # the rules agent, remembering what it was asked
        def __init__(self, inner):
            self.inner = inner

        def reset(self, seed=None):
            self.inner.reset(seed=seed)

        def step(self, state):
            a = self.inner.step(state)
            seen.append((state.current_player(), a, state.legal_actions()))
            return a

    pool.fixed.agent = Recorder(pool.fixed.agent)
    opp, rows, mask = pool.opponent(rng, 8, 3, collector.batch.state)
    assert rows.all()
    patterns = {tuple(c == "A" for c in s) for s in seatings(game)}
    assert all(tuple(m) in patterns for m in mask)
    roll = collector.rollout(0, learner.policy, opp, rows, mask)
    collector.close()
    np.testing.assert_array_equal(roll.learner, mask[roll.rows, roll.players])
    theirs = np.flatnonzero(~roll.learner)
    assert len(seen) == theirs.size > 0
    assert [s[0] for s in seen] == roll.players[theirs].tolist()
    assert [s[1] for s in seen] == roll.actions[theirs].tolist()
    assert all(a in legal for _, a, legal in seen)


def test_warm_start_then_rules_opponents_resume_exactly(tmp_path):
    """A run that warm-starts from the rule-based player and then trains against it resumes bit-identically."""
    cfg = tiny("dreierles", "dmc", num_envs=6, warm_start={"decisions": 300, "agent": "rules"},
               pool={"rules_share": 0.5, "size": 2, "share": 0.25, "snapshot_every": 1},
               dmc={"batch_size": 128, "imitation_coef": 1.0, "support_threshold": 0.2})
    straight = train(cfg, tmp_path / "a", progress=False, max_iterations=4)
    train(cfg, tmp_path / "b", progress=False, max_iterations=2)
    resumed = train(None, tmp_path / "b", resume=True, progress=False, max_iterations=2)
    assert straight["counters"] == {**resumed["counters"], "seconds": straight["counters"]["seconds"]}
    import json

    warm = [json.loads(x)["charts/warm_start"] for x in (tmp_path / "a/progress.jsonl").read_text().splitlines()]
    assert warm[0] == 1.0 and warm[-1] == 0.0 and warm == sorted(warm, reverse=True)
    wa = load_checkpoint(tmp_path / "a/checkpoints/last.pt")["model"]
    wb = load_checkpoint(tmp_path / "b/checkpoints/last.pt")["model"]
    for k in wa:
        torch.testing.assert_close(wa[k], wb[k], rtol=0, atol=0)
    scalars = straight["scalars"]
    assert scalars["losses/imitation_loss"] > 0  # the rules player's choices in the rules_share deals
    agent = make_agent(f"ckpt:{tmp_path / 'a/checkpoints/last.pt'}", "dreierles", seed=0)
    assert agent.net.spec["kind"] == "q_imitation" and agent.net.threshold == 0.2
    state = tarockrl.make_game("dreierles").new_initial_state(seed=11)
    while not state.is_terminal():
        a = agent.step(state)
        assert a in state.legal_actions()
        state.apply_action(a)


def test_support_scores_restrict_greedy_acting_to_plausible_actions():
    from tarockrl.agents.nets import QImitationNet, support_scores

    q = torch.tensor([[5.0, 1.0, 2.0, 9.0], [0.0, 3.0, 1.0, 2.0]])
    probs = torch.tensor([[0.05, 0.6, 0.35, 0.0], [0.1, 0.1, 0.4, 0.4]])
    logits = probs.clamp_min(1e-9).log()
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1]], dtype=torch.int8)
    # row 0: action 3 is illegal; 0 is legal but implausible (0.05 < 0.3 * 0.6); between 1 and 2 Q picks 2
    # row 1: plausible at 0.3: 2 and 3 (0.4), not 0, 1 (0.1 < 0.12); Q picks 3
    assert support_scores(q, logits, mask, 0.3).argmax(dim=1).tolist() == [2, 3]
    assert support_scores(q, logits, mask, 0.05).argmax(dim=1).tolist() == [0, 1]  # everything legal is plausible
    assert support_scores(q, logits, mask, 1.0).argmax(dim=1).tolist() == [1, 3]  # the most probable (ties by Q)
    scores = support_scores(q, logits, mask, 0.3)
    assert scores[0, 3] == -1e9 and scores[0, 0] < scores[0, 1]
    net = QImitationNet(6, 4, [8], threshold=0.3)
    obs = torch.randn(5, 6)
    m = torch.ones(5, 4, dtype=torch.int8)
    torch.testing.assert_close(net.masked_scores(obs, m), support_scores(*net(obs), m, 0.3))
    torch.testing.assert_close(net.action_scores(obs), net(obs)[0])


@pytest.mark.slow
def test_warm_start_imitates_the_rules_player(tmp_path):
    """After a short warm start on the rule-based player's play, the imitation head's most probable action is the
    rules player's choice on most decisions of fresh deals."""
    from tarockrl.agents.nets import QImitationNet  # noqa: F401  (the network the checkpoint rebuilds)

    cfg = config_from_dict({"game": "dreierles", "num_envs": 256, "total_decisions": 300_000,
                            "network": {"hidden": [128, 128]},
                            "dmc": {"learning_rate": 1e-3, "epsilon": 0.0, "batch_size": 1024, "epochs": 2,
                                    "imitation_coef": 1.0, "support_threshold": 1.0},
                            "warm_start": {"decisions": 300_000}, "checkpoint": {"every_iterations": 100}})
    train(cfg, tmp_path / "run", progress=False)
    agent = make_agent(f"ckpt:{tmp_path / 'run/checkpoints/last.pt'}", "dreierles")
    rules = make_agent("rules", "dreierles", seed=0)
    game = tarockrl.make_game("dreierles")
    same = total = 0
    for seed in range(10**6, 10**6 + 40):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            a = rules.step(state)
            if len(state.legal_actions()) > 1:
                same += int(agent.step(state) == a)
                total += 1
            state.apply_action(a)
    assert same / total > 0.8, (same, total)


def test_evaluation_during_training(tmp_path):
    cfg = tiny("tatteln", "dmc", eval={"every_iterations": 1, "opponent": "random", "boards": 3, "seed": 1})
    train(cfg, tmp_path / "run", progress=False, max_iterations=2)
    import json

    lines = [json.loads(x) for x in (tmp_path / "run/eval.jsonl").read_text().splitlines()]
    assert [x["iteration"] for x in lines] == [1, 2]
    assert all(x["boards"] == 3 and x["ci_low"] <= x["mean"] <= x["ci_high"] for x in lines)
    assert (tmp_path / "run/checkpoints/best.pt").is_file()
    make_agent(f"ckpt:{tmp_path / 'run/checkpoints/best.pt'}", "tatteln")


@pytest.mark.slow
def test_dmc_learns_to_beat_random(tmp_path):
    """A small Deep Monte Carlo run on Tatteln beats random play in a duplicate match (fixed seed)."""
    from tarockrl.evaluation import duplicate_match, generate_boards

    cfg = config_from_dict({"game": "tatteln", "algo": "dmc", "num_envs": 256, "total_decisions": 400_000,
                            "network": {"hidden": [128, 128]}, "dmc": {"learning_rate": 1e-3, "epsilon": 0.1,
                                                                        "batch_size": 1024},
                            "checkpoint": {"every_iterations": 50}})
    train(cfg, tmp_path / "run", progress=False)
    game = tarockrl.make_game("tatteln")
    result = duplicate_match(game, [f"ckpt:{tmp_path / 'run/checkpoints/last.pt'}", "random"],
                             generate_boards(game, 300, seed=99), seed=3)
    assert result.diff["ci_bootstrap"][0] > 0, result.diff
