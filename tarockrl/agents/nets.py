"""The neural networks of tarockrl's learned agents (inference and training share these definitions).

Every network reads a seat's observation (the game's documented float32 layout) and returns one value per action
of the flat action layout, so one forward pass scores every legal action of a batch of decisions at once:

* :class:`QNet` (Deep Monte Carlo): ``Q(s, a)`` for every ``a``, the expected settlement of the seat to move after
  taking ``a`` and playing on (scaled by the run's reward scale). Scoring an action by its output unit is the same
  as feeding a one-hot action encoding to a ``Q(s, a)`` net, only ``num_actions`` times cheaper.
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

__all__ = ["QNet", "PolicyValueNet", "CriticNet", "build_network", "mlp", "masked_logits"]


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
    if kind == "critic":
        return CriticNet(int(spec["in_size"]), list(spec["hidden"]))
    raise ValueError(f"unknown network kind {kind!r} (known: q, pv, critic)")
