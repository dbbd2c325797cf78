"""Expert iteration: on a share of the learner's decisions a search agent (by default PIMC over sampled worlds)
labels the decision, and the labels are distilled into the network (``expert:`` in the config, Deep Monte Carlo).

While collecting, the learner's policy is wrapped: for a random share ``expert.share`` of the learner's decisions
with more than one legal action, the expert agent (``expert.agent``, any :func:`tarockrl.agents.make_agent` spec,
default ``pimc:worlds=32``) decides on a copy of the row's state. The expert only sees what the deciding seat may
know: PIMC samples the hidden cards from that seat's view (``game.sample_worlds``) and never reads the real deal.
The wrapper records per decision

* ``expert_mask`` (bool): the decision was labelled (with ``expert.min_margin > 0`` only when the expert's best
  action beats the runner-up by that many standard errors: PIMC's choice between near-equal actions is noise);
* ``expert_action`` (int64): the expert's choice, learned by the imitation head with weight ``expert.coef``;
* ``expert_values`` (float32 ``[m, num_actions]``, only with ``expert.value_coef > 0`` and an expert that reports
  per-action values, as PIMC's ``evaluate`` does): the expert's mean value of each legal action over the worlds,
  in game points, regressed by ``Q`` (after the run's reward scale) with weight ``expert.value_coef``.

With ``expert.act: true`` the learner plays the expert's choice in the labelled decisions, so the deal's Monte Carlo
return (the target of ``Q`` for the action taken) is that of the improved play: the classic expert-iteration loop
(Anthony et al. 2017) in which the search improves the policy and the network generalises the search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tarockrl.errors import TarockError

__all__ = ["ExpertLabeller"]


def _confident(d: Any, margin: float) -> bool:
    """True when the expert's best action beats the runner-up by at least ``margin`` standard errors."""
    means = np.asarray(d.means, dtype=np.float64)
    if means.size < 2:
        return True
    order = np.argsort(-means, kind="stable")
    b, r = order[0], order[1]
    if not np.isfinite(means[r]):
        return True
    se = float(np.hypot(d.ses[b], d.ses[r]))
    return bool(means[b] - means[r] >= margin * max(se, 1e-9))


class ExpertLabeller:
    """Labels a share of the learner's decisions with a search agent's choices (see the module docstring).

    Args:
        cfg: the ``expert`` section of the training config.
        game: the :class:`tarockrl.Game`.
        seed: the run seed (the agent is reseeded from the run's generator every iteration).
    """

    def __init__(self, cfg: Any, game: Any, seed: int) -> None:
        """Build the expert agent (``BadConfigError`` naming ``expert.agent`` when the spec is bad)."""
        from tarockrl.agents import make_agent
        from tarockrl.training.config import BadConfigError

        self.cfg = cfg
        self.game = game
        try:
            self.agent = make_agent(cfg.agent, game, seed=seed)
        except TarockError as err:
            raise BadConfigError(f"expert.agent: {err}") from None
        self.values = cfg.value_coef > 0
        if (self.values or cfg.min_margin > 0) and not hasattr(self.agent, "evaluate"):
            raise BadConfigError(f"expert.value_coef > 0 or expert.min_margin > 0 needs an expert that reports "
                                 f"action values (PIMC's evaluate); {cfg.agent!r} only chooses actions")
        self.labelled = 0
        self.seconds = 0.0

    def reseed(self, rng: np.random.Generator) -> None:
        """Reseed the expert from the run's generator (so a resumed run repeats its labels)."""
        seed = int(rng.integers(2**62))
        if hasattr(self.agent, "reset"):
            self.agent.reset(seed=seed)

    def label(self, state: Any) -> tuple[int, np.ndarray | None]:
        """The expert's action in ``state`` (-1: not confident enough, see ``expert.min_margin``) and, with values,
        its per-action value row (NaN where not valued)."""
        if not self.values and self.cfg.min_margin <= 0:
            return int(self.agent.step(state)), None
        d = self.agent.evaluate(state)
        if self.cfg.min_margin > 0 and not _confident(d, self.cfg.min_margin):
            return -1, None
        if not self.values:
            return int(d.action), None
        row = np.full(self.game.num_actions, np.nan, dtype=np.float32)
        means = np.asarray(d.means, dtype=np.float64)
        ok = np.isfinite(means)
        row[np.asarray(d.actions, dtype=np.int64)[ok]] = means[ok]
        return int(d.action), row

    def wrap(self, policy: Callable, state_of: Callable[[int], Any], rng: np.random.Generator) -> Callable:
        """The learner's collection policy with a share of its decisions labelled (and, with ``act``, played) by
        the expert. ``state_of(row)`` returns a copy of a row's state."""
        import time

        cfg, game = self.cfg, self.game

        def wrapped(obs, masks, players, row_ids):
            actions, extras = policy(obs, masks, players, row_ids)
            actions = np.array(actions, dtype=np.int64, copy=True)
            m = actions.shape[0]
            pick = (rng.random(m) < cfg.share) & (masks.astype(bool).sum(axis=1) > 1)
            labels = np.zeros(m, dtype=np.int64)
            values = np.full((m, game.num_actions), np.nan, dtype=np.float32) if self.values else None
            t0 = time.perf_counter()
            for i in np.flatnonzero(pick):
                a, row = self.label(state_of(int(row_ids[i])))
                if a < 0:
                    pick[i] = False
                    continue
                if not masks[i, a]:
                    raise TarockError(f"expert.agent {cfg.agent!r} chose the illegal action {a}")
                labels[i] = a
                if values is not None:
                    values[i] = row
            self.seconds += time.perf_counter() - t0
            self.labelled += int(pick.sum())
            if cfg.act:
                actions[pick] = labels[pick]
            out = dict(extras)
            out["expert_mask"] = pick
            out["expert_action"] = labels
            if values is not None:
                out["expert_values"] = values
            return actions, out

        return wrapped
