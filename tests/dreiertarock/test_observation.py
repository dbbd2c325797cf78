"""The observation layout of observe.py, checked block by block on the worked deals."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.dreiertarock import observe as O
from tests.dreiertarock.helpers import acts, mask, play_tricks
from tests.dreiertarock.test_options import SCRIPT_C
from tests.dreiertarock.test_worked_examples import DEAL_A, DEAL_C, TRICKS_A, TRICKS_C

GAME = tarockrl.make_game("dreiertarock")


def block(obs, name):
    return obs[O.OBS_OFFSETS[name]:O.OBS_OFFSETS[name] + O.OBS_SIZES[name]]


def cards(obs, name, part=0):
    b = block(obs, name)[54 * part:54 * (part + 1)]
    return sum(1 << int(c) for c in np.flatnonzero(b))


def test_layout_is_contiguous_and_documented():
    assert O.OBS_LEN == sum(O.OBS_SIZES.values()) == GAME.observation_size == 836
    for name in O.OBS_OFFSETS:
        assert f"``OBS_{name}``" in O.__doc__


def test_auction_blocks_relative_to_the_observer():
    state = GAME.new_initial_state(deal=DEAL_A)  # dealer s2
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS")
    for p in range(3):
        obs = state.observation(p)
        assert block(obs, "DEALER").tolist() == [1.0 if r == (2 - p) % 3 else 0.0 for r in range(3)]
        assert block(obs, "TO_MOVE").tolist() == [1.0 if r == (0 - p) % 3 else 0.0 for r in range(3)]
        assert block(obs, "LEVEL").tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
        assert block(obs, "HOLDER").tolist() == [1.0 if r == (1 - p) % 3 else 0.0 for r in range(3)]
        assert block(obs, "PASSED").tolist() == [1.0 if r == (2 - p) % 3 else 0.0 for r in range(3)]
        assert block(obs, "SPOKEN").tolist() == [1.0, 1.0, 1.0]
        assert block(obs, "PHASE").tolist() == [1, 0, 0, 0, 0, 0]
        assert not block(obs, "DECLARER").any() and not block(obs, "PACKETS").any()


def test_talon_and_discards_in_a_zweier():
    state = GAME.new_initial_state(deal=DEAL_A)
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS; s0 HOLD; s1 PASS")
    for p in range(3):  # both packets are face up for everybody once the auction is over
        obs = state.observation(p)
        assert cards(obs, "PACKETS", 0) == mask("T18 HQ CK") and cards(obs, "PACKETS", 1) == mask("T5 T13 HK")
        assert block(obs, "CONTRACT").tolist() == [0, 1, 0, 0, 0, 0, 0]
        assert block(obs, "DECLARER")[(0 - p) % 3] == 1
    acts(state, "s0 TAKE_PACKET_0; s0 DISCARD H1; s0 DISCARD D3")
    decl, defender = state.observation(0), state.observation(1)
    assert block(decl, "TAKEN").tolist() == [1, 0] == block(defender, "TAKEN").tolist()
    assert cards(decl, "OWN_DISCARDS") == mask("H1 D3") and cards(defender, "OWN_DISCARDS") == 0
    assert block(decl, "N_DISCARDS")[0] == block(defender, "N_DISCARDS")[0] == np.float32(2 / 3)
    assert cards(decl, "DISCARDS_UP") == 0
    assert block(defender, "HAND_SIZES").tolist() == [np.float32(16 / 19), np.float32(16 / 19), np.float32(17 / 19)]


def test_announcements_and_levels():
    from tests.dreiertarock.test_options import _announce_d

    state = _announce_d()
    acts(state, "s0 GOOD; s1 ANNOUNCE_PAGAT; s1 GOOD; s2 DOUBLE_GAME; s2 GOOD; s0 DOUBLE_PAGAT; s0 DOUBLE_GAME")
    obs = state.observation(2)
    assert block(obs, "ANNOUNCED").tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0]  # Pagat by s1 = relative seat 2
    assert block(obs, "KLEVEL").tolist() == [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    assert block(obs, "HAD_TURN").tolist() == [1, 1, 1]  # s2, s0, s1 as seen from s2
    assert block(obs, "GOODS").tolist() == [1, 0, 0]


def test_play_blocks_and_result():
    state = GAME.new_initial_state(deal=DEAL_A)
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS; s0 HOLD; s1 PASS; s0 TAKE_PACKET_0; s0 DISCARD H1; "
                "s0 DISCARD D3; s0 DISCARD C10; s0 GOOD; s1 GOOD; s2 GOOD")
    play_tricks(state, TRICKS_A[:1])
    acts(state, "s1 PLAY T20")
    obs = state.observation(2)
    assert cards(obs, "TRICK", 2) == mask("T20") and cards(obs, "TRICK", 0) == 0  # s1 is relative seat 2 of s2
    assert block(obs, "LEADER").tolist() == [0, 0, 1]
    assert cards(obs, "WON", 2) == mask("T7 T11 T6")
    assert cards(obs, "PLAYED", 0) == mask("T6") and cards(obs, "PLAYED", 1) == mask("T7")
    assert block(obs, "TRICK_NO")[0] == np.float32(1 / 16)
    acts(state, "s2 PLAY T15; s0 PLAY T16")
    play_tricks(state, TRICKS_A[2:])
    obs = state.observation(1)
    assert block(obs, "PHASE").tolist() == [0, 0, 0, 0, 0, 1]
    assert block(obs, "RESULT").tolist() == [np.float32(-0.2), np.float32(-0.2), np.float32(0.4)]
    assert not block(obs, "TO_MOVE").any()


def test_solo_talon_is_never_observed():
    state = GAME.new_initial_state(deal=DEAL_C)
    acts(state, SCRIPT_C)
    play_tricks(state, TRICKS_C)
    assert state.is_terminal()
    for p in range(3):
        obs = state.observation(p)
        assert not block(obs, "PACKETS").any()
        assert block(obs, "CONTRACT").tolist() == [0, 0, 0, 0, 0, 1, 0]
