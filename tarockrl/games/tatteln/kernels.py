"""Tatteln rule kernels (numba, int64 only): deal, legal actions, apply, scoring, invariants.

Every kernel takes the state row (``int64[state_len]``, see :mod:`.layout`) and the encoded rules options
(``int64[NUM_OPTION_SLOTS]``, see :mod:`.rules`). Kernels never raise: ``apply_action`` returns a status code and
leaves the row untouched when the action is illegal.

The legal actions of a state fit one int64 word: bit ``a`` is set iff action ``a`` is legal (``PLAY(c) = c``,
``ANNOUNCE_SEQ = N``, ``ANNOUNCE_SET = N + 1``, ``ROB = N + 2``), so ``legal_set`` returns that word.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine import invariants as INV
from tarockrl.engine.bits import nth_set_index, popcount
from tarockrl.engine.rng import below, shuffle_prefix, stream_seed
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import ALL_CARDS, HIGHER, STRENGTH, SUIT_MASK, SUIT_OF, SUIT_POINTS
from tarockrl.games.tatteln.fastplay import WORK_LEN, play_random_deal
from tarockrl.games.tatteln.melds import (
    SEQ,
    SEQ_BEST,
    SEQ_HELD,
    best_seq_key,
    best_set_key,
    has_unscored_seq,
    meld_cfg,
    set_atoms,
    set_atoms_value,
    set_ranks,
    spread_ranks,
    window_cards,
    windows_value,
)
from tarockrl.games.tatteln.rules import (
    O_BLOCKER,
    O_BONUS,
    O_DECK,
    O_HAND,
    O_IN_FINAL,
    O_MATSCH,
    O_MATSCH_FORFEIT,
    O_MATSCH_MULT,
    O_MUST_HEAD,
    O_MUST_TRUMP,
    O_NO_TRUMP,
    O_ONLY_LEAD,
    O_REWARD,
    O_ROB,
    O_TIE_TRUMP,
    REWARD_POINTS,
)

ONE = np.int64(1)
M32 = np.int64(0xFFFFFFFF)
LAST_TRICK_BONUS = 10


# ---------------------------------------------------------------------------------------------------------------
# small accessors
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def pack_index(opts):
    """0 for the 32-card pack, 1 for 36 cards."""
    return 1 if opts[O_DECK] == 36 else 0


@njit(cache=True, inline="always")
def hist_capacity(opts):
    """6K - 7 = 3N - 7 actions."""
    return 3 * opts[O_DECK] - 7


@njit(cache=True, inline="always")
def state_len(opts):
    """Slots of a row for these options."""
    return L.HIST + 3 * opts[O_DECK] - 7


@njit(cache=True, inline="always")
def deck_card(state, i):
    """``d[i]`` of the stored shuffle."""
    return (state[L.DECK + i // 10] >> (6 * (i % 10))) & 63


@njit(cache=True)
def stock_card(state, i, opts):
    """The ``i``-th card of the draw list STOCK (0 = the top card; the last one is the face-up bottom card)."""
    h2 = 2 * opts[O_HAND]
    if state[L.TRUMP] >= 0:
        if i == opts[O_DECK] - h2 - 1:
            return state[L.BOTTOM]
        return deck_card(state, h2 + 1 + i)
    return deck_card(state, h2 + i)


@njit(cache=True, inline="always")
def stock_left(state, opts):
    """Cards still in the stock (the face-up bottom card included)."""
    return opts[O_DECK] - 2 * opts[O_HAND] - state[L.STOCK_POS]


@njit(cache=True)
def stock_mask(state, opts):
    """The cards still in the stock."""
    m = np.int64(0)
    sl = opts[O_DECK] - 2 * opts[O_HAND]
    for i in range(state[L.STOCK_POS], sl):
        m |= ONE << stock_card(state, i, opts)
    return m


@njit(cache=True, inline="always")
def robber(state):
    """Seat that robbed the turn-up, -1 if nobody."""
    return ((state[L.EVENTS] >> L.EV_ROBBER_SHIFT) & 3) - 1


@njit(cache=True, inline="always")
def bottom_drawer(state):
    """Seat that drew the face-up bottom card at the end of the stock, -1 if not yet."""
    return ((state[L.EVENTS] >> L.EV_DRAWER_SHIFT) & 3) - 1


@njit(cache=True, inline="always")
def matsched(state):
    """The matsched seat at the end, -1 if none."""
    return ((state[L.EVENTS] >> L.EV_MATSCH_SHIFT) & 3) - 1


@njit(cache=True, inline="always")
def multiplier(state):
    """Settlement multiplier at the end (0 before)."""
    return (state[L.EVENTS] >> L.EV_MULT_SHIFT) & 0xFFFFF


@njit(cache=True, inline="always")
def trio_scored(state, p):
    """r-pattern of the ranks whose trio seat ``p`` has scored."""
    return (state[L.SETS] >> (18 * p)) & 511


@njit(cache=True, inline="always")
def four_scored(state, p):
    """r-pattern of the ranks whose four seat ``p`` has scored."""
    return (state[L.SETS] >> (18 * p + 9)) & 511


@njit(cache=True, inline="always")
def scored_suit_windows(state, p, s):
    """Local ids of the windows of suit ``s`` that seat ``p`` has scored."""
    return (state[L.SCORED + 2 * p + (s >> 1)] >> (32 * (s & 1))) & M32


@njit(cache=True, inline="always")
def last_trick_winner(state):
    """Winner of the last completed trick, -1 if none."""
    lt = state[L.LAST_TRICK]
    if lt == 0:
        return np.int64(-1)
    return (lt >> L.LT_WINNER_SHIFT) & 1


# ---------------------------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def init_from_deck(state, deck, dealer, opts):
    """Fill ``state`` with the start of a deal from the shuffle ``deck[0..N-1]`` and the dealer."""
    state[:] = 0
    n = opts[O_DECK]
    r = n // 4
    h2 = 2 * opts[O_HAND]
    state[L.MAGIC] = L.LAYOUT_MAGIC
    for i in range(n):
        state[L.DECK + i // 10] |= deck[i] << (6 * (i % 10))
    fh = 1 - dealer
    for i in range(h2):
        seat = fh if i % 2 == 0 else dealer
        state[L.HAND + seat] |= ONE << deck[i]
    if opts[O_NO_TRUMP] != 0:
        state[L.TRUMP] = -1
        state[L.BOTTOM] = -1
    else:
        state[L.TRUMP] = deck[h2] // r
        state[L.BOTTOM] = deck[h2]
    state[L.DEALER] = dealer
    state[L.LEADER] = fh
    state[L.CUR] = fh
    state[L.LED] = -1
    state[L.PHASE] = L.STOCK_PHASE


@njit(cache=True)
def deal_with_rng(state, rng, opts, perm):
    """Deal a uniformly random deal (dealer included) from generator ``rng``; ``perm`` is int64 scratch (>= N).

    Returns the advanced generator.
    """
    n = opts[O_DECK]
    rng, dealer = below(rng, 2)
    for i in range(n):
        perm[i] = i
    rng = shuffle_prefix(rng, perm, n)
    init_from_deck(state, perm, dealer, opts)
    return rng


@njit(cache=True)
def deal(state, seed, deal_id, opts):
    """Deal number ``deal_id`` of ``seed`` into ``state`` (a pure function of the two numbers)."""
    perm = np.empty(36, dtype=np.int64)
    deal_with_rng(state, stream_seed(seed, deal_id), opts, perm)


# ---------------------------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def legal_cards(state, p, opts):
    """Cards seat ``p`` may play now (docs/rules/tatteln.md §5.2)."""
    h = state[L.HAND + p]
    led = state[L.LED]
    if led < 0 or state[L.PHASE] != L.FINAL_PHASE:
        return h
    d = pack_index(opts)
    t1 = state[L.TRUMP] + 1
    same = h & SUIT_MASK[d, SUIT_OF[d, led]]
    if same != 0:
        if opts[O_MUST_HEAD] != 0:
            higher = same & HIGHER[d, t1, led]
            if higher != 0:
                return higher
        return same
    if opts[O_MUST_TRUMP] != 0 and t1 > 0:
        trumps = h & SUIT_MASK[d, t1 - 1]
        if trumps != 0:
            return trumps
    return h


@njit(cache=True)
def legal_set(state, opts):
    """The legal actions as one mask: bit ``a`` set iff action ``a`` is legal (0 at the end)."""
    if state[L.PHASE] == L.TERMINAL:
        return np.int64(0)
    p = state[L.CUR]
    m = legal_cards(state, p, opts)
    if opts[O_ONLY_LEAD] != 0 and (p != state[L.LEADER] or state[L.LED] >= 0):
        return m
    d = pack_index(opts)
    r = 8 + d
    n = 4 * r
    flags = state[L.FLAGS]
    hand = state[L.HAND + p]
    if opts[O_IN_FINAL] != 0 or state[L.PHASE] == L.STOCK_PHASE:
        if (flags & L.F_SEQ) == 0:
            if has_unscored_seq(hand, state[L.SCORED + 2 * p], state[L.SCORED + 2 * p + 1], meld_cfg(opts, d), r):
                m |= ONE << n
        if (flags & L.F_SET) == 0:
            sets = state[L.SETS] >> (18 * p)
            trio_av, four_av = set_atoms(hand, sets & 511, (sets >> 9) & 511, r, set_ranks(opts, d))
            if (trio_av | four_av) != 0:
                m |= ONE << (n + 1)
    if (flags & L.F_ROB) == 0 and opts[O_ROB] != 0:
        trump = state[L.TRUMP]
        if trump >= 0 and state[L.STOCK_POS] < n - 2 * opts[O_HAND] and ((hand >> (r * trump)) & 1) != 0:
            m |= ONE << (n + 2)
    return m


@njit(cache=True)
def legal_mask(state, opts, out):
    """Write the legal-action mask (bool[N + 3]) of ``state`` into ``out``."""
    m = legal_set(state, opts)
    for a in range(out.shape[0]):
        out[a] = ((m >> a) & 1) != 0


@njit(cache=True)
def is_legal(state, action, opts):
    """True when ``action`` is legal in ``state``."""
    if action < 0 or action >= opts[O_DECK] + 3:
        return False
    return ((legal_set(state, opts) >> action) & 1) != 0


# ---------------------------------------------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def trick_winner(lead, follow, leader, trump, d):
    """Winner of a trick (docs/rules/tatteln.md §5.3).

    The follower wins by beating the led suit or by trumping a plain lead.
    """
    t1 = trump + 1
    ls = SUIT_OF[d, lead]
    fs = SUIT_OF[d, follow]
    if fs == ls:
        follower_wins = STRENGTH[d, t1, follow] > STRENGTH[d, t1, lead]
    else:
        follower_wins = fs == trump
    return 1 - leader if follower_wins else leader


@njit(cache=True)
def _apply_play(state, card, opts):
    p = state[L.CUR]
    b = ONE << card
    state[L.HAND + p] &= ~b
    state[L.PLAYED + p] |= b
    state[L.REVEALED + p] &= ~b
    state[L.FLAGS] = 0
    lead = state[L.LED]
    if lead < 0:
        state[L.LED] = card
        state[L.CUR] = 1 - p
        return
    n = opts[O_DECK]
    d = 1 if n == 36 else 0
    leader = state[L.LEADER]
    winner = trick_winner(lead, card, leader, state[L.TRUMP], d)
    loser = 1 - winner
    state[L.WON + winner] |= b | (ONE << lead)
    if state[L.PHASE] == L.FINAL_PHASE:
        state[L.FINAL_WON + winner] += 1
    tricks = state[L.TRICKS] + 1
    state[L.TRICKS] = tricks
    state[L.LAST_TRICK] = (
        ((lead + 1) << L.LT_LEAD_SHIFT)
        | ((card + 1) << L.LT_FOLLOW_SHIFT)
        | (leader << L.LT_LEADER_SHIFT)
        | (winner << L.LT_WINNER_SHIFT)
    )
    state[L.LED] = -1
    if tricks == n // 2:
        score(state, opts)
        state[L.PHASE] = L.TERMINAL
        state[L.CUR] = -1
        return
    sl = n - 2 * opts[O_HAND]
    pos = state[L.STOCK_POS]
    if pos < sl:
        c1 = stock_card(state, pos, opts)
        c2 = stock_card(state, pos + 1, opts)
        state[L.HAND + winner] |= ONE << c1
        state[L.HAND + loser] |= ONE << c2
        pos += 2
        state[L.STOCK_POS] = pos
        if pos == sl:
            state[L.PHASE] = L.FINAL_PHASE
            if state[L.TRUMP] >= 0:  # the loser drew the face-up bottom card: it is public
                state[L.REVEALED + loser] |= ONE << c2
                state[L.BOTTOM] = -1
                state[L.EVENTS] |= (loser + 1) << L.EV_DRAWER_SHIFT
    state[L.LEADER] = winner
    state[L.CUR] = winner


@njit(cache=True)
def _apply_rob(state, opts):
    p = state[L.CUR]
    r = opts[O_DECK] // 4
    seven = r * state[L.TRUMP]
    taken = state[L.BOTTOM]
    state[L.HAND + p] = (state[L.HAND + p] & ~(ONE << seven)) | (ONE << taken)
    state[L.REVEALED + p] = (state[L.REVEALED + p] & ~(ONE << seven)) | (ONE << taken)
    state[L.BOTTOM] = seven
    state[L.EVENTS] |= (p + 1) << L.EV_ROBBER_SHIFT
    state[L.FLAGS] |= L.F_ROB


@njit(cache=True)
def score_seq_atoms(state, q, opts):
    """Seat ``q`` scores every held, unscored window: mark them, reveal their cards; returns the points."""
    d = pack_index(opts)
    r = 8 + d
    cfg = meld_cfg(opts, d)
    rm = (ONE << r) - 1
    hand = state[L.HAND + q]
    total = np.int64(0)
    rev = np.int64(0)
    for s in range(4):
        slot = L.SCORED + 2 * q + (s >> 1)
        sh = 32 * (s & 1)
        u = SEQ_HELD[cfg, (hand >> (r * s)) & rm] & ~((state[slot] >> sh) & M32)
        if u != 0:
            total += windows_value(u, cfg, opts)
            state[slot] |= u << sh
            rev |= window_cards(u, s, cfg, r)
    state[L.MELD + q] += total
    state[L.REVEALED + q] |= rev
    return total


@njit(cache=True)
def score_set_atoms(state, q, opts):
    """Seat ``q`` scores every available trio and four: mark them, reveal their cards; returns the points."""
    d = pack_index(opts)
    r = 8 + d
    hand = state[L.HAND + q]
    sh = 18 * q
    sets = state[L.SETS]
    trio_sc = (sets >> sh) & 511
    four_sc = (sets >> (sh + 9)) & 511
    trio_av, four_av = set_atoms(hand, trio_sc, four_sc, r, set_ranks(opts, d))
    v = set_atoms_value(trio_av, four_av, trio_sc, opts)
    trio_sc |= trio_av | four_av
    four_sc |= four_av
    state[L.SETS] = (sets & ~(np.int64(0x3FFFF) << sh)) | (trio_sc << sh) | (four_sc << (sh + 9))
    state[L.REVEALED + q] |= spread_ranks(trio_av | four_av, r) & hand
    state[L.MELD + q] += v
    return v


@njit(cache=True)
def _apply_announce(state, cls, opts):
    p = state[L.CUR]
    o = 1 - p
    d = pack_index(opts)
    r = 8 + d
    hp = state[L.HAND + p]
    ho = state[L.HAND + o]
    if cls == SEQ:
        state[L.FLAGS] |= L.F_SEQ
        cfg = meld_cfg(opts, d)
        ka = best_seq_key(hp, cfg, r)
        kb = best_seq_key(ho, cfg, r)
    else:
        state[L.FLAGS] |= L.F_SET
        elig = set_ranks(opts, d)
        ka = best_set_key(hp, d, r, elig)
        kb = best_set_key(ho, d, r, elig)
    if ka > kb:
        winner = p
    elif ka < kb:
        winner = o
    else:
        winner = -1
        trump = state[L.TRUMP]
        if cls == SEQ and opts[O_TIE_TRUMP] != 0 and trump >= 0:
            cfg = meld_cfg(opts, d)
            rm = (ONE << r) - 1
            if SEQ_BEST[cfg, (hp >> (r * trump)) & rm] == ka:
                winner = p
            elif SEQ_BEST[cfg, (ho >> (r * trump)) & rm] == kb:
                winner = o
    pts = np.int64(0)
    if winner == p:
        outcome = L.OUT_GOOD
        pts = score_seq_atoms(state, p, opts) if cls == SEQ else score_set_atoms(state, p, opts)
    elif winner == o:
        outcome = L.OUT_NOT_GOOD
        if opts[O_BLOCKER] != 0:
            pts = score_seq_atoms(state, o, opts) if cls == SEQ else score_set_atoms(state, o, opts)
    else:
        outcome = L.OUT_EQUAL
    count = min((state[L.ANN] & 255) + 1, 255)
    state[L.ANN] = (
        (count << L.ANN_COUNT_SHIFT)
        | (p << L.ANN_BY_SHIFT)
        | (cls << L.ANN_CLASS_SHIFT)
        | (outcome << L.ANN_OUTCOME_SHIFT)
        | (ka << L.ANN_KA_SHIFT)
        | (kb << L.ANN_KB_SHIFT)
    )
    if winner == 1:
        state[L.ANN_PTS] = pts << 32
    else:
        state[L.ANN_PTS] = pts  # seat 0 scored (or nobody: 0)


@njit(cache=True)
def apply_unchecked(state, action, opts):
    """Apply a legal ``action`` (no legality check) and record it in the history."""
    h = state[L.HIST_LEN]
    if h < hist_capacity(opts):
        state[L.HIST + h] = action
    state[L.HIST_LEN] = h + 1
    n = opts[O_DECK]
    if action < n:
        _apply_play(state, action, opts)
    elif action == n + 2:
        _apply_rob(state, opts)
    else:
        _apply_announce(state, action - n, opts)


@njit(cache=True)
def step(state, action, opts):
    """Apply a legal action (no legality check)."""
    apply_unchecked(state, action, opts)


@njit(cache=True)
def apply_action(state, action, opts):
    """Apply ``action`` if legal and return ``OK``; otherwise return ``ILLEGAL`` / ``GAME_OVER`` untouched."""
    if state[L.PHASE] == L.TERMINAL:
        return L.GAME_OVER
    if not is_legal(state, action, opts):
        return L.ILLEGAL
    apply_unchecked(state, action, opts)
    return L.OK


@njit(cache=True)
def random_action(state, opts, rng):
    """A uniformly random legal action; returns ``(new_rng, action)`` (action -1 at the end)."""
    m = legal_set(state, opts)
    k = popcount(m)
    if k == 0:
        return rng, np.int64(-1)
    rng, i = below(rng, k)
    return rng, nth_set_index(m, i)


# ---------------------------------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------------------------------
@njit(cache=True)
def card_points(mask, trump, opts):
    """Card points of a set of cards (trump jack 20 / nine 14 with the bonus option)."""
    d = pack_index(opts)
    r = 8 + d
    rm = (ONE << r) - 1
    bonus = opts[O_BONUS] != 0
    total = np.int64(0)
    for s in range(4):
        kind = 1 if (s == trump and bonus) else 0
        total += SUIT_POINTS[d, kind, (mask >> (r * s)) & rm]
    return total


@njit(cache=True)
def pile_points(state, p, opts):
    """Card points in seat ``p``'s pile, plus 10 for the last trick once the deal is over."""
    pts = card_points(state[L.WON + p], state[L.TRUMP], opts)
    if state[L.TRICKS] == opts[O_DECK] // 2 and last_trick_winner(state) == p:
        pts += LAST_TRICK_BONUS
    return pts


@njit(cache=True)
def deal_points(state, opts):
    """``(Dadj[0], Dadj[1], matsched seat or -1, multiplier)`` of a finished deal (docs/rules/tatteln.md §6.1-6.3)."""
    d0 = pile_points(state, 0, opts) + state[L.MELD]
    d1 = pile_points(state, 1, opts) + state[L.MELD + 1]
    mult = np.int64(1)
    x = np.int64(-1)
    if opts[O_MATSCH] != 0:
        for seat in range(2):
            if state[L.FINAL_WON + seat] == 0:
                x = seat
                mult = opts[O_MATSCH_MULT]
                if opts[O_MATSCH_FORFEIT] != 0:
                    if seat == 0:
                        d0 = 0
                    else:
                        d1 = 0
    return d0, d1, x, mult


@njit(cache=True)
def score(state, opts):
    """Fill ``RESULT`` (the zero-sum settlement) and the Matsch facts of a finished deal."""
    d0, d1, x, mult = deal_points(state, opts)
    diff = d0 - d1
    if opts[O_REWARD] == REWARD_POINTS:
        s = mult * diff
    else:
        s = mult * (1 if diff > 0 else (-1 if diff < 0 else 0))
    state[L.RESULT] = s
    state[L.RESULT + 1] = -s
    state[L.EVENTS] = (state[L.EVENTS] & ((ONE << L.EV_MATSCH_SHIFT) - 1)) | ((x + 1) << L.EV_MATSCH_SHIFT) | (
        mult << L.EV_MULT_SHIFT
    )


@njit(cache=True)
def returns(state, out):
    """Write the settlement (float64[2], zeros before the end) into ``out``."""
    for s in range(2):
        out[s] = state[L.RESULT + s] if state[L.PHASE] == L.TERMINAL else 0


# ---------------------------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------------------------
# invariants: one named check per rule, each returning 0 or its code of the shared table (engine/invariants.py).
# No arrays in these kernels: the generated sweep driver calls them with numba's reference counting off.
@njit(cache=True)
def check_layout(state, opts):
    """LAYOUT: the layout tag, phase, dealer, counters, seats and card codes are in range."""
    n = opts[O_DECK]
    sl = n - 2 * opts[O_HAND]
    if state[L.MAGIC] != L.LAYOUT_MAGIC:
        return INV.LAYOUT
    phase = state[L.PHASE]
    if phase < 0 or phase > L.TERMINAL or state[L.DEALER] < 0 or state[L.DEALER] > 1:
        return INV.LAYOUT
    tricks = state[L.TRICKS]
    pos = state[L.STOCK_POS]
    if tricks < 0 or tricks > n // 2 or pos < 0 or pos > sl or pos % 2 != 0:
        return INV.LAYOUT
    if phase != L.TERMINAL:
        if state[L.CUR] < 0 or state[L.CUR] > 1 or state[L.LEADER] < 0 or state[L.LEADER] > 1:
            return INV.LAYOUT
        if state[L.LED] < -1 or state[L.LED] >= n:
            return INV.LAYOUT
    for i in range(n):
        if deck_card(state, i) >= n:
            return INV.LAYOUT
    return 0


@njit(cache=True)
def check_cards(state, opts):
    """CARDS: every card in exactly one place (hands, stock, piles, the led card), played cards in the piles."""
    n = opts[O_DECK]
    led = (ONE << state[L.LED]) if state[L.LED] >= 0 else np.int64(0)
    seen = np.int64(0)
    for i in range(6):
        if i == 0:
            place = state[L.HAND]
        elif i == 1:
            place = state[L.HAND + 1]
        elif i == 2:
            place = stock_mask(state, opts)
        elif i == 3:
            place = state[L.WON]
        elif i == 4:
            place = state[L.WON + 1]
        else:
            place = led
        if (seen & place) != 0:
            return INV.CARDS
        seen |= place
    if seen != ALL_CARDS[1 if n == 36 else 0]:
        return INV.CARDS
    if (state[L.PLAYED] & state[L.PLAYED + 1]) != 0 or (state[L.PLAYED] | state[L.PLAYED + 1]) != (
        state[L.WON] | state[L.WON + 1] | led
    ):
        return INV.CARDS
    return 0


@njit(cache=True)
def check_legal_set(state, opts):
    """LEGAL_SET: legal cards exist exactly while the deal runs."""
    terminal = state[L.PHASE] == L.TERMINAL
    m = legal_set(state, opts)
    if terminal == (m != 0):
        return INV.LEGAL_SET
    if not terminal and (m & ALL_CARDS[1 if opts[O_DECK] == 36 else 0]) == 0:
        return INV.LEGAL_SET
    return 0


@njit(cache=True)
def check_history_length(state, opts):
    """TOO_MANY_ACTIONS: the history length is within its capacity."""
    return INV.TOO_MANY_ACTIONS if state[L.HIST_LEN] > hist_capacity(opts) or state[L.HIST_LEN] < 0 else 0


@njit(cache=True)
def check_counts(state, opts):
    """COUNTS and STOCK: piles, stock position and hand sizes agree with the number of tricks."""
    n = opts[O_DECK]
    sl = n - 2 * opts[O_HAND]
    terminal = state[L.PHASE] == L.TERMINAL
    tricks = state[L.TRICKS]
    pos = state[L.STOCK_POS]
    won = popcount(state[L.WON] | state[L.WON + 1])
    if won != 2 * tricks:
        return INV.COUNTS
    if pos != 2 * min(tricks, sl // 2):
        return INV.STOCK
    in_hands = n - won - (sl - pos)
    if in_hands % 2 != 0:
        return INV.COUNTS
    for seat in range(2):
        leading = (not terminal) and state[L.LED] >= 0 and seat == state[L.LEADER]
        if popcount(state[L.HAND + seat]) != in_hands // 2 - (1 if leading else 0):
            return INV.COUNTS
        if popcount(state[L.PLAYED + seat]) != tricks + (1 if leading else 0):
            return INV.COUNTS
    return 0


@njit(cache=True)
def check_phase(state, opts):
    """STOCK and FINAL_SHAPE: the final phase starts exactly when the stock is gone; a finished deal has all tricks."""
    n = opts[O_DECK]
    sl = n - 2 * opts[O_HAND]
    if state[L.PHASE] != L.TERMINAL:
        if (state[L.PHASE] == L.FINAL_PHASE) != (state[L.STOCK_POS] == sl):
            return INV.STOCK
        return INV.STOCK if state[L.TRICKS] >= n // 2 else 0
    return INV.FINAL_SHAPE if state[L.TRICKS] != n // 2 else 0


@njit(cache=True)
def check_melds(state, opts):
    """REVEALED and POINTS: shown cards are still in their owner's hand; meld points are not negative."""
    for seat in range(2):
        if (state[L.REVEALED + seat] & ~state[L.HAND + seat]) != 0:
            return INV.REVEALED
        if state[L.MELD + seat] < 0:
            return INV.POINTS
    return 0


@njit(cache=True)
def check_final_tricks(state, opts):
    """FINAL_TRICKS: the tricks won in the final phase add up to the tricks played after the stock."""
    sl = opts[O_DECK] - 2 * opts[O_HAND]
    return INV.FINAL_TRICKS if state[L.FINAL_WON] + state[L.FINAL_WON + 1] != max(0, state[L.TRICKS] - sl // 2) else 0


@njit(cache=True)
def check_results(state, opts):
    """SETTLEMENT, POINTS, FINAL_SHAPE: no result before the end; at the end zero-sum, all points counted."""
    n = opts[O_DECK]
    if state[L.PHASE] != L.TERMINAL:
        return INV.SETTLEMENT if state[L.RESULT] != 0 or state[L.RESULT + 1] != 0 else 0
    if state[L.RESULT] + state[L.RESULT + 1] != 0:
        return INV.SETTLEMENT
    total = card_points(ALL_CARDS[1 if n == 36 else 0], state[L.TRUMP], opts)
    if pile_points(state, 0, opts) + pile_points(state, 1, opts) != total + LAST_TRICK_BONUS:
        return INV.POINTS
    if popcount(state[L.PLAYED]) + popcount(state[L.PLAYED + 1]) != n:
        return INV.FINAL_SHAPE
    return INV.FINAL_SHAPE if state[L.HIST_LEN] < n else 0


@njit(cache=True)
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
        code = check_counts(state, opts)
    if code == 0:
        code = check_phase(state, opts)
    if code == 0:
        code = check_melds(state, opts)
    if code == 0:
        code = check_final_tricks(state, opts)
    if code == 0:
        code = check_results(state, opts)
    return code


# ---------------------------------------------------------------------------------------------------------------
# the rest of the kernel contract (tarockrl.games.contract): what the generated drivers call
# ---------------------------------------------------------------------------------------------------------------
LEGAL_WORDS = 1
SCRATCH_LEN = 36 + WORK_LEN  # a shuffle of the largest pack, then play_random_deal's work array


@njit(cache=True)
def deal_rng(state, seed, deal_id, opts, scratch):
    """Deal ``deal(seed, deal_id)`` into ``state``; returns the stream a random playout continues with."""
    return deal_with_rng(state, stream_seed(seed, deal_id), opts, scratch)


@njit(cache=True)
def legal_words(state, opts, out):
    """The legal actions as one ``(offset, mask)`` pair in ``out[0], out[1]`` (offset 0)."""
    out[0] = 0
    out[1] = legal_set(state, opts)


@njit(cache=True)
def random_step(state, opts, rng):
    """``random_action`` then ``apply_unchecked``; returns the rng."""
    rng, a = random_action(state, opts, rng)
    apply_unchecked(state, a, opts)
    return rng


@njit(cache=True)
def playout(seed, g, opts, state, scratch, returns_out, i):
    """Random deal ``g`` of ``seed`` played to the end in registers (:mod:`.fastplay`); returns its length.

    The same deal and the same choices as :func:`deal_rng` followed by ``random_action`` / ``step``; writes the
    settlement to ``returns_out[i]``. ``state`` is not used.
    """
    _, s, length = play_random_deal(stream_seed(seed, g), opts, scratch[:36], scratch[36:36 + WORK_LEN])
    returns_out[i, 0] = s
    returns_out[i, 1] = -s
    return length
