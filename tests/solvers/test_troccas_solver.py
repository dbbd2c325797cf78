"""The Troccas solver adapter: additive positions, equivalent cards and move ordering (docs/solver.md, "Troccas").

The additive claim is checked directly on random games (fast: only the adapter's small kernels compile); the
searches with merging and additive entries against the compiled plain minimax are marked slow like every Troccas
solver test (the search kernels compile for minutes).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_VALUES
from tarockrl.solvers import solver_for
from tarockrl.solvers.adapters import troccas as A

OPTION_SETS = [
    {},
    {"slam_takes_scart": True, "scart_counts_for_fool": True},
    {"knock_enabled": True, "double_lead_enabled": True, "must_overtrump": True},
    {"king_jack_rule": False, "buob_demand_automatic": True},
]


def _in_play(state) -> bool:
    return state._row[L.PHASE] in (L.PLAY, L.BUOB)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_additive_positions_add_up(options):
    """At every additive position of 60 random games, team 0's final card points are ``apast`` plus what the
    later tricks add to its pile (their points, 3 off per four cards), and that lies within ``afmin``..``afmax``."""
    game = tarockrl.make_game("troccas", **options)
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        marks = []  # (index into the pile additions, apast, afmin, afmax) at each additive position
        additions = []  # what each trick that team 0 won added to its pile, as counted points
        while not state.is_terminal():
            row = state._row
            if _in_play(state) and A.additive(row, 0):
                opts = game.encoded_options
                marks.append((len(additions), int(A.apast(row, opts)), int(A.afmin(row, opts)),
                              int(A.afmax(row, opts))))
            tricks = int(row[L.TRICK_NO])
            state.apply_action(rng.choice(state.legal_actions()))
            row = state._row
            if int(row[L.TRICK_NO]) > tricks and int(row[L.LAST_WINNER]) % 2 == 0:  # a trick to team 0's pile
                cards = [int(row[L.LAST_CARD + i]) for i in range(int(row[L.LAST_N]))]
                assert len(cards) % 4 == 0
                additions.append(sum(int(CARD_VALUES[c]) for c in cards) - 3 * (len(cards) // 4))
        final = int(state._row[L.POINTS])
        assert final + int(state._row[L.POINTS + 1]) == A.TOTAL_POINTS
        for i, past, lo, hi in marks:
            rest = sum(additions[i:])
            assert final == past + rest, (seed, i)
            assert lo <= rest <= hi
            checked += 1
    assert checked > 500  # additive positions are common once both teams have a trick and the Fool is out


def test_gtable_is_the_settlement():
    """The value table of both teams and objectives: team points - 36, the other team's = 72 - points."""
    out = np.zeros(A.GT_LEN, dtype=np.int64)
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    opts = tarockrl.make_game("troccas").encoded_options
    assert A.gtable(row, opts, 0, 0, out) == 73
    assert out[0] == -36 and out[36] == 0 and out[72] == 36
    A.gtable(row, opts, 1, 0, out)
    assert out[0] == 36 and out[72] == -36
    A.gtable(row, opts, 3, 1, out)
    assert out[10] == 62


@pytest.mark.slow  # compiles the Troccas search and plain minimax kernels
@pytest.mark.parametrize("options", OPTION_SETS)
def test_search_matches_plain_minimax(options):
    """Up to 4 tricks left, 8 positions per option set: the full search (additive entries, merging, ordering),
    the search without merging and the compiled plain minimax agree, for both objectives."""
    game = tarockrl.make_game("troccas", **options)
    solver = solver_for("troccas")
    k = solver.kernels
    found = 0
    for seed in range(400, 600):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        tricks = rng.choice((3, 4))
        while not state.is_terminal() and not (_in_play(state) and A.tricks_left(state._row, {}) <= tricks):
            state.apply_action(rng.choice(state.legal_actions()))
        for _ in range(rng.randrange(4)):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or not _in_play(state):
            continue
        root = state.current_player()
        opts = game.encoded_options
        for obj, name in ((0, "returns"), (1, "card_points")):
            plain = int(k.minimax_plain(state._row.copy(), opts, np.int64(root), np.int64(obj)))
            merged = solver.solve(state, objective=name)
            unmerged = solver.solve(state, objective=name, merge=False)
            assert merged.value == plain == unmerged.value, (seed, name)
            assert merged.action_values == unmerged.action_values
        found += 1
        if found == 8:
            break
    assert found == 8


def test_fool_payment_of_unknown_value_is_not_additive():
    """A pending Fool payment from a pile with no middle trump or numeral (the card paid could still be a court
    card or a one-point card) keeps a position out of the additive ones."""
    game = tarockrl.make_game("troccas")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and not (_in_play(state) and A.additive(state._row, 0)
                                               and state._row[L.FOOL_TRICK_TEAM] >= 0):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    else:
        pytest.fail("no additive position with a pending Fool payment in 200 games")
    row = state._row.copy()
    ft = int(row[L.FOOL_SEAT]) % 2
    row[L.PILE_TW + ft] = 0
    row[L.PILE_SW + ft] = np.int64(0b1111 << 10)  # the four court cards of cups only
    row[L.SCART_TW] = 0
    row[L.SCART_SW] = np.int64(0b11 << 24)  # two court cards of coins
    assert not A.additive(row, 0)
    row[L.PILE_SW + ft] |= np.int64(1)  # a numeral: the payment is one point
    assert A.additive(row, 0)
