"""``Solver.solve(probes=...)``: the log of MTD(f)'s zero-window searches of the root's value."""

from __future__ import annotations

import pytest

import tarockrl
from tarockrl.solvers import RootProbe, SearchLimitError, Solver
from tarockrl.solvers.bench import _position


@pytest.fixture(scope="module")
def dreierles():
    return tarockrl.make_game("dreierles"), Solver("dreierles")


def _check_consistent(probes: list[RootProbe], value: int, nodes: int) -> None:
    """Every logged search agrees with the exact value: one that reached its threshold has it at most the value
    and a result that is a lower bound of it; one that did not has a threshold above the value and a result that
    is an upper bound. The bounds found meet at the value, and the searches' nodes are part of the solve's."""
    assert probes and all(isinstance(p, RootProbe) and not p.aborted for p in probes)
    for p in probes:
        if p.reached:
            assert p.threshold <= value and p.result <= value, (p, value)
        else:
            assert p.threshold > value and p.result >= value, (p, value)
    assert max(p.result for p in probes if p.reached) == value
    assert sum(p.nodes for p in probes) <= nodes


@pytest.mark.parametrize("seed", [6, 7, 1])
def test_whole_deal_probes_bracket_the_value(dreierles, seed):
    """Whole deals (value only): the log is consistent with the value, and logging changes no node count."""
    game, sol = dreierles
    state = _position(game, seed, 16)
    probes: list[RootProbe] = []
    r = sol.solve(state, value_only=True, probes=probes)
    _check_consistent(probes, r.value, r.nodes)
    assert sol.solve(state, value_only=True).nodes == r.nodes


def test_every_root_action_logs_the_root_value_only(dreierles):
    """Without ``value_only`` the per-action searches are not logged: the log brackets the root's value, and the
    solve's nodes are more than the log's."""
    game, sol = dreierles
    state = _position(game, 3, 8)
    probes: list[RootProbe] = []
    r = sol.solve(state, probes=probes)
    _check_consistent(probes, r.value, r.nodes)
    assert len(r.action_values) > 1 and sum(p.nodes for p in probes) < r.nodes


def test_budget_overrun_logs_an_aborted_search(dreierles):
    """A search stopped by ``max_nodes`` is the log's last entry, marked aborted (its result means nothing)."""
    game, sol = dreierles
    probes: list[RootProbe] = []
    with pytest.raises(SearchLimitError):
        sol.solve(_position(game, 1, 16), value_only=True, max_nodes=5000, probes=probes)
    assert probes and probes[-1].aborted and not probes[-1].reached
    assert all(not p.aborted for p in probes[:-1])


def test_probes_must_be_a_list(dreierles):
    game, sol = dreierles
    with pytest.raises(TypeError, match="probes must be a list"):
        sol.solve(_position(game, 7, 16), value_only=True, probes=())


def test_other_games_log_their_probes():
    """The log is the template's, so every game has it (Dreiertarock, 6 tricks left)."""
    game = tarockrl.make_game("dreiertarock")
    sol = Solver("dreiertarock")
    state = next(s for s in (_position(game, seed, 6) for seed in range(20)) if s is not None)
    probes: list[RootProbe] = []
    r = sol.solve(state, value_only=True, probes=probes)
    _check_consistent(probes, r.value, r.nodes)
