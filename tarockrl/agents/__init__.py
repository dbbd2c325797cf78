"""Agents: the :class:`Agent` protocol and ready-made agents.

>>> from tarockrl.agents import RandomAgent
>>> agent = RandomAgent(seed=0)
>>> from tarockrl.agents import make_agent
>>> agent = make_agent("random", "dreierles", seed=0)   # agent.step(state) -> action
"""

from __future__ import annotations

from tarockrl.agents.base import (
    Agent,
    BatchAgent,
    BatchCallableAgent,
    CallableAgent,
    ObservationAgent,
    StateAgent,
    act_batch,
    as_agent,
    with_step,
)
from tarockrl.agents.random_agent import RandomAgent
from tarockrl.agents.registry import agent_help, known_agents, make_agent, parse_spec, register_agent

__all__ = [
    "Agent",
    "BatchAgent",
    "BatchCallableAgent",
    "CallableAgent",
    "ObservationAgent",
    "RandomAgent",
    "StateAgent",
    "act_batch",
    "agent_help",
    "as_agent",
    "known_agents",
    "make_agent",
    "parse_spec",
    "register_agent",
    "with_step",
]
