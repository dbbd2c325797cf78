"""Agents: the :class:`Agent` protocol and ready-made agents.

>>> from tarockrl.agents import RandomAgent
>>> agent = RandomAgent(seed=0)
"""

from __future__ import annotations

from tarockrl.agents.base import Agent, BatchAgent, BatchCallableAgent, CallableAgent, act_batch, as_agent
from tarockrl.agents.random_agent import RandomAgent

__all__ = ["Agent", "BatchAgent", "BatchCallableAgent", "CallableAgent", "RandomAgent", "act_batch", "as_agent"]
