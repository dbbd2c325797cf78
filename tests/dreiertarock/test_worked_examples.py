"""The spec's worked deals A-F: every action scripted, legal sets where the spec lists them, exact results."""

from __future__ import annotations

import pytest

import tarockrl
from tarockrl.games.dreiertarock import layout as L
from tests.dreiertarock.helpers import acts, cards_of, make_deal, names, play_tricks

DEAL_A = make_deal(
    "T1 T7 T9 T10 T16 T17 SKS H1 D3 C10 CJ CN CQ SJ SQ SK",
    "T4 T8 T11 T19 T20 H2 HN D4 D1 DJ DN C8 C9 S7 S9 S10",
    "T2 T3 T6 T12 T14 T15 T21 H4 H3 HJ D2 DQ DK C7 S8 SN",
    "T18 HQ CK",
    "T5 T13 HK",
)
TRICKS_A = [
    "s0 T7, s1 T11, s2 T6 -> s1", "s1 T20, s2 T15, s0 T16 -> s1", "s1 DJ, s2 DQ, s0 T18 -> s0",
    "s0 SQ, s1 S9, s2 S8 -> s0", "s0 T17, s1 T19, s2 T14 -> s1", "s1 DN, s2 DK, s0 T9 -> s0",
    "s0 SJ, s1 S10, s2 SN -> s2", "s2 D2, s0 T10, s1 D4 -> s0", "s0 CN, s1 C8, s2 C7 -> s0",
    "s0 CK, s1 C9, s2 T12 -> s2", "s2 H3, s0 HQ, s1 H2 -> s0", "s0 CQ, s1 T8, s2 T21 -> s2",
    "s2 H4, s0 SKS, s1 HN -> s0", "s0 CJ, s1 T4, s2 T3 -> s1", "s1 S7, s2 T2, s0 SK -> s2",
    "s2 HJ, s0 T1, s1 D1 -> s0",
]

DEAL_B = make_deal(
    "T1 T6 T7 T9 T13 T17 T19 SKS D2 DN DQ C8 C10 CN S7 SQ",
    "T2 T4 T10 T21 H3 HJ HN HK D4 D3 DJ CQ CK S10 SN SK",
    "T3 T5 T8 T11 T14 T15 T18 T20 H2 H1 D1 DK C7 C9 CJ SJ",
    "HQ S8 S9",
    "T12 T16 H4",
)
TRICKS_B = [
    "s0 SQ, s1 S8, s2 SJ -> s0", "s0 T6, s1 T4, s2 T18 -> s2", "s2 D1, s0 D2, s1 DJ -> s1",
    "s1 T10, s2 T5, s0 T13 -> s0", "s0 S7, s1 S9, s2 T8 -> s2", "s2 T15, s0 SKS, s1 T21 -> s0",
    "s0 CN, s1 CK, s2 CJ -> s1", "s1 HN, s2 H1, s0 T19 -> s0", "s0 T17, s1 T2, s2 T14 -> s0",
    "s0 DQ, s1 SK, s2 DK -> s2", "s2 C7, s0 C8, s1 CQ -> s1", "s1 HQ, s2 H2, s0 T9 -> s0",
    "s0 C10, s1 S10, s2 C9 -> s0", "s0 T7, s1 SN, s2 T3 -> s0", "s0 DN, s1 HJ, s2 T20 -> s2",
    "s2 T11, s0 T1, s1 HK -> s2",
]

DEAL_C = make_deal(
    "T3 T14 T15 T18 T19 T21 H4 H3 HJ DJ DQ CJ CK S7 S8 SK",
    "T2 T6 T7 T8 T9 T10 T11 T12 T17 H2 HQ HK D1 DN C10 S10",
    "T1 T4 T13 T20 SKS HN D4 D3 D2 DK C7 CN CQ S9 SN SQ",
    "T16 H1 SJ",
    "T5 C8 C9",
)
TRICKS_C = [
    "s0 S8, s1 S10, s2 S9 -> s1", "s1 T6, s2 T20, s0 T19 -> s2", "s2 C7, s0 CJ, s1 C10 -> s0",
    "s0 H3, s1 HK, s2 HN -> s1", "s1 DN, s2 D2, s0 DJ -> s1", "s1 T7, s2 T13, s0 T18 -> s0",
    "s0 DQ, s1 D1, s2 D3 -> s0", "s0 S7, s1 T11, s2 SN -> s1", "s1 T9, s2 SKS, s0 T15 -> s2",
    "s2 CN, s0 CK, s1 T8 -> s1", "s1 T12, s2 T4, s0 T14 -> s0", "s0 SK, s1 T17, s2 SQ -> s1",
    "s1 H2, s2 T1, s0 HJ -> s2", "s2 CQ, s0 T3, s1 T10 -> s1", "s1 T2, s2 DK, s0 T21 -> s0",
    "s0 H4, s1 HQ, s2 D4 -> s1",
]

DEAL_D = make_deal(
    "T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 SKS HK",
    "T1 T2 T3 T4 H3 H2 H1 HJ HN HQ D2 D1 DJ DN DQ DK",
    "T5 T6 T7 C8 C9 C10 CJ CN CQ CK S9 S10 SJ SN SQ SK",
    "D4 D3 C7",
    "H4 S7 S8",
)
TRICKS_D = [
    "s0 SKS, s1 T4, s2 T7 -> s0", "s0 T21, s1 T3, s2 T6 -> s0", "s0 T20, s1 T2, s2 T5 -> s0",
    "s0 T19, s1 T1, s2 SK -> s0", "s0 T18, s1 DK, s2 SQ -> s0", "s0 T17, s1 DQ, s2 SN -> s0",
    "s0 T16, s1 DN, s2 SJ -> s0", "s0 T15, s1 DJ, s2 S10 -> s0", "s0 T14, s1 D1, s2 S9 -> s0",
    "s0 T13, s1 D2, s2 CK -> s0", "s0 T12, s1 HQ, s2 CQ -> s0", "s0 T11, s1 HN, s2 CN -> s0",
    "s0 T10, s1 HJ, s2 CJ -> s0", "s0 T9, s1 H1, s2 C10 -> s0", "s0 T8, s1 H2, s2 C9 -> s0",
    "s0 HK, s1 H3, s2 C8 -> s0",
]

DEAL_E = make_deal(
    "T6 T7 T8 T10 T13 H3 HK D1 DJ DQ C7 C8 C9 CN CK S10",
    "T1 T2 T5 T9 T14 T15 T19 T20 T21 H4 D4 DN DK CJ SN SQ",
    "T3 T4 T12 T17 T18 H2 H1 HJ D3 D2 C10 CQ S7 S8 S9 SK",
    "T11 T16 SKS",
    "HN HQ SJ",
)
TRICKS_F = [
    "s0 C9, s1 CJ, s2 CQ -> s2", "s2 H2, s0 HK, s1 H4 -> s0", "s0 CK, s1 T14, s2 C10 -> s1",
    "s1 D4, s2 D3, s0 DQ -> s0", "s0 T8, s1 T19, s2 T12 -> s1", "s1 T9, s2 T18, s0 T7 -> s2",
    "s2 D2, s0 D1, s1 DN -> s1", "s1 SQ, s2 SK, s0 S10 -> s2", "s2 S7, s0 T6, s1 SN -> s0",
    "s0 DJ, s1 DK, s2 T4 -> s2", "s2 S9, s0 T13, s1 T20 -> s1", "s1 T15, s2 T17, s0 T10 -> s2",
    "s2 H1, s0 H3, s1 T5 -> s1", "s1 T21, s2 T3, s0 C8 -> s1", "s1 T2, s2 HJ, s0 CN -> s1",
    "s1 T1, s2 S8, s0 C7 -> s1",
]


def game(**options):
    return tarockrl.make_game("dreiertarock", **options)


def play_a(**options):
    state = game(**options).new_initial_state(deal=DEAL_A)
    assert names(state) == {"PASS", "BID_EINSER", "BID_SOLO", "BID_SOLO_VALAT"}  # B1
    acts(state, "s0 BID_EINSER")
    assert names(state) == {"PASS", "BID_ZWEIER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s1 BID_ZWEIER")
    assert names(state) == {"PASS", "BID_DREIER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s2 PASS")
    assert names(state) == {"PASS", "HOLD"}
    acts(state, "s0 HOLD")
    assert names(state) == {"PASS", "BID_DREIER"}
    acts(state, "s1 PASS")
    assert state.phase() == "talon" and state.current_player() == 0
    assert names(state) == {"TAKE_PACKET_0", "TAKE_PACKET_1"}
    acts(state, "s0 TAKE_PACKET_0")
    assert state.phase() == "discard"
    assert cards_of(state) == set("H1 HQ D3 C10 CJ CN CQ SJ SQ".split())
    acts(state, "s0 DISCARD H1; s0 DISCARD D3; s0 DISCARD C10")
    assert state.phase() == "announce" and state.current_player() == 0
    acts(state, "s0 GOOD; s1 GOOD; s2 GOOD")
    assert state.phase() == "play" and state.current_player() == 0
    play_tricks(state, TRICKS_A)
    assert state.is_terminal()
    return state


def test_example_a_zweier_silent_birds():
    state = play_a()
    row = state.row
    assert row[L.CONTRACT] == 2 and row[L.DECLARER] == 0
    assert row[L.POINTS + 0] == 38 and row[L.POINTS + 1] == 32 and row[L.POINTS + 2] == 32
    assert state.returns().tolist() == [40, -20, -20]
    assert len(state.history()) == 5 + 1 + 3 + 3 + 48


def test_example_b_dreier_kontra_rekontra_trull_mondfang():
    state = game().new_initial_state(deal=DEAL_B)
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 BID_DREIER")
    assert names(state) == {"PASS", "HOLD"}
    acts(state, "s0 PASS")
    assert names(state) == {"PASS", "HOLD"}  # s1 is senior to the holder s2
    acts(state, "s1 HOLD; s2 PASS")
    assert state.phase() == "talon" and state.current_player() == 1
    acts(state, "s1 TAKE_PACKET_0; s1 DISCARD H3; s1 DISCARD D4; s1 DISCARD D3")
    acts(state, "s1 GOOD; s2 DOUBLE_GAME; s2 GOOD; s0 GOOD; s1 DOUBLE_GAME; s1 GOOD; s2 GOOD; s0 GOOD")
    assert state.phase() == "play" and state.row[L.KLEVEL] == 2
    play_tricks(state, TRICKS_B)
    row = state.row
    assert row[L.POINTS + 1] == 15 and row[L.POINTS + 0] == 55
    assert row[L.MOND_SEAT] == 0
    assert state.returns().tolist() == [220, -440, 220]


def test_example_c_solo_with_failed_announced_uhu():
    state = game().new_initial_state(deal=DEAL_C)
    acts(state, "s0 BID_EINSER")
    assert names(state) == {"PASS", "BID_ZWEIER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s1 BID_SOLO")
    assert names(state) == {"PASS", "BID_SOLO_VALAT"}
    acts(state, "s2 PASS")
    assert names(state) == {"PASS"}
    acts(state, "s0 PASS")
    assert state.phase() == "announce" and state.current_player() == 1
    row = state.row
    assert row[L.DEF_TALON] == sum(1 << c for c in (15, 25, 50, 4, 39, 40))  # the whole talon, unseen
    acts(state, "s1 ANNOUNCE_UHU; s1 GOOD; s2 GOOD; s0 GOOD")
    assert state.current_player() == 0  # forehand leads in a Solo
    play_tricks(state, TRICKS_C)
    row = state.row
    assert row[L.POINTS + 1] == 38 and row[L.POINTS + 0] == 32
    assert state.returns().tolist() == [10, -20, 10]


def test_example_d_einser_valat_with_kontra_chains():
    state = game().new_initial_state(deal=DEAL_D)
    acts(state, "s0 BID_EINSER; s1 PASS; s2 PASS; s0 TAKE_PACKET_0")
    assert names(state) == {"DISCARD D4", "DISCARD D3", "DISCARD C7"}
    acts(state, "s0 DISCARD D4; s0 DISCARD D3; s0 DISCARD C7")
    table = [
        ("s0", {"GOOD"}, "GOOD"),
        ("s1", {"GOOD", "ANNOUNCE_PAGAT", "ANNOUNCE_UHU", "ANNOUNCE_KAKADU", "DOUBLE_GAME"}, "ANNOUNCE_PAGAT"),
        ("s1", {"GOOD", "ANNOUNCE_UHU", "ANNOUNCE_KAKADU", "DOUBLE_GAME"}, "GOOD"),
        ("s2", {"GOOD", "DOUBLE_GAME"}, "DOUBLE_GAME"),
        ("s2", {"GOOD"}, "GOOD"),
        ("s0", {"GOOD", "DOUBLE_GAME", "DOUBLE_PAGAT"}, "DOUBLE_PAGAT"),
        ("s0", {"GOOD", "DOUBLE_GAME"}, "DOUBLE_GAME"),
        ("s0", {"GOOD"}, "GOOD"),
        ("s1", {"GOOD", "DOUBLE_GAME", "DOUBLE_PAGAT"}, "GOOD"),
        ("s2", {"GOOD", "DOUBLE_GAME", "DOUBLE_PAGAT"}, "GOOD"),
    ]
    for seat, legal, action in table:
        assert state.phase() == "announce"
        assert names(state) == legal, (seat, action)
        acts(state, f"{seat} {action}")
    assert state.phase() == "play"
    row = state.row
    assert row[L.KLEVEL] == 2 and row[L.KLEVEL + 1] == 1 and row[L.ANN_BY] == 1
    play_tricks(state, TRICKS_D)
    assert state.returns().tolist() == [1280, -640, -640]


def test_example_e_solo_valat_early_end():
    state = game().new_initial_state(deal=DEAL_E)
    acts(state, "s0 PASS; s1 PASS")
    assert names(state) == {"PASS", "BID_EINSER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s2 BID_SOLO_VALAT")
    assert state.phase() == "announce" and state.current_player() == 2
    assert names(state) == {"GOOD"}
    acts(state, "s2 GOOD")
    assert names(state) == {"GOOD", "DOUBLE_GAME"}
    acts(state, "s0 DOUBLE_GAME; s0 GOOD; s1 GOOD")
    assert names(state) == {"GOOD", "DOUBLE_GAME"}  # he could re-kontra
    acts(state, "s2 GOOD")
    play_tricks(state, ["s0 C9, s1 CJ, s2 C10 -> s1"])
    assert state.is_terminal()
    assert state.returns().tolist() == [1920, 1920, -3840]


def test_example_e_without_early_end_plays_on():
    state = game(solo_valat_early_end=False).new_initial_state(deal=DEAL_E)
    acts(state, "s0 PASS; s1 PASS; s2 BID_SOLO_VALAT; s2 GOOD; s0 DOUBLE_GAME; s0 GOOD; s1 GOOD; s2 GOOD")
    play_tricks(state, ["s0 C9, s1 CJ, s2 C10 -> s1"])
    assert not state.is_terminal()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns().tolist() == [1920, 1920, -3840]
    assert len(state.history()) == 3 + 5 + 48


def test_example_f_all_pass_thrown_in():
    state = game().new_initial_state(deal=DEAL_E)
    acts(state, "s0 PASS; s1 PASS; s2 PASS")
    assert state.is_terminal()
    assert state.returns().tolist() == [0, 0, 0]
    assert state.legal_actions() == []


def test_example_f_trischaken():
    state = game(all_pass_rule="trischaken").new_initial_state(deal=DEAL_E)
    acts(state, "s0 PASS; s1 PASS; s2 PASS")
    assert state.phase() == "play" and state.current_player() == 0
    for i, line in enumerate(TRICKS_F):
        if i == 1:  # trick 2: s0 must beat H2 with HK (Stichzwang)
            state.apply_action(L.A_PLAY + 24)  # s2 leads H2
            assert cards_of(state) == {"HK"}
            state.apply_action(L.A_PLAY + 29)
            state.apply_action(L.A_PLAY + 22)
            continue
        if i == 12:  # trick 13: s1 void in hearts, must play a tarock but not the Pagat
            acts(state, "s2 PLAY H1; s0 PLAY H3")
            assert cards_of(state) == {"T2", "T5", "T21"}
            acts(state, "s1 PLAY T5")
            continue
        play_tricks(state, [line])
    assert state.is_terminal()
    row = state.row
    assert [int(row[L.POINTS + s]) for s in range(3)] == [12, 25, 21]
    assert state.returns().tolist() == [30, -60, 30]


@pytest.mark.parametrize("value", [0, 7])
def test_example_f_trischaken_value(value):
    state = game(all_pass_rule="trischaken", trischaken_value=value).new_initial_state(deal=DEAL_E)
    acts(state, "s0 PASS; s1 PASS; s2 PASS")
    play_tricks(state, TRICKS_F)
    assert state.returns().tolist() == [value, -2 * value, value]
