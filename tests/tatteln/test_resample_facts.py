"""Tatteln worlds under announcement facts: the exact counting programme (tarockrl/games/tatteln/factdp.py).

The exact count equals the number of consistent deals enumerated by the brute-force definition, the draws are
uniform over them (chi-square), and the positions where the old accept/reject step kept the fewest candidates
now sample without a single rejected or failed world.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import tarockrl
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln import resample as R
from tests.hidden.common import chi2_pvalue, random_position
from tests.tatteln.resample_brute import enumerate_worlds, stock_phase_key
from tests.tatteln.test_resample import shuffles

GAME = tarockrl.make_game("tatteln")


def _binding(game, phase, limit, start, steps, want):
    """Positions of ``phase`` with at most ``limit`` candidates whose announcement facts remove candidates."""
    opts = game.encoded_options
    out = []
    for seed in range(start, start + 4000):
        state = random_position(game, seed, steps[0] + seed % steps[1], deal_id=seed)
        if state.phase() != phase:
            continue
        for p in range(2):
            cand = R.count_candidates(state.row, np.int64(p), opts)
            if cand > limit or R.plan_size(state.row, np.int64(p), opts)[0] == 0:
                continue
            if R.count_worlds(state.row, np.int64(p), opts) < cand:
                out.append((state, p))
        if len(out) >= want:
            break
    return out[:want]


def _check_exact(game, state, p, key, per_cell=40, seed=0, single=False):
    """count_worlds equals the enumerated number of worlds, and the sampled keys are uniform (chi-square; with
    ``single``, the single-world path too)."""
    truth = enumerate_worlds(game, state, p, key)
    total = sum(truth.values())
    assert total > 0, "the true deal must be a world"
    assert R.count_worlds(state.row, np.int64(p), game.encoded_options) == total
    draws = max(3000, per_cell * len(truth))
    batch = game.sample_worlds(state, p, draws, seed=seed)  # raises on a single failed world
    decks = shuffles(batch.rows, game.rules.deck_size)
    got = Counter(key(decks[i]) for i in range(draws))
    assert set(got) <= set(truth), "a sampled world is not a world"
    stat = sum((got.get(k, 0) - draws * v / total) ** 2 / (draws * v / total) for k, v in truth.items())
    pvalue = chi2_pvalue(stat, len(truth) - 1) if len(truth) > 1 else 1.0
    if single:  # single worlds: candidates first, then the programme (a mixture that must be uniform too)
        n = game.rules.deck_size
        got = Counter(key(shuffles(state.resample_hidden(p, 10_000 + k).row, n)[0]) for k in range(draws))
        assert set(got) <= set(truth)
        stat = sum((got.get(k, 0) - draws * v / total) ** 2 / (draws * v / total) for k, v in truth.items())
        pvalue = min(pvalue, chi2_pvalue(stat, len(truth) - 1) if len(truth) > 1 else 1.0)
    return len(truth), total, pvalue


def test_exact_count_and_uniformity_final_phase_with_binding_announcements():
    """Final-phase positions whose stock-phase announcements depend on the opponent's hand then: the exact count
    is the enumerated number of deals, and every deal is drawn equally often."""
    positions = _binding(GAME, "final", 6000, 500, (20, 60), 2)
    assert len(positions) == 2
    for state, p in positions:
        cells, total, pvalue = _check_exact(GAME, state, p, lambda wd: tuple(wd.tolist()), single=True)
        assert cells == total and pvalue > 1e-4
        assert total < R.count_candidates(state.row, np.int64(p), GAME.encoded_options)


def test_exact_count_and_uniformity_stock_phase_with_binding_announcements():
    """A stock-phase position (hidden stock and its order) with binding announcements: exact count and
    uniformity of (the opponent's dealt hand, his last hidden draw, the next stock card)."""
    positions = _binding(GAME, "stock", 60000, 0, (9, 9), 1)
    assert positions
    state, p = positions[0]
    cells, total, pvalue = _check_exact(GAME, state, p, stock_phase_key(GAME, state, p), per_cell=25)
    assert cells > 20 and pvalue > 1e-4


# positions where the accept/reject sampler kept the fewest candidates (0.006 and 0.007 of them)
WORST = [({}, 213), ({"blocker_scores": False, "seq_tie_trump_wins": True, "sets_all_ranks": True,
                      "max_window_length": 6}, 147)]


@pytest.mark.parametrize("options,seed", WORST)
def test_worst_acceptance_positions_sample_without_failure(options, seed):
    game = tarockrl.make_game("tatteln", **options)
    opts = game.encoded_options
    state = random_position(game, seed, (seed * 13) % 70, deal_id=seed)
    p = np.int64(seed % 2)
    assert R.acceptance(state.row, p, opts, 0, 3000) < 0.02  # the facts bind hard here
    nf, ni, states = R.plan_size(state.row, p, opts)
    assert nf > 0 and 0 < states < 1_500_000
    worlds = R.count_worlds(state.row, p, opts)
    cand = R.count_candidates(state.row, p, opts)
    assert 0 < worlds < 0.02 * cand
    batch = game.sample_worlds(state, int(p), 400, seed=5)  # raises if a single world failed
    decks = shuffles(batch.rows, game.rules.deck_size)
    for i in range(0, 400, 4):
        assert R.deal_verdict(state.row, p, opts, decks[i]) == 0
    assert len({tuple(x) for x in decks.tolist()}) > 1 or worlds == 1
    for k in range(20):  # single draws too
        w = state.resample_hidden(int(p), k)
        assert R.deal_verdict(state.row, p, opts, shuffles(w.row, game.rules.deck_size)[0]) == 0


@pytest.mark.parametrize("options", [{}, {"deck_size": 36}, {"no_trump": True, "hand_size": 8, "deck_size": 36},
                                     WORST[1][0]])
def test_count_worlds_matches_the_acceptance_rate(options):
    """Over random positions the exact count agrees with count_candidates times the measured acceptance of the
    old accept/reject test (within sampling error), and equals count_candidates without binding facts."""
    game = tarockrl.make_game("tatteln", **options)
    opts = game.encoded_options
    with_facts = 0
    for seed in range(80):
        state = random_position(game, seed, (seed * 13) % 70, deal_id=seed)
        p = np.int64(seed % 2)
        cand = R.count_candidates(state.row, p, opts)
        worlds = R.count_worlds(state.row, p, opts)
        if R.plan_size(state.row, p, opts)[0] == 0:
            assert worlds == cand
            continue
        with_facts += 1
        tries = 2000
        acc = R.acceptance(state.row, p, opts, seed, tries)
        ratio = worlds / cand
        assert abs(ratio - acc) <= 5 * np.sqrt(max(ratio * (1 - ratio), 1e-6) / tries) + 1e-3, (seed, ratio, acc)
    assert with_facts > 10


def test_single_worlds_are_uniform_where_most_candidates_fail():
    """A stock-phase position where only 1160 of 25600 candidates are worlds: a single world falls through its
    32 candidates to the programme about a quarter of the time; the mixture is uniform (chi-square) and both the
    batched and the single draws agree with exact enumeration."""
    state = random_position(GAME, 9137, 14, deal_id=9137)
    p = 1
    opts = GAME.encoded_options
    assert R.count_worlds(state.row, np.int64(p), opts) == 1160
    assert R.count_candidates(state.row, np.int64(p), opts) == 25600
    dealer = int(state.row[L.DEALER])
    opp_pos = [i for i in range(18) if ((1 - dealer) if i % 2 == 0 else dealer) == 1 - p]

    def key(wd):
        return tuple(sorted(int(wd[i]) for i in opp_pos))

    cells, total, pvalue = _check_exact(GAME, state, p, key, per_cell=30, single=True)
    assert total == 1160 and cells > 5 and pvalue > 1e-4


@pytest.mark.slow
def test_state_budget_fallback_gives_worlds():
    """36 cards, seed 5142: the programme needs about 1.08M states, above the sampling budget (400,000), so the
    worlds come from the exact accept/reject fallback; every one is a world, and the count is still exact."""
    game = tarockrl.make_game("tatteln", deck_size=36)
    opts = game.encoded_options
    state = random_position(game, 5142, (5142 * 13) % 70, deal_id=5142)
    p = np.int64(0)
    nf, ni, states = R.plan_size(state.row, p, opts)
    assert states > 400_000
    worlds = R.count_worlds(state.row, p, opts)
    cand = R.count_candidates(state.row, p, opts)
    acc = R.acceptance(state.row, p, opts, 3, 20000)
    assert abs(worlds / cand - acc) < 5 * np.sqrt(acc * (1 - acc) / 20000) + 1e-3
    batch = game.sample_worlds(state, int(p), 100, seed=2)
    decks = shuffles(batch.rows, 36)
    for i in range(0, 100, 5):
        assert R.deal_verdict(state.row, p, opts, decks[i]) == 0
