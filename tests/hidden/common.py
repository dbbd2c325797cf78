"""Shared checks of the hidden-card samplers (every game): consistency, replay, determinism, uniformity."""

from __future__ import annotations

from collections import Counter

import numpy as np

import tarockrl


def random_position(game, seed: int, steps: int, deal_id: int = 0):
    """A state after ``steps`` uniformly random legal actions from deal ``(seed, deal_id)``."""
    state = game.new_initial_state(seed=seed, deal_id=deal_id)
    rng = np.random.default_rng([seed, deal_id, steps])
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def replay(game, world):
    """The world rebuilt from its deal and history through the public API (every action checked legal)."""
    opts = dict(game.options)
    if opts.get("auto_play_forced"):
        opts["auto_play_forced"] = False
    g = tarockrl.make_game(game.name, **opts)
    fresh = g.new_initial_state(deal=world.deal())
    for a in world.history():
        fresh.apply_action(a)
    return fresh


def check_world(game, state, world, player, check_invariants) -> None:
    """Everything a world must satisfy (raises AssertionError)."""
    assert np.array_equal(world.observation(player), state.observation(player))
    if state.current_player() == player:
        assert world.current_player() == player
        assert world.legal_actions() == state.legal_actions()
    assert check_invariants(world.row, game.encoded_options) == 0
    again = replay(game, world)
    assert np.array_equal(again.observation(player), state.observation(player))
    assert np.array_equal(again.row, world.row) or game.options.get("auto_play_forced")


def play_out(world, seed: int) -> None:
    """Play the world to its end with random legal actions; the settlement must be zero-sum."""
    rng = np.random.default_rng(seed)
    while not world.is_terminal():
        legal = world.legal_actions()
        world.apply_action(legal[int(rng.integers(len(legal)))])
    assert abs(float(np.sum(world.returns()))) < 1e-9


def world_key(world, player, hidden_slots) -> tuple:
    """A hashable key of where the hidden cards lie in ``world`` (the given state slots)."""
    return tuple(int(world.row[i]) for i in hidden_slots)


def chi_square_uniform(counts: Counter, n_worlds: int, n_draws: int) -> tuple[float, int]:
    """Pearson's statistic against the uniform law over ``n_worlds`` cells, and its degrees of freedom."""
    assert len(counts) <= n_worlds
    e = n_draws / n_worlds
    stat = sum((c - e) ** 2 / e for c in counts.values()) + (n_worlds - len(counts)) * e
    return stat, n_worlds - 1


def chi2_pvalue(stat: float, dof: int) -> float:
    """Upper tail of the chi-square law (Wilson-Hilferty for large dof, exact series otherwise via scipy if any)."""
    try:
        from scipy.stats import chi2

        return float(chi2.sf(stat, dof))
    except ImportError:  # pragma: no cover
        z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / np.sqrt(2 / (9 * dof))
        from math import erfc, sqrt

        return 0.5 * erfc(z / sqrt(2))
