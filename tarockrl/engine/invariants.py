"""The one table of broken-invariant codes, shared by every game's ``check_invariants`` and the sweep drivers.

``check_invariants(row, opts)`` returns 0 for a consistent row, else the code of the first broken invariant;
``Game.invariant_sweep`` returns one code per deal. A game uses the codes that apply to it; a code keeps its
meaning in every game. :data:`NAMES` maps a code to its name (``describe(code)`` gives the sentence).
"""

from __future__ import annotations

OK = 0
CARDS = 1  # a card in two places, or missing
LEGAL_SET = 2  # an empty legal set before the end, or a legal set at the end
TOO_MANY_ACTIONS = 3  # the history is longer than the episode bound
COUNTS = 4  # hand sizes or played-card counts disagree with the tricks (and the stock)
SETTLEMENT = 5  # the settlement is not zero-sum (or not zero before the end)
POINTS = 6  # card points do not add up to the pack's total (or negative meld points)
FINAL_SHAPE = 7  # a finished deal of impossible length, pile sizes or trick counts
NO_SEAT_TO_ACT = 8  # phase, seat to move or a counter out of range; no seat to act while the deal runs
LAYOUT = 9  # a wrong layout tag, or a field out of its range
AUCTION = 10  # the auction state is broken (holder to act, wrong level)
VOIDS = 11  # a hand holds a card of a suit its seat has shown to lack
PLAYED = 12  # played-card bookkeeping disagrees with the piles and the trick
REVEALED = 13  # revealed (announced) cards outside their owner's hand
FINAL_TRICKS = 14  # the tricks won in the final phase do not add up
STOCK = 15  # the stock position is inconsistent with the phase
DEAL_ORDER = 16  # the card order of a deal attempt is not a permutation

NAMES = {
    OK: "OK",
    CARDS: "CARDS",
    LEGAL_SET: "LEGAL_SET",
    TOO_MANY_ACTIONS: "TOO_MANY_ACTIONS",
    COUNTS: "COUNTS",
    SETTLEMENT: "SETTLEMENT",
    POINTS: "POINTS",
    FINAL_SHAPE: "FINAL_SHAPE",
    NO_SEAT_TO_ACT: "NO_SEAT_TO_ACT",
    LAYOUT: "LAYOUT",
    AUCTION: "AUCTION",
    VOIDS: "VOIDS",
    PLAYED: "PLAYED",
    REVEALED: "REVEALED",
    FINAL_TRICKS: "FINAL_TRICKS",
    STOCK: "STOCK",
    DEAL_ORDER: "DEAL_ORDER",
}
"""Code -> name."""

_SENTENCES = {
    OK: "consistent",
    CARDS: "a card is in two places, or missing",
    LEGAL_SET: "an empty legal set before the end, or a legal set at the end",
    TOO_MANY_ACTIONS: "the history is longer than the episode bound",
    COUNTS: "hand sizes or played-card counts disagree with the tricks",
    SETTLEMENT: "the settlement is not zero-sum (or not zero before the end)",
    POINTS: "card points do not add up",
    FINAL_SHAPE: "a finished deal of impossible length, pile sizes or trick counts",
    NO_SEAT_TO_ACT: "phase, seat to move or a counter out of range (no seat to act)",
    LAYOUT: "a wrong layout tag, or a field out of its range",
    AUCTION: "the auction state is broken",
    VOIDS: "a hand holds a card of a suit its seat has shown to lack",
    PLAYED: "played-card bookkeeping disagrees with the piles and the trick",
    REVEALED: "revealed cards outside their owner's hand",
    FINAL_TRICKS: "the tricks won in the final phase do not add up",
    STOCK: "the stock position is inconsistent with the phase",
    DEAL_ORDER: "the card order of a deal attempt is not a permutation",
}


def describe(code: int) -> str:
    """``"NAME: sentence"`` for a code of this table (``"UNKNOWN(code)"`` otherwise)."""
    code = int(code)
    if code not in NAMES:
        return f"UNKNOWN({code})"
    return f"{NAMES[code]}: {_SENTENCES[code]}"
