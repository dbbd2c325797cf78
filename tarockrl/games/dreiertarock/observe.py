"""Dreiertarock observations: what one seat may know, as a float32 vector of ``OBS_LEN`` entries.

Seats are encoded **relative to the observer**: relative seat ``r`` is absolute seat ``(player + r) % 3``,
so ``r = 0`` is the observer, ``r = 1`` the next player (the one after him in playing order) and ``r = 2``
the one after that. Card blocks are 54 entries in the canonical card index. The layout (offsets are the
``OBS_*`` constants):

=====================  ====  ===========================================================================
block                  size  meaning
=====================  ====  ===========================================================================
``OBS_HAND``             54  the observer's current hand
``OBS_PHASE``             6  phase one-hot: auction, talon, discard, announce, play, terminal
``OBS_DEALER``            3  dealer (relative seat, one-hot); forehand is the seat after the dealer
``OBS_TO_MOVE``           3  seat to act (relative, one-hot; all 0 at the end)
``OBS_LEVEL``             8  auction level one-hot: 0 (no bid yet), Einser .. Fünfer, Solo, Solo Valat
``OBS_HOLDER``            3  current holder of the bid (relative, one-hot)
``OBS_PASSED``            3  per relative seat: has passed
``OBS_SPOKEN``            3  per relative seat: has called at least once
``OBS_DECLARER``          3  declarer (relative, one-hot) once the auction is over
``OBS_CONTRACT``          7  contract one-hot: Einser .. Fünfer, Solo, Solo Valat
``OBS_TRISCHAKEN``        1  1 when all passed and Trischaken is played
``OBS_PACKETS``         108  talon packet 0 and packet 1 (54 each); only once exposed, i.e. in a contract
                             Einser .. Fünfer after the auction (never in Solo, Solo Valat, Trischaken)
``OBS_TAKEN``             2  which packet the declarer took (one-hot)
``OBS_OWN_DISCARDS``     54  the declarer's discards, shown to the declarer only
``OBS_DISCARDS_UP``      54  tarock discards (made face up, public)
``OBS_N_DISCARDS``        1  number of discards made / 3
``OBS_ANNOUNCED``         9  per bird (Pagat, Uhu, Kakadu): the seat that announced it (relative, one-hot)
``OBS_KLEVEL``           12  per item (game, Pagat, Uhu, Kakadu): doubling level as 3 thermometer bits
``OBS_HAD_TURN``          3  per relative seat: has already said GOOD
``OBS_GOODS``             3  GOODs in a row one-hot (0, 1, 2)
``OBS_PLAYED``          162  per relative seat, the cards it has played
``OBS_TRICK``           162  per relative seat, its card in the current trick
``OBS_LEADER``            3  leader of the current trick (relative, one-hot; play phase only)
``OBS_WON``             162  per relative seat, the cards of the tricks it has won
``OBS_HAND_SIZES``        3  per relative seat, cards in hand / 19
``OBS_TRICK_NO``          1  completed tricks / 16
``OBS_RESULT``            3  at the end: settlement of each relative seat / 100
=====================  ====  ===========================================================================

Everything here follows the spec's information model (docs/rules/dreiertarock.md §9.2): other hands are never shown; the
declarer's plain discards only to the declarer (other seats see the count and the face-up tarock discards);
the Solo, Solo Valat and Trischaken talon is never shown, not even at the end; card points are not part of
the observation (in a Solo they would reveal the unseen talon), only the public settlement at the end.
"""

from __future__ import annotations

from numba import njit

from tarockrl.engine.bits import lowest_index, popcount
from tarockrl.engine.layout import Fields
from tarockrl.engine.obsput import put_count, put_signed
from tarockrl.games.dreiertarock import layout as L

_sizes = [
    ("HAND", 54), ("PHASE", 6), ("DEALER", 3), ("TO_MOVE", 3), ("LEVEL", 8), ("HOLDER", 3), ("PASSED", 3),
    ("SPOKEN", 3), ("DECLARER", 3), ("CONTRACT", 7), ("TRISCHAKEN", 1), ("PACKETS", 108), ("TAKEN", 2),
    ("OWN_DISCARDS", 54), ("DISCARDS_UP", 54), ("N_DISCARDS", 1), ("ANNOUNCED", 9), ("KLEVEL", 12),
    ("HAD_TURN", 3), ("GOODS", 3), ("PLAYED", 162), ("TRICK", 162), ("LEADER", 3), ("WON", 162),
    ("HAND_SIZES", 3), ("TRICK_NO", 1), ("RESULT", 3),
]
_fields = Fields()
for _name, _size in _sizes:
    _fields.take(_name, _size)
OBS_OFFSETS = _fields.offsets
OBS_LEN = _fields.size
OBS_SIZES = _fields.widths

OBS_HAND = OBS_OFFSETS["HAND"]
OBS_PHASE = OBS_OFFSETS["PHASE"]
OBS_DEALER = OBS_OFFSETS["DEALER"]
OBS_TO_MOVE = OBS_OFFSETS["TO_MOVE"]
OBS_LEVEL = OBS_OFFSETS["LEVEL"]
OBS_HOLDER = OBS_OFFSETS["HOLDER"]
OBS_PASSED = OBS_OFFSETS["PASSED"]
OBS_SPOKEN = OBS_OFFSETS["SPOKEN"]
OBS_DECLARER = OBS_OFFSETS["DECLARER"]
OBS_CONTRACT = OBS_OFFSETS["CONTRACT"]
OBS_TRISCHAKEN = OBS_OFFSETS["TRISCHAKEN"]
OBS_PACKETS = OBS_OFFSETS["PACKETS"]
OBS_TAKEN = OBS_OFFSETS["TAKEN"]
OBS_OWN_DISCARDS = OBS_OFFSETS["OWN_DISCARDS"]
OBS_DISCARDS_UP = OBS_OFFSETS["DISCARDS_UP"]
OBS_N_DISCARDS = OBS_OFFSETS["N_DISCARDS"]
OBS_ANNOUNCED = OBS_OFFSETS["ANNOUNCED"]
OBS_KLEVEL = OBS_OFFSETS["KLEVEL"]
OBS_HAD_TURN = OBS_OFFSETS["HAD_TURN"]
OBS_GOODS = OBS_OFFSETS["GOODS"]
OBS_PLAYED = OBS_OFFSETS["PLAYED"]
OBS_TRICK = OBS_OFFSETS["TRICK"]
OBS_LEADER = OBS_OFFSETS["LEADER"]
OBS_WON = OBS_OFFSETS["WON"]
OBS_HAND_SIZES = OBS_OFFSETS["HAND_SIZES"]
OBS_TRICK_NO = OBS_OFFSETS["TRICK_NO"]
OBS_RESULT = OBS_OFFSETS["RESULT"]


@njit(cache=True, inline="always")
def _put_cards(out, offset, mask):
    while mask != 0:
        out[offset + lowest_index(mask)] = 1.0
        mask &= mask - 1


@njit(cache=True, _nrt=False)
def observe(state, player, opts, out):
    """Write the observation of seat ``player`` into ``out``
    (float32[OBS_LEN], or its uint8/int8 codes: tarockrl/engine/obsput.py)."""
    out[:] = 0.0
    phase = state[L.PHASE]
    declarer = state[L.DECLARER]
    contract = state[L.CONTRACT]
    _put_cards(out, OBS_HAND, state[L.HAND + player])
    out[OBS_PHASE + phase] = 1.0
    out[OBS_DEALER + (state[L.DEALER] - player) % 3] = 1.0
    cur = state[L.CUR]
    if cur >= 0:
        out[OBS_TO_MOVE + (cur - player) % 3] = 1.0
    out[OBS_LEVEL + state[L.LEVEL]] = 1.0
    if state[L.HOLDER] >= 0:
        out[OBS_HOLDER + (state[L.HOLDER] - player) % 3] = 1.0
    for r in range(3):
        seat = (player + r) % 3
        out[OBS_PASSED + r] = (state[L.PASSED] >> seat) & 1
        out[OBS_SPOKEN + r] = (state[L.SPOKEN] >> seat) & 1
        out[OBS_HAD_TURN + r] = (state[L.HAD_TURN] >> seat) & 1
        _put_cards(out, OBS_PLAYED + 54 * r, state[L.PLAYED_BY + seat])
        _put_cards(out, OBS_WON + 54 * r, state[L.WON + seat])
        put_count(out, OBS_HAND_SIZES + r, popcount(state[L.HAND + seat]), 19.0)
    if declarer >= 0:
        out[OBS_DECLARER + (declarer - player) % 3] = 1.0
        out[OBS_CONTRACT + contract - 1] = 1.0
        if contract < L.SOLO:
            _put_cards(out, OBS_PACKETS, state[L.PACKET])
            _put_cards(out, OBS_PACKETS + 54, state[L.PACKET + 1])
        if state[L.TAKEN] >= 0:
            out[OBS_TAKEN + state[L.TAKEN]] = 1.0
        if player == declarer:
            _put_cards(out, OBS_OWN_DISCARDS, state[L.DISCARDS])
        _put_cards(out, OBS_DISCARDS_UP, state[L.DISCARDS_UP])
        put_count(out, OBS_N_DISCARDS, state[L.N_DISCARDS], 3.0)
        for b in range(3):
            by = state[L.ANN_BY + b]
            if by >= 0:
                out[OBS_ANNOUNCED + 3 * b + (by - player) % 3] = 1.0
        for i in range(4):
            for j in range(state[L.KLEVEL + i]):
                out[OBS_KLEVEL + 3 * i + j] = 1.0
        if state[L.GOODS] < 3:
            out[OBS_GOODS + state[L.GOODS]] = 1.0
    if state[L.TRISCHAKEN] != 0:
        out[OBS_TRISCHAKEN] = 1.0
    if phase == L.PLAY:
        leader = state[L.LEADER]
        out[OBS_LEADER + (leader - player) % 3] = 1.0
        for i in range(state[L.TRICK_N]):
            seat = (leader + i) % 3
            out[OBS_TRICK + 54 * ((seat - player) % 3) + state[L.TRICK_CARD + i]] = 1.0
    put_count(out, OBS_TRICK_NO, state[L.TRICK_NO], 16.0)
    if phase == L.TERMINAL:
        for r in range(3):
            put_signed(out, OBS_RESULT + r, state[L.RESULT + (player + r) % 3], 100.0)
