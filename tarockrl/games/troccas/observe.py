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

from tarockrl.engine.bits import popcount
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


@njit(cache=True, _nrt=False)
def observe(state, player, opts, out):
    """Write the observation of seat ``player`` into ``out``
    (float32[OBS_LEN], or its uint8/int8 codes: tarockrl/engine/obsput.py).

    Every entry is written: the card blocks that are bit masks in the state (hand, scart, cards played, piles,
    knocks) whole from their masks, 8 entries per store; the other blocks are cleared and their few ones set.
    """
    _zero(out, OBS_DEALER, OBS_SCART)
    _zero(out, OBS_N_SCART, OBS_PLAYED)
    _zero(out, OBS_TRICK, OBS_PILES)
    _zero(out, OBS_BUOB, OBS_LEN)
    phase = state[L.PHASE]
    terminal = phase == L.TERMINAL
    dealer = state[L.DEALER]
    me = player & 1
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
        _put_cards(out, OBS_PLAYED + 78 * r, state[L.PLAYED_BY_TW + seat], state[L.PLAYED_BY_SW + seat])
        put_count(out, OBS_HAND_SIZES + r, popcount(state[L.HAND_TW + seat]) + popcount(state[L.HAND_SW + seat]), 21.0)
        put_bits(out, OBS_KNOCKS + 21 * r, state[L.KNOCKS_TW + seat], 21)
    if player == dealer and state[L.FORCE_SEEN] == 2:
        out[OBS_FORCE_DECLINED] = 1.0
    if player == dealer or terminal:
        _put_cards(out, OBS_SCART, state[L.SCART_TW], state[L.SCART_SW])
    else:
        _put_cards(out, OBS_SCART, ZERO, ZERO)
    put_count(out, OBS_N_SCART, state[L.SCART_N], 2.0)
    if state[L.SCART_JACK] >= 0:
        out[OBS_SCART_JACK + state[L.SCART_JACK]] = 1.0
    # the current trick
    if phase >= L.PLAY:
        leader = state[L.LEADER]
        if leader >= 0 and not terminal:
            out[OBS_LEADER + ((leader - player) & 3)] = 1.0
        for i in range(state[L.TRICK_N]):
            rel = (state[L.TRICK_SEAT + i] - player) & 3
            out[OBS_TRICK + 78 * rel + state[L.TRICK_CARD + i]] = 1.0
        if state[L.LED] >= 0:
            out[OBS_LED + state[L.LED]] = 1.0
        if state[L.IS_DOUBLE] != 0:
            out[OBS_DOUBLE] = 1.0
            for i in range(5, state[L.TRICK_N]):
                out[OBS_SECOND_ROUND + state[L.TRICK_CARD + i]] = 1.0
    for s in range(4):
        if ((state[L.LED_SUITS] >> s) & 1) != 0:
            out[OBS_LED_SUITS + s] = 1.0
        res = state[L.BUOB_RESULT + s]
        if res >= 0:
            out[OBS_BUOB + 3 * s + res] = 1.0
        if state[L.SWAP_SEAT + s] >= 0:
            out[OBS_SWAPS + 14 * s + ((state[L.SWAP_SEAT + s] - player) & 3)] = 1.0
            out[OBS_SWAPS + 14 * s + 4 + (state[L.SWAP_CARD + s] - SPLIT) % 14] = 1.0
    for i in range(state[L.LAST_N]):
        rel = (state[L.LAST_SEAT + i] - player) & 3
        out[OBS_LAST_TRICK + 78 * rel + state[L.LAST_CARD + i]] = 1.0
    if state[L.LAST_WINNER] >= 0:
        out[OBS_LAST_WINNER + ((state[L.LAST_WINNER] - player) & 3)] = 1.0
    for k in range(2):
        t = (me + k) & 1
        _put_cards(out, OBS_PILES + 78 * k, state[L.PILE_TW + t], state[L.PILE_SW + t])
        put_count(out, OBS_TRICKS_WON + k, state[L.TRICKS_WON + t], 19.0)
        if terminal:
            put_count(out, OBS_POINTS + k, state[L.POINTS + t], 72.0)
            put_signed(out, OBS_RESULT + k, state[L.POINTS + t] - 36, 36.0)
    put_count(out, OBS_TRICK_NO, state[L.TRICK_NO], 19.0)
    if terminal:
        if state[L.FOOL_OUTCOME] > 0:
            out[OBS_FOOL + state[L.FOOL_OUTCOME] - 1] = 1.0
        if state[L.FOOL_PAID] >= 0:
            out[OBS_FOOL_PAID + state[L.FOOL_PAID]] = 1.0
