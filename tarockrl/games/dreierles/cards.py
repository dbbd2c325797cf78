"""The 54-card Cego pack of Dreierles: canonical index, codes, masks and counting values.

Index 0-21 are the trumps (0 = the Pfeife ``T1``, 20 = ``T21``, 21 = the Stieß ``ST``); then hearts 22-29,
diamonds 30-37, clubs 38-45 and spades 46-53, each suit from its lowest to its highest card, so a higher
index always beats a lower one of the same suit.
"""

from __future__ import annotations

import numpy as np

from tarockrl.engine.cardcodes import CardCodes
from tarockrl.engine.pack54 import (
    ALL,
    CARD_VALUES,
    CLUBS,
    DIAMONDS,
    HEARTS,
    KINGS,
    NUM_CARDS,
    SPADES,
    card_codes,
)
from tarockrl.engine.pack54 import SUIT_MASK_OF_CARD as SUIT_OF_CARD
from tarockrl.engine.pack54 import TAROCKS as TRUMPS

__all__ = [
    "ALL", "CARD_CODES", "CARD_T1", "CARD_T21", "CARD_ST", "CARD_VALUES", "CODES", "CODE_TO_CARD", "CLUBS",
    "DIAMONDS", "DRULLE", "HEARTS", "KINGS", "MID_TRUMPS", "NUM_CARDS", "PFEIFE", "PLAIN_NON_KING", "SPADES",
    "STIESS", "SUIT_NAMES", "SUIT_OF_CARD", "T21", "TRUMPS", "VALUE_CLASS_EXTRA", "VALUE_CLASS_MASKS",
    "card_code", "mask_codes", "parse_card",
]

CODES = CardCodes(card_codes("ST"), "Dreierles")
CARD_CODES: tuple[str, ...] = CODES.codes
CODE_TO_CARD: dict[str, int] = CODES.index

# Counting values (the shared 54-card values of engine/pack54.py): Stieß, 21, Pfeife and kings 5; queens 4;
# cavaliers 3; jacks 2; everything else 1.

# value classes for counting a pile with popcounts: card value = 1 + sum of the class bonuses it belongs to
VALUE_CLASS_MASKS = np.array(
    [sum(1 << c for c in range(NUM_CARDS) if CARD_VALUES[c] == v) for v in (2, 3, 4, 5)], dtype=np.int64
)
VALUE_CLASS_EXTRA = np.array([1, 2, 3, 4], dtype=np.int64)
VALUE_CLASS_MASKS.setflags(write=False)
VALUE_CLASS_EXTRA.setflags(write=False)

PFEIFE = np.int64(1)
T21 = np.int64(1 << 20)
STIESS = np.int64(1 << 21)
DRULLE = PFEIFE | T21 | STIESS
MID_TRUMPS = np.int64(TRUMPS & ~DRULLE)
PLAIN_NON_KING = np.int64((ALL & ~TRUMPS) & ~KINGS)

CARD_T1 = 0
CARD_T21 = 20
CARD_ST = 21

SUIT_NAMES = ("trumps", "hearts", "diamonds", "clubs", "spades")


card_code = CODES.code
parse_card = CODES.parse
mask_codes = CODES.mask_codes
