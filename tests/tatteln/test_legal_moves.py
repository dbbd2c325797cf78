"""The legal-move examples L1-L5 of the Tatteln rules, the trick winner and the phase rules."""

from __future__ import annotations

import pytest

import tarockrl
from tarockrl.games.tatteln import kernels as k
from tarockrl.games.tatteln.cards import parse_card
from tests.tatteln.helpers import GAME, hand, legal_cards, legal_names, make_deal, play, play_row, state_of

HEARTS, DIAMONDS, CLUBS, SPADES = range(4)


def _winner(lead: str, follow: str, trump: int, leader: int = 0) -> int:
    return int(k.trick_winner(parse_card(lead), parse_card(follow), leader, trump, 0))


def test_l1_stock_phase_free_play():
    hand = "H7 HK SJ S8 D9 DT CQ CA C7"
    state = state_of(GAME, play_row(GAME, ["", hand], trump=SPADES, led="HA", final=False, stock_left=6,
                                    bottom="SQ", tricks=3))
    assert legal_names(state) == {f"PLAY {c}" for c in hand.split()}
    assert _winner("HA", "SJ", SPADES) == 1  # trump wins
    assert _winner("HA", "HK", SPADES) == 0  # lower heart loses
    assert _winner("HA", "D9", SPADES) == 0  # a third suit never wins


def test_l2_final_phase_follow_suit():
    state = state_of(GAME, play_row(GAME, ["", "CA C7 SJ H8"], trump=SPADES, led="CT"))
    assert legal_names(state) == {"PLAY CA", "PLAY C7"}
    assert _winner("CT", "C7", SPADES) == 0
    assert _winner("CT", "CA", SPADES) == 1


def test_l3_final_phase_void():
    row = play_row(GAME, ["", "SJ S9 H8 CK"], trump=SPADES, led="DQ")
    assert legal_cards(state_of(GAME, row)) == {"SJ", "S9", "H8", "CK"}
    game = tarockrl.make_game("tatteln", final_must_trump=True)
    assert legal_cards(state_of(game, play_row(game, ["", "SJ S9 H8 CK"], trump=SPADES, led="DQ"))) == {"SJ", "S9"}
    # no trump in hand: anything
    assert legal_cards(state_of(game, play_row(game, ["", "H8 CK"], trump=SPADES, led="DQ"))) == {"H8", "CK"}


def test_l4_final_phase_trump_led():
    assert legal_cards(state_of(GAME, play_row(GAME, ["", "S9 S8 HA"], trump=SPADES, led="ST"))) == {"S9", "S8"}
    game = tarockrl.make_game("tatteln", final_must_head=True)
    assert legal_cards(state_of(game, play_row(game, ["", "S9 S8 HA"], trump=SPADES, led="ST"))) == {"S9"}
    assert _winner("ST", "S9", SPADES) == 1
    # must head in a plain suit; without a higher card any card of the suit
    assert legal_cards(state_of(game, play_row(game, ["", "CA CK C7 SJ"], trump=SPADES, led="CT"))) == {"CA"}
    assert legal_cards(state_of(game, play_row(game, ["", "CK C7 SJ"], trump=SPADES, led="CT"))) == {"CK", "C7"}
    # both options: void in the led suit -> trump
    game = tarockrl.make_game("tatteln", final_must_head=True, final_must_trump=True)
    assert legal_cards(state_of(game, play_row(game, ["", "S7 HA"], trump=SPADES, led="CT"))) == {"S7"}


def test_l5_robbing():
    def row(game, cur, leader, led, stock_left, hand="D7 HA CK"):
        hands = ["", ""]
        hands[cur] = hand
        return play_row(game, hands, trump=DIAMONDS, cur=cur, leader=leader, led=led, final=stock_left == 0,
                        stock_left=stock_left, bottom="DA" if stock_left else None, tricks=4)

    assert "ROB" in legal_names(state_of(GAME, row(GAME, 0, 0, None, 6)))  # leading
    assert "ROB" in legal_names(state_of(GAME, row(GAME, 1, 0, "S8", 6)))  # following
    assert "ROB" not in legal_names(state_of(GAME, row(GAME, 0, 0, None, 0)))  # stock empty
    assert "ROB" not in legal_names(state_of(GAME, row(GAME, 0, 0, None, 6, hand="D8 HA CK")))  # no trump seven
    game = tarockrl.make_game("tatteln", announce_only_on_lead=True)
    assert "ROB" in legal_names(state_of(game, row(game, 0, 0, None, 6)))
    assert "ROB" not in legal_names(state_of(game, row(game, 1, 0, "S8", 6)))
    game = tarockrl.make_game("tatteln", rob_enabled=False)
    assert "ROB" not in legal_names(state_of(game, row(game, 0, 0, None, 6)))


def test_l5_turn_up_seven_no_rob_all_deal():
    # the turn-up is the trump seven: nobody can rob in this deal
    deal = make_deal(1, ["D8 D9 DT HA CK S7 S8 S9 C7", "DJ DQ DK H7 H8 C8 C9 CT CJ"], "D7")
    state = GAME.new_initial_state(deal=deal)
    for _ in range(14):
        assert "ROB" not in legal_names(state)
        state.apply_action(min(a for a in state.legal_actions() if a < 32))
    assert state.phase() == "final"


def test_rob_on_the_last_stock_trick():
    # D15: robbing is allowed while only one face-down card is left above the bottom card
    deal = make_deal(1, ["H7 C7 C8 C9 D7 D8 D9 S7 S8", "HA CA CK CQ DA DK DQ SA SK"], "HJ")
    state = GAME.new_initial_state(deal=deal)
    for _ in range(6):  # A leads low, B follows high in the same suit and wins; B leads, A follows low
        lead = min(a for a in state.legal_actions() if a < 32 and a != parse_card("H7"))
        state.apply_action(lead)
        follow = min(a for a in state.legal_actions() if a < 32 and a != parse_card("H7"))
        state.apply_action(follow)
    assert k.stock_left(state.row, GAME.encoded_options) == 2
    cur = state.current_player()
    if cur == 0:
        assert "ROB" in legal_names(state)
    else:
        state.apply_action(min(a for a in state.legal_actions() if a < 32))
        assert "ROB" in legal_names(state)


def test_trump_ranking_and_examples_of_5_3():
    # hearts trumps: H9 beats HA, HJ beats H9, H7 beats SA
    assert _winner("HA", "H9", HEARTS) == 1
    assert _winner("H9", "HJ", HEARTS) == 1
    assert _winner("HJ", "H9", HEARTS) == 0
    assert _winner("SA", "H7", HEARTS) == 1
    order = ["H7", "H8", "HQ", "HK", "HT", "HA", "H9", "HJ"]  # trump order low to high
    for i, low in enumerate(order):
        for high in order[i + 1:]:
            assert _winner(low, high, HEARTS) == 1 and _winner(high, low, HEARTS) == 0
    plain = ["S7", "S8", "S9", "SJ", "SQ", "SK", "ST", "SA"]
    for i, low in enumerate(plain):
        for high in plain[i + 1:]:
            assert _winner(low, high, HEARTS) == 1 and _winner(high, low, HEARTS) == 0
    # no trump: only the led suit wins
    assert _winner("SA", "H7", -1) == 0
    assert _winner("S7", "S8", -1) == 1


def test_phases_default_deal():
    state = GAME.new_initial_state(seed=11)
    for t in range(16):
        assert state.phase() == ("stock" if t < 7 else "final")
        for _ in range(2):
            state.apply_action(min(a for a in state.legal_actions() if a < 32))
    assert state.phase() == "terminal" and state.is_terminal()


@pytest.mark.parametrize("deck,hand_size,stock_tricks", [(32, 9, 7), (32, 8, 8), (36, 9, 9), (36, 8, 10)])
def test_derived_constants(deck, hand_size, stock_tricks):
    game = tarockrl.make_game("tatteln", deck_size=deck, hand_size=hand_size)
    state = game.new_initial_state(seed=5)
    n_tricks = deck // 2
    assert game.rules.stock_tricks == stock_tricks and game.rules.num_tricks == n_tricks
    assert game.rules.stock_size == 2 * stock_tricks and game.rules.final_tricks == hand_size
    for t in range(n_tricks):
        assert state.phase() == ("stock" if t < stock_tricks else "final")
        size = hand_size if t < stock_tricks else hand_size - (t - stock_tricks)
        assert [len(hand(state, s)) for s in range(2)] == [size, size]
        for _ in range(2):
            state.apply_action(min(a for a in state.legal_actions() if a < deck))
    assert state.is_terminal()
    assert len(state.history()) == 2 * n_tricks


def test_play_helper_checks_mover():
    state = GAME.new_initial_state(deal=make_deal(1, ["C7 C8 C9 D7 D8 D9 S7 S8 S9", "CA CK CQ DA DK DQ SA SK SQ"],
                                                  "HA"))
    with pytest.raises(AssertionError):
        play(state, 1, "CA")
