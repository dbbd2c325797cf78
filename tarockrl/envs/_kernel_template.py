"""Environment drivers in numba, generic over the game: the template compiled once per game.

The names in the bindings block below are placeholders. :mod:`tarockrl.envs._bind` writes a copy of this file
per game (and per specialised rules definition) into a cache folder, with the block replaced by that game's
kernels and sizes, and imports the copy. Each copy is an ordinary module, so numba caches its compiled drivers
on disk (numba cannot cache a function that receives other jitted functions as arguments, and a function made
in a factory or closure never hits the cache).

What lives here:

* per-row helpers: start an episode (deal, opponent random stream, learner seat), play the in-engine random
  opponents until the learner's turn (``settle``), write an observation and an int8 action mask (``emit``);
* ``run``: the one driver of every env. It runs an op per row over a row range with the GIL released: the
  single env calls it on its one row, the vector env and the self-play batch split their rows into ranges run
  by a few threads (``tarockrl.envs._bind.Runner``). One serial driver instead of several ``parallel=True``
  kernels keeps the compile time of a game's env layer to one function.

Randomness: the random opponents of an episode draw from ``stream_seed(seed ^ OPPONENT_SALT, deal_id)``; a
random learner seat is the first draw of that stream. An episode is therefore a pure function of
``(seed, deal_id)`` and the learner's actions, whatever the number of threads, the batch size or the row.

Rows never depend on each other, so results do not depend on how rows are split among threads.

Speed (a 4096-row batch is several megabytes, far more than the CPU's near caches): the drivers are compiled
without numba's reference counting (``_nrt=False``; the game's kernels are called through the ``k_*`` wrappers,
which keep it for them), so taking a row view or calling a helper costs no atomic count updates; and ``run``
asks the CPU to fetch the state row, control row, masks and observation row of the row ``PREFETCH_AHEAD``
ahead while it works on the current one (:func:`tarockrl.engine.bits.prefetch_write`), and of a large row
(``PREFETCH_HIST``) also the history slot the next actions write, one row ahead (an append beyond the prefetched
hot part missed the caches on nearly every step). A game with large observations (``STREAM_OBS``: Troccas'
2,112 entries) has its integer codes written into a scratch row and copied out by streaming stores, and its
observation rows are not prefetched: an ordinary store first reads the output's cache line from memory, which
for 8.6 MB of codes per batch step cost as much memory traffic as writing them. None of this changes a result.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from tarockrl.engine.bits import (
    address_of,
    lowest_index,
    popcount,
    prefetch_read,
    prefetch_write,
    store_fence,
    stream_store16,
)
from tarockrl.engine.obsput import flip_signed
from tarockrl.engine.rng import below, stream_seed

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
GAME_NAME = "template"
NUM_PLAYERS = 1
NUM_ACTIONS = 1
OBS_SIZE = 1
STATE_LEN = 1
SLOT_CUR = 0
SLOT_PHASE = 0
TERMINAL_PHASE = 0
deal = None  # (row, seed, deal_id, opts)
legal_mask = None  # (row, opts, out_bool)
apply_action = None  # (row, action, opts) -> 0 ok / 1 illegal / 2 over
observe = None  # (row, player, opts, out): float32 values or uint8/int8 codes (tarockrl.engine.obsput)
returns = None  # (row, out_f64)
HAS_RANDOM_ACTION = False  # the game provides random_action (optional GameDefinition field)
random_action = None  # (row, opts, rng) -> (rng, action): a uniformly random legal action
HAS_STEP = False  # the game provides step (optional GameDefinition field)
step = None  # (row, action, opts): apply a legal action without checking it
HAS_RANDOM_STEP = False  # the game provides random_step (optional kernel of the contract)
random_step = None  # (row, opts, rng) -> rng: random_action followed by step, fused
# per kernel: True unless the game's kernel is itself compiled without reference counting (``_nrt=False``)
NRT_DEAL = True
NRT_LEGAL_MASK = True
NRT_APPLY_ACTION = True
NRT_STEP = True
NRT_RANDOM_ACTION = True
NRT_OBSERVE = True
NRT_RETURNS = True
NRT_RANDOM_STEP = True
SLOT_HIST_LEN = 0
SLOT_HIST = 0  # first history slot (the row's action record)
PREFETCH_HIST = False  # also prefetch the history slot the next action writes (large rows, history beyond the hot part)
PREFETCH_SLOTS = 1  # leading state slots that ``run`` prefetches (the row's hot part; the rest is touched rarely)
STREAM_OBS = False  # integer-code observations go out by streaming stores (large observations, see observe_row)
# ---- bindings (end) -------------------------------------------------------------------------------------------

OPPONENT_SALT = np.int64(0x0770_6F_6E_65_6E_74)
NUM_WORDS = (NUM_ACTIONS + 7) // 8 + 1  # scratch words for one legal mask (see random_legal)
LITTLE_ENDIAN = sys.byteorder == "little"

# per-row control slots (int64[CTRL_LEN] per row)
C_SEAT = 0  # learner seat of the current episode
C_FIXED_SEAT = 1  # -1: a random seat per episode; else this seat
C_RNG = 2  # random stream of the in-engine opponents
C_ACTED = 3  # 1 once the learner has acted in this episode
C_DEAL_ID = 4  # deal id of the current episode
C_EPISODE = 5  # episodes started by this row (vector env: the next deal id is first + row + k * stride)
C_STATUS = 6  # READY / DONE / AGENT / BROKEN / NO_DECISION after the last call
C_NEEDS_RESET = 7  # 1 when the episode is over and the row waits for a reset
C_SKIPPED = 8  # deals skipped because the learner had no decision in them
CTRL_LEN = 9

# status codes
READY = 0  # the learner is to move
DONE = 1  # the episode is over
AGENT = 2  # an opponent driven by a Python agent is to move (seat = row[SLOT_CUR])
BROKEN = 4  # the engine refused a legal action (a bug)
NO_DECISION = 5  # the learner had no decision in too many deals in a row (P_MAX_SKIPS)

# opponent kinds, by seat relative to the learner
KIND_AGENT = 0
KIND_RANDOM = 1

# ops per row
OP_SKIP = 0
OP_STEP = 1  # learner's action
OP_RESUME = 2  # a Python agent's action
OP_RESET = 3  # the row's next deal
OP_RESET_ID = 4  # deal ``actions[i]``
OP_BEGIN = 5  # the deal already written into the row (explicit deal)
OP_SP_STEP = 6  # self-play: the seat to move's action
OP_SP_RESET = 7  # self-play: the row's next deal

# vector params (int64) and float params
P_SEED = 0
P_STRIDE = 1
P_FIRST_DEAL = 2
P_AUTORESET = 3  # 0 next_step, 1 same_step, 2 disabled
P_MAX_SKIPS = 4
P_WANT_FINAL_OBS = 5
P_OBS_CODES = 6  # 1: observations go to ``qout``/``qfinal`` as integer codes (tarockrl.games.obs_dtype)
NUM_PARAMS = 7
F_SCALE = 0
F_ILLEGAL_REWARD = 1
NUM_FPARAMS = 2

AUTORESET_NEXT_STEP = 0
AUTORESET_SAME_STEP = 1
AUTORESET_DISABLED = 2

PREFETCH_AHEAD = 2  # rows ahead whose buffers ``run`` asks the CPU to fetch (hides cache misses on large batches)


# ---------------------------------------------------------------------------------------------------------
# the game's kernels, called through wrappers compiled with numba's reference counting
# ---------------------------------------------------------------------------------------------------------
# The drivers below run without reference counting (``_nrt=False``: no atomic count updates for every row view
# and helper call, a large share of a step). A kernel called from such a function inherits that setting when it
# is compiled there and then may not allocate (a deal's scratch, a state copy); calling the kernels through these
# explicitly reference-counted wrappers compiles them exactly as any other caller does. A wrapper keeps the
# count only when its kernel needs it: a kernel the game itself declares ``_nrt=False`` never allocates, and its
# wrapper (``NRT_<NAME> = False``) then costs no atomic count updates of its array arguments either.
@njit(cache=True, _nrt=NRT_DEAL, inline="never" if NRT_DEAL else "always")
def k_deal(row, seed, deal_id, opts):
    """The game's ``deal``."""
    deal(row, seed, deal_id, opts)


@njit(cache=True, _nrt=NRT_LEGAL_MASK, inline="never" if NRT_LEGAL_MASK else "always")
def k_legal_mask(row, opts, out):
    """The game's ``legal_mask``."""
    legal_mask(row, opts, out)


@njit(cache=True, _nrt=NRT_APPLY_ACTION, inline="never" if NRT_APPLY_ACTION else "always")
def k_apply_action(row, action, opts):
    """The game's ``apply_action``."""
    return apply_action(row, action, opts)


@njit(cache=True, _nrt=NRT_STEP, inline="never" if NRT_STEP else "always")
def k_step(row, action, opts):
    """The game's ``step`` (optional kernel; only called when ``HAS_STEP``)."""
    step(row, action, opts)


@njit(cache=True, _nrt=NRT_RANDOM_ACTION, inline="never" if NRT_RANDOM_ACTION else "always")
def k_random_action(row, opts, rng):
    """The game's ``random_action`` (optional kernel; only called when ``HAS_RANDOM_ACTION``)."""
    return random_action(row, opts, rng)


@njit(cache=True, _nrt=NRT_RANDOM_STEP, inline="never" if NRT_RANDOM_STEP else "always")
def k_random_step(row, opts, rng):
    """The game's ``random_step`` (optional kernel; only called when ``HAS_RANDOM_STEP``)."""
    return random_step(row, opts, rng)


@njit(cache=True, _nrt=NRT_OBSERVE, inline="never" if NRT_OBSERVE else "always")
def k_observe(row, player, opts, out):
    """The game's ``observe``."""
    observe(row, player, opts, out)


@njit(cache=True, _nrt=NRT_RETURNS, inline="never" if NRT_RETURNS else "always")
def k_returns(row, out):
    """The game's ``returns``."""
    returns(row, out)


# ---------------------------------------------------------------------------------------------------------
# per-row helpers
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True)
def scratch_words():
    """A zeroed scratch mask: int64 words whose bytes, viewed as bool, hold one legal flag per action."""
    return np.zeros(NUM_WORDS, dtype=np.int64)


@njit(cache=True)
def scratch_obs(qout):
    """A scratch row for the observation codes of ``observe_row`` with ``STREAM_OBS`` (``qout``'s dtype)."""
    return np.zeros(OBS_SIZE if STREAM_OBS else 1, dtype=qout.dtype)


@njit(cache=True, _nrt=False)
def random_legal(row, opts, words, rng):
    """A uniformly random legal action from the stream ``rng``; returns ``(rng, action)`` (-1 when none).

    ``legal_mask`` writes one bool byte per action into ``words``; every legal action is then exactly one set
    bit (bit 0 of its byte), so counting and picking the ``r``-th legal action work on whole words.
    """
    flags = words.view(np.bool_)[:NUM_ACTIONS]
    k_legal_mask(row, opts, flags)
    k = 0
    for j in range(NUM_WORDS):
        k += popcount(words[j])
    if k == 0:
        return rng, np.int64(-1)
    rng, r = below(rng, k)
    for j in range(NUM_WORDS):
        w = words[j]
        c = popcount(w)
        if r < c:
            for _ in range(r):
                w &= w - 1
            if LITTLE_ENDIAN:
                return rng, np.int64(8 * j + lowest_index(w) // 8)
            for b in range(8 * j, min(8 * j + 8, NUM_ACTIONS)):  # pragma: no cover - big-endian machines
                if flags[b]:
                    if r == 0:
                        return rng, np.int64(b)
                    r -= 1
        r -= c
    return rng, np.int64(-1)


@njit(cache=True, _nrt=False, inline="always")
def play(row, action, opts):
    """Apply an action known to be legal (the game's unchecked ``step`` when it has one); False if refused."""
    if HAS_STEP:
        k_step(row, action, opts)
        return True
    return k_apply_action(row, action, opts) == 0


@njit(cache=True, _nrt=False)
def begin_episode(row, ctrl, seed, deal_id, deal_now, opts):
    """Deal ``deal(seed, deal_id)`` (unless the row already holds a deal) and set up the episode's stream and seat."""
    if deal_now:
        k_deal(row, seed, deal_id, opts)
    rng = stream_seed(seed ^ OPPONENT_SALT, deal_id)
    if ctrl[C_FIXED_SEAT] < 0:
        rng, s = below(rng, NUM_PLAYERS)
        ctrl[C_SEAT] = s
    else:
        ctrl[C_SEAT] = ctrl[C_FIXED_SEAT]
    ctrl[C_RNG] = rng
    ctrl[C_ACTED] = 0
    ctrl[C_DEAL_ID] = deal_id
    ctrl[C_NEEDS_RESET] = 0


@njit(cache=True, _nrt=False, inline="always")
def settle(row, ctrl, opts, kinds, scratch):
    """Play in-engine random opponents until the learner's turn (READY), the end (DONE) or a Python agent (AGENT)."""
    seat = ctrl[C_SEAT]
    while row[SLOT_PHASE] != TERMINAL_PHASE:
        cur = row[SLOT_CUR]
        if cur == seat:
            return READY
        if kinds[(cur - seat) % NUM_PLAYERS] != KIND_RANDOM:
            return AGENT
        if HAS_RANDOM_STEP and HAS_STEP:  # the same action and stream as random_action + step (the contract)
            ctrl[C_RNG] = k_random_step(row, opts, ctrl[C_RNG])
            continue
        if HAS_RANDOM_ACTION:
            rng, a = k_random_action(row, opts, ctrl[C_RNG])
        else:
            rng, a = random_legal(row, opts, scratch, ctrl[C_RNG])
        ctrl[C_RNG] = rng
        if a < 0 or not play(row, a, opts):
            return BROKEN
    return DONE


@njit(cache=True, _nrt=False)
def squash_row(out, idx):
    """``x / (1 + |x|)`` in float32 on the entries ``idx`` of ``out`` (:func:`tarockrl.envs.bounds.squash`)."""
    one = np.float32(1.0)
    for j in idx:
        x = out[j]
        out[j] = x / (one + abs(x))


@njit(cache=True, _nrt=False, inline="always")
def observe_row(row, player, opts, i, obs_out, qout, fix, coded, squash, sobs):
    """Observation of ``player`` into row ``i`` of ``obs_out`` (float32; with ``squash``, the entries ``fix``
    squashed), or, when ``coded``, as integer codes written directly into row ``i`` of ``qout`` (``fix``: the
    signed entries of a ``uint8`` code row, whose bit 7 is flipped; :mod:`tarockrl.engine.obsput`).

    With ``STREAM_OBS`` (a game whose observation is large: a batch of them never stays in the caches) the codes
    are written into the scratch row ``sobs`` (in the nearest cache) and copied out by streaming stores
    (:func:`tarockrl.engine.bits.stream_store16`), so the output row's cache lines are never read from memory
    before being overwritten; the bytes are the same."""
    if coded:
        dst = qout[i]
        if STREAM_OBS and (address_of(dst) & 15) == 0:
            k_observe(row, player, opts, sobs)
            flip_signed(sobs, fix)
            for k in range(0, OBS_SIZE - 15, 16):
                stream_store16(dst, k, sobs, k)
            for k in range(OBS_SIZE & ~15, OBS_SIZE):
                dst[k] = sobs[k]
        else:
            k_observe(row, player, opts, dst)
            flip_signed(dst, fix)
    else:
        dst = obs_out[i]
        k_observe(row, player, opts, dst)
        if squash:
            squash_row(dst, fix)


@njit(cache=True, _nrt=False, inline="always")
def emit(row, player, opts, legal_out, i, obs_out, qout, fix, coded, squash, mask_out, sobs):
    """Observation of ``player`` into row ``i`` (see :func:`observe_row`); its legal actions into ``legal_out``
    (bool) and ``mask_out`` (int8), both all False / 0 unless ``player`` is to move."""
    observe_row(row, player, opts, i, obs_out, qout, fix, coded, squash, sobs)
    if row[SLOT_PHASE] != TERMINAL_PHASE and row[SLOT_CUR] == player:
        k_legal_mask(row, opts, legal_out)
        flags = legal_out.view(np.int8)
        for a in range(NUM_ACTIONS):
            mask_out[a] = flags[a]
    else:
        legal_out[:] = False
        mask_out[:] = 0


# ---------------------------------------------------------------------------------------------------------
# rows of the envs: one driver for the single env (one row), the vector env and self-play
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _next_episode(i, row, c, params, opts):
    """Start row ``i``'s next deal of its stream: deal id ``first + i + k * stride`` for its ``k``-th episode."""
    k = c[C_EPISODE]
    c[C_EPISODE] = k + 1
    begin_episode(row, c, params[P_SEED], params[P_FIRST_DEAL] + i + k * params[P_STRIDE], True, opts)


@njit(cache=True, _nrt=False, inline="always")
def _learner_row(i, op, action, rows, ctrl, opts, kinds, params, fparams, legal, scratch, obs_out, mask_out,
                 rew_out, term_out, ret_out, final_obs, qout, qfinal, fix, sobs):
    """One row of the single-agent envs; returns its status (also stored in ``ctrl[i, C_STATUS]``)."""
    row = rows[i]
    c = ctrl[i]
    coded = params[P_OBS_CODES] != 0
    ended = False  # the learner's episode ended in this call and waits to be reported / reset
    if op != OP_RESUME:
        rew_out[i] = 0.0
        term_out[i] = False
        ret_out[i, :] = 0.0
    if op == OP_RESET or (op == OP_STEP and c[C_NEEDS_RESET] != 0):
        _next_episode(i, row, c, params, opts)
    elif op == OP_RESET_ID:
        begin_episode(row, c, params[P_SEED], action, True, opts)
    elif op == OP_BEGIN:
        begin_episode(row, c, params[P_SEED], np.int64(-1), False, opts)
    elif op == OP_STEP:
        ok = 0 <= action < NUM_ACTIONS and legal[i, action]
        if ok:
            ok = play(row, action, opts)
        if ok:
            c[C_ACTED] = 1
        else:  # only reached with illegal_action="lose" (the callers check "raise" first)
            rew_out[i] = fparams[F_ILLEGAL_REWARD] * fparams[F_SCALE]
            term_out[i] = True
            ended = True
    elif op == OP_RESUME:
        if k_apply_action(row, action, opts) != 0:
            c[C_STATUS] = BROKEN
            return BROKEN
    skips = 0
    while True:
        if not ended:
            code = settle(row, c, opts, kinds, scratch)
            if code == DONE:
                if c[C_ACTED] != 0:
                    k_returns(row, ret_out[i])
                    rew_out[i] = ret_out[i, c[C_SEAT]] * fparams[F_SCALE]
                    term_out[i] = True
                    ended = True
                else:  # the learner had no decision in this deal: deal the next one
                    c[C_SKIPPED] += 1
                    skips += 1
                    if skips > params[P_MAX_SKIPS]:
                        c[C_STATUS] = NO_DECISION
                        return NO_DECISION
                    _next_episode(i, row, c, params, opts)
                    continue
            elif code == READY:
                emit(row, c[C_SEAT], opts, legal[i], i, obs_out, qout, fix, coded, True, mask_out[i], sobs)
                c[C_STATUS] = READY
                return READY
            elif code == AGENT:
                emit(row, row[SLOT_CUR], opts, legal[i], i, obs_out, qout, fix, coded, False, mask_out[i], sobs)
                c[C_STATUS] = AGENT
                return AGENT
            else:
                c[C_STATUS] = BROKEN
                return BROKEN
        # the learner's episode is over
        if params[P_AUTORESET] == AUTORESET_SAME_STEP:
            if params[P_WANT_FINAL_OBS] != 0:
                observe_row(row, c[C_SEAT], opts, i, final_obs, qfinal, fix, coded, True, sobs)
            _next_episode(i, row, c, params, opts)
            ended = False
            continue
        emit(row, c[C_SEAT], opts, legal[i], i, obs_out, qout, fix, coded, True, mask_out[i], sobs)  # over: no mask
        c[C_NEEDS_RESET] = 1
        c[C_STATUS] = DONE
        return DONE


@njit(cache=True, _nrt=False, inline="always")
def _selfplay_row(i, op, action, rows, ctrl, opts, params, legal, scratch, obs_out, mask_out, term_out, ret_out,
                  qout, fix, sobs):
    """One row of the self-play batch: the seat to move plays ``action``; returns its status."""
    row = rows[i]
    c = ctrl[i]
    term_out[i] = False
    ret_out[i, :] = 0.0
    if op == OP_SP_RESET:
        _next_episode(i, row, c, params, opts)
    elif row[SLOT_PHASE] != TERMINAL_PHASE:
        if not play(row, action, opts):  # checked by count_illegal before
            c[C_STATUS] = BROKEN
            return BROKEN
        if row[SLOT_PHASE] == TERMINAL_PHASE:
            k_returns(row, ret_out[i])
            term_out[i] = True
            if params[P_AUTORESET] == AUTORESET_SAME_STEP:
                _next_episode(i, row, c, params, opts)
    coded = params[P_OBS_CODES] != 0
    if row[SLOT_PHASE] == TERMINAL_PHASE:
        if coded:  # the codes of an all-zero observation
            qout[i, :] = 0
            flip_signed(qout[i], fix)
        else:
            obs_out[i, :] = 0.0
        mask_out[i, :] = 0
        legal[i, :] = False
        c[C_STATUS] = DONE
        return DONE
    emit(row, row[SLOT_CUR], opts, legal[i], i, obs_out, qout, fix, coded, False, mask_out[i], sobs)
    c[C_STATUS] = READY
    return READY


@njit(cache=True, _nrt=False, inline="always")
def prefetch_row(a, i, write, w=-1):
    """Hint the CPU to fetch the cache lines of the first ``w`` entries (default: all) of row ``i`` of the
    C-contiguous 2-d array ``a`` (for writing)."""
    base = i * a.shape[1]
    if w < 0 or w > a.shape[1]:
        w = a.shape[1]
    per_line = max(1, 64 // a.itemsize)
    for j in range(0, w, per_line):
        if write:
            prefetch_write(a, base + j)
        else:
            prefetch_read(a, base + j)
    if write:
        prefetch_write(a, base + w - 1)
    else:
        prefetch_read(a, base + w - 1)


@njit(cache=True, _nrt=False, inline="always")
def prefetch_learner_row(j, rows, ctrl, legal, obs_out, mask_out, qout, coded):
    """Prefetch what a learner op on row ``j`` reads and writes (of the state row, its ``PREFETCH_SLOTS`` hot
    slots: a large row's history and deal archive are touched once per action or per deal)."""
    prefetch_row(rows, j, True, PREFETCH_SLOTS)
    prefetch_row(ctrl, j, True)
    prefetch_row(legal, j, True)
    prefetch_row(mask_out, j, True)
    if coded:
        if not STREAM_OBS:  # streamed rows are written without being read
            prefetch_row(qout, j, True)
    else:
        prefetch_row(obs_out, j, True)


@njit(cache=True, nogil=True)
def run(lo, hi, rows, ctrl, ops, actions, opts, kinds, params, fparams, legal, obs_out, mask_out, rew_out, term_out,
        ret_out, final_obs, qout, qfinal, fix):
    """Run ``ops[i]`` with ``actions[i]`` on rows ``lo .. hi-1``; returns ``(rows waiting for an agent, broken)``.

    Learner ops (single env and vector env): ``OP_STEP`` plays the learner's action (a row waiting for a reset
    starts its next deal instead and ignores the action; an illegal action loses), then the in-engine opponents,
    the episode end and the autoreset; ``OP_RESUME`` plays the action of the Python agent to move;
    ``OP_RESET`` starts the row's next deal, ``OP_RESET_ID`` deal ``actions[i]``, ``OP_BEGIN`` the deal already in
    the row. Self-play ops: ``OP_SP_STEP`` plays the action of the seat to move, ``OP_SP_RESET`` deals.

    With ``params[P_OBS_CODES]`` set, observations are written as integer codes into ``qout`` / ``qfinal``
    (uint8 or int8, :mod:`tarockrl.games.obs_dtype`; ``fix`` (int64): the signed entries of a uint8 code row,
    empty for int8) and ``obs_out`` / ``final_obs`` are not touched. Otherwise they are float32 in ``obs_out`` /
    ``final_obs`` and ``fix`` lists the entries squashed by ``x / (1 + |x|)`` in the learner's observations
    (those shown to Python agents and the self-play observations stay raw); ``qout`` / ``qfinal`` are not read.

    The GIL is released, so callers split a batch into row ranges run by several threads; rows are independent.
    """
    return _run_rows(lo, hi, rows, ctrl, ops, actions, opts, kinds, params, fparams, legal, obs_out, mask_out,
                     rew_out, term_out, ret_out, final_obs, qout, qfinal, fix, scratch_words(), scratch_obs(qout))


@njit(cache=True, _nrt=False)
def _run_rows(lo, hi, rows, ctrl, ops, actions, opts, kinds, params, fparams, legal, obs_out, mask_out, rew_out,
              term_out, ret_out, final_obs, qout, qfinal, fix, scratch, sobs):
    """The loop of :func:`run`, compiled without numba's reference counting (no allocation here): the row views
    and helper calls of every row then cost no atomic reference-count updates."""
    n_agent = 0
    n_broken = 0
    coded = params[P_OBS_CODES] != 0
    for i in range(lo, hi):
        if PREFETCH_AHEAD > 0 and i + PREFETCH_AHEAD < hi:
            prefetch_learner_row(i + PREFETCH_AHEAD, rows, ctrl, legal, obs_out, mask_out, qout, coded)
        if PREFETCH_HIST and i + 1 < hi:  # its hot part (with the history length) was fetched a row ago
            h = min(max(rows[i + 1, SLOT_HIST_LEN], 0), rows.shape[1] - 1 - SLOT_HIST)
            prefetch_write(rows, (i + 1) * rows.shape[1] + SLOT_HIST + h)
        op = ops[i]
        if op == OP_SKIP:
            continue
        if op >= OP_SP_STEP:
            st = _selfplay_row(i, op, actions[i], rows, ctrl, opts, params, legal, scratch, obs_out, mask_out,
                               term_out, ret_out, qout, fix, sobs)
        else:
            st = _learner_row(i, op, actions[i], rows, ctrl, opts, kinds, params, fparams, legal, scratch, obs_out,
                              mask_out, rew_out, term_out, ret_out, final_obs, qout, qfinal, fix, sobs)
        if st == AGENT:
            n_agent += 1
        elif st == BROKEN or st == NO_DECISION:
            n_broken += 1
    if STREAM_OBS and coded:  # the streamed codes are in memory before the caller (maybe another thread) reads them
        store_fence()
    return n_agent, n_broken


@njit(cache=True, _nrt=False)
def count_illegal(rows, ctrl, ops, actions, legal):
    """Number of rows whose ``OP_STEP`` / ``OP_SP_STEP`` action is illegal (checked before anything changes)."""
    bad = 0
    for i in range(rows.shape[0]):
        op = ops[i]
        if (op == OP_STEP and ctrl[i, C_NEEDS_RESET] == 0) or (op == OP_SP_STEP and rows[i, SLOT_PHASE] !=
                                                                TERMINAL_PHASE):
            a = actions[i]
            if a < 0 or a >= NUM_ACTIONS or not legal[i, a]:
                bad += 1
    return bad
