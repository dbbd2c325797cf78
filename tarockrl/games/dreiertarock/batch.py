"""Batched Dreiertarock kernels: many games per numba call, parallel over games with ``prange``.

Randomness comes from counter-based streams keyed by ``(seed, game number)``, so every result is independent
of the number of threads. The playout drivers work through fixed chunks of games with one scratch row per
chunk (no allocation per game). These drivers live next to the game's kernels (not in a generic engine
module) because numba does not cache functions that receive other jitted functions as arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import stream_seed
from tarockrl.games.dreiertarock.kernels import (
    _random_action,
    _step,
    apply_action,
    check_invariants,
    deal,
    deal_with_rng,
    legal_mask,
    legal_set,
    random_action,
    step,
)
from tarockrl.games.dreiertarock.layout import CUR, HIST_LEN, PHASE, RESULT, STATE_LEN, TERMINAL
from tarockrl.games.dreiertarock.observe import observe

PLAYOUT_SALT = np.int64(0x5EED_0F_D7A2)
CHUNK = 256  # games per scratch row in the playout drivers (does not influence any result)


@njit(cache=True, parallel=True)
def batch_deal(states, seed, first_deal_id, opts):
    """Deal ``deal(seed, first_deal_id + i)`` into row ``i`` of ``states``."""
    for i in prange(states.shape[0]):
        deal(states[i], seed, first_deal_id + i, opts)


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
def playout_chunk(state, perm, c, n, seed, opts, returns_out, lengths_out):
    """Play games ``c * CHUNK`` .. ``min(n, (c + 1) * CHUNK) - 1`` of :func:`random_playouts` in scratch ``state``.

    The rules kernels are inlined here (``_random_action``, ``_step``) and, like all kernels, compiled without
    numba's reference counting, which would otherwise cost atomic operations on every call.
    """
    for g in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
        rng = deal_with_rng(state, stream_seed(seed, g), perm, opts)
        while state[PHASE] != TERMINAL:
            rng, a = _random_action(state, opts, rng)
            _step(state, a, opts)
        returns_out[g, 0] = state[RESULT]
        returns_out[g, 1] = state[RESULT + 1]
        returns_out[g, 2] = state[RESULT + 2]
        lengths_out[g] = state[HIST_LEN]


@njit(cache=True, parallel=True)
def random_playouts(n, seed, opts, returns_out, lengths_out):
    """Play ``n`` whole deals with uniformly random legal actions.

    Game ``g`` is a pure function of ``(seed, g)``. Writes the settlement of each game to ``returns_out[g]``
    and its number of actions to ``lengths_out[g]``.
    """
    for c in prange((n + CHUNK - 1) // CHUNK):
        state = np.empty(STATE_LEN, dtype=np.int64)
        perm = np.empty(54, dtype=np.int64)
        playout_chunk(state, perm, np.int64(c), n, seed, opts, returns_out, lengths_out)  # one signature


@njit(cache=True, _nrt=False)
def sweep_chunk(state, perm, c, n, seed, opts, codes_out):
    """Games ``c * CHUNK`` .. of :func:`invariant_sweep`, checked after every action (no allocation)."""
    for g in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
        rng = deal_with_rng(state, stream_seed(seed, g), perm, opts)
        code = check_invariants(state, opts)
        while code == 0 and state[PHASE] != TERMINAL:
            rng, a = random_action(state, opts, rng)
            step(state, a, opts)
            code = check_invariants(state, opts)
            if code == 0 and state[PHASE] != TERMINAL and state[CUR] < 0:
                code = 8
        codes_out[g] = code


@njit(cache=True, parallel=True)
def invariant_sweep(n, seed, opts, codes_out):
    """Random games checked after every action; ``codes_out[g]`` = first broken-invariant code or 0."""
    for c in prange((n + CHUNK - 1) // CHUNK):
        state = np.empty(STATE_LEN, dtype=np.int64)
        perm = np.empty(54, dtype=np.int64)
        sweep_chunk(state, perm, np.int64(c), n, seed, opts, codes_out)


@njit(cache=True, _nrt=False)
def perft_search(stack, offsets, masks, depth, opts):
    """Count the action sequences of length ``depth`` from ``stack[0]``; the other arguments are scratch."""
    offsets[0], masks[0] = legal_set(stack[0], opts)
    level = 0
    count = np.int64(0)
    while level >= 0:
        mask = masks[level]
        if mask == 0:
            level -= 1
            continue
        low = mask & -mask
        masks[level] = mask ^ low
        child = stack[level + 1]
        parent = stack[level]
        for i in range(STATE_LEN):
            child[i] = parent[i]
        step(child, offsets[level] + lowest_index(low), opts)
        if level + 1 == depth or child[PHASE] == TERMINAL:
            count += 1
        else:
            level += 1
            offsets[level], masks[level] = legal_set(child, opts)
    return count


@njit(cache=True)
def perft(state, depth, opts):
    """Number of distinct legal action sequences of length ``depth`` from ``state`` (shorter if the game ends)."""
    if depth == 0 or state[PHASE] == TERMINAL:
        return np.int64(1)
    stack = np.empty((depth + 1, STATE_LEN), dtype=np.int64)
    offsets = np.zeros(depth + 1, dtype=np.int64)
    masks = np.zeros(depth + 1, dtype=np.int64)
    stack[0, :] = state
    return perft_search(stack, offsets, masks, depth, opts)


@njit(cache=True, parallel=True)
def batch_perft(states, depth, opts, out):
    """:func:`perft` of every row, in parallel."""
    for i in prange(states.shape[0]):
        out[i] = perft(states[i], depth, opts)
