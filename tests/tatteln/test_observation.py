"""Observations: the documented layout, what is public, and that hidden cards never leak."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import tarockrl
from tarockrl.games.tatteln import observe as O
from tarockrl.games.tatteln.cards import CARD_CODES_32, parse_card
from tests.tatteln.helpers import GAME, act, play
from tests.tatteln.test_worked_examples import E2_DEAL, E6_DEAL


def block(game, obs, name):
    offs = O.obs_offsets(game.rules.deck_size, game.rules.max_window_length)
    size = O.obs_sizes(game.rules.deck_size, game.rules.max_window_length)[name]
    return obs[offs[name]: offs[name] + size]


def cards_of(vec):
    return {CARD_CODES_32[i] for i in np.flatnonzero(vec)}


@pytest.mark.parametrize("kw", [{}, {"deck_size": 36}, {"max_window_length": 8},
                                {"deck_size": 36, "max_window_length": 7}])
def test_layout_sizes(kw):
    game = tarockrl.make_game("tatteln", **kw)
    sizes = O.obs_sizes(game.rules.deck_size, game.rules.max_window_length)
    assert list(sizes) == list(O.BLOCKS)
    assert sum(sizes.values()) == game.observation_size
    state = game.new_initial_state(seed=2)
    while not state.is_terminal():
        for p in (0, 1):
            obs = state.observation(p)
            assert obs.shape == (game.observation_size,) and obs.dtype == np.float32
            assert np.isfinite(obs).all()
        state.apply_action(state.legal_actions()[0])


def test_docstring_lists_every_block_and_the_default_total():
    for name in O.BLOCKS:
        assert f"``{name}``" in O.__doc__
    assert f"total {GAME.observation_size}" in O.__doc__


def test_public_facts_after_example_2():
    state = GAME.new_initial_state(deal=E2_DEAL)
    act(state, "ANNOUNCE_SEQ")
    act(state, "ANNOUNCE_SET")
    a = state.observation(0)
    b = state.observation(1)
    assert cards_of(block(GAME, a, "HAND")) == set(E2_DEAL["hands"][0])
    assert cards_of(block(GAME, a, "REVEALED_OPP")) == {"DJ", "DT", "D9", "D8"}
    assert cards_of(block(GAME, a, "REVEALED_OWN")) == {"SK", "DK", "CK"}
    assert cards_of(block(GAME, b, "REVEALED_OPP")) == {"SK", "DK", "CK"}
    assert block(GAME, a, "TRUMP").tolist() == [0, 0, 1, 0]
    assert cards_of(block(GAME, a, "TURN_UP")) == {"CQ"} == cards_of(block(GAME, a, "BOTTOM"))
    assert block(GAME, a, "DEALER").tolist() == [0, 1] and block(GAME, b, "DEALER").tolist() == [1, 0]
    assert block(GAME, a, "TO_MOVE").tolist() == [1, 0] and block(GAME, b, "TO_MOVE").tolist() == [0, 1]
    assert block(GAME, a, "TURN_FLAGS").tolist() == [0, 1, 1]
    assert block(GAME, a, "ANN_CLASS").tolist() == [0, 1]
    assert block(GAME, a, "ANN_OUTCOME").tolist() == [1, 0, 0]
    assert block(GAME, a, "ANN_KEYS").tolist() == pytest.approx([54 / 144, 0])
    assert block(GAME, a, "MELD_POINTS").tolist() == pytest.approx([3 / 162, 10 / 162])
    assert block(GAME, b, "MELD_POINTS").tolist() == pytest.approx([10 / 162, 3 / 162])
    # B's scored windows (D J T 9 8: Tattels J-T-9, T-9-8 and the Quart) are public to both
    assert block(GAME, a, "SCORED_WINDOWS")[60:].sum() == 3 and block(GAME, b, "SCORED_WINDOWS")[:60].sum() == 3
    assert block(GAME, a, "FOUR_SCORED").sum() == 0 and block(GAME, a, "TRIO_SCORED")[5] == 1  # kings
    play(state, 0, "D7")
    b = state.observation(1)
    assert cards_of(block(GAME, b, "LED")) == {"D7"}
    assert cards_of(block(GAME, b, "PLAYED")[32:]) == {"D7"}
    play(state, 1, "C8")
    a = state.observation(0)
    assert cards_of(block(GAME, a, "WON")[32:]) == {"D7", "C8"}
    assert cards_of(block(GAME, a, "LAST_LEAD")) == {"D7"} and cards_of(block(GAME, a, "LAST_FOLLOW")) == {"C8"}
    assert block(GAME, a, "LAST_WINNER").tolist() == [0, 1]
    assert block(GAME, a, "STOCK_SIZE")[0] == pytest.approx(12 / 14)
    assert "S7" not in cards_of(block(GAME, a, "HAND")) and "HQ" in cards_of(block(GAME, a, "HAND"))


def test_rob_and_bottom_draw_are_public():
    from tests.tatteln.test_worked_examples import _e6_before_trick_5

    state = _e6_before_trick_5()
    act(state, "ROB")
    b = state.observation(1)
    assert block(GAME, b, "ROBBER").tolist() == [0, 1]
    assert cards_of(block(GAME, b, "REVEALED_OPP")) == {"H9"}
    assert cards_of(block(GAME, b, "BOTTOM")) == {"H7"}
    assert cards_of(block(GAME, b, "TURN_UP")) == {"H9"}


def _swap_hidden(deal, seat, stock_index=-1):
    """The same deal with one card of ``seat``'s hand swapped with a deep stock card."""
    d = copy.deepcopy(deal)
    hand = d["hands"][seat]
    hand[0], d["stock"][stock_index] = d["stock"][stock_index], hand[0]
    return d


@pytest.mark.parametrize("seed", range(5))
def test_hidden_cards_never_leak(seed):
    deal = GAME.new_initial_state(seed=seed).deal()
    for observer in (0, 1):
        other = 1 - observer
        d2 = _swap_hidden(deal, other)
        s1 = GAME.new_initial_state(deal=deal)
        s2 = GAME.new_initial_state(deal=d2)
        assert np.array_equal(s1.observation(observer), s2.observation(observer))
        assert not np.array_equal(s1.observation(other), s2.observation(other))
        # identical public play (cards both versions share) keeps the observer's view identical
        swapped = {deal["hands"][other][0], d2["hands"][other][0]}
        for _ in range(6):
            if s1.is_terminal():
                break
            choices = [a for a in s1.legal_actions() if a < 32 and CARD_CODES_32[a] not in swapped
                       and a in s2.legal_actions()]
            if not choices:
                break
            a = choices[0]
            s1.apply_action(a)
            s2.apply_action(a)
            if int(s1.row[10]) >= 12:  # the deep stock card is about to be drawn
                break
            assert np.array_equal(s1.observation(observer), s2.observation(observer))


def test_stock_order_is_hidden():
    deal = GAME.new_initial_state(seed=3).deal()
    d2 = copy.deepcopy(deal)
    d2["stock"][5], d2["stock"][9] = d2["stock"][9], d2["stock"][5]
    s1, s2 = GAME.new_initial_state(deal=deal), GAME.new_initial_state(deal=d2)
    for p in (0, 1):
        assert np.array_equal(s1.observation(p), s2.observation(p))


def test_terminal_observation_shows_the_result():
    state = GAME.new_initial_state(deal=E6_DEAL)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    for p in (0, 1):
        obs = state.observation(p)
        assert block(GAME, obs, "PHASE").tolist() == [0, 0, 1]
        assert block(GAME, obs, "TO_MOVE").sum() == 0
        assert block(GAME, obs, "RESULT")[0] == pytest.approx(state.returns()[p] / 162)
        assert block(GAME, obs, "PILE_POINTS").sum() == pytest.approx(162 / 162)
    assert parse_card("SA") == 31
