"""The Dreiertarock pack: the shared 54-card index of :mod:`tarockrl.engine.pack54` with this game's codes.

Tarocks ``T1`` (Pagat) .. ``T21`` (Mond) and ``SKS`` (Sküs) are indices 0-21; hearts 22-29, diamonds 30-37,
clubs 38-45 and spades 46-53 follow, each from its lowest card to its king (``H4 H3 H2 H1 HJ HN HQ HK``,
``C7 C8 C9 C10 CJ CN CQ CK``). The masks below are the ones the rules refer to by name.
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
    SUIT_MASK_OF_CARD,
    TAROCKS,
    TRULL,
    card_codes,
)

CODES = CardCodes(card_codes("SKS"), "Dreiertarock")
CARD_CODES: tuple[str, ...] = CODES.codes
CODE_TO_CARD: dict[str, int] = CODES.index

PAGAT = 0
UHU = 1
KAKADU = 2
MOND = 20
SKUES = 21
BIRD_CARDS = (PAGAT, UHU, KAKADU)

T1_MASK = np.int64(1)
T21_MASK = np.int64(1 << MOND)
SKS_MASK = np.int64(1 << SKUES)
NONTRULL_TAROCKS = np.int64(TAROCKS & ~TRULL)  # tarocks II..XX
PLAIN = np.int64(ALL & ~TAROCKS)
PLAIN_NONKING = np.int64(PLAIN & ~KINGS)
OTHER_TAROCKS = np.int64(TAROCKS & ~T1_MASK)  # every tarock except the Pagat

__all__ = [
    "ALL", "CARD_VALUES", "CLUBS", "DIAMONDS", "HEARTS", "KINGS", "NUM_CARDS", "SPADES", "SUIT_MASK_OF_CARD",
    "TAROCKS", "TRULL", "CARD_CODES", "CODE_TO_CARD", "PAGAT", "UHU", "KAKADU", "MOND", "SKUES", "BIRD_CARDS",
    "T1_MASK", "T21_MASK", "SKS_MASK", "NONTRULL_TAROCKS", "PLAIN", "PLAIN_NONKING", "OTHER_TAROCKS", "CODES",
    "card_code", "parse_card", "mask_codes",
]


card_code = CODES.code
parse_card = CODES.parse
mask_codes = CODES.mask_codes
