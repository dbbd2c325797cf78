"""Masked PPO with every seat sharing one policy, and an optional perfect-information critic.

Collection samples from the masked policy for every seat of every deal (one forward per lock step). Each seat's
decisions in a deal form its own trajectory: the only reward is the seat's scaled settlement at its last decision,
gamma is 1, and advantages are GAE(lambda) along that trajectory. The update is the clipped PPO objective with an
entropy bonus and a value loss, over shuffled minibatches for a few epochs.

With ``perfect_info_critic: true`` the value comes from a separate critic that reads every seat's observation
(the deciding seat's first), so it sees all hands; it is used only to compute advantages during training, never to
act (the actor sees only its own observation), the asymmetric actor-critic idea of PerfectDou.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from tarockrl.agents.nets import CriticNet, PolicyValueNet, masked_logits
from tarockrl.training.collect import Rollout
from tarockrl.training.common import minibatches, to_tensor
from tarockrl.training.config import TrainConfig

__all__ = ["PPO", "seat_gae"]


def seat_gae(values: np.ndarray, rows: np.ndarray, players: np.ndarray, steps: np.ndarray,
             finals: np.ndarray, lam: float) -> np.ndarray:
    """GAE(lambda) with gamma 1 along each (deal, seat) trajectory.

    ``values[i]`` is the value of decision ``i``; ``finals[i]`` the seat's return, paid at its last decision of the
    deal. Returns the advantages in the input order.
    """
    order = np.lexsort((steps, players, rows))
    adv = np.zeros(values.shape[0], dtype=np.float64)
    next_adv = 0.0
    next_value = 0.0
    prev_key = None
    for i in order[::-1]:
        key = (rows[i], players[i])
        if key != prev_key:  # the last decision of this seat in this deal: reward paid, nothing after
            delta = finals[i] - values[i]
            next_adv = 0.0
        else:
            delta = next_value - values[i]
        next_adv = delta + lam * next_adv
        adv[i] = next_adv
        next_value = values[i]
        prev_key = key
    return adv.astype(np.float32)


class PPO:
    """The PPO learner (see the module docstring)."""

    name = "ppo"

    def __init__(self, cfg: TrainConfig, game: Any, device: torch.device, rng: np.random.Generator) -> None:
        """Build the policy-value net (and the critic), with one optimizer over all parameters."""
        self.cfg = cfg
        self.device = device
        self.rng = rng
        self.net = PolicyValueNet(game.observation_size, game.num_actions, cfg.network.hidden).to(device)
        params = list(self.net.parameters())
        self.critic: CriticNet | None = None
        if cfg.ppo.perfect_info_critic:
            self.critic = CriticNet(game.observation_size * game.num_players, cfg.network.hidden).to(device)
            params += list(self.critic.parameters())
        self.optimizer = torch.optim.Adam(params, lr=cfg.ppo.learning_rate, eps=1e-5)
        self.generator = torch.Generator(device="cpu")
        self.generator.manual_seed(int(rng.integers(2**62)))

    @property
    def needs_full_obs(self) -> bool:
        """Whether collection must record every seat's observation."""
        return self.critic is not None

    def set_progress(self, fraction: float) -> None:
        """PPO keeps its settings fixed over the run."""

    @torch.no_grad()
    def policy(self, obs: np.ndarray, masks: np.ndarray, players: np.ndarray, rows: np.ndarray):
        """Sample from the masked policy; keep each action's log-probability."""
        logits, _ = self.net(to_tensor(obs, self.device))
        logits = masked_logits(logits, to_tensor(masks, self.device))
        probs = torch.softmax(logits.float().cpu(), dim=1)
        actions = torch.multinomial(probs, 1, generator=self.generator).squeeze(1)
        logp = torch.log(probs.gather(1, actions[:, None]).squeeze(1).clamp_min(1e-30))
        return actions.numpy().astype(np.int64), {"logp": logp.numpy().astype(np.float32)}

    @torch.no_grad()
    def _values(self, rollout: Rollout, keep: np.ndarray) -> np.ndarray:
        out = []
        for start in range(0, keep.size, 16384):
            idx = keep[start : start + 16384]
            if self.critic is not None:
                out.append(self.critic(to_tensor(rollout.full_obs[idx], self.device)).cpu().numpy())
            else:
                out.append(self.net(to_tensor(rollout.obs[idx], self.device))[1].cpu().numpy())
        return np.concatenate(out) if out else np.zeros(0, dtype=np.float32)

    def update(self, rollout: Rollout, scale: float) -> dict[str, float]:
        """One PPO update on the rollout's learner decisions."""
        c = self.cfg.ppo
        keep = np.flatnonzero(rollout.learner)
        values = self._values(rollout, keep)
        finals = rollout.targets(scale)[keep]
        adv = seat_gae(values, rollout.rows[keep], rollout.players[keep], rollout.steps[keep], finals, c.gae_lambda)
        ret = adv + values
        obs, masks, acts = rollout.obs[keep], rollout.masks[keep], rollout.actions[keep]
        old_logp = rollout.extras["logp"][keep]
        full = rollout.full_obs[keep] if self.critic is not None else None
        stats: dict[str, list[float]] = {"pg": [], "v": [], "ent": [], "kl": [], "clipfrac": []}
        self.net.train()
        for _ in range(c.epochs):
            for idx in minibatches(keep.size, c.minibatch_size, self.rng):
                o = to_tensor(obs[idx], self.device)
                logits, v = self.net(o)
                logits = masked_logits(logits, to_tensor(masks[idx], self.device))
                logp_all = torch.log_softmax(logits, dim=1)
                a = to_tensor(acts[idx], self.device)
                logp = logp_all.gather(1, a[:, None]).squeeze(1)
                probs = logp_all.exp()
                entropy = -(probs * logp_all.clamp_min(-1e4)).sum(1).mean()
                ratio = (logp - to_tensor(old_logp[idx], self.device)).exp()
                b_adv = to_tensor(adv[idx], self.device)
                if c.normalize_advantages and idx.size > 1:
                    b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
                pg = torch.max(-b_adv * ratio, -b_adv * ratio.clamp(1 - c.clip, 1 + c.clip)).mean()
                if self.critic is not None:
                    v = self.critic(to_tensor(full[idx], self.device))  # type: ignore[index]
                v_loss = 0.5 * ((v - to_tensor(ret[idx], self.device)) ** 2).mean()
                loss = pg - c.entropy_coef * entropy + c.value_coef * v_loss
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                params = [p for g in self.optimizer.param_groups for p in g["params"]]
                nn.utils.clip_grad_norm_(params, c.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    log_ratio = logp - to_tensor(old_logp[idx], self.device)
                    stats["kl"].append(float(((ratio - 1) - log_ratio).mean()))
                    stats["clipfrac"].append(float(((ratio - 1).abs() > c.clip).float().mean()))
                stats["pg"].append(pg.item())
                stats["v"].append(v_loss.item())
                stats["ent"].append(entropy.item())
        self.net.eval()
        mean = {k: float(np.mean(v)) if v else 0.0 for k, v in stats.items()}
        return {"losses/policy_loss": mean["pg"], "losses/value_loss": mean["v"], "losses/entropy": mean["ent"],
                "losses/approx_kl": mean["kl"], "losses/clipfrac": mean["clipfrac"]}

    def modules(self) -> dict[str, nn.Module]:
        """The networks to checkpoint (the first one acts)."""
        mods: dict[str, nn.Module] = {"model": self.net}
        if self.critic is not None:
            mods["critic"] = self.critic
        return mods

    def optimizers(self) -> dict[str, torch.optim.Optimizer]:
        """The optimizers to checkpoint."""
        return {"optimizer": self.optimizer}

    def extra_state(self) -> dict[str, Any]:
        """The sampling generator's state (for exact resumption)."""
        return {"generator": self.generator.get_state()}

    def load_extra_state(self, state: dict[str, Any]) -> None:
        """Restore :meth:`extra_state`."""
        if "generator" in state:
            self.generator.set_state(state["generator"])
