"""The Tatteln state row: one int64 vector (slots named here), the phase codes and the action layout.

Card sets are int64 masks in the canonical index (:mod:`.cards`); seats are 0 and 1; ``-1`` means "none".
The row has ``HIST + 6K - 7`` slots: 128 (1024 bytes) in the 32-card pack, 140 with 36 cards, because the
history holds one slot per action and the spec bounds an episode by ``6K - 7`` actions. Rarely read facts are
packed into bit fields (see the ``*_SHIFT`` constants) to keep the default row at 1 KiB.

The deal itself is kept as the shuffle ``d[0..N-1]`` (``DECK``, ten 6-bit card numbers per word): hands are
``d[0], d[2], ...`` (forehand) and ``d[1], d[3], ...`` (dealer), the turn-up is ``d[2*HAND]`` and the face-down
stock follows it. The stock's draw list is ``d[2H+1], ..., d[N-1], BOTTOM`` where ``BOTTOM`` is the face-up bottom
card (the turn-up, or the trump seven after a ROB); under ``no_trump`` it is ``d[2H], ..., d[N-1]``.
"""

from __future__ import annotations

from tarockrl.engine.layout import Fields

# ---- phases ---------------------------------------------------------------------------------------------------
STOCK_PHASE, FINAL_PHASE, TERMINAL = 0, 1, 2
PHASE_NAMES = ("stock", "final", "terminal")

# ---- status codes returned by apply ---------------------------------------------------------------------------
OK, ILLEGAL, GAME_OVER = 0, 1, 2


# ---- actions (the spec's flat layout: PLAY(c) = c, then N, N+1, N+2) -------------------------------------------
def num_actions(deck_size: int) -> int:
    """N + 3: 35 with 32 cards, 39 with 36."""
    return deck_size + 3


def a_seq(deck_size: int) -> int:
    """ANNOUNCE_SEQ = N."""
    return deck_size


def a_set(deck_size: int) -> int:
    """ANNOUNCE_SET = N + 1."""
    return deck_size + 1


def a_rob(deck_size: int) -> int:
    """ROB = N + 2."""
    return deck_size + 2


# ---- turn flags (FLAGS slot) ----------------------------------------------------------------------------------
F_ROB, F_SEQ, F_SET = 1, 2, 4

# ---- slots ----------------------------------------------------------------------------------------------------
_slots = Fields()
_take = _slots.take


MAGIC = _take("magic")  # layout tag, checked when decoding bytes
PHASE = _take("phase")  # STOCK_PHASE / FINAL_PHASE: kind of the current trick; TERMINAL at the end
CUR = _take("cur")  # seat to act, -1 at the end
DEALER = _take("dealer")
LEADER = _take("leader")  # leader of the current trick
LED = _take("led")  # card led to the current trick, -1 before the lead
TRICKS = _take("tricks")  # completed tricks, 0..K
FLAGS = _take("flags")  # turn flags F_ROB | F_SEQ | F_SET of the current turn
TRUMP = _take("trump")  # trump suit 0..3, -1 under no_trump
BOTTOM = _take("bottom")  # the face-up bottom card while the stock lasts, else -1
STOCK_POS = _take("stock_pos")  # cards drawn from the stock so far (even)
DECK = _take("deck", 4)  # the shuffle d[0..N-1], 6 bits per card, 10 cards per word
HAND = _take("hand", 2)  # current hands
PLAYED = _take("played", 2)  # cards each seat has played
WON = _take("won", 2)  # cards in each seat's pile of won tricks
REVEALED = _take("revealed", 2)  # cards of each hand that are public (scored atoms, robbed turn-up, bottom card)
MELD = _take("meld", 2)  # meld points scored
FINAL_WON = _take("final_won", 2)  # final-phase tricks won
SCORED = _take("scored", 4)  # scored windows: seat p uses SCORED+2p (suits 0, 1) and SCORED+2p+1 (suits 2, 3),
#                              32 bits per suit, local window ids (see melds)
SETS = _take("sets")  # per seat p: trio_scored r-pattern at bit 18p, four_scored at bit 18p + 9
EVENTS = _take("events")  # packed: robber+1, bottom drawer+1, matsched+1, settlement multiplier
LAST_TRICK = _take("last_trick")  # packed: the last completed trick (lead+1, follow+1, leader, winner)
ANN = _take("ann")  # packed: the last announcement (count, announcer, class, outcome, ka, kb)
ANN_PTS = _take("ann_pts")  # points each seat scored in the last announcement (seat 1 in the high 32 bits)
RESULT = _take("result", 2)  # settlement at the end
HIST_LEN = _take("hist_len")
HIST = _take("hist", 0)  # the history: 3N - 7 slots follow (89 with 32 cards, 101 with 36)
SLOT_WIDTHS = _slots.widths
LAYOUT_MAGIC = 0x54415454_0001  # "TATT" + layout version

# EVENTS fields
EV_ROBBER_SHIFT = 0  # 2 bits: robber + 1 (0 = nobody robbed)
EV_DRAWER_SHIFT = 2  # 2 bits: seat that drew the face-up bottom card + 1
EV_MATSCH_SHIFT = 4  # 2 bits: matsched seat + 1
EV_MULT_SHIFT = 8  # settlement multiplier (1, or matsch_multiplier)
# LAST_TRICK fields
LT_LEAD_SHIFT, LT_FOLLOW_SHIFT, LT_LEADER_SHIFT, LT_WINNER_SHIFT = 0, 8, 16, 17
# ANN fields
ANN_COUNT_SHIFT, ANN_BY_SHIFT, ANN_CLASS_SHIFT, ANN_OUTCOME_SHIFT = 0, 8, 9, 10
ANN_KA_SHIFT, ANN_KB_SHIFT = 16, 24
OUT_GOOD, OUT_NOT_GOOD, OUT_EQUAL = 0, 1, 2
OUTCOME_NAMES = ("good", "not good", "equal")
CLASS_NAMES = ("SEQ", "SET")

del _take


def hist_capacity(deck_size: int) -> int:
    """6K - 7 = 3N - 7 history slots."""
    return 3 * deck_size - 7


def state_len(deck_size: int) -> int:
    """Slots of a row: 128 with 32 cards, 140 with 36."""
    return HIST + hist_capacity(deck_size)


STATE_LEN_MAX = state_len(36)

# sizes with the default 32-card pack (a game with other options has its own, see tatteln.specialize)
NUM_ACTIONS = num_actions(32)
STATE_LEN = state_len(32)
MAX_EPISODE_LENGTH = 3 * 32 - 7
