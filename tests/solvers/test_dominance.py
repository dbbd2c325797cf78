"""Value dominance among equivalent cards in the Dreierles search (docs/solver.md, round "session 27").

Below the root the Dreierles adapter's ``gen`` (with ``merge >= 2``) merges a run of equivalent cards of
different values into one card when the mover's side surely wins the current trick (the most valuable card) or
surely loses it (the least valuable). Checked here:

* ``_sure_outcome`` against every way the trick can end after the mover's card, played through the public API;
* the kept card is worth at least as much to the mover as every card merged into it (plain minimax of each
  child, both objectives), and the merging happens often enough to matter;
* whole solves equal plain minimax on positions at every place in a trick;
* Räuber keeps the plain equal-value merging.
"""

from __future__ import annotations

import numpy as np

from tarockrl.games.dreierles import layout as DL
from tarockrl.solvers import solver_for
from tarockrl.solvers.adapters import dreierles as A
from tests.solvers._minimax import assert_solve_matches_minimax
from tests.solvers.test_search_enhancements import _positions as play_positions


def _positions(tricks: int, count: int, seed0: int, pass_all: bool = False, options: dict | None = None):
    """Play positions with at most ``tricks`` tricks left and any seat on lead, at every place in a trick."""
    return play_positions(tricks, count, pass_all=pass_all, seed0=seed0, options=options, spread=True)


def _trick_winners(state, card: int) -> set[int]:
    """The seats that can take the current trick, in which ``card`` has been played, over every legal way to
    finish it (public API; the pile that gains ``card`` took the trick, even where the game then plays a forced
    last trick on its own)."""
    row = state._row
    for s in range(3):
        if (int(row[DL.WON + s]) >> card) & 1:
            return {s}
    out: set[int] = set()
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out |= _trick_winners(child, card)
    return out


def _gen(row, opts, merge):
    moves = np.zeros(A.MAX_MOVES, dtype=np.int64)
    reps = np.zeros(A.MAX_MOVES, dtype=np.int64)
    n = A.gen(row, opts, moves, reps, np.int64(merge))
    return moves[:n].copy(), reps[:n].copy()


def test_sure_outcome_holds_for_every_end_of_the_trick():
    """Wherever ``_sure_outcome`` claims a win (loss) for the mover's side, every legal end of the trick gives
    the trick to a seat of that side (of the other side); and it claims something at each place in the trick."""
    # [place: the declarer's lead, a defender's lead with the declarer second / third, second card, third card;
    #  outcome + 1]
    claims = np.zeros((5, 3), dtype=np.int64)
    for state in _positions(16, 240, seed0=40_000):
        row = state._row
        if row[DL.RAEUBER] != 0:
            continue
        me, d = int(row[DL.CUR]), int(row[DL.DECLARER])
        n = int(row[DL.TRICK_N])
        for a in state.legal_actions():
            o = int(A._sure_outcome(row, np.int64(a - DL.A_PLAY)))
            place = n + 2 if n else 0 if me == d else 1 if (me + 1) % 3 == d else 2
            claims[place, o + 1] += 1
            if o == 0:
                continue
            child = state.clone()
            child.apply_action(a)
            winners = _trick_winners(child, a - DL.A_PLAY)
            mine = {s for s in winners if (s == d) == (me == d)}
            assert winners, (state.history(), a)
            if o > 0:
                assert mine == winners, (state.history(), a, winners)
            else:
                assert not mine, (state.history(), a, winners)
    assert (claims[:, 0] > 0).all() and (claims[:, 2] > 0).all(), claims  # sure wins and losses everywhere
    assert (claims[:4, 1] > 0).all() and claims[4, 1] == 0, claims  # undecided only where others still play


def test_the_kept_card_is_worth_the_most_to_the_mover():
    """Each card that dominance merges into another is worth no more to the mover's side than the kept card
    (plain minimax of both children, settlement and card points), and dominance merges in many positions."""
    solver = solver_for("dreierles")
    k = solver.kernels
    merged_positions = 0
    for options in ({}, {"counting_method": "exact_thirds"}):
        for state in _positions(4, 90, seed0=50_000, options=options):
            row = state._row
            opts = state.game.encoded_options
            moves, reps = _gen(row.copy(), opts, 2)
            _, plain_reps = _gen(row.copy(), opts, 1)
            if row[DL.RAEUBER] != 0:
                assert list(reps) == list(plain_reps)
                continue
            if list(reps) == list(plain_reps):
                continue
            merged_positions += 1
            root = np.int64(int(row[DL.CUR]))
            for objective in (0, 1):
                values = []
                for a in moves:
                    child = state.clone()
                    child.apply_action(int(a))
                    values.append(int(k.minimax_plain(child._row.copy(), opts, root, np.int64(objective))))
                for i, r in enumerate(reps):
                    assert values[r] >= values[i], (state.history(), objective, moves, reps, values)
    assert merged_positions >= 15, merged_positions
    for state in _positions(4, 12, seed0=55_000, pass_all=True):  # Räuber: equal values only
        row = state._row
        assert row[DL.RAEUBER] != 0
        assert list(_gen(row.copy(), state.game.encoded_options, 2)[1]) == list(
            _gen(row.copy(), state.game.encoded_options, 1)[1])


def test_solves_with_dominance_equal_plain_minimax():
    """Full and value-only solves (dominance below the root, equal-value merging at it) equal plain minimax at
    every place in a trick, the Pfeife in play or not, both counting methods."""
    solver = solver_for("dreierles")
    for options in ({}, {"counting_method": "exact_thirds", "pfeife_announce_timing": "after_knocks"}):
        for state in _positions(5, 12, seed0=60_000, options=options):
            assert_solve_matches_minimax(solver, state)
