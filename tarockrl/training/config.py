"""Training configuration: a pydantic schema, YAML files, ``-o key=value`` overrides, clear errors.

A config file is YAML with the fields of :class:`TrainConfig`; nested sections (``dmc``, ``ppo``, ``network``,
``checkpoint``, ``eval``, ``pool``, ``warm_start``) have their own models below, each field documented. Unknown keys
are errors that name the key and suggest the closest known one; values are type-checked with their bounds::

    cfg = load_config("configs/dreierles_dmc.yaml", overrides=["dmc.learning_rate=3e-4", "seed=1"])
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tarockrl.errors import TarockError

__all__ = [
    "BadConfigError",
    "TrainConfig",
    "load_config",
    "apply_overrides",
    "config_from_dict",
    "REWARD_SCALES",
    "resolved_reward_scale",
]

REWARD_SCALES = {"dreierles": 1 / 40, "dreiertarock": 1 / 5200, "tatteln": 1 / 72, "troccas": 1 / 11}
"""``reward_scale: auto``: one over the standard deviation of a seat's settlement per deal under random play with
the default rules (measured on 20,000 deals with ``game.random_playouts``: 39.3, 5,189, 72.4 and 10.7 game points),
so that every game's targets are of order one."""


class BadConfigError(TarockError):
    """A training config with an unknown key, a bad value or a file that cannot be read."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class NetworkConfig(_Section):
    """The network's shape."""

    hidden: list[int] = Field(default=[512, 512], min_length=1, description="hidden layer widths")

    @field_validator("hidden")
    @classmethod
    def _positive(cls, v: list[int]) -> list[int]:
        if any(w < 1 or w > 16384 for w in v):
            raise ValueError("every hidden width must be in [1, 16384]")
        return v


class DMCConfig(_Section):
    """Deep Monte Carlo (DouZero-style): Q(s, a) regressed on the Monte Carlo return of the deal."""

    learning_rate: float = Field(3e-4, gt=0, le=1, description="Adam step size")
    epsilon: float = Field(0.05, ge=0, le=1, description="share of random exploratory actions while collecting")
    epsilon_final: float | None = Field(None, ge=0, le=1, description="anneal epsilon linearly to this (None: fixed)")
    batch_size: int = Field(4096, ge=1, description="transitions per gradient step")
    epochs: int = Field(1, ge=1, le=100, description="passes over each collected rollout")
    max_grad_norm: float = Field(40.0, gt=0, description="gradient clipping")
    imitation_coef: float = Field(0.0, ge=0, description="weight of a cross-entropy loss imitating the fixed agent's "
                                  "choices (warm start, pool.rules_share deals); > 0 adds an imitation head, the "
                                  "values also learn from those choices, and greedy acting is restricted to the "
                                  "actions the head finds plausible")
    support_threshold: float = Field(0.3, gt=0, le=1, description="with imitation: greedy acting maximises Q over "
                                     "the legal actions whose imitation probability is at least this share of the "
                                     "most probable one's (1: only the most probable)")


class PPOConfig(_Section):
    """Masked PPO with every seat sharing one policy; optional perfect-information critic."""

    learning_rate: float = Field(3e-4, gt=0, le=1, description="Adam step size")
    gae_lambda: float = Field(0.95, ge=0, le=1, description="GAE lambda over each seat's own decisions (gamma is 1)")
    clip: float = Field(0.2, gt=0, le=1, description="PPO ratio clipping")
    epochs: int = Field(4, ge=1, le=100, description="passes over each rollout")
    minibatch_size: int = Field(4096, ge=1, description="transitions per gradient step")
    entropy_coef: float = Field(0.01, ge=0, description="entropy bonus")
    value_coef: float = Field(0.5, ge=0, description="value loss weight")
    max_grad_norm: float = Field(0.5, gt=0, description="gradient clipping")
    perfect_info_critic: bool = Field(False, description="the critic sees every seat's observation (training only)")
    normalize_advantages: bool = Field(True, description="normalise advantages per minibatch")


class CheckpointConfig(_Section):
    """When and how many checkpoints are written."""

    every_iterations: int = Field(10, ge=1, description="write a checkpoint every this many iterations")
    keep_last: int = Field(3, ge=1, le=1000, description="how many recent checkpoints to keep (plus best.pt)")


class EvalConfig(_Section):
    """Periodic duplicate matches during training."""

    every_iterations: int = Field(0, ge=0, description="evaluate every this many iterations (0: never)")
    opponent: str = Field("rules", description="agent spec of the opponent (make_agent)")
    boards: int = Field(50, ge=1, le=1_000_000, description="boards per evaluation")
    seed: int = Field(12345, ge=0, description="seed of the evaluation boards (fixed: the same boards every time)")


class PoolConfig(_Section):
    """An opponent pool of past snapshots, so that self-play does not chase its own tail."""

    size: int = Field(0, ge=0, le=1000, description="snapshots kept (0: pure self-play)")
    snapshot_every: int = Field(20, ge=1, description="add a snapshot every this many iterations")
    share: float = Field(0.25, ge=0, le=1, description="share of deals in which the other seats are a snapshot")
    rules_share: float = Field(0.0, ge=0, le=1, description="share of deals against the fixed agent ``rules_agent``, "
                               "seated as in a duplicate match (the learner takes the A seats of a random seating)")
    rules_agent: str = Field("rules", min_length=1, description="agent spec (make_agent) of the fixed opponent")

    @model_validator(mode="after")
    def _shares_fit(self) -> PoolConfig:
        if self.rules_share + (self.share if self.size else 0.0) > 1 + 1e-9:
            raise ValueError(f"pool.share ({self.share}) + pool.rules_share ({self.rules_share}) must be at most 1")
        return self


class WarmStartConfig(_Section):
    """A warm start from a fixed agent (Deep Monte Carlo only): the first ``decisions`` of the run are played by
    ``agent`` in every seat (with the learner's epsilon exploration on top) and the network learns the values of that
    play; greedy acting on those values improves on the agent (a step of policy iteration), and the run goes on with
    ordinary Deep Monte Carlo from there."""

    decisions: int = Field(0, ge=0, description="decisions played by the warm-start agent (0: no warm start)")
    agent: str = Field("rules", min_length=1, description="agent spec (make_agent) whose play is learned from")


class ExpertConfig(_Section):
    """Expert iteration (Deep Monte Carlo with ``dmc.imitation_coef > 0``): a search agent labels a share of the
    learner's decisions from the deciding seat's view, and its choices (and optionally its action values) are
    distilled into the imitation head (and Q) (tarockrl/training/expert.py, docs/training.md)."""

    share: float = Field(0.0, ge=0, le=1, description="share of the learner's decisions (with more than one legal "
                         "action) the expert labels (0: off)")
    agent: str = Field("pimc:worlds=32", min_length=1, description="agent spec (make_agent) of the expert")
    coef: float = Field(1.0, ge=0, description="weight of the cross-entropy of the imitation head on the expert's "
                        "choices")
    value_coef: float = Field(0.0, ge=0, description="weight of the squared error between Q and the expert's "
                              "per-action values (scaled by reward_scale; needs an expert with evaluate, e.g. pimc)")
    act: bool = Field(True, description="the learner plays the expert's choice in the labelled decisions")
    min_margin: float = Field(0.0, ge=0, description="label only decisions where the expert's best action beats the "
                              "runner-up by at least this many standard errors (0: every picked decision; needs an "
                              "expert with evaluate, e.g. pimc)")
    imitate_fixed: bool = Field(True, description="keep the imitation loss on the fixed agent's choices (warm "
                                "start, pool.rules_share deals); false: the imitation head learns from the expert "
                                "only (the fixed agent's decisions still train the values)")


class RayConfig(_Section):
    """Distributed self-play on Ray (``backend: ray``): rollout actors feeding one learner (docs/ray.md)."""

    address: str | None = Field(None, description="cluster to join (auto, HOST:PORT, ray://HOST:10001); "
                                                  "None: start a local Ray instance")
    num_actors: int = Field(2, ge=1, le=100_000, description="rollout actors, each with its own engine batch")
    cpus_per_actor: float = Field(1.0, gt=0, description="CPUs Ray reserves for each actor")
    actor_threads: int = Field(1, ge=1, le=512, description="numba and torch threads inside each actor")
    broadcast_every: int = Field(1, ge=1, description="publish the learner's weights every this many updates")
    inflight: int = Field(0, ge=0, description="rollouts dispatched ahead of the learner (0: 2 x num_actors)")
    max_actor_restarts: int = Field(100, ge=0, description="restarts of a dead actor before the run fails")
    local_cpus: int | None = Field(None, ge=1, description="num_cpus of a local Ray instance (None: every core)")


class TrainConfig(_Section):
    """One training run. Every field can be overridden with ``-o key=value`` (``-o dmc.epsilon=0.1``)."""

    game: str = Field("dreierles", description="game name (tarockrl.list_games())")
    game_options: dict[str, Any] = Field(default_factory=dict, description="rules options of the game")
    algo: Literal["dmc", "ppo"] = Field("dmc", description="the algorithm")
    seed: int = Field(0, ge=0, lt=2**62, description="seed of deals, exploration and initial weights")
    device: str = Field("auto", description="auto (a GPU when present), cpu, cuda, cuda:N")
    num_envs: int = Field(512, ge=1, le=1_000_000, description="deals played side by side in self-play")
    total_decisions: int = Field(1_000_000, ge=1, description="stop after this many collected decisions")
    reward_scale: float | Literal["auto"] = Field("auto", description="multiplies settlements (auto: per game)")
    torch_threads: int = Field(0, ge=0, le=512, description="torch threads (0: leave torch's setting)")
    network: NetworkConfig = Field(default_factory=NetworkConfig)
    dmc: DMCConfig = Field(default_factory=DMCConfig)
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    checkpoint: CheckpointConfig = Field(default_factory=CheckpointConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    pool: PoolConfig = Field(default_factory=PoolConfig)
    warm_start: WarmStartConfig = Field(default_factory=WarmStartConfig)
    expert: ExpertConfig = Field(default_factory=ExpertConfig)
    init_from: str | None = Field(None, description="start from the weights of this checkpoint (a training or "
                                  "exported one, same game, layout and network; 'pretrained': the shipped agent); "
                                  "the optimizer starts fresh")
    log_every_iterations: int = Field(1, ge=1, description="console/TensorBoard scalars every this many iterations")
    backend: Literal["local", "ray"] = Field("local", description="local: this process; ray: actors (docs/ray.md)")
    ray: RayConfig = Field(default_factory=RayConfig)

    @field_validator("game")
    @classmethod
    def _known_game(cls, v: str) -> str:
        from tarockrl.games import list_games

        key = v.strip().lower()
        if key not in list_games():
            raise ValueError(f"unknown game {v!r}; games: {', '.join(list_games())}")
        return key

    @field_validator("reward_scale")
    @classmethod
    def _finite_scale(cls, v: Any) -> Any:
        if isinstance(v, float) and (not math.isfinite(v) or v <= 0):
            raise ValueError("reward_scale must be 'auto' or a finite number > 0")
        return v

    @model_validator(mode="after")
    def _warm_start_algo(self) -> TrainConfig:
        if self.warm_start.decisions and self.algo != "dmc":
            raise ValueError("warm_start.decisions > 0 needs algo: dmc (PPO learns from its own action "
                             "probabilities only)")
        if self.expert.share > 0 and (self.algo != "dmc" or self.dmc.imitation_coef <= 0):
            raise ValueError("expert.share > 0 needs algo: dmc with dmc.imitation_coef > 0 (the expert's choices "
                             "are distilled into the imitation head)")
        if self.backend == "ray" and (self.warm_start.decisions or self.pool.rules_share > 0 or self.expert.share):
            raise ValueError("backend: ray does not support learning from a fixed agent yet: set "
                             "warm_start.decisions=0, pool.rules_share=0 and expert.share=0, or use backend: local")
        return self

    @field_validator("device")
    @classmethod
    def _device(cls, v: str) -> str:
        if v not in ("auto", "cpu", "cuda") and not (v.startswith("cuda:") and v[5:].isdigit()):
            raise ValueError("device must be auto, cpu, cuda or cuda:N")
        return v


def resolved_reward_scale(cfg: TrainConfig) -> float:
    """The number settlements are multiplied by (``auto`` resolved through :data:`REWARD_SCALES`)."""
    return REWARD_SCALES[cfg.game] if cfg.reward_scale == "auto" else float(cfg.reward_scale)


def _known_keys(model: type[BaseModel]) -> list[str]:
    return list(model.model_fields)


def _model_at(path: tuple[Any, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] = TrainConfig
    for part in path:
        field = model.model_fields.get(str(part))
        if field is None:
            return None
        ann = field.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            model = ann
        else:
            return None
    return model


def _explain(err: ValidationError) -> str:
    lines = []
    for e in err.errors():
        loc = tuple(e["loc"])
        dotted = ".".join(str(p) for p in loc)
        if e["type"] == "extra_forbidden":
            model = _model_at(loc[:-1])
            known = _known_keys(model) if model else []
            close = difflib.get_close_matches(str(loc[-1]), known, n=1)
            hint = f" (did you mean {'.'.join([*map(str, loc[:-1]), close[0]])!r}?)" if close else ""
            lines.append(f"unknown key {dotted!r}{hint}; known keys here: {', '.join(known)}")
        else:
            lines.append(f"{dotted}: {e['msg']} (got {e.get('input')!r})")
    return "bad training config: " + "; ".join(lines)


def config_from_dict(data: dict[str, Any]) -> TrainConfig:
    """Validate a dict into a :class:`TrainConfig` (``BadConfigError`` naming every bad key or value)."""
    if not isinstance(data, dict):
        raise BadConfigError(f"a training config is a mapping of keys to values, got {type(data).__name__}")
    try:
        cfg = TrainConfig.model_validate(data)
    except ValidationError as err:
        raise BadConfigError(_explain(err)) from None
    try:
        from tarockrl.games import make_game

        make_game(cfg.game, **cfg.game_options)
    except TarockError as err:
        raise BadConfigError(f"game_options: {err}") from None
    return cfg


def apply_overrides(data: dict[str, Any], overrides: list[str] | None) -> dict[str, Any]:
    """Apply ``["a.b=value", ...]`` to a nested dict (values parsed as YAML scalars); returns a new dict."""
    import copy

    out = copy.deepcopy(data)
    for item in overrides or []:
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise BadConfigError(f"override {item!r} must look like key=value (e.g. dmc.epsilon=0.1)")
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError as err:
            raise BadConfigError(f"override {item!r}: the value is not valid YAML ({err.__class__.__name__})") from None
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            if not isinstance(node.get(part, {}), dict):
                raise BadConfigError(f"override {item!r}: {part!r} is not a section")
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """Read a YAML config (or start from the defaults when ``path`` is None), apply overrides, validate."""
    data: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise BadConfigError(f"cannot read config file {str(p)!r}: {err}") from None
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as err:
            raise BadConfigError(f"config file {str(p)!r} is not valid YAML: {err}") from None
        if not isinstance(data, dict):
            raise BadConfigError(f"config file {str(p)!r} must hold a mapping of keys to values")
    return config_from_dict(apply_overrides(data, overrides))
