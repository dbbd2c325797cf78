"""Dreiertarock worlds: consistency, replay, determinism, exact uniformity, and the reproducers of issue 11."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreiertarock import kernels as K
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock import resample as R
from tarockrl.games.dreiertarock.cards import PLAIN_NONKING, mask_codes
from tests.hidden.common import check_world, enumerate_worlds, hidden_size, play_out, random_position, uniformity

GAME = tarockrl.make_game("dreiertarock")


def key(row) -> tuple:
    """Where the cards lie: the hands, the discards and the talon as a set."""
    hands = tuple(int(row[L.HAND + s]) for s in range(3))
    return hands + (int(row[L.DISCARDS]), int(row[L.PACKET]) | int(row[L.PACKET + 1]))


def _sweep(game, n, start=0):
    for seed in range(start, start + n):
        state = random_position(game, seed, (seed * 7) % 70, deal_id=seed)
        for p in range(3):
            world = state.resample_hidden(p, seed)
            check_world(game, state, world, p, K.check_invariants)
            assert np.array_equal(world.resample_hidden(p, 77).row, state.resample_hidden(p, 77).row)
            play_out(world, seed)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"all_pass_rule": "trischaken"},
        {"all_pass_rule": "trischaken", "kaiserstich": True},
        {"discard_tarock_rule": "free", "defender_announcements": False},
        {"redeal_without_tarock": True},
    ],
)
def test_worlds_replay_and_keep_the_view(options):
    _sweep(tarockrl.make_game("dreiertarock", **options), 12)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"all_pass_rule": "trischaken"}, {"redeal_without_tarock": True}])
def test_worlds_replay_and_keep_the_view_many(options):
    _sweep(tarockrl.make_game("dreiertarock", **options), 1500, start=1000)


@pytest.mark.parametrize("options", [{}, {"all_pass_rule": "trischaken"}])
def test_uniform_against_exact_enumeration(options):
    game = tarockrl.make_game("dreiertarock", **options)
    found = 0
    for seed in range(3000):
        state = random_position(game, seed, 20 + seed % 60, deal_id=seed)
        if state.is_terminal() or state.row[L.TRICK_NO] < 10:
            continue
        for p in range(3):
            if hidden_size(game, state, p, R) > 3000:
                continue
            n, support_ok, pvalue, _tv = uniformity(game, state, p, R, key)
            assert support_ok and pvalue > 1e-4
            assert R.count_worlds(state.row, np.int64(p), game.encoded_options) == pytest.approx(n)
            found += 1
        if found >= 3:
            break
    assert found >= 3


def test_batched_worlds_are_worlds():
    state = random_position(GAME, 8, 30, deal_id=8)
    batch = GAME.sample_worlds(state, 2, 100, seed=1)
    for i in range(0, 100, 10):
        check_world(GAME, state, batch.state(i), 2, K.check_invariants)
    assert np.array_equal(GAME.sample_worlds(state, 2, 100, seed=1).rows, batch.rows)


def _after_talon(seed, deal_id):
    """A defender's view right after the declarer took a packet and discarded (Einser..Fünfer), or None."""
    state = GAME.new_initial_state(seed=seed, deal_id=deal_id)
    rng = np.random.default_rng(deal_id)
    while not state.is_terminal() and state.phase() in ("auction", "talon", "discard"):
        legal = state.legal_actions()
        bids = [a for a in legal if L.A_BID_EINSER <= a < L.A_BID_SOLO]
        state.apply_action(bids[0] if bids and state.row[L.LEVEL] == 0 else legal[int(rng.integers(len(legal)))])
    if state.row[L.TAKEN] < 0 or state.is_terminal():
        return None
    return state


def test_taken_packet_split_is_exact_and_never_fails():
    """Issue 11: no RuntimeError after a taken packet; the number of taken cards among the face-down discards
    follows the exact world counts (checked against enumeration by a chi-square on the counts)."""
    state = GAME.new_initial_state(seed=0, deal_id=127)
    done = 0
    for deal_id in range(127, 400):
        state = _after_talon(0, deal_id)
        if state is None:
            continue
        d = int(state.row[L.DECLARER])
        p = (d + 1) % 3
        for s in range(40):
            world = state.resample_hidden(p, s)  # never raises
            taken = int(world.row[L.PACKET + int(world.row[L.TAKEN])])
            assert (int(world.row[L.HAND + d]) | int(world.row[L.DISCARDS])) & taken == taken
        done += 1
        if done == 3:
            break
    assert done == 3


def test_split_of_taken_cards_follows_world_counts():
    """At a late position after a taken packet, the law of how many taken cards were discarded is the exact one."""
    for seed in range(2000):
        state = random_position(GAME, seed, 55, deal_id=seed)
        if state.is_terminal() or state.row[L.TAKEN] < 0 or state.row[L.TRICK_NO] < 11:
            continue
        d = int(state.row[L.DECLARER])
        p = (d + 1) % 3
        if hidden_size(GAME, state, p, R) > 4000:
            continue
        taken = int(state.row[L.PACKET + int(state.row[L.TAKEN])])
        worlds = enumerate_worlds(GAME, state, p, R, key)
        exact = Counter(bin(k[3] & taken).count("1") for k in worlds)
        if len(exact) < 2:
            continue
        n = 20000
        batch = GAME.sample_worlds(state, p, n, seed=seed)
        got = Counter(bin(int(batch.rows[i, L.DISCARDS]) & taken).count("1") for i in range(n))
        total = sum(exact.values())
        for m, c in exact.items():
            assert abs(got[m] / n - c / total) < 5 * np.sqrt(c / total * (1 - c / total) / n) + 1e-9
        return
    pytest.fail("no position found")


def test_forced_tarock_discard_leaves_no_plain_card_in_any_world():
    """A declarer who had to discard tarocks face up keeps no plain non-king card in any world."""
    plain = [c for c in range(22, 54) if (int(PLAIN_NONKING) >> c) & 1]
    others = [c for c in range(54) if c not in range(16) and c not in (16, 17, plain[0])]
    deal = {
        "dealer": 0,
        "hands": [mask_codes(sum(1 << c for c in others[16:32])), mask_codes((1 << 16) - 1),
                  mask_codes(sum(1 << c for c in others[:16]))],
        "talon_packets": [mask_codes((1 << 16) | (1 << 17) | (1 << plain[0])),
                          mask_codes(sum(1 << c for c in others[32:]))],
    }
    state = GAME.new_initial_state(deal=deal)
    for a in (L.A_BID_EINSER, L.A_PASS, L.A_PASS, L.A_TAKE_PACKET):
        state.apply_action(a)
    while state.phase() == "discard":
        state.apply_action(min(state.legal_actions()))
    assert state.row[L.DISCARDS_UP] != 0
    for p in (0, 2):
        for s in range(20):
            world = state.resample_hidden(p, s)
            assert int(world.row[L.HAND + 1]) & int(PLAIN_NONKING) == 0
            check_world(GAME, state, world, p, K.check_invariants)


def test_trischaken_worlds_replay():
    """Issue 11: in Trischaken every world is a game that could have happened (Stichzwang and Pagat honoured)."""
    game = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken")
    seen = 0
    for seed in range(400):
        state = random_position(game, seed, 10 + seed % 40, deal_id=seed)
        if not state.row[L.TRISCHAKEN] or state.is_terminal():
            continue
        for p in range(3):
            batch = game.sample_worlds(state, p, 20, seed=seed)  # raises if any world fails to replay
            check_world(game, state, batch.state(0), p, K.check_invariants)
        seen += 1
        if seen == 5:
            break
    assert seen == 5
