"""Troccas rule kernels (numba, int64 only): deal, legal actions, apply, scoring, invariants.

Every kernel takes the state row (``int64[STATE_LEN]``, see :mod:`.layout`) and the encoded rules options
(``int64[NUM_OPTION_SLOTS]``, see :mod:`.rules`). Kernels never raise: ``apply_action`` returns a status code
and leaves the row untouched when the action is illegal.

Speed notes: every kernel here is compiled with ``_nrt=False`` (they never allocate). numba otherwise increfs and
decrefs each array argument on every call (an out-of-line atomic operation), which cost more than the rules
themselves; without the runtime the state row is passed as a plain borrowed view. Small helpers on the per-action
path are also inlined (``inline="always"``).

Legal actions are returned by ``legal_set`` as three words ``(tw, sw, ex)``: bit ``i`` of ``tw`` is action
``i`` (cards 0-21), bit ``i`` of ``sw`` is action ``22 + i`` (cards 22-77) and bit ``i`` of ``ex`` is action
``78 + i`` (everything else). Counting set bits in the order tw, sw, ex enumerates the actions ascending.

The automatic steps of the deal (dealing a packet, revealing the last cards, skipping a phase whose condition
fails, redealing) run inside the action that triggers them, so exactly one seat is to act whenever the episode
is not over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine import invariants as INV
from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.rng import below, mix64, stream_seed
from tarockrl.engine.shuffle import shuffle_prefix_pairs
from tarockrl.engine.wide import (
    highest_index,
    select_index,
    wide_follow_or_trump,
    wide_highest_index,
    wide_sum_values,
)
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import (
    CARD_FOOL,
    CARD_VALUES,
    CAVALIERS,
    FOOL,
    JACKS,
    KINGS,
    MID_TRUMPS,
    NUMERALS,
    QUEENS,
    SPLIT,
    SUIT_MASKS,
    SUIT_OF_CARD,
    SW_ALL,
    TRUMPS,
    TW_ALL,
    TW_NO_SCART,
)
from tarockrl.games.troccas.rules import (
    FIRST_LEADER_DEALER,
    O_BUOB_AUTO,
    O_DOUBLE_LEAD,
    O_EXPOSE,
    O_FIRST_LEADER,
    O_FOOL_FORCE,
    O_FORCE,
    O_KING_AFTER_FOOL,
    O_KING_JACK,
    O_KNOCK,
    O_MAX_REDEALS,
    O_MUST_OVERTRUMP,
    O_NINE_TEN,
    O_PACKET_OPTIONS,
    O_SCART_FOR_FOOL,
    O_SCART_JACK_VOIDS,
    O_SCART_TRUMPS,
    O_SINGLE,
    O_SLAM_SCART,
    O_TALK,
    O_THROW_IN,
)

ONE = np.int64(1)
ZERO = np.int64(0)
NUM_PACKETS_A = np.array(L.NUM_PACKETS, dtype=np.int64)
NONDEALER_ENDS_A = np.array(L.NONDEALER_ENDS, dtype=np.int64)
DEALER_ENDS_A = np.array(L.DEALER_ENDS, dtype=np.int64)
TALK_EARLY_EX = np.int64(((1 << 10) - 1) << L.EX_EARLY)
TALK_FINAL_EX = np.int64(((1 << 12) - 1) << L.EX_FINAL)
VOTE_EX = np.int64(0b11 << L.EX_KEEP)
FORCE_EX = np.int64(0b11 << L.EX_DECLINE)
BUOB_EX = np.int64(0b11 << L.EX_NO_DEMAND)
KNOCK_EX = np.int64(ONE << L.EX_KNOCK)

# step codes of the automatic deal driver
_S_TALK, _S_VOTE, _S_AFTER_PAUSE, _S_FORCE = 0, 1, 2, 3


# ---------------------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _add_card(state, slot_tw, slot_sw, card):
    if card < SPLIT:
        state[slot_tw] |= ONE << card
    else:
        state[slot_sw] |= ONE << (card - SPLIT)


@njit(cache=True, _nrt=False, inline="always")
def _remove_card(state, slot_tw, slot_sw, card):
    if card < SPLIT:
        state[slot_tw] &= ~(ONE << card)
    else:
        state[slot_sw] &= ~(ONE << (card - SPLIT))


@njit(cache=True, _nrt=False)
def episode_bound(opts):
    """The docs/rules/troccas.md §9.4 bound on the number of actions of an episode for these options."""
    m = opts[O_MAX_REDEALS] if (opts[O_THROW_IN] != 0 or opts[O_FORCE] != 0) else 0
    t = 12 if opts[O_TALK] != 0 else 0
    v = 12 if opts[O_THROW_IN] != 0 else 0
    f = 1 if opts[O_FORCE] != 0 else 0
    k = 21 if opts[O_KNOCK] != 0 else 0
    return 1 + m * (t + v + f) + t + 2 + 76 + 4 + k


@njit(cache=True, _nrt=False)
def pack_attempt(state, k):
    """Store the current ``PERM`` as archived attempt ``k``."""
    base = L.ARCHIVE + L.ARCHIVE_WORDS * k
    for w in range(L.ARCHIVE_WORDS):
        state[base + w] = 0
    for i in range(78):
        state[base + i // 9] |= state[L.PERM + i] << (7 * (i % 9))


@njit(cache=True, _nrt=False)
def unpack_attempt(state, k, out):
    """Write archived attempt ``k`` (78 card indices, seat chunks as in ``PERM``) into ``out``."""
    base = L.ARCHIVE + L.ARCHIVE_WORDS * k
    for i in range(78):
        out[i] = (state[base + i // 9] >> (7 * (i % 9))) & 127


# ---------------------------------------------------------------------------------------------------------
# dealing and the automatic steps of a deal attempt
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _deal_packet(state, j, opts):
    d = state[L.DEALER]
    pat = state[L.PATTERN_SLOT]
    for c in range(4):
        seat = (d + 1 + c) % 4
        if c < 3:
            end = NONDEALER_ENDS_A[pat, j]
            start = 0 if j == 0 else NONDEALER_ENDS_A[pat, j - 1]
        else:
            end = DEALER_ENDS_A[pat, j]
            start = 0 if j == 0 else DEALER_ENDS_A[pat, j - 1]
        base = L.PERM + 19 * c
        tw = state[L.HAND_TW + seat]
        sw = state[L.HAND_SW + seat]
        for i in range(start, end):
            card = state[base + i]
            if card < SPLIT:
                tw |= ONE << card
            else:
                sw |= ONE << (card - SPLIT)
        state[L.HAND_TW + seat] = tw
        state[L.HAND_SW + seat] = sw
        if j == NUM_PACKETS_A[pat] - 1 and opts[O_EXPOSE] != 0:
            state[L.EXPOSED + seat] = state[base + end - 1]
    state[L.PACKET] = j


@njit(cache=True, _nrt=False)
def _force_eligible(state, opts):
    d = state[L.DEALER]
    trumps = TRUMPS | FOOL if opts[O_FOOL_FORCE] != 0 else TRUMPS
    return (state[L.HAND_TW + d] & trumps) == 0


@njit(cache=True, _nrt=False)
def _run(state, opts, step):
    """Carry out the automatic steps from ``step`` until a seat has to act."""
    d = state[L.DEALER]
    can_redeal = state[L.REDEAL_COUNT] < opts[O_MAX_REDEALS]
    while True:
        if step == _S_TALK:
            if opts[O_TALK] != 0:
                state[L.PHASE] = L.TALK
                state[L.PAUSE_POS] = 0
                state[L.CUR] = (d + 1) % 4
                return
            step = _S_VOTE
        elif step == _S_VOTE:
            if opts[O_THROW_IN] != 0 and can_redeal:
                state[L.PHASE] = L.VOTE
                state[L.PAUSE_POS] = 0
                state[L.CUR] = (d + 1) % 4
                return
            step = _S_AFTER_PAUSE
        elif step == _S_AFTER_PAUSE:
            j = state[L.PACKET] + 1
            if j < NUM_PACKETS_A[state[L.PATTERN_SLOT]]:
                _deal_packet(state, j, opts)
                step = _S_TALK
            else:
                step = _S_FORCE
        else:
            state[L.CUR] = d
            if opts[O_FORCE] != 0 and can_redeal and _force_eligible(state, opts):
                state[L.PHASE] = L.FORCE
                state[L.FORCE_SEEN] = 1
                return
            state[L.PHASE] = L.SCART
            state[L.SCART_N] = 0
            return


@njit(cache=True, _nrt=False)
def _start_attempt(state, opts):
    _deal_packet(state, 0, opts)
    _run(state, opts, _S_TALK)


@njit(cache=True, _nrt=False)
def _reset_attempt(state):
    for s in range(4):
        state[L.HAND_TW + s] = 0
        state[L.HAND_SW + s] = 0
        state[L.EXPOSED + s] = -1
    for i in range(12):
        state[L.TALK_LOG + i] = -1
        state[L.VOTE_LOG + i] = -1
    state[L.FORCE_SEEN] = 0
    state[L.PAUSE_POS] = 0
    state[L.PACKET] = 0


@njit(cache=True, _nrt=False)
def _redeal(state, opts):
    """Cancel the attempt and deal again (same dealer, same pattern): next archived order or a fresh shuffle."""
    k = state[L.REDEAL_COUNT]
    if k >= state[L.N_ARCHIVED]:  # archive the attempt being cancelled (drawn from the generator)
        pack_attempt(state, k)
        state[L.N_ARCHIVED] = k + 1
    k += 1
    state[L.REDEAL_COUNT] = k
    perm = state[L.PERM:L.PERM + 78]
    if k < state[L.N_ARCHIVED]:
        unpack_attempt(state, k, perm)
    else:
        for i in range(78):
            perm[i] = i
        state[L.RNG] = shuffle_prefix_pairs(state[L.RNG], perm, 78)
    _reset_attempt(state)
    _start_attempt(state, opts)


@njit(cache=True, _nrt=False)
def _begin_episode(state, opts):
    """PATTERN when a team is far enough behind, otherwise the first attempt with the standard pattern."""
    if opts[O_PACKET_OPTIONS] != 0:
        d = state[L.DEALER]
        for t in range(2):
            if state[L.BAL + t] <= -opts[O_NINE_TEN]:
                for c in range(4):
                    seat = (d + 1 + c) % 4
                    if seat % 2 == t:
                        state[L.PHASE] = L.PATTERN
                        state[L.CUR] = seat
                        return
    state[L.PATTERN_SLOT] = L.STANDARD
    _start_attempt(state, opts)


@njit(cache=True, _nrt=False)
def init_state(state, dealer, bal_a, rng, reuse):
    """Zero ``state`` and set the episode inputs (the card order must then be put into ``PERM``).

    With ``reuse != 0`` the row must hold a previous state (or zeros): only its used history slots are cleared.
    """
    if reuse != 0:
        used = L.HIST + min(max(state[L.HIST_LEN], ZERO), np.int64(L.HIST_CAP))
        for i in range(used):
            state[i] = 0
    else:
        state[:] = 0
    state[L.MAGIC] = L.LAYOUT_MAGIC
    state[L.DEALER] = dealer
    state[L.BAL] = bal_a
    state[L.BAL + 1] = -bal_a
    state[L.RNG] = rng
    state[L.PATTERN_BY] = -1
    state[L.LEADER] = -1
    state[L.LED] = -1
    state[L.SETTER_POS] = -1
    state[L.TRICK_WINNER] = -1
    state[L.BUOB_SUIT] = -1
    state[L.LAST_WINNER] = -1
    state[L.FOOL_SEAT] = -1
    state[L.FOOL_TRICK_TEAM] = -1
    state[L.SCART_JACK] = -1
    state[L.SCART_TEAM] = -1
    state[L.FOOL_PAID] = -1
    for i in range(8):
        state[L.TRICK_CARD + i] = -1
        state[L.TRICK_SEAT + i] = -1
        state[L.LAST_CARD + i] = -1
        state[L.LAST_SEAT + i] = -1
    for s in range(4):
        state[L.KNOCKED_FOR + s] = -1
        state[L.BUOB_RESULT + s] = -1
        state[L.SWAP_SEAT + s] = -1
        state[L.SWAP_CARD + s] = -1
    _reset_attempt(state)


@njit(cache=True, _nrt=False)
def init_from_orders(state, orders, n_orders, dealer, bal_a, rng, opts):
    """Start an episode from explicit card orders: ``orders[k]`` is attempt ``k`` (78 cards in ``PERM`` order).

    Attempts beyond ``max_redeals`` can never be used and are not stored.
    """
    init_state(state, dealer, bal_a, rng, ZERO)
    n = min(n_orders, opts[O_MAX_REDEALS] + 1)
    for k in range(n):
        for i in range(78):
            state[L.PERM + i] = orders[k, i]
        pack_attempt(state, k)
    for i in range(78):
        state[L.PERM + i] = orders[0, i]
    state[L.N_ARCHIVED] = n
    _begin_episode(state, opts)


@njit(cache=True, _nrt=False)
def deal_with_rng(state, rng, dealer, bal_a, opts, reuse):
    """Start an episode with a uniformly random card order drawn from generator state ``rng``."""
    init_state(state, dealer, bal_a, rng, reuse)
    perm = state[L.PERM:L.PERM + 78]
    for i in range(78):
        perm[i] = i
    state[L.RNG] = shuffle_prefix_pairs(rng, perm, 78)
    state[L.N_ARCHIVED] = 0  # the first attempt lives in PERM until a redeal archives it
    _begin_episode(state, opts)


@njit(cache=True, _nrt=False)
def deal_inputs(state, seed, deal_id, dealer, bal_a, opts):
    """Deal ``deal_id`` of ``seed`` with the given dealer and balance ``(bal_a, -bal_a)``.

    The cards are those of ``deal(seed, deal_id)``; only the dealer and the balance are replaced.
    """
    rng = stream_seed(seed, deal_id)
    rng, _ = below(rng, 4)
    deal_with_rng(state, rng, dealer, bal_a, opts, ZERO)


@njit(cache=True, _nrt=False)
def deal_reusing(state, seed, deal_id, opts, reuse):
    """:func:`deal` for drivers that recycle one scratch row (``reuse = 1``, see :func:`init_state`)."""
    rng = stream_seed(seed, deal_id)
    rng, dealer = below(rng, 4)
    deal_with_rng(state, rng, dealer, ZERO, opts, reuse)


@njit(cache=True, _nrt=False)
def deal(state, seed, deal_id, opts):
    """Deal number ``deal_id`` of ``seed``: a uniformly random dealer, balance 0 and a uniform card order."""
    deal_reusing(state, seed, deal_id, opts, ZERO)


@njit(cache=True, _nrt=False)
def orders_seed(orders, n_orders, dealer, bal_a):
    """Generator seed of a deal given as card orders (a pure function of its contents)."""
    h = mix64(dealer * np.int64(7919) + bal_a)
    for k in range(n_orders):
        for i in range(78):
            h = mix64(h ^ (orders[k, i] + np.int64(131) * i + np.int64(10007) * k))
    return h


# ---------------------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def king_jack_active(state, opts):
    """The king-jack rule applies in this deal (option on, not voided by a jack in the scart)."""
    if opts[O_KING_JACK] == 0:
        return False
    return not (opts[O_SCART_JACK_VOIDS] != 0 and state[L.SCART_JACK] == 1)


@njit(cache=True, _nrt=False)
def scart_legal(state, opts):
    """The dealer's discardable cards ``(tw, sw)`` (4.7, with the fallback of decision 30)."""
    d = state[L.DEALER]
    tw = state[L.HAND_TW + d] & ~TW_NO_SCART
    sw = state[L.HAND_SW + d] & ~KINGS
    if opts[O_SCART_TRUMPS] == 0:
        if sw != 0:
            return ZERO, sw
    return tw, sw


@njit(cache=True, _nrt=False)
def top_unplayed_trump(state):
    """Highest trump I-XXI not yet put into a trick (-1 when all are played)."""
    return highest_index(TRUMPS & ~state[L.PLAYED_TW])


@njit(cache=True, _nrt=False, inline="always")
def play_legal(state, opts):
    """Cards ``(tw, sw)`` the seat to act may put into the trick now (docs/rules/troccas.md §5.3)."""
    p = state[L.CUR]
    htw = state[L.HAND_TW + p]
    hsw = state[L.HAND_SW + p]
    led = state[L.LED]
    if led < 0:
        return htw, hsw
    if led == 4:
        ltw, lsw = wide_follow_or_trump(htw, hsw, TRUMPS, ZERO, TRUMPS, ZERO)
    else:
        ltw, lsw = wide_follow_or_trump(htw, hsw, ZERO, SUIT_MASKS[led], TRUMPS, ZERO)
    ltw |= htw & FOOL
    if opts[O_MUST_OVERTRUMP] != 0 and lsw == 0 and (ltw & TRUMPS) != 0:
        in_trick = state[L.TRICK_TW] & TRUMPS
        if in_trick != 0:
            top = highest_index(in_trick)
            higher = ltw & TRUMPS & ~((ONE << (top + 1)) - 1)
            if higher != 0:
                ltw = higher | (ltw & FOOL)
    return ltw, lsw


@njit(cache=True, _nrt=False)
def play_extras(state, opts):
    """Non-card actions legal in PLAY: double leads (option) and the knock (option), as an ``ex`` word."""
    ex = ZERO
    p = state[L.CUR]
    if opts[O_DOUBLE_LEAD] != 0 and state[L.TRICK_N] == 0 and king_jack_active(state, opts):
        hsw = state[L.HAND_SW + p]
        led = state[L.LED_SUITS]
        for s in range(4):
            kj = (ONE << (14 * s + 13)) | (ONE << (14 * s + 10))
            if ((led >> s) & 1) == 0 and (hsw & kj) == kj:
                ex |= ONE << s
    if opts[O_KNOCK] != 0:
        top = top_unplayed_trump(state)
        if top >= 0 and ((state[L.HAND_TW + p] >> top) & 1) != 0 and state[L.KNOCKED_FOR + p] != top:
            ex |= KNOCK_EX
    return ex


@njit(cache=True, _nrt=False, inline="always")
def legal_set(state, opts):
    """The legal actions as three words ``(tw, sw, ex)`` (see the module docstring)."""
    phase = state[L.PHASE]
    if phase == L.PLAY:
        tw, sw = play_legal(state, opts)
        if opts[O_DOUBLE_LEAD] == 0 and opts[O_KNOCK] == 0:
            return tw, sw, ZERO
        return tw, sw, play_extras(state, opts)
    if phase == L.TALK:
        if state[L.PACKET] == NUM_PACKETS_A[state[L.PATTERN_SLOT]] - 1:
            return ZERO, ZERO, TALK_FINAL_EX
        return ZERO, ZERO, TALK_EARLY_EX
    if phase == L.VOTE:
        return ZERO, ZERO, VOTE_EX
    if phase == L.SCART:
        tw, sw = scart_legal(state, opts)
        return tw, sw, ZERO
    if phase == L.BUOB:
        return ZERO, ZERO, BUOB_EX
    if phase == L.FORCE:
        return ZERO, ZERO, FORCE_EX
    if phase == L.PATTERN:
        t = state[L.CUR] % 2
        ex = np.int64(0b11 << L.EX_PATTERN)
        if state[L.BAL + t] <= -opts[O_SINGLE]:
            ex |= np.int64(0b100 << L.EX_PATTERN)
        return ZERO, ZERO, ex
    return ZERO, ZERO, ZERO


LEGAL_WORDS = 3
SCRATCH_LEN = 1  # the deal keeps its card order in the row (PERM)


@njit(cache=True, _nrt=False)
def legal_words(state, opts, out):
    """The legal actions as three ``(offset, mask)`` pairs: trumps + Fool at 0, suits at 22, extras at 78."""
    tw, sw, ex = legal_set(state, opts)
    out[0] = 0
    out[1] = tw
    out[2] = 22
    out[3] = sw
    out[4] = 78
    out[5] = ex


@njit(cache=True, _nrt=False)
def legal_mask(state, opts, out):
    """Write the legal-action mask (bool[NUM_ACTIONS]) of ``state`` into ``out``."""
    out[:] = False
    tw, sw, ex = legal_set(state, opts)
    while tw != 0:
        out[lowest_index(tw)] = True
        tw &= tw - 1
    while sw != 0:
        out[SPLIT + lowest_index(sw)] = True
        sw &= sw - 1
    while ex != 0:
        out[78 + lowest_index(ex)] = True
        ex &= ex - 1


@njit(cache=True, _nrt=False)
def is_legal(state, action, opts):
    """True when ``action`` is legal in ``state``."""
    if action < 0 or action >= L.NUM_ACTIONS:
        return False
    tw, sw, ex = legal_set(state, opts)
    if action < SPLIT:
        return ((tw >> action) & 1) != 0
    if action < 78:
        return ((sw >> (action - SPLIT)) & 1) != 0
    return ((ex >> (action - 78)) & 1) != 0


@njit(cache=True, _nrt=False)
def num_legal(state, opts):
    """Number of legal actions."""
    tw, sw, ex = legal_set(state, opts)
    return popcount(tw) + popcount(sw) + popcount(ex)


@njit(cache=True, _nrt=False, inline="always")
def nth_legal(tw, sw, ex, r):
    """The ``r``-th legal action (0-based, ascending) of a legal set."""
    k = popcount(tw)
    if r < k:
        return select_index(tw, r)
    r -= k
    k = popcount(sw)
    if r < k:
        return SPLIT + select_index(sw, r)
    return 78 + select_index(ex, r - k)


@njit(cache=True, _nrt=False)
def random_action(state, opts, rng):
    """A uniformly random legal action; returns ``(new_rng, action)`` (action -1 when terminal)."""
    tw, sw, ex = legal_set(state, opts)
    k = popcount(tw) + popcount(sw) + popcount(ex)
    if k == 0:
        return rng, np.int64(-1)
    rng, r = below(rng, k)
    return rng, nth_legal(tw, sw, ex, r)


# ---------------------------------------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _start_play(state, opts):
    d = state[L.DEALER]
    if opts[O_SCART_JACK_VOIDS] != 0:
        state[L.SCART_JACK] = 1 if (state[L.SCART_SW] & JACKS) != 0 else 0
    leader = d if opts[O_FIRST_LEADER] == FIRST_LEADER_DEALER else (d + 1) % 4
    state[L.PHASE] = L.PLAY
    state[L.LEADER] = leader
    state[L.CUR] = leader
    state[L.TRICK_N] = 0


@njit(cache=True, _nrt=False, inline="always")
def _put_in_trick(state, p, card):
    n = state[L.TRICK_N]
    state[L.TRICK_CARD + n] = card
    state[L.TRICK_SEAT + n] = p
    state[L.TRICK_N] = n + 1
    if card < SPLIT:
        b = ONE << card
        state[L.HAND_TW + p] &= ~b
        state[L.PLAYED_TW] |= b
        state[L.PLAYED_BY_TW + p] |= b
        state[L.TRICK_TW] |= b
        if card == CARD_FOOL:
            state[L.FOOL_SEAT] = p
            return
    else:
        b = ONE << (card - SPLIT)
        state[L.HAND_SW + p] &= ~b
        state[L.PLAYED_SW] |= b
        state[L.PLAYED_BY_SW + p] |= b
        state[L.TRICK_SW] |= b
    if state[L.LED] < 0:
        state[L.LED] = SUIT_OF_CARD[card]
        state[L.SETTER_POS] = n


@njit(cache=True, _nrt=False)
def resolve_demand(state, suit):
    """Carry out BUOB_DEMAND for the completed trick and suit ``suit`` (docs/rules/troccas.md §5.7).

    Records the public outcome.
    """
    jack = 32 + 14 * suit
    jbit = ONE << (jack - SPLIT)
    holder = -1
    for q in range(4):
        if (state[L.HAND_SW + q] & jbit) != 0:
            holder = q
    state[L.BUOB_RESULT + suit] = 1
    if holder < 0:
        return  # the jack is in the scart
    for i in range(state[L.TRICK_N]):
        if state[L.TRICK_SEAT + i] == holder:
            card = state[L.TRICK_CARD + i]
            if card >= SPLIT and (card - SPLIT) // 14 == suit and (card - SPLIT) % 14 < 10:
                cbit = ONE << (card - SPLIT)
                state[L.HAND_SW + holder] = (state[L.HAND_SW + holder] & ~jbit) | cbit
                state[L.TRICK_CARD + i] = jack
                state[L.TRICK_SW] = (state[L.TRICK_SW] & ~cbit) | jbit
                state[L.PLAYED_SW] = (state[L.PLAYED_SW] & ~cbit) | jbit
                state[L.PLAYED_BY_SW + holder] = (state[L.PLAYED_BY_SW + holder] & ~cbit) | jbit
                state[L.BUOB_RESULT + suit] = 2
                state[L.SWAP_SEAT + suit] = holder
                state[L.SWAP_CARD + suit] = card
            return


@njit(cache=True, _nrt=False)
def _end(state, opts):
    """END (docs/rules/troccas.md §5.9): scart to a pile, Fool settlement, card points and the settlement vector."""
    d = state[L.DEALER]
    scart_team = d % 2
    if opts[O_SLAM_SCART] != 0:
        if state[L.TRICKS_WON] == 0:
            scart_team = 1
        elif state[L.TRICKS_WON + 1] == 0:
            scart_team = 0
    state[L.SCART_TEAM] = scart_team
    state[L.PILE_TW + scart_team] |= state[L.SCART_TW]
    state[L.PILE_SW + scart_team] |= state[L.SCART_SW]
    if state[L.FOOL_TRICK_TEAM] >= 0:
        ft = state[L.FOOL_SEAT] % 2
        ot = 1 - ft
        if state[L.TRICKS_WON + ft] > 0 or (opts[O_SCART_FOR_FOOL] != 0 and scart_team == ft):
            ptw = state[L.PILE_TW + ft]
            psw = state[L.PILE_SW + ft]
            pay = np.int64(-1)
            if (ptw & MID_TRUMPS) != 0:
                pay = lowest_index(ptw & MID_TRUMPS)
            elif (psw & NUMERALS) != 0:
                pay = SPLIT + lowest_index(psw & NUMERALS)
            elif (psw & JACKS) != 0:
                pay = SPLIT + lowest_index(psw & JACKS)
            elif (psw & CAVALIERS) != 0:
                pay = SPLIT + lowest_index(psw & CAVALIERS)
            elif (psw & QUEENS) != 0:
                pay = SPLIT + lowest_index(psw & QUEENS)
            elif ptw != 0:
                pay = lowest_index(ptw)
            else:
                pay = SPLIT + lowest_index(psw)
            state[L.PILE_TW + ot] &= ~FOOL
            state[L.PILE_TW + ft] |= FOOL
            _remove_card(state, L.PILE_TW + ft, L.PILE_SW + ft, pay)
            _add_card(state, L.PILE_TW + ot, L.PILE_SW + ot, pay)
            state[L.FOOL_OUTCOME] = 1
            state[L.FOOL_PAID] = pay
        else:
            state[L.FOOL_OUTCOME] = 2
    for t in range(2):
        s, n = wide_sum_values(state[L.PILE_TW + t], state[L.PILE_SW + t], CARD_VALUES, SPLIT)
        state[L.POINTS + t] = s - 3 * (n // 4) - ((n % 4) // 2)
    for p in range(4):
        state[L.RESULT + p] = state[L.POINTS + p % 2] - 36
    state[L.PHASE] = L.TERMINAL
    state[L.CUR] = -1


@njit(cache=True, _nrt=False, inline="always")
def _finalize_trick(state, opts):
    w = state[L.TRICK_WINNER]
    t = w & 1
    state[L.PILE_TW + t] |= state[L.TRICK_TW]
    state[L.PILE_SW + t] |= state[L.TRICK_SW]
    state[L.TRICKS_WON + t] += 1
    state[L.TRICK_NO] += 1
    if (state[L.TRICK_TW] & FOOL) != 0 and (state[L.FOOL_SEAT] & 1) != t:
        state[L.FOOL_TRICK_TEAM] = t
    led = state[L.LED]
    if led < 4:
        state[L.LED_SUITS] |= ONE << led
    n = state[L.TRICK_N]
    state[L.LAST_N] = n
    for i in range(n):
        state[L.LAST_CARD + i] = state[L.TRICK_CARD + i]
        state[L.LAST_SEAT + i] = state[L.TRICK_SEAT + i]
        state[L.TRICK_CARD + i] = -1
        state[L.TRICK_SEAT + i] = -1
    for i in range(n, 8):
        state[L.LAST_CARD + i] = -1
        state[L.LAST_SEAT + i] = -1
    state[L.LAST_WINNER] = w
    state[L.TRICK_N] = 0
    state[L.IS_DOUBLE] = 0
    state[L.LED] = -1
    state[L.SETTER_POS] = -1
    state[L.TRICK_TW] = 0
    state[L.TRICK_SW] = 0
    state[L.TRICK_WINNER] = -1
    state[L.BUOB_SUIT] = -1
    if state[L.HAND_TW + w] == 0 and state[L.HAND_SW + w] == 0:
        _end(state, opts)
        return
    state[L.PHASE] = L.PLAY
    state[L.LEADER] = w
    state[L.CUR] = w


@njit(cache=True, _nrt=False, inline="always")
def _complete_trick(state, opts):
    led = state[L.LED]
    n = state[L.TRICK_N]
    trumps = state[L.TRICK_TW] & TRUMPS
    if trumps != 0:
        best = wide_highest_index(trumps, ZERO, SPLIT)
    else:
        best = wide_highest_index(ZERO, state[L.TRICK_SW] & SUIT_MASKS[led], SPLIT)
    w = -1
    for i in range(n):
        if state[L.TRICK_CARD + i] == best:
            w = state[L.TRICK_SEAT + i]
    state[L.TRICK_WINNER] = w
    if state[L.IS_DOUBLE] == 0 and led < 4 and ((state[L.LED_SUITS] >> led) & 1) == 0 and king_jack_active(state, opts):
        setter = state[L.SETTER_POS]
        if state[L.TRICK_CARD + setter] == 35 + 14 * led and (setter == 0 or opts[O_KING_AFTER_FOOL] != 0):
            if ((state[L.PLAYED_SW] >> (10 + 14 * led)) & 1) == 0:
                state[L.BUOB_SUIT] = led
                if opts[O_BUOB_AUTO] != 0:
                    resolve_demand(state, led)
                else:
                    state[L.PHASE] = L.BUOB
                    state[L.CUR] = w
                    return
    _finalize_trick(state, opts)


@njit(cache=True, _nrt=False, inline="always")
def _play_card(state, card, opts):
    p = state[L.CUR]
    _put_in_trick(state, p, card)
    n = state[L.TRICK_N]
    if state[L.IS_DOUBLE] != 0:
        if n == 8:
            _complete_trick(state, opts)
        else:
            state[L.CUR] = (state[L.LEADER] + 1 + (n - 2) % 3) & 3
    elif n == 4:
        _complete_trick(state, opts)
    else:
        state[L.CUR] = (p + 1) & 3


@njit(cache=True, _nrt=False)
def _double_lead(state, suit):
    p = state[L.CUR]
    state[L.IS_DOUBLE] = 1
    _put_in_trick(state, p, 35 + 14 * suit)
    _put_in_trick(state, p, 32 + 14 * suit)
    state[L.CUR] = (p + 1) & 3


# ---------------------------------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _apply_core(state, action, opts):
    h = state[L.HIST_LEN]
    if h < L.HIST_CAP:
        state[L.HIST + h] = action
    state[L.HIST_LEN] = h + 1
    p = state[L.CUR]
    d = state[L.DEALER]
    if action < 78:
        if state[L.PHASE] == L.PLAY:
            _play_card(state, action, opts)
            return
        # SCART: one discard
        _remove_card(state, L.HAND_TW + d, L.HAND_SW + d, action)
        _add_card(state, L.SCART_TW, L.SCART_SW, action)
        state[L.SCART_N] += 1
        if state[L.SCART_N] == 2:
            _start_play(state, opts)
        return
    if action < L.A_EARLY:
        _double_lead(state, action - L.A_DOUBLE)
        return
    if action < L.A_KEEP:
        m = action - L.A_EARLY if action < L.A_FINAL else action - L.A_FINAL
        state[L.TALK_LOG + 4 * state[L.PACKET] + p] = m
        pos = state[L.PAUSE_POS] + 1
        state[L.PAUSE_POS] = pos
        if pos == 4:
            _run(state, opts, _S_VOTE)
        else:
            state[L.CUR] = (p + 1) & 3
        return
    if action < L.A_DECLINE:
        throw = action - L.A_KEEP
        state[L.VOTE_LOG + 4 * state[L.PACKET] + p] = throw
        if throw == 0:
            _run(state, opts, _S_AFTER_PAUSE)
            return
        pos = state[L.PAUSE_POS] + 1
        state[L.PAUSE_POS] = pos
        if pos == 4:
            state[L.N_THROWN] += 1
            _redeal(state, opts)
        else:
            state[L.CUR] = (p + 1) & 3
        return
    if action == L.A_DECLINE:
        state[L.FORCE_SEEN] = 2
        state[L.PHASE] = L.SCART
        state[L.SCART_N] = 0
        return
    if action == L.A_FORCE:
        state[L.N_FORCED] += 1
        _redeal(state, opts)
        return
    if action < L.A_PATTERN + 3:
        state[L.PATTERN_SLOT] = action - L.A_PATTERN
        state[L.PATTERN_BY] = p
        _start_attempt(state, opts)
        return
    if action < L.A_KNOCK:
        suit = state[L.BUOB_SUIT]
        if action == L.A_DEMAND:
            resolve_demand(state, suit)
        else:
            state[L.BUOB_RESULT + suit] = 0
        _finalize_trick(state, opts)
        return
    # KNOCK
    top = top_unplayed_trump(state)
    state[L.KNOCKED_FOR + p] = top
    state[L.KNOCKS_TW + p] |= ONE << top
    state[L.N_KNOCKS] += 1


@njit(cache=True, _nrt=False)
def apply_unchecked(state, action, opts):
    """Apply a legal ``action`` (no legality check) with its automatic follow-up steps, and record it."""
    _apply_core(state, action, opts)


step = apply_unchecked  # the name the batch drivers use


@njit(cache=True, _nrt=False)
def random_step(state, opts, rng):
    """Apply a uniformly random legal action (the state must not be terminal); returns the new generator state.

    The same as ``random_action`` followed by ``apply_unchecked``, fused into one call for the playout drivers.
    """
    tw, sw, ex = legal_set(state, opts)
    k = popcount(tw) + popcount(sw) + popcount(ex)
    rng, r = below(rng, k)
    _apply_core(state, nth_legal(tw, sw, ex, r), opts)
    return rng


@njit(cache=True, _nrt=False)
def apply_action(state, action, opts):
    """Apply ``action`` if legal and return ``OK``; otherwise return ``ILLEGAL`` / ``GAME_OVER`` untouched."""
    if state[L.PHASE] == L.TERMINAL:
        return L.GAME_OVER
    if not is_legal(state, action, opts):
        return L.ILLEGAL
    apply_unchecked(state, action, opts)
    return L.OK


# ---------------------------------------------------------------------------------------------------------
# scoring helpers
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def pile_points(tw, sw):
    """Card points of a pile (docs/rules/troccas.md §2.5).

    The raw sum minus 3 per full group of four, minus 1 for a left-over pair.
    """
    s, n = wide_sum_values(tw, sw, CARD_VALUES, SPLIT)
    return s - 3 * (n // 4) - ((n % 4) // 2)


@njit(cache=True, _nrt=False)
def returns(state, out):
    """Write the settlement (float64[4], zeros before the end) into ``out``."""
    for s in range(4):
        out[s] = state[L.RESULT + s] if state[L.PHASE] == L.TERMINAL else 0


# ---------------------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _undealt(state):
    """Cards of the current attempt's order that have not been dealt yet."""
    tw = ZERO
    sw = ZERO
    phase = state[L.PHASE]
    if phase == L.PATTERN:
        return TW_ALL, SW_ALL
    if phase != L.TALK and phase != L.VOTE:
        return tw, sw
    pat = state[L.PATTERN_SLOT]
    j = state[L.PACKET]
    for c in range(4):
        end_all = 21 if c == 3 else 19
        dealt = DEALER_ENDS_A[pat, j] if c == 3 else NONDEALER_ENDS_A[pat, j]
        for i in range(dealt, end_all):
            card = state[L.PERM + 19 * c + i]
            if card < SPLIT:
                tw |= ONE << card
            else:
                sw |= ONE << (card - SPLIT)
    return tw, sw


@njit(cache=True, _nrt=False, inline="always")
def _hand_size(state, s):
    return popcount(state[L.HAND_TW + s]) + popcount(state[L.HAND_SW + s])


# invariants: one named check per rule, each returning 0 or its code of the shared table (engine/invariants.py)
@njit(cache=True, _nrt=False)
def check_seat_to_act(state, opts):
    """NO_SEAT_TO_ACT: a known phase, redeals within the bound, and a seat to act exactly while the deal runs."""
    phase = state[L.PHASE]
    if phase < 0 or phase > L.TERMINAL or state[L.REDEAL_COUNT] > opts[O_MAX_REDEALS]:
        return INV.NO_SEAT_TO_ACT
    if phase != L.TERMINAL and (state[L.CUR] < 0 or state[L.CUR] > 3):
        return INV.NO_SEAT_TO_ACT
    if phase == L.TERMINAL and state[L.CUR] != -1:
        return INV.NO_SEAT_TO_ACT
    return 0


@njit(cache=True, _nrt=False)
def check_deal_order(state, opts):
    """DEAL_ORDER: the card order of the current deal attempt is a permutation of the 78 cards."""
    ptw = ZERO
    psw = ZERO
    for i in range(78):
        c = state[L.PERM + i]
        if c < 0 or c >= 78:
            return INV.DEAL_ORDER
        if c < SPLIT:
            ptw |= ONE << c
        else:
            psw |= ONE << (c - SPLIT)
    return INV.DEAL_ORDER if ptw != TW_ALL or psw != SW_ALL else 0


@njit(cache=True, _nrt=False)
def check_cards(state, opts):
    """CARDS: every one of the 78 cards lies in exactly one place (undealt, hands, piles, scart, trick)."""
    utw, usw = _undealt(state)
    seen_tw = utw
    seen_sw = usw
    for slot in range(8):
        if slot < 4:
            tw = state[L.HAND_TW + slot]
            sw = state[L.HAND_SW + slot]
        elif slot < 6:
            tw = state[L.PILE_TW + slot - 4]
            sw = state[L.PILE_SW + slot - 4]
        elif slot == 6:
            if state[L.PHASE] == L.TERMINAL:
                continue  # the scart is inside a pile
            tw = state[L.SCART_TW]
            sw = state[L.SCART_SW]
        else:
            tw = state[L.TRICK_TW]
            sw = state[L.TRICK_SW]
        if (seen_tw & tw) != 0 or (seen_sw & sw) != 0:
            return INV.CARDS
        seen_tw |= tw
        seen_sw |= sw
    return INV.CARDS if seen_tw != TW_ALL or seen_sw != SW_ALL else 0


@njit(cache=True, _nrt=False)
def check_legal_set(state, opts):
    """LEGAL_SET: the legal set is empty exactly at the end of the deal."""
    ltw, lsw, lex = legal_set(state, opts)
    return INV.LEGAL_SET if ((ltw | lsw | lex) != 0) == (state[L.PHASE] == L.TERMINAL) else 0


@njit(cache=True, _nrt=False)
def check_history_length(state, opts):
    """TOO_MANY_ACTIONS: the history is within the episode bound."""
    return INV.TOO_MANY_ACTIONS if state[L.HIST_LEN] > episode_bound(opts) else 0


@njit(cache=True, _nrt=False)
def check_hand_sizes(state, opts):
    """COUNTS: the hand sizes the phase implies (the dealing pattern, the scart, equal hands in the play)."""
    phase = state[L.PHASE]
    d = state[L.DEALER]
    if phase == L.TALK or phase == L.VOTE:
        pat = state[L.PATTERN_SLOT]
        j = state[L.PACKET]
        for s in range(4):
            want = DEALER_ENDS_A[pat, j] if s == d else NONDEALER_ENDS_A[pat, j]
            if _hand_size(state, s) != want:
                return INV.COUNTS
    elif phase == L.FORCE or phase == L.SCART:
        for s in range(4):
            want = 21 - state[L.SCART_N] if s == d else 19
            if _hand_size(state, s) != want:
                return INV.COUNTS
    elif phase == L.PLAY or phase == L.BUOB:
        base = -1
        for s in range(4):
            in_trick = 0
            for i in range(state[L.TRICK_N]):
                if state[L.TRICK_SEAT + i] == s:
                    in_trick += 1
            if base < 0:
                base = _hand_size(state, s) + in_trick
            elif _hand_size(state, s) + in_trick != base:
                return INV.COUNTS
        if popcount(state[L.SCART_TW]) + popcount(state[L.SCART_SW]) != 2:
            return INV.COUNTS
    elif phase == L.TERMINAL:
        for s in range(4):
            if _hand_size(state, s) != 0:
                return INV.COUNTS
    return 0


@njit(cache=True, _nrt=False)
def check_played_cards(state, opts):
    """PLAYED (and NO_SEAT_TO_ACT, FINAL_SHAPE): played-card bookkeeping agrees with the piles, trick and tricks won."""
    phase = state[L.PHASE]
    if phase != L.PLAY and phase != L.BUOB and phase != L.TERMINAL:
        return 0
    btw = ZERO
    bsw = ZERO
    for s in range(4):
        if (btw & state[L.PLAYED_BY_TW + s]) != 0 or (bsw & state[L.PLAYED_BY_SW + s]) != 0:
            return INV.PLAYED
        btw |= state[L.PLAYED_BY_TW + s]
        bsw |= state[L.PLAYED_BY_SW + s]
    if btw != state[L.PLAYED_TW] or bsw != state[L.PLAYED_SW]:
        return INV.PLAYED
    xtw = state[L.PILE_TW] | state[L.PILE_TW + 1] | state[L.TRICK_TW]
    xsw = state[L.PILE_SW] | state[L.PILE_SW + 1] | state[L.TRICK_SW]
    if phase == L.TERMINAL:
        xtw = (xtw & ~state[L.SCART_TW])
        xsw = (xsw & ~state[L.SCART_SW])
    if xtw != state[L.PLAYED_TW] or xsw != state[L.PLAYED_SW]:
        return INV.PLAYED
    if state[L.TRICKS_WON] + state[L.TRICKS_WON + 1] != state[L.TRICK_NO]:
        return INV.NO_SEAT_TO_ACT
    if phase != L.TERMINAL:
        for t in range(2):
            if (popcount(state[L.PILE_TW + t]) + popcount(state[L.PILE_SW + t])) % 4 != 0:
                return INV.FINAL_SHAPE
    return 0


@njit(cache=True, _nrt=False)
def check_final_accounts(state, opts):
    """SETTLEMENT, POINTS, FINAL_SHAPE at the end: zero-sum results from the piles' 72 points, whole tricks."""
    if state[L.PHASE] != L.TERMINAL:
        return 0
    if state[L.RESULT] + state[L.RESULT + 1] + state[L.RESULT + 2] + state[L.RESULT + 3] != 0:
        return INV.SETTLEMENT
    for p in range(4):
        if state[L.RESULT + p] != state[L.POINTS + p % 2] - 36:
            return INV.SETTLEMENT
    for t in range(2):
        if state[L.POINTS + t] != pile_points(state[L.PILE_TW + t], state[L.PILE_SW + t]):
            return INV.POINTS
    if state[L.POINTS] + state[L.POINTS + 1] != 72:
        return INV.POINTS
    n0 = popcount(state[L.PILE_TW]) + popcount(state[L.PILE_SW])
    n1 = popcount(state[L.PILE_TW + 1]) + popcount(state[L.PILE_SW + 1])
    if n0 + n1 != 78 or n0 % 4 not in (0, 2) or n1 % 4 not in (0, 2):
        return INV.FINAL_SHAPE
    return INV.FINAL_SHAPE if (n0 % 4 == 2) != (state[L.SCART_TEAM] == 0) else 0


@njit(cache=True, _nrt=False)
def check_invariants(state, opts):
    """0 when the state is consistent, otherwise the code of the first broken invariant.

    Runs the named checks above in order (codes of the shared table :mod:`tarockrl.engine.invariants`).
    """
    code = check_seat_to_act(state, opts)
    if code == 0:
        code = check_deal_order(state, opts)
    if code == 0:
        code = check_cards(state, opts)
    if code == 0:
        code = check_legal_set(state, opts)
    if code == 0:
        code = check_history_length(state, opts)
    if code == 0:
        code = check_hand_sizes(state, opts)
    if code == 0:
        code = check_played_cards(state, opts)
    if code == 0:
        code = check_final_accounts(state, opts)
    return code



# ---------------------------------------------------------------------------------------------------------
# the rest of the kernel contract (tarockrl.games.contract): what the generated drivers call
# ---------------------------------------------------------------------------------------------------------
PLAYOUT_SALT = np.int64(0x5EED_0F_70CC)
SWEEP_SALT = np.int64(0x5EED_0F_5EE9)


@njit(cache=True, _nrt=False)
def deal_rng(state, seed, deal_id, opts, scratch):
    """Deal ``deal(seed, deal_id)`` into ``state`` (a recycled row: only its used history is cleared).

    Returns the stream of the playout's action choices, ``(seed ^ PLAYOUT_SALT, deal_id)``: in-episode redeals
    keep drawing from the row's own ``RNG`` slot, fed by the deal's stream.
    """
    deal_reusing(state, seed, deal_id, opts, ONE)
    return stream_seed(seed ^ PLAYOUT_SALT, deal_id)


@njit(cache=True, _nrt=False)
def sweep_deal(state, seed, deal_id, opts, scratch):
    """The invariant sweep's deal ``deal_id``: its cards, a random dealer and a balance in ``[-24, 24]``.

    The dealer and the balance of team A come from the stream ``(seed ^ SWEEP_SALT, deal_id)`` (so that the
    PATTERN phase is exercised), which then drives the actions.
    """
    rng = stream_seed(seed ^ SWEEP_SALT, deal_id)
    rng, dealer = below(rng, 4)
    rng, b = below(rng, 49)
    deal_inputs(state, seed, deal_id, dealer, b - 24, opts)
    return rng


@njit(cache=True, _nrt=False)
def copy_state(dst, src):
    """Copy the live part of row ``src`` (everything up to the end of its history) into ``dst``."""
    n = L.HIST + src[L.HIST_LEN]
    if n > L.STATE_LEN:
        n = L.STATE_LEN
    for i in range(n):
        dst[i] = src[i]
