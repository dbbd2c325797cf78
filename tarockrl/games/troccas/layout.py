"""The Troccas state row: one int64 vector of ``STATE_LEN`` slots (named here), phases and the action layout.

Card sets are two int64 words (``*_TW`` trump word, ``*_SW`` suit word, see :mod:`.cards`); seats are 0-3
anticlockwise, team ``t = seat % 2``; ``-1`` means "none". A batch is a ``[n, STATE_LEN]`` int64 array.

Randomness inside an episode: a thrown-in or force-redealt deal needs a fresh shuffle. The generator state for
it lives in slot ``RNG`` (SplitMix64, :mod:`tarockrl.engine.rng`), so the row alone determines the rest of the
episode for any action sequence. For ``deal(seed, deal_id)`` it continues the stream ``(seed, deal_id)`` that
dealt the first attempt; for a deal dict it is seeded from the dict's contents (so the same dict always gives
the same episode). Every attempt's card order is archived (packed, ``ARCHIVE``), so ``State.deal()`` returns
the deal with all redeals that happened, and replays are exact.

The history slots come last so that copying a row's prefix up to ``HIST + hist_len`` copies its meaning.
"""

from __future__ import annotations

from tarockrl.engine.layout import Fields
from tarockrl.games.troccas.rules import MAX_REDEALS_CAP

# ---- phases ---------------------------------------------------------------------------------------------
PATTERN, TALK, VOTE, FORCE, SCART, PLAY, BUOB, TERMINAL = range(8)
PHASE_NAMES = ("pattern", "talk", "vote", "force", "scart", "play", "buob", "terminal")

# ---- packet patterns (3) ------------------------------------------------------------------------------------
STANDARD, NINE_TEN, SINGLE = 0, 1, 2
PATTERN_NAMES = ("STANDARD", "NINE_TEN", "SINGLE")
NUM_PACKETS = (3, 2, 1)
# end (exclusive) of packet j in a seat's ordered cards: [pattern][j]; non-dealers then the dealer
NONDEALER_ENDS = ((6, 12, 19), (9, 19, 19), (19, 19, 19))
DEALER_ENDS = ((6, 12, 21), (9, 21, 21), (21, 21, 21))

# ---- actions (the flat layout of docs/rules/troccas.md §9.2, 114 actions) --------------------------------------------
A_CARD = 0  # + card index (play in PLAY, discard in SCART)
A_DOUBLE = 78  # + suit: LEAD_KING_WITH_JACK(S)
A_EARLY = 82  # + message E0..E9
A_FINAL = 92  # + message F0..F11
A_KEEP = 104
A_THROW = 105
A_DECLINE = 106
A_FORCE = 107
A_PATTERN = 108  # + pattern
A_NO_DEMAND = 111
A_DEMAND = 112
A_KNOCK = 113
NUM_ACTIONS = 114
NUM_EARLY = 10
NUM_FINAL = 12
# Legal sets are three int64 words (tw, sw, ex): bit i of tw = action i (0..21), bit i of sw = action 22 + i
# (22..77), bit i of ex = action 78 + i (78..113). Ascending bit order in that word order is ascending action order.
EX_BASE = 78
EX_DOUBLE = 0
EX_EARLY = A_EARLY - EX_BASE
EX_FINAL = A_FINAL - EX_BASE
EX_KEEP = A_KEEP - EX_BASE
EX_PATTERN = A_PATTERN - EX_BASE
EX_NO_DEMAND = A_NO_DEMAND - EX_BASE
EX_DECLINE = A_DECLINE - EX_BASE
EX_KNOCK = A_KNOCK - EX_BASE

EARLY_MESSAGES = (
    "silent", "strusch in", "in", "tric e trac", "jeu mirel", "autras", "nuot", "il narr", "il narr blut",
    "jeu lasch liber",
)
FINAL_MESSAGES = (
    "silent", "in troschet", "ina trocca", "in tunnel", "da Medel", "da Tujetsch", "ina cuort", "in pass",
    "jeu gidel", "pli bugen autras", "jeu sun buc cheu", "fai scart",
)

# ---- status codes returned by apply ----------------------------------------------------------------------
OK, ILLEGAL, GAME_OVER = 0, 1, 2

# ---- sizes ---------------------------------------------------------------------------------------------------
ARCHIVE_WORDS = 9  # 78 card indices of 7 bits, 9 per int64
MAX_ATTEMPTS = MAX_REDEALS_CAP + 1
# the bound of docs/rules/troccas.md §9.4 at the largest allowed options
HIST_CAP = 1 + MAX_REDEALS_CAP * 25 + 12 + 2 + 76 + 4 + 21
MAX_EPISODE_LENGTH = HIST_CAP

# ---- slots -------------------------------------------------------------------------------------------------
_slots = Fields()
_take = _slots.take


MAGIC = _take("magic")  # layout tag, checked when decoding bytes
PHASE = _take("phase")
CUR = _take("cur")  # seat to act, -1 when terminal
DEALER = _take("dealer")
BAL = _take("bal", 2)  # match balance given to the episode (team A, team B)
PATTERN_SLOT = _take("pattern")  # packet pattern of this episode
PATTERN_BY = _take("pattern_by")  # seat that chose it in PATTERN, -1 when the phase was skipped
REDEAL_COUNT = _take("redeal_count")
N_THROWN = _take("n_thrown")  # redeals by throw-in (public)
N_FORCED = _take("n_forced")  # redeals forced by the dealer (public)
RNG = _take("rng")  # generator state for in-episode redeals
N_ARCHIVED = _take("n_archived")  # attempts 0..n-1 are in ARCHIVE; the current one is in PERM (maybe only there)
PACKET = _take("packet")  # index of the last packet dealt in the current attempt
PAUSE_POS = _take("pause_pos")  # talk / vote actions taken in the current pause
HAND_TW = _take("hand_tw", 4)
HAND_SW = _take("hand_sw", 4)
EXPOSED = _take("exposed", 4)  # face-up last card per seat, -1 before it is dealt or without the option
TALK_LOG = _take("talk_log", 12)  # [pause * 4 + seat]: message id, -1 none (current attempt)
VOTE_LOG = _take("vote_log", 12)  # [pause * 4 + seat]: 0 keep, 1 throw in, -1 none (current attempt)
FORCE_SEEN = _take("force_seen")  # dealer-private: 0 not entered, 1 entered (pending), 2 declined
SCART_TW = _take("scart_tw")
SCART_SW = _take("scart_sw")
SCART_N = _take("scart_n")
SCART_JACK = _take("scart_jack")  # scart_jack_voids_all only: -1 not announced, 0 no jack, 1 a jack
LEADER = _take("leader")
TRICK_N = _take("trick_n")  # cards in the current trick
IS_DOUBLE = _take("is_double")
LED = _take("led")  # led suit of the current trick: -1 none yet, 0..3 plain, 4 trump
SETTER_POS = _take("setter_pos")  # position of the card that set the led suit, -1 none
TRICK_CARD = _take("trick_card", 8)  # by position in the trick
TRICK_SEAT = _take("trick_seat", 8)
TRICK_TW = _take("trick_tw")
TRICK_SW = _take("trick_sw")
TRICK_WINNER = _take("trick_winner")  # winner of the completed trick awaiting BUOB, -1 otherwise
BUOB_SUIT = _take("buob_suit")  # suit of the pending jack demand, -1 none
LED_SUITS = _take("led_suits")  # bit S: plain suit S was the led suit of a completed trick
PLAYED_TW = _take("played_tw")  # cards in completed tricks or in the current trick
PLAYED_SW = _take("played_sw")
PLAYED_BY_TW = _take("played_by_tw", 4)  # per seat (a jack swap moves the numeral back and the jack in)
PLAYED_BY_SW = _take("played_by_sw", 4)
PILE_TW = _take("pile_tw", 2)  # per team
PILE_SW = _take("pile_sw", 2)
TRICKS_WON = _take("tricks_won", 2)
TRICK_NO = _take("trick_no")  # completed tricks
LAST_N = _take("last_n")  # the last completed trick (after any swap)
LAST_CARD = _take("last_card", 8)
LAST_SEAT = _take("last_seat", 8)
LAST_WINNER = _take("last_winner")
FOOL_SEAT = _take("fool_seat")  # who played the Fool, -1 not yet
FOOL_TRICK_TEAM = _take("fool_trick_team")  # team that won the Fool's trick when not the Fool's team, else -1
KNOCKED_FOR = _take("knocked_for", 4)  # per seat: trump knocked for most recently, -1 none
KNOCKS_TW = _take("knocks_tw", 4)  # per seat: every trump it knocked for
N_KNOCKS = _take("n_knocks")
BUOB_RESULT = _take("buob_result", 4)  # per suit: -1 none, 0 no demand, 1 demand without swap, 2 swap
SWAP_SEAT = _take("swap_seat", 4)  # per suit: seat that gave the jack, -1 none
SWAP_CARD = _take("swap_card", 4)  # per suit: numeral it took back, -1 none
SCART_TEAM = _take("scart_team")  # END: team that received the scart
FOOL_OUTCOME = _take("fool_outcome")  # END: 0 nothing to settle, 1 redeemed, 2 lost
FOOL_PAID = _take("fool_paid")  # END: card handed over for the Fool, -1 none
POINTS = _take("points", 2)  # END: card points per team
RESULT = _take("result", 4)  # END: settlement per seat
HIST_LEN = _take("hist_len")
ARCHIVE = _take("archive", MAX_ATTEMPTS * ARCHIVE_WORDS)  # card order of every attempt, packed
PERM = _take("perm", 78)  # card order of the current attempt: seats d+1, d+2, d+3 (19 each), dealer (21)
HIST = _take("hist", HIST_CAP)
STATE_LEN = _slots.size
SLOT_WIDTHS = _slots.widths
LAYOUT_MAGIC = 0x54524F43_0001  # "TROC" + layout version

del _take
