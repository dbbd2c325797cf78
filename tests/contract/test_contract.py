"""The contract every game keeps, checked on every game and several option sets (like OpenSpiel's generic
random-simulation tests and pgx's API test): the definition, bad inputs, bytes and pickle round trips, batch play
equal to single-state play, fast paths equal to the reference drivers, determinism, invariant sweeps, perft and
observation hiding. Game folders keep only their worked examples and rule-specific tests.
"""

from __future__ import annotations

import pickle

import numba
import numpy as np
import pytest

import tarockrl
from tarockrl.engine import invariants
from tarockrl.errors import CorruptStateError, GameOverError, IllegalActionError, WrongGameError
from tarockrl.games import contract
from tests.contract.cases import CASES, DEFAULT_CASES, case_id, make


def _random_states(game, count, seed):
    """States at random points of random deals (terminal ones included)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        state = game.new_initial_state(seed=seed, deal_id=k)
        stop = int(rng.integers(0, game.max_episode_length + 1))
        while not state.is_terminal() and len(state.history()) < stop:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        out.append(state)
    return out


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_definition_follows_the_contract(case):
    game = make(case)
    d = game.definition
    for name in contract.KERNELS_REQUIRED + ("observe", "state_from_deal", "deal_of", "action_to_string"):
        assert callable(getattr(d, name)), name
    assert d.module("kernels") is not None and d.module("no_such_module") is None
    assert d.num_actions > 0 and d.state_len > d.slot_hist and d.observation_size > 0
    assert d.phase_names[d.terminal_phase] == "terminal"
    assert len(d.phase_names) == d.terminal_phase + 1
    drivers = d.drivers
    for name in ("batch_deal", "batch_step", "random_playouts", "reference_playouts", "invariant_sweep", "perft"):
        assert callable(getattr(drivers, name)), name


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_bad_inputs_raise_and_leave_the_state_unchanged(case):
    game = make(case)
    state = game.new_initial_state(seed=1)
    before = state.to_bytes()
    illegal = [a for a in range(game.num_actions) if a not in state.legal_actions()]
    for bad in [-1, game.num_actions, 10**9, 1.0, "0", None, True, np.float64(2.0)] + illegal[:3]:
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_bytes() == before
    for bad in (-1, game.num_players, 1.5):
        with pytest.raises((ValueError, TypeError)):
            state.observation(bad)
    with pytest.raises(CorruptStateError):
        game.state_from_bytes(b"not a state")
    with pytest.raises(CorruptStateError):
        game.state_from_bytes(before[:-8])
    other = tarockrl.make_game("tatteln" if game.name != "tatteln" else "dreierles")
    with pytest.raises(WrongGameError):
        game.state_from_bytes(other.new_initial_state(seed=1).to_bytes())
    with pytest.raises(WrongGameError):
        game.perft(other.new_initial_state(seed=1), 1)
    broken = bytearray(before)
    broken[-8 * game.state_len + 8 * game.definition.slot_magic] ^= 0xFF
    with pytest.raises(CorruptStateError):
        game.state_from_bytes(bytes(broken))
    # a batch with one illegal row is refused as a whole
    batch = game.new_batch(4, seed=2)
    rows = batch.rows.copy()
    actions = batch.random_actions(seed=3)
    masks = batch.legal_masks()
    actions[2] = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(IllegalActionError, match="row 2"):
        batch.step(actions)
    assert np.array_equal(batch.rows, rows)
    # the end of a deal
    final = game.new_initial_state(seed=4)
    while not final.is_terminal():
        final.apply_action(final.legal_actions()[0])
    with pytest.raises(GameOverError):
        final.apply_action(0)
    assert final.current_player() == -1 and final.legal_actions() == []


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_bytes_and_pickle_round_trips(case):
    game = make(case)
    assert pickle.loads(pickle.dumps(game)) == game
    for state in _random_states(game, 12, seed=5):
        again = game.state_from_bytes(state.to_bytes())
        assert again == state and again.to_bytes() == state.to_bytes()
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state and copy.seed == state.seed
        assert game.new_initial_state(deal=state.deal()).deal() == state.deal()
        assert isinstance(str(state), str) and isinstance(state.transcript(), str)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_batch_play_equals_single_state_play(case):
    game = make(case)
    n = 24
    batch = game.new_batch(n, seed=8)
    singles = [game.new_initial_state(seed=8, deal_id=i) for i in range(n)]
    step = 0
    while not batch.is_terminal().all():
        masks = batch.legal_masks()
        players = batch.current_players()
        obs = batch.observations()
        actions = batch.random_actions(seed=9, step_no=step)
        for i, s in enumerate(singles):
            if s.is_terminal():
                assert players[i] == -1 and actions[i] == -1 and not masks[i].any() and not obs[i].any()
                continue
            assert players[i] == s.current_player()
            assert np.array_equal(masks[i], s.legal_action_mask())
            assert np.array_equal(obs[i], s.observation(s.current_player()))
            assert masks[i, actions[i]]
            s.apply_action(int(actions[i]))
        batch.step(actions)
        step += 1
        assert step <= game.max_episode_length
    returns = batch.returns()
    assert np.all(returns.sum(axis=1) == 0)
    for i, s in enumerate(singles):
        assert batch.state(i) == s
        assert np.array_equal(returns[i], s.returns())


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fast_paths_equal_the_reference_drivers(case):
    """random_playouts (with the game's playout / random_step fast paths) = deal_rng + random_action + step."""
    game = make(case)
    drivers = game.definition.drivers
    n = 3000
    r1, l1 = np.zeros((n, game.num_players), np.int64), np.zeros(n, np.int64)
    r2, l2 = np.zeros((n, game.num_players), np.int64), np.zeros(n, np.int64)
    drivers.random_playouts(n, np.int64(17), game.encoded_options, r1, l1, np.int64(5))
    drivers.reference_playouts(n, np.int64(17), game.encoded_options, r2, l2, np.int64(5))
    assert np.array_equal(l1, l2) and np.array_equal(r1, r2)
    assert np.all(r1.sum(axis=1) == 0) and l1.min() >= 1 and l1.max() <= game.max_episode_length
    # the same deals and choices through the Python API, deal by deal
    d = game.definition
    for g in (5, 6, 7):
        row = np.zeros(game.state_len, np.int64)
        scratch = np.zeros(max(1, d.scratch_len), np.int64)
        rng = d.deal_rng(row, np.int64(17), np.int64(g), game.encoded_options, scratch)
        state = game.new_initial_state(seed=17, deal_id=g)
        assert tarockrl.State(game, row.copy()).deal() == state.deal()
        while not state.is_terminal():
            rng, a = d.random_action(row, game.encoded_options, rng)
            state.apply_action(int(a))
            d.step(row, a, game.encoded_options)
        assert len(state.history()) == l1[g - 5] and state.returns().tolist() == r1[g - 5].tolist()


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_playouts_do_not_depend_on_how_deals_are_split(case):
    from tarockrl.cli import play_random_deals

    game = make(case)
    whole, lengths = game.random_playouts(300, seed=3, return_lengths=True)
    part, part_lengths = game.random_playouts(100, seed=3, return_lengths=True, first_deal_id=150)
    assert np.array_equal(whole[150:250], part) and np.array_equal(lengths[150:250], part_lengths)
    cli, cli_lengths = play_random_deals(game, 300, seed=3, chunk=128, progress=False)
    assert np.array_equal(cli, whole) and np.array_equal(cli_lengths, lengths)


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=case_id)
def test_results_do_not_depend_on_the_thread_count(case):
    game = make(case)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = (game.random_playouts(700, seed=4), game.invariant_sweep(300, seed=4),
               game.new_batch(130, seed=4).observations())
        numba.set_num_threads(max(2, threads) if numba.config.NUMBA_NUM_THREADS >= 2 else 1)
        two = (game.random_playouts(700, seed=4), game.invariant_sweep(300, seed=4),
               game.new_batch(130, seed=4).observations())
    finally:
        numba.set_num_threads(threads)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_invariant_sweep_and_named_codes(case):
    game = make(case)
    codes = game.invariant_sweep(2000, seed=11)
    bad = np.flatnonzero(codes)
    assert bad.size == 0, f"deal {bad[0]}: {invariants.describe(codes[bad[0]])}"
    d = game.definition
    for state in _random_states(game, 6, seed=12):
        assert d.check_invariants(state.row.copy(), game.encoded_options) == 0
        row = state.row.copy()
        row[d.slot_magic] ^= 1
        row[d.slot_phase] = 99
        code = d.check_invariants(row, game.encoded_options)
        assert code in invariants.NAMES and code != invariants.OK


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_perft_counts_legal_sequences(case):
    game = make(case)
    drivers = game.definition.drivers
    states = _random_states(game, 5, seed=13)
    for state in states:
        assert game.perft(state, 0) == 1
        assert game.perft(state, 1) == (len(state.legal_actions()) if not state.is_terminal() else 1)
        total = 0
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            total += game.perft(child, 1)
        assert game.perft(state, 2) == (total if not state.is_terminal() else 1)
    rows = np.stack([s.row for s in states])
    out = np.zeros(len(states), np.int64)
    drivers.batch_perft(rows, np.int64(3), game.encoded_options, out)
    assert out.tolist() == [game.perft(s, 3) for s in states]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observations_hide_what_a_seat_may_not_know(case):
    """A seat's observation is unchanged when the cards hidden from it are redealt (games with a sampler)."""
    game = make(case)
    if game.definition.resample_hidden is None:
        pytest.skip(f"{game.name} has no hidden-card sampler")
    changed = 0
    for state in _random_states(game, 10, seed=14):
        if state.is_terminal():
            continue
        for p in range(game.num_players):
            sample = state.resample_hidden(p, seed=15)
            assert np.array_equal(sample.observation(p), state.observation(p))
            assert game.definition.check_invariants(sample.row.copy(), game.encoded_options) == 0
            changed += sample != state
    assert changed > 0


def test_jit_off_gives_the_same_results():
    """Every game's drivers give identical results with NUMBA_DISABLE_JIT=1 (a subprocess)."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, tarockrl\n"
        "out = {}\n"
        "for name in tarockrl.list_games():\n"
        "    g = tarockrl.make_game(name)\n"
        "    r, l = g.random_playouts(3, seed=5, return_lengths=True)\n"
        "    b = g.new_batch(2, seed=6)\n"
        "    b.step(b.random_actions(seed=7))\n"
        "    s = g.new_initial_state(seed=9)\n"
        "    sample = s.resample_hidden(1, seed=2).deal() if g.definition.resample_hidden else None\n"
        "    out[name] = [r.tolist(), l.tolist(), g.invariant_sweep(2, seed=8).tolist(), g.perft(s, 2),\n"
        "                 b.rows.tolist(), b.observations().tolist(), s.observation(1).tolist(), sample]\n"
        "print(json.dumps(out))\n"
    )
    here = {}
    exec(code.replace("print(json.dumps(out))", "here.update(out)"), {"here": here})  # noqa: S102
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900,
                          cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == json.loads(json.dumps(here))
