"""The neural networks of tarockrl's learned agents (inference and training share these definitions).

Every network reads a seat's observation (the game's documented float32 layout) and returns one value per action
of the flat action layout, so one forward pass scores every legal action of a batch of decisions at once:

* :class:`QNet` (Deep Monte Carlo): ``Q(s, a)`` for every ``a``, the expected settlement of the seat to move after
  taking ``a`` and playing on (scaled by the run's reward scale). Scoring an action by its output unit is the same
  as feeding a one-hot action encoding to a ``Q(s, a)`` net, only ``num_actions`` times cheaper.
* :class:`QImitationNet` (Deep Monte Carlo with imitation): ``Q(s, a)`` plus an imitation head trained on a fixed
  agent's choices; greedy acting maximises Q over the actions the imitation head finds plausible.
* :class:`PolicyValueNet` (PPO): action logits and a state value.
* :class:`CriticNet`: a value from a wider input (the perfect-information critic sees every seat's observation
  during training; acting never uses it).

Networks are described by a plain dict (``kind``, sizes, hidden widths) stored in checkpoints, so that
:func:`build_network` can rebuild them without the training code.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

__all__ = ["QNet", "QImitationNet", "PolicyValueNet", "CriticNet", "build_network", "mlp", "masked_logits",
           "support_scores"]


def mlp(in_size: int, hidden: list[int] | tuple[int, ...], out_size: int, layer_norm: bool = True) -> nn.Sequential:
    """A multilayer perceptron: ``Linear -> (LayerNorm) -> ReLU`` per hidden width, then a linear output layer."""
    layers: list[nn.Module] = []
    size = in_size
    for width in hidden:
        layers.append(nn.Linear(size, width))
        if layer_norm:
            layers.append(nn.LayerNorm(width))
        layers.append(nn.ReLU())
        size = width
    layers.append(nn.Linear(size, out_size))
    return nn.Sequential(*layers)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with illegal actions (mask 0) set to a large negative number (finite, so softmax stays exact)."""
    return logits.masked_fill(~mask.bool(), -1e9)


class QNet(nn.Module):
    """``Q(s, ·)``: one value per action from a seat's observation."""

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int] | tuple[int, ...] = (512, 512)) -> None:
        """An MLP from ``obs_size`` inputs to ``num_actions`` values."""
        super().__init__()
        self.spec = {"kind": "q", "obs_size": obs_size, "num_actions": num_actions, "hidden": list(hidden)}
        self.body = mlp(obs_size, hidden, num_actions)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """``float[n, num_actions]`` action values."""
        return self.body(obs)

    def action_scores(self, obs: torch.Tensor) -> torch.Tensor:
        """The scores greedy acting maximises (the Q values)."""
        return self.forward(obs)


class QImitationNet(nn.Module):
    """``Q(s, ·)`` and an imitation head over a shared trunk; greedy acting is restricted to plausible actions.

    The imitation head is trained (cross-entropy) on the choices of a fixed agent, the rule-based player; greedy
    acting takes the best-valued legal action among those whose imitation probability is at least ``threshold``
    times that of the most probable legal action (discrete batch-constrained Q-learning, Fujimoto et al. 2019): the
    values only choose between actions the imitated player makes plausible, where they are estimated from data, and
    never pick an action whose value is an untested extrapolation.
    """

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int] | tuple[int, ...] = (512, 512),
                 threshold: float = 0.3) -> None:
        """Trunk of ``hidden`` widths, heads for ``num_actions`` values and ``num_actions`` imitation logits."""
        super().__init__()
        self.spec = {"kind": "q_imitation", "obs_size": obs_size, "num_actions": num_actions, "hidden": list(hidden),
                     "threshold": float(threshold)}
        self.threshold = float(threshold)
        self.trunk = mlp(obs_size, hidden[:-1], hidden[-1]) if len(hidden) > 1 else nn.Linear(obs_size, hidden[0])
        self.act = nn.ReLU()
        self.q = nn.Linear(hidden[-1], num_actions)
        self.imitation = nn.Linear(hidden[-1], num_actions)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(values[n, num_actions], imitation_logits[n, num_actions])``."""
        h = self.act(self.trunk(obs))
        return self.q(h), self.imitation(h)

    def action_scores(self, obs: torch.Tensor) -> torch.Tensor:
        """The Q values (what a leaf evaluator reads); acting uses :meth:`masked_scores`."""
        return self.forward(obs)[0]

    def masked_scores(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Scores whose argmax is the greedy action: Q among the plausible legal actions, below them the other legal
        actions, illegal actions at -1e9."""
        q, logits = self.forward(obs)
        return support_scores(q, logits, mask, self.threshold)


def support_scores(q: torch.Tensor, logits: torch.Tensor, mask: torch.Tensor, threshold: float | torch.Tensor,
                   margin: float | torch.Tensor | None = None) -> torch.Tensor:
    """Q restricted to the legal actions with imitation probability >= ``threshold`` x the largest (see
    :class:`QImitationNet`); other legal actions score ``q - 1e6``, illegal ones -1e9.

    ``threshold`` is one number or a tensor of one threshold per action (``[num_actions]``, broadcast over the
    rows: an action is plausible when its probability is at least its own threshold times the favourite's).
    ``margin`` (``None``/0: none; one number or one per action, in the units of ``q``) is added to the imitation
    favourite's score (the most probable legal action, ties to the lowest id), so another action replaces the
    favourite only when its ``q`` is larger by more than the favourite's margin.
    """
    legal = mask.bool()
    lg = masked_logits(logits, legal)
    best = lg.max(dim=1, keepdim=True).values
    if isinstance(threshold, torch.Tensor):
        log_thr = torch.log(threshold.to(lg.dtype).clamp_min(1e-12))
    else:
        log_thr = torch.log(torch.tensor(max(float(threshold), 1e-12), dtype=lg.dtype))
    plausible = legal & (lg >= best + log_thr)
    scores = torch.where(plausible, q, q - 1e6)
    if margin is not None:
        fav = lg.argmax(dim=1, keepdim=True)
        if isinstance(margin, torch.Tensor):
            bonus = margin.to(scores.dtype).expand(scores.shape[0], -1).gather(1, fav)
        else:
            bonus = torch.full_like(fav, float(margin), dtype=scores.dtype)
        scores = scores.scatter_add(1, fav, bonus)
    return scores.masked_fill(~legal, -1e9)


class PolicyValueNet(nn.Module):
    """A shared trunk with a policy head (logits) and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int] | tuple[int, ...] = (512, 512)) -> None:
        """Trunk of ``hidden`` widths; heads for ``num_actions`` logits and one value."""
        super().__init__()
        self.spec = {"kind": "pv", "obs_size": obs_size, "num_actions": num_actions, "hidden": list(hidden)}
        self.trunk = mlp(obs_size, hidden[:-1], hidden[-1]) if len(hidden) > 1 else nn.Linear(obs_size, hidden[0])
        self.act = nn.ReLU()
        self.policy = nn.Linear(hidden[-1], num_actions)
        self.value = nn.Linear(hidden[-1], 1)
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits[n, num_actions], value[n])``."""
        h = self.act(self.trunk(obs))
        return self.policy(h), self.value(h).squeeze(-1)

    def action_scores(self, obs: torch.Tensor) -> torch.Tensor:
        """The logits (greedy acting takes their maximum)."""
        return self.forward(obs)[0]


class CriticNet(nn.Module):
    """A value network over an arbitrary input (the perfect-information critic)."""

    def __init__(self, in_size: int, hidden: list[int] | tuple[int, ...] = (512, 512)) -> None:
        """An MLP from ``in_size`` inputs to one value."""
        super().__init__()
        self.spec = {"kind": "critic", "in_size": in_size, "hidden": list(hidden)}
        self.body = mlp(in_size, hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """``value[n]``."""
        return self.body(x).squeeze(-1)


def build_network(spec: dict[str, Any]) -> nn.Module:
    """Rebuild a network from the ``spec`` dict it carries (``net.spec``)."""
    kind = spec.get("kind")
    if kind == "q":
        return QNet(int(spec["obs_size"]), int(spec["num_actions"]), list(spec["hidden"]))
    if kind == "pv":
        return PolicyValueNet(int(spec["obs_size"]), int(spec["num_actions"]), list(spec["hidden"]))
    if kind == "q_imitation":
        return QImitationNet(int(spec["obs_size"]), int(spec["num_actions"]), list(spec["hidden"]),
                             float(spec["threshold"]))
    if kind == "critic":
        return CriticNet(int(spec["in_size"]), list(spec["hidden"]))
    raise ValueError(f"unknown network kind {kind!r} (known: q, pv, critic)")
