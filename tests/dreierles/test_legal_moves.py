"""Legal-move examples of the rules (play, Räuber restrictions, auction, knocking)."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import kernels as k
from tarockrl.games.dreierles import layout as L
from tests.dreierles.helpers import act, legal_cards, legal_names, play_row, state_of
from tests.dreierles.test_worked_examples import E2_DEAL

GAME = tarockrl.make_game("dreierles")


@pytest.mark.parametrize(
    "hand,trick,expected",
    [
        ("T5 T17 HQ H3 C7 SK", "H2", "H3 HQ"),  # L1 follow suit, no need to beat
        ("T5 T17 HQ H3 C7 SK", "D4 T10", "T5 T17"),  # L2 void -> must trump, need not over-trump
        ("HQ H3 C7 SK", "D4", "HQ H3 C7 SK"),  # L3 no diamond, no trump -> anything
        ("T5 T17 HQ", "T12", "T5 T17"),  # L4 trump led -> any trump
        ("ST HQ", "T1", "ST"),  # L5 the Stieß must follow trumps
        ("T5 T17 HQ H3 C7 SK", "", "T5 T17 HQ H3 C7 SK"),  # L6 free lead
    ],
)
def test_normal_play_legality(hand, trick, expected):
    state = state_of(GAME, play_row(hand, trick))
    assert legal_cards(state) == set(expected.split())


@pytest.mark.parametrize(
    "trick_no,hand,trick,stiess_played,expected",
    [
        (3, "T1 T6 T7 T21 HN HQ D2 D1 DJ C9 CJ CN CK SK", "T13 T5", False, "T1"),  # L7
        (2, "T1 T6 H3 C7", "T9", False, "T1 T6"),  # L8
        (3, "T1 T6 H3 C7", "H2", False, "H3"),  # L9
        (4, "T1 T6 C7", "D4", False, "T1"),  # L10 carried-over obligation
        (3, "T1 T6 H3 C7", "", False, "T1"),  # L11 forced also when leading
        (5, "T6 T7 T21 HN HQ D2 D1 C9 CJ CN CK SK", "T18", False, "T6 T7"),  # L12
        (11, "T21 HQ D2 CN CK SK", "T9", False, "T21"),  # L13
        (5, "T21 T8 HQ", "ST", False, "T8 T21"),  # L14 the Stieß is in this trick
        (5, "T21 T8 HQ", "T9", True, "T8 T21"),  # Stieß played in an earlier trick
    ],
)
def test_raeuber_steinmauern_restrictions(trick_no, hand, trick, stiess_played, expected):
    state = state_of(GAME, play_row(hand, trick, raeuber=True, trick_no=trick_no, stiess_played=stiess_played))
    assert legal_cards(state) == set(expected.split())


def test_l14_not_with_stiess_reading():
    game = tarockrl.make_game("dreierles", raeuber_21_rule="not_with_stiess")
    state = state_of(game, play_row("T21 T8 HQ", "ST", raeuber=True, trick_no=5))
    assert legal_cards(state) == {"T8"}
    state = state_of(game, play_row("T21 T8 HQ", "T9", raeuber=True, trick_no=5))
    assert legal_cards(state) == {"T8", "T21"}


def test_pfeife_without_carry_over_lapses_after_trick_3():
    game = tarockrl.make_game("dreierles", raeuber_pfeife_carry_over=False)
    assert legal_cards(state_of(game, play_row("T1 T6 C7", "D4", raeuber=True, trick_no=4))) == {"T1", "T6"}
    assert legal_cards(state_of(game, play_row("T1 T6 C7", "D4", raeuber=True, trick_no=3))) == {"T1"}


def test_third_trump_trick_pfeife_rule():
    game = tarockrl.make_game("dreierles", raeuber_pfeife_rule="third_trump_trick")
    # follower in the third trump-led trick: forced
    assert legal_cards(state_of(game, play_row("T1 T6 C7", "T9", raeuber=True, trick_no=4, n_trump_led=3))) == {"T1"}
    # second trump-led trick: free
    assert legal_cards(state_of(game, play_row("T1 T6 C7", "T9", raeuber=True, trick_no=4, n_trump_led=2))) == {
        "T1", "T6"}
    # the leader is never forced
    assert legal_cards(state_of(game, play_row("T1 T6 C7", "", raeuber=True, trick_no=9, n_trump_led=5))) == {
        "T1", "T6", "C7"}


def test_iffezheim_set():
    game = tarockrl.make_game("dreierles", raeuber_restrictions="iffezheim")
    # (i) the Stieß or the 21 must be played at the first chance (he chooses between them)
    assert legal_cards(state_of(game, play_row("ST T21 T5 H3", "T9", raeuber=True, trick_no=1))) == {"ST", "T21"}
    # (ii) the Stieß may not join a trick holding the 21 unless it is the only legal card
    assert legal_cards(state_of(game, play_row("ST T5 H3", "T21", raeuber=True, trick_no=1))) == {"T5"}
    assert legal_cards(state_of(game, play_row("ST H3", "T21", raeuber=True, trick_no=1))) == {"ST"}
    # (iii) the Pfeife from trick 3 on, together with the obliged honours
    assert legal_cards(state_of(game, play_row("T1 T21 T5", "T9", raeuber=True, trick_no=3))) == {"T1", "T21"}
    assert legal_cards(state_of(game, play_row("T1 T5", "", raeuber=True, trick_no=2))) == {"T1", "T5"}


def test_no_restrictions_in_normal_contracts():
    state = state_of(GAME, play_row("T1 T6 T21 H3", "T9", trick_no=5))
    assert legal_cards(state) == {"T1", "T6", "T21"}


def test_l16_l17_auction():
    state = GAME.new_initial_state(deal=E2_DEAL)
    assert legal_names(state) == {"PASS", "BID Dreier", "BID Zweier", "BID Einer", "BID Solo"}
    act(state, "BID Einer")
    assert legal_names(state) == {"PASS", "BID Solo"}
    last = tarockrl.make_game("dreierles", last_round_raeuber_or_solo=True).new_initial_state(deal=E2_DEAL)
    assert legal_names(last) == {"PASS", "BID Solo"}  # L17


def test_l19_solo_ends_auction_and_nobody_may_knock():
    state = GAME.new_initial_state(deal=E2_DEAL)
    act(state, "BID Solo")  # forehand A; B holds no Pfeife? B holds T1 but A is the declarer here
    assert state.phase() == "play" and state.current_player() == 0  # A has no Pfeife, nobody may knock
    assert len(state.history()) == 1


def test_not_passed_eligibility_lets_silent_defenders_knock():
    state = tarockrl.make_game("dreierles", knock_eligibility="not_passed").new_initial_state(deal=E2_DEAL)
    act(state, "BID Solo")
    assert state.phase() == "knock" and state.current_player() == 1
    act(state, "NO_KNOCK")
    assert state.current_player() == 2
    act(state, "KNOCK")
    assert state.phase() == "reknock" and state.current_player() == 0


def test_last_round_solo_knockers_are_the_silent_ones():
    game = tarockrl.make_game("dreierles", last_round_raeuber_or_solo=True)
    state = game.new_initial_state(deal=E2_DEAL)
    act(state, "PASS")  # A passes
    act(state, "BID Solo")  # B: Solo; C never spoke
    assert state.phase() == "announce"  # B holds the Pfeife
    act(state, "ANNOUNCE_PFEIFE")
    assert state.phase() == "knock" and state.current_player() == 2
    act(state, "KNOCK")
    act(state, "NO_KNOCK")
    assert state.phase() == "play"


def test_two_defender_knocks_option():
    game = tarockrl.make_game("dreierles", max_defender_knocks=2, knock_eligibility="not_passed")
    state = game.new_initial_state(deal=E2_DEAL)
    act(state, "BID Solo")
    act(state, "KNOCK")
    assert state.phase() == "knock" and state.current_player() == 2  # still asked after a knock
    act(state, "KNOCK")
    act(state, "KNOCK")  # re-knock
    assert state.row[L.KNOCKS] == 3


def test_no_reknock_option():
    game = tarockrl.make_game("dreierles", allow_reknock=False)
    state = game.new_initial_state(deal=E2_DEAL)
    act(state, "BID Dreier")
    act(state, "BID Zweier")
    act(state, "PASS")
    act(state, "DISCARD H1")
    act(state, "DISCARD D1")
    act(state, "NO_ANNOUNCE")
    act(state, "KNOCK")
    assert state.phase() == "play"


def test_discard_fallback_to_mid_trumps():
    hand = np.int64((1 << 22) - 1 | (1 << 29) | (1 << 37) | (1 << 45) | (1 << 53) | (1 << 22))  # trumps, kings, H4
    legal = int(k.discard_legal(hand, np.int64(2)))
    from tarockrl.games.dreierles.cards import MID_TRUMPS
    assert legal == int(MID_TRUMPS) | (1 << 22)
    assert int(k.discard_legal(hand, np.int64(1))) == 1 << 22


def test_auto_play_forced_applies_single_choices():
    game = tarockrl.make_game("dreierles", auto_play_forced=True)
    state = game.new_initial_state(deal=E2_DEAL)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert len(legal) >= 2
        state.apply_action(int(rng.choice(legal)))
    assert 49 <= len(state.history()) <= 56
