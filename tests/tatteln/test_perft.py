"""Perft: counts of legal action sequences from fixed deals (golden values), and a slow cross-check."""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.games.tatteln import layout as L
from tests.tatteln.helpers import GAME
from tests.tatteln.test_worked_examples import E2_DEAL, E6_DEAL

GOLDEN = {
    "E2": [11, 110, 1112, 11103, 108897, 1086887],
    "E6": [10, 91, 862, 8269, 81350, 792036],
    "seed7": [9, 99, 935, 9309, 92252, 898076],
}


def _state(name):
    if name == "E2":
        return GAME.new_initial_state(deal=E2_DEAL)
    if name == "E6":
        return GAME.new_initial_state(deal=E6_DEAL)
    return GAME.new_initial_state(seed=7)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_perft(name):
    state = _state(name)
    before = state.to_bytes()
    assert [GAME.perft(state, d) for d in range(1, 7)] == GOLDEN[name]
    assert state.to_bytes() == before


def test_perft_variants():
    g36 = tarockrl.make_game("tatteln", deck_size=36, final_must_head=True)
    assert [g36.perft(g36.new_initial_state(seed=7), d) for d in range(1, 6)] == [9, 81, 741, 6750, 61405]
    gnt = tarockrl.make_game("tatteln", no_trump=True, final_must_trump=True)
    assert [gnt.perft(gnt.new_initial_state(seed=3), d) for d in range(1, 6)] == [9, 81, 729, 7092, 67591]


def _endgame():
    state = GAME.new_initial_state(deal=E6_DEAL)
    while int(state.row[L.TRICKS]) < 11:
        state.apply_action(min(a for a in state.legal_actions() if a < 32))
    return state


def test_perft_to_the_end():
    state = _endgame()
    counts = [GAME.perft(state, d) for d in (1, 2, 4, 6, 8, 10, 12)]
    assert counts == [5, 15, 144, 720, 2616, 2616, 2616]  # every line ends within 10 actions
    assert GAME.perft(state, 0) == 1


def _slow_perft(state, depth):
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += _slow_perft(child, depth - 1)
    return total


def test_perft_matches_python_recursion():
    for state, depth in ((GAME.new_initial_state(deal=E2_DEAL), 3), (_endgame(), 6)):
        assert _slow_perft(state, depth) == GAME.perft(state, depth)


def test_batch_perft():
    rows = np.stack([_state(n).row for n in sorted(GOLDEN)])
    out = np.zeros(len(rows), dtype=np.int64)
    GAME.definition.drivers.batch_perft(rows, np.int64(4), GAME.encoded_options, out)
    assert out.tolist() == [GOLDEN[n][3] for n in sorted(GOLDEN)]
