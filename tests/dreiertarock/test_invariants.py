"""Random-game invariant sweeps in numba, episode-length bounds and the invariant checker itself."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreiertarock import kernels as K
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_CODES
from tarockrl.games.dreiertarock.text import parse_action

GAME = tarockrl.make_game("dreiertarock")

OPTION_SETS = [
    {"all_pass_rule": "trischaken"},
    {"all_pass_rule": "trischaken", "kaiserstich": True, "auto_play_forced": True},
    {"auto_play_forced": True, "forehand_must_bid": True, "redeal_without_tarock": True},
    {"discard_tarock_rule": "free", "announce_first_turn_only": False, "kontra_max_level": 1},
    {"kontra_enabled": False, "defender_announcements": False, "solo_declarer_leads": True},
    {"solo_valat_early_end": False, "valat_factor": 0, "silent_bird_failure_penalty": True,
     "trull_counts_non_trick_cards": True, "valat_cancels_silent_bonuses": False, "solo_bonus_factor": 2},
]


def test_sweep_default_rules():
    """After every action of 10^5 random deals: card conservation, masks, counts, zero-sum, 70 points, length."""
    codes = GAME.invariant_sweep(100_000, seed=1)
    assert np.count_nonzero(codes) == 0, np.flatnonzero(codes)[:5]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_sweep_option_sets(options):
    codes = tarockrl.make_game("dreiertarock", **options).invariant_sweep(20_000, seed=2)
    assert np.count_nonzero(codes) == 0, np.flatnonzero(codes)[:5]


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}] + OPTION_SETS)
def test_sweep_long(options):
    codes = tarockrl.make_game("dreiertarock", **options).invariant_sweep(1_000_000, seed=3)
    assert np.count_nonzero(codes) == 0, np.flatnonzero(codes)[:5]


def test_playouts_zero_sum_and_bounded():
    returns, lengths = GAME.random_playouts(100_000, seed=4, return_lengths=True)
    assert np.all(returns.sum(axis=1) == 0)
    assert lengths.min() >= 3 and lengths.max() <= L.MAX_EPISODE_LENGTH
    assert np.any(returns != 0)


def test_trischaken_episode_length():
    game = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken", forehand_must_bid=False)
    batch = game.new_batch(2000, seed=5)
    step = 0
    while not batch.is_terminal().all():
        actions = batch.random_actions(seed=6, step_no=step)
        live = ~batch.is_terminal()
        in_auction = batch.rows[:, L.PHASE] == L.AUCTION
        actions[live & in_auction] = L.A_PASS  # everybody passes
        batch.step(actions)
        step += 1
    assert np.all(batch.rows[:, L.TRISCHAKEN] == 1)
    assert np.all(batch.rows[:, L.HIST_LEN] == 51)
    assert np.all(batch.returns().sum(axis=1) == 0)
    for i in range(0, 2000, 97):
        assert K.check_invariants(batch.rows[i], game.encoded_options) == 0


# The longest announcement phase (42 actions, found by exhaustive search, see test_longest_announcement_phase)
LONGEST_ANNOUNCE = [119, 120, 126, 121, 126, 126, 125, 126, 122, 126, 126, 122, 126, 126, 122, 126, 126, 123, 126,
                    126, 123, 126, 126, 123, 126, 126, 124, 126, 126, 124, 126, 126, 124, 126, 126, 125, 126, 126,
                    125, 126, 126, 126]
HOLDING_WAR = ["BID_EINSER", "BID_ZWEIER", "PASS", "HOLD", "BID_DREIER", "HOLD", "BID_VIERER", "HOLD",
               "BID_FUENFER", "HOLD", "PASS"]


def _longest_deal():
    """Seat 0 (forehand) holds the Pagat and the Uhu, seat 1 the Kakadu."""
    s0 = ["T1", "T2", "T4", "T5", "T6", "T7", "T8", "T9", "H4", "H3", "H2", "H1", "HJ", "HN", "HQ", "HK"]
    rest = [c for c in CARD_CODES if c not in s0 and c != "T3"]
    return {"dealer": 2, "hands": [s0, ["T3"] + rest[:15], rest[15:31]],
            "talon_packets": [rest[31:34], rest[34:37]]}


def _to_announcement():
    state = GAME.new_initial_state(deal=_longest_deal())
    for name in HOLDING_WAR + ["TAKE_PACKET_0"]:
        state.apply_action(parse_action(name))
    while state.phase() == "discard":
        state.apply_action(state.legal_actions()[0])
    assert state.phase() == "announce"
    return state


def test_episode_of_105_actions():
    """The spec's bound is attained: 11 calls, talon, 3 discards, 42 announcement actions, 48 cards."""
    state = _to_announcement()
    for a in LONGEST_ANNOUNCE:
        state.apply_action(a)
    assert state.phase() == "play"
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert len(state.history()) == 105 == L.MAX_EPISODE_LENGTH
    assert K.check_invariants(state._row, GAME.encoded_options) == 0


def test_longest_announcement_phase():
    """Exhaustive longest path through the announcement phase from the position above: exactly 42."""
    opts = GAME.encoded_options
    slots = [L.CUR, L.ANN_BY, L.ANN_BY + 1, L.ANN_BY + 2, L.KLEVEL, L.KLEVEL + 1, L.KLEVEL + 2, L.KLEVEL + 3,
             L.HAD_TURN, L.GOODS]
    memo: dict[tuple, int] = {}

    def longest(row) -> int:
        if row[L.PHASE] != L.ANNOUNCE:
            return 0
        key = tuple(int(row[i]) for i in slots)
        if key not in memo:
            offset, bits = K.legal_set(row, opts)
            best = 0
            bits = int(bits)
            while bits:
                i = (bits & -bits).bit_length() - 1
                bits &= bits - 1
                child = row.copy()
                K.apply_unchecked(child, np.int64(offset + i), opts)
                best = max(best, 1 + longest(child))
            memo[key] = best
        return memo[key]

    assert longest(_to_announcement()._row.copy()) == 42


def test_check_invariants_catches_broken_rows():
    from tarockrl.engine import invariants as INV

    opts = GAME.encoded_options
    state = GAME.new_initial_state(seed=8)
    row = state._row.copy()
    assert K.check_invariants(row, opts) == 0
    bad = row.copy()
    bad[L.HAND] |= bad[L.HAND + 1] & -bad[L.HAND + 1]  # a card in two hands
    assert K.check_invariants(bad, opts) == INV.CARDS
    bad = row.copy()
    bad[L.PACKET] = 0  # three cards missing
    assert K.check_invariants(bad, opts) == INV.CARDS
    bad = row.copy()
    bad[L.HIST_LEN] = 200
    assert K.check_invariants(bad, opts) == INV.TOO_MANY_ACTIONS
    bad = row.copy()
    bad[L.CUR] = 5
    assert K.check_invariants(bad, opts) == INV.NO_SEAT_TO_ACT
    bad = row.copy()
    bad[L.MAGIC] = 0
    assert K.check_invariants(bad, opts) == INV.LAYOUT
    done = GAME.new_initial_state(seed=8)
    while not done.is_terminal():
        done.apply_action(done.legal_actions()[0])
    bad = done._row.copy()
    bad[L.RESULT] += 1
    assert K.check_invariants(bad, opts) == INV.SETTLEMENT
