"""Batch drivers in numba, generic over the game: the template bound once per game by :mod:`.codegen`.

The names in the bindings block are placeholders; :func:`tarockrl.games.drivers.batch_drivers` binds them to a
game's kernels (the contract of :mod:`tarockrl.games.contract`) and sizes. The drivers:

* ``batch_deal``, ``batch_legal_masks``, ``batch_step``, ``batch_observe``, ``batch_random_actions``: the
  rows of a :class:`tarockrl.games.api.Batch`, one parallel loop each;
* ``random_playouts``: whole deals with uniformly random legal actions (the game's ``playout`` or
  ``random_step`` fast path when it has one), ``reference_playouts`` the same through ``random_action`` and
  ``step`` only (every fast path must agree with it);
* ``invariant_sweep``: random deals checked with ``check_invariants`` after every action, plus the two checks
  every game shares (a seat to act while the deal runs, the episode bound), codes from :mod:`.invariants`;
* ``perft`` / ``batch_perft``: counts of legal action sequences (the game's ``legal_words``).

Randomness: deal ``g`` of a driver is a pure function of ``(seed, g)`` (the game's ``deal_rng`` gives the deal
and the stream its random actions continue with); ``batch_random_actions`` draws row ``i`` from
``stream_seed(seed ^ (step_no * RANDOM_ACTION_SALT), i)``. Work is split into fixed chunks of ``CHUNK``
games with one scratch row each, so no result depends on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.invariants import NO_SEAT_TO_ACT, TOO_MANY_ACTIONS
from tarockrl.engine.rng import stream_seed

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
GAME_NAME = "template"
NUM_PLAYERS = 1
STATE_LEN = 1
SLOT_PHASE = 0
SLOT_CUR = 0
SLOT_HIST_LEN = 0
SLOT_RESULT = 0
TERMINAL_PHASE = 0
MAX_EPISODE_LENGTH = 1
SCRATCH_LEN = 1  # int64 scratch of deal_rng / playout / sweep_deal
LEGAL_WORDS = 1  # (offset, mask) pairs written by legal_words
deal = None  # (row, seed, deal_id, opts)
deal_rng = None  # (row, seed, deal_id, opts, scratch) -> rng: deal, and the stream random play continues with
legal_mask = None  # (row, opts, out_bool)
legal_words = None  # (row, opts, out_i64[2 * LEGAL_WORDS]): legal actions as (offset, bit mask) pairs
apply_action = None  # (row, action, opts) -> 0 ok / 1 illegal / 2 over
step = None  # (row, action, opts): apply a legal action (and forced follow-ups) without checking it
random_action = None  # (row, opts, rng) -> (rng, action): a uniformly random legal action (-1 at the end)
observe = None  # (row, player, opts, out_f32)
check_invariants = None  # (row, opts) -> 0 or a code of engine.invariants
HAS_RANDOM_STEP = False
random_step = None  # optional (row, opts, rng) -> rng: random_action + step fused
HAS_PLAYOUT = False
playout = None  # optional (seed, g, opts, row, scratch, returns_out, i) -> length: random deal g, result in row i
HAS_SWEEP_DEAL = False
sweep_deal = None  # optional (row, seed, g, opts, scratch) -> rng: the deals of invariant_sweep (default deal_rng)
HAS_COPY_STATE = False
copy_state = None  # optional (dst, src): copy the live part of a row (default: the whole row)
# ---- bindings (end) -------------------------------------------------------------------------------------------

RANDOM_ACTION_SALT = np.int64(0x5EED_0F_D1CE)
CHUNK = 64  # games per parallel work item (buffers are allocated once per chunk); never changes a result


@njit(cache=True, parallel=True)
def batch_deal(states, seed, first_deal_id, opts):
    """Deal ``deal(seed, first_deal_id + i)`` into row ``i`` of ``states``."""
    for i in prange(states.shape[0]):
        deal(states[i], seed, first_deal_id + i, opts)


@njit(cache=True, parallel=True)
def batch_legal_masks(states, opts, out):
    """Legal-action masks of every row (bool[n, num_actions]; all False for finished rows)."""
    for i in prange(states.shape[0]):
        legal_mask(states[i], opts, out[i])


@njit(cache=True, parallel=True)
def batch_step(states, actions, opts, status):
    """Apply ``actions[i]`` to row ``i`` (rows already over are left alone with status 2; else the kernel's)."""
    for i in prange(states.shape[0]):
        if states[i, SLOT_PHASE] == TERMINAL_PHASE:
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
            out[i, :] = 0


@njit(cache=True, parallel=True)
def batch_random_actions(states, seed, step_no, opts, out):
    """A uniformly random legal action per row (-1 for finished rows), from stream ``(seed, row, step_no)``."""
    for i in prange(states.shape[0]):
        if states[i, SLOT_PHASE] == TERMINAL_PHASE:
            out[i] = -1
        else:
            rng = stream_seed(seed ^ (step_no * RANDOM_ACTION_SALT), i)
            rng, a = random_action(states[i], opts, rng)
            out[i] = a


@njit(cache=True, _nrt=False)
def _finish(state, i, returns_out, lengths_out):
    for s in range(NUM_PLAYERS):
        returns_out[i, s] = state[SLOT_RESULT + s]
    lengths_out[i] = state[SLOT_HIST_LEN]


@njit(cache=True, _nrt=False)
def _playout_chunk(state, scratch, lo, hi, first_deal_id, seed, opts, returns_out, lengths_out):
    """Serial body of :func:`random_playouts` for rows ``lo..hi-1`` (optimises better than a parfor)."""
    for i in range(lo, hi):
        g = first_deal_id + i
        if HAS_PLAYOUT:
            lengths_out[i] = playout(seed, g, opts, state, scratch, returns_out, i)
        else:
            rng = deal_rng(state, seed, g, opts, scratch)
            while state[SLOT_PHASE] != TERMINAL_PHASE:
                if HAS_RANDOM_STEP:
                    rng = random_step(state, opts, rng)
                else:
                    rng, a = random_action(state, opts, rng)
                    step(state, a, opts)
            _finish(state, i, returns_out, lengths_out)


@njit(cache=True, parallel=True)
def random_playouts(n, seed, opts, returns_out, lengths_out, first_deal_id):
    """Play deals ``first_deal_id .. first_deal_id + n - 1`` with uniformly random legal actions.

    Deal ``g`` is a pure function of ``(seed, g)``. Writes the settlement of deal ``first_deal_id + i`` to
    ``returns_out[i]`` (int64) and its number of actions to ``lengths_out[i]``.
    """
    for c in prange((n + CHUNK - 1) // CHUNK):
        state = np.zeros(STATE_LEN, dtype=np.int64)
        scratch = np.zeros(SCRATCH_LEN, dtype=np.int64)
        _playout_chunk(state, scratch, c * CHUNK, min(n, (c + 1) * CHUNK), first_deal_id, seed, opts, returns_out,
                       lengths_out)


@njit(cache=True, parallel=True)
def reference_playouts(n, seed, opts, returns_out, lengths_out, first_deal_id):
    """:func:`random_playouts` through ``deal_rng``, ``random_action`` and ``step`` only (no fast path)."""
    for c in prange((n + CHUNK - 1) // CHUNK):
        state = np.zeros(STATE_LEN, dtype=np.int64)
        scratch = np.zeros(SCRATCH_LEN, dtype=np.int64)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            rng = deal_rng(state, seed, first_deal_id + i, opts, scratch)
            while state[SLOT_PHASE] != TERMINAL_PHASE:
                rng, a = random_action(state, opts, rng)
                step(state, a, opts)
            _finish(state, i, returns_out, lengths_out)


@njit(cache=True, _nrt=False)
def sweep_one(state, scratch, seed, g, opts):
    """Play random game ``g`` of :func:`invariant_sweep` in ``state``; the first broken-invariant code or 0."""
    if HAS_SWEEP_DEAL:
        rng = sweep_deal(state, seed, g, opts, scratch)
    else:
        rng = deal_rng(state, seed, g, opts, scratch)
    code = check_invariants(state, opts)
    while code == 0 and state[SLOT_PHASE] != TERMINAL_PHASE:
        if state[SLOT_CUR] < 0:
            return NO_SEAT_TO_ACT
        rng, a = random_action(state, opts, rng)
        step(state, a, opts)
        code = check_invariants(state, opts)
        if code == 0 and state[SLOT_HIST_LEN] > MAX_EPISODE_LENGTH:
            code = TOO_MANY_ACTIONS
    return code


@njit(cache=True, parallel=True)
def invariant_sweep(n, seed, opts, codes_out):
    """Random games checked after every action; ``codes_out[g]`` = first broken-invariant code or 0."""
    for c in prange((n + CHUNK - 1) // CHUNK):
        state = np.zeros(STATE_LEN, dtype=np.int64)
        scratch = np.zeros(SCRATCH_LEN, dtype=np.int64)
        for g in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            codes_out[g] = sweep_one(state, scratch, seed, g, opts)


@njit(cache=True, _nrt=False)
def _perft_search(stack, words, depth, opts):
    """Count the action sequences of length ``depth`` from ``stack[0]`` (``words[0]`` its legal words)."""
    level = 0
    count = np.int64(0)
    while level >= 0:
        action = np.int64(-1)
        for w in range(LEGAL_WORDS):
            m = words[level, 2 * w + 1]
            if m != 0:
                low = m & -m
                words[level, 2 * w + 1] = m ^ low
                action = words[level, 2 * w] + lowest_index(low)
                break
        if action < 0:
            level -= 1
            continue
        child = stack[level + 1]
        if HAS_COPY_STATE:
            copy_state(child, stack[level])
        else:
            parent = stack[level]
            for k in range(parent.shape[0]):
                child[k] = parent[k]
        step(child, action, opts)
        if level + 1 == depth or child[SLOT_PHASE] == TERMINAL_PHASE:
            count += 1
        else:
            level += 1
            legal_words(child, opts, words[level])
    return count


@njit(cache=True)
def perft(state, depth, opts):
    """Number of distinct legal action sequences of length ``depth`` from ``state`` (shorter if the game ends)."""
    if depth == 0 or state[SLOT_PHASE] == TERMINAL_PHASE:
        return np.int64(1)
    stack = np.zeros((depth + 1, state.shape[0]), dtype=np.int64)
    words = np.zeros((depth + 1, 2 * LEGAL_WORDS), dtype=np.int64)
    stack[0, :] = state
    legal_words(stack[0], opts, words[0])
    return _perft_search(stack, words, depth, opts)


@njit(cache=True, parallel=True)
def batch_perft(states, depth, opts, out):
    """:func:`perft` of every row, in parallel."""
    for i in prange(states.shape[0]):
        out[i] = perft(states[i], depth, opts)
