"""The batched self-play interface, for every registered game: it must equal stepping State objects."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import tarockrl
from tarockrl.envs import ResetNeededError, SelfPlayBatch
from tarockrl.errors import IllegalActionError
from tests.envs.helpers import GAMES, pick_batch


@pytest.mark.parametrize("game", GAMES)
def test_selfplay_equals_states_stepped_one_by_one(game):
    n, seed = 6, 13
    g = tarockrl.make_game(game)
    sp = SelfPlayBatch(game, num_envs=n, seed=seed)
    step = sp.reset()
    episode = [0] * n
    states = [g.new_initial_state(seed=seed, deal_id=i) for i in range(n)]
    done_count = 0
    for _ in range(120):
        for i, s in enumerate(states):
            p = s.current_player()
            assert step.players[i] == p
            np.testing.assert_array_equal(step.observations[i], s.observation(p))
            np.testing.assert_array_equal(step.action_masks[i].astype(bool), s.legal_action_mask())
        actions = pick_batch(step.observations, step.action_masks)
        step = sp.step(actions)
        for i, s in enumerate(states):
            s.apply_action(int(actions[i]))
            assert step.dones[i] == s.is_terminal()
            if s.is_terminal():
                done_count += 1
                np.testing.assert_array_equal(step.returns[i], s.returns())
                episode[i] += 1
                states[i] = g.new_initial_state(seed=seed, deal_id=i + episode[i] * n)
            else:
                assert not step.returns[i].any()
        np.testing.assert_array_equal(sp.deal_ids, [i + episode[i] * n for i in range(n)])
    assert done_count > 0


@pytest.mark.parametrize("game", GAMES)
def test_observe_all_gives_every_seat_its_view(game):
    g = tarockrl.make_game(game)
    sp = SelfPlayBatch(game, num_envs=4, seed=2)
    step = sp.reset()
    for _ in range(7):
        step = sp.step(pick_batch(step.observations, step.action_masks))
    obs, masks = sp.observe_all()
    assert obs.shape == (4, g.num_players, g.observation_size) and masks.dtype == np.int8
    for i in range(4):
        s = sp.state(i)
        for p in range(g.num_players):
            np.testing.assert_array_equal(obs[i, p], s.observation(p))
            if p == s.current_player():
                np.testing.assert_array_equal(masks[i, p].astype(bool), s.legal_action_mask())
            else:
                assert not masks[i, p].any()


def test_selfplay_without_autoreset_and_bad_inputs():
    sp = SelfPlayBatch("dreierles", num_envs=3, seed=1, autoreset=False, copy=True)
    with pytest.raises(ResetNeededError):
        sp.step(np.zeros(3, dtype=np.int64))
    step = sp.reset()
    rows = sp.rows.copy()
    bad = np.argmax(step.action_masks, axis=1)
    bad[1] = int(np.flatnonzero(step.action_masks[1] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"row 1 \(seat .*no row was changed"):
        sp.step(bad)
    np.testing.assert_array_equal(sp.rows, rows)
    with pytest.raises(IllegalActionError, match="integer array"):
        sp.step(np.zeros(2, dtype=np.int64))
    finished = np.zeros(3, dtype=bool)
    while not finished.all():
        step = sp.step(np.argmax(step.action_masks, axis=1))  # rows that are over ignore their action
        finished |= step.dones
        assert (step.players[finished] == -1).all() and not step.action_masks[finished].any()
    assert sp.is_terminal().all()
    step = sp.reset(reset_mask=np.array([True, False, False]))
    assert step.players[0] >= 0 and (step.players[1:] == -1).all()
    with pytest.raises(ValueError, match="reset_mask"):
        sp.reset(reset_mask=[True])
    clone = pickle.loads(pickle.dumps(sp))
    a = np.argmax(step.action_masks, axis=1)
    np.testing.assert_array_equal(sp.step(a).observations, clone.step(a).observations)
