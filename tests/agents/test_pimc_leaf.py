"""PIMC over a learned network (``pimc:...,leaf=ckpt:PATH``): legal actions, no peeking, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.neural import PRETRAINED_DIR
from tarockrl.errors import BadAgentSpecError


def _positions(game, n: int, seed: int):
    """``n`` non-terminal positions with a choice, from deals played by ``rules`` (all phases)."""
    rng = np.random.default_rng(seed)
    policy = make_agent("rules", game, seed=seed)
    out, d = [], 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed, deal_id=d)
        d += 1
        while not state.is_terminal():
            if len(state.legal_actions()) > 1 and rng.random() < 0.2:
                out.append(state.clone())
            state.apply_action(policy.step(state))
    return out[:n]


@pytest.mark.parametrize("name,horizon", [("tatteln", "next"), ("dreierles", "next"),
                                          pytest.param("tatteln", "end", marks=pytest.mark.slow),
                                          pytest.param("dreierles", "end", marks=pytest.mark.slow)])
def test_legal_and_no_peeking(name, horizon):
    """Legal actions; resampled hidden cards (same seat view) give the same action, so the real deal is unread."""
    game = tarockrl.make_game(name)
    spec = f"pimc:worlds=3,solve_tricks=2,leaf=pretrained,leaf_horizon={horizon}"
    rng = np.random.default_rng(5)
    checked, methods = 0, set()
    for state in _positions(game, 4, seed=3):
        p = state.current_player()
        agent = make_agent(spec, game, seed=7)
        a = agent.step(state)
        assert a in state.legal_actions()
        methods.add(agent.last.method.split(":")[0])
        assert np.isfinite(agent.last.means).any()
        other = state.resample_hidden(p, int(rng.integers(1 << 40)))
        assert make_agent(spec, game, seed=7).step(other) == a, state.transcript()
        checked += 1
    assert checked == 4 and "rollouts" in methods


def test_ckpt_leaf_plays_a_whole_deal(tmp_path):
    game = tarockrl.make_game("tatteln")
    agent = make_agent(f"pimc:worlds=2,leaf=ckpt:{PRETRAINED_DIR / 'tatteln.pt'},leaf_horizon=next", game, seed=1)
    state = game.new_initial_state(seed=4)
    while not state.is_terminal():
        a = agent.step(state)
        assert a in state.legal_actions()
        state.apply_action(a)


def test_bad_leaf_specs_are_clear(tmp_path):
    game = tarockrl.make_game("tatteln")
    with pytest.raises(BadAgentSpecError, match="leaf=ckpt:.*no checkpoint file"):
        make_agent(f"pimc:leaf=ckpt:{tmp_path / 'nope.pt'}", game)
    with pytest.raises(BadAgentSpecError, match="trained on 'dreierles', not on 'tatteln'"):
        make_agent(f"pimc:leaf=ckpt:{PRETRAINED_DIR / 'dreierles.pt'}", game)
    with pytest.raises(BadAgentSpecError, match="leaf_horizon must be one of end, next"):
        make_agent("pimc:leaf=pretrained,leaf_horizon=far", game)
    with pytest.raises(BadAgentSpecError, match="leaf must be ckpt:PATH or pretrained"):
        make_agent("pimc:leaf=[ckpt:a,b]", game)
