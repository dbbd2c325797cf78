"""The Agent protocol helpers and the RandomAgent."""

from __future__ import annotations

import numpy as np
import pytest

from tarockrl.agents import Agent, BatchCallableAgent, CallableAgent, RandomAgent, act_batch, as_agent


def test_random_agent_is_uniform_over_legal_actions():
    agent = RandomAgent(seed=0)
    mask = np.zeros(10, dtype=np.int8)
    mask[[2, 5, 7]] = 1
    counts = np.bincount([agent.act(None, mask) for _ in range(3000)], minlength=10)
    assert set(np.flatnonzero(counts)) == {2, 5, 7}
    assert counts[[2, 5, 7]].min() > 900
    masks = np.tile(mask, (3000, 1))
    batch = agent.act_batch(np.zeros((3000, 4)), masks)
    assert set(np.unique(batch)) == {2, 5, 7} and np.bincount(batch)[[2, 5, 7]].min() > 900
    with pytest.raises(ValueError, match="no legal action"):
        agent.act(None, np.zeros(4, dtype=np.int8))


def test_random_agent_reseeds_and_is_an_agent():
    a, b = RandomAgent(seed=1), RandomAgent(seed=2)
    mask = np.ones(50, dtype=bool)
    b.reset(seed=1)
    assert [a.act(None, mask) for _ in range(20)] == [b.act(None, mask) for _ in range(20)]
    assert isinstance(a, Agent) and a.engine_random


def test_as_agent_and_act_batch():
    def first(obs, mask):
        return int(np.flatnonzero(mask)[0])

    wrapped = as_agent(first)
    assert isinstance(wrapped, CallableAgent) and as_agent(wrapped) is wrapped
    masks = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
    np.testing.assert_array_equal(act_batch(wrapped, np.zeros((2, 3)), masks), [1, 0])
    batched = BatchCallableAgent(lambda o, m: np.argmax(m, axis=1))
    np.testing.assert_array_equal(act_batch(batched, np.zeros((2, 3)), masks), [1, 0])
    assert batched.act(np.zeros(3), masks[0]) == 1
    with pytest.raises(TypeError, match="act"):
        as_agent(3)
    with pytest.raises(TypeError):
        CallableAgent(None)
