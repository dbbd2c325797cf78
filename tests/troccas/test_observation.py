"""Troccas observations: layout, relative seats, and exactly the information of spec 4.10."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas import new_state
from tarockrl.games.troccas import observe as O
from tarockrl.games.troccas.cards import parse_card
from tests.troccas.helpers import build_deal, play, to_play, to_scart

GAME = tarockrl.make_game("troccas")
FIXED = tarockrl.make_game("troccas", max_redeals=0)


def test_layout_is_contiguous_and_documented():
    pos = 0
    for name, size in O._sizes:
        assert O.OBS_OFFSETS[name] == pos
        assert f"``{name}``" in O.__doc__
        pos += size
    assert pos == O.OBS_LEN == GAME.observation_size


def test_observation_values_are_finite_and_bounded():
    batch = GAME.new_batch(32, seed=1)
    step = 0
    while not batch.is_terminal().all():
        for p in range(4):
            obs = batch.observations(np.full(32, p, dtype=np.int64))
            assert np.isfinite(obs).all() and np.abs(obs).max() <= 1.0 + 1e-6
        batch.step(batch.random_actions(seed=3, step_no=step))
        step += 1


def _swap_hidden(deal, q1, q2, rng):
    """A copy of ``deal`` where seats q1 and q2 exchange one card in the same packet (not their last card)."""
    hands = [list(h) for h in deal["hands"]]
    i = int(rng.integers(0, 18))
    hands[q1][i], hands[q2][i] = hands[q2][i], hands[q1][i]
    return {**deal, "hands": hands}, {hands[q1][i], hands[q2][i]}


@pytest.mark.parametrize("seed", range(6))
def test_observation_never_depends_on_other_hidden_cards(seed):
    rng = np.random.default_rng(seed)
    base = GAME.new_initial_state(seed=100 + seed).deal()
    p = int(rng.integers(0, 4))
    q1, q2 = [q for q in range(4) if q != p][:2]
    other, swapped = _swap_hidden(base, q1, q2, rng)
    a = FIXED.new_initial_state(deal=base)
    b = FIXED.new_initial_state(deal=other)
    steps = 0
    while not a.is_terminal():
        assert np.array_equal(a.observation(p), b.observation(p)), (seed, steps, a.phase())
        legal_a, legal_b = a.legal_actions(), b.legal_actions()
        choices = [x for x in legal_a if x in legal_b and not (x < 78 and FIXED.action_to_string(x)[5:] in swapped)]
        if a.current_player() != b.current_player() or not choices:
            break
        x = int(rng.choice(choices))
        a.apply_action(x)
        b.apply_action(x)
        steps += 1
    assert steps > 12


def test_other_hands_undealt_cards_and_scart_are_hidden():
    deal = build_deal(0, {})
    state = FIXED.new_initial_state(deal=deal)
    for p in range(4):
        obs = state.observation(p)
        hand = obs[O.OBS_HAND:O.OBS_HAND + 78]
        assert hand.sum() == 6  # only the first packet
        assert not obs[O.OBS_EXPOSED:O.OBS_EXPOSED + 312].any()
    to_play(state, "T2 T3")
    dealer_scart = state.observation(0)[O.OBS_SCART:O.OBS_SCART + 78]
    assert dealer_scart[1] == 1 and dealer_scart[2] == 1 and dealer_scart.sum() == 2
    for p in (1, 2, 3):
        obs = state.observation(p)
        assert not obs[O.OBS_SCART:O.OBS_SCART + 78].any()
        assert obs[O.OBS_N_SCART] == 1.0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    for p in range(4):
        assert state.observation(p)[O.OBS_SCART:O.OBS_SCART + 78].sum() == 2


def test_face_up_cards_are_public_with_relative_seats():
    state = GAME.new_initial_state(seed=5)
    to_scart(state)
    exposed = [int(state.row[L.EXPOSED + s]) for s in range(4)]
    assert min(exposed) >= 0
    for p in range(4):
        block = state.observation(p)[O.OBS_EXPOSED:O.OBS_EXPOSED + 312].reshape(4, 78)
        for s in range(4):
            assert block[(s - p) % 4, exposed[s]] == 1
        assert block.sum() == 4


def test_partner_is_relative_seat_two():
    deal = build_deal(0, {0: "cK FOOL", 1: "c9", 2: "c8", 3: "c7"})
    state = FIXED.new_initial_state(deal=deal)
    to_play(state, "T2 T3")
    play(state, "0:cK 1:c9 2:c8")
    obs = state.observation(0)
    trick = obs[O.OBS_TRICK:O.OBS_TRICK + 312].reshape(4, 78)
    assert trick[0, parse_card("cK")] == 1 and trick[1, parse_card("c9")] == 1 and trick[2, parse_card("c8")] == 1
    obs2 = state.observation(2)
    trick2 = obs2[O.OBS_TRICK:O.OBS_TRICK + 312].reshape(4, 78)
    assert trick2[2, parse_card("cK")] == 1 and trick2[0, parse_card("c8")] == 1
    assert obs[O.OBS_LEADER] == 1 and obs2[O.OBS_LEADER + 2] == 1
    assert obs[O.OBS_LED + 0] == 1


def test_pattern_choice_and_balance_are_public():
    state = new_state(GAME, seed=2, dealer=0, balance=-12)
    chooser = state.current_player()
    assert chooser == 2
    obs = state.observation(1)
    assert obs[O.OBS_PHASE + L.PATTERN] == 1 and obs[O.OBS_TO_MOVE + 1] == 1
    assert obs[O.OBS_BALANCE] == pytest.approx(12 / 36) and obs[O.OBS_BALANCE + 1] == pytest.approx(-12 / 36)
    assert state.observation(0)[O.OBS_BALANCE] == pytest.approx(-12 / 36)
    assert not obs[O.OBS_PATTERN:O.OBS_PATTERN + 3].any()
    state.apply_action(109)
    for p in range(4):
        obs = state.observation(p)
        assert obs[O.OBS_PATTERN + 1] == 1 and obs[O.OBS_PATTERN_BY + (2 - p) % 4] == 1


def test_jack_swap_is_public_without_reasons():
    deal = build_deal(1, {0: "sV s2 s4 s5", 1: "sK", 2: "s3", 3: "s7"}, avoid={2: "s1 s6 s8 s9 s10 sC sQ"})
    state = FIXED.new_initial_state(deal=deal)
    to_play(state, " ".join([c for c in deal["hands"][1] if c not in ("sK", "T21", "T1", "FOOL")][:2]))
    play(state, "1:sK 2:s3 3:s7 0:s2")
    state.apply_action(112)
    for p in range(4):
        obs = state.observation(p)
        assert obs[O.OBS_BUOB + 3 * 3 + 2] == 1
        swaps = obs[O.OBS_SWAPS + 14 * 3:O.OBS_SWAPS + 14 * 4]
        assert swaps[(0 - p) % 4] == 1 and swaps[4 + (parse_card("s2") - 22) % 14] == 1
        played = obs[O.OBS_PLAYED:O.OBS_PLAYED + 312].reshape(4, 78)
        assert played[(0 - p) % 4, parse_card("sV")] == 1 and played[(0 - p) % 4, parse_card("s2")] == 0
        last = obs[O.OBS_LAST_TRICK:O.OBS_LAST_TRICK + 312].reshape(4, 78)
        assert last[(0 - p) % 4, parse_card("sV")] == 1
        assert obs[O.OBS_LAST_WINNER + (1 - p) % 4] == 1


def test_terminal_observation_shows_result_and_piles():
    state = GAME.new_initial_state(seed=12)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    r = state.returns()
    for p in range(4):
        obs = state.observation(p)
        assert obs[O.OBS_PHASE + L.TERMINAL] == 1 and not obs[O.OBS_TO_MOVE:O.OBS_TO_MOVE + 4].any()
        assert obs[O.OBS_RESULT] == pytest.approx(r[p] / 36)
        assert obs[O.OBS_POINTS] + obs[O.OBS_POINTS + 1] == pytest.approx(1.0)
        assert obs[O.OBS_PILES:O.OBS_PILES + 156].sum() == 78


def test_knocks_are_public():
    game = tarockrl.make_game("troccas", max_redeals=0, knock_enabled=True)
    deal = build_deal(0, {0: "T21 T20"})
    state = game.new_initial_state(deal=deal)
    to_play(state, "T2 T3")
    assert 113 in state.legal_actions()
    state.apply_action(113)
    for p in range(4):
        assert state.observation(p)[O.OBS_KNOCKS + 21 * ((0 - p) % 4) + 20] == 1
    assert state.current_player() == 0 and 113 not in state.legal_actions()
