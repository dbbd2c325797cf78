"""The Dreierles solver's static bounds on the declarer's future pile points against exact minimax.

Every bound the search cuts with must contain the points the declarer adds from the position to the end with best
play of both sides (``afmin``/``afmax`` and their parts: the trick-start bounds ``_start_lo``/``_start_hi``, the
one- and two-play lookaheads ``_third``/``_second``, the defenders' run against a trumpless declarer), checked
against the compiled plain minimax of the card points (no pruning, no table, no merging) on thousands of random
positions with few tricks left, in every phase of a trick, under several rules options. The whole solver is checked
against alpha-beta without table and bounds in tests/solvers/test_solver.py and (slow) below.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreierles.cards import CARD_VALUES, TRUMPS
from tarockrl.games.dreierles.kernels import pile_points
from tarockrl.solvers import solver_for
from tarockrl.solvers._common import cash_tops_followed, trumpless_run
from tarockrl.solvers.adapters import _dreierles_bounds as _B
from tarockrl.solvers.adapters import dreierles as A

OPTION_SETS = [
    {},
    {"counting_method": "exact_thirds"},
    {"pfeife_announce_timing": "after_knocks", "pfeife_defender_loss_scores_declarer": False,
     "knock_doubles_bonuses": True},
]


def _positions(game, tricks: int, count: int, seed0: int, trumpless: bool = False):
    """Random non-Räuber play positions with at most ``tricks`` tricks left, in any phase of a trick (random
    auctions and random play); with ``trumpless`` only positions where the declarer holds no trump."""
    out = []
    seed = seed0
    while len(out) < count and seed < seed0 + 60 * count:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        seed += 1
        stop = rng.randrange(3)
        while not state.is_terminal():
            row = state._row
            if row[DL.PHASE] == DL.PLAY and 16 - row[DL.TRICK_NO] <= tricks:
                if stop == 0:
                    break
                stop -= 1
            state.apply_action(rng.choice(state.legal_actions()))
        row = state._row
        if state.is_terminal() or row[DL.RAEUBER]:
            continue
        if trumpless and row[DL.HAND + row[DL.DECLARER]] & TRUMPS:
            continue
        out.append(state)
    assert len(out) == count
    return out


def _future(kernels, row, opts) -> int:
    """The declarer's pile points from ``row`` to the end with best play of both sides (plain minimax)."""
    d = int(row[DL.DECLARER])
    past = int(pile_points(row[DL.DISCARDS] | row[DL.WON + d], opts))
    return int(kernels.minimax_plain(row.copy(), opts, np.int64(d), np.int64(1))) - past


def _check_all_bounds(row, opts, f):
    """Every bound the adapter has for ``row`` contains the minimax future points ``f``; returns how many of them
    are exact at a side (a measure that the test is not trivial)."""
    lo, hi = int(A.afmin(row, opts)), int(A.afmax(row, opts))
    assert lo <= f <= hi, ("afmin/afmax", lo, f, hi)
    assert int(A._trump_lo(row, opts)) <= f <= int(A._trump_hi(row, opts))
    n = int(row[DL.TRICK_N])
    if n == 0:
        h = row[DL.HAND:DL.HAND + 3]
        s_lo = int(A._start_lo(h[0], h[1], h[2], row[DL.CUR], row[DL.DECLARER], opts))
        s_hi = int(A._start_hi(h[0], h[1], h[2], row[DL.CUR], row[DL.DECLARER], opts))
        assert s_lo <= f <= s_hi, ("start", s_lo, f, s_hi)
    elif n == 1:
        s_lo, s_hi = int(A._second(row, opts, True)), int(A._second(row, opts, False))
        assert s_lo <= f <= s_hi, ("second", s_lo, f, s_hi)
    else:
        s_lo, s_hi = int(A._third(row, opts, True)), int(A._third(row, opts, False))
        assert s_lo <= f <= s_hi, ("third", s_lo, f, s_hi)
    return int(lo == f) + int(hi == f)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "thirds", "pfeife-options"])
def test_bounds_contain_the_minimax_points(options):
    """afmin/afmax and every part of them contain the minimax future points: 700 positions with up to 3 tricks
    left (trick starts, second and third cards; the Pfeife in play or not)."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    exact = 0
    phases = [0, 0, 0]
    pfeife = 0
    for state in _positions(game, 3, 700, seed0=31000 + 1000 * len(options)):
        row = state._row
        f = _future(k, row, opts)
        exact += _check_all_bounds(row, opts, f)
        phases[int(row[DL.TRICK_N])] += 1
        rem = row[DL.HAND] | row[DL.HAND + 1] | row[DL.HAND + 2]
        pfeife += int(rem & 1 != 0)
    assert min(phases) >= 100 and pfeife >= 20, (phases, pfeife)
    assert exact >= 400  # the bounds are often tight


@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=["default", "thirds"])
def test_bounds_against_a_trumpless_declarer(options):
    """The defenders' run of safe cards (``trumpless_run``, in ``_start_hi``): 400 positions with up to 3 tricks
    left where the declarer holds no trump, in every phase of a trick."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    runs = 0
    for state in _positions(game, 3, 400, seed0=52000 + 1000 * len(options), trumpless=True):
        row = state._row
        f = _future(k, row, opts)
        _check_all_bounds(row, opts, f)
        d = int(row[DL.DECLARER])
        if row[DL.TRICK_N] == 0 and row[DL.CUR] != d:
            lead = int(row[DL.CUR])
            r = int(trumpless_run(row[DL.HAND + lead], row[DL.HAND + 3 - d - lead], row[DL.HAND + d],
                                  A.PLAIN_SUITS, np.int64(TRUMPS), A.BY_VALUE))
            scale = 3 if opts[A.O_COUNTING] == 1 else 1
            total = int(pile_points(row[DL.HAND] | row[DL.HAND + 1] | row[DL.HAND + 2], opts))
            assert f <= total - scale * r
            runs += r > 0
    assert runs >= 20


@pytest.mark.slow  # up to 4 tricks left: minimax takes a while
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "thirds", "pfeife-options"])
def test_bounds_contain_the_minimax_points_four_tricks(options):
    """As above with up to 4 tricks left, 500 positions per option set."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    for state in _positions(game, 4, 500, seed0=71000 + 1000 * len(options)):
        _check_all_bounds(state._row, opts, _future(k, state._row, opts))


def test_cash_tops_followed_counts_the_followers_cards():
    """A hand-made case: the leader holds the king and queen of hearts, above the only other hearts, the cavalier
    and the jack held by one follower and two low hearts held by the other; each seat still holds trumps. Two
    tricks: 5 + 4 (the tops) + (3 - 1) + (2 - 1) (the cavalier and jack must follow) + 0 + 0 = 12; with the
    cavalier-and-jack follower holding no trump and no heart the run is not cut by him (a discard counts 1)."""
    hearts = A.PLAIN_SUITS[0]
    cards = [c for c in range(54) if (hearts >> c) & 1]  # 4 3 2 1 J N Q K in index order
    low4, low3, jack, cav, queen, king = cards[0], cards[1], cards[4], cards[5], cards[6], cards[7]
    own = (1 << king) | (1 << queen) | 1 << 5
    a = (1 << cav) | (1 << jack) | 1 << 6
    b = (1 << low4) | (1 << low3) | 1 << 7
    v = int(cash_tops_followed(np.int64(own), np.int64(a), np.int64(b), np.int64(a | b), A.PLAIN_SUITS,
                               CARD_VALUES, False, False))
    assert v == 5 + 4 + 2 + 1
    # the follower with no hearts and no trumps discards: free, so the run still takes two tricks (tops only)
    a2 = np.int64(1 << 40)
    v2 = int(cash_tops_followed(np.int64(own), a2, np.int64(b), np.int64(b | a2), A.PLAIN_SUITS, CARD_VALUES,
                                True, False))
    assert v2 == 5 + 4
    assert int(cash_tops_followed(np.int64(own), a2, np.int64(b), np.int64(b | a2), A.PLAIN_SUITS, CARD_VALUES,
                                  False, False)) == 0


@pytest.mark.slow
def test_solver_with_the_bounds_matches_alpha_beta_without_them():
    """The full solver (table, bounds, merging; settlement, value only and every action) against alpha-beta
    without table and static bounds on 24 positions with up to 6 tricks left (the Pfeife in play in some)."""
    game = tarockrl.make_game("dreierles")
    solver = solver_for("dreierles")
    for state in _positions(game, 6, 24, seed0=91000):
        full = solver.solve(state)
        plain = solver.solve(state, table=False)
        assert full.action_values == plain.action_values
        assert solver.solve(state, value_only=True).value == plain.value


def _trick_starts(game, tricks: int, count: int, seed0: int):
    """Random non-Räuber positions at the start of a trick with ``tricks`` tricks left (random auction and play),
    the declarer on lead in about a third of them."""
    out = []
    seed = seed0
    while len(out) < count and seed < seed0 + 40 * count:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        seed += 1
        while not state.is_terminal():
            row = state._row
            if row[DL.PHASE] == DL.PLAY and row[DL.TRICK_N] == 0 and 16 - row[DL.TRICK_NO] == tricks:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and not state._row[DL.RAEUBER]:
            out.append(state)
    assert len(out) == count
    return out


def _strategy_bounds_against_alpha_beta(options, tricks, count, seed0):
    """``defender_run`` (a defender on lead), ``_lead_hi`` and ``declarer_run`` (the declarer on lead), and
    ``_start_hi``/
    ``_start_lo`` with them, against the exact future points (the solver's alpha-beta without table and static
    bounds, objective card points); returns per rule how often it was below the static bound and how often exact."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    solver = solver_for("dreierles")
    total = int(pile_points(np.int64((1 << 54) - 1), opts))
    scale = 3 if opts[A.O_COUNTING] == 1 else 1
    counts = {"run_below": 0, "run_exact": 0, "lead_below": 0, "lead_exact": 0, "drun_above": 0, "drun_exact": 0}
    for state in _trick_starts(game, tricks, count, seed0):
        row = state._row
        d, lead = int(row[DL.DECLARER]), int(row[DL.CUR])
        value = solver.solve(state, objective="card_points", table=False).value
        f = (value if lead == d else total - value) - int(A.apast(row, opts))
        h = [row[DL.HAND + s] for s in range(3)]
        static = int(A._start_hi_static(h[0], h[1], h[2], lead, d, opts))
        assert static >= f
        assert int(A._start_lo(h[0], h[1], h[2], lead, d, opts)) <= f <= int(A._start_hi(h[0], h[1], h[2], lead, d,
                                                                                             opts))
        if lead == d:
            b = int(A._lead_hi(h[0], h[1], h[2], d, opts, np.int64(1 << 40)))
            key = "lead"
            lo = scale * int(_B.declarer_run(h[d], h[(d + 1) % 3], h[(d + 2) % 3]))
            assert lo <= f, ("declarer_run", lo, f)
            counts["drun_above"] += lo > scale * int(A._sure(h[d] & np.int64(TRUMPS), (h[0] | h[1] | h[2]) & ~h[d]
                                                             & np.int64(TRUMPS), np.int64(1), False))
            counts["drun_exact"] += lo == f
        else:
            b = scale * int(_B.defender_run(h[lead], h[3 - d - lead], h[d]))
            key = "run"
        assert b >= f, (key, b, f)
        counts[key + "_below"] += b < static
        counts[key + "_exact"] += b == f
    return counts


@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=["default", "thirds"])
def test_strategy_bounds_against_exact_points(options):
    """The strategy bounds of ``_dreierles_bounds`` (the defenders' run of safe and covered leads; the declarer's
    lead answered by a fixed reply, then that run) never fall below the exact future points: 300 trick starts with
    5 tricks left. They are often below the static bound and often exact (so a wrong rule would show)."""
    c = _strategy_bounds_against_alpha_beta(options, 5, 300, 123000 + 1000 * len(options))
    assert c["run_below"] >= 40 and c["lead_below"] >= 15, c
    assert c["run_exact"] >= 40 and c["lead_exact"] >= 15, c
    assert c["drun_above"] >= 10 and c["drun_exact"] >= 10, c


@pytest.mark.slow
@pytest.mark.parametrize("tricks", [2, 3, 4, 6, 7])
def test_strategy_bounds_against_exact_points_more_tricks(tricks):
    """As above with 2, 3, 4, 6 and 7 tricks left (400 trick starts each, default options)."""
    c = _strategy_bounds_against_alpha_beta({}, tricks, 400, 140000 + 1000 * tricks)
    assert c["run_below"] >= 20, c


@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=["default", "thirds"])
def test_third_card_bound_skipped_is_implied_by_the_second_cards(options):
    """``IMPLIED_SKIP``: where the search skips a bound at the third card of a trick (``_implied``), it is implied
    by the second card's two-plays-ahead bound (``_second``): after the declarer's second card each child's
    ``_third`` lower bound is at most the parent's, after a defender's each child's upper bound at least the
    parent's (with ``SECOND_HI``); so where the parent's bound did not cut a zero window, the child's cannot either.
    Checked on the second-card positions among 2,000 random positions (up to 4 tricks left); the every-play trump
    bound the search uses in its place contains the minimax points."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    skipped = [0, 0]
    strict = 0
    for state in _positions(game, 4, 2000, seed0=161000 + 1000 * len(options)):
        row = state._row
        if row[DL.TRICK_N] != 1:
            continue
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            c = child._row
            assert c[DL.TRICK_N] == 2
            for lower in (True, False):
                if not A._implied(c, lower):
                    continue
                parent = int(A._second(row, opts, lower))
                v = int(A._third(c, opts, lower))
                assert (v <= parent) if lower else (v >= parent), (lower, v, parent)
                strict += v != parent
                skipped[int(lower)] += 1
                if skipped[int(lower)] % 10 == 0:
                    f = _future(k, c, opts)
                    assert int(A.afmin(c, opts)) <= f <= int(A.afmax(c, opts))
    assert skipped[1] >= 300 and (skipped[0] >= 300 or not A.SECOND_HI) and strict >= 20, (skipped, strict)


@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=["default", "thirds"])
def test_bounds_told_where_they_cut_give_the_same_cuts(options):
    """``BOUND_NEED``: ``afmin_need(row, need)`` reaches ``need`` exactly when ``afmin`` does, ``afmax_need(row,
    lim)`` stays at or below ``lim`` exactly when ``afmax`` does (so the search cuts the same windows), and both
    still contain the minimax points. Thresholds around the bounds and the exact points, on 600 positions with up
    to 4 tricks left in every phase of a trick; the early stops must change the returned value often (else the
    test would not see them)."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    stopped = [0, 0, 0]
    run = 0  # trick starts where the declarer's run (``STRATEGY_LO_START``) raises ``afmin``
    for state in _positions(game, 4, 600, seed0=181000 + 1000 * len(options)):
        row = state._row
        f = _future(k, row, opts)
        lo, hi = int(A.afmin(row, opts)), int(A.afmax(row, opts))
        assert lo <= f <= hi
        if row[DL.TRICK_N] == 0:
            h = row[DL.HAND:DL.HAND + 3]
            run += lo > int(A._start_lo(h[0], h[1], h[2], row[DL.CUR], row[DL.DECLARER], opts))
        for t in {lo - 1, lo, lo + 1, f - 1, f, f + 1, hi - 1, hi, hi + 1, -1, 0, 1 << 40}:
            a = int(A.afmin_need(row, opts, np.int64(t)))
            assert a <= f and (a >= t) == (lo >= t), ("afmin_need", t, a, lo, f)
            b = int(A.afmax_need(row, opts, np.int64(t)))
            assert b >= f and (b <= t) == (hi <= t), ("afmax_need", t, b, hi, f)
            if (a != lo and a >= t) or (b != hi and b <= t):
                stopped[int(row[DL.TRICK_N])] += 1
    assert min(stopped) >= 10, stopped
    assert run >= 5 or not A.STRATEGY_LO_START, run


@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=["default", "thirds"])
def test_sure_trump_tricks_count_the_cards_they_capture(options):
    """``SURE_FOLLOWERS``: the sure trump tricks also count the other side's cards in them (``_start_lo`` with a
    defender on lead: each defender's ``u`` least valuable cards for the declarer's ``u`` unbeaten trumps;
    ``_start_hi_static`` with the declarer on lead: his ``ceil(u / 2)`` least valuable cards for the defenders'
    ``u``). Both contain the exact future points (the solver's alpha-beta without table and static bounds) on 900
    trick starts with 3, 4 and 5 tricks left, and each is often strictly tighter than the sure trumps' values alone
    (so a wrong count would show)."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    solver = solver_for("dreierles")
    total = int(pile_points(np.int64((1 << 54) - 1), opts))
    scale = 3 if opts[A.O_COUNTING] == 1 else 1
    tighter = [0, 0]
    for tricks in (3, 4, 5):
        for state in _trick_starts(game, tricks, 300, 211000 + 1000 * tricks + 100 * len(options)):
            row = state._row
            d, lead = int(row[DL.DECLARER]), int(row[DL.CUR])
            value = solver.solve(state, objective="card_points", table=False).value
            f = (value if lead == d else total - value) - int(A.apast(row, opts))
            h = [row[DL.HAND + s] for s in range(3)]
            mine = h[d] & np.int64(TRUMPS)
            theirs = (h[0] | h[1] | h[2]) & ~h[d] & np.int64(TRUMPS)
            lo = int(A._start_lo(h[0], h[1], h[2], lead, d, opts))
            hi = int(A._start_hi_static(h[0], h[1], h[2], lead, d, opts))
            assert lo <= f <= hi, (lo, f, hi)
            if lead != d and mine:
                tighter[0] += lo > scale * int(A._sure(mine, theirs, np.int64(1), False))
            if lead == d and theirs:
                rest = int(pile_points(h[0] | h[1] | h[2], opts))
                tighter[1] += hi < rest - scale * int(A._sure(theirs, mine, np.int64(2), True))
    assert min(tighter) >= 10 or not A.SURE_FOLLOWERS, tighter



def _bonus_descents(game, seeds, count, rng_seed, lefts):
    """Random descents from the whole benchmark deals ``seeds`` to ``lefts`` tricks left, at any card of a trick,
    with the Pfeife still in a hand."""
    from tarockrl.solvers.bench import _position

    out = []
    for seed in seeds:
        base = _position(game, seed, 16)
        for i in range(count):
            rng = random.Random(rng_seed + 1000 * seed + i)
            left = rng.choice(lefts)
            trick_n = rng.randrange(3)
            s = base.clone()
            while not s.is_terminal() and (16 - s._row[DL.TRICK_NO] > left or s._row[DL.TRICK_N] != trick_n):
                s.apply_action(rng.choice(s.legal_actions()))
            if s.is_terminal() or not any(s._row[DL.HAND + x] & 1 for x in range(3)):
                continue
            out.append(s)
    return out


def _bonus_deals(game, count):
    """Random deals (random auctions and play, no Räuber) to 3 tricks left, at any card of a trick, with the Pfeife
    still in a hand: of ``count`` deals, those that get there."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        s = game.new_initial_state(seed=seed)
        trick_n = rng.randrange(3)
        while not s.is_terminal() and not (s._row[DL.PHASE] == DL.PLAY and 16 - s._row[DL.TRICK_NO] <= 3
                                           and s._row[DL.TRICK_N] == trick_n):
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal() or s._row[DL.RAEUBER] or not any(s._row[DL.HAND + x] & 1 for x in range(3)):
            continue
        out.append(s)
    return out


def _ends(k, s, opts, memo):
    """Every end of play below ``s``: the set of (the declarer's final pile points, the end's value for seat 0, for
    seat 1, for seat 2)."""
    key = bytes(s._row)
    if key in memo:
        return memo[key]
    if s.is_terminal():
        end = s._row
        out = {(int(k.apast(end, opts)), *(int(k.minimax_plain(end.copy(), opts, np.int64(r), np.int64(0)))
                                            for r in range(3)))}
    else:
        out = set()
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            out |= _ends(k, c, opts, memo)
    memo[key] = out
    return out


def _check_bonus_ranges(k, s, opts, memo):
    """Checks ``bonus_range`` at ``s`` and every node below it where the Pfeife is still in a hand: every end of
    play below the node ends with a bonus (its value less the node's ``gtable`` of its points) within the range.
    Returns (nodes checked, nodes where an end reaches a non-zero end of the range)."""
    checked = extreme = 0
    row = s._row
    if not s.is_terminal() and any(row[DL.HAND + x] & 1 for x in range(3)):
        ends = _ends(k, s, opts, memo)
        for root in range(3):
            lo, hi = (int(x) for x in k.bonus_range(row, opts, np.int64(root)))
            gt = np.zeros(k.GT_LEN, dtype=np.int64)
            k.gtable(row, opts, np.int64(root), np.int64(0), gt)
            bs = {e[1 + root] - int(gt[e[0]]) for e in ends}
            assert lo <= min(bs) and max(bs) <= hi, (lo, sorted(bs), hi)
            checked += 1
            extreme += (lo != 0 and lo in bs) + (hi != 0 and hi in bs)
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            n1, n2 = _check_bonus_ranges(k, c, opts, memo)
            checked += n1
            extreme += n2
    return checked, extreme


@pytest.mark.parametrize("options", [{}, {"pfeife_defender_loss_scores_declarer": False,
                                          "knock_doubles_bonuses": True}], ids=["default", "pfeife-options"])
def test_bonus_range_contains_every_bonus_of_every_play(options):
    """``bonus_range`` is a range over every play (it is combined with minimax bounds on the points): at random
    descents from whole benchmark deals with the Pfeife in a hand (3 tricks left, any card of a trick) and at every
    node below them with the Pfeife in a hand, every end of play (all of them enumerated) ends with a bonus within
    the range. Counts the nodes where the rules of ``PFB_SURE_WIN`` narrow the range, so that the test is not
    trivial."""
    game = tarockrl.make_game("dreierles", **options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    checked = extreme = narrowed = 0
    memo = {}
    for s in [*_bonus_descents(game, (4, 8, 10, 11, 13, 17, 19), 80, 17, (3,)), *_bonus_deals(game, 3000)]:
        n1, n2 = _check_bonus_ranges(k, s, opts, memo)
        checked += n1
        extreme += n2
        row = s._row
        d = int(row[DL.DECLARER])
        holder = [x for x in range(3) if row[DL.HAND + x] & 1][0]
        others = sum(int(row[DL.HAND + x]) for x in range(3) if x != holder)
        narrowed += (others & TRUMPS) == 0 or (holder != d and (row[DL.HAND + d] & TRUMPS) == 0)
    assert checked >= 10000 and extreme >= 1000 and narrowed >= 50, (checked, extreme, narrowed)
