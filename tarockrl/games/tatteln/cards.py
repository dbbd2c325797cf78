"""The Tatteln packs (32 cards, or 36 with the sixes): canonical index, codes and rule tables.

A card is ``idx = R*s + r`` with ``R`` = cards per suit (8, or 9 in the 36-card pack), suit ``s`` (0 hearts,
1 diamonds, 2 clubs, 3 spades) and the plain rank ``r`` counted from the lowest card of the plain order
``7 8 9 J Q K T A`` (``6 7 8 9 J Q K T A`` with 36 cards). So inside a plain suit a higher index beats a lower one.

Every table that depends on the pack has a leading *pack index* ``d`` (0 = 32 cards, 1 = 36 cards) and is padded
to the 36-card width; the kernels pick the row once per call. Tables that depend on the trump suit have a
``trump + 1`` index, where ``trump = -1`` means no trump (option ``no_trump``).
"""

from __future__ import annotations

import numpy as np

from tarockrl.engine.cardcodes import CardCodes

SUIT_LETTERS = "HDCS"
SUIT_NAMES = ("hearts", "diamonds", "clubs", "spades")
RANK_LETTERS = ("789JQKTA", "6789JQKTA")  # by pack index, in plain-rank order r = 0, 1, ...
RANK_NAMES = {"6": "six", "7": "seven", "8": "eight", "9": "nine", "J": "jack", "Q": "queen", "K": "king",
              "T": "ten", "A": "ace"}

MAX_R = 9
MAX_N = 36

# ---- per-rank tables (by pack index, padded to 9) ------------------------------------------------------------
_TRUMP_STRENGTH = ([0, 1, 6, 7, 2, 3, 4, 5], [0, 1, 2, 7, 8, 3, 4, 5, 6])
_NATURAL_POS = ([0, 1, 2, 4, 5, 6, 3, 7], [0, 1, 2, 3, 5, 6, 7, 4, 8])
_POINTS_PLAIN = ([0, 0, 0, 2, 3, 4, 10, 11], [0, 0, 0, 0, 2, 3, 4, 10, 11])
_POINTS_TRUMP = ([0, 0, 14, 20, 3, 4, 10, 11], [0, 0, 0, 14, 20, 3, 4, 10, 11])


def _pad(rows, width=MAX_R, fill=0):
    out = np.full((len(rows), width), fill, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


TRUMP_STRENGTH = _pad(_TRUMP_STRENGTH)
NATURAL_POS = _pad(_NATURAL_POS, fill=-1)
NATPOS_TO_R = np.full((2, MAX_R), -1, dtype=np.int64)
for _d in range(2):
    for _r, _n in enumerate(_NATURAL_POS[_d]):
        NATPOS_TO_R[_d, _n] = _r
POINTS_PLAIN = _pad(_POINTS_PLAIN)
POINTS_TRUMP = _pad(_POINTS_TRUMP)

# ---- per-card tables --------------------------------------------------------------------------------------------
SUIT_OF = np.full((2, MAX_N), -1, dtype=np.int64)
RANK_OF = np.full((2, MAX_N), -1, dtype=np.int64)
SUIT_MASK = np.zeros((2, 4), dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    for _c in range(4 * _R):
        SUIT_OF[_d, _c] = _c // _R
        RANK_OF[_d, _c] = _c % _R
    for _s in range(4):
        SUIT_MASK[_d, _s] = ((1 << _R) - 1) << (_R * _s)
ALL_CARDS = np.array([(1 << 32) - 1, (1 << 36) - 1], dtype=np.int64)

# Trick strength of each card for each trump (index trump + 1): trumps rank 16 + trump strength above every
# plain card, plain cards rank by r. Only cards of one suit are ever compared by strength.
STRENGTH = np.zeros((2, 5, MAX_N), dtype=np.int64)
# Cards of the same suit that beat the card (for final_must_head).
HIGHER = np.zeros((2, 5, MAX_N), dtype=np.int64)
# Card points of each card, by [pack, trump bonus on, trump + 1, card].
CARD_POINTS = np.zeros((2, 2, 5, MAX_N), dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    for _t in range(-1, 4):
        for _c in range(4 * _R):
            _s, _r = divmod(_c, _R)
            is_trump = _s == _t
            STRENGTH[_d, _t + 1, _c] = 16 + TRUMP_STRENGTH[_d, _r] if is_trump else _r
            for _b in range(2):
                table = POINTS_TRUMP if (is_trump and _b) else POINTS_PLAIN
                CARD_POINTS[_d, _b, _t + 1, _c] = table[_d, _r]
        for _c in range(4 * _R):
            _s = _c // _R
            m = 0
            for _x in range(_R * _s, _R * _s + _R):
                if STRENGTH[_d, _t + 1, _x] > STRENGTH[_d, _t + 1, _c]:
                    m |= 1 << _x
            HIGHER[_d, _t + 1, _c] = m

# Card points of one suit's pattern (bit r = rank r held), by [pack, kind, pattern], kind 0 = plain, 1 = trump
# with the jack/nine bonus. A pile's points are four lookups.
SUIT_POINTS = np.zeros((2, 2, 1 << MAX_R), dtype=np.int64)
for _d in range(2):
    _R = 8 + _d
    for _pat in range(1 << _R):
        for _kind, table in enumerate((POINTS_PLAIN, POINTS_TRUMP)):
            SUIT_POINTS[_d, _kind, _pat] = sum(int(table[_d, _r]) for _r in range(_R) if (_pat >> _r) & 1)

for _arr in (TRUMP_STRENGTH, NATURAL_POS, NATPOS_TO_R, POINTS_PLAIN, POINTS_TRUMP, SUIT_OF, RANK_OF, SUIT_MASK,
             ALL_CARDS, STRENGTH, HIGHER, CARD_POINTS, SUIT_POINTS):
    _arr.setflags(write=False)


def pack_index(deck_size: int) -> int:
    """0 for the 32-card pack, 1 for the 36-card pack."""
    return 0 if int(deck_size) == 32 else 1


def card_codes(deck_size: int = 32) -> tuple[str, ...]:
    """The codes of the pack in index order (``"H7" ... "SA"``; with 36 cards ``"H6" ... "SA"``)."""
    ranks = RANK_LETTERS[pack_index(deck_size)]
    return tuple(s + r for s in SUIT_LETTERS for r in ranks)


CARD_CODES_32 = card_codes(32)
CARD_CODES_36 = card_codes(36)
CODES_32 = CardCodes(CARD_CODES_32, "Tatteln (32-card pack)")
CODES_36 = CardCodes(CARD_CODES_36, "Tatteln (36-card pack)")
CODE_TO_CARD_32 = CODES_32.index
CODE_TO_CARD_36 = CODES_36.index


def pack_codes(deck_size: int) -> CardCodes:
    """The :class:`~tarockrl.engine.cardcodes.CardCodes` of the 32- or 36-card pack."""
    return CODES_32 if pack_index(deck_size) == 0 else CODES_36


def codes_of(deck_size: int) -> tuple[tuple[str, ...], dict[str, int]]:
    """``(codes by index, code -> index)`` of a pack."""
    if pack_index(deck_size) == 0:
        return CARD_CODES_32, CODE_TO_CARD_32
    return CARD_CODES_36, CODE_TO_CARD_36


def card_code(card: int, deck_size: int = 32) -> str:
    """The code of card index ``card`` (e.g. 6 -> ``"HT"`` in the 32-card pack)."""
    return codes_of(deck_size)[0][int(card)]


def parse_card(code: str, deck_size: int = 32) -> int:
    """The index of a card code such as ``"HT"``; raises ``ValueError`` naming an unknown code."""
    return pack_codes(deck_size).parse(code)


def mask_codes(mask: int, deck_size: int = 32) -> list[str]:
    """Codes of the cards in ``mask``, in index order."""
    return pack_codes(deck_size).mask_codes(mask)


def codes_mask(codes, deck_size: int = 32) -> int:
    """The mask of a list (or space-separated string) of card codes."""
    return pack_codes(deck_size).mask_of(codes)
