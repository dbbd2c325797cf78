"""Helpers shared by the rule-based players' tests: actions by name, and random-mix deals with no-peeking checks."""

from __future__ import annotations

import numpy as np

from tarockrl.agents import make_agent


def act(state, *names: str) -> None:
    """Apply actions given by their names (``"BID Solo"``, ``"PLAY HK"``)."""
    for name in names:
        by_name = {state.action_to_string(a): a for a in state.legal_actions()}
        assert name in by_name, f"{name} not legal; legal: {sorted(by_name)}"
        state.apply_action(by_name[name])


def name_of(state, agent=None) -> str:
    """The name of the action ``agent`` (default: the game's rules agent) chooses in ``state``."""
    agent = agent or make_agent("rules", state.game)
    return state.action_to_string(agent.step(state))


def drive(game, deals: int, seed: int, check_resample: int = 0, p_check: float = 0.25) -> tuple[int, int]:
    """Play ``deals`` deals with a random mix of rules and random seats; return (rules decisions, resample checks).

    With ``check_resample = k``, a fraction ``p_check`` of the rules decisions is repeated on ``k`` states whose
    hidden cards were resampled for the seat to move: the action must not change (no peeking). The samplers are
    exact, so a failing resample is an error here, not a skip.
    """
    rng = np.random.default_rng(seed)
    n_rules = n_checked = 0
    for d in range(deals):
        kinds = rng.integers(0, 3, size=game.num_players)  # 0 or 1: rules, 2: random (most seats play by the rules)
        agents = [make_agent("random" if k == 2 else "rules", game, seed=int(rng.integers(1 << 30))) for k in kinds]
        state = game.new_initial_state(seed=seed, deal_id=d)
        while not state.is_terminal():
            p = state.current_player()
            a = agents[p].step(state)
            if kinds[p] != 2:
                n_rules += 1
                assert a in state.legal_actions()
                if check_resample and rng.random() < p_check:
                    for r in range(check_resample):
                        other = state.resample_hidden(p, int(rng.integers(1 << 40)) + r)
                        assert agents[p].step(other) == a, (state.transcript(), p, a)
                        n_checked += 1
            state.apply_action(a)
    return n_rules, n_checked


def options_id(options: dict) -> str:
    """A pytest id for an option set."""
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"
