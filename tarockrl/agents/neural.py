"""Learned agents (inference only): a trained checkpoint as an agent.

``make_agent("ckpt:PATH", game)`` loads a checkpoint written by ``tarockrl train`` (checked: same game, rules
options and observation/action layout) and plays the legal action its network scores highest (Q value for Deep
Monte Carlo, logit for PPO); ``ckpt:PATH,sample=true`` samples from the masked softmax instead (seeded).
``make_agent("pretrained", game)`` loads the checkpoint shipped with the package for that game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from tarockrl.agents.base import ObservationAgent
from tarockrl.agents.checkpoint import check_game, load_checkpoint
from tarockrl.agents.nets import build_network, masked_logits
from tarockrl.errors import BadAgentSpecError

__all__ = ["NeuralAgent", "load_neural_agent", "make_checkpoint_agent", "make_pretrained_agent", "PRETRAINED_DIR"]

PRETRAINED_DIR = Path(__file__).with_name("pretrained")
"""Where the package keeps its pretrained checkpoints (``<game>.pt``)."""


class NeuralAgent(ObservationAgent):
    """Acts with a network over the seat's observation (``act``, ``act_batch``, and ``step`` from the mixin).

    Args:
        net: a network with ``action_scores(obs) -> [n, num_actions]``, or ``masked_scores(obs, mask)`` when its
            greedy choice depends on the legal set (see :mod:`tarockrl.agents.nets`).
        sample: sample from the softmax of the masked scores instead of taking the best.
        seed: seed of the sampling generator.
        device: where the network runs.
    """

    def __init__(self, net: torch.nn.Module, sample: bool = False, seed: int | None = None,
                 device: str | torch.device = "cpu") -> None:
        """Wrap ``net`` (put in evaluation mode)."""
        self.device = torch.device(device)
        self.net = net.to(self.device).eval()
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling generator when ``seed`` is given."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    @torch.no_grad()
    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One legal action per row."""
        obs = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32)).to(self.device)
        mask = torch.from_numpy(np.ascontiguousarray(action_masks).astype(bool)).to(self.device)
        if obs.ndim != 2 or mask.shape[0] != obs.shape[0]:
            raise ValueError(f"act_batch: observations {tuple(obs.shape)} and masks {tuple(mask.shape)} do not match")
        if not bool(mask.any(dim=1).all()):
            raise ValueError("act_batch: a row of the action masks has no legal action")
        if hasattr(self.net, "masked_scores"):  # nets whose greedy choice depends on the legal set
            scores = self.net.masked_scores(obs, mask).float()
        else:
            scores = masked_logits(self.net.action_scores(obs), mask).float()
        if not self.sample:
            return scores.argmax(dim=1).cpu().numpy().astype(np.int64)
        probs = torch.softmax(scores, dim=1).cpu().numpy().astype(np.float64)
        cum = np.cumsum(probs, axis=1)
        u = self.rng.random(probs.shape[0])[:, None] * cum[:, -1:]
        picks = np.minimum((cum < u).sum(axis=1), probs.shape[1] - 1)
        bad = ~np.asarray(action_masks, dtype=bool)[np.arange(picks.size), picks]
        picks[bad] = np.argmax(probs[bad], axis=1)
        return picks.astype(np.int64)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for one observation."""
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def __repr__(self) -> str:
        return f"NeuralAgent({self.net.spec.get('kind')}, sample={self.sample})"


def load_neural_agent(path: str | Path, game: Any, seed: int | None = None, sample: bool = False,
                      device: str = "cpu") -> NeuralAgent:
    """A :class:`NeuralAgent` from a checkpoint file, checked against ``game`` (``CheckpointError`` otherwise)."""
    payload = load_checkpoint(path, map_location=device)
    check_game(payload, game, path)
    net = build_network(payload["network"])
    net.load_state_dict(payload["model"])
    agent = NeuralAgent(net, sample=sample, seed=seed, device=device)
    agent.checkpoint = str(path)
    agent.trained_decisions = int(payload.get("counters", {}).get("decisions", 0))
    return agent


def make_checkpoint_agent(game: Any, seed: int | None = None, path: str = "", sample: bool = False) -> NeuralAgent:
    """Factory for ``make_agent("ckpt:PATH[,sample=true]", game)``."""
    if not path:
        raise BadAgentSpecError("agent 'ckpt' needs a checkpoint path: 'ckpt:runs/<run>/checkpoints/best.pt'")
    return load_neural_agent(path, game, seed=seed, sample=sample)


def make_pretrained_agent(game: Any, seed: int | None = None, sample: bool = False) -> NeuralAgent:
    """Factory for ``make_agent("pretrained", game)``: the checkpoint shipped for ``game``."""
    path = PRETRAINED_DIR / f"{game.name}.pt"
    if not path.is_file():
        shipped = sorted(p.stem for p in PRETRAINED_DIR.glob("*.pt")) if PRETRAINED_DIR.is_dir() else []
        raise BadAgentSpecError(f"no pretrained agent for {game.name!r} in this version (shipped: "
                                f"{', '.join(shipped) or 'none'}); train one with "
                                f"'tarockrl train --config configs/{game.name}_pretrained.yaml'")
    return load_neural_agent(path, game, seed=seed, sample=sample)
