"""The public facade on Tatteln: sizes, bad inputs, deal notation, serialisation, cloning, batches, text."""

from __future__ import annotations

import copy
import dataclasses
import pickle

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
from tarockrl.games import game_definition
from tarockrl.games.api import GameDefinition
from tarockrl.games.tatteln import layout as L
from tests.tatteln.helpers import GAME, act
from tests.tatteln.test_worked_examples import E2_DEAL


def _finished(seed=3):
    state = GAME.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def test_registry_and_sizes():
    assert "tatteln" in tarockrl.list_games()
    d = game_definition("tatteln")
    assert d.display_name == "Tatteln" and d.name == "tatteln" and d.num_players == 2
    for name, f in GameDefinition.__dataclass_fields__.items():
        if f.default is dataclasses.MISSING:  # every required field is filled
            assert getattr(d, name) is not None, name
    assert GAME.num_actions == 35 and GAME.num_players == 2
    assert GAME.state_len * 8 == 1024
    assert GAME.max_episode_length == 89
    assert GAME.observation_size == 585
    g36 = tarockrl.make_game("tatteln", deck_size=36)
    assert g36.num_actions == 39 and g36.max_episode_length == 101 and g36.state_len * 8 == 1120


@pytest.mark.parametrize("bad", [-1, 35, 10**9, 1.0, "0", None, True, np.float64(2.0), [1]])
def test_bad_actions_raise_and_leave_state_unchanged(bad):
    state = GAME.new_initial_state(seed=3)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(bad)
    assert "action" in str(err.value)
    assert state.to_bytes() == before


def test_illegal_actions_name_the_legal_ones():
    state = GAME.new_initial_state(deal=E2_DEAL)
    before = state.to_bytes()
    expected = r"legal actions: 2 \(PLAY H9\), 3 \(PLAY HJ\).*32 \(ANNOUNCE_SEQ\), 33 \(ANNOUNCE_SET\)$"
    with pytest.raises(IllegalActionError, match=expected):
        state.apply_action(34)  # ROB without the trump seven
    with pytest.raises(IllegalActionError):
        state.apply_action(11)  # PLAY DJ: a card of the other hand
    assert state.to_bytes() == before
    act(state, "ANNOUNCE_SEQ")
    before = state.to_bytes()
    with pytest.raises(IllegalActionError):
        state.apply_action(32)  # a second SEQ in the same turn
    assert state.to_bytes() == before


def test_illegal_follow_in_the_final_phase():
    state = GAME.new_initial_state(seed=4)
    while state.phase() == "stock":
        state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])  # a lead of the final phase
    legal = set(state.legal_actions())
    hand_cards = [c for c in range(32) if (int(state.row[L.HAND + state.current_player()]) >> c) & 1]
    illegal = [c for c in hand_cards if c not in legal]
    if illegal:
        before = state.to_bytes()
        with pytest.raises(IllegalActionError):
            state.apply_action(illegal[0])
        assert state.to_bytes() == before


def test_acting_after_the_end():
    state = _finished()
    before = state.to_bytes()
    with pytest.raises(GameOverError):
        state.apply_action(0)
    assert state.to_bytes() == before
    assert state.legal_actions() == [] and not state.legal_action_mask().any()
    assert state.current_player() == tarockrl.TERMINAL_PLAYER
    assert state.returns().sum() == 0


def _deal(**changes):
    d = copy.deepcopy(E2_DEAL)
    d.update(changes)
    return d


@pytest.mark.parametrize("deal,match", [
    ("not a dict", "dict"),
    ({"dealer": 1, "hands": E2_DEAL["hands"], "turn_up": "CQ"}, "missing"),
    ({**E2_DEAL, "talon": []}, "extra"),
    (_deal(dealer=2), "dealer"),
    (_deal(dealer=True), "dealer"),
    (_deal(dealer="1"), "dealer"),
    (_deal(hands=E2_DEAL["hands"][0]), "hands"),
    (_deal(hands="HJ HT"), "hands"),
    (_deal(hands=[E2_DEAL["hands"][0][:8], E2_DEAL["hands"][1]]), "exactly 9"),
    (_deal(hands=[["XX"] + E2_DEAL["hands"][0][1:], E2_DEAL["hands"][1]]), "unknown card"),
    (_deal(hands=[["H6"] + E2_DEAL["hands"][0][1:], E2_DEAL["hands"][1]]), "unknown card"),
    (_deal(hands=[E2_DEAL["hands"][0], E2_DEAL["hands"][0]]), "exactly once"),
    (_deal(turn_up=None), "turn_up"),
    (_deal(turn_up="ZZ"), "turn_up"),
    (_deal(turn_up="HJ"), "exactly once"),
    (_deal(stock=E2_DEAL["stock"][:-1]), "exactly 13"),
    (_deal(stock="S7 HQ"), "stock"),
])
def test_bad_deals(deal, match):
    with pytest.raises(BadDealError, match=match):
        GAME.new_initial_state(deal=deal)


def test_deal_notation_round_trip():
    state = GAME.new_initial_state(deal=E2_DEAL)
    d = state.deal()
    assert d["dealer"] == 1 and d["turn_up"] == "CQ" and d["stock"] == E2_DEAL["stock"]
    assert [sorted(h) for h in d["hands"]] == [sorted(h) for h in E2_DEAL["hands"]]
    assert GAME.new_initial_state(deal=d).to_bytes() == state.to_bytes()
    # seeded deals too, and the notation of 3.1: hands by seat, turn-up d[18], stock top first
    for seed in range(20):
        s = GAME.new_initial_state(seed=seed)
        d = s.deal()
        again = GAME.new_initial_state(deal=d)
        assert np.array_equal(again.row[L.HAND:L.HAND + 2], s.row[L.HAND:L.HAND + 2])
        assert again.deal() == d
        assert again.current_player() == 1 - d["dealer"]
    # lower-case codes are accepted
    lower = copy.deepcopy(E2_DEAL)
    lower["hands"][0] = [c.lower() for c in lower["hands"][0]]
    assert GAME.new_initial_state(deal=lower).to_bytes() == state.to_bytes()


def test_seed_and_deal_together_refused():
    with pytest.raises(ValueError):
        GAME.new_initial_state(seed=1, deal=E2_DEAL)


def test_unknown_option():
    with pytest.raises(BadOptionError, match="unknown tatteln option"):
        tarockrl.make_game("tatteln", deck=36)


def test_bytes_and_pickle_round_trip():
    state = GAME.new_initial_state(deal=E2_DEAL)
    for name in ("ANNOUNCE_SEQ", "ANNOUNCE_SET", "PLAY D7"):
        act(state, name)
    data = state.to_bytes()
    again = GAME.state_from_bytes(data)
    assert again == state and again.history() == state.history()
    assert pickle.loads(pickle.dumps(state)) == state
    assert pickle.loads(pickle.dumps(GAME)) == GAME
    g36 = tarockrl.make_game("tatteln", deck_size=36)
    with pytest.raises(WrongGameError):
        g36.state_from_bytes(data)
    with pytest.raises(WrongGameError):
        tarockrl.make_game("dreierles").state_from_bytes(data)
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(data[:-8])
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(b"nonsense")
    row = state.row.copy()
    row[L.HAND] |= row[L.HAND + 1]  # a card in two hands
    with pytest.raises(CorruptStateError, match="not a reachable tatteln state: slot 'hand"):
        GAME.state_from_bytes(GAME._encode(row))


def test_clone_is_independent():
    state = GAME.new_initial_state(seed=9)
    copy_ = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert copy_ != state and len(copy_.history()) == 0


def test_batch_step_refuses_illegal_actions_without_changing_rows():
    batch = GAME.new_batch(4, seed=1)
    before = batch.rows.copy()
    acts = batch.random_actions(seed=0)
    acts[2] = int(np.flatnonzero(~batch.legal_masks()[2])[0])  # an illegal action for row 2
    with pytest.raises(IllegalActionError):
        batch.step(acts)
    assert np.array_equal(batch.rows, before)
    with pytest.raises(IllegalActionError):
        batch.step(np.zeros(3, dtype=np.int64))


def test_text_output():
    state = GAME.new_initial_state(deal=E2_DEAL)
    text = str(state)
    assert "trumps clubs" in text and "HJ" in text and "face-up bottom: CQ" in text
    assert repr(state).startswith("<tatteln State phase=stock")
    assert GAME.action_to_string(0) == "PLAY H7" and GAME.action_to_string(31) == "PLAY SA"
    assert [GAME.action_to_string(a) for a in (32, 33, 34)] == ["ANNOUNCE_SEQ", "ANNOUNCE_SET", "ROB"]
    with pytest.raises(IllegalActionError):
        GAME.action_to_string(35)
    done = _finished()
    text = done.transcript()
    assert "Result:" in text and "settlement" in text and text.count("->") == 16
    assert "settlement" in str(done)
    assert repr(GAME) == "make_game('tatteln')"
    assert repr(tarockrl.make_game("tatteln", deck_size=36)) == "make_game('tatteln', deck_size=36)"


def test_transcript_of_a_rob():
    from tests.tatteln.test_worked_examples import _e6_before_trick_5

    state = _e6_before_trick_5()
    act(state, "ROB")
    act(state, "ANNOUNCE_SEQ")
    text = state.transcript()
    assert "A ROB: takes H9, leaves H7 face up" in text
    assert "Tattel to the jack (52) against nothing (0): good; A scores 3" in text
