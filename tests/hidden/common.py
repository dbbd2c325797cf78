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


def placements(ncard: int, caps: list[int]):
    """Every assignment of ``ncard`` cards to locations filling ``caps`` exactly (as lists of location ids)."""
    out: list[list[int]] = []
    cur: list[int] = []
    rem = list(caps)

    def go(k: int) -> None:
        if k == ncard:
            out.append(list(cur))
            return
        for j, r in enumerate(rem):
            if r > 0:
                rem[j] -= 1
                cur.append(j)
                go(k + 1)
                cur.pop()
                rem[j] += 1

    go(0)
    return out


def multinomial(caps: list[int]) -> int:
    """The number of placements of ``sum(caps)`` distinct cards into locations of sizes ``caps``."""
    from math import factorial

    r = factorial(sum(caps))
    for c in caps:
        r //= factorial(c)
    return r


def enumerate_worlds(game, state, player, module, key):
    """All worlds of ``player``'s view by brute force: every placement of the hidden cards (ignoring the sampler's
    card constraints), kept when the rebuilt game replays legally and shows ``player`` the same observation.

    ``module`` is the game's resample module (``_setup``, ``_build``, ``NUM_LOC``), ``key(row)`` names a world.
    Returns the set of keys.
    """
    from tarockrl.games.api import State

    opts = game.encoded_options
    ropts = opts.copy()
    ropts[module.O_AUTO_FORCED] = 0
    n_loc = module.NUM_LOC
    cards = np.zeros(128, dtype=np.int64)
    allow = np.zeros(128, dtype=np.int64)
    caps = np.zeros(n_loc, dtype=np.int64)
    ncard = module._setup(state.row, np.int64(player), opts, cards, allow, caps)
    target = state.observation(player)
    keys = set()
    world = np.zeros(game.state_len, dtype=np.int64)
    for pl in placements(ncard, [int(c) for c in caps]):
        loc_of = np.zeros(128, dtype=np.int64)
        loc_of[:ncard] = pl
        world[:] = 0
        ok = module._build(state.row, np.int64(player), ropts, cards, loc_of, ncard, world, np.zeros(1, dtype=np.int64))
        if not ok:
            continue
        w = State(game, world.copy())
        if np.array_equal(w.observation(player), target):
            keys.add(key(w.row))
    return keys


def hidden_size(game, state, player, module) -> int:
    """The number of placements the brute force would try (the multinomial of the capacities)."""
    opts = game.encoded_options
    cards = np.zeros(128, dtype=np.int64)
    allow = np.zeros(128, dtype=np.int64)
    caps = np.zeros(module.NUM_LOC, dtype=np.int64)
    module._setup(state.row, np.int64(player), opts, cards, allow, caps)
    return multinomial([int(c) for c in caps])


def uniformity(game, state, player, module, key, draws_per_world: int = 40, seed: int = 0):
    """(number of worlds by enumeration, sampled support == enumerated set, chi-square p-value, max |freq-1/N|)."""
    truth = enumerate_worlds(game, state, player, module, key)
    n = len(truth)
    draws = max(2000, draws_per_world * n)
    batch = game.sample_worlds(state, player, draws, seed=seed)
    counts = Counter(key(batch.rows[i]) for i in range(draws))
    support_ok = set(counts) == truth
    stat, dof = chi_square_uniform(counts, n, draws)
    p = chi2_pvalue(stat, dof) if dof > 0 else 1.0
    tv = 0.5 * sum(abs(counts.get(k, 0) / draws - 1 / n) for k in truth)
    return n, support_ok, p, tv
