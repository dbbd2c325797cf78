"""Self-play collection: ``num_envs`` deals played to the end by the batched engine, one forward per step.

Every seat of every deal is driven by the policy being trained (or, for the deals an opponent pool takes, by a
frozen snapshot for every seat but one learning seat). Deals are played in lock step: all rows are dealt, then
stepped until every row is over; a row that finishes early waits (its action is ignored). That keeps the
bookkeeping exact and simple: when the rollout ends, every decision's deal is complete and its Monte Carlo return
is known. Deal ids are drawn from ``(seed, iteration)``, so a resumed run collects exactly the deals it would have
collected without the interruption.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tarockrl.envs.selfplay import SelfPlayBatch
from tarockrl.games.api import Game

__all__ = ["Rollout", "Collector", "iteration_seed"]

PolicyFn = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, dict[str, np.ndarray]]]
"""``policy(obs[m, O], masks[m, A], players[m], rows[m]) -> (actions[m], extras)``: ``extras`` holds per-decision
arrays to keep (log-probabilities, values ...), each of length ``m``."""


def iteration_seed(seed: int, iteration: int) -> int:
    """The deal-stream seed of one iteration: a SplitMix64 mix of the run seed and the iteration number."""
    z = (int(seed) * 0x9E3779B97F4A7C15 + int(iteration) + 1) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) & ((1 << 62) - 1)


@dataclass
class Rollout:
    """The decisions of one lock-step rollout, in the order they were taken (time-major, then row).

    Attributes:
        obs: float32[m, observation_size] the deciding seat's observation.
        masks: int8[m, num_actions] legal actions.
        actions: int64[m] the action taken.
        players: int64[m] the deciding seat.
        rows: int64[m] the deal (row) of the decision.
        steps: int64[m] the lock step of the decision.
        returns: float64[num_envs, num_players] every seat's settlement of each row's deal (unscaled).
        learner: bool[m] decisions taken by the policy being trained (False: a pool snapshot's).
        extras: per-decision arrays returned by the policy or the opponent (zero where the other one acted).
        full_obs: optional float32[m, num_players * observation_size]: every seat's observation, the deciding
            seat first (for a perfect-information critic).
        lengths: int64[num_envs] decisions per deal.
        engine_seconds / policy_seconds: wall time spent in the engine and in the policy.
    """

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    players: np.ndarray
    rows: np.ndarray
    steps: np.ndarray
    returns: np.ndarray
    learner: np.ndarray
    lengths: np.ndarray
    extras: dict[str, np.ndarray] = field(default_factory=dict)
    full_obs: np.ndarray | None = None
    engine_seconds: float = 0.0
    policy_seconds: float = 0.0

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def targets(self, scale: float) -> np.ndarray:
        """float32[m]: the scaled settlement of each deciding seat's deal (the Monte Carlo return)."""
        return (self.returns[self.rows, self.players] * scale).astype(np.float32)


class Collector:
    """Plays lock-step self-play rollouts of one game.

    Args:
        game: the :class:`tarockrl.Game`.
        num_envs: deals per rollout.
        seed: the run seed (deal streams come from :func:`iteration_seed`).
        full_obs: also record every seat's observation per decision (perfect-information critic).
    """

    def __init__(self, game: Game, num_envs: int, seed: int, full_obs: bool = False) -> None:
        """Create the self-play batch (no deal yet)."""
        self.game = game
        self.num_envs = int(num_envs)
        self.seed = int(seed)
        self.full_obs = bool(full_obs)
        self.batch = SelfPlayBatch(game, num_envs=self.num_envs, seed=self.seed, autoreset=False)

    def rollout(
        self,
        iteration: int,
        policy: PolicyFn,
        opponent: PolicyFn | None = None,
        opponent_rows: np.ndarray | None = None,
        learner_seats: np.ndarray | None = None,
    ) -> Rollout:
        """Play ``num_envs`` fresh deals to the end with ``policy`` for every seat.

        With ``opponent``, the rows of the boolean ``opponent_rows`` have every seat but the learner's played by
        ``opponent``; ``learner_seats`` is either int64[num_envs], the one learning seat of each row, or
        bool[num_envs, num_players], the learning seats of each row (several seats: a team, or the ``A`` seats of a
        duplicate seating). Only the learner's decisions are marked ``learner``.
        """
        g = self.game
        n, p = self.num_envs, g.num_players
        t0 = time.perf_counter()
        step = self.batch.reset(seed=iteration_seed(self.seed, iteration))
        engine = time.perf_counter() - t0
        policy_time = 0.0
        chunks: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "masks", "actions", "players", "rows", "steps",
                                                               "learner", "full")}
        extra_steps: list[tuple[int, dict[str, np.ndarray]]] = []
        extra_like: dict[str, np.ndarray] = {}  # an empty array of each extra's dtype and trailing shape
        returns = np.zeros((n, p), dtype=np.float64)
        lengths = np.zeros(n, dtype=np.int64)
        actions = np.zeros(n, dtype=np.int64)
        t = 0
        while True:
            players = step.players
            live = np.flatnonzero(players >= 0)
            if live.size == 0:
                break
            obs = step.observations[live]
            masks = step.action_masks[live]
            who = players[live]
            t1 = time.perf_counter()
            is_learner = np.ones(live.size, dtype=bool)
            if opponent is not None and opponent_rows is not None:
                assert learner_seats is not None
                mine_seat = learner_seats[live, who] if learner_seats.ndim == 2 else who == learner_seats[live]
                is_learner = ~opponent_rows[live] | mine_seat
            acts = np.zeros(live.size, dtype=np.int64)
            extras: dict[str, np.ndarray] = {}
            for fn, sel in ((policy, np.flatnonzero(is_learner)), (opponent, np.flatnonzero(~is_learner))):
                if not sel.size:
                    continue
                a, ex = fn(obs[sel], masks[sel], who[sel], live[sel])  # type: ignore[misc]
                acts[sel] = a
                for k, v in ex.items():
                    v = np.asarray(v)
                    if k not in extras:
                        extras[k] = np.zeros((live.size, *v.shape[1:]), dtype=v.dtype)
                        extra_like.setdefault(k, extras[k][:0])
                    extras[k][sel] = v
            policy_time += time.perf_counter() - t1
            chunks["obs"].append(obs)  # fancy indexing made these copies already
            chunks["masks"].append(masks)
            chunks["actions"].append(acts)
            chunks["players"].append(who)
            chunks["rows"].append(live)
            chunks["steps"].append(np.full(live.size, t, dtype=np.int64))
            chunks["learner"].append(is_learner)
            extra_steps.append((live.size, extras))
            if self.full_obs:
                t2 = time.perf_counter()
                every, _ = self.batch.observe_all()
                # the deciding seat first, then the others in playing order
                order = (who[:, None] + np.arange(p)[None, :]) % p
                chunks["full"].append(every[live[:, None], order].reshape(live.size, -1))
                engine += time.perf_counter() - t2
            lengths[live] += 1
            actions[:] = 0
            actions[live] = acts
            t2 = time.perf_counter()
            step = self.batch.step(actions)
            engine += time.perf_counter() - t2
            returns[step.dones] = step.returns[step.dones]
            t += 1
        cat = {k: np.concatenate(v) if v else np.zeros(0) for k, v in chunks.items()}
        return Rollout(
            obs=cat["obs"].astype(np.float32, copy=False),
            masks=cat["masks"].astype(np.int8, copy=False),
            actions=cat["actions"].astype(np.int64, copy=False),
            players=cat["players"].astype(np.int64, copy=False),
            rows=cat["rows"].astype(np.int64, copy=False),
            steps=cat["steps"].astype(np.int64, copy=False),
            returns=returns,
            learner=cat["learner"].astype(bool, copy=False),
            lengths=lengths,
            extras={k: np.concatenate([ex[k] if k in ex else np.zeros((size, *like.shape[1:]), dtype=like.dtype)
                                       for size, ex in extra_steps]) for k, like in extra_like.items()},
            full_obs=cat["full"].astype(np.float32, copy=False) if self.full_obs else None,
            engine_seconds=engine,
            policy_seconds=policy_time,
        )

    def close(self) -> None:
        """Stop the engine's worker threads."""
        self.batch.close()
