"""Dreierles rule kernels (numba, int64 only): deal, legal actions, apply, scoring.

Every kernel takes the state row (``int64[STATE_LEN]``, see :mod:`.layout`) and the encoded rules options
(``int64[NUM_OPTION_SLOTS]``, see :mod:`.rules`). Kernels never raise: ``apply_action`` returns a status code
and leaves the row untouched when the action is illegal.

The legal actions of every Dreierles phase form one contiguous block of the flat layout, so ``legal_set``
returns them as ``(offset, mask)``: action ``offset + i`` is legal iff bit ``i`` of ``mask`` is set.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine import invariants as INV
from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.rng import below, stream_seed
from tarockrl.engine.select import select_bit
from tarockrl.engine.shuffle import shuffle_prefix_pairs
from tarockrl.engine.tricks import beats_highest_index, follow_or_trump, weighted_popcount
from tarockrl.games.dreierles.cards import (
    ALL,
    DRULLE,
    KINGS,
    MID_TRUMPS,
    PFEIFE,
    PLAIN_NON_KING,
    STIESS,
    SUIT_OF_CARD,
    T21,
    TRUMPS,
    VALUE_CLASS_EXTRA,
    VALUE_CLASS_MASKS,
)
from tarockrl.games.dreierles.layout import (
    A_ANNOUNCE,
    A_DISCARD,
    A_KNOCK,
    A_PLAY,
    ANNOUNCE,
    ANNOUNCED,
    ASK_IDX,
    AUCTION,
    AUCTION_POS,
    BID,
    BLIND,
    BLIND_REST,
    BLIND_TAKEN,
    CUR,
    DEALER,
    DEALT,
    DECLARER,
    DISCARD,
    DISCARD_LEFT,
    DISCARDS,
    FALLBACK,
    GAME_OVER,
    HAND,
    HIGH,
    HIST,
    HIST_LEN,
    ILLEGAL,
    KNOCK,
    KNOCK_DEC,
    KNOCKS,
    LAST_LEADER,
    LAST_TRICK,
    LAST_WINNER,
    LAYOUT_MAGIC,
    LEADER,
    MAGIC,
    MAX_EPISODE_LENGTH,
    N_TRUMP_LED,
    NUM_ACTIONS,
    OK,
    PHASE,
    PLAY,
    PLAYED_BY,
    POINTS,
    RAEUBER,
    RAEUBER_KNOCK,
    REKNOCK,
    REKNOCK_DEC,
    RESULT,
    START_HAND,
    STEP,
    STIESS_PLAYED,
    TERMINAL,
    TRICK_CARD,
    TRICK_N,
    TRICK_NO,
    VOIDS,
    WON,
)
from tarockrl.games.dreierles.rules import (
    ANNOUNCE_BEFORE_KNOCKS,
    BONUS_BASIS_DEALT,
    COUNTING_EXACT_THIRDS,
    KNOCK_ELIG_BIDDERS,
    O_ALLOW_REKNOCK,
    O_ANNOUNCE_TIMING,
    O_AUTO_FORCED,
    O_BONUS_BASIS,
    O_BONUS_DRULLE,
    O_BONUS_KOENIG,
    O_BONUS_ZEHN,
    O_COUNTING,
    O_FACTORS,
    O_KNOCK_DOUBLES_BONUSES,
    O_KNOCK_ELIG,
    O_LAST_ROUND,
    O_LAST_ROUND_BASE,
    O_MAX_DEF_KNOCKS,
    O_MIN_ONE_UNIT,
    O_PFEIFE_ANNOUNCED,
    O_PFEIFE_DEF_LOSS,
    O_PFEIFE_SILENT,
    O_RAEUBER_21,
    O_RAEUBER_BASE,
    O_RAEUBER_BONUSES,
    O_RAEUBER_CARRY,
    O_RAEUBER_MAX_KNOCKS,
    O_RAEUBER_PFEIFE,
    O_RAEUBER_SET,
    O_ZEHN_MIN,
    RAEUBER_21_NOT_BEFORE_STIESS,
    RAEUBER_21_NOT_WITH_STIESS,
    RAEUBER_PFEIFE_BY_TRICK_3,
    RAEUBER_SET_IFFEZHEIM,
    RAEUBER_SET_NONE,
)

ONE = np.int64(1)
ANNOUNCE_STEP_BEFORE = 0  # step order "before_knocks": announce, knock, reknock, play
ANNOUNCE_STEP_AFTER = 2  # step order "after_knocks": knock, reknock, announce, play


# ---------------------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def init_from_deal(state, hands, blind, dealer, opts):
    """Fill ``state`` with the start of a deal: ``hands[s]`` masks dealt to seat s, ``blind`` 6 cards top first."""
    state[:] = 0
    state[MAGIC] = LAYOUT_MAGIC
    state[DEALER] = dealer
    for s in range(3):
        state[HAND + s] = hands[s]
        state[DEALT + s] = hands[s]
        state[BID + s] = -1
        state[KNOCK_DEC + s] = -1
        state[TRICK_CARD + s] = -1
        state[LAST_TRICK + s] = -1
    for i in range(6):
        state[BLIND + i] = blind[i]
    state[DECLARER] = -1
    state[ANNOUNCED] = -1
    state[REKNOCK_DEC] = -1
    state[LAST_LEADER] = -1
    state[LAST_WINNER] = -1
    state[LEADER] = -1
    state[PHASE] = AUCTION
    state[CUR] = (dealer + 1) % 3
    auto_play_forced(state, opts)


@njit(cache=True, _nrt=False)
def deal_with_rng(state, rng, opts, scratch):
    """Deal a uniformly random Dreierles deal from generator state ``rng``; returns the advanced generator.

    ``scratch`` is a caller-owned int64 buffer of at least 57 entries (no allocation per deal). The dealer is
    drawn first, then a uniform permutation of the pack: blind = perm[0:6], forehand perm[6:14] + perm[30:38],
    middlehand perm[14:22] + perm[38:46], dealer perm[22:30] + perm[46:54].
    """
    rng, dealer = below(rng, 3)
    perm = scratch[:54]
    for i in range(54):
        perm[i] = i
    rng = shuffle_prefix_pairs(rng, perm, 54)
    fh = (dealer + 1) % 3
    mh = (dealer + 2) % 3
    hands = scratch[54:57]
    hands[0] = 0
    hands[1] = 0
    hands[2] = 0
    for i in range(8):
        hands[fh] |= (ONE << perm[6 + i]) | (ONE << perm[30 + i])
        hands[mh] |= (ONE << perm[14 + i]) | (ONE << perm[38 + i])
        hands[dealer] |= (ONE << perm[22 + i]) | (ONE << perm[46 + i])
    init_from_deal(state, hands, perm[:6], dealer, opts)
    return rng


SCRATCH_LEN = 57


@njit(cache=True)
def deal(state, seed, deal_id, opts):
    """Deal number ``deal_id`` of ``seed`` into ``state`` (a pure function of the two numbers)."""
    deal_with_rng(state, stream_seed(seed, deal_id), opts, np.empty(SCRATCH_LEN, dtype=np.int64))


# ---------------------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def discard_legal(hand, left):
    """Cards the declarer may discard with ``left`` discards still to make (fallback to trumps II-XX)."""
    plain = hand & PLAIN_NON_KING
    if popcount(plain) >= left:
        return plain
    return plain | (hand & MID_TRUMPS)


@njit(cache=True, _nrt=False, inline="always")
def raeuber_restrict(legal, hand, state, opts):
    """Apply the Räuber play restrictions of the selected regional set to the base legal set."""
    rule_set = opts[O_RAEUBER_SET]
    if rule_set == RAEUBER_SET_NONE:
        return legal
    n = state[TRICK_N]
    trick_no = state[TRICK_NO] + 1
    in_trick = np.int64(0)
    for i in range(n):
        in_trick |= ONE << state[TRICK_CARD + i]
    if rule_set == RAEUBER_SET_IFFEZHEIM:
        if popcount(legal) == 1:
            return legal
        if (legal & STIESS) != 0 and (in_trick & T21) != 0:
            legal &= ~STIESS
        if (legal & T21) != 0 and (in_trick & STIESS) != 0:
            legal &= ~T21
        oblig = legal & (STIESS | T21)
        if trick_no >= 3:
            oblig |= legal & PFEIFE
        if oblig != 0:
            return oblig
        return legal
    # steinmauern
    if opts[O_RAEUBER_PFEIFE] == RAEUBER_PFEIFE_BY_TRICK_3:
        if opts[O_RAEUBER_CARRY] != 0:
            due = trick_no >= 3
        else:
            due = trick_no == 3
        if due and (legal & PFEIFE) != 0:
            return PFEIFE
    else:  # third_trump_trick: followers only
        if n > 0 and state[TRICK_CARD] <= 21 and state[N_TRUMP_LED] >= 3 and (legal & PFEIFE) != 0:
            return PFEIFE
    if (legal & T21) != 0 and (hand & TRUMPS & ~T21) != 0:
        rule21 = opts[O_RAEUBER_21]
        st_in_trick = (in_trick & STIESS) != 0
        if rule21 == RAEUBER_21_NOT_BEFORE_STIESS and not (state[STIESS_PLAYED] != 0 or st_in_trick):
            legal &= ~T21
        elif rule21 == RAEUBER_21_NOT_WITH_STIESS and st_in_trick:
            legal &= ~T21
    return legal


@njit(cache=True, _nrt=False, inline="always")
def play_legal(state, opts):
    """Cards the seat to move may play now."""
    p = state[CUR]
    hand = state[HAND + p]
    if state[TRICK_N] == 0:
        legal = hand
    else:
        legal = follow_or_trump(hand, SUIT_OF_CARD[state[TRICK_CARD]], TRUMPS)
    if state[RAEUBER] != 0:
        legal = raeuber_restrict(legal, hand, state, opts)
    return legal


@njit(cache=True, _nrt=False, inline="always")
def legal_set(state, opts):
    """The legal actions as ``(offset, mask)``: action ``offset + i`` is legal iff bit ``i`` of mask is set."""
    phase = state[PHASE]
    if phase == PLAY:
        return A_PLAY, play_legal(state, opts)
    if phase == AUCTION:
        if opts[O_LAST_ROUND] != 0:
            return 0, np.int64(0b10001)
        high = state[HIGH]
        return 0, np.int64(1) | (np.int64(0b11110) & ~((ONE << (high + 1)) - 1))
    if phase == DISCARD:
        return A_DISCARD, discard_legal(state[HAND + state[DECLARER]], state[DISCARD_LEFT])
    if phase == ANNOUNCE:
        return np.int64(A_ANNOUNCE), np.int64(0b11)
    if phase == TERMINAL:
        return 0, np.int64(0)
    return A_KNOCK, np.int64(0b11)  # KNOCK, REKNOCK, RAEUBER_KNOCK


@njit(cache=True, _nrt=False)
def legal_mask(state, opts, out):
    """Write the legal-action mask (bool[NUM_ACTIONS]) of ``state`` into ``out``."""
    out[:] = False
    offset, mask = legal_set(state, opts)
    while mask != 0:
        out[offset + lowest_index(mask)] = True
        mask &= mask - 1


@njit(cache=True, _nrt=False)
def is_legal(state, action, opts):
    """True when ``action`` is legal in ``state``."""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    offset, mask = legal_set(state, opts)
    i = action - offset
    return 0 <= i < 63 and ((mask >> i) & 1) != 0


# ---------------------------------------------------------------------------------------------------------
# phase transitions
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _start_play(state, leader):
    for s in range(3):
        state[START_HAND + s] = state[HAND + s]
    state[PHASE] = PLAY
    state[LEADER] = leader
    state[CUR] = leader
    state[TRICK_N] = 0


@njit(cache=True, _nrt=False)
def _knock_eligible(state, seat, opts):
    bid = state[BID + seat]
    if opts[O_LAST_ROUND] != 0:
        return bid == -1
    if opts[O_KNOCK_ELIG] == KNOCK_ELIG_BIDDERS:
        return bid >= 1
    return bid != 0


@njit(cache=True, _nrt=False)
def _advance(state, opts):
    """Move to the next post-exchange decision (announce / knock / re-knock), or start play."""
    d = state[DECLARER]
    announce_step = ANNOUNCE_STEP_BEFORE if opts[O_ANNOUNCE_TIMING] == ANNOUNCE_BEFORE_KNOCKS else ANNOUNCE_STEP_AFTER
    while True:
        step = state[STEP]
        if step >= 3:
            _start_play(state, d)
            return
        # kinds in order: before_knocks -> (announce, knock, reknock); after_knocks -> (knock, reknock, announce)
        kind = step - 1 if announce_step == ANNOUNCE_STEP_BEFORE else step
        if step == announce_step:
            if (state[HAND + d] & PFEIFE) != 0 and state[ANNOUNCED] == -1:
                state[PHASE] = ANNOUNCE
                state[CUR] = d
                return
        elif kind == 0:  # defender knocks
            if not (opts[O_MAX_DEF_KNOCKS] == 1 and state[KNOCKS] >= 1):
                while state[ASK_IDX] < 2:
                    f = (d + 1 + state[ASK_IDX]) % 3
                    if _knock_eligible(state, f, opts):
                        state[PHASE] = KNOCK
                        state[CUR] = f
                        return
                    state[ASK_IDX] += 1
        else:  # re-knock
            if opts[O_ALLOW_REKNOCK] != 0 and state[KNOCKS] >= 1 and state[REKNOCK_DEC] == -1:
                state[PHASE] = REKNOCK
                state[CUR] = d
                return
        state[STEP] = step + 1


@njit(cache=True, _nrt=False)
def _enter_raeuber_knock(state, opts):
    dealer = state[DEALER]
    if state[ASK_IDX] < 3 and state[KNOCKS] < opts[O_RAEUBER_MAX_KNOCKS]:
        state[PHASE] = RAEUBER_KNOCK
        state[CUR] = (dealer + 1 + state[ASK_IDX]) % 3
        return
    _start_play(state, (dealer + 1) % 3)


@njit(cache=True, _nrt=False)
def _end_auction(state, opts):
    high = state[HIGH]
    if high == 0:
        state[RAEUBER] = 1
        state[ASK_IDX] = 0
        _enter_raeuber_knock(state, opts)
        return
    d = 0
    for s in range(3):
        if state[BID + s] == high:
            d = s
    state[DECLARER] = d
    k = 4 - high
    taken = np.int64(0)
    rest = np.int64(0)
    for i in range(6):
        if i < k:
            taken |= ONE << state[BLIND + i]
        else:
            rest |= ONE << state[BLIND + i]
    state[HAND + d] |= taken
    state[BLIND_TAKEN] = taken
    state[BLIND_REST] = rest
    state[DISCARD_LEFT] = k
    if k > 0:
        state[PHASE] = DISCARD
        state[CUR] = d
    else:
        state[STEP] = 0
        _advance(state, opts)


@njit(cache=True, _nrt=False, inline="always")
def _apply_play(state, card, opts):
    p = state[CUR]
    b = ONE << card
    state[HAND + p] &= ~b
    state[PLAYED_BY + p] |= b
    n = state[TRICK_N]
    state[TRICK_CARD + n] = card
    if n == 0:
        if card <= 21:
            state[N_TRUMP_LED] += 1
    else:
        led = SUIT_OF_CARD[state[TRICK_CARD]]
        if (b & led) == 0:  # did not follow: void in the led suit, and in trumps too if he did not trump
            state[VOIDS + p] |= led if (b & TRUMPS) != 0 else led | TRUMPS
    n += 1
    state[TRICK_N] = n
    if n < 3:
        state[CUR] = (p + 1) % 3
        return
    c0 = state[TRICK_CARD]
    c1 = state[TRICK_CARD + 1]
    led = SUIT_OF_CARD[c0]
    pos = 0
    best = c0
    if beats_highest_index(c1, best, led, TRUMPS):
        pos = 1
        best = c1
    if beats_highest_index(card, best, led, TRUMPS):
        pos = 2
    leader = state[LEADER]
    winner = (leader + pos) % 3
    won = (ONE << c0) | (ONE << c1) | (ONE << card)
    state[WON + winner] |= won
    if (won & STIESS) != 0:
        state[STIESS_PLAYED] = 1
    state[TRICK_NO] += 1
    if state[TRICK_NO] == 16:
        state[LAST_TRICK] = c0
        state[LAST_TRICK + 1] = c1
        state[LAST_TRICK + 2] = card
        state[LAST_LEADER] = leader
        state[LAST_WINNER] = winner
        for i in range(3):
            state[TRICK_CARD + i] = -1
        state[TRICK_N] = 0
        score(state, opts)
        state[PHASE] = TERMINAL
        state[CUR] = -1
        return
    for i in range(3):
        state[TRICK_CARD + i] = -1
    state[TRICK_N] = 0
    state[LEADER] = winner
    state[CUR] = winner


@njit(cache=True, _nrt=False, inline="always")
def apply_unchecked(state, action, opts):
    """Apply a legal ``action`` (no legality check, no forced-move handling) and record it."""
    h = state[HIST_LEN]
    if h < MAX_EPISODE_LENGTH:
        state[HIST + h] = action
    state[HIST_LEN] = h + 1
    phase = state[PHASE]
    p = state[CUR]
    if phase == PLAY:
        _apply_play(state, action - A_PLAY, opts)
    elif phase == AUCTION:
        if action == 0:
            state[BID + p] = 0
        else:
            state[BID + p] = action
            state[HIGH] = action
        state[AUCTION_POS] += 1
        if action == 4 or state[AUCTION_POS] == 3:
            _end_auction(state, opts)
        else:
            state[CUR] = (state[DEALER] + 1 + state[AUCTION_POS]) % 3
    elif phase == DISCARD:
        card = action - A_DISCARD
        b = ONE << card
        state[HAND + p] &= ~b
        state[DISCARDS] |= b
        if card <= 21:
            state[FALLBACK] |= b
        state[DISCARD_LEFT] -= 1
        if state[DISCARD_LEFT] == 0:
            state[STEP] = 0
            _advance(state, opts)
    elif phase == ANNOUNCE:
        state[ANNOUNCED] = 1 if action == A_ANNOUNCE else 0
        state[STEP] += 1
        _advance(state, opts)
    elif phase == KNOCK:
        knock = action == A_KNOCK
        state[KNOCK_DEC + p] = 1 if knock else 0
        if knock:
            state[KNOCKS] += 1
        state[ASK_IDX] += 1
        _advance(state, opts)
    elif phase == REKNOCK:
        knock = action == A_KNOCK
        state[REKNOCK_DEC] = 1 if knock else 0
        if knock:
            state[KNOCKS] += 1
        state[STEP] += 1
        _advance(state, opts)
    elif phase == RAEUBER_KNOCK:
        knock = action == A_KNOCK
        state[KNOCK_DEC + p] = 1 if knock else 0
        if knock:
            state[KNOCKS] += 1
        state[ASK_IDX] += 1
        _enter_raeuber_knock(state, opts)


@njit(cache=True, _nrt=False)
def auto_play_forced(state, opts):
    """With the option ``auto_play_forced``, apply every single-legal-action decision from here on."""
    if opts[O_AUTO_FORCED] == 0:
        return
    while state[PHASE] != TERMINAL:
        offset, mask = legal_set(state, opts)
        if popcount(mask) != 1:
            return
        apply_unchecked(state, offset + lowest_index(mask), opts)


@njit(cache=True, _nrt=False, inline="always")
def step(state, action, opts):
    """Apply a legal action, then any forced decisions (no legality check)."""
    apply_unchecked(state, action, opts)
    if opts[O_AUTO_FORCED] != 0:
        auto_play_forced(state, opts)


@njit(cache=True, _nrt=False)
def apply_action(state, action, opts):
    """Apply ``action`` if legal and return ``OK``; otherwise return ``ILLEGAL`` / ``GAME_OVER`` untouched."""
    if state[PHASE] == TERMINAL:
        return GAME_OVER
    if not is_legal(state, action, opts):
        return ILLEGAL
    step(state, action, opts)
    return OK


# ---------------------------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def pile_points(mask, opts):
    """Card points of a pile: groups of three minus 2, a short last group minus 1 (or thirds: 3F - 2n)."""
    n = popcount(mask)
    total = n + weighted_popcount(mask, VALUE_CLASS_MASKS, VALUE_CLASS_EXTRA)
    if opts[O_COUNTING] == COUNTING_EXACT_THIRDS:
        return 3 * total - 2 * n
    return total - 2 * (n // 3) - (1 if n % 3 != 0 else 0)


@njit(cache=True, _nrt=False)
def hand_bonus(hand, opts):
    """Sum of the hand bonuses (Zehn Druck, Königsrolle, Drulle) a hand earns from each other player."""
    b = np.int64(0)
    if popcount(hand & TRUMPS) >= opts[O_ZEHN_MIN]:
        b += opts[O_BONUS_ZEHN]
    if (hand & KINGS) == KINGS:
        b += opts[O_BONUS_KOENIG]
    if (hand & DRULLE) == DRULLE:
        b += opts[O_BONUS_DRULLE]
    return b


@njit(cache=True, _nrt=False)
def pfeife_outcome(state, opts):
    """``(side, value)`` of the Pfeife bonus: side +1 declarer, -1 defenders, 0 nobody."""
    d = state[DECLARER]
    pos = -1
    for i in range(3):
        if state[LAST_TRICK + i] == 0:
            pos = i
    winner = state[LAST_WINNER]
    if state[ANNOUNCED] == 1:
        value = opts[O_PFEIFE_ANNOUNCED]
        if pos >= 0 and (state[LAST_LEADER] + pos) % 3 == d and winner == d:
            return 1, value
        return -1, value
    value = opts[O_PFEIFE_SILENT]
    if pos < 0:
        return 0, value
    holder = (state[LAST_LEADER] + pos) % 3
    if winner == holder:
        return (1 if holder == d else -1), value
    if (holder == d) != (winner == d):
        if holder == d:
            return -1, value
        if opts[O_PFEIFE_DEF_LOSS] != 0:
            return 1, value
    return 0, value


@njit(cache=True, _nrt=False)
def _add_hand_bonuses(state, use_dealt, bm, opts):
    d = state[DECLARER]
    for p in range(3):
        if use_dealt:
            hand = state[DEALT + p]
            if p == d:
                hand &= ~state[FALLBACK]
        else:
            hand = state[START_HAND + p]
        b = hand_bonus(hand, opts) * bm
        for q in range(3):
            if q != p:
                state[RESULT + q] -= b
                state[RESULT + p] += b


@njit(cache=True, _nrt=False)
def raeuber_settlement(pts, knocks, base, delta):
    """Add the Räuber payments to ``delta``: the most points loses ``base * 2**knocks`` to each other player;
    two tied losers pay ``base // 2 * 2**knocks`` each to the third; a three-way tie pays nothing."""
    mult = ONE << knocks
    top = max(pts[0], max(pts[1], pts[2]))
    n_losers = 0
    for s in range(3):
        if pts[s] == top:
            n_losers += 1
    if n_losers == 1:
        for s in range(3):
            if pts[s] == top:
                delta[s] -= 2 * base * mult
            else:
                delta[s] += base * mult
    elif n_losers == 2:
        for s in range(3):
            if pts[s] == top:
                delta[s] -= (base // 2) * mult
            else:
                delta[s] += base * mult


@njit(cache=True, _nrt=False)
def contract_payment(p, contract, knocks, opts):
    """Signed contract score S paid by each defender to the declarer (negative: declarer pays each defender).

    ``p`` is the declarer's card points (thirds with exact-thirds counting), ``contract`` 1..4.
    """
    if opts[O_COUNTING] == COUNTING_EXACT_THIRDS:
        win = p >= 107
        excess = p - 105 if win else max(0, 105 - p)
        units = (excess + 14) // 15
    else:
        win = p >= 36
        excess = p - 35 if win else 35 - p
        units = (excess + 4) // 5
    if not win and opts[O_MIN_ONE_UNIT] != 0:
        units = max(units, 1)
    s_pay = units * opts[O_FACTORS + contract - 1] * (ONE << knocks)
    return s_pay if win else -s_pay


@njit(cache=True, _nrt=False)
def score(state, opts):
    """Fill ``POINTS`` and ``RESULT`` of a finished deal (the zero-sum settlement in game points)."""
    for s in range(3):
        state[RESULT + s] = 0
    knocks = state[KNOCKS]
    bm = (ONE << knocks) if opts[O_KNOCK_DOUBLES_BONUSES] != 0 else ONE
    if state[RAEUBER] != 0:
        for s in range(3):
            state[POINTS + s] = pile_points(state[WON + s], opts)
        base = opts[O_LAST_ROUND_BASE] if opts[O_LAST_ROUND] != 0 else opts[O_RAEUBER_BASE]
        raeuber_settlement(state[POINTS:POINTS + 3], knocks, base, state[RESULT:RESULT + 3])
        if opts[O_RAEUBER_BONUSES] != 0:
            _add_hand_bonuses(state, True, bm, opts)
    else:
        d = state[DECLARER]
        f1 = (d + 1) % 3
        f2 = (d + 2) % 3
        p = pile_points(state[DISCARDS] | state[WON + d], opts)
        q = pile_points(state[BLIND_REST] | state[WON + f1] | state[WON + f2], opts)
        state[POINTS + d] = p
        state[POINTS + f1] = q
        state[POINTS + f2] = q
        x = contract_payment(p, state[HIGH], knocks, opts)
        side, value = pfeife_outcome(state, opts)
        x += side * value * bm
        state[RESULT + d] += 2 * x
        state[RESULT + f1] -= x
        state[RESULT + f2] -= x
        _add_hand_bonuses(state, opts[O_BONUS_BASIS] == BONUS_BASIS_DEALT, bm, opts)


@njit(cache=True, _nrt=False)
def returns(state, out):
    """Write the settlement (float64[3], zeros before the end) into ``out``."""
    for s in range(3):
        out[s] = state[RESULT + s] if state[PHASE] == TERMINAL else 0


@njit(cache=True, _nrt=False, inline="always")
def random_action(state, opts, rng):
    """A uniformly random legal action; returns ``(new_rng, action)`` (action -1 when terminal)."""
    offset, mask = legal_set(state, opts)
    k = popcount(mask)
    if k == 0:
        return rng, np.int64(-1)
    rng, r = below(rng, k)
    return rng, offset + select_bit(mask, r)


@njit(cache=True, _nrt=False, inline="always")
def random_card_play(state, opts, rng):
    """In the PLAY phase (without ``auto_play_forced``): play a uniformly random legal card; returns the rng.

    Exactly ``random_action`` followed by ``step``, without the phase dispatch: the hot loop of random playouts.
    """
    legal = play_legal(state, opts)
    rng, r = below(rng, popcount(legal))
    card = select_bit(legal, r)
    h = state[HIST_LEN]
    state[HIST + h] = A_PLAY + card
    state[HIST_LEN] = h + 1
    _apply_play(state, card, opts)
    return rng


@njit(cache=True, _nrt=False)
def _place(state, i):
    if i < 3:
        return state[HAND + i]
    if i == 3:
        blind = np.int64(0)
        if state[PHASE] == AUCTION or state[RAEUBER] != 0:
            for j in range(6):
                blind |= ONE << state[BLIND + j]
        return blind
    if i == 4:
        return state[DISCARDS]
    if i == 5:
        return state[BLIND_REST]
    if i < 9:
        return state[WON + i - 6]
    trick = np.int64(0)
    for j in range(state[TRICK_N]):
        trick |= ONE << state[TRICK_CARD + j]
    return trick


# ---------------------------------------------------------------------------------------------------------
# invariants: one named check per rule, each returning 0 or its code of the shared table (engine/invariants.py)
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def check_seat_to_act(state, opts):
    """NO_SEAT_TO_ACT: the phase is known, and a seat is to act exactly while the deal runs."""
    if state[PHASE] < AUCTION or state[PHASE] > TERMINAL or state[CUR] < -1 or state[CUR] > 2:
        return INV.NO_SEAT_TO_ACT
    if (state[CUR] == -1) != (state[PHASE] == TERMINAL):
        return INV.NO_SEAT_TO_ACT
    return 0


@njit(cache=True, _nrt=False)
def check_cards(state, opts):
    """CARDS: every one of the 54 cards lies in exactly one place (hands, blind parts, discards, piles, trick)."""
    seen = np.int64(0)
    for i in range(10):
        place = _place(state, i)
        if (seen & place) != 0:
            return INV.CARDS
        seen |= place
    return 0 if seen == ALL else INV.CARDS


@njit(cache=True, _nrt=False)
def check_legal_set(state, opts):
    """LEGAL_SET: the legal set is empty exactly at the end of the deal."""
    offset, mask = legal_set(state, opts)
    return INV.LEGAL_SET if (state[PHASE] == TERMINAL) == (mask != 0) else 0


@njit(cache=True, _nrt=False)
def check_history_length(state, opts):
    """TOO_MANY_ACTIONS: the history is within the episode bound."""
    return INV.TOO_MANY_ACTIONS if state[HIST_LEN] > MAX_EPISODE_LENGTH else 0


@njit(cache=True, _nrt=False)
def check_play_counts(state, opts):
    """COUNTS: every seat has played one card per finished trick, plus one if it has played to the current one."""
    for s in range(3):
        expected = state[TRICK_NO]
        if state[PHASE] == PLAY and (s - state[LEADER]) % 3 < state[TRICK_N]:
            expected += 1
        if popcount(state[PLAYED_BY + s]) != expected:
            return INV.COUNTS
    return 0


@njit(cache=True, _nrt=False)
def check_final_accounts(state, opts):
    """SETTLEMENT, POINTS, FINAL_SHAPE at the end: a zero-sum settlement, all card points counted, 48 plays."""
    if state[PHASE] != TERMINAL:
        return 0
    if state[RESULT] + state[RESULT + 1] + state[RESULT + 2] != 0:
        return INV.SETTLEMENT
    total = pile_points(ALL, opts)
    if state[RAEUBER] != 0:
        blind = np.int64(0)
        for i in range(6):
            blind |= ONE << state[BLIND + i]
        if state[POINTS] + state[POINTS + 1] + state[POINTS + 2] + pile_points(blind, opts) != total:
            return INV.POINTS
    else:
        d = state[DECLARER]
        if state[POINTS + d] + state[POINTS + (d + 1) % 3] != total:
            return INV.POINTS
    plays = popcount(state[PLAYED_BY]) + popcount(state[PLAYED_BY + 1]) + popcount(state[PLAYED_BY + 2])
    if plays != 48 or state[HIST_LEN] < 49 or state[HIST_LEN] > MAX_EPISODE_LENGTH:
        return INV.FINAL_SHAPE
    return 0


@njit(cache=True, _nrt=False)
def check_invariants(state, opts):
    """0 when the state is consistent, otherwise the code of the first broken invariant.

    Runs the named checks above in order (codes of the shared table :mod:`tarockrl.engine.invariants`).
    """
    code = check_seat_to_act(state, opts)
    if code == 0:
        code = check_cards(state, opts)
    if code == 0:
        code = check_legal_set(state, opts)
    if code == 0:
        code = check_history_length(state, opts)
    if code == 0:
        code = check_play_counts(state, opts)
    if code == 0:
        code = check_final_accounts(state, opts)
    return code



# ---------------------------------------------------------------------------------------------------------
# the rest of the kernel contract (tarockrl.games.contract): what the generated drivers call
# ---------------------------------------------------------------------------------------------------------
LEGAL_WORDS = 1


@njit(cache=True, _nrt=False)
def deal_rng(state, seed, deal_id, opts, scratch):
    """Deal ``deal(seed, deal_id)`` into ``state``; returns the stream a random playout continues with."""
    return deal_with_rng(state, stream_seed(seed, deal_id), opts, scratch)


@njit(cache=True, _nrt=False)
def legal_words(state, opts, out):
    """The legal actions as one ``(offset, mask)`` pair in ``out[0], out[1]``."""
    offset, mask = legal_set(state, opts)
    out[0] = offset
    out[1] = mask


@njit(cache=True, _nrt=False, inline="always")
def random_step(state, opts, rng):
    """``random_action`` then ``step``, with the card-play phase on its own fast path; returns the rng."""
    if state[PHASE] == PLAY and opts[O_AUTO_FORCED] == 0:
        return random_card_play(state, opts, rng)
    rng, a = random_action(state, opts, rng)
    step(state, a, opts)
    return rng
