"""Payoff-similar table entries of the Dreierles solver (``PAYOFF_SIM``; docs/solver.md, round ps15).

An additive or threshold position is keyed by its structure alone (``skey``: the cards in play in rank order within
each suit, by place, without their counting values). An entry found for a position of the same structure with other
counting values (``pvec``) still bounds this one: over the same play the declarer wins the same cards card for card,
so the rest's points differ by at most what ``pdelta`` gives. Checked here:

* the claim itself, on positions built in pairs: a face card in a hand swapped with one of the same suit in a won
  pile, with no card in play between them (same structure, other values); the exact rest of each, by plain minimax,
  differs within ``pdelta``'s range, and the range is not always zero;
* the search with the similar entries in use keeps every value exact (against alpha-beta without the table and
  without merging), and similar entries are really found.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreierles.cards import CARD_VALUES, SUIT_OF_CARD, TRUMPS
from tarockrl.games.dreierles.rules import O_COUNTING
from tarockrl.solvers import solver_for

from .test_search_enhancements import _positions


def _decl_rest(k, row, opts) -> int:
    """The declarer's card points still to win from ``row`` with best play (plain minimax, objective card
    points), i.e. his final points less ``apast``."""
    mover = int(k.cur(row))
    side_points = int(k.minimax_plain(row.copy(), opts, np.int64(mover), np.int64(1)))
    decl_final = side_points if mover == int(row[DL.DECLARER]) else _TOTAL[int(opts[O_COUNTING])] - side_points
    return decl_final - int(k.apast(row, opts))


_TOTAL = {0: 70, 1: 210}  # all 54 cards' points in groups of three (70) or in exact thirds (210)


def _similar_pairs(count: int, counting: str):
    """(row, similar row, options) with 3-4 tricks left: a jack/cavall/queen/king in a hand (not in the trick)
    swapped with another card of its plain suit in a won pile such that no card in play lies between them in rank
    order. The rows come from default random play; ``counting`` is the counting method the options give (the play
    does not depend on it)."""
    game = tarockrl.make_game("dreierles", counting_method=counting)
    rng = random.Random(5)
    out = []
    for state in _positions(4, 4 * count):
        row = state._row
        if row[DL.DECLARER] < 0:
            continue
        rem = int(row[DL.HAND] | row[DL.HAND + 1] | row[DL.HAND + 2])
        for i in range(int(row[DL.TRICK_N])):
            rem |= 1 << int(row[DL.TRICK_CARD + i])
        won = [int(row[DL.WON + s]) for s in range(3)]
        swaps = []
        for h in range(3):
            hand = int(row[DL.HAND + h])
            for c in range(54):
                if not hand >> c & 1 or (1 << c) & int(TRUMPS):
                    continue
                suit = int(SUIT_OF_CARD[c])
                for s in range(3):
                    for c2 in range(54):
                        if not (won[s] >> c2 & 1) or not (1 << c2) & suit or CARD_VALUES[c2] == CARD_VALUES[c]:
                            continue
                        lo, hi = min(c, c2), max(c, c2)
                        between = rem & suit & (((1 << hi) - 1) ^ ((1 << (lo + 1)) - 1))
                        if between == 0:
                            swaps.append((h, c, s, c2))
        if not swaps:
            continue
        h, c, s, c2 = rng.choice(swaps)
        other = row.copy()
        other[DL.HAND + h] = (int(row[DL.HAND + h]) & ~(1 << c)) | (1 << c2)
        other[DL.WON + s] = (int(row[DL.WON + s]) & ~(1 << c2)) | (1 << c)
        out.append((row.copy(), other, game.encoded_options))
        if len(out) == count:
            break
    assert len(out) == count
    return out


@pytest.mark.parametrize("counting", ["dreierles", "exact_thirds"])
def test_similar_positions_differ_within_pdelta(counting):
    """Same ``skey``, other ``akey`` and ``pvec``; the exact rests differ within ``pdelta`` (both directions), and
    the differences are not all zero."""
    k = solver_for("dreierles").kernels
    assert k.PAYOFF_SIM == 1 and k.TT_COLS == 8
    moved = ranged = 0
    for row, other, opts in _similar_pairs(40, counting):
        assert k.skey(row) == k.skey(other)
        assert k.akey(row) != k.akey(other)
        assert k.pvec(row) != k.pvec(other)
        assert 0 <= k.pvec(row) < 1 << k.PV_BITS  # the two facts' values share the entry's slot 7
        r0 = _decl_rest(k, row, opts)
        r1 = _decl_rest(k, other, opts)
        dlo, dhi = k.pdelta(k.pvec(row), k.pvec(other), other, opts)
        assert dlo <= r1 - r0 <= dhi, (r0, r1, dlo, dhi)
        blo, bhi = k.pdelta(k.pvec(other), k.pvec(row), row, opts)
        assert (blo, bhi) == (-dhi, -dlo)
        moved += r1 != r0
        ranged += dlo < dhi
    assert moved > 0 and ranged == 40


def test_skey_ignores_only_the_counting_values():
    """Along random play, two positions share ``skey`` exactly when they share everything of ``akey`` but the
    counting values: ``akey`` of the position with every plain card in play valued by its place in the suit."""
    k = solver_for("dreierles").kernels
    seen: dict[int, tuple] = {}
    for state in _positions(9, 60):
        row = state._row
        rem = int(row[DL.HAND] | row[DL.HAND + 1] | row[DL.HAND + 2])
        for i in range(int(row[DL.TRICK_N])):
            rem |= 1 << int(row[DL.TRICK_CARD + i])
        places = []
        for c in range(54):
            if rem >> c & 1:
                where = next((h for h in range(3) if int(row[DL.HAND + h]) >> c & 1), None)
                if where is None:
                    where = 3 + next(i for i in range(int(row[DL.TRICK_N])) if int(row[DL.TRICK_CARD + i]) == c)
                special = c in (0, 20, 21)  # the Pfeife, XXI and the Stieß keep their identity
                places.append((int(SUIT_OF_CARD[c]), where, c if special else -1))
        ref = (tuple(places), int(row[DL.CUR]), int(row[DL.LEADER]), int(row[DL.TRICK_N]))
        key = int(k.skey(row))
        if key in seen:
            assert seen[key] == ref
        seen[key] = ref
    refs = {}
    for key, ref in seen.items():
        assert refs.setdefault(ref, key) == key
    assert len(seen) == 60


def test_similar_entries_keep_values_exact():
    """Positions with 5 tricks left, both objectives: every root action's value and the value-only value equal
    alpha-beta without the table and without merging, and the searches found entries of similar positions."""
    sol = solver_for("dreierles")
    similar = 0
    for objective in ("returns", "card_points"):
        for state in _positions(5, 30):
            stats = np.zeros(sol.search_stats_shape(), np.int64)
            ref = sol.solve(state, objective=objective, table=False, merge=False)
            assert sol.solve(state, objective=objective, stats=stats).action_values == ref.action_values
            assert sol.solve(state, objective=objective, value_only=True).value == ref.value
            similar += int(stats[:, 12].sum())
    assert similar > 0
