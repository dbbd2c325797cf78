"""The 78-card Swiss 1JJ tarot pack of Troccas: canonical index, codes, two-word masks and card points.

Index 0-20 are the trumps I-XXI (``T1``..``T21``), 21 is the Fool (``FOOL``), then cups 22-35, coins 36-49,
batons 50-63 and swords 64-77, each suit from its lowest to its highest card. In the round suits (cups, coins)
the numerals run 10, 9, ..., 2, 1 upwards (the ace is the highest numeral); in the long suits (batons, swords)
1, 2, ..., 10. Jack ``V``, cavalier ``C``, queen ``Q`` and king ``K`` are offsets 10-13 of every suit block.

A card set is two int64 words (see :mod:`tarockrl.engine.wide`, ``split = 22``): the *trump word* ``tw`` holds
cards 0-21 at bits 0-21 and the *suit word* ``sw`` holds card ``i`` (22..77) at bit ``i - 22``, so suit ``S``
is the block ``0x3FFF << 14 S``.
"""

from __future__ import annotations

import numpy as np

from tarockrl.engine.cardcodes import CardCodes

NUM_CARDS = 78
SPLIT = 22  # cards below SPLIT live in the trump word, the others in the suit word
NUM_SUITS = 4
SUIT_LETTERS = ("c", "o", "b", "s")
SUIT_NAMES = ("cups", "coins", "batons", "swords")

_ROUND_RANKS = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "V", "C", "Q", "K"]
_LONG_RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "Q", "K"]

CARD_CODES: tuple[str, ...] = tuple(
    [f"T{i}" for i in range(1, 22)]
    + ["FOOL"]
    + [f"c{r}" for r in _ROUND_RANKS]
    + [f"o{r}" for r in _ROUND_RANKS]
    + [f"b{r}" for r in _LONG_RANKS]
    + [f"s{r}" for r in _LONG_RANKS]
)
CODES = CardCodes(CARD_CODES, "Troccas")  # raises if two codes differ only in case
CODE_TO_CARD: dict[str, int] = CODES.index

CARD_T1 = 0
CARD_T21 = 20
CARD_FOOL = 21
OFF_JACK, OFF_CAVALIER, OFF_QUEEN, OFF_KING = 10, 11, 12, 13


def jack_of(suit: int) -> int:
    """Card index of the jack of plain suit ``suit`` (0 cups .. 3 swords)."""
    return 32 + 14 * int(suit)


def king_of(suit: int) -> int:
    """Card index of the king of plain suit ``suit``."""
    return 35 + 14 * int(suit)


# ---- card points (docs/rules/troccas.md §2.4) ------------------------------------------------------------------------
_VALUES = np.ones(NUM_CARDS, dtype=np.int64)
for _c in (CARD_T1, CARD_T21, CARD_FOOL):
    _VALUES[_c] = 5
for _s in range(NUM_SUITS):
    _base = 22 + 14 * _s
    _VALUES[_base + OFF_JACK] = 2
    _VALUES[_base + OFF_CAVALIER] = 3
    _VALUES[_base + OFF_QUEEN] = 4
    _VALUES[_base + OFF_KING] = 5
CARD_VALUES = _VALUES
CARD_VALUES.setflags(write=False)
TOTAL_RAW_POINTS = int(CARD_VALUES.sum())  # 130

# ---- masks of the trump word (docs/rules/troccas.md §9.5) ------------------------------------------------------------
TW_ALL = np.int64((1 << 22) - 1)
TRUMPS = np.int64(0x1FFFFF)  # trumps I..XXI (never the Fool)
FOOL = np.int64(0x200000)
TW_FIVES = np.int64(0x300001)  # T1, T21, Fool
MID_TRUMPS = np.int64(TRUMPS & ~np.int64(1) & ~np.int64(1 << 20))  # trumps II..XX
TW_NO_SCART = np.int64(0x300001)  # trump I, trump XXI and the Fool may never be discarded

# ---- masks of the suit word ----------------------------------------------------------------------------------
SW_ALL = np.int64((1 << 56) - 1)
SUIT_MASKS = np.array([0x3FFF << (14 * s) for s in range(NUM_SUITS)], dtype=np.int64)
SUIT_MASKS.setflags(write=False)
KINGS = np.int64(0x80020008002000)
QUEENS = np.int64(0x40010004001000)
CAVALIERS = np.int64(0x20008002000800)
JACKS = np.int64(0x10004001000400)
NUMERALS = np.int64(SW_ALL & ~(KINGS | QUEENS | CAVALIERS | JACKS))
SUIT_NUMERALS = np.array([0x3FF << (14 * s) for s in range(NUM_SUITS)], dtype=np.int64)
SUIT_NUMERALS.setflags(write=False)

# ---- per-card tables -----------------------------------------------------------------------------------------
LED_TRUMP = 4  # led-suit code of a trump; plain suits are 0..3
SUIT_OF_CARD = np.empty(NUM_CARDS, dtype=np.int64)  # 0..3 plain suit, 4 trump, -1 the Fool
for _c in range(NUM_CARDS):
    if _c < CARD_FOOL:
        SUIT_OF_CARD[_c] = LED_TRUMP
    elif _c == CARD_FOOL:
        SUIT_OF_CARD[_c] = -1
    else:
        SUIT_OF_CARD[_c] = (_c - 22) // 14
SUIT_OF_CARD.setflags(write=False)


card_code = CODES.code
parse_card = CODES.parse


def card_set(tw: int, sw: int) -> list[int]:
    """Card indices of the two-word set ``(tw, sw)``, in index order."""
    tw, sw = int(tw), int(sw)
    return [i for i in range(SPLIT) if (tw >> i) & 1] + [SPLIT + i for i in range(56) if (sw >> i) & 1]


def set_codes(tw: int, sw: int) -> list[str]:
    """Codes of the cards in the two-word set ``(tw, sw)``, in index order."""
    return [CARD_CODES[i] for i in card_set(tw, sw)]


def words_of(cards) -> tuple[int, int]:
    """The two-word set ``(tw, sw)`` of an iterable of card indices."""
    tw = sw = 0
    for c in cards:
        c = int(c)
        if c < SPLIT:
            tw |= 1 << c
        else:
            sw |= 1 << (c - SPLIT)
    return tw, sw
