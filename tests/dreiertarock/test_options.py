"""Every named variant option of the spec's section 8, checked on the worked deals and on hand-made rows."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreiertarock import kernels as K
from tarockrl.games.dreiertarock import layout as L
from tests.dreiertarock.helpers import acts, mask, names, play_row, play_tricks, state_of
from tests.dreiertarock.test_worked_examples import (
    DEAL_A,
    DEAL_B,
    DEAL_C,
    DEAL_D,
    DEAL_E,
    TRICKS_A,
    TRICKS_B,
    TRICKS_C,
    TRICKS_D,
    TRICKS_F,
)

SCRIPT_A = ("s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS; s0 HOLD; s1 PASS; s0 TAKE_PACKET_0; s0 DISCARD H1; "
            "s0 DISCARD D3; s0 DISCARD C10; s0 GOOD; s1 GOOD; s2 GOOD")
SCRIPT_B = ("s0 BID_EINSER; s1 BID_ZWEIER; s2 BID_DREIER; s0 PASS; s1 HOLD; s2 PASS; s1 TAKE_PACKET_0; "
            "s1 DISCARD H3; s1 DISCARD D4; s1 DISCARD D3; s1 GOOD; s2 DOUBLE_GAME; s2 GOOD; s0 GOOD; "
            "s1 DOUBLE_GAME; s1 GOOD; s2 GOOD; s0 GOOD")
SCRIPT_C = "s0 BID_EINSER; s1 BID_SOLO; s2 PASS; s0 PASS; s1 ANNOUNCE_UHU; s1 GOOD; s2 GOOD; s0 GOOD"
SCRIPT_D = ("s0 BID_EINSER; s1 PASS; s2 PASS; s0 TAKE_PACKET_0; s0 DISCARD D4; s0 DISCARD D3; s0 DISCARD C7; "
            "s0 GOOD; s1 ANNOUNCE_PAGAT; s1 GOOD; s2 DOUBLE_GAME; s2 GOOD; s0 DOUBLE_PAGAT; s0 DOUBLE_GAME; "
            "s0 GOOD; s1 GOOD; s2 GOOD")
EXAMPLES = {"A": (DEAL_A, SCRIPT_A, TRICKS_A), "B": (DEAL_B, SCRIPT_B, TRICKS_B),
            "C": (DEAL_C, SCRIPT_C, TRICKS_C), "D": (DEAL_D, SCRIPT_D, TRICKS_D)}


def play(example: str, **options):
    deal, script, tricks = EXAMPLES[example]
    state = tarockrl.make_game("dreiertarock", **options).new_initial_state(deal=deal)
    acts(state, script)
    play_tricks(state, tricks)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize("example, expected", [("A", [40, -20, -20]), ("B", [220, -440, 220]),
                                               ("C", [10, -20, 10]), ("D", [1280, -640, -640])])
def test_examples_with_default_options(example, expected):
    assert play(example).returns().tolist() == expected


def test_valat_factor_zero_scores_by_card_points_and_keeps_silent_bonuses():
    # 69 points: Einser x Rekontra 120, failed Pagat 160, Trull 10, King Trull 10, all for the declarer
    state = play("D", valat_factor=0)
    assert state.row[L.POINTS] == 69
    assert state.returns().tolist() == [600, -300, -300]


def test_valat_factor_other_value():
    assert play("D", valat_factor=7).returns().tolist() == [2 * (30 * 7 * 4 + 160), -(30 * 7 * 4 + 160),
                                                            -(30 * 7 * 4 + 160)]


def test_valat_does_not_cancel_silent_bonuses_when_switched_off():
    assert play("D", valat_cancels_silent_bonuses=False).returns().tolist() == [1320, -660, -660]


@pytest.mark.parametrize("factor, expected", [(2, [140, -280, 140]), (0, [-120, 240, -120])])
def test_solo_bonus_factor(factor, expected):
    assert play("C", solo_bonus_factor=factor).returns().tolist() == expected


def test_solo_bonus_factor_only_in_solo():
    assert play("A", solo_bonus_factor=3).returns().tolist() == [40, -20, -20]


@pytest.mark.parametrize("example, expected", [("A", [200, -100, -100]), ("B", [100, -200, 100]),
                                               ("C", [-70, 140, -70]), ("D", [1280, -640, -640])])
def test_silent_bird_failure_penalty(example, expected):
    assert play(example, silent_bird_failure_penalty=True).returns().tolist() == expected


def test_kaiserstich_does_not_change_examples_without_the_trio():
    assert play("B", kaiserstich=True).returns().tolist() == [220, -440, 220]


def test_trull_counts_non_trick_cards_unchanged_on_examples():
    for ex, expected in (("A", [40, -20, -20]), ("B", [220, -440, 220]), ("C", [10, -20, 10])):
        assert play(ex, trull_counts_non_trick_cards=True).returns().tolist() == expected


def test_solo_declarer_leads():
    state = tarockrl.make_game("dreiertarock", solo_declarer_leads=True).new_initial_state(deal=DEAL_C)
    acts(state, SCRIPT_C)
    assert state.phase() == "play" and state.current_player() == 1
    state = tarockrl.make_game("dreiertarock", solo_declarer_leads=True).new_initial_state(deal=DEAL_A)
    acts(state, SCRIPT_A)
    assert state.current_player() == 0  # forehand; in a Zweier the option does nothing


def _announce_d(**options):
    state = tarockrl.make_game("dreiertarock", **options).new_initial_state(deal=DEAL_D)
    acts(state, "s0 BID_EINSER; s1 PASS; s2 PASS; s0 TAKE_PACKET_0; s0 DISCARD D4; s0 DISCARD D3; s0 DISCARD C7")
    return state


def test_kontra_disabled():
    state = _announce_d(kontra_enabled=False)
    acts(state, "s0 GOOD")
    assert names(state) == {"GOOD", "ANNOUNCE_PAGAT", "ANNOUNCE_UHU", "ANNOUNCE_KAKADU"}
    acts(state, "s1 ANNOUNCE_PAGAT; s1 GOOD")
    assert names(state) == {"GOOD"}
    acts(state, "s2 GOOD")
    assert names(state) == {"GOOD"}
    acts(state, "s0 GOOD")
    assert state.phase() == "play"


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_kontra_max_level(level):
    state = _announce_d(kontra_max_level=level)
    acts(state, "s0 GOOD; s1 GOOD")
    for k in range(level):
        assert "DOUBLE_GAME" in names(state)
        acts(state, f"s{state.current_player()} DOUBLE_GAME; s{state.current_player()} GOOD")
    assert "DOUBLE_GAME" not in names(state)
    assert state.row[L.KLEVEL] == level


def test_defender_announcements_off():
    state = _announce_d(defender_announcements=False)
    acts(state, "s0 GOOD")
    assert names(state) == {"GOOD", "DOUBLE_GAME"}


def test_declarer_announces_with_defender_announcements_off():
    state = tarockrl.make_game("dreiertarock", defender_announcements=False).new_initial_state(deal=DEAL_C)
    acts(state, "s0 BID_EINSER; s1 BID_SOLO; s2 PASS; s0 PASS")
    assert names(state) == {"GOOD", "ANNOUNCE_UHU"}


def test_announce_first_turn_only_off():
    state = _announce_d(announce_first_turn_only=False)
    acts(state, "s0 GOOD; s1 ANNOUNCE_PAGAT; s1 GOOD; s2 DOUBLE_GAME; s2 GOOD; s0 GOOD")
    assert names(state) == {"GOOD", "ANNOUNCE_UHU", "ANNOUNCE_KAKADU"}
    state = _announce_d()
    acts(state, "s0 GOOD; s1 ANNOUNCE_PAGAT; s1 GOOD; s2 DOUBLE_GAME; s2 GOOD; s0 GOOD")
    assert names(state) == {"GOOD"}


def test_no_announcements_in_solo_valat():
    deal = dict(DEAL_D)
    state = tarockrl.make_game("dreiertarock").new_initial_state(deal=deal)
    acts(state, "s0 PASS; s1 BID_SOLO_VALAT")
    assert names(state) == {"GOOD"}  # s1 holds all three birds, but nothing can be announced


def test_redeal_without_tarock():
    deal = {
        "dealer": 2,
        "hands": [[f"T{i}" for i in range(1, 17)],
                  ["T17", "T18", "T19", "T20", "T21", "SKS", "H4", "H3", "H2", "H1", "HJ", "HN", "HQ", "HK", "D4",
                   "D3"],
                  ["D2", "D1", "DJ", "DN", "DQ", "DK", "C7", "C8", "C9", "C10", "CJ", "CN", "CQ", "CK", "S7", "S8"]],
        "talon_packets": [["S9", "S10", "SJ"], ["SN", "SQ", "SK"]],
    }
    normal = tarockrl.make_game("dreiertarock").new_initial_state(deal=deal)
    assert not normal.is_terminal()
    void = tarockrl.make_game("dreiertarock", redeal_without_tarock=True).new_initial_state(deal=deal)
    assert void.is_terminal() and void.current_player() == -1
    assert void.returns().tolist() == [0, 0, 0] and void.history() == [] and void.legal_actions() == []
    assert tarockrl.make_game("dreiertarock", redeal_without_tarock=True).new_initial_state(deal=DEAL_A).phase() \
        == "auction"
    game = tarockrl.make_game("dreiertarock", redeal_without_tarock=True)
    _, lengths = game.random_playouts(20_000, seed=1, return_lengths=True)
    assert (lengths == 0).sum() > 0  # about 3% of random deals leave a hand without tarock


def _replay_with_auto(deal, history, **options):
    """Replay ``history`` where forced decisions may already have been applied by ``auto_play_forced``."""
    state = tarockrl.make_game("dreiertarock", auto_play_forced=True, **options).new_initial_state(deal=deal)
    for i, a in enumerate(history):
        if len(state.history()) > i:
            assert state.history()[i] == a
            continue
        assert len(state.legal_actions()) > 1  # only real choices are left to the agent
        state.apply_action(a)
    return state


@pytest.mark.parametrize("example", ["A", "B", "C", "D"])
def test_auto_play_forced_gives_the_same_deal(example):
    plain = play(example)
    auto = _replay_with_auto(EXAMPLES[example][0], plain.history())
    assert auto.is_terminal()
    assert auto.history() == plain.history()
    assert auto.returns().tolist() == plain.returns().tolist()


def test_auto_play_forced_trischaken():
    plain = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken").new_initial_state(deal=DEAL_E)
    acts(plain, "s0 PASS; s1 PASS; s2 PASS")
    play_tricks(plain, TRICKS_F)
    auto = _replay_with_auto(DEAL_E, plain.history(), all_pass_rule="trischaken")
    assert auto.returns().tolist() == [30, -60, 30] and auto.history() == plain.history()


def test_auto_play_forced_first_decision():
    # forehand must bid and holds ... three choices, so nothing is forced at the start; Solo -> forced passes
    state = tarockrl.make_game("dreiertarock", auto_play_forced=True).new_initial_state(deal=DEAL_C)
    acts(state, "s0 BID_EINSER; s1 BID_SOLO; s2 PASS")
    # s0's only action PASS was applied, then s1 (declarer) has real choices in the announcement phase
    assert state.phase() == "announce" and state.current_player() == 1
    assert state.history()[-1] == L.A_PASS


# ---- hand-made rows for the scoring kernel --------------------------------------------------------------
def finished_row(contract=1, declarer=0, won=("", "", ""), discards="", def_talon="", decl_tricks=None):
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.DECLARER] = declarer
    row[L.CONTRACT] = contract
    for s in range(3):
        row[L.WON + s] = mask(won[s])
        row[L.ANN_BY + s] = -1
        row[L.BIRD_SEAT + s] = -1
    row[L.DISCARDS] = mask(discards)
    row[L.DEF_TALON] = mask(def_talon)
    row[L.MOND_SEAT] = -1
    if decl_tricks is None:
        decl_tricks = bin(int(row[L.WON + declarer])).count("1") // 3
    row[L.DECL_TRICKS] = decl_tricks
    return row


def score(row, **options):
    game = tarockrl.make_game("dreiertarock", **options)
    K.score(row, game.encoded_options)
    return [int(row[L.RESULT + s]) for s in range(3)]


ALL_BUT = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 H4 H3 H2 H1 HJ HN HQ D4 D3 D2 D1 " \
          "DJ DN DQ C7 C8 C9 C10 CJ CN CQ S7 S8 S9 S10 SJ SN SQ"


def test_king_trull_in_talon_counts_only_with_option():
    # declarer (seat 0) wins 36+ points; the defenders won DK CK SK in tricks; HK lies in the rejected packet
    won1 = "DK CK SK T2 T3 T4 T5 T6 T7"
    row = finished_row(won=("T1 T21 SKS T8 T9 T10 HQ DQ CQ SQ HN DN CN SN HJ DJ CJ SJ H4 H3 H2 D4 D3 D2 C7 C8 C9 "
                            "S7 S8 S9", won1, ""), def_talon="HK H1 D1", discards="C10 S10 T11")
    # declarer: game 30 + Trull 10 (T1 T21 SKS in his tricks); defenders: nothing without the option
    assert score(row) == [80, -40, -40]
    assert score(row.copy(), trull_counts_non_trick_cards=True) == [60, -30, -30]  # King Trull 10 DEF


def test_defenders_valat_in_a_dreier():
    row = finished_row(contract=3, won=("", ALL_BUT, "T1 T21 SKS HK DK CK SK"), decl_tricks=0)
    assert score(row) == [-400, 200, 200]  # 50 x 4 for the defenders; Trull and King Trull cancelled
    assert score(row.copy(), valat_cancels_silent_bonuses=False) == [-440, 220, 220]
    assert score(row.copy(), valat_factor=0) == [-140, 70, 70]  # lost by points, Trull and King Trull count


def test_announced_bird_counts_under_valat():
    row = finished_row(contract=1, won=(ALL_BUT + " T1 T21 SKS HK DK CK SK", "", ""), decl_tricks=16)
    row[L.ANN_BY + 2] = 1  # a defender announced the Kakadu (and it never won trick 14)
    row[L.KLEVEL + 3] = 2  # Rekontra on it
    assert score(row) == [2 * (120 + 640), -(120 + 640), -(120 + 640)]


def test_mondfang_credit_and_kaiserstich():
    # declarer seat 2 plays the Mond onto the defenders' Sküs (seat 0, leading) and Pagat (seat 1)
    for options, winner, mond_seat in (({}, 0, 0), ({"kaiserstich": True}, 1, -1)):
        row = play_row("T21", "SKS T1")
        row[L.DECLARER] = 2
        state = state_of(tarockrl.make_game("dreiertarock", **options), row)
        assert state.legal_actions() == [20]
        state.apply_action(20)
        r = state.row
        assert r[L.WON + winner] == mask("T1 T21 SKS")
        assert r[L.MOND_SEAT] == mond_seat


def test_mondfang_needs_opposing_sides():
    row = play_row("T21", "SKS H4")  # seats 0 and 2 are both defenders (declarer 1): no Mondfang
    row[L.HAND + 2] = mask("T21")
    row[L.DECLARER] = 1
    state = state_of(tarockrl.make_game("dreiertarock"), row)
    state.apply_action(20)
    assert state.row[L.MOND_SEAT] == -1
    row = play_row("T21", "SKS H4")  # declarer 0 plays the Sküs, defender 2 the Mond: Mondfang for the declarer
    row[L.HAND + 2] = mask("T21")
    state = state_of(tarockrl.make_game("dreiertarock"), row)
    state.apply_action(20)
    assert state.row[L.MOND_SEAT] == 0


def test_trischaken_ties():
    game = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken")
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.TRISCHAKEN] = 1
    row[L.DECLARER] = -1
    row[L.WON] = mask("T1 T2 T3")  # 7 - 2 = 5 points
    row[L.WON + 1] = mask("T4 T5 T6")  # 1 point
    row[L.WON + 2] = mask("T7 T8 T9")  # 1 point
    K.score(row, game.encoded_options)
    assert [int(row[L.RESULT + s]) for s in range(3)] == [-60, 30, 30]  # one loser pays each other player
    row[L.WON + 1] = mask("T21 T10 T11")  # 5 points as well
    K.score(row, game.encoded_options)
    assert [int(row[L.RESULT + s]) for s in range(3)] == [-30, -30, 60]  # two tied losers pay the third
    row[L.WON + 2] = mask("SKS T12 T13")
    K.score(row, game.encoded_options)
    assert [int(row[L.RESULT + s]) for s in range(3)] == [0, 0, 0]  # three-way tie
