"""The game registry: names, display names and required definition fields agree for every game."""

from __future__ import annotations

import dataclasses

import pytest

import tarockrl
from tarockrl.games import DISPLAY_NAMES, game_definition
from tarockrl.games.api import GameDefinition


def test_display_names_cover_every_game():
    assert sorted(DISPLAY_NAMES) == tarockrl.list_games()


@pytest.mark.parametrize("name", tarockrl.list_games())
def test_definition_is_complete(name):
    d = game_definition(name)
    assert d.name == name and d.display_name == DISPLAY_NAMES[name]
    for f in dataclasses.fields(GameDefinition):
        if f.default is dataclasses.MISSING:
            assert getattr(d, f.name) is not None, f.name
    game = tarockrl.make_game(name)
    assert game.num_actions > 0 and game.observation_size > 0 and game.state_len > 0


@pytest.mark.parametrize("name", tarockrl.list_games())
def test_batch_observations_reject_bad_players(name):
    import numpy as np

    game = tarockrl.make_game(name)
    batch = game.new_batch(3, seed=0)
    seen = batch.observations(np.array([0, -1, game.num_players - 1]))
    assert seen.shape == (3, game.observation_size) and not seen[1].any()
    with pytest.raises(ValueError, match="seats"):
        batch.observations(np.array([0, 1, game.num_players]))
    with pytest.raises(ValueError, match="shape"):
        batch.observations(np.array([0, 1]))


def test_seeds_and_counts_are_checked():
    game = tarockrl.make_game("dreierles")
    with pytest.raises(TypeError, match="seed"):
        game.new_batch(2, seed="x")
    with pytest.raises(TypeError, match="seed"):
        game.random_playouts(2, seed=1.5)
    with pytest.raises(ValueError, match="n="):
        game.new_batch(-1)
    with pytest.raises(TypeError, match="step_no"):
        game.new_batch(2).random_actions(seed=0, step_no="1")
