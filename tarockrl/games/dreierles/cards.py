"""The 54-card Cego pack of Dreierles: canonical index, codes, masks and counting values.

Index 0-21 are the trumps (0 = the Pfeife ``T1``, 20 = ``T21``, 21 = the Stieß ``ST``); then hearts 22-29,
diamonds 30-37, clubs 38-45 and spades 46-53, each suit from its lowest to its highest card, so a higher
index always beats a lower one of the same suit.
"""

from __future__ import annotations

import numpy as np

NUM_CARDS = 54

_RED_RANKS = ["4", "3", "2", "1", "J", "N", "Q", "K"]
_BLACK_RANKS = ["7", "8", "9", "10", "J", "N", "Q", "K"]

CARD_CODES: tuple[str, ...] = tuple(
    [f"T{i}" for i in range(1, 22)]
    + ["ST"]
    + [f"H{r}" for r in _RED_RANKS]
    + [f"D{r}" for r in _RED_RANKS]
    + [f"C{r}" for r in _BLACK_RANKS]
    + [f"S{r}" for r in _BLACK_RANKS]
)
CODE_TO_CARD: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}

# Counting values: Stieß, 21, Pfeife and kings 5; queens 4; cavaliers 3; jacks 2; everything else 1.
_VALUES = np.ones(NUM_CARDS, dtype=np.int64)
for _c in (0, 20, 21):
    _VALUES[_c] = 5
for _s in range(4):
    _base = 22 + 8 * _s
    _VALUES[_base + 4] = 2  # jack
    _VALUES[_base + 5] = 3  # cavalier
    _VALUES[_base + 6] = 4  # queen
    _VALUES[_base + 7] = 5  # king
CARD_VALUES = _VALUES
CARD_VALUES.setflags(write=False)

# value classes for counting a pile with popcounts: card value = 1 + sum of the class bonuses it belongs to
VALUE_CLASS_MASKS = np.array(
    [sum(1 << c for c in range(NUM_CARDS) if CARD_VALUES[c] == v) for v in (2, 3, 4, 5)], dtype=np.int64
)
VALUE_CLASS_EXTRA = np.array([1, 2, 3, 4], dtype=np.int64)
VALUE_CLASS_MASKS.setflags(write=False)
VALUE_CLASS_EXTRA.setflags(write=False)

ALL = np.int64((1 << 54) - 1)
TRUMPS = np.int64((1 << 22) - 1)
HEARTS = np.int64(0xFF << 22)
DIAMONDS = np.int64(0xFF << 30)
CLUBS = np.int64(0xFF << 38)
SPADES = np.int64(0xFF << 46)
KINGS = np.int64((1 << 29) | (1 << 37) | (1 << 45) | (1 << 53))
PFEIFE = np.int64(1)
T21 = np.int64(1 << 20)
STIESS = np.int64(1 << 21)
DRULLE = PFEIFE | T21 | STIESS
MID_TRUMPS = np.int64(TRUMPS & ~DRULLE)
PLAIN_NON_KING = np.int64((ALL & ~TRUMPS) & ~KINGS)

CARD_T1 = 0
CARD_T21 = 20
CARD_ST = 21

# suit mask of every card (trumps -> TRUMPS), used for follow-suit
SUIT_OF_CARD = np.empty(NUM_CARDS, dtype=np.int64)
for _c in range(NUM_CARDS):
    if _c <= 21:
        SUIT_OF_CARD[_c] = TRUMPS
    else:
        SUIT_OF_CARD[_c] = np.int64(0xFF << (22 + 8 * ((_c - 22) // 8)))
SUIT_OF_CARD.setflags(write=False)

SUIT_NAMES = ("trumps", "hearts", "diamonds", "clubs", "spades")


def card_code(card: int) -> str:
    """The spec's code of card index ``card`` (e.g. 0 -> ``"T1"``)."""
    return CARD_CODES[int(card)]


def parse_card(code: str) -> int:
    """The card index of a code such as ``"HK"``; raises ``ValueError`` naming an unknown code."""
    try:
        return CODE_TO_CARD[str(code).strip().upper()]
    except KeyError:
        raise ValueError(f"unknown Dreierles card code {code!r}; codes are {', '.join(CARD_CODES)}") from None


def mask_codes(mask: int) -> list[str]:
    """Codes of the cards in ``mask``, in index order."""
    mask = int(mask)
    return [CARD_CODES[i] for i in range(NUM_CARDS) if (mask >> i) & 1]
