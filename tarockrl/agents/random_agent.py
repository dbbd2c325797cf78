"""The uniformly random legal agent."""

from __future__ import annotations

import numpy as np

from tarockrl.agents.base import ObservationAgent

__all__ = ["RandomAgent", "make_random_agent"]


class RandomAgent(ObservationAgent):
    """Chooses uniformly among the legal actions.

    Args:
        seed: seed of its own ``numpy`` generator (``None``: fresh entropy).

    Environments recognise this agent (``engine_random = True``) and play it inside the numba engine, drawing
    from the environment's own seeded stream: the distribution is the same (uniform over the legal actions) and
    whole episodes stay reproducible from the environment's seed, at engine speed. Called directly, ``act``
    and ``act_batch`` use the agent's generator.
    """

    engine_random = True

    def __init__(self, seed: int | None = None) -> None:
        """Create the agent with its own generator."""
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator when ``seed`` is given (environments call this at each episode start)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def step(self, state) -> int:
        """A uniformly random legal action of ``state`` (reads only the legal actions)."""
        legal = state.legal_actions()
        if not legal:
            raise ValueError("RandomAgent.step: the state has no legal action (is the deal over?)")
        return int(legal[self.rng.integers(len(legal))])

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A uniformly random legal action."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomAgent.act: the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One uniformly random legal action per row (vectorised)."""
        masks = np.asarray(action_masks).astype(bool, copy=False)
        counts = masks.sum(axis=1)
        if masks.shape[0] and counts.min() == 0:
            raise ValueError("RandomAgent.act_batch: a row of the action masks has no legal action")
        r = np.floor(self.rng.random(masks.shape[0]) * counts).astype(np.int64)
        return np.argmax(np.cumsum(masks, axis=1) > r[:, None], axis=1).astype(np.int64)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


def make_random_agent(game, seed: int | None = None) -> RandomAgent:
    """Factory for ``make_agent("random", game, seed=...)``."""
    return RandomAgent(seed=seed)
