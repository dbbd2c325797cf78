"""The training loop: collect, learn, log, checkpoint, evaluate; resumable after any kill.

A run directory holds::

    config.yaml          the resolved config (every default filled in)
    tb/                  TensorBoard event files (charts/..., losses/..., eval/...)
    checkpoints/         ckpt_<iteration>.pt (the last few), best.pt (best evaluation), last.pt (the final one)
    eval.jsonl           one line per evaluation
    progress.jsonl       one line per logged iteration

``train(cfg, run_dir)`` starts a run; ``train(None, run_dir, resume=True)`` continues the newest readable checkpoint
of ``run_dir`` with the run's own config (overrides may change the budget and the logging, not the model). Because
deals, exploration and sampling are seeded from the run seed and the iteration, and every generator's state is in
the checkpoint, a resumed run repeats exactly what the killed one would have done after that checkpoint: it loses at
most one checkpoint interval, and nothing is counted twice.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml

from tarockrl.agents.checkpoint import (
    FORMAT,
    VERSION,
    CheckpointError,
    latest_checkpoint,
    layout_fingerprint,
    list_checkpoints,
    load_checkpoint,
    save_atomic,
)
from tarockrl.agents.neural import NeuralAgent
from tarockrl.errors import TarockError
from tarockrl.games import make_game
from tarockrl.training.collect import Collector
from tarockrl.training.common import resolve_device, rng_state, set_rng_state
from tarockrl.training.config import BadConfigError, TrainConfig, config_from_dict, resolved_reward_scale

__all__ = ["train", "make_learner", "RESUMABLE_OVERRIDES"]

RESUMABLE_OVERRIDES = ("total_decisions", "log_every_iterations", "checkpoint", "eval", "device", "torch_threads",
                       "backend", "ray")
"""Top-level keys that ``--resume`` may change; anything else would make the resumed run another run."""


def make_learner(cfg: TrainConfig, game: Any, device: torch.device, rng: np.random.Generator):
    """The algorithm object named by ``cfg.algo``."""
    if cfg.algo == "dmc":
        from tarockrl.training.dmc import DMC

        return DMC(cfg, game, device, rng)
    from tarockrl.training.ppo import PPO

    return PPO(cfg, game, device, rng)


class _FixedAgent:
    """A fixed agent (``make_agent`` spec, e.g. ``rules``) that acts on copies of the collector's row states."""

    def __init__(self, spec: str, game: Any, seed: int, key: str) -> None:
        from tarockrl.agents import make_agent

        try:
            self.agent = make_agent(spec, game, seed=seed)
        except TarockError as err:
            raise BadConfigError(f"{key}: {err}") from None

    def reseed(self, rng: np.random.Generator) -> None:
        """Reseed the agent from the run's generator (so a resumed run repeats its choices)."""
        seed = int(rng.integers(2**62))
        if hasattr(self.agent, "reset"):
            self.agent.reset(seed=seed)

    def actions(self, row_ids: np.ndarray, state_of: Any) -> np.ndarray:
        """The agent's action in each listed row (``state_of(row)``: a copy of the row's state)."""
        return np.array([self.agent.step(state_of(int(r))) for r in row_ids], dtype=np.int64)


def _warm_policy(fixed: _FixedAgent, learner: Any, rng: np.random.Generator, state_of: Any):
    """The collection policy of the warm start: the fixed agent in every seat, epsilon-random like the learner."""
    from tarockrl.training.common import random_legal

    def policy(obs, masks, players, row_ids):
        actions = fixed.actions(row_ids, state_of)
        explore = rng.random(actions.shape[0]) < getattr(learner, "epsilon", 0.0)
        if explore.any():
            actions[explore] = random_legal(masks[explore], rng)
        return actions, {"imitate": ~explore}

    return policy


class _Pool:
    """The other seats' players in a share of the deals: frozen snapshots of past weights, and a fixed agent.

    Every ``pool.snapshot_every`` iterations the weights are frozen into a pool of ``pool.size`` snapshots; in a share
    ``pool.share`` of the deals every seat but one random learning seat is played by a random snapshot. In a share
    ``pool.rules_share`` of the deals the learner takes the ``A`` seats of a random duplicate seating
    (:func:`tarockrl.evaluation.match.seatings`: one or two seats of three, a partnership of four, one of two) and
    the fixed agent ``pool.rules_agent`` (default ``rules``) plays the others, acting on a copy of the row's state.
    """

    def __init__(self, cfg: TrainConfig, learner: Any, device: torch.device, game: Any) -> None:
        self.cfg = cfg.pool
        self.snapshots: list[dict[str, torch.Tensor]] = []
        self.net = copy.deepcopy(learner.modules()["model"]).eval()
        self.device = device
        self.fixed = None
        self.patterns = np.zeros((0, game.num_players), dtype=bool)
        if self.cfg.rules_share > 0:
            from tarockrl.evaluation.match import seatings

            self.fixed = _FixedAgent(self.cfg.rules_agent, game, cfg.seed, "pool.rules_agent")
            self.patterns = np.array([[c == "A" for c in s] for s in seatings(game)], dtype=bool)

    def maybe_snapshot(self, iteration: int, learner: Any) -> None:
        if self.cfg.size and iteration % self.cfg.snapshot_every == 0:
            state = {k: v.detach().cpu().clone() for k, v in learner.modules()["model"].state_dict().items()}
            self.snapshots.append(state)
            del self.snapshots[: -self.cfg.size]

    def opponent(self, rng: np.random.Generator, n: int, num_players: int, state_of: Any = None):
        """``(policy, rows, learner_seats)`` for this iteration, or ``(None, None, None)``.

        ``state_of(row)`` returns a copy of a row's :class:`tarockrl.State` (the fixed agent acts on states).
        """
        snap = bool(self.snapshots) and self.cfg.share > 0
        if self.fixed is None:
            if not snap:
                return None, None, None
            self.net.load_state_dict(self.snapshots[int(rng.integers(len(self.snapshots)))])
            rows = rng.random(n) < self.cfg.share
            seats = rng.integers(num_players, size=n)
            agent = NeuralAgent(self.net, device=self.device)

            def policy(obs, masks, players, row_ids):
                return agent.act_batch(obs, masks), {}

            return policy, rows, seats
        u = rng.random(n)
        fixed_rows = u < self.cfg.rules_share
        snap_rows = ~fixed_rows & (u < self.cfg.rules_share + self.cfg.share) if snap else np.zeros(n, dtype=bool)
        mask = np.zeros((n, num_players), dtype=bool)
        mask[np.arange(n), rng.integers(num_players, size=n)] = True
        mask[fixed_rows] = self.patterns[rng.integers(len(self.patterns), size=int(fixed_rows.sum()))]
        agent = None
        if snap:
            self.net.load_state_dict(self.snapshots[int(rng.integers(len(self.snapshots)))])
            agent = NeuralAgent(self.net, device=self.device)
        self.fixed.reseed(rng)
        fixed = self.fixed

        def policy(obs, masks, players, row_ids):
            out = np.zeros(len(row_ids), dtype=np.int64)
            by_fixed = fixed_rows[row_ids]
            if agent is not None and (~by_fixed).any():
                out[~by_fixed] = agent.act_batch(obs[~by_fixed], masks[~by_fixed])
            if by_fixed.any():
                out[by_fixed] = fixed.actions(row_ids[by_fixed], state_of)
            return out, {"imitate": by_fixed}

        return policy, fixed_rows | snap_rows, mask

def _init_weights(source: str, game: Any, learner: Any) -> None:
    """Load the acting network's weights from a checkpoint (``init_from``; ``pretrained``: the shipped agent)."""
    from tarockrl.agents.checkpoint import check_game
    from tarockrl.agents.neural import PRETRAINED_DIR

    path = PRETRAINED_DIR / f"{game.name}.pt" if source == "pretrained" else Path(source)
    try:
        payload = load_checkpoint(path)
        check_game(payload, game, path)
    except CheckpointError as err:
        raise BadConfigError(f"init_from: {err}") from None
    net = learner.modules()["model"]
    theirs = {k: v for k, v in payload["network"].items() if k != "threshold"}
    mine = {k: v for k, v in net.spec.items() if k != "threshold"}
    if theirs != mine:
        raise BadConfigError(f"init_from: {str(path)!r} holds a {theirs} network; this config builds {mine} "
                             "(match network.hidden and dmc.imitation_coef > 0 for a q_imitation net)")
    net.load_state_dict(payload["model"])


def _write_yaml_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        yaml.safe_dump(data, f, sort_keys=False)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _append_jsonl(path: Path, record: dict[str, Any]) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _truncate_jsonl(path: Path, iteration: int) -> None:
    """Drop lines logged after ``iteration`` (a resumed run logs them again)."""
    if not path.exists():
        return
    keep = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            if json.loads(line).get("iteration", 0) <= iteration:
                keep.append(line)
        except json.JSONDecodeError:
            continue  # a torn last line from a kill
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text("".join(k + "\n" for k in keep), encoding="utf-8")
    os.replace(tmp, path)


def _evaluate(cfg: TrainConfig, game: Any, learner: Any, iteration: int) -> dict[str, float]:
    """A duplicate match of the greedy learner against ``cfg.eval.opponent`` on fixed boards."""
    from tarockrl.training.evaluate import evaluate_against

    agent = NeuralAgent(copy.deepcopy(learner.modules()["model"]).cpu())
    return evaluate_against(game, agent, cfg.eval.opponent, cfg.eval.boards, cfg.eval.seed)


def train(
    cfg: TrainConfig | None,
    run_dir: str | Path,
    *,
    resume: bool = False,
    overrides: dict[str, Any] | None = None,
    progress: bool = True,
    max_iterations: int | None = None,
) -> dict[str, Any]:
    """Run (or resume) training; returns the final counters and the last logged scalars.

    Args:
        cfg: the validated config (None with ``resume``: read the run's ``config.yaml``).
        run_dir: the run directory (created when missing).
        resume: continue from the newest readable checkpoint in ``run_dir/checkpoints``.
        overrides: with ``resume``, new values for the keys of :data:`RESUMABLE_OVERRIDES` (a nested dict).
        progress: print a compact line per logged iteration to stderr.
        max_iterations: stop after this many iterations of this call (tests, benchmarks).
    """
    from torch.utils.tensorboard import SummaryWriter

    run_dir = Path(run_dir)
    ckpt_dir = run_dir / "checkpoints"
    payload = None
    if resume:
        saved = run_dir / "config.yaml"
        if not saved.is_file():
            raise BadConfigError(f"cannot resume {str(run_dir)!r}: it has no config.yaml (is it a run directory?)")
        data = yaml.safe_load(saved.read_text(encoding="utf-8"))
        for key, value in (overrides or {}).items():
            if key not in RESUMABLE_OVERRIDES:
                raise BadConfigError(f"--resume cannot change {key!r} (only {', '.join(RESUMABLE_OVERRIDES)})")
            if isinstance(value, dict) and isinstance(data.get(key), dict):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
        cfg = config_from_dict(data)
        latest = latest_checkpoint(ckpt_dir)
        if latest is not None:
            payload = load_checkpoint(latest)
    elif cfg is None:
        raise BadConfigError("train() needs a config unless resume=True")
    assert cfg is not None
    if not resume and (ckpt_dir.is_dir() and list_checkpoints(ckpt_dir)):
        raise BadConfigError(f"{str(run_dir)!r} already holds a run; use --resume {run_dir} or another --run-dir")
    run_dir.mkdir(parents=True, exist_ok=True)
    ckpt_dir.mkdir(exist_ok=True)
    _write_yaml_atomic(run_dir / "config.yaml", cfg.model_dump(mode="json"))

    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    device = resolve_device(cfg.device)
    game = make_game(cfg.game, **cfg.game_options)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    learner = make_learner(cfg, game, device, rng)
    pool = _Pool(cfg, learner, device, game)
    warm = _FixedAgent(cfg.warm_start.agent, game, cfg.seed, "warm_start.agent") if cfg.warm_start.decisions else None
    expert = None
    if cfg.expert.share > 0:
        from tarockrl.training.expert import ExpertLabeller

        expert = ExpertLabeller(cfg.expert, game, cfg.seed)
    if payload is None and cfg.init_from:
        _init_weights(cfg.init_from, game, learner)
    scale = resolved_reward_scale(cfg)
    counters = {"iteration": 0, "decisions": 0, "deals": 0, "seconds": 0.0}
    best = -float("inf")
    if payload is not None:
        if payload["game"] != game.name or payload["layout"] != layout_fingerprint(game):
            raise CheckpointError(f"the newest checkpoint of {str(run_dir)!r} belongs to another game or layout")
        for name, module in learner.modules().items():
            module.load_state_dict(payload[name])
        for name, opt in learner.optimizers().items():
            opt.load_state_dict(payload[name])
        set_rng_state(rng, payload["rng"])
        if hasattr(learner, "load_extra_state"):
            learner.load_extra_state(payload.get("extra", {}))
        pool.snapshots = list(payload.get("pool", []))
        counters.update(payload["counters"])
        best = float(payload.get("best", best))
    start_iteration = counters["iteration"]
    for name in ("progress.jsonl", "eval.jsonl"):
        _truncate_jsonl(run_dir / name, start_iteration)
    writer = SummaryWriter(str(run_dir / "tb"), purge_step=start_iteration + 1 if resume else None)
    if cfg.backend == "ray":  # rollout actors on Ray (docs/ray.md); Ray is imported only here
        from tarockrl.training.ray_backend import make_ray_collector

        collector = make_ray_collector(cfg, learner, pool)
        collector.load_state_dict((payload or {}).get("collector"))
    else:
        collector = Collector(game, cfg.num_envs, cfg.seed, full_obs=getattr(learner, "needs_full_obs", False))

    def save(tag: str | None = None) -> Path:
        data = {
            "format": FORMAT, "version": VERSION, "game": game.name, "game_options": dict(game.options),
            "layout": layout_fingerprint(game), "algo": cfg.algo, "network": learner.modules()["model"].spec,
            "rng": rng_state(rng), "counters": dict(counters), "config": cfg.model_dump(mode="json"),
            "pool": pool.snapshots, "best": best,
            "extra": learner.extra_state() if hasattr(learner, "extra_state") else {},
        }
        if hasattr(collector, "state_dict"):  # the Ray backend's in-flight rollouts
            data["collector"] = collector.state_dict()
        for name, module in learner.modules().items():
            data[name] = module.state_dict()
        for name, opt in learner.optimizers().items():
            data[name] = opt.state_dict()
        path = save_atomic(data, ckpt_dir / (f"{tag}.pt" if tag else f"ckpt_{counters['iteration']:010d}.pt"))
        if tag is None:
            for old in list_checkpoints(ckpt_dir)[: -cfg.checkpoint.keep_last]:
                old.unlink(missing_ok=True)
        return path

    last: dict[str, float] = {}
    iterations_here = 0
    try:
        while counters["decisions"] < cfg.total_decisions:
            if max_iterations is not None and iterations_here >= max_iterations:
                break
            t0 = time.perf_counter()
            it = counters["iteration"]
            learner.set_progress(counters["decisions"] / cfg.total_decisions)
            warming = warm is not None and counters["decisions"] < cfg.warm_start.decisions
            state_of = collector.batch.state if hasattr(collector, "batch") else None  # None on Ray (no fixed agent)
            if warming:
                warm.reseed(rng)
                rollout = collector.rollout(it, _warm_policy(warm, learner, rng, state_of))
            else:
                opp, opp_rows, opp_seats = pool.opponent(rng, cfg.num_envs, game.num_players, state_of)
                policy = learner.policy
                if expert is not None:
                    expert.reseed(rng)
                    policy = expert.wrap(policy, state_of, rng)
                rollout = collector.rollout(it, policy, opp, opp_rows, opp_seats)
            t1 = time.perf_counter()
            scalars = learner.update(rollout, scale)
            t2 = time.perf_counter()
            counters["iteration"] = it + 1
            counters["decisions"] += len(rollout)
            counters["deals"] += cfg.num_envs
            counters["seconds"] += t2 - t0
            iterations_here += 1
            pool.maybe_snapshot(counters["iteration"], learner)
            scalars.update({
                "charts/episodic_return": float(rollout.returns[:, 0].mean()),
                "charts/episodic_return_abs": float(np.abs(rollout.returns).mean()),
                "charts/episode_length": float(rollout.lengths.mean()),
                "charts/SPS": len(rollout) / max(t2 - t0, 1e-9),
                "charts/decisions": float(counters["decisions"]),
                "charts/warm_start": float(warming),
                "time/engine_share": rollout.engine_seconds / max(t2 - t0, 1e-9),
                "time/network_share": rollout.policy_seconds / max(t2 - t0, 1e-9),
                "time/learner_share": (t2 - t1) / max(t2 - t0, 1e-9),
            })
            if expert is not None:
                scalars["time/expert_share"] = expert.seconds / max(counters["seconds"], 1e-9)
            if hasattr(collector, "scalars"):  # the Ray backend's ray/* scalars
                scalars.update(collector.scalars())
            step = counters["iteration"]
            if step % cfg.log_every_iterations == 0:
                for k, v in scalars.items():
                    writer.add_scalar(k, v, step)
                _append_jsonl(run_dir / "progress.jsonl", {"iteration": step, **counters, **scalars})
                if progress:
                    loss = next((f"{k.split('/')[1]} {v:.4f}" for k, v in scalars.items() if k.startswith("losses/")),
                                "")
                    print(f"[{cfg.game} {cfg.algo}] it {step} decisions {counters['decisions']:,}/"
                          f"{cfg.total_decisions:,} SPS {scalars['charts/SPS']:,.0f} {loss}", file=sys.stderr)
            if cfg.eval.every_iterations and step % cfg.eval.every_iterations == 0:
                result = _evaluate(cfg, game, learner, step)
                for k, v in result.items():
                    writer.add_scalar(f"eval/{k}", v, step)
                _append_jsonl(run_dir / "eval.jsonl", {"iteration": step, **result})
                scalars.update({f"eval/{k}": v for k, v in result.items()})
                if result.get("mean", -float("inf")) > best:
                    best = float(result["mean"])
                    save("best")
                if progress:
                    print(f"[{cfg.game} {cfg.algo}] eval vs {cfg.eval.opponent}: {result.get('mean', 0):+.3f} "
                          f"[{result.get('ci_low', 0):+.3f}, {result.get('ci_high', 0):+.3f}]", file=sys.stderr)
            if step % cfg.checkpoint.every_iterations == 0:
                save()
            last = scalars
        if counters["iteration"] > start_iteration:
            save()
            shutil.copyfile(list_checkpoints(ckpt_dir)[-1], ckpt_dir / ".last.tmp")
            os.replace(ckpt_dir / ".last.tmp", ckpt_dir / "last.pt")
    finally:
        writer.close()
        collector.close()
    return {"counters": counters, "scalars": last, "run_dir": str(run_dir)}
