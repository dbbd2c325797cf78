"""The open-hand solver against plain minimax, on random play positions of every game and several option sets.

Two references: a plain minimax in Python over the public State API only (``clone``, ``apply_action``,
``legal_actions``, ``returns``; no pruning, no table, no merging) on positions with up to 3-4 tricks left, and
the same plain minimax compiled in the solver's kernels (``minimax_plain``) on positions with up to 5 tricks
left (4 in Troccas). Sides are read from the rules (declarer, Räuber/Trischaken, teams), independently of the
solver's adapters.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import GameOverError
from tarockrl.games.dreierles import layout as DL
from tarockrl.games.dreiertarock import layout as TL
from tarockrl.games.tatteln import layout as AL
from tarockrl.games.troccas import layout as RL
from tarockrl.solvers import STATS_COLUMNS, NotInPlayError, SearchLimitError, Solver, solve, solver_for

# (game, options, pass in the auction: forces Räuber / Trischaken)
CONFIGS = [
    ("dreierles", {}, False),
    ("dreierles", {"counting_method": "exact_thirds", "pfeife_announce_timing": "after_knocks"}, False),
    ("dreierles", {}, True),  # Räuber
    ("dreierles", {"raeuber_restrictions": "iffezheim"}, True),
    ("dreiertarock", {}, False),
    ("dreiertarock", {"kaiserstich": True, "valat_factor": 0}, False),
    ("dreiertarock", {"all_pass_rule": "trischaken"}, True),  # Trischaken
    ("troccas", {}, False),
    ("troccas", {"knock_enabled": True, "double_lead_enabled": True, "must_overtrump": True}, False),
    ("tatteln", {}, False),
    ("tatteln", {"final_must_head": True, "final_must_trump": True, "deck_size": 36, "hand_size": 8}, False),
]
IDS = [f"{g}-{i}" for i, (g, _, _) in enumerate(CONFIGS)]
# the solver kernels of a game compile on first use (minutes on a busy machine): only Dreierles runs in the
# default suite; the other games' cases and the compiled-minimax comparison are marked slow
# (python -m pytest -m slow tests/solvers)
CASES = [pytest.param(*c, id=i, marks=() if c[0] == "dreierles" else pytest.mark.slow) for c, i in zip(CONFIGS, IDS)]
TWO_SIDED = [pytest.param(*c, id=i, marks=() if c[0] == "dreierles" else pytest.mark.slow)
             for c, i in zip(CONFIGS, IDS) if not c[2]]


def _in_play(state) -> bool:
    row, name = state._row, state.game.name
    if name == "dreierles":
        return row[DL.PHASE] == DL.PLAY
    if name == "dreiertarock":
        return row[TL.PHASE] == TL.PLAY
    if name == "troccas":
        return row[RL.PHASE] in (RL.PLAY, RL.BUOB)
    return row[AL.PHASE] != AL.TERMINAL


def _tricks_left(state) -> int:
    row, name = state._row, state.game.name
    if name == "dreierles":
        return 16 - int(row[DL.TRICK_NO])
    if name == "dreiertarock":
        return 16 - int(row[TL.TRICK_NO])
    if name == "troccas":
        return 19 - int(row[RL.TRICK_NO])
    return state.game.options["deck_size"] // 2 - int(row[AL.TRICKS])


def _auction_pass(state) -> int | None:
    row, name = state._row, state.game.name
    if name == "dreierles" and row[DL.PHASE] == DL.AUCTION:
        return DL.A_PASS
    if name == "dreiertarock" and row[TL.PHASE] == TL.AUCTION and TL.A_PASS in state.legal_actions():
        return TL.A_PASS
    return None


def position(game, seed: int, tricks: int, pass_all: bool):
    """A random play position with at most ``tricks`` tricks left (maybe mid-trick), or None."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    extra = rng.randrange(3)
    while not state.is_terminal():
        if _in_play(state) and _tricks_left(state) <= tricks:
            if extra == 0:
                return state
            extra -= 1
        a = _auction_pass(state) if pass_all else None
        if a is None:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
    return None


def positions(game, tricks: int, pass_all: bool, count: int, seed0: int = 0):
    out, seed = [], seed0
    while len(out) < count and seed < seed0 + 40 * count:
        s = position(game, seed, tricks, pass_all)
        if s is not None:
            out.append(s)
        seed += 1
    assert len(out) == count
    return out


def same_side(state, seat: int, root: int) -> bool:
    """Whether ``seat`` plays on ``root``'s side (paranoid: only root itself), from the rules."""
    row, name = state._row, state.game.name
    if name == "dreierles":
        if row[DL.RAEUBER]:
            return seat == root
        d = row[DL.DECLARER]
        return (seat == d) == (root == d)
    if name == "dreiertarock":
        if row[TL.TRISCHAKEN]:
            return seat == root
        d = row[TL.DECLARER]
        return (seat == d) == (root == d)
    if name == "troccas":
        return seat % 2 == root % 2
    return seat == root


def leaf(state, root: int, objective: str) -> int:
    """The value of a finished deal for root's side (settlement sum of the side; card points)."""
    name, row = state.game.name, state._row
    if objective == "card_points":
        if name == "troccas":
            return int(row[RL.POINTS + root % 2])
        if name == "tatteln":
            from tarockrl.games.tatteln.kernels import pile_points

            return int(pile_points(row, np.int64(root), state.game.encoded_options))
        layout = DL if name == "dreierles" else TL
        return int(row[layout.POINTS + root])
    r = state.returns()
    if name in ("troccas", "tatteln"):
        return int(r[root])
    return int(sum(r[s] for s in range(3) if same_side(state, s, root)))


def py_minimax(state, root: int, objective: str) -> int:
    """Plain minimax over the public API: no pruning, no table, no merging."""
    if state.is_terminal():
        return leaf(state, root, objective)
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        values.append(py_minimax(child, root, objective))
    return max(values) if same_side(state, state.current_player(), root) else min(values)


def _game(name, options):
    return tarockrl.make_game(name, **options)


@pytest.mark.parametrize(("name", "options", "pass_all"), CASES)
def test_solver_matches_python_minimax(name, options, pass_all):
    game = _game(name, options)
    tricks = 3 if name == "troccas" else 4 if name == "tatteln" else 3
    for state in positions(game, tricks, pass_all, 4, seed0=100):
        before = state.to_bytes()
        root = state.current_player()
        for objective in ("returns", "card_points"):
            result = solve(state, objective=objective)
            assert state.to_bytes() == before
            assert sorted(result.action_values) == state.legal_actions()
            for a, v in result.action_values.items():
                child = state.clone()
                child.apply_action(a)
                assert v == py_minimax(child, root, objective), (objective, a)
            assert result.value == py_minimax(state, root, objective)
            assert result.action_values[result.best_action] == result.value
            assert result.nodes > 0


@pytest.mark.slow  # compiles the plain minimax entry point (a minute on a busy machine)
@pytest.mark.parametrize(("name", "options", "pass_all"), CASES)
def test_solver_matches_kernel_minimax(name, options, pass_all):
    """Up to 5 tricks left (4 in Troccas), against the compiled plain minimax; merging on and off agree."""
    game = _game(name, options)
    solver = solver_for(name)
    k = solver.kernels
    tricks = 4 if name == "troccas" else 5
    for state in positions(game, tricks, pass_all, 3, seed0=300):
        root = state.current_player()
        opts = game.encoded_options
        plain = int(k.minimax_plain(state._row.copy(), opts, np.int64(root), np.int64(0)))
        merged = solver.solve(state)
        unmerged = solver.solve(state, merge=False)
        assert merged.value == plain == unmerged.value
        assert merged.action_values == unmerged.action_values
        assert unmerged.nodes >= 1


@pytest.mark.parametrize(("name", "options", "pass_all"), TWO_SIDED)
def test_principal_variation_keeps_the_value(name, options, pass_all):
    """Two-sided play: playing the best action keeps the value (negated when the mover's side changes)."""
    game = _game(name, options)
    for state in positions(game, 4, pass_all, 2, seed0=500):
        root = state.current_player()
        value = solve(state).value
        s = state.clone()
        while not s.is_terminal():
            r = solve(s)
            v = r.value if same_side(s, s.current_player(), root) else -r.value
            assert v == value
            s.apply_action(r.best_action)
        assert leaf(s, root, "returns") == value


def test_bad_inputs():
    game = tarockrl.make_game("dreierles")
    fresh = game.new_initial_state(seed=1)
    with pytest.raises(NotInPlayError, match="auction"):
        solve(fresh)
    state = positions(game, 6, False, 1, seed0=7)[0]
    before = state.to_bytes()
    with pytest.raises(SearchLimitError):
        solve(state, max_nodes=5)
    with pytest.raises(ValueError, match="objective"):
        solve(state, objective="tricks")
    with pytest.raises(ValueError, match="max_nodes"):
        solve(state, max_nodes=0)
    with pytest.raises(TypeError):
        solve("not a state")
    assert state.to_bytes() == before
    end = state.clone()
    while not end.is_terminal():
        end.apply_action(end.legal_actions()[0])
    with pytest.raises(GameOverError):
        solve(end)
    with pytest.raises(Exception, match="this solver is for"):
        Solver("dreiertarock").solve(state)
    with pytest.raises(Exception, match="no solver"):
        Solver("chess")


def test_every_adapter_imports():
    """The adapters import the games' kernels by name: a renamed kernel must fail here, without compiling."""
    import importlib

    for name in ("dreierles", "dreiertarock", "troccas", "tatteln"):
        module = importlib.import_module(f"tarockrl.solvers.adapters.{name}")
        for attr in ("in_play", "is_over", "cur", "side", "paranoid", "leaf", "gen", "key", "hint", "apply",
                     "additive", "akey", "apast", "gtable", "afmin", "afmax", "bonus_range", "monotone_past",
                     "COPY_LEN", "MAX_DEPTH", "MAX_MOVES"):
            assert hasattr(module, attr), (name, attr)
        game = tarockrl.make_game(name)
        assert module.NUM_PLAYERS == game.num_players
        assert module.NUM_ACTIONS >= game.num_actions
        assert module.COPY_LEN <= game.definition.state_len


@pytest.mark.slow
@pytest.mark.parametrize("options", [{"hand_size": 8}, {"hand_size": 8, "rob_enabled": False, "no_trump": True}])
def test_tatteln_stock_phase(options):
    """Stock-phase positions (draws from the known stock ahead): the table search agrees with alpha-beta without
    the table, and the value holds along the principal variation down to the settlement."""
    game = tarockrl.make_game("tatteln", **options)
    solver = solver_for("tatteln")
    checked = 0
    for state in positions(game, 10, False, 2, seed0=900):
        assert state._row[AL.PHASE] == AL.STOCK_PHASE
        root = state.current_player()
        with_table = solver.solve(state)
        without = solver.solve(state, table=False)
        assert with_table.action_values == without.action_values
        s = state.clone()
        while not s.is_terminal():
            r = solver.solve(s)
            assert (r.value if s.current_player() == root else -r.value) == with_table.value
            s.apply_action(r.best_action)
        assert leaf(s, root, "returns") == with_table.value
        checked += 1
    assert checked == 2


@pytest.mark.parametrize(("options", "pass_all"), [({}, False), ({"counting_method": "exact_thirds",
                                                                  "pfeife_announce_timing": "after_knocks"}, False),
                                                   ({}, True)])
def test_pruning_keeps_every_value(options, pass_all):
    """Dreierles, 40 random positions with up to 4 tricks left (the Pfeife in play or not, Räuber): the full
    search (rank-abstracted table keys, thresholds on the points so far, static bounds from sure top trumps
    and the Pfeife bonus range, equivalent cards, two-slot table) gives every action the value of alpha-beta
    without table, bounds and merging."""
    game = _game("dreierles", options)
    solver = solver_for("dreierles")
    pfeife_in_play = 0
    for state in positions(game, 4, pass_all, 40, seed0=2000):
        row = state._row
        pfeife_in_play += int(any((row[DL.HAND + s] & 1) != 0 for s in range(3)))
        for objective in ("returns", "card_points"):
            full = solver.solve(state, objective=objective)
            plain = solver.solve(state, objective=objective, merge=False, table=False)
            assert full.action_values == plain.action_values, (objective, state.history())
    assert pass_all or pfeife_in_play >= 5  # (Räuber: the Pfeife goes by trick 3)


@pytest.mark.parametrize(("options", "pass_all"), [({}, False), ({"counting_method": "exact_thirds",
                                                                  "pfeife_announce_timing": "after_knocks"}, False),
                                                   ({}, True)])
def test_value_only_gives_the_value_and_a_best_action(options, pass_all):
    """Dreierles, random positions with up to 5 tricks left (any point of a trick): ``value_only`` gives the
    full solve's value and one action whose exact value (from the full solve) is that value, with fewer or as
    many nodes; a tiny table (many overwritten entries) does the same."""
    game = _game("dreierles", options)
    solver = solver_for("dreierles")
    small = Solver("dreierles", table_bits=8)
    for state in positions(game, 5, pass_all, 25, seed0=3000):
        for objective in ("returns", "card_points"):
            full = solver.solve(state, objective=objective)
            for s in (solver, small):
                r = s.solve(state, objective=objective, value_only=True)
                assert r.value_only and r.value == full.value, (objective, state.history())
                assert list(r.action_values) == [r.best_action] and r.action_values[r.best_action] == r.value
                assert full.action_values[r.best_action] == full.value, (objective, state.history())
            assert solver.solve(state, objective=objective, value_only=True).nodes <= full.nodes


@pytest.mark.parametrize("options", [{}, {"pfeife_defender_loss_scores_declarer": True,
                                          "pfeife_announce_timing": "after_knocks"}])
def test_threshold_entries_across_thresholds(options):
    """Dreierles, 6 tricks left with the Pfeife in play (threshold entries keyed by the position alone, shared by
    the zero-window searches of every threshold; the last card of a trick kept out of the table; the last trick
    played out; static bounds at every node with the Pfeife bonus range narrowed by where the Pfeife lies): every
    action's value equals alpha-beta without table, bounds and merging, and a tiny table (heavy replacement,
    entries of earlier solves in the way) gives the same values."""
    game = _game("dreierles", options)
    solver = solver_for("dreierles")
    tiny = Solver("dreierles", table_bits=8)
    checked = 0
    for state in positions(game, 6, False, 80, seed0=3000):
        row = state._row
        if not any((row[DL.HAND + s] & 1) != 0 for s in range(3)) or _tricks_left(state) < 5:
            continue
        full = solver.solve(state)
        plain = solver.solve(state, merge=False, table=False)
        assert full.action_values == plain.action_values, state.history()
        assert tiny.solve(state).action_values == full.action_values, state.history()
        checked += 1
    assert checked >= 12


def test_raeuber_keys_by_pile_points():
    """Räuber, 5-6 tricks left: the table keys each seat's pile points so far (not its card count and value sum);
    every action's value (both objectives) equals alpha-beta without table, bounds and merging."""
    game = _game("dreierles", {})
    solver = solver_for("dreierles")
    checked = 0
    for state in positions(game, 6, True, 12, seed0=4000):
        assert state._row[DL.RAEUBER] != 0
        if _tricks_left(state) < 5:
            continue
        for objective in ("returns", "card_points"):
            full = solver.solve(state, objective=objective)
            plain = solver.solve(state, objective=objective, merge=False, table=False)
            assert full.action_values == plain.action_values, (objective, state.history())
        checked += 1
    assert checked >= 8


def _declarer_future_range(row, opts):
    """Least and most pile points the declarer adds from ``row`` to the end over *every* legal play sequence
    (exhaustive, no pruning; both sides cooperating), from the game's own kernels."""
    from tarockrl.games.dreierles.kernels import pile_points, play_legal, step

    def final(r):
        d = r[DL.DECLARER]
        return int(pile_points(r[DL.DISCARDS] | r[DL.WON + d], opts))

    lo, hi = 10**9, -(10**9)
    stack = [row.copy()]
    while stack:
        r = stack.pop()
        if r[DL.PHASE] == DL.TERMINAL:
            p = final(r)
            lo, hi = min(lo, p), max(hi, p)
            continue
        legal = int(play_legal(r, opts))
        while legal:
            c = (legal & -legal).bit_length() - 1
            legal &= legal - 1
            child = r.copy()
            step(child, np.int64(DL.A_PLAY + c), opts)
            stack.append(child)
    d = row[DL.DECLARER]
    past = int(pile_points(row[DL.DISCARDS] | row[DL.WON + d], opts))
    return lo - past, hi - past


@pytest.mark.parametrize("options", [{}, {"counting_method": "exact_thirds"}])
def test_sure_trump_bounds_never_exclude_a_play(options):
    """Dreierles (not Räuber): the bounds on the declarer's points still to win from sure trump tricks
    (``trump_bounds``: his trumps that no defender trump above them can join; all points in play less the
    defenders' trumps that no declarer trump above them can join, matched greedily) contain the points of every
    legal play sequence: exhaustively on 60 positions with up to 2 tricks left, and over 40 random play-outs of
    each of 60 positions with up to 9 tricks left (many trumps still in play, so the matchings are not
    trivial)."""
    from tarockrl.games.dreierles.kernels import pile_points
    from tarockrl.solvers.adapters.dreierles import trump_bounds

    game = _game("dreierles", options)
    opts = game.encoded_options
    nontrivial = 0
    for state in positions(game, 2, False, 60, seed0=5000):
        row = state._row
        if row[DL.RAEUBER]:
            continue
        lo, hi = _declarer_future_range(row, opts)
        fmin, fmax = trump_bounds(row, opts)
        assert fmin <= lo and hi <= fmax, state.history()
    for state in positions(game, 9, False, 60, seed0=6000):
        row = state._row
        if row[DL.RAEUBER]:
            continue
        fmin, fmax = (int(x) for x in trump_bounds(row, opts))
        nontrivial += fmin > 0
        d = int(row[DL.DECLARER])
        rng = random.Random(int(row[DL.HAND]) & 0xFFFF)
        p0 = int(pile_points(row[DL.DISCARDS] | row[DL.WON + d], opts))
        for _ in range(40):
            s = state.clone()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            f = int(pile_points(s._row[DL.DISCARDS] | s._row[DL.WON + d], opts)) - p0
            assert fmin <= f <= fmax, (f, fmin, fmax, state.history())
    assert nontrivial >= 10


@pytest.mark.parametrize("options", [{}, {"counting_method": "exact_thirds"}])
def test_static_point_bounds_contain_the_minimax_points(options):
    """Dreierles (not Räuber): the static bounds the search cuts with (``afmin``/``afmax``: sure trump tricks,
    plus the plain top cards the side on lead can cash) contain the declarer's points still to win with best
    play of both sides (plain minimax of the card points, no pruning), on 80 positions with up to 4 tricks left
    (at trick starts and inside tricks)."""
    from tarockrl.games.dreierles.kernels import pile_points
    from tarockrl.solvers.adapters.dreierles import _cash, afmax, afmin

    game = _game("dreierles", options)
    opts = game.encoded_options
    k = solver_for("dreierles").kernels
    cashing = 0
    for state in positions(game, 4, False, 80, seed0=7000):
        row = state._row
        if row[DL.RAEUBER]:
            continue
        d = int(row[DL.DECLARER])
        p0 = int(pile_points(row[DL.DISCARDS] | row[DL.WON + d], opts))
        f = int(k.minimax_plain(row.copy(), opts, np.int64(d), np.int64(1))) - p0
        assert afmin(row, opts) <= f <= afmax(row, opts), (f, state.history())
        if row[DL.TRICK_N] == 0:
            cashing += _cash(row, row[DL.CUR], row[DL.DECLARER]) > 0
    assert cashing >= 5


def _pfeife_delta(final_row, opts):
    """The Pfeife bonus of a finished deal in the declarer's settlement, relative to ``gtable`` (which holds the
    failed announced bonus, or none when silent), from the game's own ``pfeife_outcome``."""
    from tarockrl.games.dreierles.kernels import pfeife_outcome
    from tarockrl.games.dreierles.rules import O_KNOCK_DOUBLES_BONUSES

    side, value = pfeife_outcome(final_row, opts)
    bm = (1 << int(final_row[DL.KNOCKS])) if opts[O_KNOCK_DOUBLES_BONUSES] != 0 else 1
    if final_row[DL.ANNOUNCED] == 1:
        return 4 * int(value) * bm if side == 1 else 0
    return 2 * int(value) * bm * int(side)


@pytest.mark.parametrize("options", [{}, {"pfeife_defender_loss_scores_declarer": True,
                                          "pfeife_announce_timing": "after_knocks", "knock_doubles_bonuses": True}])
def test_pfeife_bonus_range_contains_every_play(options):
    """Dreierles with the Pfeife in play: the bonus range the search cuts with (``bonus_range``, narrowed when a
    seat holds trumps only) contains the Pfeife bonus of every legal play sequence: at every position of 30
    random play-outs from each of 150 positions with up to 8 tricks left, and exhaustively from positions with
    up to 2 tricks left."""
    from tarockrl.solvers.adapters.dreierles import bonus_range

    game = _game("dreierles", options)
    opts = game.encoded_options
    checked = trumps_only = 0

    def check(row, final):
        nonlocal checked, trumps_only
        if not any(row[DL.HAND + s] & 1 for s in range(3)) and row[DL.TRICK_NO] < 15:
            return
        d = int(row[DL.DECLARER])
        lo, hi = (int(x) for x in bonus_range(row, opts, np.int64(d)))
        delta = _pfeife_delta(final, opts)
        assert lo <= delta <= hi, (lo, hi, delta)
        checked += 1
        trumps_only += any(row[DL.HAND + s] and not row[DL.HAND + s] & ~((1 << 22) - 1) for s in range(3))

    for tricks, count, playouts in ((8, 150, 30), (2, 80, 0)):
        for state in positions(game, tricks, False, count, seed0=8000 + tricks):
            row = state._row
            if row[DL.RAEUBER] or not any(row[DL.HAND + s] & 1 for s in range(3)):
                continue
            if playouts:
                rng = random.Random(int(row[DL.HAND]) & 0xFFFF)
                for _ in range(playouts):
                    s, rows = state.clone(), []
                    while not s.is_terminal():
                        rows.append(s._row.copy())
                        s.apply_action(rng.choice(s.legal_actions()))
                    for r in rows:
                        check(r, s._row)
            else:
                stack = [state.clone()]
                while stack:
                    s = stack.pop()
                    if s.is_terminal():
                        check(row, s._row)
                        continue
                    for a in s.legal_actions():
                        c = s.clone()
                        c.apply_action(a)
                        stack.append(c)
    assert checked >= 1000 and trumps_only >= 100, (checked, trumps_only)


def test_search_stats_count_the_search():
    """``Solver.solve(stats=...)`` adds the search's counts per depth: they sum to the nodes searched, each cut
    kind is at most the nodes, table hits at most probes, first-move cutoffs at most cutoffs; with or without
    statistics the values and node counts are the same; a wrong array is refused."""
    game = _game("dreierles", {})
    solver = solver_for("dreierles")
    cols = {c: i for i, c in enumerate(STATS_COLUMNS)}
    for state in positions(game, 6, False, 6, seed0=5000):
        st = np.zeros(solver.search_stats_shape(), dtype=np.int64)
        with_stats = solver.solve(state, stats=st)
        plain = solver.solve(state)
        assert (with_stats.action_values, with_stats.nodes) == (plain.action_values, plain.nodes)
        assert int(st[:, cols["nodes"]].sum()) == with_stats.nodes
        assert st[0, cols["nodes"]] >= 1  # every root search enters depth 0
        for c in ("static_cut", "tt_cut", "expanded", "threshold", "additive"):
            assert (st[:, cols[c]] <= st[:, cols["nodes"]]).all(), c
        assert (st[:, cols["static_cut"]] + st[:, cols["tt_cut"]] + st[:, cols["expanded"]]
                <= st[:, cols["nodes"]]).all()
        assert (st[:, cols["tt_hit"]] <= st[:, cols["tt_probe"]]).all()
        assert (st[:, cols["cutoff_first"]] <= st[:, cols["cutoff"]]).all()
        assert (st[:, cols["cutoff"]] <= st[:, cols["expanded"]]).all()
        assert (st[:, cols["tt_move"]] <= st[:, cols["expanded"]]).all()
        assert int(st[1:, cols["nodes"]].sum()) <= int(st[:, cols["children"]].sum()) + int(st[1, cols["nodes"]])
    state = positions(game, 4, False, 1, seed0=5000)[0]
    for bad in (np.zeros((3, 3), dtype=np.int64), np.zeros(solver.search_stats_shape(), dtype=np.int32), [0]):
        with pytest.raises(ValueError):
            solver.solve(state, stats=bad)
