"""Troccas observations: exactly what one seat is entitled to (docs/rules/troccas.md §4.10), as a float32 vector
of ``OBS_LEN``.

Seats are **relative to the observer**: relative seat ``r`` is absolute seat ``(player + r) % 4``, so ``r = 0``
is the observer, ``r = 1`` the next player (on his right), ``r = 2`` **his partner** and ``r = 3`` the other
opponent. Teams are relative too: team block 0 is the observer's team, block 1 the opponents. Card blocks are 78
entries in the canonical card index. The layout (offsets are the ``OBS_*`` constants):

==================  ====  ==============================================================================
block               size  meaning
==================  ====  ==============================================================================
``HAND``              78  the observer's current hand (dealt so far in this attempt, minus cards played or
                          discarded, plus a numeral given back by a jack swap)
``DEALER``             4  dealer (relative seat, one-hot)
``BALANCE``            2  match balance of own team, of the opponents (points / 36)
``REDEALS``           11  redeal count of the episode, one-hot 0..10
``REDEAL_KINDS``       2  throw-ins so far, forced redeals so far (each / 10)
``PHASE``              8  phase one-hot: pattern, talk, vote, force, scart, play, buob, terminal (as seen)
``TO_MOVE``            4  seat to act (relative, one-hot; all 0 at the end)
``PATTERN``            3  packet pattern of the episode, one-hot (all 0 while it is being chosen)
``PATTERN_BY``         4  relative seat that chose the pattern in a PATTERN phase (all 0 if skipped)
``PACKETS``            3  packets dealt in the current attempt: one-hot of the last packet's index
``EXPOSED``          312  per relative seat, its face-up last card (78 each)
``TALK``             144  current attempt: per pause (3) x relative seat (4), one-hot message id (12 wide:
                          early messages use 0..9, final messages 0..11)
``VOTES``             24  current attempt: per pause x relative seat, [keep, throw in]
``FORCE_DECLINED``     1  1 when the observer is the dealer and declined the forced redeal in this attempt
``SCART``             78  the scart: the dealer's own from the moment it is discarded; everybody at the end
``N_SCART``            1  discards made / 2
``SCART_JACK``         2  scart_jack_voids_all only: [announced without jack, announced with a jack]
``PLAYED``           312  per relative seat, every card it has put into a trick (a swap replaces the
                          numeral by the jack)
``TRICK``            312  per relative seat, its card(s) in the current trick
``LEADER``             4  leader of the current trick (relative, one-hot)
``LED``                5  led suit of the current trick: cups, coins, batons, swords, trumps
``DOUBLE``             1  the current trick is a double lead
``SECOND_ROUND``      78  double lead only: the cards of the current trick played in its second round
``LED_SUITS``          4  plain suits led in completed tricks
``LAST_TRICK``       312  per relative seat, its card(s) in the last completed trick
``LAST_WINNER``        4  winner of the last completed trick (relative, one-hot)
``PILES``            156  cards won by own team, by the opponents (78 each; at the end after the scart and
                          the Fool settlement)
``TRICKS_WON``         2  tricks won by own team, by the opponents (/ 19)
``HAND_SIZES``         4  cards in hand per relative seat (/ 21)
``TRICK_NO``           1  completed tricks / 19
``KNOCKS``            84  per relative seat, the trumps (21) it has knocked for
``BUOB``              12  per suit: [no demand, demand without swap, swap]
``SWAPS``             56  per suit: relative seat that gave the jack (4) and the numeral it took back
                          (offset 0..9 in the suit block, 10)
``FOOL``               2  at the end: [redeemed, lost]
``FOOL_PAID``         78  at the end: the card handed over for the Fool
``POINTS``             2  at the end: card points of own team, of the opponents (/ 72)
``RESULT``             2  at the end: result of own team, of the opponents (/ 36)
==================  ====  ==============================================================================

Hidden information: other hands, undealt cards, the order of the pack and the scart (until the end) are never
shown; a cancelled attempt is reduced to the redeal count and kinds (docs/rules/troccas.md §4.10 allows this).
The dealer's
FORCE step is invisible to the others: while the dealer decides, the other seats see phase ``scart`` with the
dealer to act, exactly what they see after a decline or when the dealer was never eligible. Talk and votes
are shown identically to every seat; the engine never compares a message with a hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.layout import Fields
from tarockrl.engine.obsput import put_bits, put_count, put_signed
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import SPLIT

_sizes = [
    ("HAND", 78), ("DEALER", 4), ("BALANCE", 2), ("REDEALS", 11), ("REDEAL_KINDS", 2), ("PHASE", 8),
    ("TO_MOVE", 4), ("PATTERN", 3), ("PATTERN_BY", 4), ("PACKETS", 3), ("EXPOSED", 312), ("TALK", 144),
    ("VOTES", 24), ("FORCE_DECLINED", 1), ("SCART", 78), ("N_SCART", 1), ("SCART_JACK", 2), ("PLAYED", 312),
    ("TRICK", 312), ("LEADER", 4), ("LED", 5), ("DOUBLE", 1), ("SECOND_ROUND", 78), ("LED_SUITS", 4),
    ("LAST_TRICK", 312), ("LAST_WINNER", 4), ("PILES", 156), ("TRICKS_WON", 2), ("HAND_SIZES", 4),
    ("TRICK_NO", 1), ("KNOCKS", 84), ("BUOB", 12), ("SWAPS", 56), ("FOOL", 2), ("FOOL_PAID", 78), ("POINTS", 2),
    ("RESULT", 2),
]
_fields = Fields()
for _name, _size in _sizes:
    _fields.take(_name, _size)
OBS_OFFSETS = _fields.offsets
OBS_LEN = _fields.size
OBS_SIZES = _fields.widths

OBS_HAND = OBS_OFFSETS["HAND"]
OBS_DEALER = OBS_OFFSETS["DEALER"]
OBS_BALANCE = OBS_OFFSETS["BALANCE"]
OBS_REDEALS = OBS_OFFSETS["REDEALS"]
OBS_REDEAL_KINDS = OBS_OFFSETS["REDEAL_KINDS"]
OBS_PHASE = OBS_OFFSETS["PHASE"]
OBS_TO_MOVE = OBS_OFFSETS["TO_MOVE"]
OBS_PATTERN = OBS_OFFSETS["PATTERN"]
OBS_PATTERN_BY = OBS_OFFSETS["PATTERN_BY"]
OBS_PACKETS = OBS_OFFSETS["PACKETS"]
OBS_EXPOSED = OBS_OFFSETS["EXPOSED"]
OBS_TALK = OBS_OFFSETS["TALK"]
OBS_VOTES = OBS_OFFSETS["VOTES"]
OBS_FORCE_DECLINED = OBS_OFFSETS["FORCE_DECLINED"]
OBS_SCART = OBS_OFFSETS["SCART"]
OBS_N_SCART = OBS_OFFSETS["N_SCART"]
OBS_SCART_JACK = OBS_OFFSETS["SCART_JACK"]
OBS_PLAYED = OBS_OFFSETS["PLAYED"]
OBS_TRICK = OBS_OFFSETS["TRICK"]
OBS_LEADER = OBS_OFFSETS["LEADER"]
OBS_LED = OBS_OFFSETS["LED"]
OBS_DOUBLE = OBS_OFFSETS["DOUBLE"]
OBS_SECOND_ROUND = OBS_OFFSETS["SECOND_ROUND"]
OBS_LED_SUITS = OBS_OFFSETS["LED_SUITS"]
OBS_LAST_TRICK = OBS_OFFSETS["LAST_TRICK"]
OBS_LAST_WINNER = OBS_OFFSETS["LAST_WINNER"]
OBS_PILES = OBS_OFFSETS["PILES"]
OBS_TRICKS_WON = OBS_OFFSETS["TRICKS_WON"]
OBS_HAND_SIZES = OBS_OFFSETS["HAND_SIZES"]
OBS_TRICK_NO = OBS_OFFSETS["TRICK_NO"]
OBS_KNOCKS = OBS_OFFSETS["KNOCKS"]
OBS_BUOB = OBS_OFFSETS["BUOB"]
OBS_SWAPS = OBS_OFFSETS["SWAPS"]
OBS_FOOL = OBS_OFFSETS["FOOL"]
OBS_FOOL_PAID = OBS_OFFSETS["FOOL_PAID"]
OBS_POINTS = OBS_OFFSETS["POINTS"]
OBS_RESULT = OBS_OFFSETS["RESULT"]
ZERO = np.int64(0)


@njit(cache=True, _nrt=False, inline="always")
def _put_cards(out, offset, tw, sw):
    """The 78 entries of a card block from the card set ``(tw, sw)``, zeros included (10 stores of 8 entries)."""
    put_bits(out, offset, tw | (sw << SPLIT), 64)
    put_bits(out, offset + 64, sw >> (64 - SPLIT), 78 - 64)


@njit(cache=True, _nrt=False, inline="always")
def _zero(out, lo, hi):
    for j in range(lo, hi):
        out[j] = 0


# ---------------------------------------------------------------------------------------------------------
# the observation in regions: each ``_w_*`` writes every entry of its range [lo, hi) of the layout (the ranges
# partition it); ``observe`` is all of them, ``observe_update`` rewrites only the regions whose inputs changed
# ---------------------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _w_head(state, player, out):
    """HAND .. PACKETS: ``[0, OBS_EXPOSED)``."""
    phase = state[L.PHASE]
    dealer = state[L.DEALER]
    me = player & 1
    _zero(out, OBS_DEALER, OBS_EXPOSED)
    _put_cards(out, OBS_HAND, state[L.HAND_TW + player], state[L.HAND_SW + player])
    out[OBS_DEALER + ((dealer - player) & 3)] = 1.0
    put_signed(out, OBS_BALANCE, state[L.BAL + me], 36.0)
    put_signed(out, OBS_BALANCE + 1, state[L.BAL + 1 - me], 36.0)
    out[OBS_REDEALS + state[L.REDEAL_COUNT]] = 1.0
    put_count(out, OBS_REDEAL_KINDS, state[L.N_THROWN], 10.0)
    put_count(out, OBS_REDEAL_KINDS + 1, state[L.N_FORCED], 10.0)
    # phase and seat to act as this seat may see them (the dealer's FORCE step is private)
    cur = state[L.CUR]
    shown = phase
    if phase == L.FORCE and player != dealer:
        shown = L.SCART
    out[OBS_PHASE + shown] = 1.0
    if cur >= 0:
        out[OBS_TO_MOVE + ((cur - player) & 3)] = 1.0
    if phase != L.PATTERN:
        out[OBS_PATTERN + state[L.PATTERN_SLOT]] = 1.0
        out[OBS_PACKETS + state[L.PACKET]] = 1.0
    if state[L.PATTERN_BY] >= 0:
        out[OBS_PATTERN_BY + ((state[L.PATTERN_BY] - player) & 3)] = 1.0


@njit(cache=True, _nrt=False, inline="always")
def _w_talk(state, player, out):
    """EXPOSED, TALK, VOTES: ``[OBS_EXPOSED, OBS_FORCE_DECLINED)``."""
    _zero(out, OBS_EXPOSED, OBS_FORCE_DECLINED)
    for r in range(4):
        seat = (player + r) & 3
        x = state[L.EXPOSED + seat]
        if x >= 0:
            out[OBS_EXPOSED + 78 * r + x] = 1.0
        for pause in range(3):
            m = state[L.TALK_LOG + 4 * pause + seat]
            if m >= 0:
                out[OBS_TALK + 48 * pause + 12 * r + m] = 1.0
            v = state[L.VOTE_LOG + 4 * pause + seat]
            if v >= 0:
                out[OBS_VOTES + 8 * pause + 2 * r + v] = 1.0


@njit(cache=True, _nrt=False, inline="always")
def _scart_shown(state, player):
    """The scart as ``player`` sees it: the dealer's own, everybody's at the end, else nothing."""
    if player == state[L.DEALER] or state[L.PHASE] == L.TERMINAL:
        return state[L.SCART_TW], state[L.SCART_SW]
    return ZERO, ZERO


@njit(cache=True, _nrt=False, inline="always")
def _w_scart(state, player, out, tw, sw):
    """FORCE_DECLINED, SCART (the shown set ``(tw, sw)``), N_SCART, SCART_JACK: ``[OBS_FORCE_DECLINED,
    OBS_PLAYED)``."""
    out[OBS_FORCE_DECLINED] = 1.0 if player == state[L.DEALER] and state[L.FORCE_SEEN] == 2 else 0.0
    _put_cards(out, OBS_SCART, tw, sw)
    put_count(out, OBS_N_SCART, state[L.SCART_N], 2.0)
    out[OBS_SCART_JACK] = 0
    out[OBS_SCART_JACK + 1] = 0
    if state[L.SCART_JACK] >= 0:
        out[OBS_SCART_JACK + state[L.SCART_JACK]] = 1.0


@njit(cache=True, _nrt=False, inline="always")
def _w_played(state, player, out):
    """PLAYED: ``[OBS_PLAYED, OBS_TRICK)``."""
    for r in range(4):
        seat = (player + r) & 3
        _put_cards(out, OBS_PLAYED + 78 * r, state[L.PLAYED_BY_TW + seat], state[L.PLAYED_BY_SW + seat])


@njit(cache=True, _nrt=False, inline="always")
def _w_trick(state, player, out):
    """TRICK: ``[OBS_TRICK, OBS_LEADER)``."""
    _zero(out, OBS_TRICK, OBS_LEADER)
    if state[L.PHASE] >= L.PLAY:
        for i in range(state[L.TRICK_N]):
            rel = (state[L.TRICK_SEAT + i] - player) & 3
            out[OBS_TRICK + 78 * rel + state[L.TRICK_CARD + i]] = 1.0


@njit(cache=True, _nrt=False, inline="always")
def _w_mid(state, player, out):
    """LEADER, LED, DOUBLE, SECOND_ROUND, LED_SUITS: ``[OBS_LEADER, OBS_LAST_TRICK)``."""
    _zero(out, OBS_LEADER, OBS_LAST_TRICK)
    phase = state[L.PHASE]
    if phase >= L.PLAY:
        leader = state[L.LEADER]
        if leader >= 0 and phase != L.TERMINAL:
            out[OBS_LEADER + ((leader - player) & 3)] = 1.0
        if state[L.LED] >= 0:
            out[OBS_LED + state[L.LED]] = 1.0
        if state[L.IS_DOUBLE] != 0:
            out[OBS_DOUBLE] = 1.0
            for i in range(5, state[L.TRICK_N]):
                out[OBS_SECOND_ROUND + state[L.TRICK_CARD + i]] = 1.0
    for s in range(4):
        if ((state[L.LED_SUITS] >> s) & 1) != 0:
            out[OBS_LED_SUITS + s] = 1.0


@njit(cache=True, _nrt=False, inline="always")
def _w_last(state, player, out):
    """LAST_TRICK, LAST_WINNER: ``[OBS_LAST_TRICK, OBS_PILES)``."""
    _zero(out, OBS_LAST_TRICK, OBS_PILES)
    for i in range(state[L.LAST_N]):
        rel = (state[L.LAST_SEAT + i] - player) & 3
        out[OBS_LAST_TRICK + 78 * rel + state[L.LAST_CARD + i]] = 1.0
    if state[L.LAST_WINNER] >= 0:
        out[OBS_LAST_WINNER + ((state[L.LAST_WINNER] - player) & 3)] = 1.0


@njit(cache=True, _nrt=False, inline="always")
def _w_piles(state, player, out):
    """PILES: ``[OBS_PILES, OBS_TRICKS_WON)``."""
    me = player & 1
    for k in range(2):
        t = (me + k) & 1
        _put_cards(out, OBS_PILES + 78 * k, state[L.PILE_TW + t], state[L.PILE_SW + t])


@njit(cache=True, _nrt=False, inline="always")
def _w_counts(state, player, out):
    """TRICKS_WON, HAND_SIZES, TRICK_NO: ``[OBS_TRICKS_WON, OBS_KNOCKS)``."""
    me = player & 1
    for k in range(2):
        put_count(out, OBS_TRICKS_WON + k, state[L.TRICKS_WON + ((me + k) & 1)], 19.0)
    for r in range(4):
        seat = (player + r) & 3
        put_count(out, OBS_HAND_SIZES + r, popcount(state[L.HAND_TW + seat]) + popcount(state[L.HAND_SW + seat]), 21.0)
    put_count(out, OBS_TRICK_NO, state[L.TRICK_NO], 19.0)


@njit(cache=True, _nrt=False, inline="always")
def _w_knocks(state, player, out):
    """KNOCKS: ``[OBS_KNOCKS, OBS_BUOB)``."""
    for r in range(4):
        put_bits(out, OBS_KNOCKS + 21 * r, state[L.KNOCKS_TW + ((player + r) & 3)], 21)


@njit(cache=True, _nrt=False, inline="always")
def _w_tail(state, player, out):
    """BUOB, SWAPS, FOOL, FOOL_PAID, POINTS, RESULT: ``[OBS_BUOB, OBS_LEN)``."""
    _zero(out, OBS_BUOB, OBS_LEN)
    for s in range(4):
        res = state[L.BUOB_RESULT + s]
        if res >= 0:
            out[OBS_BUOB + 3 * s + res] = 1.0
        if state[L.SWAP_SEAT + s] >= 0:
            out[OBS_SWAPS + 14 * s + ((state[L.SWAP_SEAT + s] - player) & 3)] = 1.0
            out[OBS_SWAPS + 14 * s + 4 + (state[L.SWAP_CARD + s] - SPLIT) % 14] = 1.0
    if state[L.PHASE] == L.TERMINAL:
        me = player & 1
        for k in range(2):
            t = (me + k) & 1
            put_count(out, OBS_POINTS + k, state[L.POINTS + t], 72.0)
            put_signed(out, OBS_RESULT + k, state[L.POINTS + t] - 36, 36.0)
        if state[L.FOOL_OUTCOME] > 0:
            out[OBS_FOOL + state[L.FOOL_OUTCOME] - 1] = 1.0
        if state[L.FOOL_PAID] >= 0:
            out[OBS_FOOL_PAID + state[L.FOOL_PAID]] = 1.0


@njit(cache=True, _nrt=False)
def observe(state, player, opts, out):
    """Write the observation of seat ``player`` into ``out``
    (float32[OBS_LEN], or its uint8/int8 codes: tarockrl/engine/obsput.py).

    Every entry is written, region by region (``_w_*``): the card blocks that are bit masks in the state (hand,
    scart, cards played, piles, knocks) whole from their masks, 8 entries per store; the other blocks are cleared
    and their few ones set.
    """
    _w_head(state, player, out)
    _w_talk(state, player, out)
    tw, sw = _scart_shown(state, player)
    _w_scart(state, player, out, tw, sw)
    _w_played(state, player, out)
    _w_trick(state, player, out)
    _w_mid(state, player, out)
    _w_last(state, player, out)
    _w_piles(state, player, out)
    _w_counts(state, player, out)
    _w_knocks(state, player, out)
    _w_tail(state, player, out)


# ---------------------------------------------------------------------------------------------------------
# incremental observation (the optional ``observe_update`` of the contract, used by the vector env)
# ---------------------------------------------------------------------------------------------------------
# ``memo`` (int64[OBS_MEMO_LEN]) records what the last call wrote into ``out``: the observer, a packed exact
# signature of the inputs of each region that changes rarely, and the card sets / one-hot entries of the
# blocks that change a few entries at a time (cards played, the current and the last trick, piles, knocks),
# which are then updated entry by entry. Every signature packs small bounded fields (cards -1..77, seats -1..3,
# messages -1..11, votes -1..1, buob -1..2, counts and points 0..255) shifted by one into fixed-width bit fields,
# so it is equal exactly when its inputs are.
M_PLAYER = 0
M_TALK = 1  # exposed cards (4 x 8 bits) and votes (12 x 2 bits)
M_TALK2 = 2  # talk messages (12 x 4 bits)
M_SCART_TW = 3  # the scart as shown
M_SCART_SW = 4
M_SCART = 5  # force declined (shown), scart count, scart jack
M_PLAYED = 6  # 8 words: (tw, sw) per relative seat
M_TRICK = 14  # 3 words: entry count, then up to 8 entry offsets (16 bits each) within TRICK
M_MID = 17  # leader (shown), led suit, double, second-round cards, led suits
M_LAST = 18  # 3 words: as M_TRICK, within LAST_TRICK
M_LAST_WINNER = 21
M_PILES = 22  # 4 words: (tw, sw) per relative team
M_KNOCKS = 26  # 4 words: knocked trumps per relative seat
M_BUOB = 30  # buob results, swap seats and swap cards
M_END = 31  # terminal: fool outcome, fool payment, points
OBS_MEMO_LEN = 32
TW_MASK = np.int64((1 << SPLIT) - 1)  # the bits of a trump word (cards 0..21)
SW_MASK = np.int64((1 << (78 - SPLIT)) - 1)  # the bits of a suit word (cards 22..77)
KNOCK_MASK = np.int64((1 << 21) - 1)  # the 21 trumps one can knock for


@njit(cache=True, _nrt=False, inline="always")
def _f(v, bits, shift):
    """The field ``v + 1`` (``v >= -1``) masked to ``bits`` bits at ``shift``."""
    return ((v + 1) & ((np.int64(1) << bits) - 1)) << shift


@njit(cache=True, _nrt=False, inline="always")
def _sig_talk(state):
    a = ZERO
    b = ZERO
    for seat in range(4):
        a |= _f(state[L.EXPOSED + seat], 8, 8 * seat)
    for k in range(12):
        a |= _f(state[L.VOTE_LOG + k], 2, 32 + 2 * k)
        b |= _f(state[L.TALK_LOG + k], 4, 4 * k)
    return a, b


@njit(cache=True, _nrt=False, inline="always")
def _sig_scart(state, player):
    declined = np.int64(1) if player == state[L.DEALER] and state[L.FORCE_SEEN] == 2 else ZERO
    return declined | _f(state[L.SCART_N], 8, 1) | _f(state[L.SCART_JACK], 8, 9)


@njit(cache=True, _nrt=False, inline="always")
def _sig_mid(state, player):
    phase = state[L.PHASE]
    sig = _f(state[L.LED_SUITS], 8, 0)
    if phase >= L.PLAY:
        leader = state[L.LEADER]
        if leader >= 0 and phase != L.TERMINAL:
            sig |= _f((leader - player) & 3, 3, 8)
        sig |= _f(state[L.LED], 4, 11)
        if state[L.IS_DOUBLE] != 0:
            sig |= np.int64(1) << 15
            for i in range(5, state[L.TRICK_N]):
                sig |= _f(state[L.TRICK_CARD + i], 8, 16 + 8 * (i - 5))
    return sig


@njit(cache=True, _nrt=False, inline="always")
def _sig_buob(state):
    sig = ZERO
    for s in range(4):
        sig |= _f(state[L.BUOB_RESULT + s], 3, 3 * s)
        sig |= _f(state[L.SWAP_SEAT + s], 3, 12 + 3 * s)
        sig |= _f(state[L.SWAP_CARD + s], 8, 24 + 8 * s)
    return sig


@njit(cache=True, _nrt=False, inline="always")
def _sig_end(state):
    if state[L.PHASE] != L.TERMINAL:
        return ZERO
    return (np.int64(1) | _f(state[L.FOOL_OUTCOME], 3, 1) | _f(state[L.FOOL_PAID], 8, 4)
            | _f(state[L.POINTS], 16, 12) | _f(state[L.POINTS + 1], 16, 28))


@njit(cache=True, _nrt=False, inline="always")
def _diff_cards(out, offset, old_tw, old_sw, tw, sw):
    """Rewrite the entries of the card block at ``offset`` whose card is in exactly one of the two sets."""
    x = (old_tw ^ tw) & TW_MASK
    while x != 0:
        b = lowest_index(x)
        out[offset + b] = (tw >> b) & 1
        x &= x - 1
    x = (old_sw ^ sw) & SW_MASK
    while x != 0:
        b = lowest_index(x)
        out[offset + SPLIT + b] = (sw >> b) & 1
        x &= x - 1


@njit(cache=True, _nrt=False, inline="always")
def _update_list(out, offset, memo, m, n, seats, cards, player, shown):
    """The one-hot entries ``offset + 78 * relative seat + card`` of the first ``n`` cards of a trick (none unless
    ``shown``), updated from those recorded at ``memo[m:m + 3]`` (the memo is then set to the new ones)."""
    for i in range(memo[m]):
        out[offset + ((memo[m + 1 + (i >> 2)] >> (16 * (i & 3))) & 0xFFFF)] = 0
    if not shown:
        n = ZERO
    w0 = ZERO
    w1 = ZERO
    for i in range(n):
        pos = 78 * ((seats[i] - player) & 3) + cards[i]
        out[offset + pos] = 1
        if i < 4:
            w0 |= pos << (16 * i)
        else:
            w1 |= pos << (16 * (i - 4))
    memo[m] = n
    memo[m + 1] = w0
    memo[m + 2] = w1


@njit(cache=True, _nrt=False, inline="always")
def _memo_list(memo, m, n, seats, cards, player, shown):
    """Record the one-hot entries of :func:`_update_list` without writing them."""
    if not shown:
        n = ZERO
    w0 = ZERO
    w1 = ZERO
    for i in range(n):
        pos = 78 * ((seats[i] - player) & 3) + cards[i]
        if i < 4:
            w0 |= pos << (16 * i)
        else:
            w1 |= pos << (16 * (i - 4))
    memo[m] = n
    memo[m + 1] = w0
    memo[m + 2] = w1


@njit(cache=True, _nrt=False)
def observe_update(state, player, opts, out, memo, valid):
    """Make ``out`` the observation of seat ``player`` (exactly what :func:`observe` writes), rewriting only what
    changed since the last call with this ``memo`` (int64[OBS_MEMO_LEN]).

    ``valid`` true promises that ``out`` and ``memo`` are untouched since that call (any state of the same
    episode may follow, any number of actions later); otherwise, or when the observer differs, every entry is
    written and the memo is filled. The vector env keeps one memo per sub-env (tarockrl/envs/_kernel_template.py).
    """
    full = valid == 0 or memo[M_PLAYER] != player
    if full:
        observe(state, player, opts, out)
        memo[M_PLAYER] = player
    else:
        _w_head(state, player, out)
        _w_counts(state, player, out)
    a, b = _sig_talk(state)
    if not full and (a != memo[M_TALK] or b != memo[M_TALK2]):
        _w_talk(state, player, out)
    memo[M_TALK] = a
    memo[M_TALK2] = b
    tw, sw = _scart_shown(state, player)
    sig = _sig_scart(state, player)
    if not full and (tw != memo[M_SCART_TW] or sw != memo[M_SCART_SW] or sig != memo[M_SCART]):
        _w_scart(state, player, out, tw, sw)
    memo[M_SCART_TW] = tw
    memo[M_SCART_SW] = sw
    memo[M_SCART] = sig
    for r in range(4):
        seat = (player + r) & 3
        tw = state[L.PLAYED_BY_TW + seat]
        sw = state[L.PLAYED_BY_SW + seat]
        if not full:
            _diff_cards(out, OBS_PLAYED + 78 * r, memo[M_PLAYED + 2 * r], memo[M_PLAYED + 2 * r + 1], tw, sw)
        memo[M_PLAYED + 2 * r] = tw
        memo[M_PLAYED + 2 * r + 1] = sw
        kt = state[L.KNOCKS_TW + seat] & KNOCK_MASK
        if not full:
            _diff_cards(out, OBS_KNOCKS + 21 * r, memo[M_KNOCKS + r], ZERO, kt, ZERO)
        memo[M_KNOCKS + r] = kt
    trick_seats = state[L.TRICK_SEAT:L.TRICK_SEAT + 8]
    trick_cards = state[L.TRICK_CARD:L.TRICK_CARD + 8]
    shown = state[L.PHASE] >= L.PLAY
    if full:
        _memo_list(memo, M_TRICK, state[L.TRICK_N], trick_seats, trick_cards, player, shown)
    else:
        _update_list(out, OBS_TRICK, memo, M_TRICK, state[L.TRICK_N], trick_seats, trick_cards, player, shown)
    sig = _sig_mid(state, player)
    if not full and sig != memo[M_MID]:
        _w_mid(state, player, out)
    memo[M_MID] = sig
    last_seats = state[L.LAST_SEAT:L.LAST_SEAT + 8]
    last_cards = state[L.LAST_CARD:L.LAST_CARD + 8]
    if full:
        _memo_list(memo, M_LAST, state[L.LAST_N], last_seats, last_cards, player, True)
    else:
        _update_list(out, OBS_LAST_TRICK, memo, M_LAST, state[L.LAST_N], last_seats, last_cards, player, True)
    w = state[L.LAST_WINNER]
    if not full and w != memo[M_LAST_WINNER]:
        for j in range(4):
            out[OBS_LAST_WINNER + j] = 0
        if w >= 0:
            out[OBS_LAST_WINNER + ((w - player) & 3)] = 1.0
    memo[M_LAST_WINNER] = w
    me = player & 1
    for k in range(2):
        t = (me + k) & 1
        tw = state[L.PILE_TW + t]
        sw = state[L.PILE_SW + t]
        if not full:
            _diff_cards(out, OBS_PILES + 78 * k, memo[M_PILES + 2 * k], memo[M_PILES + 2 * k + 1], tw, sw)
        memo[M_PILES + 2 * k] = tw
        memo[M_PILES + 2 * k + 1] = sw
    a = _sig_buob(state)
    b = _sig_end(state)
    if not full and (a != memo[M_BUOB] or b != memo[M_END]):
        _w_tail(state, player, out)
    memo[M_BUOB] = a
    memo[M_END] = b
