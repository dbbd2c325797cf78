"""Deep Monte Carlo (DouZero-style) for every decision of a game: bidding, talon, discards, announcements, play.

One network ``Q(s, ·)`` scores every action of the flat layout from the deciding seat's observation (which carries
the seat's role: declarer or defender, team, contract, so one net serves every role). Collection is epsilon-greedy
self-play over the batched engine, one forward per lock step for all rows; the target of each decision is the
Monte Carlo return, the deciding seat's (scaled) settlement of the deal; the loss is the squared error of the taken
action's value. Each rollout is used for ``epochs`` passes and then dropped, as in DouZero's actor/learner loop.
Greedy acting takes the legal action with the highest value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from tarockrl.agents.nets import QImitationNet, QNet, masked_logits
from tarockrl.training.collect import Rollout
from tarockrl.training.common import minibatches, random_legal, to_tensor
from tarockrl.training.config import TrainConfig

__all__ = ["DMC"]


class DMC:
    """The Deep Monte Carlo learner (see the module docstring)."""

    name = "dmc"

    def __init__(self, cfg: TrainConfig, game: Any, device: torch.device, rng: np.random.Generator) -> None:
        """Build the Q network and its optimizer."""
        self.cfg = cfg
        self.device = device
        self.rng = rng
        d = cfg.dmc
        self.imitation = d.imitation_coef > 0
        if self.imitation:
            self.net = QImitationNet(game.observation_size, game.num_actions, cfg.network.hidden,
                                     d.support_threshold).to(device)
        else:
            self.net = QNet(game.observation_size, game.num_actions, cfg.network.hidden).to(device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.dmc.learning_rate)
        self.epsilon = cfg.dmc.epsilon

    def set_progress(self, fraction: float) -> None:
        """Anneal epsilon linearly over the run (``fraction`` of the decision budget used)."""
        d = self.cfg.dmc
        if d.epsilon_final is not None:
            self.epsilon = d.epsilon + (d.epsilon_final - d.epsilon) * min(max(fraction, 0.0), 1.0)

    @torch.no_grad()
    def policy(self, obs: np.ndarray, masks: np.ndarray, players: np.ndarray, rows: np.ndarray):
        """Epsilon-greedy actions for a batch of decisions."""
        o, m = to_tensor(obs, self.device), to_tensor(masks, self.device)
        q = self.net.masked_scores(o, m) if self.imitation else masked_logits(self.net(o), m)
        actions = q.argmax(dim=1).cpu().numpy().astype(np.int64)
        explore = self.rng.random(actions.shape[0]) < self.epsilon
        if explore.any():
            actions[explore] = random_legal(masks[explore], self.rng)
        return actions, {}

    def update(self, rollout: Rollout, scale: float) -> dict[str, float]:
        """Regress Q(s, a) on the Monte Carlo returns of the rollout's learner decisions.

        With imitation, the fixed agent's choices (``rollout.extras["imitate"]``) are learned from too: their
        returns train the values, and a cross-entropy loss over the legal actions trains the imitation head.
        With expert iteration (``expert.share > 0``), the decisions an expert labelled (``expert_mask``) add a
        cross-entropy on the expert's choice (weight ``expert.coef``) and, with ``expert.value_coef``, a squared
        error between Q and the expert's action values over the actions it valued (tarockrl/training/expert.py).
        """
        n = len(rollout)
        ex = rollout.extras
        imitate = ex.get("imitate", np.zeros(n, dtype=bool)).astype(bool)
        use = rollout.learner | imitate if self.imitation else rollout.learner
        keep = np.flatnonzero(use)
        obs, masks = (rollout.obs, rollout.masks) if keep.size == n else (rollout.obs[keep], rollout.masks[keep])
        actions, targets, imitate = rollout.actions[keep], rollout.targets(scale)[keep], imitate[keep]
        e = self.cfg.expert
        expert = ex["expert_mask"].astype(bool)[keep] if "expert_mask" in ex else np.zeros(keep.size, dtype=bool)
        expert_actions = ex["expert_action"][keep] if "expert_mask" in ex else None
        expert_values = ex["expert_values"][keep] * scale if "expert_values" in ex and e.value_coef > 0 else None
        if self.imitation and not e.imitate_fixed and e.share > 0:
            imitate = np.zeros_like(imitate)
        losses, ce_losses, ex_losses, ev_losses = [], [], [], []
        self.net.train()
        for _ in range(self.cfg.dmc.epochs):
            for idx in minibatches(keep.size, self.cfg.dmc.batch_size, self.rng):
                o = to_tensor(obs[idx], self.device)
                a = to_tensor(actions[idx], self.device)
                y = to_tensor(targets[idx], self.device)
                if self.imitation:
                    values, logits = self.net(o)
                    loss = nn.functional.mse_loss(values.gather(1, a[:, None]).squeeze(1), y)
                    sel = imitate[idx]
                    if sel.any():
                        s = to_tensor(np.flatnonzero(sel), self.device)
                        lg = masked_logits(logits[s], to_tensor(masks[idx][sel], self.device))
                        ce = nn.functional.cross_entropy(lg, a[s])
                        loss = loss + self.cfg.dmc.imitation_coef * ce
                        ce_losses.append(ce.item())
                    sel = expert[idx]
                    if sel.any():
                        rows = idx[sel]
                        s = to_tensor(np.flatnonzero(sel), self.device)
                        lg = masked_logits(logits[s], to_tensor(masks[rows], self.device))
                        ce = nn.functional.cross_entropy(lg, to_tensor(expert_actions[rows], self.device))
                        loss = loss + e.coef * ce
                        ex_losses.append(ce.item())
                        if expert_values is not None:
                            tv = to_tensor(expert_values[rows], self.device)
                            valued = torch.isfinite(tv)
                            if bool(valued.any()):
                                mse = (values[s] - torch.nan_to_num(tv))[valued].pow(2).mean()
                                loss = loss + e.value_coef * mse
                                ev_losses.append(mse.item())
                else:
                    loss = nn.functional.mse_loss(self.net(o).gather(1, a[:, None]).squeeze(1), y)
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), self.cfg.dmc.max_grad_norm)
                self.optimizer.step()
                losses.append(loss.item())
        self.net.eval()
        out = {"losses/q_loss": float(np.mean(losses)) if losses else 0.0,
               "charts/epsilon": float(self.epsilon),
               "charts/target_abs_mean": float(np.abs(targets).mean()) if targets.size else 0.0}
        if self.imitation:
            out["losses/imitation_loss"] = float(np.mean(ce_losses)) if ce_losses else 0.0
        if e.share > 0:
            out["losses/expert_loss"] = float(np.mean(ex_losses)) if ex_losses else 0.0
            out["charts/expert_labels"] = float(expert.sum())
            if e.value_coef > 0:
                out["losses/expert_value_loss"] = float(np.mean(ev_losses)) if ev_losses else 0.0
        return out

    def modules(self) -> dict[str, nn.Module]:
        """The networks to checkpoint (the first one acts)."""
        return {"model": self.net}

    def optimizers(self) -> dict[str, torch.optim.Optimizer]:
        """The optimizers to checkpoint."""
        return {"optimizer": self.optimizer}
