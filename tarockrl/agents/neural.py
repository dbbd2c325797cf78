"""Learned agents (inference only): a trained checkpoint as an agent.

``make_agent("ckpt:PATH", game)`` loads a checkpoint written by ``tarockrl train`` (checked: same game, rules
options and observation/action layout) and plays the legal action its network scores highest (Q value for Deep
Monte Carlo, logit for PPO); ``ckpt:PATH,sample=true`` samples from the masked softmax instead (seeded).
``make_agent("pretrained", game)`` loads the checkpoint shipped with the package for that game.

Acting parameters of a network with an imitation head (:mod:`tarockrl.agents.acting` explains them), given in the
spec, e.g. ``pretrained:call_threshold=1,endgame=solve``:

* ``threshold``: the support threshold for every action (default: the checkpoint's ``support_threshold``);
  ``call_threshold`` / ``card_threshold``: the same for calls (bids, announcements, ...) or card actions only;
* ``call_margin`` / ``card_margin``: game points by which ``Q`` must beat the imitation favourite to replace it;
* ``endgame``: ``net``, ``solve`` (Tatteln: exact play once the stock is gone, from the seat's own view) or
  ``pimc`` (every game: in the last ``endgame_tricks`` tricks of the card play, the action of best mean over
  ``endgame_worlds`` worlds drawn from the seat's view and solved exactly; ``endgame_nodes``: the solver's node
  budget per world);
* ``calls``: ``net`` or ``pimc`` (a decision among calls only is made by PIMC with heuristic rollouts over
  ``call_worlds`` worlds).

``ckpt:PATH`` defaults to the checkpoint's own acting (threshold of the checkpoint, no margins, ``endgame=net``,
as before these parameters existed); ``pretrained`` defaults to the per-game table
:data:`tarockrl.agents.acting.PRETRAINED_ACTING`, and a spec parameter overrides its entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from tarockrl.agents.acting import (
    PRETRAINED_ACTING,
    ActingSettings,
    CallPIMC,
    EndgamePIMC,
    FinalPhaseSolver,
    card_actions,
)
from tarockrl.agents.base import ObservationAgent
from tarockrl.agents.checkpoint import check_game, load_checkpoint
from tarockrl.agents.nets import build_network, masked_logits, support_scores
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
        seed: seed of the sampling generator (and of the endgame's world).
        device: where the network runs.
        game: the game (needed for per-kind acting and the endgame).
        acting: per-kind thresholds, margins and endgame (:mod:`tarockrl.agents.acting`); ``None``: the net's own
            greedy acting.
        reward_scale: the checkpoint's reward scale (``Q`` is in game points times it), for the margins.
    """

    def __init__(self, net: torch.nn.Module, sample: bool = False, seed: int | None = None,
                 device: str | torch.device = "cpu", game: Any = None, acting: ActingSettings | None = None,
                 reward_scale: float = 1.0) -> None:
        """Wrap ``net`` (put in evaluation mode)."""
        self.device = torch.device(device)
        self.net = net.to(self.device).eval()
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)
        self.acting = acting or ActingSettings()
        self.thresholds: torch.Tensor | None = None
        self.margins: torch.Tensor | None = None
        self.endgame: FinalPhaseSolver | None = None
        self.endgame_pimc: EndgamePIMC | None = None
        self.call_pimc: CallPIMC | None = None
        a = self.acting
        custom = (a.call_threshold, a.card_threshold) != (None, None) or a.call_margin or a.card_margin
        if custom:
            if game is None or not hasattr(self.net, "threshold"):
                raise BadAgentSpecError("per-kind thresholds and margins need a network with an imitation head "
                                        f"(q_imitation) and the game; this one is {self.net.spec.get('kind')!r}")
            cards = torch.from_numpy(card_actions(game))
            base = float(self.net.threshold)
            call_t = base if a.call_threshold is None else float(a.call_threshold)
            card_t = base if a.card_threshold is None else float(a.card_threshold)
            self.thresholds = torch.where(cards, card_t, call_t).to(torch.float32).to(self.device)
            if a.call_margin or a.card_margin:
                m = torch.where(cards, float(a.card_margin), float(a.call_margin)) * float(reward_scale)
                self.margins = m.to(torch.float32).to(self.device)
        if a.endgame == "solve":
            if game is None:
                raise BadAgentSpecError("endgame=solve needs the game")
            from tarockrl.agents.pimc import game_defaults

            self.endgame = FinalPhaseSolver(game, seed=seed, max_nodes=game_defaults(game)[1])
        elif a.endgame == "pimc":
            if game is None:
                raise BadAgentSpecError("endgame=pimc needs the game")
            self.endgame_pimc = EndgamePIMC(game, seed=seed, worlds=a.endgame_worlds, tricks=a.endgame_tricks,
                                            rollout_tricks=a.rollout_tricks, max_nodes=a.endgame_nodes)
        if a.calls == "pimc":
            if game is None:
                raise BadAgentSpecError("calls=pimc needs the game")
            self.call_pimc = CallPIMC(game, seed=seed, worlds=a.call_worlds)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling generator when ``seed`` is given."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            if self.endgame is not None:
                self.endgame.seed = int(seed)
            if self.endgame_pimc is not None:
                self.endgame_pimc.seed = int(seed)
            if self.call_pimc is not None:
                self.call_pimc.seed = int(seed)

    def step(self, state: Any) -> int:
        """The action for ``state.current_player()`` from its observation; with ``endgame=solve`` (in a
        perfect-information endgame), ``endgame=pimc`` (in the last tricks) or ``calls=pimc`` (a decision among
        calls only), an action of best searched value (ties: the network's choice among them)."""
        player = state.current_player()
        if player < 0:
            raise ValueError("step: the deal is over, there is no seat to act")
        obs = state.observation(player)
        mask = np.asarray(state.legal_action_mask()).astype(bool)
        if mask.sum() > 1:
            values = None
            if self.call_pimc is not None and self.call_pimc.applies(mask):
                values = self.call_pimc.values(state)
            elif self.endgame is not None and self.endgame.applies(obs):
                values = self.endgame.values(state, obs)
            elif self.endgame_pimc is not None and self.endgame_pimc.applies(state):
                values = self.endgame_pimc.values(state)
            if values:
                best = max(values.values())
                tied = [a for a, v in values.items() if v >= best - 1e-9 and mask[a]]
                if len(tied) == 1:
                    return int(tied[0])
                if tied:
                    sub = np.zeros_like(mask)
                    sub[tied] = True
                    return self.act(obs, sub)
        return self.act(obs, mask)

    @torch.no_grad()
    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One legal action per row."""
        obs = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32)).to(self.device)
        mask = torch.from_numpy(np.ascontiguousarray(action_masks).astype(bool)).to(self.device)
        if obs.ndim != 2 or mask.shape[0] != obs.shape[0]:
            raise ValueError(f"act_batch: observations {tuple(obs.shape)} and masks {tuple(mask.shape)} do not match")
        if not bool(mask.any(dim=1).all()):
            raise ValueError("act_batch: a row of the action masks has no legal action")
        if self.thresholds is not None:  # per-kind acting (tarockrl/agents/acting.py)
            q, logits = self.net(obs)
            scores = support_scores(q, logits, mask, self.thresholds, self.margins).float()
        elif hasattr(self.net, "masked_scores"):  # nets whose greedy choice depends on the legal set
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
        return f"NeuralAgent({self.net.spec.get('kind')}, sample={self.sample}, acting={self.acting})"


def load_neural_agent(path: str | Path, game: Any, seed: int | None = None, sample: bool = False,
                      device: str = "cpu", acting: ActingSettings | None = None) -> NeuralAgent:
    """A :class:`NeuralAgent` from a checkpoint file, checked against ``game`` (``CheckpointError`` otherwise)."""
    from tarockrl.training.config import REWARD_SCALES

    payload = load_checkpoint(path, map_location=device)
    check_game(payload, game, path)
    net = build_network(payload["network"])
    net.load_state_dict(payload["model"])
    scale = (payload.get("config") or {}).get("reward_scale", "auto")
    scale = REWARD_SCALES.get(game.name, 1.0) if scale in (None, "auto") else float(scale)
    agent = NeuralAgent(net, sample=sample, seed=seed, device=device, game=game, acting=acting, reward_scale=scale)
    agent.checkpoint = str(path)
    agent.trained_decisions = int(payload.get("counters", {}).get("decisions", 0))
    return agent


def _acting(who: str, base: ActingSettings, threshold: float | None, call_threshold: float | None,
            card_threshold: float | None, call_margin: float | None, card_margin: float | None,
            endgame: str | None, endgame_worlds: int | None = None,
            endgame_tricks: int | None = None, rollout_tricks: int | None = None, calls: str | None = None,
            call_worlds: int | None = None, endgame_nodes: int | None = None) -> ActingSettings:
    """``base`` with the spec's acting parameters applied (``threshold`` sets both kinds unless one is given)."""
    if threshold is not None:
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 < threshold <= 1.0:
            raise BadAgentSpecError(f"agent {who!r}: threshold must be a number in (0, 1], got {threshold!r}")
        call_threshold = threshold if call_threshold is None else call_threshold
        card_threshold = threshold if card_threshold is None else card_threshold
    return base.merged(call_threshold=call_threshold, card_threshold=card_threshold, call_margin=call_margin,
                       card_margin=card_margin, endgame=endgame, endgame_worlds=endgame_worlds,
                       endgame_tricks=endgame_tricks, rollout_tricks=rollout_tricks, calls=calls,
                       call_worlds=call_worlds, endgame_nodes=endgame_nodes).checked(who)


def make_checkpoint_agent(game: Any, seed: int | None = None, path: str = "", sample: bool = False,
                          threshold: float | None = None, call_threshold: float | None = None,
                          card_threshold: float | None = None, call_margin: float | None = None,
                          card_margin: float | None = None, endgame: str | None = None,
                          endgame_worlds: int | None = None, endgame_tricks: int | None = None,
                          rollout_tricks: int | None = None, calls: str | None = None,
                          call_worlds: int | None = None, endgame_nodes: int | None = None) -> NeuralAgent:
    """Factory for ``make_agent("ckpt:PATH[,sample=true,threshold=..,call_threshold=..,card_threshold=..,
    call_margin=..,card_margin=..,endgame=net|solve|pimc,endgame_worlds=..,endgame_tricks=..,
    endgame_nodes=..,rollout_tricks=..,calls=net|pimc,call_worlds=..]", game)``
    (see the module docstring; defaults: the checkpoint's own acting)."""
    if not path:
        raise BadAgentSpecError("agent 'ckpt' needs a checkpoint path: 'ckpt:runs/<run>/checkpoints/best.pt'")
    acting = _acting("ckpt", ActingSettings(), threshold, call_threshold, card_threshold, call_margin, card_margin,
                     endgame, endgame_worlds, endgame_tricks, rollout_tricks, calls, call_worlds, endgame_nodes)
    return load_neural_agent(path, game, seed=seed, sample=sample, acting=acting)


def make_pretrained_agent(game: Any, seed: int | None = None, sample: bool = False, threshold: float | None = None,
                          call_threshold: float | None = None, card_threshold: float | None = None,
                          call_margin: float | None = None, card_margin: float | None = None,
                          endgame: str | None = None, endgame_worlds: int | None = None,
                          endgame_tricks: int | None = None, rollout_tricks: int | None = None,
                          calls: str | None = None, call_worlds: int | None = None,
                          endgame_nodes: int | None = None) -> NeuralAgent:
    """Factory for ``make_agent("pretrained[:...]", game)``: the checkpoint shipped for ``game``, acting by
    :data:`~tarockrl.agents.acting.PRETRAINED_ACTING` unless the spec overrides (same parameters as ``ckpt``)."""
    path = PRETRAINED_DIR / f"{game.name}.pt"
    if not path.is_file():
        shipped = sorted(p.stem for p in PRETRAINED_DIR.glob("*.pt")) if PRETRAINED_DIR.is_dir() else []
        raise BadAgentSpecError(f"no pretrained agent for {game.name!r} in this version (shipped: "
                                f"{', '.join(shipped) or 'none'}); train one with "
                                f"'tarockrl train --config configs/{game.name}_pretrained.yaml'")
    acting = _acting("pretrained", PRETRAINED_ACTING.get(game.name, ActingSettings()), threshold, call_threshold,
                     card_threshold, call_margin, card_margin, endgame, endgame_worlds, endgame_tricks,
                     rollout_tricks, calls, call_worlds, endgame_nodes)
    return load_neural_agent(path, game, seed=seed, sample=sample, acting=acting)
