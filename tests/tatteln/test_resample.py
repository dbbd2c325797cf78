"""Tatteln worlds: consistency, replay, determinism, the sampler's verdict against a brute-force definition, and
exact uniformity against enumeration (tarockrl/games/tatteln/resample.py)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

import tarockrl
from tarockrl.games.tatteln import kernels as K
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln import resample as R
from tarockrl.games.worlds import count_worlds_python
from tests.hidden.common import check_world, chi2_pvalue, chi_square_uniform, play_out, random_position
from tests.tatteln.resample_brute import (
    enumerate_worlds,
    hidden_positions,
    multinomial_placements,
    stepwise_consistent,
    stock_phase_key,
)

GAME = tarockrl.make_game("tatteln")

OPTION_SETS = [
    {},
    {"deck_size": 36},
    {"no_trump": True},
    {"hand_size": 8, "deck_size": 36},
    {"announce_only_on_lead": True, "final_must_head": True, "final_must_trump": True},
    {"blocker_scores": False, "seq_tie_trump_wins": True, "sets_all_ranks": True, "max_window_length": 6},
    {"announce_in_final_phase": False, "rob_enabled": False, "four_tops_up_trio": False},
]


def _ids(o):
    return ",".join(f"{k}={v}" for k, v in o.items()) or "default"


def shuffles(rows, n):
    """The stored shuffles of rows (``[k, state_len]``) as an int64 array ``[k, n]``."""
    rows = np.atleast_2d(rows)
    i = np.arange(n)
    return (rows[:, L.DECK + i // 10] >> (6 * (i % 10))) & 63


def shuffle(row, n):
    """The stored shuffle of one row."""
    return shuffles(row, n)[0]


def _sweep(game, count, start=0, steps_mod=75):
    n = game.rules.deck_size
    for seed in range(start, start + count):
        state = random_position(game, seed, (seed * 7) % steps_mod, deal_id=seed)
        for p in range(2):
            world = state.resample_hidden(p, seed)
            check_world(game, state, world, p, K.check_invariants)
            assert stepwise_consistent(state.row, np.int64(p), game.encoded_options, shuffle(world.row, n),
                                       game.observation_size)
            # determinism: the world is indistinguishable from the state for p, so it gives the same worlds
            assert np.array_equal(world.resample_hidden(p, 77).row, state.resample_hidden(p, 77).row)
            play_out(world, seed)


@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_worlds_replay_and_keep_the_view(options):
    _sweep(tarockrl.make_game("tatteln", **options), 6)


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_worlds_replay_and_keep_the_view_many(options):
    _sweep(tarockrl.make_game("tatteln", **options), 400, start=1000)


def test_batched_worlds_are_worlds_and_differ():
    state = random_position(GAME, 5, 10, deal_id=5)
    assert state.phase() == "stock"
    batch = GAME.sample_worlds(state, 1, 200, seed=3)
    assert len(batch) == 200
    decks = set()
    for i in range(0, 200, 10):
        w = batch.state(i)
        check_world(GAME, state, w, 1, K.check_invariants)
        decks.add(tuple(shuffle(w.row, 32)))
    assert len(decks) > 5
    again = GAME.sample_worlds(state, 1, 200, seed=3)
    assert np.array_equal(again.rows, batch.rows)
    # every world of the batch gives the same worlds as the true state (the determinism contract)
    for i in range(0, 200, 40):
        assert np.array_equal(GAME.sample_worlds(batch.state(i), 1, 5, seed=9).rows,
                              GAME.sample_worlds(state, 1, 5, seed=9).rows)
    batch.step(batch.random_actions(seed=0))  # ready for the batch API


def test_stock_order_is_resampled():
    """In the stock phase the face-down stock is redealt (its order too); the face-up bottom card stays."""
    state = random_position(GAME, 2, 6, deal_id=2)
    assert state.phase() == "stock"
    tops = Counter()
    for s in range(60):
        w = state.resample_hidden(0, s)
        assert int(w.row[L.BOTTOM]) == int(state.row[L.BOTTOM])
        tops[int(K.stock_card(w.row, w.row[L.STOCK_POS], GAME.encoded_options))] += 1
    assert len(tops) > 5


def _verdicts(options, seeds):
    """For shuffles that permute a few hidden places of a world, the sampler's membership test (per-card bounds,
    then the announcement check) agrees with the brute-force definition (legal replay, every observation equal).
    """
    game = tarockrl.make_game("tatteln", **options)
    n = game.rules.deck_size
    rng = np.random.default_rng(1)
    agree = Counter()
    for seed in seeds:
        state = random_position(game, seed, 10 + (seed * 11) % 50, deal_id=seed)
        p = seed % 2
        base = shuffle(state.resample_hidden(p, seed).row, n)
        pos = hidden_positions(game, state, p)
        for _ in range(3):
            q = sorted(rng.choice(pos, size=min(5, len(pos)), replace=False).tolist())
            for perm in itertools.permutations([int(base[i]) for i in q]):
                wd = base.copy()
                wd[q] = perm
                truth = stepwise_consistent(state.row, np.int64(p), game.encoded_options, wd,
                                            game.observation_size)
                verdict = R.deal_verdict(state.row, np.int64(p), game.encoded_options, wd)
                assert truth == (verdict == 0), (seed, p, q, perm, verdict)
                agree[(truth, int(verdict))] += 1
    return agree


@pytest.mark.parametrize("options", [{}, {"no_trump": True}, {"deck_size": 36, "hand_size": 8}], ids=_ids)
def test_sampler_verdict_equals_the_definition(options):
    agree = _verdicts(options, range(20))
    assert agree[(True, 0)] > 50 and agree[(False, 2)] > 50  # both verdicts are met often


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=_ids)
def test_sampler_verdict_equals_the_definition_many(options):
    agree = _verdicts(options, range(100, 400))
    assert agree[(True, 0)] > 500 and agree[(False, 2)] > 500 and agree[(False, 3)] > 0


def test_nested_draw_is_uniform():
    """The constructive draw over nested allowed places is uniform over every placement (chi-square), and the
    product formula counts them."""
    rs = np.zeros(1, dtype=np.int64)
    for bound, caps in (([0, 1, 1, 2, 3, 3, 3, 3], [3, 1, 1, 3]), ([2, 0, 2, 1, 2, 2, 1], [2, 2, 3]),
                        ([1, 1, 3, 3, 2, 3, 0], [2, 1, 1, 3])):
        m, nd = len(bound), len(caps) - 2
        b = np.array(bound, dtype=np.int64)
        c = np.array(caps, dtype=np.int64)
        allow = [(1 << (x + 1)) - 1 for x in bound]
        exact = count_worlds_python(allow, caps)
        truth = multinomial_placements(bound, caps)
        assert len(truth) == exact
        from math import factorial

        assert R._count(m, b, c, nd) == pytest.approx(exact * factorial(caps[-1]))
        loc_of = np.zeros(m, dtype=np.int64)
        order = np.zeros(m, dtype=np.int64)
        pool = np.zeros(m, dtype=np.int64)
        rs[0] = 12345
        draws = 60 * len(truth)
        counts = Counter()
        for _ in range(draws):
            assert R._draw(m, np.arange(m, dtype=np.int64), b, c, nd, rs, loc_of, order, pool)
            counts[tuple(int(x) for x in loc_of)] += 1
        assert set(counts) == set(truth)
        stat, dof = chi_square_uniform(counts, len(truth), draws)
        assert chi2_pvalue(stat, dof) > 1e-4


def _small_positions(game, phase, limit, want, start=0, steps=(20, 60)):
    out = []
    for seed in range(start, start + 3000):
        state = random_position(game, seed, steps[0] + seed % steps[1], deal_id=seed)
        if state.phase() != phase:
            continue
        for p in range(2):
            if R.count_candidates(state.row, np.int64(p), game.encoded_options) <= limit:
                out.append((state, p))
        if len(out) >= want:
            return out[:want]
    return out


def _uniformity(game, state, p, key, per_cell=40, seed=0):
    truth = enumerate_worlds(game, state, p, key)
    assert truth, "the true deal must be a world"
    n_cells = len(truth)
    total = sum(truth.values())
    draws = max(4000, per_cell * n_cells)
    batch = game.sample_worlds(state, p, draws, seed=seed)
    decks = shuffles(batch.rows, game.rules.deck_size)
    got = Counter(key(decks[i]) for i in range(draws))
    assert set(got) <= set(truth), "a sampled world is not a world"
    stat = sum((got.get(k, 0) - draws * v / total) ** 2 / (draws * v / total) for k, v in truth.items())
    return n_cells, total, chi2_pvalue(stat, n_cells - 1) if n_cells > 1 else 1.0


def test_uniform_against_exact_enumeration_final_phase():
    """Small final-phase positions (voids possible): the full deal is the key; every consistent deal is
    enumerated and checked by the brute-force definition."""
    positions = _small_positions(GAME, "final", 2500, 2)
    assert len(positions) == 2
    for state, p in positions:
        n_cells, total, pvalue = _uniformity(GAME, state, p, lambda wd: tuple(wd.tolist()))
        assert pvalue > 1e-4
        assert n_cells == total  # the full deal as key: one deal per cell
        acc = R.acceptance(state.row, np.int64(p), GAME.encoded_options, 0, 2000)
        if acc == 1.0:
            assert R.count_candidates(state.row, np.int64(p), GAME.encoded_options) == total


def test_uniform_against_exact_enumeration_with_announcements():
    """A small position where announcements reject candidates: still exactly uniform over the consistent deals."""
    found = 0
    for state, p in _small_positions(GAME, "final", 20000, 40, start=500):
        if R.acceptance(state.row, np.int64(p), GAME.encoded_options, 0, 3000) >= 0.95:
            continue
        n_cells, total, pvalue = _uniformity(GAME, state, p, lambda wd: tuple(wd.tolist()))
        assert pvalue > 1e-4
        assert total < R.count_candidates(state.row, np.int64(p), GAME.encoded_options)
        found += 1
        if found == 1:
            break
    assert found == 1


def test_uniform_against_exact_enumeration_stock_phase():
    """A stock-phase position (hidden stock and its order): the key is the stock's next card with the
    opponent's last hidden draw and his dealt hand."""
    positions = _small_positions(GAME, "stock", 60000, 1, steps=(13, 5))
    assert positions
    state, p = positions[0]
    n_cells, total, pvalue = _uniformity(GAME, state, p, stock_phase_key(GAME, state, p), per_cell=30)
    assert n_cells > 50 and pvalue > 1e-4


def test_acceptance_is_high():
    """The announcement check keeps most candidates (the rate the sampler's speed depends on)."""
    rates = []
    for seed in range(60):
        state = random_position(GAME, seed, (seed * 13) % 70, deal_id=seed)
        rates.append(R.acceptance(state.row, np.int64(seed % 2), GAME.encoded_options, 0, 500))
    assert min(rates) > 0.01 and np.mean(rates) > 0.5
