"""The Dreiertarock solver's speed-ups keep every value exact.

What the adapter (:mod:`tarockrl.solvers.adapters.dreiertarock`) adds to plain alpha-beta: a transposition key up to
ranks with a summary of the past, threshold entries on the declarer's points so far, static bounds (sure tarock
tricks, cashable plain tops, the bonus range), additive positions for the card points, and the values the root
can take. The references: the solver's compiled plain minimax (``minimax_plain``: no pruning, no table, no
merging) and alpha-beta without table, bounds and merging (``table=False, merge=False``), both over the game's own
kernels; sides and values are read from the rules as in ``test_solver.py``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_VALUES, SUIT_MASK_OF_CARD
from tarockrl.solvers import Solver, solver_for
from tests.solvers.test_solver import positions

# (options, pass in the auction: Trischaken)
NORMAL = ({}, False)
VARIANTS = ({"kaiserstich": True, "trull_counts_non_trick_cards": True, "silent_bird_failure_penalty": True,
             "solo_bonus_factor": 2}, False)
NO_VALAT = ({"valat_factor": 0, "valat_cancels_silent_bonuses": False, "kontra_max_level": 1}, False)
TRISCHAKEN = ({"all_pass_rule": "trischaken"}, True)
TRISCHAKEN_K = ({"all_pass_rule": "trischaken", "kaiserstich": True}, True)
NAMED = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 20) | (1 << 21)


def _game(options):
    return tarockrl.make_game("dreiertarock", **options)


def _bonus_live(row) -> bool:
    """A bird that may still win its trick, or a Trull card or the Mond in play (a bonus still open)."""
    rem = int(row[L.HAND]) | int(row[L.HAND + 1]) | int(row[L.HAND + 2])
    return bool(rem & NAMED) and not row[L.TRISCHAKEN]


def test_pruned_search_equals_plain_alpha_beta():
    """40 positions with up to 4 tricks left per rule set (normal contracts with bonuses live, Kaiserstich and
    the other bonus options, Trischaken): every action's value, both objectives, equals alpha-beta without table,
    bounds and merging."""
    solver = solver_for("dreiertarock")
    live = 0
    for options, pass_all in (NORMAL, VARIANTS, TRISCHAKEN):
        game = _game(options)
        for state in positions(game, 4, pass_all, 40, seed0=20_000):
            live += _bonus_live(state._row)
            for objective in ("returns", "card_points"):
                full = solver.solve(state, objective=objective)
                plain = solver.solve(state, objective=objective, merge=False, table=False)
                assert full.action_values == plain.action_values, (options, objective, state.history())
    assert live >= 30


@pytest.mark.slow  # compiles the plain minimax entry point
@pytest.mark.parametrize(("options", "pass_all"), [NORMAL, VARIANTS, NO_VALAT, TRISCHAKEN, TRISCHAKEN_K])
def test_solver_matches_kernel_minimax(options, pass_all):
    """Positions with up to 4 tricks left (25 per rule set) and 5 tricks left (8): the value of every action
    equals the compiled plain minimax of the child position."""
    game = _game(options)
    solver = solver_for("dreiertarock")
    k = solver.kernels
    opts = game.encoded_options
    for tricks, count in ((4, 25), (5, 8)):
        for state in positions(game, tricks, pass_all, count, seed0=21_000 + tricks):
            root = state.current_player()
            for obj, objective in ((0, "returns"), (1, "card_points")):
                result = solver.solve(state, objective=objective)
                for a, v in result.action_values.items():
                    child = state.clone()
                    child.apply_action(a)
                    if child.is_terminal():
                        continue
                    plain = int(k.minimax_plain(child._row.copy(), opts, np.int64(root), np.int64(obj)))
                    assert v == plain, (options, objective, a, state.history())


@pytest.mark.slow
@pytest.mark.parametrize(("options", "pass_all"), [NORMAL, VARIANTS, NO_VALAT, TRISCHAKEN])
def test_deeper_positions_and_a_tiny_table(options, pass_all):
    """Positions with 5-6 tricks left: the full search equals alpha-beta without table, bounds and merging, and a
    tiny table (heavy replacement, entries of earlier solves in the way) gives the same values."""
    game = _game(options)
    solver = solver_for("dreiertarock")
    tiny = Solver("dreiertarock", table_bits=8)
    for state in positions(game, 6, pass_all, 12, seed0=22_000):
        full = solver.solve(state)
        assert solver.solve(state, merge=False, table=False).action_values == full.action_values, state.history()
        assert tiny.solve(state).action_values == full.action_values, state.history()


def _swap_played(state, rng):
    """A position equivalent to ``state`` up to ranks: a card ``y`` in a hand and a card ``x`` of a completed
    trick, of the same suit and value, not named by a rule, with no card in play between them, trade places.
    Returns (the new state, x, y) or None when there is no such pair."""
    row = state._row
    rem = int(row[L.HAND]) | int(row[L.HAND + 1]) | int(row[L.HAND + 2])
    for i in range(int(row[L.TRICK_N])):
        rem |= 1 << int(row[L.TRICK_CARD + i])
    won = [int(row[L.WON + s]) for s in range(3)]
    pairs = []
    for s in range(3):
        hand = int(row[L.HAND + s])
        for y in range(54):
            if not hand >> y & 1 or NAMED >> y & 1:
                continue
            suit = int(SUIT_MASK_OF_CARD[y])
            for w in range(3):
                for x in range(54):
                    if not won[w] >> x & 1 or not suit >> x & 1 or NAMED >> x & 1 or CARD_VALUES[x] != CARD_VALUES[y]:
                        continue
                    lo, hi = min(x, y), max(x, y)
                    between = rem & suit & ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)
                    if between == 0:
                        pairs.append((s, w, x, y))
    if not pairs:
        return None
    s, w, x, y = rng.choice(pairs)
    other = state.clone()
    r = other._row
    r[L.HAND + s] = (int(r[L.HAND + s]) & ~(1 << y)) | (1 << x)
    r[L.WON + w] = (int(r[L.WON + w]) & ~(1 << x)) | (1 << y)
    for p in range(3):
        if int(r[L.PLAYED_BY + p]) >> x & 1:
            r[L.PLAYED_BY + p] = (int(r[L.PLAYED_BY + p]) & ~(1 << x)) | (1 << y)
    return other, x, y


@pytest.mark.parametrize(("options", "pass_all"), [NORMAL, TRISCHAKEN])
def test_positions_equal_up_to_ranks_have_equal_values(options, pass_all):
    """What the rank-abstracted key relies on: trading a played card for a card in hand of the same suit, value
    and rank place among the cards in play (no named card) leaves every action's value unchanged (the traded
    card's action maps to its twin), by alpha-beta without table, bounds and merging and by the full search."""
    game = _game(options)
    solver = solver_for("dreiertarock")
    rng = random.Random(5)
    checked = 0
    for state in positions(game, 5, pass_all, 60, seed0=23_000):
        swapped = _swap_played(state, rng)
        if swapped is None:
            continue
        other, x, y = swapped
        base = solver.solve(state, merge=False, table=False).action_values
        mapped = {(a if a != L.OFF_PLAY + y else L.OFF_PLAY + x): v for a, v in base.items()}
        assert solver.solve(other, merge=False, table=False).action_values == mapped, state.history()
        assert solver.solve(other).action_values == mapped, state.history()
        checked += 1
    assert checked >= 20


def _final_thirds(row) -> int:
    from tarockrl.engine.pack54 import thirds

    return int(thirds(np.int64(int(row[L.DISCARDS]) | int(row[L.WON + row[L.DECLARER]]))))


@pytest.mark.slow
@pytest.mark.parametrize(("options", "pass_all"), [NORMAL, VARIANTS])
def test_static_bounds_contain_every_play(options, pass_all):
    """Outside Trischaken and Solo Valat, along 30 random play-outs of 80 positions with up to 9 tricks left:
    the sure-tarock bounds (``trump_bounds``) contain the thirds the declarer adds in every play-out; at every
    position with a monotone past, the bonus range (``bonus_range``) contains the settlement less the game item
    (``gtable``) of every play-out, and the root levels contain the settlement."""
    from tarockrl.solvers.adapters import dreiertarock as A

    game = _game(options)
    opts = game.encoded_options
    gt = np.zeros(A.GT_LEN, dtype=np.int64)
    levels = np.zeros(768, dtype=np.int64)
    checked = nontrivial = narrow = 0
    for state in positions(game, 9, pass_all, 80, seed0=24_000):
        row0 = state._row
        if row0[L.CONTRACT] == L.SOLO_VALAT or row0[L.TRISCHAKEN]:
            continue
        d = int(row0[L.DECLARER])
        rng = random.Random(int(row0[L.HAND]) & 0xFFFF)
        glen = int(A.gtable(row0, opts, np.int64(d), np.int64(0), gt))
        nlev = int(A.root_levels(row0, opts, np.int64(d), np.int64(0), levels))
        for _ in range(30):
            s, rows = state.clone(), []
            while not s.is_terminal():
                rows.append(s._row.copy())
                s.apply_action(rng.choice(s.legal_actions()))
            final = s._row
            value = int(final[L.RESULT + d])
            p = _final_thirds(final)
            assert nlev > 0 and value in levels[:nlev], (value, state.history())
            for r in rows:
                lo, hi = (int(x) for x in A.trump_bounds(r, opts))
                f = p - int(A.apast(r, opts))
                assert lo <= f <= hi, (lo, f, hi, state.history())
                nontrivial += lo > 0
                if A.monotone_past(r, np.int64(0)):
                    blo, bhi = (int(x) for x in A.bonus_range(r, opts, np.int64(d)))
                    assert blo <= value - int(gt[min(p, glen - 1)]) <= bhi, (blo, bhi, value, state.history())
                    narrow += blo == bhi
                    checked += 1
    assert checked >= 10_000 and nontrivial >= 5_000 and narrow >= 5_000, (checked, nontrivial, narrow)


@pytest.mark.slow
def test_point_bounds_contain_the_minimax_points():
    """The static bounds the search cuts with (``afmin``/``afmax``: sure tarock tricks plus the plain top cards
    the side on lead can cash) contain the declarer's thirds still to win with best play of both sides (plain
    minimax of the card points), on 60 positions with up to 4 tricks left."""
    from tarockrl.solvers.adapters import dreiertarock as A

    game = _game({})
    opts = game.encoded_options
    k = solver_for("dreiertarock").kernels
    cashing = 0
    for state in positions(game, 4, False, 60, seed0=25_000):
        row = state._row
        if row[L.CONTRACT] == L.SOLO_VALAT:
            continue
        d = int(row[L.DECLARER])
        points = int(k.minimax_plain(row.copy(), opts, np.int64(d), np.int64(1)))  # final points, whole
        f_lo = 3 * points - int(A.apast(row, opts))  # final thirds are a multiple of 3
        assert int(A.afmin(row, opts)) <= f_lo <= int(A.afmax(row, opts)), state.history()
        if row[L.TRICK_N] == 0:
            cashing += int(A._cash(row, row[L.CUR], row[L.DECLARER])) > 0
    assert cashing >= 5
