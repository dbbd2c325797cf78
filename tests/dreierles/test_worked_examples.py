"""The complete worked deals of the Dreierles rules: every action scripted, the exact settlement asserted."""

from __future__ import annotations

import pytest

import tarockrl
from tests.dreierles.helpers import act, codes, legal_cards, legal_names, play_tricks

E2_DEAL = {
    "dealer": 2,
    "hands": [
        codes("T2 T4 T9 T12 T13 T16 T17 HN HQ D4 D2 C9 CJ S8 SN SK"),
        codes("T1 T5 T7 T8 T10 T11 T15 T18 T20 H1 DQ DK CN CK S7 SJ"),
        codes("T3 T14 T21 ST H4 H3 HJ HK DJ DN C7 C10 CQ S9 S10 SQ"),
    ],
    "blind": codes("D1 T6 H2 C8 T19 D3"),
}

E2_TRICKS = [
    "B CK, C C7, A C9", "B DQ, C DJ, A D4", "B T6, C T14, A T2", "C T3, A T4, B T5",
    "B T18, C T21, A T9", "C CQ, A CJ, B CN", "C S10, A S8, B SJ", "B T15, C ST, A T12",
    "C S9, A SK, B S7", "A T13, B T20, C H4", "B T11, C H3, A T16", "A D2, B DK, C DN",
    "B T7, C C10, A T17", "A HQ, B T8, C HJ", "B T10, C SQ, A HN", "B T1, C HK, A SN",
]


def _play_e2(**options):
    game = tarockrl.make_game("dreierles", **options)
    state = game.new_initial_state(deal=E2_DEAL)
    assert state.current_player() == 0  # forehand A (dealer C)
    act(state, "BID Dreier")
    assert legal_names(state) == {"PASS", "BID Zweier", "BID Einer", "BID Solo"}  # L16
    act(state, "BID Zweier")
    act(state, "PASS")
    assert state.phase() == "discard" and state.current_player() == 1
    assert legal_cards(state) == {"H1", "D1", "DQ", "CN", "S7", "SJ"}  # L15
    act(state, "DISCARD H1")
    assert legal_cards(state) == {"D1", "DQ", "CN", "S7", "SJ"}
    act(state, "DISCARD D1")
    if options.get("pfeife_announce_timing", "before_knocks") == "before_knocks":
        assert state.phase() == "announce"
        act(state, "NO_ANNOUNCE")
    assert state.phase() == "knock" and state.current_player() == 0  # L18: only A is asked
    act(state, "KNOCK")
    assert state.phase() == "reknock" and state.current_player() == 1
    act(state, "KNOCK")
    if options.get("pfeife_announce_timing") == "after_knocks":
        assert state.phase() == "announce"
        act(state, "NO_ANNOUNCE")
    assert state.phase() == "play" and state.current_player() == 1
    play_tricks(state, E2_TRICKS)
    assert state.is_terminal()
    return state


def test_e2_zweier_knock_reknock_silent_pfeife():
    state = _play_e2()
    assert state.returns().tolist() == [-18, 36, -18]
    row = state.row
    from tarockrl.games.dreierles import layout as L

    assert row[L.POINTS + 1] == 44 and row[L.POINTS + 0] == 26
    assert len(state.history()) == 3 + 2 + 1 + 2 + 48


def test_e2_dealt_hand_bonus_basis():
    state = _play_e2(hand_bonus_basis="dealt")
    assert state.returns().tolist() == [-17, 34, -17]


def test_e2_announce_after_knocks_gives_same_result():
    state = _play_e2(pfeife_announce_timing="after_knocks")
    assert state.returns().tolist() == [-18, 36, -18]


def test_e2_exact_thirds_counting():
    state = _play_e2(counting_method="exact_thirds")
    from tarockrl.games.dreierles import layout as L

    # declarer: F = 63 over 29 cards -> 3*63 - 2*29 = 131 thirds; 131 - 105 = 26 -> 2 units
    assert state.row[L.POINTS + 1] == 131 and state.row[L.POINTS + 0] == 210 - 131
    assert state.returns().tolist() == [-18, 36, -18]


E6_DEAL = {
    "dealer": 0,
    "hands": [
        codes("T1 T6 T7 T21 H3 HN HQ D2 D1 DJ C9 CJ CN CK S8 SK"),
        codes("T8 T10 T11 T13 T17 T19 T20 H1 D4 D3 DN DQ DK C7 S7 S9"),
        codes("T2 T5 T9 T12 T15 T16 T18 H4 H2 HJ C8 C10 CQ SJ SN SQ"),
    ],
    "blind": codes("T4 ST HK T3 S10 T14"),
}

E6_TRICKS = [
    "B S9, C SJ, A S8", "C H4, A H3, B H1", "B T13, C T5, A T1", "B D3, C T12, A DJ",
    "C T18, A T6, B T17", "C H2, A HN, B T20", "B C7, C C10, A C9", "C C8, A CJ, B T19",
    "B T8, C T2, A T7", "B D4, C T15, A D1", "C T9, A T21, B T11", "A D2, B DN, C T16",
    "C HJ, A HQ, B T10", "B S7, C SN, A SK", "A CN, B DK, C CQ", "C SQ, A CK, B DQ",
]


def _raeuber_start(**options):
    game = tarockrl.make_game("dreierles", **options)
    state = game.new_initial_state(deal=E6_DEAL)
    act(state, "PASS")
    act(state, "PASS")
    act(state, "PASS")
    assert state.phase() == "raeuber_knock" and state.current_player() == 1
    act(state, "KNOCK")
    act(state, "NO_KNOCK")
    act(state, "KNOCK")
    assert state.phase() == "play" and state.current_player() == 1
    return state


def test_e6_raeuber_with_two_knocks_and_restrictions():
    state = _raeuber_start()
    # play up to trick 3, A's turn: the Pfeife is forced (L7)
    play_tricks(state, E6_TRICKS[:2] + ["B T13, C T5"])
    assert legal_cards(state) == {"T1"}
    act(state, "PLAY T1")
    play_tricks(state, E6_TRICKS[3:4] + ["C T18, A T6, B T17"][:0])
    # trick 5: C leads T18; A holds T6 T7 T21 with the Stieß unplayed -> 21 blocked (L12)
    act(state, "PLAY T18")
    assert legal_cards(state) == {"T6", "T7"}
    act(state, "PLAY T6")
    act(state, "PLAY T17")
    play_tricks(state, E6_TRICKS[5:8])
    # trick 9: B T8, C T2; A: 21 blocked, legal {T7}
    play_tricks(state, ["B T8, C T2"])
    assert legal_cards(state) == {"T7"}
    act(state, "PLAY T7")
    play_tricks(state, E6_TRICKS[9:10] + ["C T9"])
    assert legal_cards(state) == {"T21"}  # L13: the 21 is his only trump
    act(state, "PLAY T21")
    act(state, "PLAY T11")
    play_tricks(state, E6_TRICKS[11:])
    assert state.is_terminal()
    from tarockrl.games.dreierles import layout as L

    assert [int(state.row[L.POINTS + s]) for s in range(3)] == [12, 17, 31]
    assert state.returns().tolist() == [8, 8, -16]
    assert len(state.history()) == 54


def test_e6_full_replay_matches_transcript():
    state = _raeuber_start()
    play_tricks(state, E6_TRICKS)
    text = state.transcript()
    assert "16. C SQ, A CK, B DQ -> C" in text
    assert "settlement (GP): A(0) +8, B(1) +8, C(2) -16" in text


def test_e6_without_restrictions_allows_the_21_early():
    state = _raeuber_start(raeuber_restrictions="none")
    play_tricks(state, E6_TRICKS[:2] + ["B T13, C T5"])
    assert legal_cards(state) == {"T1", "T6", "T7", "T21"}


@pytest.mark.parametrize("knocks,expected", [(0, 2), (3, 16)])
def test_raeuber_knock_multiplier(knocks, expected):
    game = tarockrl.make_game("dreierles")
    state = game.new_initial_state(deal=E6_DEAL)
    for _ in range(3):
        act(state, "PASS")
    for i in range(3):
        act(state, "KNOCK" if i < knocks else "NO_KNOCK")
    play_tricks(state, E6_TRICKS)
    assert state.returns().tolist() == [expected, expected, -2 * expected]


def test_raeuber_max_knocks_zero_skips_knocking():
    game = tarockrl.make_game("dreierles", raeuber_max_knocks=0)
    state = game.new_initial_state(deal=E6_DEAL)
    for _ in range(3):
        act(state, "PASS")
    assert state.phase() == "play"


def test_raeuber_max_knocks_stops_asking():
    game = tarockrl.make_game("dreierles", raeuber_max_knocks=1)
    state = game.new_initial_state(deal=E6_DEAL)
    for _ in range(3):
        act(state, "PASS")
    act(state, "NO_KNOCK")
    act(state, "KNOCK")
    assert state.phase() == "play"
