"""PIMC over a learned network: ``make_agent("pimc:worlds=32,leaf=ckpt:PATH", game)``.

The search is PIMC's (:class:`tarockrl.agents.pimc.PIMCAgent`): worlds drawn from what the seat to move knows
(``game.sample_worlds`` with a seed derived from the seat's observation, so the real hidden cards are never read),
every legal action valued in every world, the best mean over the worlds played, the open-hand solver in the last
``solve_tricks`` tricks. Only the valuation of a world after an action changes: instead of heuristic rollouts, the
learned network (a checkpoint of ``tarockrl train``, or ``leaf=pretrained``) plays on, batched over all
(world, action) pairs with one forward pass per step, every seat acting greedily on its own observation of that
world. ``leaf_horizon`` says how far:

* ``end`` (default): to the end of the deal; the value is the mover's settlement in that world;
* ``next``: until the mover is to act again (or the deal ends); the value is then the network's own value of its
  greedy action there (``Q``, converted back to game points with the checkpoint's reward scale). This looks one
  move of each other seat ahead, into the world, and lets the network judge the rest; it needs a Q network
  (Deep Monte Carlo).

Because a world fixes every hand, the network's moves for the other seats are what the net would play holding
those cards; a PPO checkpoint acts by its logits, a Deep Monte Carlo one by its (support-restricted) values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from tarockrl.agents.pimc import PIMCAgent
from tarockrl.errors import BadAgentSpecError

__all__ = ["PIMCLeafAgent", "HORIZONS"]

HORIZONS = ("end", "next")


def _leaf_path(game: Any, leaf: str) -> Path:
    """The checkpoint file a ``leaf=`` value names (``ckpt:PATH``, a bare path, or ``pretrained``)."""
    from tarockrl.agents.neural import PRETRAINED_DIR

    text = leaf.strip()
    if text == "pretrained":
        return PRETRAINED_DIR / f"{game.name}.pt"
    if text.startswith("ckpt:"):
        text = text[5:]
    if not text or "," in text or "=" in text:
        raise BadAgentSpecError(f"pimc: leaf must be ckpt:PATH or pretrained (a checkpoint of tarockrl train), "
                                f"got {leaf!r}")
    return Path(text)


class PIMCLeafAgent(PIMCAgent):
    """PIMC whose worlds are valued by a learned network instead of rollouts (see the module docstring).

    Args:
        game: the :class:`tarockrl.Game`.
        seed: the agent's seed.
        leaf: ``ckpt:PATH`` or ``pretrained``: the network that plays the worlds on.
        horizon: ``end`` or ``next`` (see the module docstring).
        worlds, solve_tricks, max_nodes, time: as for :class:`PIMCAgent` (``time`` caps only the solver here).
    """

    def __init__(self, game: Any, seed: int | None = None, leaf: str = "", horizon: str = "end", worlds: int = 32,
                 solve_tricks: int | None = None, max_nodes: int | None = None, time: float = 0.0) -> None:
        """Load and check the leaf network, then set up PIMC's sampling and solver."""
        from tarockrl.agents.checkpoint import CheckpointError, check_game, load_checkpoint
        from tarockrl.agents.nets import build_network

        super().__init__(game, seed=seed, worlds=worlds, solve_tricks=solve_tricks, max_nodes=max_nodes, time=time)
        if horizon not in HORIZONS:
            raise BadAgentSpecError(f"pimc: leaf_horizon must be one of {', '.join(HORIZONS)}, got {horizon!r}")
        path = _leaf_path(self.game, leaf)
        try:
            payload = load_checkpoint(path)
            check_game(payload, self.game, path)
        except CheckpointError as err:
            raise BadAgentSpecError(f"pimc: leaf={leaf}: {err}") from None
        self.net = build_network(payload["network"]).eval()
        self.net.load_state_dict(payload["model"])
        kind = self.kind = payload["network"].get("kind")
        if horizon == "next" and kind not in ("q", "q_imitation"):
            raise BadAgentSpecError(f"pimc: leaf_horizon=next needs a Deep Monte Carlo (Q) checkpoint; {leaf} holds "
                                    f"a {kind!r} network")
        from tarockrl.training.config import REWARD_SCALES

        scale = (payload.get("config") or {}).get("reward_scale", "auto")
        self.scale = REWARD_SCALES.get(self.game.name, 1.0) if scale in (None, "auto") else float(scale)
        self.leaf = leaf
        self.horizon = horizon
        self.rollout = f"net:{horizon}"

    @torch.no_grad()
    def _scores(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(greedy action, its value in game points)`` per row, for the seat whose observation each row is."""
        from tarockrl.agents.nets import masked_logits, support_scores

        o = torch.from_numpy(np.ascontiguousarray(obs, dtype=np.float32))
        m = torch.from_numpy(masks)
        if self.kind == "q_imitation":
            q, logits = self.net(o)
            scores = support_scores(q, logits, m, self.net.threshold)
        else:
            q = self.net.action_scores(o)
            scores = masked_logits(q, m)
        best = scores.argmax(dim=1)
        value = q.gather(1, best[:, None]).squeeze(1) / self.scale
        return best.numpy().astype(np.int64), value.numpy().astype(np.float64)

    def _rollout_worlds(self, rows: np.ndarray, legal: list[int], seed: int, t0: float) -> np.ndarray:
        """``values[world, action]``: the mover's value in each world after each action, by the network."""
        from tarockrl.games.api import Batch

        g, d = self.game, self.game.definition
        n, k = rows.shape[0], len(legal)
        player = int(rows[0, d.slot_cur])
        block = np.repeat(rows, k, axis=0)  # world-major: (world, action)
        status = np.zeros(block.shape[0], dtype=np.int64)
        self.policy.kernels.step_rows(block, np.tile(np.asarray(legal, dtype=np.int64), n), g.encoded_options, status)
        ok = status == 0
        batch = Batch(g, block)
        leaf_value = np.full(block.shape[0], np.nan)
        for _ in range(g.max_episode_length + 1):
            cur = block[:, d.slot_cur]
            live = ok & ~batch.is_terminal() & (cur >= 0)
            if self.horizon == "next":
                at_mover = live & (cur == player)
                if at_mover.any():
                    sel = np.flatnonzero(at_mover & np.isnan(leaf_value))
                    if sel.size:
                        sub = Batch(g, block[sel])
                        _, v = self._scores(sub.observations(), sub.legal_masks())
                        leaf_value[sel] = v
                live &= cur != player
            idx = np.flatnonzero(live)
            if idx.size == 0:
                break
            sub = Batch(g, block[idx])
            acts, _ = self._scores(sub.observations(), sub.legal_masks())
            st = np.zeros(idx.size, dtype=np.int64)
            self.policy.kernels.step_rows(sub.rows, acts, g.encoded_options, st)
            block[idx] = sub.rows
            ok[idx[st != 0]] = False
        done = batch.is_terminal() & ok
        out = np.where(done, block[:, d.slot_result + player].astype(np.float64), leaf_value)
        out[~ok] = np.nan
        return out.reshape(n, k)

    def __repr__(self) -> str:
        return (f"PIMCLeafAgent(worlds={self.worlds}, leaf={self.leaf!r}, horizon={self.horizon!r}, "
                f"solve_tricks={self.solve_tricks}, seed={self.seed})")
