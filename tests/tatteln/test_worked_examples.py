"""The worked examples of the Tatteln rules (Examples 1-4, 6, 7; Example 5 is in test_partie.py)."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.tatteln import kernels as k
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.melds import set_atoms, set_atoms_value
from tests.tatteln.helpers import (
    GAME,
    act,
    hand,
    last_announcement,
    legal_cards,
    legal_names,
    make_deal,
    mask,
    melds,
    play,
    revealed,
    score_row,
    state_of,
    trick,
)

HEARTS, DIAMONDS, CLUBS, SPADES = range(4)


# ---- Example 1: an ordinary deal, from piles to settlement --------------------------------------------------------
def test_example_1_piles_to_settlement():
    won_a = "HJ H9 HA H7 H8 DA DT DK DQ D7 CT CQ C8 C7 SA SJ S9 S8"
    won_b = "HQ HK HT D8 D9 DJ C9 CJ CK CA S7 SQ SK ST"
    opts = GAME.encoded_options
    assert k.card_points(mask(won_a), HEARTS, opts) == 99
    assert k.card_points(mask(won_b), HEARTS, opts) == 53
    assert k.card_points(mask("HJ H9 HA H7 H8"), HEARTS, opts) == 45
    row = score_row(GAME, [won_a, won_b], meld=[10, 6], final_won=[5, 4], last_winner=1, trump=HEARTS)
    assert k.pile_points(row, 0, opts) == 99
    assert k.pile_points(row, 1, opts) == 63  # 53 + 10 for the last trick
    d0, d1, x, mult = k.deal_points(row, opts)
    assert (d0, d1, x, mult) == (109, 69, -1, 1)
    state = state_of(GAME, row)
    assert state.returns().tolist() == [40.0, -40.0]


# ---- Example 2: a chain of announcements, including a follower's announcement -----------------------------------
E2_DEAL = make_deal(
    dealer=1,
    hands=["HJ HT H9 SA SK SQ DK CK D7", "DJ DT D9 D8 HA CA SJ C8 H7"],
    turn_up="CQ",
    stock_top="S7 HQ",
)


def test_example_2_announcement_chain():
    state = GAME.new_initial_state(deal=E2_DEAL)
    assert state.current_player() == 0 and state.phase() == "stock"
    # trick 1, A leads: SEQ is not good, B (the blocker) scores his Quart and two Tattels
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["by"], ann["class"], ann["outcome"], ann["ka"], ann["kb"]) == (0, "SEQ", "not good", 55, 68)
    assert ann["scored"] == [0, 10]
    assert melds(state) == [0, 10]
    assert revealed(state, 1) == {"DJ", "DT", "D9", "D8"}
    assert revealed(state, 0) == set()
    # SET: A's three kings against nothing
    act(state, "ANNOUNCE_SET")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == ("good", 54, 0, [3, 0])
    assert revealed(state, 0) == {"SK", "DK", "CK"}
    assert "ANNOUNCE_SEQ" not in legal_names(state) and "ANNOUNCE_SET" not in legal_names(state)
    play(state, 0, "D7")
    play(state, 1, "C8")  # a trump: B wins, draws S7 first; A draws HQ
    assert state.current_player() == 1
    assert hand(state, 1) == set("DJ DT D9 D8 HA CA SJ H7 S7".split())
    assert hand(state, 0) == set("HJ HT H9 HQ SA SK SQ DK CK".split())
    assert melds(state) == [3, 10]
    # trick 2, B leads: nothing to announce, no trump seven -> only his nine PLAY actions
    assert legal_names(state) == {f"PLAY {c}" for c in "DJ DT D9 D8 HA CA SJ H7 S7".split()}
    play(state, 1, "DJ")
    assert revealed(state, 1) == {"DT", "D9", "D8"}
    # A follows and announces: good, every unscored window scores (13)
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["by"], ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == (0, "good", 69, 51, [13, 0])
    play(state, 0, "DK")  # beats DJ in plain diamonds
    assert state.current_player() == 0 and int(state.row[L.LEADER]) == 0
    assert melds(state) == [16, 10]
    assert revealed(state, 0) == set("HQ HJ HT H9 SA SK SQ CK".split())


# ---- Example 3: ties, four against three, the four top-up ---------------------------------------------------------
def _e3_equal_deal(turn_up):
    return make_deal(1, ["SK SQ SJ C7 C9 CJ D7 D9 H8", "HK HQ HJ C8 CT CQ S7 S9 DK"], turn_up)


def test_example_3_equal_sequences_score_nothing():
    state = GAME.new_initial_state(deal=_e3_equal_deal("DA"))  # trumps: diamonds
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == ("equal", 54, 54, [0, 0])
    assert melds(state) == [0, 0]
    assert revealed(state, 0) == set() and revealed(state, 1) == set()


def test_example_3_equal_sequences_with_trump_tiebreak():
    game = tarockrl.make_game("tatteln", seq_tie_trump_wins=True)
    state = game.new_initial_state(deal=_e3_equal_deal("HA"))  # trumps: hearts, B's window is in trumps
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == ("not good", 54, 54, [0, 3])
    assert melds(state) == [0, 3]
    # the same tie with diamonds trumps: neither window is in trumps -> equal
    state = game.new_initial_state(deal=_e3_equal_deal("DA"))
    act(state, "ANNOUNCE_SEQ")
    assert last_announcement(state)["outcome"] == "equal"


def test_example_3_four_beats_three():
    deal = make_deal(1, ["HA DA CA H7 H9 D7 D9 S8 SQ", "HT DT CT ST C8 CQ SK DJ HQ"], "SA")
    state = GAME.new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SET")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == ("not good", 55, 67, [0, 14])
    assert melds(state) == [0, 14]
    assert revealed(state, 1) == {"HT", "DT", "CT", "ST"}


def test_example_3_four_tops_up_an_earlier_trio():
    deal = make_deal(1, ["C7 C9 D7 D9 H8 HT S8 SQ SK", "HJ DJ CJ H7 D8 C8 S7 SA HK"], "DA", stock_top="CA SJ")
    state = GAME.new_initial_state(deal=deal)
    play(state, 0, "C7")
    act(state, "ANNOUNCE_SET")  # B, following: the trio of jacks is good
    assert last_announcement(state)["scored"] == [0, 3]
    play(state, 1, "H7")  # A wins, draws CA; B draws SJ
    assert "SJ" in hand(state, 1)
    opts = GAME.encoded_options
    sets = int(state.row[L.SETS]) >> 18
    trio_av, four_av = set_atoms(mask(" ".join(hand(state, 1))), sets & 511, (sets >> 9) & 511, 8, 0b11111000)
    assert set_atoms_value(trio_av, four_av, sets & 511, opts) == 11  # unscored_set(B) = 14 - 3
    play(state, 0, "C9")
    act(state, "ANNOUNCE_SET")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["scored"]) == ("good", 68, [0, 11])
    assert melds(state) == [0, 14]
    # without the top-up the four scores the full 14 again
    game = tarockrl.make_game("tatteln", four_tops_up_trio=False)
    state = game.new_initial_state(deal=deal)
    play(state, 0, "C7")
    act(state, "ANNOUNCE_SET")
    play(state, 1, "H7")
    play(state, 0, "C9")
    act(state, "ANNOUNCE_SET")
    assert melds(state) == [0, 17]


# ---- Example 4: Matsch ----------------------------------------------------------------------------------------------
def test_example_4_matsch():
    won_b = "HA HT DA DT CA CT HK DK"
    all_cards = set(tarockrl.games.tatteln.cards.CARD_CODES_32)
    won_a = " ".join(sorted(all_cards - set(won_b.split())))
    opts = GAME.encoded_options
    assert k.card_points(mask(won_b), SPADES, opts) == 71
    assert k.card_points(mask(won_a), SPADES, opts) == 81
    row = score_row(GAME, [won_a, won_b], meld=[3, 14], final_won=[9, 0], last_winner=0, trump=SPADES)
    assert k.pile_points(row, 0, opts) == 91
    assert k.deal_points(row, opts) == (94, 0, 1, 2)
    assert state_of(GAME, row).returns().tolist() == [188.0, -188.0]
    assert k.matsched(row) == 1 and k.multiplier(row) == 2
    # the options: no Matsch at all, no forfeit, another multiplier
    g = tarockrl.make_game("tatteln", matsch_enabled=False)
    row = score_row(g, [won_a, won_b], meld=[3, 14], final_won=[9, 0], last_winner=0, trump=SPADES)
    assert state_of(g, row).returns().tolist() == [9.0, -9.0]
    g = tarockrl.make_game("tatteln", matsch_forfeits_score=False, matsch_multiplier=3)
    row = score_row(g, [won_a, won_b], meld=[3, 14], final_won=[9, 0], last_winner=0, trump=SPADES)
    assert state_of(g, row).returns().tolist() == [27.0, -27.0]
    g = tarockrl.make_game("tatteln", reward_mode="win_loss")
    row = score_row(g, [won_a, won_b], meld=[3, 14], final_won=[9, 0], last_winner=0, trump=SPADES)
    assert state_of(g, row).returns().tolist() == [2.0, -2.0]


# ---- Example 6: robbing and the draw order ---------------------------------------------------------------------------
E6_DEAL = make_deal(
    dealer=1,
    hands=["H7 HT HJ D7 D9 C7 C9 S7 S9", "CT S8 D8 ST HA HQ H8 CJ SJ"],
    turn_up="H9",
    stock_top="DQ C8 CQ DT SA CK DA DK HK DJ CA SQ SK",  # tricks 1-4, then x1..x5
)


def _e6_before_trick_5():
    state = GAME.new_initial_state(deal=E6_DEAL)
    for lead, follow in (("D7", "CT"), ("C7", "S8"), ("S7", "D8"), ("D9", "ST")):
        trick(state, (0, lead), (1, follow))  # A wins all four
    return state


def test_example_6_robbing_and_draw_order():
    state = _e6_before_trick_5()
    assert int(state.row[L.TRICKS]) == 4 and state.current_player() == 0
    assert k.stock_left(state.row, GAME.encoded_options) == 6
    assert hand(state, 0) == set("H7 HT HJ C9 S9 DQ CQ SA DA".split())
    names = legal_names(state)
    assert "ROB" in names and "ANNOUNCE_SEQ" not in names
    act(state, "ROB")
    assert hand(state, 0) == set("H9 HT HJ C9 S9 DQ CQ SA DA".split())
    assert int(state.row[L.BOTTOM]) == 0  # H7 lies face up at the bottom
    assert revealed(state, 0) == {"H9"}
    assert k.robber(state.row) == 0
    names = legal_names(state)
    assert "ROB" not in names and "ANNOUNCE_SEQ" in names  # robbing created the Tattel J T 9
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == ("good", 52, 0, [3, 0])
    trick(state, (0, "SA"), (1, "C8"))  # A wins trick 5: A draws x1 = HK, B draws x2 = DJ
    assert "HK" in hand(state, 0) and "DJ" in hand(state, 1)
    trick(state, (0, "C9"), (1, "HQ"))  # B trumps and wins trick 6: B draws x3 = CA, A draws x4 = SQ
    assert "CA" in hand(state, 1) and "SQ" in hand(state, 0)
    assert state.phase() == "stock"
    trick(state, (1, "HA"), (0, "S9"))  # B wins trick 7: B draws x5 = SK, A the face-up H7
    assert "SK" in hand(state, 1) and "H7" in hand(state, 0)
    assert k.stock_left(state.row, GAME.encoded_options) == 0
    assert k.bottom_drawer(state.row) == 0 and int(state.row[L.BOTTOM]) == -1
    assert "H7" in revealed(state, 0)
    assert len(hand(state, 0)) == len(hand(state, 1)) == 9
    assert state.phase() == "final"
    assert "ROB" not in legal_names(state)
    play(state, 1, "DJ")
    assert "ROB" not in legal_names(state)


def test_example_6_rob_is_optional_and_once():
    state = _e6_before_trick_5()
    play(state, 0, "SA")  # not robbing is allowed
    assert "ROB" not in legal_names(state)  # B has no trump seven
    play(state, 1, "C8")
    assert "ROB" in legal_names(state)  # A may still rob at the next turn
    act(state, "ROB")
    assert "ROB" not in legal_names(state)


# ---- Example 7: the extension example ------------------------------------------------------------------------------
def test_example_7_extension():
    deal = make_deal(1, ["HJ HT H9 C7 C9 D7 D9 S8 SQ", "H7 H8 C8 CT CQ D8 DT DQ SK"], "SA", stock_top="HQ S7")
    state = GAME.new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SEQ")
    assert last_announcement(state)["scored"] == [3, 0]
    trick(state, (0, "C7"), (1, "H7"))  # A wins and draws HQ
    assert "HQ" in hand(state, 0)
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["scored"]) == ("good", 69, [7, 0])
    assert melds(state) == [10, 0]  # = a Quart counted as a Quart and two Tattels


# ---- L6: announcing ---------------------------------------------------------------------------------------------
L6_DEAL = make_deal(
    dealer=1,
    hands=["HQ HJ HT S7 S9 D7 D9 C7 C9", "CT CJ H7 H8 ST HA SA DJ DK"],
    turn_up="DA",
    stock_top="SJ CQ SQ CK D8 CA HK S8",
)


def test_l6_announcing():
    state = GAME.new_initial_state(deal=L6_DEAL)
    act(state, "ANNOUNCE_SEQ")  # A's Q J T against nothing
    assert last_announcement(state)["scored"] == [3, 0]
    trick(state, (0, "S7"), (1, "H7"))
    assert "ANNOUNCE_SEQ" not in legal_names(state)  # Q J T scored and no other window
    trick(state, (0, "D7"), (1, "H8"))
    trick(state, (0, "C7"), (1, "ST"))
    assert hand(state, 1) >= {"CT", "CJ", "CQ", "CK", "CA"}
    assert "ANNOUNCE_SEQ" not in legal_names(state)
    play(state, 0, "S9")
    act(state, "ANNOUNCE_SEQ")  # B's Fuss to the ace: 15 + 2 * 4 + 3 * 3
    assert last_announcement(state)["scored"] == [0, 32]
    play(state, 1, "HA")  # A wins, draws HK
    assert "HK" in hand(state, 0)
    assert "ANNOUNCE_SEQ" in legal_names(state)  # K Q J and K Q J T are unscored
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["ka"], ann["kb"], ann["scored"]) == ("not good", 70, 87, [0, 0])
    assert melds(state) == [3, 32]
    play(state, 0, "C9")
    play(state, 1, "CA")  # B wins trick 5 and leads trick 6
    play(state, 1, "SA")
    assert "ANNOUNCE_SEQ" in legal_names(state)  # A's two windows stayed unscored


def test_example_2_transcript_mentions_everything():
    state = GAME.new_initial_state(deal=E2_DEAL)
    for name in ("ANNOUNCE_SEQ", "ANNOUNCE_SET", "PLAY D7", "PLAY C8"):
        act(state, name)
    text = state.transcript()
    assert "Quart to the jack" in text and "not good" in text and "B scores 10" in text
    assert "three kings" in text and "B draws S7, A draws HQ" in text


def test_legal_cards_helper_sanity():
    state = GAME.new_initial_state(deal=E2_DEAL)
    assert legal_cards(state) == set(E2_DEAL["hands"][0])
    assert np.array_equal(state.legal_action_mask()[:32], [c in set(E2_DEAL["hands"][0])
                                                           for c in tarockrl.games.tatteln.cards.CARD_CODES_32])
