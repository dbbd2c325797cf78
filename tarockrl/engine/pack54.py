"""The 54-card "Industrie und Glück" / Cego tarock pack shared by several games: index, masks, counting.

The canonical index used by every 54-card game of the project: 0-21 are the tarocks (0 = I, the Pagat,
20 = XXI, the Mond, 21 = the top trump, called Sküs or Stieß), then hearts 22-29, diamonds 30-37, clubs
38-45 and spades 46-53. Each suit block runs from its lowest to its highest card (red suits 4 3 2 1 J N Q K,
black suits 7 8 9 10 J N Q K), so a higher index always beats a lower index of the same suit and every
tarock beats every plain card.

Nominal counting values: the three trull cards (I, XXI, top trump) and the kings 5, queens 4, cavalls 3,
jacks 2, every other card 1 (106 in the pack). ``point_sum`` adds them with five popcounts instead of a loop
over the cards, and ``thirds`` gives the exact card points of a pile in thirds of a point (every card counts
its value minus two thirds; the whole pack is 210 thirds = 70 points).

Only the code of the top trump differs between the games' specs, so :func:`card_codes` takes it as a
parameter.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.bits import popcount

__all__ = [
    "NUM_CARDS",
    "ALL",
    "TAROCKS",
    "HEARTS",
    "DIAMONDS",
    "CLUBS",
    "SPADES",
    "SUITS",
    "KINGS",
    "QUEENS",
    "CAVALLS",
    "JACKS",
    "TRULL",
    "CARD_VALUES",
    "SUIT_MASK_OF_CARD",
    "card_codes",
    "point_sum",
    "thirds",
]

NUM_CARDS = 54

ALL = np.int64((1 << 54) - 1)
TAROCKS = np.int64((1 << 22) - 1)
HEARTS = np.int64(0xFF << 22)
DIAMONDS = np.int64(0xFF << 30)
CLUBS = np.int64(0xFF << 38)
SPADES = np.int64(0xFF << 46)
SUITS = np.array([HEARTS, DIAMONDS, CLUBS, SPADES], dtype=np.int64)
SUITS.setflags(write=False)


def _court(offset: int) -> np.int64:
    return np.int64(sum(1 << (22 + 8 * s + offset) for s in range(4)))


JACKS = _court(4)
CAVALLS = _court(5)
QUEENS = _court(6)
KINGS = _court(7)
TRULL = np.int64((1 << 0) | (1 << 20) | (1 << 21))

# Cards worth at least 2, 3, 4 and 5 nominal points: value(c) = 1 + [c in GE2] + [c in GE3] + ...
_GE5 = np.int64(KINGS | TRULL)
_GE4 = np.int64(_GE5 | QUEENS)
_GE3 = np.int64(_GE4 | CAVALLS)
_GE2 = np.int64(_GE3 | JACKS)

_values = np.ones(NUM_CARDS, dtype=np.int64)
for _c in range(NUM_CARDS):
    _values[_c] = 1 + sum(int((int(m) >> _c) & 1) for m in (_GE2, _GE3, _GE4, _GE5))
CARD_VALUES = _values
CARD_VALUES.setflags(write=False)

_suit_of = np.empty(NUM_CARDS, dtype=np.int64)
for _c in range(NUM_CARDS):
    _suit_of[_c] = TAROCKS if _c <= 21 else SUITS[(_c - 22) // 8]
SUIT_MASK_OF_CARD = _suit_of
"""The follow-suit mask of every card (``TAROCKS`` for a tarock)."""
SUIT_MASK_OF_CARD.setflags(write=False)

_RED_RANKS = ("4", "3", "2", "1", "J", "N", "Q", "K")
_BLACK_RANKS = ("7", "8", "9", "10", "J", "N", "Q", "K")


def card_codes(top_trump_code: str) -> tuple[str, ...]:
    """The 54 short codes in index order: ``T1``..``T21``, the top trump's code, then ``H4``..``SK``."""
    return tuple(
        [f"T{i}" for i in range(1, 22)]
        + [top_trump_code]
        + [f"H{r}" for r in _RED_RANKS]
        + [f"D{r}" for r in _RED_RANKS]
        + [f"C{r}" for r in _BLACK_RANKS]
        + [f"S{r}" for r in _BLACK_RANKS]
    )


@njit(cache=True, inline="always")
def point_sum(mask):
    """Sum of the nominal counting values of the cards in ``mask`` (five popcounts, no loop)."""
    return (
        popcount(mask)
        + popcount(mask & _GE2)
        + popcount(mask & _GE3)
        + popcount(mask & _GE4)
        + popcount(mask & _GE5)
    )


@njit(cache=True, inline="always")
def thirds(mask):
    """Exact card points of the pile ``mask`` in thirds: ``3 * point_sum - 2 * number_of_cards``."""
    return 3 * point_sum(mask) - 2 * popcount(mask)
