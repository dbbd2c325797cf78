"""The Dreiertarock state row: one int64 vector of ``STATE_LEN`` slots (named here), phases and actions.

Card sets are int64 masks in the canonical index; seats are 0, 1, 2; ``-1`` means "none". A batch of states
is a ``[n, STATE_LEN]`` int64 array, so cloning is a copy and saving is ``tobytes()``.

The row is ``STATE_LEN`` = 174 slots (1392 bytes). 105 of them are the action history, whose length the spec
bounds by 105 actions (docs/rules/dreiertarock.md §9.3); everything else takes 69 slots.
"""

from __future__ import annotations

from tarockrl.engine.layout import Fields

# ---- phases ---------------------------------------------------------------------------------------------
AUCTION, TALON, DISCARD, ANNOUNCE, PLAY, TERMINAL = range(6)
PHASE_NAMES = ("auction", "talon", "discard", "announce", "play", "terminal")

# ---- actions (the flat layout of docs/rules/dreiertarock.md §9.1, 127 actions) ------------------------------------
A_PLAY = 0  # + card, 0..53
A_DISCARD = 54  # + card, 54..107
A_PASS = 108
A_HOLD = 109
A_BID = 109  # + level 1..7: BID_EINSER 110 .. BID_FUENFER 114, BID_SOLO 115, BID_SOLO_VALAT 116
A_BID_EINSER = 110
A_BID_SOLO = 115
A_BID_SOLO_VALAT = 116
A_TAKE_PACKET = 117  # + packet 0/1
A_ANNOUNCE = 119  # + bird 0 Pagat, 1 Uhu, 2 Kakadu
A_DOUBLE = 122  # + item 0 game, 1 Pagat, 2 Uhu, 3 Kakadu
A_GOOD = 126
NUM_ACTIONS = 127
MAX_EPISODE_LENGTH = 105

# block offsets of the phases' legal sets (bit i of a phase mask = action offset + i)
OFF_PLAY = A_PLAY
OFF_DISCARD = A_DISCARD
OFF_AUCTION = A_PASS  # bit 0 PASS, bit 1 HOLD, bit 1 + L BID level L
OFF_TALON = A_TAKE_PACKET  # bit i TAKE_PACKET_i
OFF_ANNOUNCE = A_ANNOUNCE  # bits 0-2 ANNOUNCE bird, bits 3-6 DOUBLE item, bit 7 GOOD

LEVEL_NAMES = ("none", "Einser", "Zweier", "Dreier", "Vierer", "Fünfer", "Solo", "Solo Valat")
LEVEL_ACTION_NAMES = ("", "EINSER", "ZWEIER", "DREIER", "VIERER", "FUENFER", "SOLO", "SOLO_VALAT")
GAME_VALUES = (0, 30, 40, 50, 60, 70, 120, 960)
SOLO, SOLO_VALAT = 6, 7
ITEM_NAMES = ("GAME", "PAGAT", "UHU", "KAKADU")
BIRD_NAMES = ("PAGAT", "UHU", "KAKADU")
BIRD_TRICK_NUMBERS = (16, 15, 14)  # the trick each bird must win
BIRD_SILENT = (40, 60, 80)
BIRD_ANNOUNCED = (80, 120, 160)
WIN_THIRDS = 107  # the declarer wins with at least 107 thirds (36 points)

# ---- status codes returned by apply ----------------------------------------------------------------------
OK, ILLEGAL, GAME_OVER = 0, 1, 2

# ---- slots -------------------------------------------------------------------------------------------------
_slots = Fields()
_take = _slots.take


MAGIC = _take("magic")  # layout tag, checked when decoding bytes
PHASE = _take("phase")
DEALER = _take("dealer")
CUR = _take("cur")  # seat to act, -1 when terminal
HAND = _take("hand", 3)  # current hands
DEALT = _take("dealt", 3)  # hands as dealt
PACKET = _take("packet", 2)  # the two talon packets (masks)
VOID = _take("void")  # 1: void deal under redeal_without_tarock
# auction
LEVEL = _take("level")  # current level L, 0..7
HOLDER = _take("holder")  # current holder H, -1 none
PASSED = _take("passed")  # bit s: seat s passed
SPOKEN = _take("spoken")  # bit s: seat s has called at least once
N_CALLS = _take("n_calls")
# contract
DECLARER = _take("declarer")  # -1 none (auction, throw-in, Trischaken)
CONTRACT = _take("contract")  # 0 none, 1..7
TRISCHAKEN = _take("trischaken")  # 1 when all passed and Trischaken is played
THROWN_IN = _take("thrown_in")  # 1 when all passed and the deal was thrown in
TAKEN = _take("taken")  # packet taken by the declarer, -1 none
DEF_TALON = _take("def_talon")  # talon cards in the defenders' pile (rejected packet / whole Solo talon)
DISCARDS = _take("discards")  # the declarer's discards (mask)
DISCARDS_UP = _take("discards_up")  # the tarock discards (shown face up, public)
N_DISCARDS = _take("n_discards")
# announcements and doubling
ANN_BY = _take("ann_by", 3)  # per bird: seat that announced it, -1 none
KLEVEL = _take("klevel", 4)  # per item (game, Pagat, Uhu, Kakadu): doubling level 0..3
HAD_TURN = _take("had_turn")  # bit s: seat s has said GOOD
GOODS = _take("goods")  # GOODs in a row
# play
TRICK_NO = _take("trick_no")  # completed tricks, 0..16
LEADER = _take("leader")
TRICK_N = _take("trick_n")  # cards in the current trick
TRICK_CARD = _take("trick_card", 3)  # by position in the trick, -1 empty
PLAYED_BY = _take("played_by", 3)  # cards each seat has played
WON = _take("won", 3)  # cards of the tricks each seat has won
VOIDS = _take("voids", 3)  # suits (as card masks) each seat has shown it lacks by not following
DECL_TRICKS = _take("decl_tricks")  # tricks won by the declarer
MOND_SEAT = _take("mond_seat")  # Mondfang: seat that played the Sküs in it, -1 none
BIRD_TRICK = _take("bird_trick", 3)  # per bird: trick number (1..16) it was played in, 0 not yet
BIRD_SEAT = _take("bird_seat", 3)  # per bird: seat that played it, -1
BIRD_WON = _take("bird_won", 3)  # per bird: 1 if it was the winning card of its trick
# result
POINTS = _take("points", 3)  # at the end: card points of each seat's side (own pile in Trischaken)
RESULT = _take("result", 3)  # settlement
HIST_LEN = _take("hist_len")
HIST = _take("hist", MAX_EPISODE_LENGTH)
STATE_LEN = _slots.size
SLOT_WIDTHS = _slots.widths
LAYOUT_MAGIC = 0x44544152_0002  # "DTAR" + layout version

del _take
