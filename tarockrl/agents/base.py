"""The agent protocol shared by environments, evaluation and training.

An agent chooses one action for one seat from what that seat may know::

    class MyAgent:
        def act(self, observation, action_mask):   # float32[obs_size], int8/bool[num_actions]
            return int(np.flatnonzero(action_mask)[0])

That is the whole required interface; plain functions ``f(observation, action_mask) -> int`` work too (wrap them
with :func:`as_agent`, or hand them to an environment, which wraps them for you). Optional methods, used when
present:

``act_batch(observations, action_masks) -> int array``
    One action per row of ``float32[n, obs_size]`` / ``[n, num_actions]`` (vector environments call it once
    per seat and step). Without it, :func:`act_batch` calls ``act`` row by row.
``reset(seed=None)``
    Called by environments at the start of every episode; with an integer ``seed`` (derived from the
    environment's seed), the agent should reseed itself so episodes are reproducible.

Observations follow the game's documented layout (``tarockrl.envs`` docs); the mask marks the legal actions of
the flat action layout. An agent must return a legal action; environments raise ``IllegalActionError`` naming the
agent otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Agent", "BatchAgent", "CallableAgent", "BatchCallableAgent", "as_agent", "act_batch"]


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(observation, action_mask) -> int``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action of the flat layout for this observation."""
        ...


@runtime_checkable
class BatchAgent(Protocol):
    """An agent that also acts for many rows at once (vector environments use it when present)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for one observation."""
        ...

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One legal action per row."""
        ...


class CallableAgent:
    """Wraps a function ``f(observation, action_mask) -> int`` as an :class:`Agent`."""

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any]) -> None:
        """Wrap ``fn``."""
        if not callable(fn):
            raise TypeError(f"expected a callable policy f(observation, action_mask) -> int, got {fn!r}")
        self.fn = fn

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """``fn(observation, action_mask)``."""
        return self.fn(observation, action_mask)

    def __repr__(self) -> str:
        return f"CallableAgent({getattr(self.fn, '__qualname__', self.fn)!r})"


class BatchCallableAgent:
    """Wraps a batched function ``f(observations[n], action_masks[n]) -> actions[n]`` (e.g. a neural policy)."""

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any]) -> None:
        """Wrap ``fn``."""
        if not callable(fn):
            raise TypeError(f"expected a callable batched policy f(observations, action_masks), got {fn!r}")
        self.fn = fn

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The batched function on a batch of one."""
        return int(np.asarray(self.fn(observation[None], action_mask[None])).reshape(-1)[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """``fn(observations, action_masks)`` as an int64 array."""
        return np.asarray(self.fn(observations, action_masks), dtype=np.int64).reshape(-1)

    def __repr__(self) -> str:
        return f"BatchCallableAgent({getattr(self.fn, '__qualname__', self.fn)!r})"


def as_agent(obj: Any) -> Any:
    """``obj`` itself if it has ``act``; a plain callable wrapped in :class:`CallableAgent`; else ``TypeError``."""
    if hasattr(obj, "act") and callable(obj.act):
        return obj
    if callable(obj):
        return CallableAgent(obj)
    raise TypeError(
        f"an agent needs a method act(observation, action_mask) -> int, or must be such a callable; got {obj!r}"
    )


def act_batch(agent: Any, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """One action per row: ``agent.act_batch`` when it exists, otherwise ``agent.act`` row by row."""
    fn = getattr(agent, "act_batch", None)
    if fn is not None:
        out = np.asarray(fn(observations, action_masks)).reshape(-1)
        if out.shape[0] != observations.shape[0]:
            raise ValueError(
                f"{agent!r}.act_batch returned {out.shape[0]} actions for {observations.shape[0]} observations"
            )
        return out
    return np.fromiter(
        (int(agent.act(observations[i], action_masks[i])) for i in range(observations.shape[0])),
        dtype=np.int64,
        count=observations.shape[0],
    )
