"""Dreiertarock rule kernels (numba, int64 only): deal, legal actions, apply, scoring, invariants.

Every kernel takes the state row (``int64[STATE_LEN]``, see :mod:`.layout`) and the encoded rules options
(``int64[NUM_OPTION_SLOTS]``, see :mod:`.rules`). Kernels never raise: ``apply_action`` returns a status code
and leaves the row untouched when the action is illegal.

The legal actions of every phase form one contiguous block of the flat layout, so ``legal_set`` returns them
as ``(offset, mask)``: action ``offset + i`` is legal iff bit ``i`` of ``mask`` is set. One legal-set and one
apply function per phase, plus the dispatchers ``legal_set`` and ``apply_unchecked``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine import invariants as INV
from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.masktricks import beating_cards, winning_card
from tarockrl.engine.pack54 import thirds
from tarockrl.engine.rng import below, stream_seed
from tarockrl.engine.select import select_bit
from tarockrl.engine.shuffle import shuffle_prefix_pairs
from tarockrl.engine.tricks import follow_or_trump
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import (
    ALL,
    KINGS,
    NONTRULL_TAROCKS,
    OTHER_TAROCKS,
    PLAIN_NONKING,
    SKS_MASK,
    SUIT_MASK_OF_CARD,
    T1_MASK,
    T21_MASK,
    TAROCKS,
    TRULL,
)
from tarockrl.games.dreiertarock.rules import (
    ALL_PASS_TRISCHAKEN,
    O_ALL_PASS,
    O_AUTO_FORCED,
    O_DEF_ANNOUNCE,
    O_DISCARD_FREE,
    O_FIRST_TURN_ONLY,
    O_FOREHAND_MUST_BID,
    O_KAISERSTICH,
    O_KONTRA,
    O_KONTRA_MAX,
    O_REDEAL_NO_TAROCK,
    O_SILENT_PENALTY,
    O_SOLO_BONUS,
    O_SOLO_DECL_LEADS,
    O_SV_EARLY_END,
    O_TRISCHAKEN_VALUE,
    O_TRULL_PILES,
    O_VALAT_CANCELS,
    O_VALAT_FACTOR,
)

ONE = np.int64(1)
KERNEL = {"cache": True, "_nrt": False}
"""Options of every kernel that allocates nothing: no reference counting of the array arguments (numba would
otherwise add two atomic increments and decrements to every call, a large share of a playout's time)."""
KERNEL_INLINE = {"cache": True, "_nrt": False, "inline": "always"}
"""The per-phase pieces of ``legal_set`` and ``apply_unchecked``: inlined into those two dispatchers only."""
MOND_SKS = np.int64(T21_MASK | SKS_MASK)
GAME_VALUE = np.array(L.GAME_VALUES, dtype=np.int64)
BIRD_SILENT_VALUE = np.array(L.BIRD_SILENT, dtype=np.int64)
BIRD_ANNOUNCED_VALUE = np.array(L.BIRD_ANNOUNCED, dtype=np.int64)
BIRD_TRICK_NO = np.array(L.BIRD_TRICK_NUMBERS, dtype=np.int64)
TRULL_BONUS = 10  # Trull, King Trull and Mondfang


# ---------------------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------------------
@njit(**KERNEL)
def init_from_deal(state, hand0, hand1, hand2, packet0, packet1, dealer, opts):
    """Fill ``state`` with the start of a deal: seat hands, the two talon packets (masks) and the dealer.

    Under ``redeal_without_tarock`` a deal in which some hand holds no tarock is void: terminal at once with a
    zero settlement.
    """
    state[:] = 0
    state[L.MAGIC] = L.LAYOUT_MAGIC
    state[L.DEALER] = dealer
    state[L.HAND] = hand0
    state[L.HAND + 1] = hand1
    state[L.HAND + 2] = hand2
    state[L.DEALT] = hand0
    state[L.DEALT + 1] = hand1
    state[L.DEALT + 2] = hand2
    state[L.PACKET] = packet0
    state[L.PACKET + 1] = packet1
    state[L.HOLDER] = -1
    state[L.DECLARER] = -1
    state[L.TAKEN] = -1
    state[L.LEADER] = -1
    state[L.MOND_SEAT] = -1
    for i in range(3):
        state[L.ANN_BY + i] = -1
        state[L.TRICK_CARD + i] = -1
        state[L.BIRD_SEAT + i] = -1
    state[L.PHASE] = L.AUCTION
    state[L.CUR] = (dealer + 1) % 3
    if opts[O_REDEAL_NO_TAROCK] != 0:
        if (hand0 & TAROCKS) == 0 or (hand1 & TAROCKS) == 0 or (hand2 & TAROCKS) == 0:
            state[L.VOID] = 1
            state[L.PHASE] = L.TERMINAL
            state[L.CUR] = -1
            return
    auto_play_forced(state, opts)


@njit(**KERNEL)
def deal_with_rng(state, rng, perm, opts):
    """Deal a uniformly random deal (dealer and cards) from generator ``rng``; returns the advanced generator.

    ``perm`` is an int64[54] scratch buffer. With the permutation ``p`` of docs/rules/dreiertarock.md §3: forehand gets
    ``p[0:8] + p[30:38]``, middlehand ``p[8:16] + p[38:46]``, rearhand (the dealer) ``p[16:24] + p[46:54]``,
    packet 0 is ``p[24:27]`` and packet 1 ``p[27:30]``.
    """
    rng, dealer = below(rng, 3)
    for i in range(54):
        perm[i] = i
    rng = shuffle_prefix_pairs(rng, perm, 54)
    fh = np.int64(0)
    mh = np.int64(0)
    rh = np.int64(0)
    for i in range(8):
        fh |= (ONE << perm[i]) | (ONE << perm[30 + i])
        mh |= (ONE << perm[8 + i]) | (ONE << perm[38 + i])
        rh |= (ONE << perm[16 + i]) | (ONE << perm[46 + i])
    p0 = (ONE << perm[24]) | (ONE << perm[25]) | (ONE << perm[26])
    p1 = (ONE << perm[27]) | (ONE << perm[28]) | (ONE << perm[29])
    # seat s has role (s - dealer - 1) % 3: 0 forehand, 1 middlehand, 2 rearhand
    if dealer == 2:
        h0, h1, h2 = fh, mh, rh
    elif dealer == 0:
        h0, h1, h2 = rh, fh, mh
    else:
        h0, h1, h2 = mh, rh, fh
    init_from_deal(state, h0, h1, h2, p0, p1, dealer, opts)
    return rng


@njit(cache=True)
def deal(state, seed, deal_id, opts):
    """Deal number ``deal_id`` of ``seed`` into ``state`` (a pure function of the two numbers)."""
    perm = np.empty(54, dtype=np.int64)
    deal_with_rng(state, stream_seed(seed, deal_id), perm, opts)


# ---------------------------------------------------------------------------------------------------------
# legal actions, one function per phase
# ---------------------------------------------------------------------------------------------------------
@njit(**KERNEL_INLINE)
def rank_of(seat, dealer):
    """Seniority rank: 0 forehand, 1 middlehand, 2 rearhand (the dealer)."""
    return (seat - dealer + 2) % 3


@njit(**KERNEL)
def auction_legal(state, opts):
    """Auction calls of the seat to act as a mask over ``OFF_AUCTION`` (bit 0 PASS, 1 HOLD, 1 + L BID_L)."""
    p = state[L.CUR]
    level = state[L.LEVEL]
    not_spoken = ((state[L.SPOKEN] >> p) & 1) == 0
    mask = ONE
    if not_spoken and opts[O_FOREHAND_MUST_BID] != 0 and p == (state[L.DEALER] + 1) % 3:
        mask = np.int64(0)
    solos = np.int64((1 << 7) | (1 << 8))
    if level == 0:
        mask |= np.int64(1 << 2)
        if not_spoken:
            mask |= solos
    elif level <= 5:
        dealer = state[L.DEALER]
        if rank_of(p, dealer) < rank_of(state[L.HOLDER], dealer):
            mask |= np.int64(2)
        else:
            if level <= 4:
                mask |= ONE << (level + 2)
            if not_spoken:
                mask |= solos
    elif level == 6 and not_spoken:
        mask |= np.int64(1 << 8)
    return mask


@njit(**KERNEL)
def discard_legal(hand, left, opts):
    """Cards the declarer may discard with ``left`` discards still to make."""
    plain = hand & PLAIN_NONKING
    if opts[O_DISCARD_FREE] == 0 and popcount(plain) >= left:
        return plain
    return plain | (hand & NONTRULL_TAROCKS)


@njit(**KERNEL)
def announce_legal(state, opts):
    """Announcements and doublings of the seat to act as a mask over ``OFF_ANNOUNCE``.

    Bits 0-2 ANNOUNCE Pagat/Uhu/Kakadu, bits 3-6 DOUBLE game/Pagat/Uhu/Kakadu, bit 7 GOOD.
    """
    p = state[L.CUR]
    d = state[L.DECLARER]
    mask = np.int64(1 << 7)
    if (
        state[L.CONTRACT] != L.SOLO_VALAT
        and (opts[O_FIRST_TURN_ONLY] == 0 or ((state[L.HAD_TURN] >> p) & 1) == 0)
        and (p == d or opts[O_DEF_ANNOUNCE] != 0)
    ):
        hand = state[L.HAND + p]
        for b in range(3):
            if ((hand >> b) & 1) != 0 and state[L.ANN_BY + b] < 0:
                mask |= ONE << b
    if opts[O_KONTRA] != 0:
        kmax = opts[O_KONTRA_MAX]
        p_decl = p == d
        k = state[L.KLEVEL]
        if k < kmax and ((k & 1) == 1) == p_decl:  # game: owner is the declarer's side
            mask |= np.int64(1 << 3)
        for b in range(3):
            by = state[L.ANN_BY + b]
            if by >= 0:
                k = state[L.KLEVEL + 1 + b]
                owner_decl = by == d
                if k < kmax and ((k & 1) == 1) == (p_decl == owner_decl):
                    mask |= ONE << (4 + b)
    return mask


@njit(**KERNEL_INLINE)
def trick_mask(state):
    """The cards of the current trick as a mask."""
    m = np.int64(0)
    for i in range(state[L.TRICK_N]):
        m |= ONE << state[L.TRICK_CARD + i]
    return m


@njit(**KERNEL)
def trischaken_restrict(legal, hand, state, opts):
    """Trischaken: Stichzwang (beat the winning card if possible), then the Pagat restriction."""
    n = state[L.TRICK_N]
    restricted = legal
    if n > 0:
        trick = trick_mask(state)
        beat = beating_cards(legal, trick, SUIT_MASK_OF_CARD[state[L.TRICK_CARD]], TAROCKS)
        if opts[O_KAISERSTICH] != 0 and n == 2:
            if (trick & MOND_SKS) == MOND_SKS:
                beat = legal & T1_MASK  # the Pagat completes the Kaiserstich
            elif (trick & T1_MASK) != 0 and (trick & MOND_SKS) != 0:
                beat &= ~(MOND_SKS & ~trick)  # completing the trio gives the trick to the Pagat
        if beat != 0:
            restricted = beat
    if (restricted & T1_MASK) != 0 and (hand & OTHER_TAROCKS) != 0:
        restricted &= ~T1_MASK
        if restricted == 0:  # only the Pagat would beat: the Pagat restriction wins, Stichzwang lapses
            restricted = legal & ~T1_MASK
    return restricted


@njit(**KERNEL_INLINE)
def play_legal(state, opts):
    """Cards the seat to act may play now (Farbzwang and Tarockzwang; Trischaken restrictions)."""
    hand = state[L.HAND + state[L.CUR]]
    if state[L.TRICK_N] == 0:
        legal = hand
    else:
        legal = follow_or_trump(hand, SUIT_MASK_OF_CARD[state[L.TRICK_CARD]], TAROCKS)
    if state[L.TRISCHAKEN] != 0:
        legal = trischaken_restrict(legal, hand, state, opts)
    return legal


@njit(**KERNEL_INLINE)
def _legal_set(state, opts):
    """Body of :func:`legal_set` (inlined into the playout loop)."""
    phase = state[L.PHASE]
    if phase == L.PLAY:
        return L.OFF_PLAY, play_legal(state, opts)
    if phase == L.ANNOUNCE:
        return L.OFF_ANNOUNCE, announce_legal(state, opts)
    if phase == L.AUCTION:
        return L.OFF_AUCTION, auction_legal(state, opts)
    if phase == L.DISCARD:
        return L.OFF_DISCARD, discard_legal(state[L.HAND + state[L.DECLARER]], 3 - state[L.N_DISCARDS], opts)
    if phase == L.TALON:
        return L.OFF_TALON, np.int64(3)
    return 0, np.int64(0)


@njit(**KERNEL)
def legal_set(state, opts):
    """The legal actions as ``(offset, mask)``: action ``offset + i`` is legal iff bit ``i`` of mask is set."""
    return _legal_set(state, opts)


@njit(**KERNEL)
def legal_mask(state, opts, out):
    """Write the legal-action mask (bool[NUM_ACTIONS]) of ``state`` into ``out``."""
    out[:] = False
    offset, mask = legal_set(state, opts)
    while mask != 0:
        out[offset + lowest_index(mask)] = True
        mask &= mask - 1


@njit(**KERNEL)
def is_legal(state, action, opts):
    """True when ``action`` is legal in ``state``."""
    if action < 0 or action >= L.NUM_ACTIONS:
        return False
    offset, mask = legal_set(state, opts)
    i = action - offset
    return 0 <= i < 54 and ((mask >> i) & 1) != 0


# ---------------------------------------------------------------------------------------------------------
# phase transitions
# ---------------------------------------------------------------------------------------------------------
@njit(**KERNEL_INLINE)
def _finish(state, opts):
    score(state, opts)
    state[L.PHASE] = L.TERMINAL
    state[L.CUR] = -1


@njit(**KERNEL_INLINE)
def _start_play(state, opts):
    leader = (state[L.DEALER] + 1) % 3
    if opts[O_SOLO_DECL_LEADS] != 0 and state[L.CONTRACT] >= L.SOLO:
        leader = state[L.DECLARER]
    state[L.PHASE] = L.PLAY
    state[L.LEADER] = leader
    state[L.CUR] = leader
    state[L.TRICK_N] = 0


@njit(**KERNEL_INLINE)
def _start_announce(state):
    state[L.PHASE] = L.ANNOUNCE
    state[L.CUR] = state[L.DECLARER]
    state[L.GOODS] = 0


@njit(**KERNEL)
def _apply_call(state, action, opts):
    p = state[L.CUR]
    if action == L.A_PASS:
        state[L.PASSED] |= ONE << p
    elif action == L.A_HOLD:
        state[L.HOLDER] = p
    else:
        state[L.LEVEL] = action - L.A_BID
        state[L.HOLDER] = p
    state[L.SPOKEN] |= ONE << p
    state[L.N_CALLS] += 1
    level = state[L.LEVEL]
    passed = state[L.PASSED]
    if level == L.SOLO_VALAT or (level >= 1 and popcount(passed) == 2):
        d = state[L.HOLDER]
        state[L.DECLARER] = d
        state[L.CONTRACT] = level
        if level < L.SOLO:
            state[L.PHASE] = L.TALON
            state[L.CUR] = d
        else:
            state[L.DEF_TALON] = state[L.PACKET] | state[L.PACKET + 1]
            _start_announce(state)
    elif passed == 7:
        if opts[O_ALL_PASS] == ALL_PASS_TRISCHAKEN:
            state[L.TRISCHAKEN] = 1
            _start_play(state, opts)
        else:
            state[L.THROWN_IN] = 1
            _finish(state, opts)
    else:
        q = (p + 1) % 3
        if ((passed >> q) & 1) != 0:
            q = (q + 1) % 3
        state[L.CUR] = q


@njit(**KERNEL)
def _apply_announce(state, action, opts):
    p = state[L.CUR]
    if action == L.A_GOOD:
        state[L.HAD_TURN] |= ONE << p
        goods = state[L.GOODS] + 1
        state[L.GOODS] = goods
        if goods == 3:
            _start_play(state, opts)
        else:
            state[L.CUR] = (p + 1) % 3
    elif action < L.A_DOUBLE:
        state[L.ANN_BY + action - L.OFF_ANNOUNCE] = p
        state[L.GOODS] = 0
    else:
        state[L.KLEVEL + action - L.A_DOUBLE] += 1
        state[L.GOODS] = 0


@njit(**KERNEL_INLINE)
def _apply_play(state, card, opts):
    p = state[L.CUR]
    b = ONE << card
    state[L.HAND + p] &= ~b
    state[L.PLAYED_BY + p] |= b
    n = state[L.TRICK_N]
    state[L.TRICK_CARD + n] = card
    if card <= 2:
        state[L.BIRD_TRICK + card] = state[L.TRICK_NO] + 1
        state[L.BIRD_SEAT + card] = p
    if n > 0:
        led = SUIT_MASK_OF_CARD[state[L.TRICK_CARD]]
        if (b & led) == 0:  # did not follow: void in the led suit, and in tarocks too unless he played one
            state[L.VOIDS + p] |= led if (b & TAROCKS) != 0 else led | TAROCKS
    if n < 2:
        state[L.TRICK_N] = n + 1
        state[L.CUR] = (p + 1) % 3
        return
    c0 = state[L.TRICK_CARD]
    c1 = state[L.TRICK_CARD + 1]
    trick = (ONE << c0) | (ONE << c1) | b
    kaiser = opts[O_KAISERSTICH] != 0 and (trick & TRULL) == TRULL
    if kaiser:
        wcard = np.int64(0)
    else:
        wcard = winning_card(trick, SUIT_MASK_OF_CARD[c0], TAROCKS)
    leader = state[L.LEADER]
    if wcard == c0:
        winner = leader
    elif wcard == c1:
        winner = (leader + 1) % 3
    else:
        winner = p
    state[L.WON + winner] |= trick
    if wcard <= 2:
        state[L.BIRD_WON + wcard] = 1
    tn = state[L.TRICK_NO] + 1
    state[L.TRICK_NO] = tn
    state[L.TRICK_CARD] = -1
    state[L.TRICK_CARD + 1] = -1
    state[L.TRICK_CARD + 2] = -1
    state[L.TRICK_N] = 0
    d = state[L.DECLARER]
    if d >= 0:
        if winner == d:
            state[L.DECL_TRICKS] += 1
        if (trick & MOND_SKS) == MOND_SKS and not kaiser:
            s21 = (leader + (0 if c0 == 20 else (1 if c1 == 20 else 2))) % 3
            s22 = (leader + (0 if c0 == 21 else (1 if c1 == 21 else 2))) % 3
            if (s21 == d) != (s22 == d):
                state[L.MOND_SEAT] = s22
        if winner != d and state[L.CONTRACT] == L.SOLO_VALAT and opts[O_SV_EARLY_END] != 0:
            _finish(state, opts)
            return
    if tn == 16:
        _finish(state, opts)
        return
    state[L.LEADER] = winner
    state[L.CUR] = winner


@njit(**KERNEL_INLINE)
def _apply(state, action, opts):
    """Body of :func:`apply_unchecked` (inlined into the playout loop)."""
    h = state[L.HIST_LEN]
    if h < L.MAX_EPISODE_LENGTH:
        state[L.HIST + h] = action
    state[L.HIST_LEN] = h + 1
    phase = state[L.PHASE]
    if phase == L.PLAY:
        _apply_play(state, action - L.OFF_PLAY, opts)
    elif phase == L.ANNOUNCE:
        _apply_announce(state, action, opts)
    elif phase == L.AUCTION:
        _apply_call(state, action, opts)
    elif phase == L.DISCARD:
        card = action - L.OFF_DISCARD
        b = ONE << card
        d = state[L.DECLARER]
        state[L.HAND + d] &= ~b
        state[L.DISCARDS] |= b
        if card <= 21:
            state[L.DISCARDS_UP] |= b
        state[L.N_DISCARDS] += 1
        if state[L.N_DISCARDS] == 3:
            _start_announce(state)
    elif phase == L.TALON:
        i = action - L.A_TAKE_PACKET
        d = state[L.DECLARER]
        state[L.HAND + d] |= state[L.PACKET + i]
        state[L.DEF_TALON] = state[L.PACKET + 1 - i]
        state[L.TAKEN] = i
        state[L.PHASE] = L.DISCARD


@njit(**KERNEL)
def apply_unchecked(state, action, opts):
    """Apply a legal ``action`` (no legality check, no forced-move handling) and record it."""
    _apply(state, action, opts)


@njit(**KERNEL)
def auto_play_forced(state, opts):
    """With the option ``auto_play_forced``, apply every single-legal-action decision from here on."""
    if opts[O_AUTO_FORCED] == 0:
        return
    while state[L.PHASE] != L.TERMINAL:
        offset, mask = legal_set(state, opts)
        if (mask & (mask - 1)) != 0:
            return
        apply_unchecked(state, offset + lowest_index(mask), opts)


@njit(**KERNEL_INLINE)
def _step(state, action, opts):
    """Body of :func:`step` (inlined into the playout loop)."""
    _apply(state, action, opts)
    if opts[O_AUTO_FORCED] != 0:
        auto_play_forced(state, opts)


@njit(**KERNEL)
def step(state, action, opts):
    """Apply a legal action, then any forced decisions (no legality check)."""
    _step(state, action, opts)


@njit(**KERNEL)
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
@njit(**KERNEL)
def _score_trischaken(state, opts):
    p0 = thirds(state[L.WON]) // 3
    p1 = thirds(state[L.WON + 1]) // 3
    p2 = thirds(state[L.WON + 2]) // 3
    state[L.POINTS] = p0
    state[L.POINTS + 1] = p1
    state[L.POINTS + 2] = p2
    top = max(p0, max(p1, p2))
    n_losers = 0
    for s in range(3):
        if state[L.POINTS + s] == top:
            n_losers += 1
    v = opts[O_TRISCHAKEN_VALUE]
    for s in range(3):
        lost = state[L.POINTS + s] == top
        if n_losers == 1:
            state[L.RESULT + s] = -2 * v if lost else v
        elif n_losers == 2:
            state[L.RESULT + s] = -v if lost else 2 * v
        else:
            state[L.RESULT + s] = 0


@njit(**KERNEL)
def bird_items(state, opts, cancel, bonus_factor):
    """Net value of the bird items for the declarer's side (announced and silent)."""
    d = state[L.DECLARER]
    net = np.int64(0)
    for b in range(3):
        own_trick = state[L.BIRD_TRICK + b] == BIRD_TRICK_NO[b]
        won = own_trick and state[L.BIRD_WON + b] != 0
        by = state[L.ANN_BY + b]
        if by >= 0:
            v = (BIRD_ANNOUNCED_VALUE[b] << state[L.KLEVEL + 1 + b]) * bonus_factor
            net += v if (by == d) == won else -v
        elif not cancel and own_trick:
            v = BIRD_SILENT_VALUE[b] * bonus_factor
            decl_bird = state[L.BIRD_SEAT + b] == d
            if won:
                net += v if decl_bird else -v
            elif opts[O_SILENT_PENALTY] != 0:
                net += -v if decl_bird else v
    return net


@njit(**KERNEL)
def score(state, opts):
    """Fill ``POINTS`` and ``RESULT`` of a finished deal (the zero-sum settlement)."""
    if state[L.THROWN_IN] != 0 or state[L.VOID] != 0:
        return
    if state[L.TRISCHAKEN] != 0:
        _score_trischaken(state, opts)
        return
    d = state[L.DECLARER]
    f1 = (d + 1) % 3
    f2 = (d + 2) % 3
    decl_tricks = state[L.WON + d]
    def_tricks = state[L.WON + f1] | state[L.WON + f2]
    decl_pile = decl_tricks | state[L.DISCARDS]
    def_pile = def_tricks | state[L.DEF_TALON]
    t_decl = thirds(decl_pile)
    state[L.POINTS + d] = t_decl // 3
    state[L.POINTS + f1] = thirds(def_pile) // 3
    state[L.POINTS + f2] = state[L.POINTS + f1]
    level = state[L.CONTRACT]
    kgame = state[L.KLEVEL]
    net = np.int64(0)
    if level == L.SOLO_VALAT:
        v = GAME_VALUE[L.SOLO_VALAT] << kgame
        net = v if state[L.DECL_TRICKS] == 16 else -v
    else:
        g = GAME_VALUE[level]
        valat_side = 0  # +1 the declarer took every trick, -1 the defenders did
        if opts[O_VALAT_FACTOR] > 0:
            if state[L.DECL_TRICKS] == 16:
                valat_side = 1
            elif state[L.DECL_TRICKS] == 0:
                valat_side = -1
        if valat_side != 0:
            net = valat_side * ((g * opts[O_VALAT_FACTOR]) << kgame)
        else:
            v = g << kgame
            net = v if t_decl >= L.WIN_THIRDS else -v
        cancel = valat_side != 0 and opts[O_VALAT_CANCELS] != 0
        bf = opts[O_SOLO_BONUS] if level == L.SOLO else np.int64(1)
        net += bird_items(state, opts, cancel, bf)
        if not cancel:
            if opts[O_TRULL_PILES] != 0:
                dm = decl_pile
                fm = def_pile
            else:
                dm = decl_tricks
                fm = def_tricks
            bonus = TRULL_BONUS * bf
            if (dm & TRULL) == TRULL:
                net += bonus
            if (fm & TRULL) == TRULL:
                net -= bonus
            if (dm & KINGS) == KINGS:
                net += bonus
            if (fm & KINGS) == KINGS:
                net -= bonus
            ms = state[L.MOND_SEAT]
            if ms >= 0:
                net += bonus if ms == d else -bonus
    state[L.RESULT + d] = 2 * net
    state[L.RESULT + f1] = -net
    state[L.RESULT + f2] = -net


@njit(**KERNEL)
def returns(state, out):
    """Write the settlement (float64[3], zeros before the end) into ``out``."""
    terminal = state[L.PHASE] == L.TERMINAL
    for s in range(3):
        out[s] = state[L.RESULT + s] if terminal else 0


@njit(**KERNEL_INLINE)
def _random_action(state, opts, rng):
    """Body of :func:`random_action` (inlined into the playout loop)."""
    offset, mask = _legal_set(state, opts)
    if (mask & (mask - 1)) == 0:
        if mask == 0:
            return rng, np.int64(-1)
        return rng, offset + lowest_index(mask)
    rng, r = below(rng, popcount(mask))
    return rng, offset + select_bit(mask, r)


@njit(**KERNEL)
def random_action(state, opts, rng):
    """A uniformly random legal action; returns ``(new_rng, action)`` (action -1 when terminal).

    A single legal action is returned without drawing from the generator.
    """
    return _random_action(state, opts, rng)


# ---------------------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------------------
@njit(**KERNEL)
def talon_unassigned(state):
    """Talon cards that are in nobody's hand or pile (before the talon is used, Trischaken, throw-ins)."""
    if state[L.PHASE] == L.AUCTION or state[L.PHASE] == L.TALON or state[L.DECLARER] < 0:
        return state[L.PACKET] | state[L.PACKET + 1]
    return np.int64(0)


# invariants: one named check per rule, each returning 0 or its code of the shared table (engine/invariants.py)
@njit(**KERNEL)
def check_layout(state, opts):
    """LAYOUT: the row carries this game's layout tag and a known phase."""
    if state[L.MAGIC] != L.LAYOUT_MAGIC or state[L.PHASE] < L.AUCTION or state[L.PHASE] > L.TERMINAL:
        return INV.LAYOUT
    return 0


@njit(**KERNEL)
def check_cards(state, opts):
    """CARDS: every one of the 54 cards lies in exactly one place (hands, piles, talon, discards, trick)."""
    seen = np.int64(0)
    total = np.int64(0)
    for s in range(3):
        seen |= state[L.HAND + s] | state[L.WON + s]
        total += popcount(state[L.HAND + s]) + popcount(state[L.WON + s])
    others = (talon_unassigned(state), state[L.DEF_TALON], state[L.DISCARDS], trick_mask(state))
    for m in others:
        seen |= m
        total += popcount(m)
    return INV.CARDS if seen != ALL or total != 54 else 0


@njit(**KERNEL)
def check_legal_set(state, opts):
    """LEGAL_SET: the legal set is empty exactly at the end of the deal."""
    offset, mask = legal_set(state, opts)
    return INV.LEGAL_SET if (state[L.PHASE] == L.TERMINAL) == (mask != 0) else 0


@njit(**KERNEL)
def check_history_length(state, opts):
    """TOO_MANY_ACTIONS: the history is within the episode bound."""
    return INV.TOO_MANY_ACTIONS if state[L.HIST_LEN] > L.MAX_EPISODE_LENGTH else 0


@njit(**KERNEL)
def check_seat_to_act(state, opts):
    """NO_SEAT_TO_ACT: a seat is to act exactly while the deal runs."""
    if state[L.PHASE] == L.TERMINAL:
        return INV.NO_SEAT_TO_ACT if state[L.CUR] != -1 else 0
    return INV.NO_SEAT_TO_ACT if state[L.CUR] < 0 or state[L.CUR] > 2 else 0


@njit(**KERNEL)
def check_counts(state, opts):
    """COUNTS: one card played per seat and finished trick (plus the current trick), and hand sizes to match."""
    phase = state[L.PHASE]
    for s in range(3):
        n = popcount(state[L.PLAYED_BY + s])
        expected = state[L.TRICK_NO]
        if phase == L.PLAY and (s - state[L.LEADER]) % 3 < state[L.TRICK_N]:
            expected += 1
        if n != expected:
            return INV.COUNTS
        size = 16 - n
        if s == state[L.DECLARER] and (phase == L.DISCARD):
            size += 3 - state[L.N_DISCARDS]
        if popcount(state[L.HAND + s]) != size:
            return INV.COUNTS
    return 0


@njit(**KERNEL)
def check_voids(state, opts):
    """VOIDS: no hand holds a card of a suit its seat has shown to lack."""
    for s in range(3):
        if (state[L.HAND + s] & state[L.VOIDS + s]) != 0:
            return INV.VOIDS
    return 0


@njit(**KERNEL)
def check_auction(state, opts):
    """AUCTION: in the auction, the seat to act is neither the holder nor out, and the level is a bid."""
    if state[L.PHASE] != L.AUCTION:
        return 0
    if state[L.CUR] == state[L.HOLDER] or ((state[L.PASSED] >> state[L.CUR]) & 1) != 0:
        return INV.AUCTION
    return INV.AUCTION if state[L.LEVEL] >= L.SOLO_VALAT else 0


@njit(**KERNEL)
def check_final_accounts(state, opts):
    """SETTLEMENT, POINTS, FINAL_SHAPE at the end: zero-sum, all card points counted, a deal of a possible length."""
    if state[L.PHASE] != L.TERMINAL:
        return 0
    if state[L.RESULT] + state[L.RESULT + 1] + state[L.RESULT + 2] != 0:
        return INV.SETTLEMENT
    hl = state[L.HIST_LEN]
    if state[L.VOID] != 0:
        return 0 if hl == 0 else INV.FINAL_SHAPE
    if state[L.THROWN_IN] != 0:
        return 0 if hl == 3 and state[L.RESULT] == 0 and state[L.RESULT + 1] == 0 else INV.FINAL_SHAPE
    plays = popcount(state[L.PLAYED_BY]) + popcount(state[L.PLAYED_BY + 1]) + popcount(state[L.PLAYED_BY + 2])
    if state[L.TRISCHAKEN] != 0:
        talon = state[L.PACKET] | state[L.PACKET + 1]
        pts = state[L.POINTS] + state[L.POINTS + 1] + state[L.POINTS + 2]
        if 3 * pts + thirds(talon) != 210:
            return INV.POINTS
        return INV.FINAL_SHAPE if hl != 51 or plays != 48 else 0
    d = state[L.DECLARER]
    left = state[L.HAND] | state[L.HAND + 1] | state[L.HAND + 2]
    if 3 * (state[L.POINTS + d] + state[L.POINTS + (d + 1) % 3]) + thirds(left) != 210:
        return INV.POINTS
    if plays != 48:
        if not (state[L.CONTRACT] == L.SOLO_VALAT and plays % 3 == 0 and state[L.DECL_TRICKS] * 3 + 3 == plays):
            return INV.FINAL_SHAPE
    return 0


@njit(**KERNEL)
def check_invariants(state, opts):
    """0 when the state is consistent, otherwise the code of the first broken invariant.

    Runs the named checks above in order (codes of the shared table :mod:`tarockrl.engine.invariants`).
    """
    code = check_layout(state, opts)
    if code == 0:
        code = check_cards(state, opts)
    if code == 0:
        code = check_legal_set(state, opts)
    if code == 0:
        code = check_history_length(state, opts)
    if code == 0:
        code = check_seat_to_act(state, opts)
    if code == 0:
        code = check_counts(state, opts)
    if code == 0:
        code = check_voids(state, opts)
    if code == 0:
        code = check_auction(state, opts)
    if code == 0:
        code = check_final_accounts(state, opts)
    return code


# ---------------------------------------------------------------------------------------------------------
# the rest of the kernel contract (tarockrl.games.contract): what the generated drivers call
# ---------------------------------------------------------------------------------------------------------
SCRATCH_LEN = 54
LEGAL_WORDS = 1


@njit(**KERNEL)
def deal_rng(state, seed, deal_id, opts, scratch):
    """Deal ``deal(seed, deal_id)`` into ``state`` (``scratch``: int64[54]); returns the playout's stream."""
    return deal_with_rng(state, stream_seed(seed, deal_id), scratch, opts)


@njit(**KERNEL)
def legal_words(state, opts, out):
    """The legal actions as one ``(offset, mask)`` pair in ``out[0], out[1]``."""
    offset, mask = _legal_set(state, opts)
    out[0] = offset
    out[1] = mask


@njit(**KERNEL_INLINE)
def random_step(state, opts, rng):
    """``random_action`` then ``step``, both inlined; returns the rng."""
    rng, a = _random_action(state, opts, rng)
    _step(state, a, opts)
    return rng
