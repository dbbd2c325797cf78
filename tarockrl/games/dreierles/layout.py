"""The Dreierles state row: one int64 vector of ``STATE_LEN`` slots (named here), and the phase codes.

Card sets are int64 masks in the canonical index; seats are 0, 1, 2 in playing order; ``-1`` means "none".
A batch of states is a ``[n, STATE_LEN]`` int64 array, so cloning is a copy and saving is ``tobytes()``.
"""

from __future__ import annotations

from tarockrl.engine.layout import Fields

# ---- phases ---------------------------------------------------------------------------------------------
AUCTION, DISCARD, ANNOUNCE, KNOCK, REKNOCK, RAEUBER_KNOCK, PLAY, TERMINAL = range(8)
PHASE_NAMES = ("auction", "discard", "announce", "knock", "reknock", "raeuber_knock", "play", "terminal")

# ---- actions (the flat layout of the spec, 117 actions) ----------------------------------------------------
A_PASS = 0
A_BID_DREIER = 1  # contract codes 1..4 = Dreier, Zweier, Einer, Solo; action = contract code
A_BID_SOLO = 4
A_DISCARD = 5  # + card
A_ANNOUNCE = 59
A_NO_ANNOUNCE = 60
A_KNOCK = 61
A_NO_KNOCK = 62
A_PLAY = 63  # + card
NUM_ACTIONS = 117
MAX_EPISODE_LENGTH = 56
CONTRACT_NAMES = ("none", "Dreier", "Zweier", "Einer", "Solo")

# ---- status codes returned by apply ----------------------------------------------------------------------
OK, ILLEGAL, GAME_OVER = 0, 1, 2

# ---- slots -------------------------------------------------------------------------------------------------
_slots = Fields()
_take = _slots.take


MAGIC = _take("magic")  # layout tag, checked when decoding bytes
PHASE = _take("phase")
DEALER = _take("dealer")
CUR = _take("cur")  # seat to move, -1 when terminal
HAND = _take("hand", 3)  # current hands
DEALT = _take("dealt", 3)  # hands as dealt
START_HAND = _take("start_hand", 3)  # hands at the start of trick play
BLIND = _take("blind", 6)  # blind card indices, top first
BLIND_TAKEN = _take("blind_taken")  # mask given to the declarer (public)
BLIND_REST = _take("blind_rest")  # mask left to the defenders' pile
BID = _take("bid", 3)  # per seat: -1 no turn / silent, 0 pass, 1..4 contract bid
AUCTION_POS = _take("auction_pos")  # turns taken in the auction
HIGH = _take("high")  # highest bid so far (0 none)
DECLARER = _take("declarer")  # -1 none (auction or Räuber)
RAEUBER = _take("raeuber")  # 1 when all passed
DISCARD_LEFT = _take("discard_left")
DISCARDS = _take("discards")  # declarer's discards (mask)
FALLBACK = _take("fallback")  # trumps discarded under the fallback (public)
ANNOUNCED = _take("announced")  # -1 undecided / not applicable, 0 declined, 1 announced
STEP = _take("step")  # position in the post-exchange step order
ASK_IDX = _take("ask_idx")  # next knock candidate position
KNOCKS = _take("knocks")
KNOCK_DEC = _take("knock_dec", 3)  # per seat: -1 not asked, 0 no knock, 1 knock (defender or Räuber knock)
REKNOCK_DEC = _take("reknock_dec")  # -1 not asked, 0 no, 1 re-knock
TRICK_NO = _take("trick_no")  # completed tricks, 0..16
LEADER = _take("leader")
TRICK_N = _take("trick_n")  # cards in the current trick
TRICK_CARD = _take("trick_card", 3)  # by position in the trick
PLAYED_BY = _take("played_by", 3)  # cards each seat has played
WON = _take("won", 3)  # cards each seat has won in tricks
VOIDS = _take("voids", 3)  # suits (as card masks) each seat has shown it lacks by not following
STIESS_PLAYED = _take("stiess_played")  # Stieß played in an earlier trick
N_TRUMP_LED = _take("n_trump_led")  # tricks led with a trump, the current one included
LAST_LEADER = _take("last_leader")
LAST_WINNER = _take("last_winner")
LAST_TRICK = _take("last_trick", 3)  # cards of the final trick by position
POINTS = _take("points", 3)  # at the end: card points of each seat's side (each own pile in Räuber)
RESULT = _take("result", 3)  # settlement in game points
HIST_LEN = _take("hist_len")
HIST = _take("hist", MAX_EPISODE_LENGTH)
STATE_LEN = _slots.size
SLOT_WIDTHS = _slots.widths
LAYOUT_MAGIC = 0x44524549_0002  # "DREI" + layout version

del _take
