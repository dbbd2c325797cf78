"""The budgeted rounds of the solver template (``BUDGET_ROUNDS``, ``budget_word``, the adapter's ``budget_at``).

At the nodes they select, the moves are searched in rounds with a node budget per move; a move whose subtree runs
out of its budget is abandoned (nothing stored for the frames in between) and tried again with a bigger budget.
Only the order and the amount of work change, never a value: checked here with the rounds switched on at many
more nodes than the Dreierles default (small budgets, every position in the trick, few tricks left, with and
without the nodes expected to cut, staggered or not), against the same solver with them off and against plain
minimax, also with the Pfeife in play, in Räuber and with a tiny table (heavy replacement).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import layout as DL
from tarockrl.solvers import SearchLimitError, Solver
from tarockrl.solvers._bind import search_module
from tarockrl.solvers._common import BW_CUT, BW_NO_TTMOVE, BW_TT_DIR, budget_word


def _same_as_rounds_off(k, on, off, state, objective, with_minimax, word):
    """Solve ``state`` with the rounds on and off and check that nothing but the work differs: the same value for
    every root action, a value-only solve with the same value and a best action, and (``with_minimax``) plain
    minimax's value. Returns the two every-root-action results (on, off)."""
    r_on = on.solve(state, objective=objective)
    r_off = off.solve(state, objective=objective)
    assert r_on.action_values == r_off.action_values, (word, state.history())
    v_on = on.solve(state, objective=objective, value_only=True)
    assert v_on.value == r_off.value
    assert r_off.action_values[v_on.best_action] == r_off.value  # a best action
    if with_minimax:
        obj = 0 if objective == "returns" else 1
        root = np.int64(state.current_player())
        plain = int(k.minimax_plain(state._row.copy(), state.game.encoded_options, root, np.int64(obj)))
        assert r_on.value == plain
    return r_on, r_off


# (b0, shift, k, classes, flags, stagger): budgets from 2 to 64 nodes at every position in the trick with at least
# 2 cards in hand, so that most searches abandon and retry moves, nested several levels deep
WORDS = [
    budget_word(2, 1, 2, 7),
    budget_word(4, 2, 2, 7, int(BW_CUT), 2),
    budget_word(8, 1, 2, 3, int(BW_NO_TTMOVE), 1),
    budget_word(64, 2, 3, 2, int(BW_CUT), 2),
    budget_word(16, 3, 2, 1, 0, 3),
]


def _positions(tricks, count, seed0, pass_all=False, pfeife=False):
    """Dreierles play positions with ``tricks`` tricks left (at every position in the trick, in turn) from random
    play; with ``pfeife`` only positions whose Pfeife (card 0) is still in a hand and whose bonus is undecided."""
    game = tarockrl.make_game("dreierles")
    k = search_module("dreierles")
    opts = game.encoded_options
    out, seed = [], 0
    while len(out) < count and seed < 200 * count:
        rng = random.Random(seed0 + seed)
        state = game.new_initial_state(seed=seed0 + seed)
        seed += 1
        want = len(out) % 3
        while not state.is_terminal():
            row = state._row
            if row[DL.PHASE] == DL.PLAY and 16 - row[DL.TRICK_NO] == tricks and row[DL.TRICK_N] == want:
                break
            legal = state.legal_actions()
            a = DL.A_PASS if pass_all and row[DL.PHASE] == DL.AUCTION else rng.choice(legal)
            state.apply_action(a)
        if state.is_terminal():
            continue
        row = state._row
        if pass_all != (row[DL.RAEUBER] != 0):
            continue
        if pfeife:
            if not any(row[DL.HAND + s] & 1 for s in range(3)):
                continue
            blo, bhi = k.bonus_range(row, opts, np.int64(state.current_player()))
            if blo >= bhi:
                continue
        out.append(state)
    assert len(out) == count
    return out


def _solvers(word, table_bits=20):
    on = Solver("dreierles", table_bits=table_bits)
    on.budget_rounds = word
    off = Solver("dreierles", table_bits=table_bits)
    off.budget_rounds = -1
    return on, off


def test_the_adapters_switch():
    """Dreierles switches the rounds on (its ``BUDGET_ROUNDS`` word); the other games keep them off."""
    assert search_module("dreierles").BUDGET_ROUNDS > 0
    for name in ("dreiertarock", "troccas", "tatteln"):
        assert search_module(name).BUDGET_ROUNDS == 0


@pytest.mark.parametrize("case", ["contract", "raeuber", "pfeife", "tiny_table"])
def test_values_with_and_without_the_rounds(case):
    """Every root action's value (full mode) and the value alone (``value_only``), with the rounds on at many
    nodes (each word of ``WORDS``), equal the values with the rounds off and plain minimax (4 tricks left) or the
    values with the rounds off (5 and 6 tricks left). The rounds do abandon moves here: the node counts differ."""
    k = search_module("dreierles")
    pass_all = case == "raeuber"
    positions = []
    for tricks, count in ((4, 3), (5, 3), (6, 3)):
        positions += [(tricks, s) for s in _positions(tricks, count, 7000 + 97 * tricks, pass_all,
                                                          case == "pfeife")]
    differ = 0
    for j, word in enumerate(WORDS):
        on, off = _solvers(word, 8 if case == "tiny_table" else 20)
        for tricks, state in positions[j % 3::2]:
            for objective in ("returns", "card_points"):
                r_on, r_off = _same_as_rounds_off(k, on, off, state, objective, tricks == 4, word)
                differ += r_on.nodes != r_off.nodes
    assert differ > 0


# ``BW_TT_DIR`` (the expected node type from a table entry's one bound) at second and third cards, as the Dreierles
# default, with small budgets so that it selects many nodes
TT_DIR_WORDS = [
    budget_word(4, 2, 2, 6, int(BW_CUT | BW_TT_DIR), 2),
    budget_word(16, 1, 2, 7, int(BW_CUT | BW_TT_DIR), 1),
]


@pytest.mark.parametrize("case", ["contract", "pfeife", "tiny_table"])
def test_values_with_the_table_direction(case):
    """With ``BW_TT_DIR`` the table's bounds choose which nodes are expected to cut (and so budgeted): every root
    action's value and the value-only value equal those with the rounds off, and at 4 tricks left plain minimax.
    The rule is really used: the node counts differ from the same words without ``BW_TT_DIR`` on some positions."""
    k = search_module("dreierles")
    positions = []
    for tricks, count in ((4, 3), (5, 3), (6, 3)):
        positions += [(tricks, s) for s in _positions(tricks, count, 8100 + 31 * tricks, False, case == "pfeife")]
    differ = 0
    for word in TT_DIR_WORDS:
        on, off = _solvers(word, 8 if case == "tiny_table" else 20)
        plain_word = Solver("dreierles", table_bits=8 if case == "tiny_table" else 20)
        plain_word.budget_rounds = word & ~(int(BW_TT_DIR) >> 8 << 48)  # the same word without the flag
        for tricks, state in positions:
            for objective in ("returns", "card_points"):
                r_on, _ = _same_as_rounds_off(k, on, off, state, objective, tricks == 4, word)
                differ += r_on.nodes != plain_word.solve(state, objective=objective).nodes
    assert differ > 0


def test_the_node_budget_still_stops_the_search():
    """The global node budget (``max_nodes``) aborts a search with the rounds on, also inside a round's budget,
    and the nodes of abandoned attempts count: a solve with the rounds on at every node never reports fewer nodes
    than it took (rerunning it with exactly its own count as ``max_nodes`` succeeds, one node less fails)."""
    on, _ = _solvers(budget_word(2, 1, 2, 7))
    for state in _positions(6, 3, 9100):
        r = on.solve(state, value_only=True)
        assert on.solve(state, value_only=True, max_nodes=r.nodes).value == r.value
        with pytest.raises(SearchLimitError):
            on.solve(state, value_only=True, max_nodes=r.nodes - 1)


@pytest.mark.slow
def test_whole_deal_with_and_without_the_rounds():
    """A whole deal (value only) with the Dreierles default on and off: the same value."""
    from tarockrl.solvers.bench import _position

    game = tarockrl.make_game("dreierles")
    on, off = _solvers(None)
    for seed in (7, 8):
        s = _position(game, seed, 16)
        assert on.solve(s, value_only=True).value == off.solve(s, value_only=True).value


def test_budget_rounds_setting_is_checked():
    """A bad ``Solver.budget_rounds`` is refused with a message naming it; None and -1 are accepted."""
    sol = Solver("dreierles")
    for bad in (True, 1.5, "128", 0, -2, 1 << 49, budget_word(1 << 17, 2, 13, 2), budget_word(128, 2, 13, 2, 128),
                budget_word(128, 2, 13, 2, 512)):
        with pytest.raises(ValueError, match="budget_rounds"):
            sol.budget_rounds = bad
    assert sol.budget_rounds is None
    sol.budget_rounds = -1
    assert sol.budget_rounds == -1
    sol.budget_rounds = budget_word(128, 2, 13, 2)
    assert sol.budget_rounds == budget_word(128, 2, 13, 2)
    sol.budget_rounds = budget_word(128, 2, 14, 6, int(BW_CUT | BW_TT_DIR), 2)
    assert sol.budget_rounds == search_module("dreierles").BUDGET_ROUNDS
    sol.budget_rounds = None
    assert sol.budget_rounds is None
