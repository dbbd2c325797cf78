"""The bad-input catalogue: every bad input raises its documented error and leaves the state unchanged."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import (
    BadDealError,
    BadOptionError,
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    WrongGameError,
)
from tarockrl.games.dreiertarock import layout as L
from tests.dreiertarock.test_worked_examples import DEAL_A, DEAL_E

GAME = tarockrl.make_game("dreiertarock")


@pytest.mark.parametrize("action", [-1, 127, 128, 10**6, -(10**12)])
def test_out_of_range_actions(action):
    state = GAME.new_initial_state(deal=DEAL_A)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError, match="out of range"):
        state.apply_action(action)
    assert state.to_bytes() == before


@pytest.mark.parametrize("action", [110.0, "110", None, True, np.float64(110), [110], np.bool_(True)])
def test_wrong_type_actions(action):
    state = GAME.new_initial_state(deal=DEAL_A)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError, match="integer"):
        state.apply_action(action)
    assert state.to_bytes() == before


def test_numpy_integer_actions_are_accepted():
    state = GAME.new_initial_state(deal=DEAL_A)
    state.apply_action(np.int64(110))
    state.apply_action(np.int32(108))
    assert state.history() == [110, 108]


@pytest.mark.parametrize("phase_actions, bad", [
    ([], 0),  # a card during the auction
    ([], 109),  # HOLD with no bid
    ([], 111),  # skipping Einser
    ([110], 110),  # Einser again
    ([110, 108, 108], 116),  # a bid in the talon phase
    ([110, 108, 108, 117], 54 + 45),  # discarding CK (a king just taken from the talon)
    ([110, 108, 108, 117], 54 + 21),  # discarding the Sküs (trull)
    ([110, 108, 108, 117], 54 + 0),  # discarding the Pagat (trull)
    ([110, 108, 108, 117], 54 + 6),  # discarding T7 while plain cards remain
    ([110, 108, 108, 117], 54 + 30),  # discarding D4, not in the hand
    ([110, 108, 108, 117, 54 + 25, 54 + 31, 54 + 41], 0),  # a card during the announcements
    ([110, 108, 108, 117, 54 + 25, 54 + 31, 54 + 41], 123),  # doubling a bird nobody announced
])
def test_illegal_actions_name_the_legal_ones(phase_actions, bad):
    state = GAME.new_initial_state(deal=DEAL_A)
    for a in phase_actions:
        state.apply_action(a)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(bad)
    assert "legal actions:" in str(info.value)
    for a in state.legal_actions():
        assert state.action_to_string(a) in str(info.value)
    assert state.to_bytes() == before


def test_illegal_card_in_play():
    state = GAME.new_initial_state(deal=DEAL_A)
    for a in (110, 111, 108, 109, 108, 117, 54 + 25, 54 + 31, 54 + 41, 126, 126, 126, 6):  # ... s0 leads T7
        state.apply_action(a)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError):
        state.apply_action(27)  # s1 must follow with a tarock, not HN
    with pytest.raises(IllegalActionError):
        state.apply_action(0)  # T1 is not in s1's hand
    assert state.to_bytes() == before


def test_acting_after_the_end():
    state = GAME.new_initial_state(deal=DEAL_E)
    for a in (108, 108, 108):
        state.apply_action(a)
    assert state.is_terminal()
    before = state.to_bytes()
    for a in (108, 0, 126):
        with pytest.raises(GameOverError, match="over"):
            state.apply_action(a)
    assert state.to_bytes() == before
    assert issubclass(GameOverError, IllegalActionError)


def _deal(**change):
    deal = copy.deepcopy(DEAL_A)
    deal.update(change)
    return deal


BAD_DEALS = [
    ("not a dict", ["T1"], "dict"),
    ("missing key", {"dealer": 2, "hands": DEAL_A["hands"]}, "missing"),
    ("extra key", _deal(blind=[]), "extra"),
    ("old key name", {"dealer": 2, "hands": DEAL_A["hands"], "talon": DEAL_A["talon_packets"]}, "talon_packets"),
    ("dealer 3", _deal(dealer=3), "dealer"),
    ("dealer -1", _deal(dealer=-1), "dealer"),
    ("dealer bool", _deal(dealer=True), "dealer"),
    ("dealer str", _deal(dealer="2"), "dealer"),
    ("dealer float", _deal(dealer=2.0), "dealer"),
    ("two hands", _deal(hands=DEAL_A["hands"][:2]), "three hands"),
    ("hands str", _deal(hands="T1 T2"), "three hands"),
    ("short hand", _deal(hands=[DEAL_A["hands"][0][:15], DEAL_A["hands"][1], DEAL_A["hands"][2]]), "16"),
    ("long hand", _deal(hands=[DEAL_A["hands"][0] + ["T18"], DEAL_A["hands"][1], DEAL_A["hands"][2]]), "16"),
    ("unknown code", _deal(hands=[["T22"] + DEAL_A["hands"][0][1:], DEAL_A["hands"][1], DEAL_A["hands"][2]]),
     "T22"),
    ("code not str", _deal(hands=[[0] + DEAL_A["hands"][0][1:], DEAL_A["hands"][1], DEAL_A["hands"][2]]),
     "unknown card"),
    ("Dreierles code", _deal(hands=[["ST"] + DEAL_A["hands"][0][1:], DEAL_A["hands"][1], DEAL_A["hands"][2]]),
     "ST"),
    ("duplicate", _deal(talon_packets=[["T18", "HQ", "CK"], ["T5", "T13", "T1"]]), "T1"),
    ("one packet", _deal(talon_packets=[["T18", "HQ", "CK", "T5", "T13", "HK"]]), "two packets"),
    ("packet of 4", _deal(talon_packets=[["T18", "HQ", "CK", "T5"], ["T13", "HK"]]), "3"),
    ("packets str", _deal(talon_packets="T18 HQ CK T5 T13 HK"), "two packets"),
]


@pytest.mark.parametrize("what, deal, needle", BAD_DEALS, ids=[b[0] for b in BAD_DEALS])
def test_bad_deals(what, deal, needle):
    with pytest.raises(BadDealError) as info:
        GAME.new_initial_state(deal=deal)
    assert needle in str(info.value), (what, str(info.value))


def test_lower_case_codes_and_tuples_are_accepted():
    deal = _deal(hands=[tuple(c.lower() for c in h) for h in DEAL_A["hands"]])
    assert GAME.new_initial_state(deal=deal).deal() == GAME.new_initial_state(deal=DEAL_A).deal()


def test_seed_and_deal_together():
    with pytest.raises(ValueError):
        GAME.new_initial_state(seed=1, deal=DEAL_A)


@pytest.mark.parametrize("options, needle", [
    ({"no_such_option": 1}, "unknown"),
    ({"kontra_max_level": 4}, "kontra_max_level"),
    ({"kontra_max_level": -1}, "kontra_max_level"),
    ({"valat_factor": -1}, "valat_factor"),
    ({"valat_factor": 1.5}, "valat_factor"),
    ({"valat_factor": True}, "valat_factor"),
    ({"trischaken_value": 10**10}, "trischaken_value"),
    ({"solo_bonus_factor": "2"}, "solo_bonus_factor"),
    ({"all_pass_rule": "ramsch"}, "all_pass_rule"),
    ({"discard_tarock_rule": "never"}, "discard_tarock_rule"),
    ({"kaiserstich": 1}, "kaiserstich"),
    ({"auto_play_forced": "yes"}, "auto_play_forced"),
])
def test_bad_options(options, needle):
    with pytest.raises(BadOptionError, match=needle):
        tarockrl.make_game("dreiertarock", **options)


def test_unknown_game_name():
    with pytest.raises(WrongGameError, match="dreiertarock"):
        tarockrl.make_game("dreiertarok")


def test_batch_step_checks_every_row_first():
    batch = GAME.new_batch(4, seed=1)
    before = batch.rows.copy()
    actions = batch.random_actions(seed=2)
    actions[2] = 0  # a card in the auction
    with pytest.raises(IllegalActionError, match="row 2"):
        batch.step(actions)
    assert np.array_equal(batch.rows, before)
    with pytest.raises(IllegalActionError):
        batch.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(IllegalActionError):
        batch.step(np.zeros(4, dtype=np.float64))
    assert np.array_equal(batch.rows, before)


def test_bytes_of_other_games_and_options():
    state = GAME.new_initial_state(seed=1)
    data = state.to_bytes()
    with pytest.raises(WrongGameError, match="options"):
        tarockrl.make_game("dreiertarock", kaiserstich=True).state_from_bytes(data)
    with pytest.raises(WrongGameError, match="dreiertarock"):
        tarockrl.make_game("dreierles").state_from_bytes(data)
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(data[:-8])
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(b"garbage")
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes("not bytes")
    row = state.row.copy()
    row[L.HAND] |= row[L.HAND + 1]  # cards in two hands
    broken = GAME._encode(row)  # a valid checksum over an unreachable row
    with pytest.raises(CorruptStateError, match="not a reachable dreiertarock state: slot 'hand"):
        GAME.state_from_bytes(broken)
    assert GAME.state_from_bytes(data) == state


def test_bad_player_and_depth_arguments():
    state = GAME.new_initial_state(seed=1)
    with pytest.raises(ValueError):
        state.observation(3)
    with pytest.raises(TypeError):
        state.observation("0")
    with pytest.raises(ValueError):
        GAME.perft(state, -1)
    with pytest.raises(TypeError):
        GAME.perft(state, 2.0)
    with pytest.raises(WrongGameError):
        GAME.perft(tarockrl.make_game("dreierles").new_initial_state(seed=1), 1)
