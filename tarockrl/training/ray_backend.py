"""Distributed self-play on Ray (``backend: ray``): rollout actors feed one learner.

Each rollout actor (:class:`RolloutActor`, one Ray actor process) owns a batched engine (a
:class:`~tarockrl.training.collect.Collector` of ``num_envs`` deals) and a copy of the acting network. The learner
(the process that runs ``tarockrl train``) hands out *units*: unit ``u`` is the rollout that the local backend plays
in iteration ``u`` (the same deals, drawn from ``(seed, u)``), described by a small record (the unit number, which
published weights to act with, epsilon, the opponent-pool snapshot if any). The actor plays it and returns the
:class:`~tarockrl.training.collect.Rollout`, whose numpy arrays travel through Ray's object store; the learner runs
one update per unit, in unit order, exactly as the local loop does. Weights are published (``ray.put``, once per
version, fetched by each node once) every ``ray.broadcast_every`` updates; ``ray.inflight`` units are dispatched
ahead of the learner so that actors never wait for it.

Every unit is a pure function of its record: the deals come from ``(seed, u)``, the actor's exploration and
sampling streams from ``(seed, u)`` too, and which weights it acts with is decided when the learner dispatches it,
at a fixed point of the learner's loop. So a Ray run does not depend on the timing of the actors or on which actor
plays which unit: it is reproducible, a dead actor's lost unit is played again by its restarted incarnation with
the same result (the run loses only that actor's unsent trajectories, i.e. time), and ``--resume`` repeats exactly
what the killed run would have done, because the checkpoint holds the in-flight records and the weights they name.
What differs from the local backend is the policy lag: unit ``u`` acts with weights up to ``inflight +
broadcast_every - 2`` updates old instead of the newest ones (the local loop has no lag).

Ray is imported (through :mod:`tarockrl._ray`) only when this module is, and it is only when ``backend: ray`` is
asked for (:func:`make_ray_collector`).
"""

from __future__ import annotations

import copy
import os
import time
from typing import Any

import numpy as np
import torch

from tarockrl._ray import RayBackendError, connect, died_errors, require_ray
from tarockrl.training.collect import Rollout, iteration_seed
from tarockrl.training.config import TrainConfig

__all__ = ["RayBackendError", "RayCollector", "RolloutActor", "connect", "make_ray_collector", "require_ray"]

_ACTOR_STREAM = 0x6A09E667F3BCC908
"""Mixed into the seeds of the actors' exploration and sampling streams (kept apart from the deal stream)."""
_POOL_STREAM = 0xBB67AE8584CAA73B
"""Mixed into the seed of a unit's opponent-pool rows and learning seats."""

_TEST_KILL_AT_UNIT: int | None = None
"""Tests only: kill (with restart) the actor of the unit dispatched when the learner reaches this iteration."""


def _state_to_numpy(state: dict[str, torch.Tensor]) -> dict[str, np.ndarray]:
    return {k: v.detach().cpu().numpy() for k, v in state.items()}


def _state_from_numpy(state: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(np.array(v)) for k, v in state.items()}  # np.array: the store's arrays are read-only


class RolloutActor:
    """A rollout worker: one engine batch and one copy of the acting network (run as a Ray actor).

    Args:
        cfg_data: the resolved config (``TrainConfig.model_dump(mode="json")``).
        threads: numba and torch threads of this process.
        index: the actor's number (for its reports).
    """

    def __init__(self, cfg_data: dict[str, Any], threads: int, index: int) -> None:
        """Build the game, the collector and the acting network (set the thread counts first)."""
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
        torch.set_num_threads(threads)
        from tarockrl.games import make_game
        from tarockrl.training.collect import Collector
        from tarockrl.training.config import config_from_dict
        from tarockrl.training.run import make_learner

        self.cfg = config_from_dict(cfg_data)
        self.index = int(index)
        self.game = make_game(self.cfg.game, **self.cfg.game_options)
        self.learner = make_learner(self.cfg, self.game, torch.device("cpu"), np.random.default_rng(0))
        self.net = self.learner.modules()["model"].eval()
        self.opp_net = copy.deepcopy(self.net).eval()
        self.collector = Collector(self.game, self.cfg.num_envs, self.cfg.seed,
                                   full_obs=getattr(self.learner, "needs_full_obs", False))
        self.loaded: dict[str, str | None] = {"model": None, "opponent": None}
        self.pid = os.getpid()

    def _load(self, which: str, key: str, ref_box: list) -> None:
        if self.loaded[which] != key:
            import ray

            state = _state_from_numpy(ray.get(ref_box[0]))
            (self.net if which == "model" else self.opp_net).load_state_dict(state)
            self.loaded[which] = key

    def collect(self, record: dict[str, Any], refs: dict[str, list]) -> tuple[Rollout, dict[str, Any]]:
        """Play the unit described by ``record`` and return its rollout and a small report.

        ``refs`` maps weight keys to ``[ObjectRef]`` (boxed, so that Ray does not fetch them unless needed).
        """
        t0 = time.perf_counter()
        unit = int(record["unit"])
        self._load("model", record["weights"], refs[record["weights"]])
        stream = iteration_seed(self.cfg.seed ^ _ACTOR_STREAM, unit)
        self.learner.rng = np.random.default_rng(stream)
        if hasattr(self.learner, "epsilon"):
            self.learner.epsilon = float(record["epsilon"])
        if hasattr(self.learner, "generator"):
            self.learner.generator.manual_seed(stream)
        opponent = rows = seats = None
        if record.get("opponent") is not None:
            from tarockrl.agents.neural import NeuralAgent

            self._load("opponent", record["opponent"], refs[record["opponent"]])
            agent = NeuralAgent(self.opp_net)
            prng = np.random.default_rng(iteration_seed(self.cfg.seed ^ _POOL_STREAM, unit))
            rows = prng.random(self.cfg.num_envs) < float(record["share"])
            seats = prng.integers(self.game.num_players, size=self.cfg.num_envs)

            def opponent(obs, masks, players, row_ids):
                return agent.act_batch(obs, masks), {}

        rollout = self.collector.rollout(unit, self.learner.policy, opponent, rows, seats)
        return rollout, {"actor": self.index, "pid": self.pid, "seconds": time.perf_counter() - t0}

    def ping(self) -> int:
        """The actor's process id (it is up)."""
        return self.pid

    def close(self) -> None:
        """Stop the engine's threads."""
        self.collector.close()


class RayCollector:
    """The learner's side: hands out units to the rollout actors and returns their rollouts in unit order.

    It has the call signature of :meth:`Collector.rollout <tarockrl.training.collect.Collector.rollout>` so that
    the training loop of :mod:`tarockrl.training.run` runs unchanged; the ``policy`` and opponent arguments are
    ignored (the actors act with the published weights and choose pool rows themselves from the unit's seed).

    Args:
        cfg: the run's config (``cfg.ray`` sets the actors).
        learner: the learning algorithm object (its ``modules()["model"]`` is published; DMC's ``epsilon`` read).
        pool: the training loop's opponent pool (its ``snapshots`` list is read when a unit is dispatched).
    """

    def __init__(self, cfg: TrainConfig, learner: Any, pool: Any) -> None:
        """Connect to Ray (or start it) and start the actors."""
        self.ray = require_ray()
        self.cfg = cfg
        self.learner = learner
        self.pool = pool
        self.started_ray = connect(cfg.ray.address, cfg.ray.local_cpus)
        self.num_actors = cfg.ray.num_actors
        self.inflight = cfg.ray.inflight or 2 * self.num_actors
        need = self.num_actors * cfg.ray.cpus_per_actor
        cpus = float(self.ray.cluster_resources().get("CPU", 0))
        if cpus < need and self.started_ray:
            self.ray.shutdown()
            raise RayBackendError(f"ray.num_actors={self.num_actors} x ray.cpus_per_actor={cfg.ray.cpus_per_actor} "
                                  f"needs more than the {cpus:g} CPUs of the local Ray instance (ray.local_cpus)")
        if cpus < need:
            import warnings

            warnings.warn(f"ray.num_actors={self.num_actors} x ray.cpus_per_actor={cfg.ray.cpus_per_actor} is more "
                          f"than the {cpus:g} CPUs of the Ray cluster: some actors wait for a CPU (and the learner "
                          f"for their units) until nodes join", stacklevel=2)
        remote = self.ray.remote(RolloutActor).options(
            num_cpus=cfg.ray.cpus_per_actor, max_restarts=cfg.ray.max_actor_restarts, max_task_retries=0)
        data = cfg.model_dump(mode="json")
        self.actors = [remote.remote(data, cfg.ray.actor_threads, i) for i in range(self.num_actors)]
        self.records: dict[int, dict[str, Any]] = {}     # unit -> record (dispatched, not yet consumed)
        self.futures: dict[int, Any] = {}                # unit -> ObjectRef of (rollout, report)
        self.weights: dict[str, dict[str, torch.Tensor]] = {}   # key -> weights named by a record or published
        self.refs: dict[str, Any] = {}                   # key -> ObjectRef of the numpy weights
        self.published: str | None = None
        self.next_unit: int | None = None
        self.pids: dict[int, set[int]] = {}
        self.lost = 0
        self.last = {"wait": 0.0, "actor_seconds": 0.0, "bytes": 0.0}
        self.session = os.urandom(4).hex()              # pool snapshot keys of this process never meet older ones
        self.snapshot_keys: dict[str, dict[str, torch.Tensor]] = {}
        self.snapshots_seen = 0

    # -- weights ---------------------------------------------------------------------------------------------
    def _put(self, key: str, state: dict[str, torch.Tensor]) -> None:
        if key not in self.weights:
            self.weights[key] = state
        if key not in self.refs:
            self.refs[key] = self.ray.put(_state_to_numpy(self.weights[key]))

    def _publish(self, updates: int) -> None:
        state = {k: v.detach().cpu().clone() for k, v in self.learner.modules()["model"].state_dict().items()}
        self.published = f"w{updates}"
        self._put(self.published, state)

    def _collect_garbage(self) -> None:
        used = {self.published} | {r["weights"] for r in self.records.values()} | {
            r["opponent"] for r in self.records.values() if r.get("opponent")}
        for key in [k for k in self.weights if k not in used]:
            del self.weights[key]
            self.refs.pop(key, None)

    # -- units -----------------------------------------------------------------------------------------------
    def _dispatch(self, unit: int) -> None:
        record: dict[str, Any] = {"unit": unit, "weights": self.published,
                                  "epsilon": float(getattr(self.learner, "epsilon", 0.0)), "opponent": None}
        pool = self.pool
        snaps = getattr(pool, "snapshots", [])
        if snaps and pool.cfg.share > 0:
            prng = np.random.default_rng(iteration_seed(self.cfg.seed ^ _POOL_STREAM ^ 1, unit))
            key = self._snapshot_key(snaps[int(prng.integers(len(snaps)))], snaps)
            record.update(opponent=key, share=float(pool.cfg.share))
        self.records[unit] = record
        self._submit(unit)

    def _snapshot_key(self, snap: dict[str, torch.Tensor], snaps: list) -> str:
        """A key naming this pool snapshot object for as long as it is in the pool (never reused in this run)."""
        for key, obj in self.snapshot_keys.items():
            if obj is snap:
                return key
        key = f"p{self.session}.{self.snapshots_seen}"
        self.snapshots_seen += 1
        self.snapshot_keys = {k: o for k, o in self.snapshot_keys.items() if any(o is x for x in snaps)}
        self.snapshot_keys[key] = snap
        self.weights.setdefault(key, snap)
        return key

    def _submit(self, unit: int) -> None:
        record = self.records[unit]
        for key in (record["weights"], record.get("opponent")):
            if key is not None:
                self._put(key, self.weights[key])
        refs = {k: [self.refs[k]] for k in (record["weights"], record.get("opponent")) if k is not None}
        actor = self.actors[unit % self.num_actors]
        self.futures[unit] = actor.collect.remote(record, refs)
        global _TEST_KILL_AT_UNIT
        if _TEST_KILL_AT_UNIT is not None and unit == _TEST_KILL_AT_UNIT:
            _TEST_KILL_AT_UNIT = None  # once
            self.ray.kill(actor, no_restart=False)

    def _resubmit_actor(self, index: int) -> None:
        """An actor died: play its pending units again (on its restarted incarnation)."""
        for unit in sorted(self.futures):
            if unit % self.num_actors == index:
                self.lost += 1
                self._submit(unit)

    def rollout(self, iteration: int, policy: Any = None, opponent: Any = None, opponent_rows: Any = None,
                learner_seats: Any = None) -> Rollout:
        """The rollout of unit ``iteration`` (the learner has made ``iteration`` updates so far)."""
        ray = self.ray
        if self.next_unit is None:
            self.next_unit = iteration
        for unit in sorted(self.records):  # restored from a checkpoint: submit them first
            if unit not in self.futures:
                self._submit(unit)
        if self.published is None or (iteration % self.cfg.ray.broadcast_every == 0
                                      and self.published != f"w{iteration}"):
            self._publish(iteration)
        self.next_unit = max(self.next_unit, iteration)
        while self.next_unit < iteration + self.inflight:
            self._dispatch(self.next_unit)
            self.next_unit += 1
        if iteration not in self.futures:  # not possible unless the bookkeeping is broken
            raise RayBackendError(f"unit {iteration} was never dispatched")
        t0 = time.perf_counter()
        restarts = 0
        died = died_errors()
        while True:
            try:
                rollout, report = ray.get(self.futures[iteration])
                break
            except died as err:
                restarts += 1
                if restarts > self.cfg.ray.max_actor_restarts + 1:
                    raise RayBackendError(f"the actor of unit {iteration} keeps dying: {err}") from None
                self._resubmit_actor(iteration % self.num_actors)
        self.last = {"wait": time.perf_counter() - t0, "actor_seconds": report["seconds"],
                     "bytes": sum(a.nbytes for a in (rollout.obs, rollout.masks, rollout.actions, rollout.players,
                                                     rollout.rows, rollout.steps, rollout.learner,
                                                     *rollout.extras.values()))
                     + (rollout.full_obs.nbytes if rollout.full_obs is not None else 0)}
        self.pids.setdefault(report["actor"], set()).add(report["pid"])
        del self.futures[iteration]
        del self.records[iteration]
        self._collect_garbage()
        return rollout

    def scalars(self) -> dict[str, float]:
        """Ray scalars of the last unit: the learner's wait for it, the actor's time on it, its size; and the actor
        restarts seen and units played again so far."""
        return {"ray/actor_restarts": float(self.restarts), "ray/lost_units": float(self.lost),
                "ray/learner_wait_seconds": self.last["wait"], "ray/actor_seconds_per_unit": self.last["actor_seconds"],
                "ray/megabytes_per_unit": self.last["bytes"] / 1e6}

    @property
    def restarts(self) -> int:
        """Actor restarts observed (a rollout came from a new process of an actor)."""
        return sum(len(p) - 1 for p in self.pids.values())

    # -- checkpoints -----------------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The in-flight records and the weights they name (for an exact ``--resume``)."""
        keys = {r["weights"] for r in self.records.values()} | {
            r["opponent"] for r in self.records.values() if r.get("opponent")}
        if self.published is not None:
            keys.add(self.published)
        return {"records": [dict(self.records[u]) for u in sorted(self.records)], "published": self.published,
                "next_unit": self.next_unit, "weights": {k: self.weights[k] for k in sorted(keys)}}

    def load_state_dict(self, state: dict[str, Any] | None) -> None:
        """Restore :meth:`state_dict` (None or empty: start afresh)."""
        if not state:
            return
        self.weights = {k: dict(v) for k, v in state["weights"].items()}
        self.refs = {}
        self.records = {int(r["unit"]): dict(r) for r in state["records"]}
        self.published = state["published"]
        self.next_unit = state["next_unit"]

    def close(self) -> None:
        """Stop the actors (and the local Ray instance this collector started)."""
        ray = self.ray
        for actor in self.actors:
            try:
                ray.kill(actor, no_restart=True)
            except Exception:  # an actor that is already gone
                pass
        self.actors = []
        if self.started_ray:
            ray.shutdown()


def make_ray_collector(cfg: TrainConfig, learner: Any, pool: Any) -> RayCollector:
    """The collector of a ``backend: ray`` run (imports Ray; :class:`RayBackendError` when it is missing)."""
    return RayCollector(cfg, learner, pool)
