"""Dreierles worlds: consistency, replay, determinism, exact uniformity, and the reproducers of issue 11."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import kernels as K
from tarockrl.games.dreierles import layout as L
from tarockrl.games.dreierles import resample as R
from tarockrl.games.dreierles.cards import CARD_CODES, PLAIN_NON_KING, mask_codes
from tests.hidden.common import (
    check_world,
    hidden_size,
    play_out,
    random_position,
    replay,
    uniformity,
)

GAME = tarockrl.make_game("dreierles")


def key(row) -> tuple:
    """Where the cards lie: the hands, the discards and the set of blind cards."""
    blind = 0
    for i in range(6):
        blind |= 1 << int(row[L.BLIND + i])
    return (int(row[L.HAND]), int(row[L.HAND + 1]), int(row[L.HAND + 2]), int(row[L.DISCARDS]), blind)


def _act(state, name: str) -> None:
    matches = [a for a in state.legal_actions() if state.action_to_string(a) == name]
    assert matches, (name, [state.action_to_string(a) for a in state.legal_actions()])
    state.apply_action(matches[0])


def _sweep(game, n, start=0):
    for seed in range(start, start + n):
        state = random_position(game, seed, (seed * 7) % 57, deal_id=seed)
        for p in range(3):
            world = state.resample_hidden(p, seed)
            check_world(game, state, world, p, K.check_invariants)
            # determinism: a world is indistinguishable from the state for p, so it gives the same worlds
            assert np.array_equal(world.resample_hidden(p, 77).row, state.resample_hidden(p, 77).row)
            play_out(world, seed)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"defenders_see_unused_blind": False, "pfeife_announce_timing": "after_knocks"},
        {"last_round_raeuber_or_solo": True},
        {"last_round_raeuber_or_solo": True, "raeuber_restrictions": "iffezheim"},
        {"last_round_raeuber_or_solo": True, "raeuber_pfeife_rule": "third_trump_trick",
         "raeuber_21_rule": "not_with_stiess", "raeuber_pfeife_carry_over": True},
    ],
)
def test_worlds_replay_and_keep_the_view(options):
    _sweep(tarockrl.make_game("dreierles", **options), 12)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"last_round_raeuber_or_solo": True}])
def test_worlds_replay_and_keep_the_view_many(options):
    _sweep(tarockrl.make_game("dreierles", **options), 1500, start=1000)


def test_batched_worlds_are_worlds():
    state = random_position(GAME, 5, 30, deal_id=5)
    batch = GAME.sample_worlds(state, 1, 200, seed=3)
    assert len(batch) == 200
    keys = set()
    for i in range(0, 200, 10):
        w = batch.state(i)
        check_world(GAME, state, w, 1, K.check_invariants)
        keys.add(key(w.row))
    assert len(keys) > 5
    again = GAME.sample_worlds(state, 1, 200, seed=3)
    assert np.array_equal(again.rows, batch.rows)
    batch.step(batch.random_actions(seed=0))  # ready for the batch API


def _late_positions(game, want, max_placements, min_trick=9):
    out = []
    for seed in range(5000):
        state = random_position(game, seed, 20 + seed % 37, deal_id=seed)
        if state.is_terminal() or state.row[L.TRICK_NO] < min_trick:
            continue
        for p in range(3):
            if hidden_size(game, state, p, R) <= max_placements:
                out.append((state, p))
        if len(out) >= want:
            break
    return out


@pytest.mark.parametrize(
    "options",
    [{}, {"defenders_see_unused_blind": False}, {"last_round_raeuber_or_solo": True}],
)
def test_uniform_against_exact_enumeration(options):
    game = tarockrl.make_game("dreierles", **options)
    positions = _late_positions(game, 3, 2000)
    assert len(positions) >= 3
    for state, p in positions:
        n, support_ok, pvalue, _tv = uniformity(game, state, p, R, key)
        assert support_ok, "sampled worlds differ from the enumerated ones"
        assert pvalue > 1e-4
        assert R.count_worlds(state.row, np.int64(p), game.encoded_options) == pytest.approx(n)


def test_uniform_with_hidden_discards_and_voids():
    """A defender's view after a Dreier (3 hidden discards, taken blind cards) with voids shown."""
    found = 0
    for seed in range(3000):
        state = random_position(GAME, seed, 44, deal_id=seed)
        if state.is_terminal() or state.row[L.HIGH] != 1 or state.row[L.TRICK_NO] < 11:
            continue
        d = int(state.row[L.DECLARER])
        p = (d + 1) % 3
        if not any(state.row[L.VOIDS + s] for s in range(3)) or hidden_size(GAME, state, p, R) > 6000:
            continue
        n, support_ok, pvalue, _tv = uniformity(GAME, state, p, R, key)
        assert support_ok and pvalue > 1e-4
        found += 1
        if found == 2:
            break
    assert found == 2


# ---- the reproducers of issue 11 ----------------------------------------------------------------------------
def test_taken_blind_card_discarded_face_down_stays_with_the_declarer():
    state = GAME.new_initial_state(seed=0, deal_id=4)
    for name in ("PASS", "BID Dreier", "BID Zweier", "DISCARD D4", "DISCARD HQ", "NO_KNOCK"):
        _act(state, name)
    d = int(state.row[L.DECLARER])
    taken = int(state.row[L.BLIND_TAKEN])
    for seed in range(200):
        world = state.resample_hidden(0, seed=seed)
        replay(GAME, world)  # the deal is a valid deal (16 cards a hand)
        row = world.row
        assert (int(row[L.HAND + d]) | int(row[L.DISCARDS])) & taken == taken
    # a defender who cannot tell whether the declarer kept or discarded a taken card gets the same worlds
    batch = GAME.sample_worlds(state, 0, 50, seed=4)
    for i in range(50):
        other = batch.state(i)
        assert np.array_equal(other.resample_hidden(0, 9).row, state.resample_hidden(0, 9).row)


def test_fallback_declarer_holds_no_plain_card():
    """A declarer who had to discard a trump face up holds no plain non-king card in any world."""
    plain = [c for c in range(54) if (int(PLAIN_NON_KING) >> c) & 1]
    others = [c for c in range(16, 54) if c not in (16, 17, plain[0])]
    deal = {
        "dealer": 0,
        "hands": [mask_codes(sum(1 << c for c in others[16:32])), mask_codes((1 << 16) - 1),
                  mask_codes(sum(1 << c for c in others[:16]))],
        "blind": [CARD_CODES[c] for c in (16, 17, plain[0])] + [CARD_CODES[c] for c in others[32:]],
    }
    state = GAME.new_initial_state(deal=deal)
    for name in ("BID Dreier", "PASS", "PASS"):
        _act(state, name)
    while state.phase() == "discard":
        state.apply_action(min(state.legal_actions()))  # trumps have the lowest discard actions
    assert state.row[L.FALLBACK] != 0
    for p in (0, 2):
        for s in range(30):
            world = state.resample_hidden(p, s)
            assert int(world.row[L.HAND + 1]) & int(PLAIN_NON_KING) == 0
            check_world(GAME, state, world, p, K.check_invariants)


def test_pending_pfeife_decision_keeps_the_defenders_view():
    state = GAME.new_initial_state(seed=0, deal_id=2)
    for name in ("PASS", "BID Solo"):
        _act(state, name)
    assert state.phase() == "announce"
    for p in range(3):
        for seed in range(20):
            world = state.resample_hidden(p, seed)
            check_world(GAME, state, world, p, K.check_invariants)


def test_declined_pfeife_is_rewritten_in_the_history():
    """NO_ANNOUNCE appears in a world's history exactly when the world's declarer held the Pfeife."""
    seen = Counter()
    for seed in range(150):
        state = random_position(GAME, seed, 30, deal_id=seed)
        d = int(state.row[L.DECLARER])
        if d < 0 or state.is_terminal():
            continue
        for p in range(3):
            if p == d:
                continue
            world = state.resample_hidden(p, seed)
            held = bool((int(world.row[L.HAND + d]) | int(world.row[L.PLAYED_BY + d])) & 1)
            has_decision = L.A_NO_ANNOUNCE in world.history() or L.A_ANNOUNCE in world.history()
            if world.phase() in ("play",):
                assert held == has_decision
                seen[held] += 1
            replay(GAME, world)
    assert seen[True] > 5 and seen[False] > 5


def test_eleven_world_example_is_uniform():
    """Issue 11's example (defaults, seed 11, deal 108, seat 0) at a late position with few worlds."""
    for steps in range(56, 30, -1):
        state = random_position(GAME, 11, steps, deal_id=108)
        if state.is_terminal():
            continue
        n = R.count_worlds(state.row, np.int64(0), GAME.encoded_options)
        if 5 <= n <= 40:
            break
    else:
        pytest.fail("no late position found")
    worlds, support_ok, pvalue, tv = uniformity(GAME, state, 0, R, key, draws_per_world=2000)
    assert worlds == n and support_ok and pvalue > 1e-4 and tv < 0.03
