"""Batched rollouts for PIMC: a numba template bound per game by :mod:`tarockrl.agents.pimc_rollouts`.

``rollout_rows(rows, policy, eps, seed, opts, out)`` plays every row of ``rows`` (an ``int64[n, STATE_LEN]``
batch of states, changed in place) to the end and writes each row's settlement to ``out[i]``. Row ``i`` draws
from the stream ``stream_seed(seed, i)`` only, so a result never depends on the batch split.

Policies:

* ``POLICY_RANDOM`` (0): a uniformly random legal action everywhere (the game's ``random_action``);
* ``POLICY_HEURISTIC`` (1): in the card play (the solver adapter's ``in_play``) the legal action with the best
  static score of the adapter's ``hint`` for the seat to move (the solver's move-ordering rule: give a trick
  your side wins the most valuable card that does not overtake, beat an opponent's card as cheaply as possible,
  else throw the least valuable card; lead a sure winner, else the cheapest card), ties broken at random, and
  with probability ``eps`` a random legal action instead; outside the card play a random legal action. In
  Tatteln the whole deal is card play and the hint also scores robbing and announcing. A game whose adapter has
  no hint (Troccas today) gets random card play with this policy.

``play_rows(rows, policy, eps, seed, opts)`` is the same without the settlements (used to finish a batch whose
earlier phases were played by a Python agent).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.rng import below, next_u64, stream_seed

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
GAME_NAME = "template"
NUM_PLAYERS = 1
NUM_ACTIONS = 1
STATE_LEN = 1
SLOT_PHASE = 0
SLOT_CUR = 0
SLOT_HIST_LEN = 0
SLOT_RESULT = 0
TERMINAL_PHASE = 0
MAX_EPISODE_LENGTH = 1
SCRATCH_LEN = 1
LEGAL_WORDS = 1
deal = None
deal_rng = None
legal_mask = None
legal_words = None
apply_action = None
step = None
random_action = None
observe = None
returns = None
check_invariants = None
HAS_RANDOM_STEP = False
random_step = None
HAS_PLAYOUT = False
playout = None
HAS_SWEEP_DEAL = False
sweep_deal = None
HAS_COPY_STATE = False
copy_state = None
HAS_IN_PLAY = False
in_play = None  # (row) -> bool: the row is in the card play (the solver adapter's)
HAS_HINT = False
hint = None  # (row, opts, action, root) -> int64 static score, higher is better (the solver adapter's)
# ---- bindings (end) -------------------------------------------------------------------------------------------

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
_INV_2_53 = 1.0 / 9007199254740992.0


@njit(cache=True)
def heuristic_action(row, opts, rng, eps, words):
    """``(rng, action)``: the legal action of best ``hint`` (random tie-break), or a random one with prob. ``eps``."""
    rng, z = next_u64(rng)
    u = np.float64((z >> np.int64(11)) & np.int64((1 << 53) - 1)) * _INV_2_53
    if u < eps:
        return random_action(row, opts, rng)
    for k in range(words.shape[0]):
        words[k] = 0
    legal_words(row, opts, words)
    root = row[SLOT_CUR]
    best = np.int64(-(2**62))
    best_a = np.int64(-1)
    ties = np.int64(0)
    for w in range(LEGAL_WORDS):
        off = words[2 * w]
        m = words[2 * w + 1]
        while m != 0:
            low = m & -m
            m ^= low
            a = off + lowest_index(low)
            s = hint(row, opts, a, root)
            if s > best:
                best = s
                best_a = a
                ties = np.int64(1)
            elif s == best:
                ties += 1
                rng, r = below(rng, ties)
                if r == 0:
                    best_a = a
    if best_a < 0:
        return random_action(row, opts, rng)
    return rng, best_a


@njit(cache=True)
def _play_one(row, policy, eps, rng, opts, words):
    """Play ``row`` to the end with ``policy``."""
    n = 0
    while row[SLOT_PHASE] != TERMINAL_PHASE and n <= MAX_EPISODE_LENGTH:
        if HAS_HINT and HAS_IN_PLAY and policy == POLICY_HEURISTIC and in_play(row):
            rng, a = heuristic_action(row, opts, rng, eps, words)
        else:
            rng, a = random_action(row, opts, rng)
        step(row, a, opts)
        n += 1
    return rng


@njit(cache=True)
def play_rows(rows, policy, eps, seed, opts):
    """Play every row of ``rows`` to the end in place (row ``i`` from stream ``(seed, i)``)."""
    words = np.zeros(2 * LEGAL_WORDS, dtype=np.int64)
    for i in range(rows.shape[0]):
        rng = stream_seed(seed, i)
        _play_one(rows[i], policy, eps, rng, opts, words)


@njit(cache=True)
def rollout_rows(rows, policy, eps, seed, opts, out):
    """Play every row to the end in place and write its settlement to ``out[i]`` (int64[n, NUM_PLAYERS])."""
    words = np.zeros(2 * LEGAL_WORDS, dtype=np.int64)
    for i in range(rows.shape[0]):
        rng = stream_seed(seed, i)
        row = rows[i]
        _play_one(row, policy, eps, rng, opts, words)
        for s in range(NUM_PLAYERS):
            out[i, s] = row[SLOT_RESULT + s]


@njit(cache=True)
def play_to_end_policy_action(rows, policy, eps, seed, opts, out_actions):
    """The action ``policy`` would take in every live row (-1 for finished rows), from stream ``(seed, i)``."""
    words = np.zeros(2 * LEGAL_WORDS, dtype=np.int64)
    for i in range(rows.shape[0]):
        row = rows[i]
        if row[SLOT_PHASE] == TERMINAL_PHASE:
            out_actions[i] = -1
            continue
        rng = stream_seed(seed, i)
        if HAS_HINT and HAS_IN_PLAY and policy == POLICY_HEURISTIC and in_play(row):
            rng, a = heuristic_action(row, opts, rng, eps, words)
        else:
            rng, a = random_action(row, opts, rng)
        out_actions[i] = a


@njit(cache=True)
def step_rows(rows, actions, opts, status):
    """Apply ``actions[i]`` to row ``i`` with the checked kernel (serial; status 0 ok, 1 illegal, 2 over)."""
    for i in range(rows.shape[0]):
        if rows[i, SLOT_PHASE] == TERMINAL_PHASE:
            status[i] = 2
        else:
            status[i] = apply_action(rows[i], actions[i], opts)
