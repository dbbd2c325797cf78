"""Dreierles observations: what one seat may know, as a float32 vector of ``OBS_LEN`` entries.

Seats are encoded **relative to the observer**: relative seat ``r`` is absolute seat ``(player + r) % 3``,
so ``r = 0`` is the observer, ``r = 1`` the next player and ``r = 2`` the one after. Card blocks are 54
entries in the canonical card index. The layout (offsets are the ``OBS_*`` constants):

=====================  ====  ===========================================================================
block                  size  meaning
=====================  ====  ===========================================================================
``OBS_HAND``             54  the observer's current hand
``OBS_DEALER``            3  dealer (relative seat, one-hot)
``OBS_LAST_ROUND``        1  1 in last-round mode (Räuber or Solo)
``OBS_PHASE``             8  phase one-hot: auction, discard, announce, knock, reknock, raeuber_knock,
                             play, terminal (as the observer may see it, see below)
``OBS_TO_MOVE``           3  seat to move (relative, one-hot; all 0 at the end)
``OBS_AUCTION``          18  per relative seat, one-hot of: no turn (yet) / silent, pass, Dreier,
                             Zweier, Einer, Solo
``OBS_DECLARER``          3  declarer (relative, one-hot)
``OBS_RAEUBER``           1  1 when all passed (Räuber)
``OBS_CONTRACT``          4  contract one-hot: Dreier, Zweier, Einer, Solo
``OBS_BLIND_TAKEN``      54  blind cards turned up and given to the declarer
``OBS_BLIND_REST``       54  the defenders' part of the blind, when the observer may see it
``OBS_DISCARDS``         54  discards the observer may see (own discards; fallback trumps; all at the end)
``OBS_N_DISCARDS``        1  number of discards made / 3
``OBS_ANNOUNCED``         1  1 when the Pfeife was announced
``OBS_DECLINED``          1  1 when the observer is the declarer and declined to announce
``OBS_KNOCKS``            6  per relative seat: [knocked, declined] (defender knock or Räuber knock)
``OBS_REKNOCK``           2  declarer's re-knock: [knocked, declined]
``OBS_N_KNOCKS``          1  number of knocks / 3
``OBS_PLAYED``          162  per relative seat, the cards it has played
``OBS_TRICK``           162  per relative seat, its card in the current trick
``OBS_LEADER``            3  leader of the current trick (relative, one-hot)
``OBS_WON``             162  per relative seat, the cards it has won in tricks
``OBS_HAND_SIZES``        3  per relative seat, cards in hand / 18
``OBS_TRICK_NO``          1  completed tricks / 16
``OBS_POINTS``            3  at the end: card points of each relative seat's side / 70 (own pile in Räuber;
                             / 210 with exact thirds)
``OBS_RESULT``            3  at the end: settlement of each relative seat in game points / 32
=====================  ====  ===========================================================================

Hidden information follows the spec's visibility table: other hands are never shown; another seat's discards
only as a count (except fallback trumps); the declarer's NO_ANNOUNCE only to the declarer. While the declarer
decides on the announcement, the other seats see the phase and seat to move that a NO_ANNOUNCE would give,
so a declined announcement and a missing Pfeife look the same to them. The Räuber blind is never shown.
"""

from __future__ import annotations

from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.layout import Fields
from tarockrl.engine.obsput import put_count, put_signed
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles.kernels import apply_unchecked
from tarockrl.games.dreierles.rules import COUNTING_EXACT_THIRDS, O_COUNTING, O_DEF_SEE_BLIND, O_LAST_ROUND

_sizes = [
    ("HAND", 54), ("DEALER", 3), ("LAST_ROUND", 1), ("PHASE", 8), ("TO_MOVE", 3), ("AUCTION", 18),
    ("DECLARER", 3), ("RAEUBER", 1), ("CONTRACT", 4), ("BLIND_TAKEN", 54), ("BLIND_REST", 54),
    ("DISCARDS", 54), ("N_DISCARDS", 1), ("ANNOUNCED", 1), ("DECLINED", 1), ("KNOCKS", 6), ("REKNOCK", 2),
    ("N_KNOCKS", 1), ("PLAYED", 162), ("TRICK", 162), ("LEADER", 3), ("WON", 162), ("HAND_SIZES", 3),
    ("TRICK_NO", 1), ("POINTS", 3), ("RESULT", 3),
]
_fields = Fields()
for _name, _size in _sizes:
    _fields.take(_name, _size)
OBS_OFFSETS = _fields.offsets
OBS_LEN = _fields.size
OBS_SIZES = _fields.widths

OBS_HAND = OBS_OFFSETS["HAND"]
OBS_DEALER = OBS_OFFSETS["DEALER"]
OBS_LAST_ROUND = OBS_OFFSETS["LAST_ROUND"]
OBS_PHASE = OBS_OFFSETS["PHASE"]
OBS_TO_MOVE = OBS_OFFSETS["TO_MOVE"]
OBS_AUCTION = OBS_OFFSETS["AUCTION"]
OBS_DECLARER = OBS_OFFSETS["DECLARER"]
OBS_RAEUBER = OBS_OFFSETS["RAEUBER"]
OBS_CONTRACT = OBS_OFFSETS["CONTRACT"]
OBS_BLIND_TAKEN = OBS_OFFSETS["BLIND_TAKEN"]
OBS_BLIND_REST = OBS_OFFSETS["BLIND_REST"]
OBS_DISCARDS = OBS_OFFSETS["DISCARDS"]
OBS_N_DISCARDS = OBS_OFFSETS["N_DISCARDS"]
OBS_ANNOUNCED = OBS_OFFSETS["ANNOUNCED"]
OBS_DECLINED = OBS_OFFSETS["DECLINED"]
OBS_KNOCKS = OBS_OFFSETS["KNOCKS"]
OBS_REKNOCK = OBS_OFFSETS["REKNOCK"]
OBS_N_KNOCKS = OBS_OFFSETS["N_KNOCKS"]
OBS_PLAYED = OBS_OFFSETS["PLAYED"]
OBS_TRICK = OBS_OFFSETS["TRICK"]
OBS_LEADER = OBS_OFFSETS["LEADER"]
OBS_WON = OBS_OFFSETS["WON"]
OBS_HAND_SIZES = OBS_OFFSETS["HAND_SIZES"]
OBS_TRICK_NO = OBS_OFFSETS["TRICK_NO"]
OBS_POINTS = OBS_OFFSETS["POINTS"]
OBS_RESULT = OBS_OFFSETS["RESULT"]


@njit(cache=True, inline="always")
def _put_cards(out, offset, mask):
    while mask != 0:
        out[offset + lowest_index(mask)] = 1.0
        mask &= mask - 1


@njit(cache=True)
def observe(state, player, opts, out):
    """Write the observation of seat ``player`` into ``out``
    (float32[OBS_LEN], or its uint8/int8 codes: tarockrl/engine/obsput.py)."""
    out[:] = 0.0
    terminal = state[L.PHASE] == L.TERMINAL
    declarer = state[L.DECLARER]
    _put_cards(out, OBS_HAND, state[L.HAND + player])
    out[OBS_DEALER + (state[L.DEALER] - player) % 3] = 1.0
    out[OBS_LAST_ROUND] = 1.0 if opts[O_LAST_ROUND] != 0 else 0.0
    # phase and mover as this seat may see them
    phase = state[L.PHASE]
    cur = state[L.CUR]
    leader = state[L.LEADER]
    if phase == L.ANNOUNCE and player != declarer:
        view = state.copy()
        apply_unchecked(view, L.A_NO_ANNOUNCE, opts)
        phase = view[L.PHASE]
        cur = view[L.CUR]
        leader = view[L.LEADER]  # the trick leader too (else the leader slot would show a pending decision)
    out[OBS_PHASE + phase] = 1.0
    if cur >= 0:
        out[OBS_TO_MOVE + (cur - player) % 3] = 1.0
    for r in range(3):
        seat = (player + r) % 3
        out[OBS_AUCTION + 6 * r + state[L.BID + seat] + 1] = 1.0
        dec = state[L.KNOCK_DEC + seat]
        if dec >= 0:
            out[OBS_KNOCKS + 2 * r + (1 - dec)] = 1.0
        _put_cards(out, OBS_PLAYED + 54 * r, state[L.PLAYED_BY + seat])
        _put_cards(out, OBS_WON + 54 * r, state[L.WON + seat])
        put_count(out, OBS_HAND_SIZES + r, popcount(state[L.HAND + seat]), 18.0)
    if declarer >= 0:
        out[OBS_DECLARER + (declarer - player) % 3] = 1.0
        out[OBS_CONTRACT + state[L.HIGH] - 1] = 1.0
    if state[L.RAEUBER] != 0:
        out[OBS_RAEUBER] = 1.0
    _put_cards(out, OBS_BLIND_TAKEN, state[L.BLIND_TAKEN])
    is_defender = declarer >= 0 and player != declarer
    if terminal or (is_defender and opts[O_DEF_SEE_BLIND] != 0):
        _put_cards(out, OBS_BLIND_REST, state[L.BLIND_REST])
    if terminal or player == declarer:
        _put_cards(out, OBS_DISCARDS, state[L.DISCARDS])
    else:
        _put_cards(out, OBS_DISCARDS, state[L.FALLBACK])
    put_count(out, OBS_N_DISCARDS, popcount(state[L.DISCARDS]), 3.0)
    if state[L.ANNOUNCED] == 1:
        out[OBS_ANNOUNCED] = 1.0
    if state[L.ANNOUNCED] == 0 and player == declarer:
        out[OBS_DECLINED] = 1.0
    if state[L.REKNOCK_DEC] >= 0:
        out[OBS_REKNOCK + (1 - state[L.REKNOCK_DEC])] = 1.0
    put_count(out, OBS_N_KNOCKS, state[L.KNOCKS], 3.0)
    if phase == L.PLAY:
        out[OBS_LEADER + (leader - player) % 3] = 1.0
        for i in range(state[L.TRICK_N]):
            seat = (leader + i) % 3
            out[OBS_TRICK + 54 * ((seat - player) % 3) + state[L.TRICK_CARD + i]] = 1.0
    put_count(out, OBS_TRICK_NO, state[L.TRICK_NO], 16.0)
    if terminal:
        scale = 210.0 if opts[O_COUNTING] == COUNTING_EXACT_THIRDS else 70.0
        for r in range(3):
            seat = (player + r) % 3
            put_count(out, OBS_POINTS + r, state[L.POINTS + seat], scale)
            put_signed(out, OBS_RESULT + r, state[L.RESULT + seat], 32.0)
