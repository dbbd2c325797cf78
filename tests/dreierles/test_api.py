"""The public facade on Dreierles: bad inputs, serialisation, cloning, batches and observations."""

from __future__ import annotations

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
from tests.dreierles.test_worked_examples import E2_DEAL, E2_TRICKS, _play_e2

GAME = tarockrl.make_game("dreierles")


def test_sizes():
    assert GAME.num_actions == 117
    assert GAME.num_players == 3
    assert GAME.state_len * 8 <= 1024
    assert GAME.max_episode_length == 56
    assert tarockrl.list_games()[0] == "dreierles" or "dreierles" in tarockrl.list_games()


@pytest.mark.parametrize("bad", [-1, 117, 10**9, 1.0, "0", None, True, np.float64(2.0)])
def test_bad_actions_raise_and_leave_state_unchanged(bad):
    state = GAME.new_initial_state(seed=3)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(bad)
    assert "action" in str(err.value)
    assert state.to_bytes() == before


def test_illegal_action_names_the_legal_ones():
    state = GAME.new_initial_state(deal=E2_DEAL)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError, match=r"legal actions: 0 \(PASS\), 1 \(BID Dreier\)"):
        state.apply_action(63)  # PLAY T1 during the auction
    assert state.to_bytes() == before
    assert isinstance(IllegalActionError("x"), ValueError)


def test_acting_after_the_end():
    state = _play_e2()
    before = state.to_bytes()
    with pytest.raises(GameOverError):
        state.apply_action(0)
    assert state.to_bytes() == before
    assert state.legal_actions() == []
    assert state.current_player() == tarockrl.TERMINAL_PLAYER


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda d: d.pop("blind"), "keys"),
        (lambda d: d.update(extra=1), "keys"),
        (lambda d: d.update(dealer=3), "dealer"),
        (lambda d: d.update(dealer=True), "dealer"),
        (lambda d: d["hands"][0].__setitem__(0, "XX"), "unknown card code"),
        (lambda d: d["hands"][0].__setitem__(0, "ST"), "exactly once"),
        (lambda d: d["hands"][1].pop(), "exactly 16"),
        (lambda d: d.update(blind="D1 T6 H2 C8 T19 D3"), "list"),
        (lambda d: d.update(hands=d["hands"][:2]), "three hands"),
    ],
)
def test_bad_deals(mutate, message):
    import copy

    deal = copy.deepcopy(E2_DEAL)
    mutate(deal)
    with pytest.raises(BadDealError, match=message):
        GAME.new_initial_state(deal=deal)


def test_bad_deal_type_and_seed_plus_deal():
    with pytest.raises(BadDealError):
        GAME.new_initial_state(deal=[1, 2, 3])
    with pytest.raises(ValueError, match="either"):
        GAME.new_initial_state(seed=1, deal=E2_DEAL)
    with pytest.raises(TypeError):
        GAME.new_initial_state(seed="abc")


def test_unknown_and_invalid_options():
    with pytest.raises(BadOptionError, match="unknown dreierles option"):
        tarockrl.make_game("dreierles", no_such_option=1)
    with pytest.raises(BadOptionError, match="raeuber_restrictions"):
        tarockrl.make_game("dreierles", raeuber_restrictions="anything")
    with pytest.raises(BadOptionError, match="even"):
        tarockrl.make_game("dreierles", raeuber_base=3)
    with pytest.raises(BadOptionError, match="True or False"):
        tarockrl.make_game("dreierles", allow_reknock="yes")
    with pytest.raises(BadOptionError):
        tarockrl.make_game("dreierles", contract_factors=(1, 2, 3))
    with pytest.raises(WrongGameError, match="unknown game"):
        tarockrl.make_game("skat")


def test_deal_notation_round_trip_and_determinism():
    a = GAME.new_initial_state(seed=11, deal_id=4)
    b = GAME.new_initial_state(seed=11, deal_id=4)
    c = GAME.new_initial_state(seed=11, deal_id=5)
    assert a.to_bytes() == b.to_bytes() != c.to_bytes()
    again = GAME.new_initial_state(deal=a.deal())
    assert again.to_bytes() == a.to_bytes()
    assert a.deal()["dealer"] in (0, 1, 2)


def test_saved_state_checks():
    state = GAME.new_initial_state(seed=1)
    data = state.to_bytes()
    with pytest.raises(WrongGameError, match="other rules options"):
        tarockrl.make_game("dreierles", raeuber_base=4).state_from_bytes(data)
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(data[:-8])
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(b"nonsense")
    from tarockrl.games.dreierles import layout as L

    broken = bytearray(data)
    broken[len(data) - 8 * L.STATE_LEN + 8 * L.HAND] ^= 0x01  # a card appears or vanishes in seat 0's hand
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(bytes(broken))
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes("text")
    bad_phase = bytearray(data)
    bad_phase[len(data) - 8 * L.STATE_LEN + 8 * L.PHASE] = 99
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(bytes(bad_phase))


def test_clone_is_independent():
    state = GAME.new_initial_state(seed=5)
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert copy.history() == [] and len(state.history()) == 1


def test_action_strings():
    assert GAME.action_to_string(0) == "PASS"
    assert GAME.action_to_string(2) == "BID Zweier"
    assert GAME.action_to_string(5) == "DISCARD T1"
    assert GAME.action_to_string(59) == "ANNOUNCE_PFEIFE"
    assert GAME.action_to_string(62) == "NO_KNOCK"
    assert GAME.action_to_string(116) == "PLAY SK"
    with pytest.raises(IllegalActionError):
        GAME.action_to_string(117)


def test_str_and_transcript_are_readable():
    state = _play_e2()
    text = str(state)
    assert "settlement (GP): A(0) -18, B(1) +36, C(2) -18" in text
    transcript = state.transcript()
    assert "B(1) BID Zweier" in transcript and "1. B CK, C C7, A C9 -> B" in transcript


def test_finished_rows_ignore_their_actions():
    batch = GAME.batch_from_states([_play_e2(), GAME.new_initial_state(deal=E2_DEAL)])
    batch.step(np.array([99, 1]))
    assert batch.is_terminal().tolist() == [True, False]
    assert batch.returns()[0].tolist() == [-18, 36, -18]


def test_e2_tricks_fixture_is_complete():
    assert len(E2_TRICKS) == 16
