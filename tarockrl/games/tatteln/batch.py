"""Batched Tatteln kernels: many deals per numba call, parallel over deals with ``prange``.

Randomness comes from counter-based streams keyed by ``(seed, deal number)``, so every result is independent of
the number of threads. Whole-deal drivers work in fixed chunks of deals that share one scratch row.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import stream_seed
from tarockrl.games.tatteln.fastplay import WORK_LEN, play_random_deal
from tarockrl.games.tatteln.kernels import (
    apply_action,
    apply_unchecked,
    check_invariants,
    deal,
    deal_with_rng,
    hist_capacity,
    legal_mask,
    legal_set,
    random_action,
    state_len,
)
from tarockrl.games.tatteln.layout import CUR, HIST_LEN, PHASE, RESULT, TERMINAL
from tarockrl.games.tatteln.observe import observe
from tarockrl.games.tatteln.rules import O_DECK

PLAYOUT_SALT = np.int64(0x5EED_7A77)
CHUNK = 64


@njit(cache=True, parallel=True)
def batch_deal(states, seed, first_deal_id, opts):
    """Deal ``deal(seed, first_deal_id + i)`` into row ``i`` of ``states``."""
    for i in prange(states.shape[0]):
        deal(states[i], seed, first_deal_id + i, opts)


@njit(cache=True, parallel=True)
def batch_legal_masks(states, opts, out):
    """Legal-action masks of every row (bool[n, N + 3])."""
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


@njit(cache=True)
def _playout(state, rng, opts):
    while state[PHASE] != TERMINAL:
        rng, a = random_action(state, opts, rng)
        apply_unchecked(state, a, opts)
    return rng


@njit(cache=True, parallel=True)
def random_playouts(n, seed, opts, returns_out, lengths_out):
    """Play ``n`` whole deals with uniformly random legal actions.

    Deal ``g`` (dealer included) is a pure function of ``(seed, g)``: the same deal and the same random choices
    as ``deal(seed, g)`` followed by :func:`reference_playout`. Writes the settlement of each deal to
    ``returns_out[g]`` and its number of actions to ``lengths_out[g]``.
    """
    n_chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        perm = np.empty(36, dtype=np.int64)
        work = np.empty(WORK_LEN, dtype=np.int64)
        for g in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            _, s, length = play_random_deal(stream_seed(seed, g), opts, perm, work)
            returns_out[g, 0] = s
            returns_out[g, 1] = -s
            lengths_out[g] = length


@njit(cache=True, parallel=True)
def reference_playouts(n, seed, opts, returns_out, lengths_out):
    """:func:`random_playouts` through the row kernels (``random_action`` + ``apply_unchecked``): the reference."""
    slen = state_len(opts)
    for g in prange(n):
        state = np.empty(slen, dtype=np.int64)
        perm = np.empty(36, dtype=np.int64)
        rng = deal_with_rng(state, stream_seed(seed, g), opts, perm)
        _playout(state, rng, opts)
        returns_out[g, 0] = state[RESULT]
        returns_out[g, 1] = state[RESULT + 1]
        lengths_out[g] = state[HIST_LEN]


@njit(cache=True, parallel=True)
def invariant_sweep(n, seed, opts, codes_out):
    """Random deals checked after every action; ``codes_out[g]`` = first broken-invariant code or 0.

    Code 12: a live state without a seat to act; 13: more actions than the spec's bound 6K - 7.
    """
    slen = state_len(opts)
    bound = hist_capacity(opts)
    for g in prange(n):
        state = np.empty(slen, dtype=np.int64)
        perm = np.empty(36, dtype=np.int64)
        rng = deal_with_rng(state, stream_seed(seed, g), opts, perm)
        code = check_invariants(state, opts)
        while code == 0 and state[PHASE] != TERMINAL:
            rng, a = random_action(state, opts, rng)
            apply_unchecked(state, a, opts)
            code = check_invariants(state, opts)
            if code == 0 and state[PHASE] != TERMINAL and state[CUR] < 0:
                code = 12
            if code == 0 and state[HIST_LEN] > bound:
                code = 13
        codes_out[g] = code


@njit(cache=True)
def perft(state, depth, opts):
    """Number of distinct legal action sequences of length ``depth`` from ``state`` (shorter if the deal ends)."""
    if depth == 0 or state[PHASE] == TERMINAL:
        return np.int64(1)
    stack = np.empty((depth + 1, state.shape[0]), dtype=np.int64)
    masks = np.zeros(depth + 1, dtype=np.int64)
    stack[0, :] = state
    masks[0] = legal_set(stack[0], opts)
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
        child[:] = stack[level]
        apply_unchecked(child, lowest_index(low), opts)
        if level + 1 == depth or child[PHASE] == TERMINAL:
            count += 1
        else:
            level += 1
            masks[level] = legal_set(child, opts)
    return count


@njit(cache=True, parallel=True)
def batch_perft(states, depth, opts, out):
    """:func:`perft` of every row, in parallel."""
    for i in prange(states.shape[0]):
        out[i] = perft(states[i], depth, opts)


@njit(cache=True, parallel=True)
def greedy_invariant_sweep(n, seed, opts, codes_out, actions_out):
    """Like :func:`invariant_sweep`, but a ROB or an announcement is taken whenever one is legal.

    This drives the meld, comparison and robbing paths far more often than uniform play. ``actions_out[g]`` counts
    the pre-play actions taken in deal ``g``.
    """
    slen = state_len(opts)
    bound = hist_capacity(opts)
    n_cards = opts[O_DECK]
    for g in prange(n):
        state = np.empty(slen, dtype=np.int64)
        perm = np.empty(36, dtype=np.int64)
        rng = deal_with_rng(state, stream_seed(seed, g), opts, perm)
        code = check_invariants(state, opts)
        extra = 0
        while code == 0 and state[PHASE] != TERMINAL:
            m = legal_set(state, opts)
            pre = m >> n_cards
            if pre != 0:
                a = n_cards + lowest_index(pre)
                extra += 1
            else:
                rng, a = random_action(state, opts, rng)
            apply_unchecked(state, a, opts)
            code = check_invariants(state, opts)
            if code == 0 and state[HIST_LEN] > bound:
                code = 13
        codes_out[g] = code
        actions_out[g] = extra
