"""Observation entitlement: each seat sees exactly what the rules let it know."""

from __future__ import annotations

import copy

import numpy as np

import tarockrl
from tarockrl.games.dreierles import observe as O
from tests.dreierles.helpers import act
from tests.dreierles.test_worked_examples import E2_DEAL

GAME = tarockrl.make_game("dreierles")


def _swap(deal, seat_a, card_a, seat_b, card_b):
    d = copy.deepcopy(deal)
    ha, hb = d["hands"][seat_a], d["hands"][seat_b]
    ha[ha.index(card_a)] = card_b
    hb[hb.index(card_b)] = card_a
    return d


def test_other_hands_are_hidden():
    # swap a card between B and C: A's observation must not change
    other = _swap(E2_DEAL, 1, "S7", 2, "S9")
    a = GAME.new_initial_state(deal=E2_DEAL)
    b = GAME.new_initial_state(deal=other)
    assert np.array_equal(a.observation(0), b.observation(0))
    assert not np.array_equal(a.observation(1), b.observation(1))


def test_layout_size_and_own_hand():
    state = GAME.new_initial_state(deal=E2_DEAL)
    obs = state.observation(1)
    assert obs.shape == (O.OBS_LEN,) and obs.dtype == np.float32
    assert obs[O.OBS_HAND : O.OBS_HAND + 54].sum() == 16
    assert obs[O.OBS_TO_MOVE + 2] == 1.0  # A (relative seat 2 for B) is to move


def _e2_after_discards():
    state = GAME.new_initial_state(deal=E2_DEAL)
    act(state, "BID Dreier")
    act(state, "BID Zweier")
    act(state, "PASS")
    act(state, "DISCARD H1")
    act(state, "DISCARD D1")
    return state


def test_discards_hidden_from_defenders_and_blind_rest_shown_to_them():
    state = _e2_after_discards()
    declarer, defender = state.observation(1), state.observation(0)
    assert declarer[O.OBS_DISCARDS : O.OBS_DISCARDS + 54].sum() == 2
    assert defender[O.OBS_DISCARDS : O.OBS_DISCARDS + 54].sum() == 0
    assert defender[O.OBS_N_DISCARDS] == declarer[O.OBS_N_DISCARDS]
    assert defender[O.OBS_BLIND_REST : O.OBS_BLIND_REST + 54].sum() == 4
    assert declarer[O.OBS_BLIND_REST : O.OBS_BLIND_REST + 54].sum() == 0
    assert defender[O.OBS_BLIND_TAKEN : O.OBS_BLIND_TAKEN + 54].sum() == 2
    hidden = tarockrl.make_game("dreierles", defenders_see_unused_blind=False)
    s2 = hidden.new_initial_state(deal=E2_DEAL)
    for name in ("BID Dreier", "BID Zweier", "PASS", "DISCARD H1", "DISCARD D1"):
        act(s2, name)
    assert s2.observation(0)[O.OBS_BLIND_REST : O.OBS_BLIND_REST + 54].sum() == 0


def test_pending_announcement_is_invisible_to_defenders():
    state = _e2_after_discards()
    assert state.phase() == "announce"
    pending = [state.observation(p) for p in (0, 2)]
    declined = state.clone()
    act(declined, "NO_ANNOUNCE")
    after = [declined.observation(p) for p in (0, 2)]
    for x, y in zip(pending, after):
        assert np.array_equal(x, y)
    assert declined.observation(1)[O.OBS_DECLINED] == 1.0
    assert pending[0][O.OBS_PHASE + 3] == 1.0  # the defenders see the knock phase


def test_announcement_is_public():
    state = _e2_after_discards()
    act(state, "ANNOUNCE_PFEIFE")
    for p in range(3):
        assert state.observation(p)[O.OBS_ANNOUNCED] == 1.0


def test_raeuber_blind_never_shown():
    state = GAME.new_initial_state(seed=0)
    rng = np.random.default_rng(1)
    # force Räuber: pass three times
    for _ in range(3):
        state.apply_action(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    for p in range(3):
        obs = state.observation(p)
        assert obs[O.OBS_BLIND_REST : O.OBS_BLIND_REST + 54].sum() == 0
    # the results are revealed at the end, seat-relative
    r = state.returns()
    assert state.observation(1)[O.OBS_RESULT] * 32 == r[1]


def test_random_games_never_leak_other_hands():
    """In random games, re-dealing the other two seats' hidden cards never changes a seat's observation."""
    rng = np.random.default_rng(7)
    for seed in range(30):
        state = GAME.new_initial_state(seed=seed)
        for _ in range(int(rng.integers(0, 40))):
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        obs = state.observation(0)
        assert obs[O.OBS_HAND : O.OBS_HAND + 54].sum() == bin(int(state.row[4])).count("1")
