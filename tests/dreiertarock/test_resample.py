"""Hidden-card resampling: the sample keeps the sampling seat's observation, every invariant and the history."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreiertarock import kernels as K
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import PLAIN_NONKING
from tests.dreiertarock.helpers import acts, mask, play_tricks
from tests.dreiertarock.test_options import SCRIPT_A, SCRIPT_C
from tests.dreiertarock.test_reference import choose, random_options
from tests.dreiertarock.test_worked_examples import DEAL_A, DEAL_C, TRICKS_A

GAME = tarockrl.make_game("dreiertarock")


def _replay(options: dict, deal: dict, history: list[int]):
    """The history replayed on ``deal`` (forced actions applied one by one), or None if an action is illegal."""
    game = tarockrl.make_game("dreiertarock", **{**options, "auto_play_forced": False})
    state = game.new_initial_state(deal=deal)
    for a in history:
        if state.is_terminal() or a not in state.legal_actions():
            return None
        state.apply_action(a)
    return state


def test_samples_keep_observation_invariants_and_history():
    rnd = random.Random(5)
    changed = 0
    for g in range(160):
        options = random_options(rnd)
        game = tarockrl.make_game("dreiertarock", **options)
        state = game.new_initial_state(seed=31, deal_id=g)
        style = rnd.randrange(3)
        stop = rnd.randrange(0, 90)
        while not state.is_terminal() and len(state.history()) < stop:
            state.apply_action(choose(rnd, state, state.legal_actions(), style))
        before = state.to_bytes()
        for player in range(3):
            sample = state.resample_hidden(player, seed=g)
            assert state.to_bytes() == before
            assert K.check_invariants(sample._row, game.encoded_options) == 0
            assert np.array_equal(sample.observation(player), state.observation(player))
            if not sample.is_terminal() and sample.current_player() == player:
                assert np.array_equal(sample.legal_action_mask(), state.legal_action_mask())
            changed += sample != state
            # the sampled deal is a valid deal on which the whole history is legal (Trischaken's Stichzwang
            # and Pagat inferences are not used by the sampler, so its history may not replay)
            replay = _replay(options, sample.deal(), sample.history())
            if not sample.row[L.TRISCHAKEN]:
                assert replay is not None, (g, player, options, state.history())
                assert np.array_equal(replay.row[L.HAND:L.HAND + 3], sample.row[L.HAND:L.HAND + 3])
            # the sample can be played to the end
            while not sample.is_terminal():
                sample.apply_action(choose(rnd, sample, sample.legal_actions(), 0))
            assert sample.returns().sum() == 0
    assert changed > 250


def test_voids_are_respected():
    state = GAME.new_initial_state(deal=DEAL_A)
    acts(state, SCRIPT_A)
    play_tricks(state, TRICKS_A[:10])  # trick 10: s2 trumps the CK lead -> void in clubs; trick 6: s0 void in D
    voids = [int(state.row[L.VOIDS + s]) for s in range(3)]
    assert voids[2] == mask("C7 C8 C9 C10 CJ CN CQ CK")
    assert voids[0] & mask("D4 DK") == mask("D4 DK")
    for seed in range(200):
        sample = state.resample_hidden(1, seed=seed)
        for s in (0, 2):
            assert int(sample.row[L.HAND + s]) & voids[s] == 0


def test_taken_talon_cards_stay_with_the_declarer():
    state = GAME.new_initial_state(deal=DEAL_A)
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS; s0 HOLD; s1 PASS; s0 TAKE_PACKET_0; s0 DISCARD HQ; "
                "s0 DISCARD D3; s0 DISCARD C10; s0 GOOD")
    taken = mask("T18 HQ CK")
    kept, discarded = set(), set()
    for seed in range(300):
        sample = state.resample_hidden(1, seed=seed)
        hand, disc = int(sample.row[L.HAND]), int(sample.row[L.DISCARDS])
        assert (hand | disc) & taken == taken
        assert disc & ~int(PLAIN_NONKING) == 0 and bin(disc).count("1") == 3
        assert hand & mask("T18 CK") == mask("T18 CK")  # a tarock and a king cannot have been discarded
        history_discards = {a - L.A_DISCARD for a in sample.history() if L.A_DISCARD <= a < L.A_DISCARD + 54}
        assert sum(1 << c for c in history_discards) == disc
        (kept if hand & mask("HQ") else discarded).add(seed)
    assert kept and discarded  # the defenders cannot tell whether the HQ was discarded
    for seed in range(20):  # the declarer knows his own cards
        sample = state.resample_hidden(0, seed=seed)
        assert sample.row[L.HAND] == state.row[L.HAND] and sample.row[L.DISCARDS] == state.row[L.DISCARDS]


def test_announced_birds_stay_and_solo_talon_is_resampled():
    state = GAME.new_initial_state(deal=DEAL_C)
    acts(state, SCRIPT_C)
    talons = set()
    for seed in range(100):
        sample = state.resample_hidden(0, seed=seed)
        assert int(sample.row[L.HAND + 1]) & mask("T2")  # s1 announced the Uhu
        assert sample.row[L.DEF_TALON] == sample.row[L.PACKET] | sample.row[L.PACKET + 1]
        assert bin(int(sample.row[L.PACKET])).count("1") == 3
        talons.add(int(sample.row[L.DEF_TALON]))
        assert sample.row[L.HAND] == state.row[L.HAND]
    assert len(talons) > 50
    # in the talon phase both packets are public: they never change
    state = GAME.new_initial_state(deal=DEAL_A)
    acts(state, "s0 BID_EINSER; s1 PASS; s2 PASS")
    for seed in range(20):
        sample = state.resample_hidden(1, seed=seed)
        assert np.array_equal(sample.row[L.PACKET:L.PACKET + 2], state.row[L.PACKET:L.PACKET + 2])


def test_forced_tarock_discard_leaves_no_plain_card():
    from tests.dreiertarock.test_legal_moves import _discard_state

    state = _discard_state("T1 T5 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 SKS HK DK CK SK C7")
    acts(state, "s0 DISCARD T5; s0 DISCARD T11; s0 DISCARD C7; s0 GOOD")
    for seed in range(100):
        sample = state.resample_hidden(1, seed=seed)
        assert int(sample.row[L.HAND]) & int(PLAIN_NONKING) == 0


def test_redeal_without_tarock_keeps_a_tarock_in_every_dealt_hand():
    game = tarockrl.make_game("dreiertarock", redeal_without_tarock=True)
    for g in range(60):
        state = game.new_initial_state(seed=2, deal_id=g)
        if state.is_terminal():
            continue
        sample = state.resample_hidden(g % 3, seed=g)
        for s in range(3):
            assert int(sample.row[L.DEALT + s]) & ((1 << 22) - 1)


@pytest.mark.parametrize("options", [{}, {"all_pass_rule": "trischaken"}])
def test_reproducible_and_finished_deals_unchanged(options):
    game = tarockrl.make_game("dreiertarock", **options)
    state = game.new_initial_state(seed=4)
    assert state.resample_hidden(2, seed=1) == state.resample_hidden(2, seed=1)
    assert state.resample_hidden(2, seed=1) != state.resample_hidden(2, seed=2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.resample_hidden(0, seed=1) == state
