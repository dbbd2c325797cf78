"""Every named variant option of the Tatteln rules (spec section 8), its validation and its effect."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import BadDealError, BadOptionError
from tarockrl.games.tatteln import kernels as k
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.rules import TattelnRules
from tests.tatteln.helpers import (
    act,
    hand,
    last_announcement,
    legal_names,
    make_deal,
    melds,
    play,
    play_row,
    revealed,
    state_of,
)

SPEC_OPTIONS = {
    "deck_size", "hand_size", "trump_jack_nine_bonus", "no_trump", "value_tattel", "value_quart", "value_fuss",
    "value_trio", "value_four", "sets_all_ranks", "max_window_length", "four_tops_up_trio", "seq_tie_trump_wins",
    "announce_only_on_lead", "blocker_scores", "announce_in_final_phase", "rob_enabled", "final_must_head",
    "final_must_trump", "matsch_enabled", "matsch_forfeits_score", "matsch_multiplier", "matsch_ends_partie",
    "reward_mode", "partie_target", "partie_double_below_half",
}


def test_every_spec_option_is_a_field_with_the_spec_default():
    game = tarockrl.make_game("tatteln")
    assert set(game.options) == SPEC_OPTIONS
    assert game.options == {
        "deck_size": 32, "hand_size": 9, "trump_jack_nine_bonus": True, "no_trump": False, "value_tattel": 3,
        "value_quart": 4, "value_fuss": 15, "value_trio": 3, "value_four": 14, "sets_all_ranks": False,
        "max_window_length": 5, "four_tops_up_trio": True, "seq_tie_trump_wins": False,
        "announce_only_on_lead": False, "blocker_scores": True, "announce_in_final_phase": True,
        "rob_enabled": True, "final_must_head": False, "final_must_trump": False, "matsch_enabled": True,
        "matsch_forfeits_score": True, "matsch_multiplier": 2, "matsch_ends_partie": True,
        "reward_mode": "points", "partie_target": 500, "partie_double_below_half": True,
    }


@pytest.mark.parametrize("bad", [
    {"deck_size": 33}, {"deck_size": 52}, {"hand_size": 7}, {"hand_size": 10}, {"max_window_length": 4},
    {"max_window_length": 9}, {"value_tattel": 0}, {"value_four": 3}, {"reward_mode": "money"},
    {"no_trump": 1}, {"partie_target": 0}, {"matsch_multiplier": 0}, {"colour": "red"}, {"deck_size": "32"},
])
def test_bad_options(bad):
    with pytest.raises(BadOptionError) as err:
        tarockrl.make_game("tatteln", **bad)
    assert next(iter(bad)) in str(err.value) or "value_" in str(err.value)


def test_value_four_may_be_small_without_top_up():
    assert tarockrl.make_game("tatteln", value_four=3, four_tops_up_trio=False).rules.value_four == 3


@pytest.mark.parametrize("deck,hand_size,actions,state_len,max_len", [
    (32, 9, 35, 128, 89), (32, 8, 35, 128, 89), (36, 9, 39, 140, 101), (36, 8, 39, 140, 101)])
def test_sizes_follow_the_pack(deck, hand_size, actions, state_len, max_len):
    game = tarockrl.make_game("tatteln", deck_size=deck, hand_size=hand_size)
    assert game.num_actions == actions and game.state_len == state_len and game.max_episode_length == max_len
    assert game.action_to_string(deck) == "ANNOUNCE_SEQ"
    assert game.action_to_string(deck + 1) == "ANNOUNCE_SET"
    assert game.action_to_string(deck + 2) == "ROB"
    state = game.new_initial_state(seed=3)
    deal = state.deal()
    assert len(deal["hands"][0]) == len(deal["hands"][1]) == hand_size
    assert len(deal["stock"]) == deck - 2 * hand_size - 1
    assert state.observation(0).shape == (game.observation_size,)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert len([a for a in state.history() if a < deck]) == deck
    assert sum(k.pile_points(state.row, s, game.encoded_options) for s in range(2)) == 162


def test_36_cards_trump_six_robs():
    game = tarockrl.make_game("tatteln", deck_size=36)
    deal = make_deal(1, ["H6 C7 C9 CJ D7 D9 S7 S9 SJ", "H7 C8 CT CQ D8 DT DQ S8 ST"], "HA", n=36)
    state = game.new_initial_state(deal=deal)
    assert "ROB" in legal_names(state)
    act(state, "ROB")
    assert "HA" in hand(state, 0) and "H6" not in hand(state, 0)
    assert state.action_to_string(38) == "ROB" and state.action_to_string(0) == "PLAY H6"


def test_no_trump():
    game = tarockrl.make_game("tatteln", no_trump=True)
    state = game.new_initial_state(seed=8)
    deal = state.deal()
    assert deal["turn_up"] is None and len(deal["stock"]) == 14
    assert int(state.row[L.TRUMP]) == -1 and int(state.row[L.BOTTOM]) == -1
    with pytest.raises(BadDealError, match="turn_up must be None"):
        game.new_initial_state(deal={**deal, "turn_up": deal["stock"][0], "stock": deal["stock"][1:]})
    while not state.is_terminal():
        assert "ROB" not in legal_names(state)
        state.apply_action(state.legal_actions()[0])
    assert sum(k.pile_points(state.row, s, game.encoded_options) for s in range(2)) == 130
    assert k.bottom_drawer(state.row) == -1  # the last stock card is face down
    assert state.returns().sum() == 0
    # the same deal with trumps would be refused without a turn-up
    with pytest.raises(BadDealError):
        tarockrl.make_game("tatteln").new_initial_state(deal=deal)


def test_no_trump_trick_winner_and_points():
    game = tarockrl.make_game("tatteln", no_trump=True)
    deal = {"dealer": 1, "hands": [["HJ", "C7", "C8", "C9", "D7", "D8", "D9", "S7", "S8"],
                                   ["H9", "CA", "CK", "CQ", "DA", "DK", "DQ", "SA", "SK"]],
            "turn_up": None,
            "stock": ["H7", "H8", "HT", "HQ", "HK", "HA", "CT", "CJ", "DT", "DJ", "ST", "SJ", "SQ", "S9"]}
    state = game.new_initial_state(deal=deal)
    play(state, 0, "HJ")
    play(state, 1, "H9")  # no trumps: the jack is a plain jack and beats the nine
    assert state.current_player() == 0
    assert k.card_points(np.int64(0b1100), -1, game.encoded_options) == 2  # H9 0 + HJ 2


def test_trump_jack_nine_bonus_off():
    game = tarockrl.make_game("tatteln", trump_jack_nine_bonus=False)
    state = game.new_initial_state(seed=9)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(k.pile_points(state.row, s, game.encoded_options) for s in range(2)) == 130
    assert k.card_points(np.int64(0b1100), 0, game.encoded_options) == 2


def test_sets_all_ranks():
    deal = make_deal(1, ["H9 D9 C9 H7 D8 CJ SQ SK HA", "C7 C8 CT CQ D7 DT DQ S8 SJ"], "SA")
    assert "ANNOUNCE_SET" not in legal_names(tarockrl.make_game("tatteln").new_initial_state(deal=deal))
    game = tarockrl.make_game("tatteln", sets_all_ranks=True)
    state = game.new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SET")
    ann = last_announcement(state)
    assert (ann["ka"], ann["scored"]) == (16 * 3 + 2, [3, 0])


def test_max_window_length_six():
    deal = make_deal(1, ["H8 H9 HT HJ HQ HK C7 D7 S7", "C8 CT CQ D8 DT DQ S8 ST SQ"], "SA")
    state = tarockrl.make_game("tatteln").new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SEQ")
    assert last_announcement(state)["ka"] == 16 * 5 + 6 and melds(state) == [54, 0]
    game = tarockrl.make_game("tatteln", max_window_length=6)
    state = game.new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SEQ")
    assert last_announcement(state)["ka"] == 16 * 6 + 6 and melds(state) == [54 + 16, 0]
    assert game.observation_size == tarockrl.make_game("tatteln").observation_size + 8 * 3  # three 6-windows per suit


def test_meld_values():
    deal = make_deal(1, ["HJ HT H9 SK DK CK C7 D7 S7", "C8 CT CQ D8 DT DQ S8 ST SQ"], "SA")
    game = tarockrl.make_game("tatteln", value_tattel=5, value_trio=7, value_four=20)
    state = game.new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SEQ")
    act(state, "ANNOUNCE_SET")
    assert melds(state) == [12, 0]


def test_blocker_scores_off():
    deal = make_deal(1, ["HJ HT H9 C7 C9 D7 S8 SQ SA", "DJ DT D9 D8 H7 CA SJ C8 HA"], "CQ")
    game = tarockrl.make_game("tatteln", blocker_scores=False)
    state = game.new_initial_state(deal=deal)
    act(state, "ANNOUNCE_SEQ")
    ann = last_announcement(state)
    assert (ann["outcome"], ann["scored"]) == ("not good", [0, 0])
    assert melds(state) == [0, 0] and revealed(state, 1) == set()
    play(state, 0, "C7")
    assert "ANNOUNCE_SEQ" in legal_names(state)  # B's atoms stayed unscored and may be announced by him


def test_announce_only_on_lead():
    deal = make_deal(1, ["HJ HT H9 C7 C9 D7 S8 SQ SA", "DJ DT D9 D8 H7 CA SJ C8 HA"], "CQ")
    game = tarockrl.make_game("tatteln", announce_only_on_lead=True)
    state = game.new_initial_state(deal=deal)
    assert "ANNOUNCE_SEQ" in legal_names(state)
    play(state, 0, "C7")
    assert "ANNOUNCE_SEQ" not in legal_names(state)  # the follower may not announce
    state = tarockrl.make_game("tatteln").new_initial_state(deal=deal)
    play(state, 0, "C7")
    assert "ANNOUNCE_SEQ" in legal_names(state)  # by default he may


def test_announce_in_final_phase_off():
    hands = ["", "HJ HT H9 C7 S8"]
    for final_ok in (True, False):
        game = tarockrl.make_game("tatteln", announce_in_final_phase=final_ok)
        final_row = play_row(game, hands, trump=3, led="CT", final=True)
        stock_row = play_row(game, hands, trump=3, led="CT", final=False, stock_left=4, bottom="SA", tricks=5)
        assert ("ANNOUNCE_SEQ" in legal_names(state_of(game, final_row))) == final_ok
        assert "ANNOUNCE_SEQ" in legal_names(state_of(game, stock_row))


def test_turn_flags_once_per_turn():
    from tests.tatteln.test_worked_examples import E6_DEAL
    state = tarockrl.make_game("tatteln").new_initial_state(deal=E6_DEAL)
    for lead, follow in (("D7", "CT"), ("C7", "S8"), ("S7", "D8"), ("D9", "ST")):
        play(state, 0, lead)
        play(state, 1, follow)
    act(state, "ROB")
    assert int(state.row[L.FLAGS]) == L.F_ROB
    act(state, "ANNOUNCE_SEQ")
    assert int(state.row[L.FLAGS]) == L.F_ROB | L.F_SEQ
    assert "ROB" not in legal_names(state) and "ANNOUNCE_SEQ" not in legal_names(state)
    play(state, 0, "SA")
    assert int(state.row[L.FLAGS]) == 0


def test_rules_dataclass_is_frozen_and_hashable():
    r = TattelnRules()
    with pytest.raises(AttributeError):
        r.deck_size = 36
    assert hash(r) == hash(TattelnRules())
    assert r.max_episode_length == 89 and TattelnRules(deck_size=36).max_episode_length == 101
