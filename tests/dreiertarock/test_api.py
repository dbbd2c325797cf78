"""The public API and batch API of Dreiertarock: registry, definition, deal notation, text, batches, pickling."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

import tarockrl
from tarockrl.games import game_definition
from tarockrl.games.api import GameDefinition
from tarockrl.games.dreiertarock import DEFINITION, DreiertarockRules
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_CODES
from tarockrl.games.dreiertarock.text import parse_action
from tests.dreiertarock.test_worked_examples import DEAL_A, play_a

GAME = tarockrl.make_game("dreiertarock")


def test_registry_and_definition():
    assert "dreiertarock" in tarockrl.list_games()
    assert game_definition("Dreiertarock") is DEFINITION
    for f in dataclasses.fields(GameDefinition):
        if f.default is dataclasses.MISSING:  # every required field is filled
            assert getattr(DEFINITION, f.name) is not None, f.name
    assert DEFINITION.display_name == "Dreiertarock"
    assert GAME.num_players == 3 and GAME.num_actions == 127 and GAME.max_episode_length == 105
    assert GAME.state_len == L.STATE_LEN and GAME.state_len * 8 == 1392
    assert GAME.name == "dreiertarock" and repr(GAME) == "make_game('dreiertarock')"
    assert repr(tarockrl.make_game("dreiertarock", kaiserstich=True)) == "make_game('dreiertarock', kaiserstich=True)"


def test_options_match_the_spec_summary():
    defaults = GAME.options
    assert defaults == {
        "all_pass_rule": "redeal", "trischaken_value": 30, "forehand_must_bid": False,
        "discard_tarock_rule": "forced_only", "redeal_without_tarock": False, "kontra_enabled": True,
        "kontra_max_level": 3, "defender_announcements": True, "announce_first_turn_only": True,
        "trull_counts_non_trick_cards": False, "silent_bird_failure_penalty": False, "valat_factor": 4,
        "valat_cancels_silent_bonuses": True, "solo_bonus_factor": 1, "solo_declarer_leads": False,
        "kaiserstich": False, "solo_valat_early_end": True, "auto_play_forced": False,
    }
    assert DreiertarockRules() == GAME.rules


def test_action_layout_names():
    names = [GAME.action_to_string(a) for a in range(127)]
    assert len(set(names)) == 127
    assert names[0] == "PLAY T1" and names[21] == "PLAY SKS" and names[53] == "PLAY SK"
    assert names[54] == "DISCARD T1" and names[107] == "DISCARD SK"
    assert names[108:127] == [
        "PASS", "HOLD", "BID_EINSER", "BID_ZWEIER", "BID_DREIER", "BID_VIERER", "BID_FUENFER", "BID_SOLO",
        "BID_SOLO_VALAT", "TAKE_PACKET_0", "TAKE_PACKET_1", "ANNOUNCE_PAGAT", "ANNOUNCE_UHU", "ANNOUNCE_KAKADU",
        "DOUBLE_GAME", "DOUBLE_PAGAT", "DOUBLE_UHU", "DOUBLE_KAKADU", "GOOD",
    ]
    for a, name in enumerate(names):
        assert parse_action(name) == a
    assert parse_action("discard_d4") == 54 + 30 and parse_action("PLAY_HK") == 29
    with pytest.raises(tarockrl.IllegalActionError):
        GAME.action_to_string(127)


def test_deal_notation_round_trip_and_engine_layout():
    for deal_id in range(20):
        state = GAME.new_initial_state(seed=5, deal_id=deal_id)
        deal = state.deal()
        assert set(deal) == {"dealer", "hands", "talon_packets"}
        assert [len(h) for h in deal["hands"]] == [16, 16, 16]
        assert [len(p) for p in deal["talon_packets"]] == [3, 3]
        every = [c for h in deal["hands"] for c in h] + [c for p in deal["talon_packets"] for c in p]
        assert sorted(every, key=CARD_CODES.index) == list(CARD_CODES)
        for h in deal["hands"] + deal["talon_packets"]:
            assert h == sorted(h, key=CARD_CODES.index)  # writers list codes in index order
        again = GAME.new_initial_state(deal=deal)
        assert again.deal() == deal
        assert again.to_bytes() == state.to_bytes()
        assert state.current_player() == (deal["dealer"] + 1) % 3


def test_deals_are_uniform():
    batch = GAME.new_batch(30_000, seed=6)
    rows = batch.rows
    dealers = np.bincount(rows[:, L.DEALER], minlength=3)
    assert np.all(np.abs(dealers - 10_000) < 500)
    # by role: forehand, middlehand, rearhand, packet 0, packet 1
    counts = np.zeros((5, 54))
    for r in range(3):
        seat = (rows[:, L.DEALER] + 1 + r) % 3
        hands = rows[np.arange(len(rows)), L.HAND + seat]
        counts[r] = [((hands >> c) & 1).sum() for c in range(54)]
    for i in range(2):
        counts[3 + i] = [((rows[:, L.PACKET + i] >> c) & 1).sum() for c in range(54)]
    expected = np.array([16, 16, 16, 3, 3])[:, None] / 54 * len(rows)
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected))


def test_state_methods():
    state = GAME.new_initial_state(seed=1)
    assert state.seed == 1
    assert state.phase() == "auction" and not state.is_terminal()
    assert state.returns().tolist() == [0, 0, 0]
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone != state and len(state.history()) == 0
    assert pickle.loads(pickle.dumps(state)) == state
    assert pickle.loads(pickle.dumps(GAME)) == GAME
    assert GAME.state_from_bytes(clone.to_bytes()) == clone
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (127,) and np.flatnonzero(mask).tolist() == state.legal_actions()
    assert "Dreiertarock" in str(state) and "auction" in repr(state)


def test_text_of_a_finished_deal():
    state = play_a()
    table = str(state)
    assert "Zweier" in table and "settlement: s0 +40, s1 -20, s2 -20" in table
    text = state.transcript()
    for needle in ("Auction:", "s0 BID_EINSER", "declarer s0: Zweier", "defenders get T5 T13 HK",
                   "s0 DISCARD H1", "Announcements:", " 1: s0 T7, s1 T11, s2 T6 -> s1",
                   "16: s2 HJ, s0 T1, s1 D1 -> s0", "card points: declarer 38, defenders 32"):
        assert needle in text, needle
    mid = GAME.new_initial_state(deal=DEAL_A)
    for a in state.history()[:14]:
        mid.apply_action(a)
    assert "current trick: s0 T7, s1 T11" in mid.transcript()
    assert "tricks done: 0" in str(mid)


def test_transcript_of_special_endings():
    state = GAME.new_initial_state(deal=DEAL_A)
    for _ in range(3):
        state.apply_action(L.A_PASS)
    assert "all passed: thrown in" in state.transcript()
    tri = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken").new_initial_state(deal=DEAL_A)
    for _ in range(3):
        tri.apply_action(L.A_PASS)
    while not tri.is_terminal():
        tri.apply_action(tri.legal_actions()[0])
    assert "Trischaken" in tri.transcript() and "card points: s0" in str(tri)
    sv = GAME.new_initial_state(deal=DEAL_A)
    for a in (L.A_BID_SOLO_VALAT, L.A_GOOD, L.A_GOOD, L.A_GOOD):
        sv.apply_action(a)
    while not sv.is_terminal():
        sv.apply_action(sv.legal_actions()[0])
    assert "Solo Valat" in sv.transcript()
