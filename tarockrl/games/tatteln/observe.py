"""Tatteln observations: what one seat may know (docs/rules/tatteln.md §9.1), as a float32 vector.

Seats are **relative to the observer**: entry 0 of a two-entry seat block is the observer, entry 1 the opponent.
Card blocks have ``N`` entries in the canonical card index (32, or 36 with ``deck_size=36``). ``W`` is the number
of sequence windows per suit (15 by default; see :mod:`.melds`) and ``R`` the cards per suit (8 or 9). The
layout, in order (offsets: :func:`obs_offsets`; with the defaults N = 32, R = 8, W = 15: total 585):

=====================  ========  ==========================================================================
block                  size      meaning
=====================  ========  ==========================================================================
``HAND``               N         the observer's hand
``REVEALED_OWN``       N         cards of the observer's hand that are public (scored atoms, robbed turn-up,
                                 drawn bottom card): what the opponent knows of it
``REVEALED_OPP``       N         ``revealed[o]``: the opponent's public cards still in his hand
``DEALER``             2         dealer (relative one-hot); the other seat is forehand
``TO_MOVE``            2         seat to act (relative one-hot; zeros at the end)
``LEADER``             2         leader of the current trick (relative one-hot; zeros at the end)
``PHASE``              3         one-hot: stock-phase trick, final-phase trick, deal over
``TRICK_NO``           1         completed tricks / K
``TURN_FLAGS``         3         did_rob, did_seq, did_set of the current turn
``TRUMP``              4         trump suit one-hot (zeros under no_trump)
``TURN_UP``            N         the turn-up card (empty under no_trump)
``BOTTOM``             N         the face-up bottom card while the stock lasts (the turn-up or, after a ROB,
                                 the trump seven)
``STOCK_SIZE``         1         cards left in the stock (bottom card included) / stock size after the deal
``ROBBER``             2         who robbed the turn-up (relative one-hot)
``BOTTOM_DRAWER``      2         who drew the face-up bottom card (relative one-hot)
``LED``                N         the card led to the current trick
``PLAYED``             2N        per relative seat: the cards it has played (the current trick included)
``WON``                2N        per relative seat: the cards in its pile of won tricks
``LAST_LEAD``          N         the previous trick's led card
``LAST_FOLLOW``        N         the previous trick's second card
``LAST_LEADER``        2         the previous trick's leader (relative one-hot)
``LAST_WINNER``        2         the previous trick's winner (relative one-hot)
``PILE_POINTS``        2         card points won so far (10 for the last trick included at the end) / 162
``FINAL_WON``          2         final-phase tricks won / K_F
``MELD_POINTS``        2         meld points scored / 162
``SCORED_WINDOWS``     8W        per relative seat, per suit: the scored sequence windows (local window ids)
``TRIO_SCORED``        2R        per relative seat: ranks (r) whose trio was scored
``FOUR_SCORED``        2R        per relative seat: ranks (r) whose four was scored
``ANN_CLASS``          2         the last announcement's class one-hot: SEQ, SET (zeros before any)
``ANN_BY``             2         its announcer (relative one-hot)
``ANN_OUTCOME``        3         one-hot: good, not good, equal
``ANN_KEYS``           2         ka (announcer's best key) / 144, kb (the other's) / 144
``ANN_POINTS``         2         points each relative seat scored by it / 162
``DEAL_POINTS``        2         at the end: adjusted deal points Dadj / 162
``RESULT``             2         at the end: settlement / 162
``MATSCHED``           2         at the end: the matsched seat (relative one-hot)
=====================  ========  ==========================================================================

Nothing else is shown: the opponent's hand only through ``REVEALED_OPP``, the face-down stock only through its
size. The partie totals of a session are not part of the deal's state; a session wrapper may append them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import lowest_index
from tarockrl.engine.layout import Fields
from tarockrl.engine.obsput import put_count, put_signed
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.kernels import (
    bottom_drawer,
    deal_points,
    deck_card,
    four_scored,
    matsched,
    pack_index,
    pile_points,
    robber,
    scored_suit_windows,
    stock_left,
    trio_scored,
)
from tarockrl.games.tatteln.melds import W_PER_SUIT, meld_cfg
from tarockrl.games.tatteln.rules import O_DECK, O_HAND

BLOCKS = (
    "HAND", "REVEALED_OWN", "REVEALED_OPP", "DEALER", "TO_MOVE", "LEADER", "PHASE", "TRICK_NO", "TURN_FLAGS",
    "TRUMP", "TURN_UP", "BOTTOM", "STOCK_SIZE", "ROBBER", "BOTTOM_DRAWER", "LED", "PLAYED", "WON", "LAST_LEAD",
    "LAST_FOLLOW", "LAST_LEADER", "LAST_WINNER", "PILE_POINTS", "FINAL_WON", "MELD_POINTS", "SCORED_WINDOWS",
    "TRIO_SCORED", "FOUR_SCORED", "ANN_CLASS", "ANN_BY", "ANN_OUTCOME", "ANN_KEYS", "ANN_POINTS", "DEAL_POINTS",
    "RESULT", "MATSCHED",
)
B = {name: i for i, name in enumerate(BLOCKS)}


def obs_sizes(deck_size: int = 32, max_window_length: int = 5) -> dict[str, int]:
    """Size of every block for a pack and a window length."""
    n = int(deck_size)
    r = n // 4
    w = int(W_PER_SUIT[4 * (r - 8) + max_window_length - 5])
    sizes = {name: 2 for name in BLOCKS}
    for name in ("HAND", "REVEALED_OWN", "REVEALED_OPP", "TURN_UP", "BOTTOM", "LED", "LAST_LEAD", "LAST_FOLLOW"):
        sizes[name] = n
    sizes.update(PLAYED=2 * n, WON=2 * n, SCORED_WINDOWS=8 * w, TRIO_SCORED=2 * r, FOUR_SCORED=2 * r,
                 PHASE=3, TRICK_NO=1, TURN_FLAGS=3, TRUMP=4, STOCK_SIZE=1, ANN_OUTCOME=3)
    return sizes


def obs_fields(deck_size: int = 32, max_window_length: int = 5) -> Fields:
    """The blocks of the observation, in order, for a pack and a window length."""
    fields = Fields()
    for name, size in obs_sizes(deck_size, max_window_length).items():
        fields.take(name, size)
    return fields


def obs_offsets(deck_size: int = 32, max_window_length: int = 5) -> dict[str, int]:
    """Offset of every block."""
    return obs_fields(deck_size, max_window_length).offsets


def obs_len(deck_size: int = 32, max_window_length: int = 5) -> int:
    """Length of the observation vector."""
    return obs_fields(deck_size, max_window_length).size


OBS_OFF = np.zeros((8, len(BLOCKS)), dtype=np.int64)
OBS_LEN_CFG = np.zeros(8, dtype=np.int64)
for _d in range(2):
    for _lmax in range(5, 9):
        _offs = obs_offsets(32 + 4 * _d, _lmax)
        for _name, _i in B.items():
            OBS_OFF[4 * _d + _lmax - 5, _i] = _offs[_name]
        OBS_LEN_CFG[4 * _d + _lmax - 5] = obs_len(32 + 4 * _d, _lmax)
OBS_OFF.setflags(write=False)
OBS_LEN_CFG.setflags(write=False)
OBS_LEN = obs_len()  # default options

(I_HAND, I_REV_OWN, I_REV_OPP, I_DEALER, I_TO_MOVE, I_LEADER, I_PHASE, I_TRICK_NO, I_FLAGS, I_TRUMP, I_TURN_UP,
 I_BOTTOM, I_STOCK, I_ROBBER, I_DRAWER, I_LED, I_PLAYED, I_WON, I_LAST_LEAD, I_LAST_FOLLOW, I_LAST_LEADER,
 I_LAST_WINNER, I_PILE, I_FINAL_WON, I_MELD, I_WINDOWS, I_TRIO, I_FOUR, I_ANN_CLASS, I_ANN_BY, I_ANN_OUTCOME,
 I_ANN_KEYS, I_ANN_POINTS, I_DEAL_POINTS, I_RESULT, I_MATSCHED) = range(len(BLOCKS))


@njit(cache=True, inline="always")
def _put_cards(out, offset, mask):
    while mask != 0:
        out[offset + lowest_index(mask)] = 1.0
        mask &= mask - 1


@njit(cache=True)
def observe(state, player, opts, out):
    """Write the observation of seat ``player`` into ``out``
    (float32[obs_len], or its uint8/int8 codes: tarockrl/engine/obsput.py)."""
    out[:] = 0.0
    d = pack_index(opts)
    n = opts[O_DECK]
    r = n // 4
    cfg = meld_cfg(opts, d)
    off = OBS_OFF[cfg]
    w = W_PER_SUIT[cfg]
    k = n // 2
    kf = opts[O_HAND]
    sl = n - 2 * kf
    opp = 1 - player
    terminal = state[L.PHASE] == L.TERMINAL
    _put_cards(out, off[I_HAND], state[L.HAND + player])
    _put_cards(out, off[I_REV_OWN], state[L.REVEALED + player])
    _put_cards(out, off[I_REV_OPP], state[L.REVEALED + opp])
    out[off[I_DEALER] + (state[L.DEALER] ^ player)] = 1.0
    if not terminal:
        out[off[I_TO_MOVE] + (state[L.CUR] ^ player)] = 1.0
        out[off[I_LEADER] + (state[L.LEADER] ^ player)] = 1.0
    out[off[I_PHASE] + state[L.PHASE]] = 1.0
    put_count(out, off[I_TRICK_NO], state[L.TRICKS], k)
    for i in range(3):
        if (state[L.FLAGS] >> i) & 1:
            out[off[I_FLAGS] + i] = 1.0
    trump = state[L.TRUMP]
    if trump >= 0:
        out[off[I_TRUMP] + trump] = 1.0
        out[off[I_TURN_UP] + deck_card(state, 2 * kf)] = 1.0
    if state[L.BOTTOM] >= 0:
        out[off[I_BOTTOM] + state[L.BOTTOM]] = 1.0
    put_count(out, off[I_STOCK], stock_left(state, opts), sl)
    rb = robber(state)
    if rb >= 0:
        out[off[I_ROBBER] + (rb ^ player)] = 1.0
    dr = bottom_drawer(state)
    if dr >= 0:
        out[off[I_DRAWER] + (dr ^ player)] = 1.0
    if state[L.LED] >= 0:
        out[off[I_LED] + state[L.LED]] = 1.0
    for rel in range(2):
        seat = player if rel == 0 else opp
        _put_cards(out, off[I_PLAYED] + n * rel, state[L.PLAYED + seat])
        _put_cards(out, off[I_WON] + n * rel, state[L.WON + seat])
        put_count(out, off[I_PILE] + rel, pile_points(state, seat, opts), 162.0)
        put_count(out, off[I_FINAL_WON] + rel, state[L.FINAL_WON + seat], kf)
        put_count(out, off[I_MELD] + rel, state[L.MELD + seat], 162.0)
        for s in range(4):
            _put_cards(out, off[I_WINDOWS] + 4 * w * rel + w * s, scored_suit_windows(state, seat, s))
        _put_cards(out, off[I_TRIO] + r * rel, trio_scored(state, seat))
        _put_cards(out, off[I_FOUR] + r * rel, four_scored(state, seat))
    lt = state[L.LAST_TRICK]
    if lt != 0:
        out[off[I_LAST_LEAD] + ((lt >> L.LT_LEAD_SHIFT) & 255) - 1] = 1.0
        out[off[I_LAST_FOLLOW] + ((lt >> L.LT_FOLLOW_SHIFT) & 255) - 1] = 1.0
        out[off[I_LAST_LEADER] + (((lt >> L.LT_LEADER_SHIFT) & 1) ^ player)] = 1.0
        out[off[I_LAST_WINNER] + (((lt >> L.LT_WINNER_SHIFT) & 1) ^ player)] = 1.0
    ann = state[L.ANN]
    if ann != 0:
        by = (ann >> L.ANN_BY_SHIFT) & 1
        out[off[I_ANN_CLASS] + ((ann >> L.ANN_CLASS_SHIFT) & 1)] = 1.0
        out[off[I_ANN_BY] + (by ^ player)] = 1.0
        out[off[I_ANN_OUTCOME] + ((ann >> L.ANN_OUTCOME_SHIFT) & 3)] = 1.0
        put_count(out, off[I_ANN_KEYS], (ann >> L.ANN_KA_SHIFT) & 255, 144.0)
        put_count(out, off[I_ANN_KEYS] + 1, (ann >> L.ANN_KB_SHIFT) & 255, 144.0)
        pts = state[L.ANN_PTS]
        p0 = pts & 0xFFFFFFFF
        p1 = (pts >> 32) & 0xFFFFFFFF
        put_signed(out, off[I_ANN_POINTS], p0 if player == 0 else p1, 162.0)
        put_signed(out, off[I_ANN_POINTS] + 1, p1 if player == 0 else p0, 162.0)
    if terminal:
        d0, d1, x, mult = deal_points(state, opts)
        put_signed(out, off[I_DEAL_POINTS], d0 if player == 0 else d1, 162.0)
        put_signed(out, off[I_DEAL_POINTS] + 1, d1 if player == 0 else d0, 162.0)
        put_signed(out, off[I_RESULT], state[L.RESULT + player], 162.0)
        put_signed(out, off[I_RESULT] + 1, state[L.RESULT + opp], 162.0)
        x = matsched(state)
        if x >= 0:
            out[off[I_MATSCHED] + (x ^ player)] = 1.0
