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
from tarockrl.games.dreierles import layout as L
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
    state[L.MAGIC] = L.LAYOUT_MAGIC
    state[L.DEALER] = dealer
    for s in range(3):
        state[L.HAND + s] = hands[s]
        state[L.DEALT + s] = hands[s]
        state[L.BID + s] = -1
        state[L.KNOCK_DEC + s] = -1
        state[L.TRICK_CARD + s] = -1
        state[L.LAST_TRICK + s] = -1
    for i in range(6):
        state[L.BLIND + i] = blind[i]
    state[L.DECLARER] = -1
    state[L.ANNOUNCED] = -1
    state[L.REKNOCK_DEC] = -1
    state[L.LAST_LEADER] = -1
    state[L.LAST_WINNER] = -1
    state[L.LEADER] = -1
    state[L.PHASE] = L.AUCTION
    state[L.CUR] = (dealer + 1) % 3
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
    n = state[L.TRICK_N]
    trick_no = state[L.TRICK_NO] + 1
    in_trick = np.int64(0)
    for i in range(n):
        in_trick |= ONE << state[L.TRICK_CARD + i]
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
        if n > 0 and state[L.TRICK_CARD] <= 21 and state[L.N_TRUMP_LED] >= 3 and (legal & PFEIFE) != 0:
            return PFEIFE
    if (legal & T21) != 0 and (hand & TRUMPS & ~T21) != 0:
        rule21 = opts[O_RAEUBER_21]
        st_in_trick = (in_trick & STIESS) != 0
        if rule21 == RAEUBER_21_NOT_BEFORE_STIESS and not (state[L.STIESS_PLAYED] != 0 or st_in_trick):
            legal &= ~T21
        elif rule21 == RAEUBER_21_NOT_WITH_STIESS and st_in_trick:
            legal &= ~T21
    return legal


@njit(cache=True, _nrt=False, inline="always")
def play_legal(state, opts):
    """Cards the seat to move may play now."""
    p = state[L.CUR]
    hand = state[L.HAND + p]
    if state[L.TRICK_N] == 0:
        legal = hand
    else:
        legal = follow_or_trump(hand, SUIT_OF_CARD[state[L.TRICK_CARD]], TRUMPS)
    if state[L.RAEUBER] != 0:
        legal = raeuber_restrict(legal, hand, state, opts)
    return legal


@njit(cache=True, _nrt=False, inline="always")
def legal_set(state, opts):
    """The legal actions as ``(offset, mask)``: action ``offset + i`` is legal iff bit ``i`` of mask is set."""
    phase = state[L.PHASE]
    if phase == L.PLAY:
        return L.A_PLAY, play_legal(state, opts)
    if phase == L.AUCTION:
        if opts[O_LAST_ROUND] != 0:
            return 0, np.int64(0b10001)
        high = state[L.HIGH]
        return 0, np.int64(1) | (np.int64(0b11110) & ~((ONE << (high + 1)) - 1))
    if phase == L.DISCARD:
        return L.A_DISCARD, discard_legal(state[L.HAND + state[L.DECLARER]], state[L.DISCARD_LEFT])
    if phase == L.ANNOUNCE:
        return np.int64(L.A_ANNOUNCE), np.int64(0b11)
    if phase == L.TERMINAL:
        return 0, np.int64(0)
    return L.A_KNOCK, np.int64(0b11)  # KNOCK, REKNOCK, RAEUBER_KNOCK


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
    if action < 0 or action >= L.NUM_ACTIONS:
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
        state[L.START_HAND + s] = state[L.HAND + s]
    state[L.PHASE] = L.PLAY
    state[L.LEADER] = leader
    state[L.CUR] = leader
    state[L.TRICK_N] = 0


@njit(cache=True, _nrt=False)
def _knock_eligible(state, seat, opts):
    bid = state[L.BID + seat]
    if opts[O_LAST_ROUND] != 0:
        return bid == -1
    if opts[O_KNOCK_ELIG] == KNOCK_ELIG_BIDDERS:
        return bid >= 1
    return bid != 0


@njit(cache=True, _nrt=False)
def _advance(state, opts):
    """Move to the next post-exchange decision (announce / knock / re-knock), or start play."""
    d = state[L.DECLARER]
    announce_step = ANNOUNCE_STEP_BEFORE if opts[O_ANNOUNCE_TIMING] == ANNOUNCE_BEFORE_KNOCKS else ANNOUNCE_STEP_AFTER
    while True:
        step = state[L.STEP]
        if step >= 3:
            _start_play(state, d)
            return
        # kinds in order: before_knocks -> (announce, knock, reknock); after_knocks -> (knock, reknock, announce)
        kind = step - 1 if announce_step == ANNOUNCE_STEP_BEFORE else step
        if step == announce_step:
            if (state[L.HAND + d] & PFEIFE) != 0 and state[L.ANNOUNCED] == -1:
                state[L.PHASE] = L.ANNOUNCE
                state[L.CUR] = d
                return
        elif kind == 0:  # defender knocks
            if not (opts[O_MAX_DEF_KNOCKS] == 1 and state[L.KNOCKS] >= 1):
                while state[L.ASK_IDX] < 2:
                    f = (d + 1 + state[L.ASK_IDX]) % 3
                    if _knock_eligible(state, f, opts):
                        state[L.PHASE] = L.KNOCK
                        state[L.CUR] = f
                        return
                    state[L.ASK_IDX] += 1
        else:  # re-knock
            if opts[O_ALLOW_REKNOCK] != 0 and state[L.KNOCKS] >= 1 and state[L.REKNOCK_DEC] == -1:
                state[L.PHASE] = L.REKNOCK
                state[L.CUR] = d
                return
        state[L.STEP] = step + 1


@njit(cache=True, _nrt=False)
def _enter_raeuber_knock(state, opts):
    dealer = state[L.DEALER]
    if state[L.ASK_IDX] < 3 and state[L.KNOCKS] < opts[O_RAEUBER_MAX_KNOCKS]:
        state[L.PHASE] = L.RAEUBER_KNOCK
        state[L.CUR] = (dealer + 1 + state[L.ASK_IDX]) % 3
        return
    _start_play(state, (dealer + 1) % 3)


@njit(cache=True, _nrt=False)
def _end_auction(state, opts):
    high = state[L.HIGH]
    if high == 0:
        state[L.RAEUBER] = 1
        state[L.ASK_IDX] = 0
        _enter_raeuber_knock(state, opts)
        return
    d = 0
    for s in range(3):
        if state[L.BID + s] == high:
            d = s
    state[L.DECLARER] = d
    k = 4 - high
    taken = np.int64(0)
    rest = np.int64(0)
    for i in range(6):
        if i < k:
            taken |= ONE << state[L.BLIND + i]
        else:
            rest |= ONE << state[L.BLIND + i]
    state[L.HAND + d] |= taken
    state[L.BLIND_TAKEN] = taken
    state[L.BLIND_REST] = rest
    state[L.DISCARD_LEFT] = k
    if k > 0:
        state[L.PHASE] = L.DISCARD
        state[L.CUR] = d
    else:
        state[L.STEP] = 0
        _advance(state, opts)


@njit(cache=True, _nrt=False, inline="always")
def _apply_play(state, card, opts):
    p = state[L.CUR]
    b = ONE << card
    state[L.HAND + p] &= ~b
    state[L.PLAYED_BY + p] |= b
    n = state[L.TRICK_N]
    state[L.TRICK_CARD + n] = card
    if n == 0:
        if card <= 21:
            state[L.N_TRUMP_LED] += 1
    else:
        led = SUIT_OF_CARD[state[L.TRICK_CARD]]
        if (b & led) == 0:  # did not follow: void in the led suit, and in trumps too if he did not trump
            state[L.VOIDS + p] |= led if (b & TRUMPS) != 0 else led | TRUMPS
    n += 1
    state[L.TRICK_N] = n
    if n < 3:
        state[L.CUR] = (p + 1) % 3
        return
    c0 = state[L.TRICK_CARD]
    c1 = state[L.TRICK_CARD + 1]
    led = SUIT_OF_CARD[c0]
    pos = 0
    best = c0
    if beats_highest_index(c1, best, led, TRUMPS):
        pos = 1
        best = c1
    if beats_highest_index(card, best, led, TRUMPS):
        pos = 2
    leader = state[L.LEADER]
    winner = (leader + pos) % 3
    won = (ONE << c0) | (ONE << c1) | (ONE << card)
    state[L.WON + winner] |= won
    if (won & STIESS) != 0:
        state[L.STIESS_PLAYED] = 1
    state[L.TRICK_NO] += 1
    if state[L.TRICK_NO] == 16:
        state[L.LAST_TRICK] = c0
        state[L.LAST_TRICK + 1] = c1
        state[L.LAST_TRICK + 2] = card
        state[L.LAST_LEADER] = leader
        state[L.LAST_WINNER] = winner
        for i in range(3):
            state[L.TRICK_CARD + i] = -1
        state[L.TRICK_N] = 0
        score(state, opts)
        state[L.PHASE] = L.TERMINAL
        state[L.CUR] = -1
        return
    for i in range(3):
        state[L.TRICK_CARD + i] = -1
    state[L.TRICK_N] = 0
    state[L.LEADER] = winner
    state[L.CUR] = winner


@njit(cache=True, _nrt=False, inline="always")
def apply_unchecked(state, action, opts):
    """Apply a legal ``action`` (no legality check, no forced-move handling) and record it."""
    h = state[L.HIST_LEN]
    if h < L.MAX_EPISODE_LENGTH:
        state[L.HIST + h] = action
    state[L.HIST_LEN] = h + 1
    phase = state[L.PHASE]
    p = state[L.CUR]
    if phase == L.PLAY:
        _apply_play(state, action - L.A_PLAY, opts)
    elif phase == L.AUCTION:
        if action == 0:
            state[L.BID + p] = 0
        else:
            state[L.BID + p] = action
            state[L.HIGH] = action
        state[L.AUCTION_POS] += 1
        if action == 4 or state[L.AUCTION_POS] == 3:
            _end_auction(state, opts)
        else:
            state[L.CUR] = (state[L.DEALER] + 1 + state[L.AUCTION_POS]) % 3
    elif phase == L.DISCARD:
        card = action - L.A_DISCARD
        b = ONE << card
        state[L.HAND + p] &= ~b
        state[L.DISCARDS] |= b
        if card <= 21:
            state[L.FALLBACK] |= b
        state[L.DISCARD_LEFT] -= 1
        if state[L.DISCARD_LEFT] == 0:
            state[L.STEP] = 0
            _advance(state, opts)
    elif phase == L.ANNOUNCE:
        state[L.ANNOUNCED] = 1 if action == L.A_ANNOUNCE else 0
        state[L.STEP] += 1
        _advance(state, opts)
    elif phase == L.KNOCK:
        knock = action == L.A_KNOCK
        state[L.KNOCK_DEC + p] = 1 if knock else 0
        if knock:
            state[L.KNOCKS] += 1
        state[L.ASK_IDX] += 1
        _advance(state, opts)
    elif phase == L.REKNOCK:
        knock = action == L.A_KNOCK
        state[L.REKNOCK_DEC] = 1 if knock else 0
        if knock:
            state[L.KNOCKS] += 1
        state[L.STEP] += 1
        _advance(state, opts)
    elif phase == L.RAEUBER_KNOCK:
        knock = action == L.A_KNOCK
        state[L.KNOCK_DEC + p] = 1 if knock else 0
        if knock:
            state[L.KNOCKS] += 1
        state[L.ASK_IDX] += 1
        _enter_raeuber_knock(state, opts)


@njit(cache=True, _nrt=False)
def auto_play_forced(state, opts):
    """With the option ``auto_play_forced``, apply every single-legal-action decision from here on."""
    if opts[O_AUTO_FORCED] == 0:
        return
    while state[L.PHASE] != L.TERMINAL:
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
    if state[L.PHASE] == L.TERMINAL:
        return L.GAME_OVER
    if not is_legal(state, action, opts):
        return L.ILLEGAL
    step(state, action, opts)
    return L.OK


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
    d = state[L.DECLARER]
    pos = -1
    for i in range(3):
        if state[L.LAST_TRICK + i] == 0:
            pos = i
    winner = state[L.LAST_WINNER]
    if state[L.ANNOUNCED] == 1:
        value = opts[O_PFEIFE_ANNOUNCED]
        if pos >= 0 and (state[L.LAST_LEADER] + pos) % 3 == d and winner == d:
            return 1, value
        return -1, value
    value = opts[O_PFEIFE_SILENT]
    if pos < 0:
        return 0, value
    holder = (state[L.LAST_LEADER] + pos) % 3
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
    d = state[L.DECLARER]
    for p in range(3):
        if use_dealt:
            hand = state[L.DEALT + p]
            if p == d:
                hand &= ~state[L.FALLBACK]
        else:
            hand = state[L.START_HAND + p]
        b = hand_bonus(hand, opts) * bm
        for q in range(3):
            if q != p:
                state[L.RESULT + q] -= b
                state[L.RESULT + p] += b


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
        state[L.RESULT + s] = 0
    knocks = state[L.KNOCKS]
    bm = (ONE << knocks) if opts[O_KNOCK_DOUBLES_BONUSES] != 0 else ONE
    if state[L.RAEUBER] != 0:
        for s in range(3):
            state[L.POINTS + s] = pile_points(state[L.WON + s], opts)
        base = opts[O_LAST_ROUND_BASE] if opts[O_LAST_ROUND] != 0 else opts[O_RAEUBER_BASE]
        raeuber_settlement(state[L.POINTS:L.POINTS + 3], knocks, base, state[L.RESULT:L.RESULT + 3])
        if opts[O_RAEUBER_BONUSES] != 0:
            _add_hand_bonuses(state, True, bm, opts)
    else:
        d = state[L.DECLARER]
        f1 = (d + 1) % 3
        f2 = (d + 2) % 3
        p = pile_points(state[L.DISCARDS] | state[L.WON + d], opts)
        q = pile_points(state[L.BLIND_REST] | state[L.WON + f1] | state[L.WON + f2], opts)
        state[L.POINTS + d] = p
        state[L.POINTS + f1] = q
        state[L.POINTS + f2] = q
        x = contract_payment(p, state[L.HIGH], knocks, opts)
        side, value = pfeife_outcome(state, opts)
        x += side * value * bm
        state[L.RESULT + d] += 2 * x
        state[L.RESULT + f1] -= x
        state[L.RESULT + f2] -= x
        _add_hand_bonuses(state, opts[O_BONUS_BASIS] == BONUS_BASIS_DEALT, bm, opts)


@njit(cache=True, _nrt=False)
def returns(state, out):
    """Write the settlement (float64[3], zeros before the end) into ``out``."""
    for s in range(3):
        out[s] = state[L.RESULT + s] if state[L.PHASE] == L.TERMINAL else 0


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
    h = state[L.HIST_LEN]
    state[L.HIST + h] = L.A_PLAY + card
    state[L.HIST_LEN] = h + 1
    _apply_play(state, card, opts)
    return rng


@njit(cache=True, _nrt=False, inline="always")
def _trick_key(card, led):
    """A key whose order among the cards of a trick is that of :func:`beats_highest_index` (higher wins)."""
    return (((TRUMPS >> card) & 1) << 7) | (((led >> card) & 1) << 6) | card


@njit(cache=True, _nrt=False)
def play_random_cards(state, opts, rng):
    """Play uniformly random legal cards to the end of the deal; returns the rng. The row must be in the card
    play of a deal that is not Räuber, without ``auto_play_forced``.

    The same choices and the same final row as :func:`random_card_play` repeated until the end (that is,
    ``random_action`` + ``step``), with the trick (seat to move, cards so far, leader, counters) kept in
    registers instead of being stored to and reloaded from the row between cards: the hot loop of random
    playouts. Only what outlasts a trick goes through the row (hands, cards played, voids, piles, history).
    """
    p = state[L.CUR]
    n = state[L.TRICK_N]
    leader = state[L.LEADER]
    c0 = state[L.TRICK_CARD]
    c1 = state[L.TRICK_CARD + 1]
    led = SUIT_OF_CARD[c0] if n > 0 else np.int64(0)
    trick_no = state[L.TRICK_NO]
    n_trump_led = state[L.N_TRUMP_LED]
    stiess = state[L.STIESS_PLAYED]
    h = state[L.HIST_LEN]
    card = np.int64(-1)
    winner = np.int64(-1)
    while True:
        hand = state[L.HAND + p]
        legal = hand if n == 0 else follow_or_trump(hand, led, TRUMPS)
        rng, r = below(rng, popcount(legal))
        card = select_bit(legal, r)
        state[L.HIST + h] = L.A_PLAY + card
        h += 1
        b = ONE << card
        state[L.HAND + p] = hand & ~b
        state[L.PLAYED_BY + p] |= b
        if n == 0:
            c0 = card
            led = SUIT_OF_CARD[card]
            if card <= 21:
                n_trump_led += 1
            n = 1
            p = p + 1 if p < 2 else 0
            continue
        if (b & led) == 0:  # did not follow: void in the led suit, and in trumps too if he did not trump
            state[L.VOIDS + p] |= led if (b & TRUMPS) != 0 else led | TRUMPS
        if n == 1:
            c1 = card
            n = 2
            p = p + 1 if p < 2 else 0
            continue
        # the winner without unpredictable branches: rank key trump 128 + index, led suit 64 + index, other
        # plain cards below (never winning; the led card has a key >= 64) — the order of beats_highest_index
        k0 = _trick_key(c0, led)
        k1 = _trick_key(c1, led)
        k2 = _trick_key(card, led)
        pos = np.int64(0)
        best = k0
        if k1 > best:
            pos = np.int64(1)
            best = k1
        if k2 > best:
            pos = np.int64(2)
        winner = leader + pos
        if winner >= 3:
            winner -= 3
        won = (ONE << c0) | (ONE << c1) | b
        state[L.WON + winner] |= won
        if (won & STIESS) != 0:
            stiess = 1
        trick_no += 1
        if trick_no == 16:
            break
        n = 0
        leader = winner
        p = winner
    # the row as _apply_play leaves it after the last trick
    state[L.HIST_LEN] = h
    state[L.N_TRUMP_LED] = n_trump_led
    state[L.STIESS_PLAYED] = stiess
    state[L.TRICK_NO] = trick_no
    state[L.LEADER] = leader
    state[L.LAST_TRICK] = c0
    state[L.LAST_TRICK + 1] = c1
    state[L.LAST_TRICK + 2] = card
    state[L.LAST_LEADER] = leader
    state[L.LAST_WINNER] = winner
    for i in range(3):
        state[L.TRICK_CARD + i] = -1
    state[L.TRICK_N] = 0
    score(state, opts)
    state[L.PHASE] = L.TERMINAL
    state[L.CUR] = -1
    return rng


@njit(cache=True, _nrt=False)
def _place(state, i):
    if i < 3:
        return state[L.HAND + i]
    if i == 3:
        blind = np.int64(0)
        if state[L.PHASE] == L.AUCTION or state[L.RAEUBER] != 0:
            for j in range(6):
                blind |= ONE << state[L.BLIND + j]
        return blind
    if i == 4:
        return state[L.DISCARDS]
    if i == 5:
        return state[L.BLIND_REST]
    if i < 9:
        return state[L.WON + i - 6]
    trick = np.int64(0)
    for j in range(state[L.TRICK_N]):
        trick |= ONE << state[L.TRICK_CARD + j]
    return trick


# ---------------------------------------------------------------------------------------------------------
# invariants: one named check per rule, each returning 0 or its code of the shared table (engine/invariants.py)
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def check_seat_to_act(state, opts):
    """NO_SEAT_TO_ACT: the phase is known, and a seat is to act exactly while the deal runs."""
    if state[L.PHASE] < L.AUCTION or state[L.PHASE] > L.TERMINAL or state[L.CUR] < -1 or state[L.CUR] > 2:
        return INV.NO_SEAT_TO_ACT
    if (state[L.CUR] == -1) != (state[L.PHASE] == L.TERMINAL):
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
    return INV.LEGAL_SET if (state[L.PHASE] == L.TERMINAL) == (mask != 0) else 0


@njit(cache=True, _nrt=False)
def check_history_length(state, opts):
    """TOO_MANY_ACTIONS: the history is within the episode bound."""
    return INV.TOO_MANY_ACTIONS if state[L.HIST_LEN] > L.MAX_EPISODE_LENGTH else 0


@njit(cache=True, _nrt=False)
def check_play_counts(state, opts):
    """COUNTS: every seat has played one card per finished trick, plus one if it has played to the current one."""
    for s in range(3):
        expected = state[L.TRICK_NO]
        if state[L.PHASE] == L.PLAY and (s - state[L.LEADER]) % 3 < state[L.TRICK_N]:
            expected += 1
        if popcount(state[L.PLAYED_BY + s]) != expected:
            return INV.COUNTS
    return 0


@njit(cache=True, _nrt=False)
def check_final_accounts(state, opts):
    """SETTLEMENT, POINTS, FINAL_SHAPE at the end: a zero-sum settlement, all card points counted, 48 plays."""
    if state[L.PHASE] != L.TERMINAL:
        return 0
    if state[L.RESULT] + state[L.RESULT + 1] + state[L.RESULT + 2] != 0:
        return INV.SETTLEMENT
    total = pile_points(ALL, opts)
    if state[L.RAEUBER] != 0:
        blind = np.int64(0)
        for i in range(6):
            blind |= ONE << state[L.BLIND + i]
        if state[L.POINTS] + state[L.POINTS + 1] + state[L.POINTS + 2] + pile_points(blind, opts) != total:
            return INV.POINTS
    else:
        d = state[L.DECLARER]
        if state[L.POINTS + d] + state[L.POINTS + (d + 1) % 3] != total:
            return INV.POINTS
    plays = popcount(state[L.PLAYED_BY]) + popcount(state[L.PLAYED_BY + 1]) + popcount(state[L.PLAYED_BY + 2])
    if plays != 48 or state[L.HIST_LEN] < 49 or state[L.HIST_LEN] > L.MAX_EPISODE_LENGTH:
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
    if state[L.PHASE] == L.PLAY and opts[O_AUTO_FORCED] == 0:
        return random_card_play(state, opts, rng)
    rng, a = random_action(state, opts, rng)
    step(state, a, opts)
    return rng


@njit(cache=True, _nrt=False)
def playout(seed, g, opts, state, scratch, returns_out, i):
    """Random deal ``g`` of ``seed`` played to the end in ``state``; returns its length (the contract's fast path).

    The same deal, the same choices and the same final row as :func:`deal_rng` followed by ``random_action`` /
    ``step``: the card play of a deal that is not Räuber (without ``auto_play_forced``) runs in
    :func:`play_random_cards`. Writes the settlement to ``returns_out[i]``.
    """
    rng = deal_rng(state, seed, g, opts, scratch)
    fast = opts[O_AUTO_FORCED] == 0
    while state[L.PHASE] != L.TERMINAL:
        if fast and state[L.PHASE] == L.PLAY and state[L.RAEUBER] == 0:
            rng = play_random_cards(state, opts, rng)
        else:
            rng = random_step(state, opts, rng)
    for s in range(3):
        returns_out[i, s] = state[L.RESULT + s]
    return state[L.HIST_LEN]
