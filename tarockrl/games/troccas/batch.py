"""Batched Troccas kernels: many games per numba call, parallel over games with ``prange``.

Randomness comes from counter-based streams keyed by ``(seed, game number)``, so every result is independent
of the number of threads. A random playout uses two streams per game: ``(seed, g)`` deals (and keeps feeding
in-episode redeals through the row's ``RNG`` slot), ``(seed ^ PLAYOUT_SALT, g)`` picks the actions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import below, stream_seed
from tarockrl.games.troccas.kernels import (
    ONE,
    apply_action,
    check_invariants,
    deal,
    deal_inputs,
    deal_reusing,
    deal_with_rng,
    legal_mask,
    legal_words,
    random_action,
    random_step,
    step,
)
from tarockrl.games.troccas.layout import CUR, HIST, HIST_LEN, PHASE, RESULT, STATE_LEN, TERMINAL
from tarockrl.games.troccas.observe import observe

PLAYOUT_SALT = np.int64(0x5EED_0F_70CC)
SWEEP_SALT = np.int64(0x5EED_0F_5EE9)


@njit(cache=True, parallel=True)
def batch_deal(states, seed, first_deal_id, opts):
    """Deal ``deal(seed, first_deal_id + i)`` into row ``i`` of ``states``."""
    for i in prange(states.shape[0]):
        deal(states[i], seed, first_deal_id + i, opts)


@njit(cache=True, parallel=True)
def batch_deal_inputs(states, seed, first_deal_id, dealers, bal_a, opts):
    """Like :func:`batch_deal` with the dealer ``dealers[i]`` and balance ``(bal_a[i], -bal_a[i])`` per row."""
    for i in prange(states.shape[0]):
        deal_inputs(states[i], seed, first_deal_id + i, dealers[i], bal_a[i], opts)


@njit(cache=True, parallel=True)
def batch_legal_masks(states, opts, out):
    """Legal-action masks of every row (bool[n, NUM_ACTIONS])."""
    for i in prange(states.shape[0]):
        legal_mask(states[i], opts, out[i])


@njit(cache=True, parallel=True)
def batch_step(states, actions, opts, status):
    """Apply ``actions[i]`` to row ``i`` (rows already over are left alone; status per row)."""
    for i in prange(states.shape[0]):
        if states[i, PHASE] == TERMINAL:
            status[i] = 2
        else:
            status[i] = apply_action(states[i], actions[i], opts)


@njit(cache=True, parallel=True)
def batch_observe(states, players, opts, out):
    """Observation of ``players[i]`` for row ``i`` (a negative player leaves the row zero)."""
    for i in prange(states.shape[0]):
        if players[i] >= 0:
            observe(states[i], players[i], opts, out[i])
        else:
            out[i, :] = 0.0


@njit(cache=True, parallel=True)
def batch_random_actions(states, seed, step_no, opts, out):
    """A uniformly random legal action per row (-1 for finished rows), from stream ``(seed, row, step_no)``."""
    for i in prange(states.shape[0]):
        rng = stream_seed(seed ^ (step_no * PLAYOUT_SALT), i)
        rng, a = random_action(states[i], opts, rng)
        out[i] = a


@njit(cache=True, _nrt=False)
def _playout_chunk(lo, hi, seed, opts, returns_out, lengths_out, state):
    for g in range(lo, hi):
        deal_reusing(state, seed, g, opts, ONE)
        rng = stream_seed(seed ^ PLAYOUT_SALT, g)
        while state[PHASE] != TERMINAL:
            rng = random_step(state, opts, rng)
        for s in range(4):
            returns_out[g, s] = state[RESULT + s]
        lengths_out[g] = state[HIST_LEN]


@njit(cache=True, parallel=True)
def random_playouts(n, seed, opts, returns_out, lengths_out):
    """Play ``n`` whole deals ``deal(seed, g)`` with uniformly random legal actions.

    Game ``g`` is a pure function of ``(seed, g)``. Writes the settlement of each game to ``returns_out[g]``
    and its number of actions to ``lengths_out[g]``. Work is split into fixed chunks of 64 games, each with
    its own scratch row.
    """
    chunk = 64
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        state = np.zeros(STATE_LEN, dtype=np.int64)
        _playout_chunk(c * chunk, min(n, (c + 1) * chunk), seed, opts, returns_out, lengths_out, state)


@njit(cache=True, parallel=True)
def invariant_sweep(n, seed, opts, codes_out):
    """Random games checked after every action; ``codes_out[g]`` = first broken-invariant code or 0.

    To exercise the PATTERN phase, game ``g`` gets a random dealer and a balance drawn uniformly from
    ``[-24, 24]`` for team A (from the stream ``(seed ^ SWEEP_SALT, g)``). Code 11: a seat is not to act
    although the episode runs; code 12: the episode did not end within the 9.4 bound.
    """
    for g in prange(n):
        state = np.empty(STATE_LEN, dtype=np.int64)
        rng = stream_seed(seed ^ SWEEP_SALT, g)
        rng, dealer = below(rng, 4)
        rng, b = below(rng, 49)
        deal_inputs(state, seed, g, dealer, b - 24, opts)
        code = check_invariants(state, opts)
        while code == 0 and state[PHASE] != TERMINAL:
            rng, a = random_action(state, opts, rng)
            step(state, a, opts)
            code = check_invariants(state, opts)
            if code == 0 and state[PHASE] != TERMINAL and state[CUR] < 0:
                code = 11
        codes_out[g] = code


@njit(cache=True, _nrt=False)
def _copy_prefix(dst, src):
    n = HIST + src[HIST_LEN]
    if n > STATE_LEN:
        n = STATE_LEN
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True)
def perft(state, depth, opts):
    """Number of distinct legal action sequences of length ``depth`` from ``state`` (shorter if the game ends)."""
    if depth == 0 or state[PHASE] == TERMINAL:
        return np.int64(1)
    stack = np.zeros((depth + 1, STATE_LEN), dtype=np.int64)
    words = np.zeros((depth + 1, 3), dtype=np.int64)
    stack[0, :] = state
    words[0, 0], words[0, 1], words[0, 2] = legal_words(stack[0], opts)
    level = 0
    count = np.int64(0)
    while level >= 0:
        action = -1
        for w in range(3):
            m = words[level, w]
            if m != 0:
                low = m & -m
                words[level, w] = m ^ low
                action = lowest_index(low) + (0 if w == 0 else (22 if w == 1 else 78))
                break
        if action < 0:
            level -= 1
            continue
        child = stack[level + 1]
        _copy_prefix(child, stack[level])
        step(child, action, opts)
        if level + 1 == depth or child[PHASE] == TERMINAL:
            count += 1
        else:
            level += 1
            words[level, 0], words[level, 1], words[level, 2] = legal_words(child, opts)
    return count


@njit(cache=True, parallel=True)
def batch_perft(states, depth, opts, out):
    """:func:`perft` of every row, in parallel."""
    for i in prange(states.shape[0]):
        out[i] = perft(states[i], depth, opts)


__all__ = [
    "batch_deal",
    "batch_deal_inputs",
    "batch_legal_masks",
    "batch_step",
    "batch_observe",
    "batch_random_actions",
    "random_playouts",
    "invariant_sweep",
    "perft",
    "batch_perft",
    "deal_with_rng",
]
