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

__all__ = [
    "Agent",
    "BatchAgent",
    "StateAgent",
    "ObservationAgent",
    "CallableAgent",
    "BatchCallableAgent",
    "as_agent",
    "act_batch",
    "with_step",
]


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


@runtime_checkable
class StateAgent(Protocol):
    """The interface every agent built by :func:`tarockrl.agents.make_agent` has (the OpenSpiel bot convention).

    ``step(state)`` returns a legal action for ``state.current_player()``; it may use only what that seat may
    know (its observation, or worlds from ``state.resample_hidden`` / ``game.sample_worlds`` for that seat),
    never the hidden cards themselves. ``reset(seed)``, when present, reseeds the agent.
    """

    def step(self, state: Any) -> int:
        """A legal action for the seat to move in ``state``."""
        ...


class ObservationAgent:
    """Mixin: an agent with ``act(observation, action_mask)`` gets ``step(state)`` from the seat's observation."""

    def step(self, state: Any) -> int:
        """``act`` on the observation and legal-action mask of ``state.current_player()``."""
        player = state.current_player()
        if player < 0:
            raise ValueError("step: the deal is over, there is no seat to act")
        return int(self.act(state.observation(player), state.legal_action_mask()))  # type: ignore[attr-defined]


class _StepAdapter(ObservationAgent):
    """Gives an ``act``-only agent a ``step`` method, forwarding everything else to it."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The wrapped agent's ``act``."""
        return int(self.agent.act(observation, action_mask))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)

    def __repr__(self) -> str:
        return f"WithStep({self.agent!r})"


def with_step(agent: Any) -> Any:
    """``agent`` itself when it has ``step(state)``; an ``act``-only agent (or a callable) wrapped to get one."""
    if hasattr(agent, "step") and callable(agent.step):
        return agent
    return _StepAdapter(as_agent(agent))


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
