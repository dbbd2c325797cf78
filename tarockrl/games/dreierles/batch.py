"""Batched Dreierles kernels: many games per numba call, parallel over games with ``prange``.

Randomness comes from counter-based streams keyed by ``(seed, game number)``, so every result is independent
of the number of threads. These drivers live next to the game's kernels (not in a generic engine module)
because numba does not cache functions that receive other jitted functions as arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import stream_seed
from tarockrl.games.dreierles.kernels import (
    SCRATCH_LEN,
    apply_action,
    check_invariants,
    deal_with_rng,
    legal_mask,
    legal_set,
    random_action,
    random_card_play,
    step,
)
from tarockrl.games.dreierles.layout import HIST_LEN, PHASE, PLAY, RESULT, STATE_LEN, TERMINAL
from tarockrl.games.dreierles.observe import observe
from tarockrl.games.dreierles.rules import O_AUTO_FORCED

PLAYOUT_SALT = np.int64(0x5EED_0F_D1CE)


CHUNK = 256  # games per parallel work item: buffers are allocated once per chunk, not per game


@njit(cache=True, parallel=True)
def batch_deal(states, seed, first_deal_id, opts):
    """Deal ``deal(seed, first_deal_id + i)`` into row ``i`` of ``states``."""
    n = states.shape[0]
    for chunk in prange((n + CHUNK - 1) // CHUNK):
        scratch = np.empty(SCRATCH_LEN, dtype=np.int64)
        for i in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            deal_with_rng(states[i], stream_seed(seed, first_deal_id + i), opts, scratch)


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
def _playout_chunk(state, scratch, first, last, seed, opts, returns_out, lengths_out):
    """Serial body of :func:`random_playouts` for games ``first..last-1`` (optimises better than a parfor)."""
    fast = opts[O_AUTO_FORCED] == 0
    for g in range(first, last):
        rng = deal_with_rng(state, stream_seed(seed, g), opts, scratch)
        while state[PHASE] != TERMINAL:
            if fast and state[PHASE] == PLAY:
                rng = random_card_play(state, opts, rng)
            else:
                rng, a = random_action(state, opts, rng)
                step(state, a, opts)
        for s in range(3):
            returns_out[g, s] = state[RESULT + s]
        lengths_out[g] = state[HIST_LEN]


@njit(cache=True, parallel=True)
def random_playouts(n, seed, opts, returns_out, lengths_out):
    """Play ``n`` whole deals with uniformly random legal actions.

    Game ``g`` is a pure function of ``(seed, g)``. Writes the settlement of each game to ``returns_out[g]``
    and its number of actions to ``lengths_out[g]``.
    """
    for chunk in prange((n + CHUNK - 1) // CHUNK):
        state = np.empty(STATE_LEN, dtype=np.int64)
        scratch = np.empty(SCRATCH_LEN, dtype=np.int64)
        _playout_chunk(state, scratch, chunk * CHUNK, min(n, (chunk + 1) * CHUNK), seed, opts, returns_out,
                       lengths_out)


@njit(cache=True, parallel=True)
def invariant_sweep(n, seed, opts, codes_out):
    """Random games checked after every action; ``codes_out[g]`` = first broken-invariant code or 0."""
    for chunk in prange((n + CHUNK - 1) // CHUNK):
        state = np.empty(STATE_LEN, dtype=np.int64)
        scratch = np.empty(SCRATCH_LEN, dtype=np.int64)
        for g in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            rng = deal_with_rng(state, stream_seed(seed, g), opts, scratch)
            code = check_invariants(state, opts)
            while code == 0 and state[PHASE] != TERMINAL:
                rng, a = random_action(state, opts, rng)
                step(state, a, opts)
                code = check_invariants(state, opts)
            codes_out[g] = code


@njit(cache=True)
def perft(state, depth, opts):
    """Number of distinct legal action sequences of length ``depth`` from ``state`` (shorter if the game ends)."""
    if depth == 0 or state[PHASE] == TERMINAL:
        return np.int64(1)
    stack = np.empty((depth + 1, STATE_LEN), dtype=np.int64)
    offsets = np.zeros(depth + 1, dtype=np.int64)
    masks = np.zeros(depth + 1, dtype=np.int64)
    stack[0, :] = state
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
        bit_index = lowest_index(low)
        child = stack[level + 1]
        child[:] = stack[level]
        step(child, offsets[level] + bit_index, opts)
        if level + 1 == depth or child[PHASE] == TERMINAL:
            count += 1
        else:
            level += 1
            offsets[level], masks[level] = legal_set(child, opts)
    return count


@njit(cache=True, parallel=True)
def batch_perft(states, depth, opts, out):
    """:func:`perft` of every row, in parallel."""
    for i in prange(states.shape[0]):
        out[i] = perft(states[i], depth, opts)
