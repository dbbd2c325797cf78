"""The PIMC agent and its batched rollouts: legal everywhere, no peeking, deterministic, bad specs.

PIMC needs a batched hidden-card sampler (``game.sample_worlds``); games without one are skipped with a message
(and must raise a clear error), so the tests cover a new sampler as soon as it lands.
"""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.pimc import PIMCUnavailableError, has_sampler, tricks_left
from tarockrl.agents.pimc_rollouts import RolloutPolicy
from tarockrl.errors import BadAgentSpecError, TarockError
from tests.contract.cases import CASES, case_id, make

SMALL = "pimc:worlds=4,rollouts=1"


def _need_sampler(game) -> None:
    if not has_sampler(game):
        pytest.skip(f"{game.name} has no batched world sampler yet (tarockrl/games/{game.name}/resample.py)")


def _positions(game, n: int, seed: int, agent: str = "random"):
    """``n`` random non-terminal positions from deals played by ``agent`` (all phases)."""
    rng = np.random.default_rng(seed)
    policy = make_agent(agent, game, seed=seed)
    out = []
    d = 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed, deal_id=d)
        d += 1
        while not state.is_terminal():
            if len(state.legal_actions()) > 1 and rng.random() < 0.15:
                out.append(state.clone())
            state.apply_action(policy.step(state))
    return out[:n]


def _slow_unless_default(cases):
    return [pytest.param(c, id=case_id(c), marks=() if (c[0] == "dreierles" and not c[1]) else pytest.mark.slow)
            for c in cases]


# ---- the batched rollouts ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", _slow_unless_default(CASES))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rollouts_play_only_legal_actions(case, policy):
    """Every rollout ends in a state that its own history replays to (so every action was legal)."""
    game = make(case)
    states = _positions(game, 24, seed=3)
    rows = np.stack([s._row for s in states])
    assert RolloutPolicy(game, policy).run(rows.copy(), seed=5, repeats=2).shape == (24, 2, game.num_players)
    out = RolloutPolicy(game, policy).run(rows, seed=5)
    for i in range(rows.shape[0]):
        end = tarockrl.games.api.State(game, rows[i].copy())
        assert end.is_terminal()
        replayed = game.state_from_bytes(end.to_bytes())  # replays the history through the checked kernels
        np.testing.assert_array_equal(replayed.returns(), out[i, -1])


def test_rollouts_are_deterministic_and_heuristic_beats_random_at_card_play():
    game = tarockrl.make_game("dreierles")
    states = [s for s in _positions(game, 60, seed=8, agent="rules") if s.phase() == "play"][:20]
    rows = np.stack([s._row for s in states])
    a = RolloutPolicy(game, "heuristic").run(rows.copy(), seed=1, repeats=3)
    b = RolloutPolicy(game, "heuristic").run(rows.copy(), seed=1, repeats=3)
    np.testing.assert_array_equal(a, b)
    # the heuristic as the declarer's side against random defenders would be a strength test; here only that
    # the two policies differ (the heuristic is not random play in disguise)
    c = RolloutPolicy(game, "random").run(rows.copy(), seed=1, repeats=3)
    assert not np.array_equal(a, c)


def test_rollout_policy_bad_spec():
    game = tarockrl.make_game("dreierles")
    with pytest.raises(BadAgentSpecError, match="unknown agent"):
        RolloutPolicy(game, "nonsense")
    with pytest.raises(BadAgentSpecError):
        RolloutPolicy(game, "random", eps=2.0)


# ---- the agent -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", _slow_unless_default(CASES))
def test_legal_actions_in_random_positions(case):
    game = make(case)
    _need_sampler(game)
    agent = make_agent(SMALL, game, seed=1)
    phases = set()
    for state in _positions(game, 40, seed=11):
        a = agent.step(state)
        assert a in state.legal_actions()
        phases.add(state.phase())
    assert len(phases) >= 2


@pytest.mark.parametrize("name", ["dreierles", "dreiertarock", "troccas", "tatteln"])
def test_no_peeking(name):
    """The action depends only on the seat's view: resampled hidden cards give the same action."""
    game = tarockrl.make_game(name)
    _need_sampler(game)
    rng = np.random.default_rng(2)
    checked = 0
    for state in _positions(game, 12, seed=21, agent="rules"):
        p = state.current_player()
        a = make_agent(SMALL, game, seed=7).step(state)
        for _ in range(2):
            try:
                other = state.resample_hidden(p, int(rng.integers(1 << 40)))
            except RuntimeError:
                continue
            assert make_agent(SMALL, game, seed=7).step(other) == a, state.transcript()
            checked += 1
    assert checked >= 12


def test_no_peeking_with_the_solver():
    game = tarockrl.make_game("dreierles")
    states = [s for s in _positions(game, 400, seed=4, agent="rules")
              if s.phase() == "play" and tricks_left(s) <= 3][:6]
    assert states
    spec = "pimc:worlds=4,solve_tricks=3"
    for state in states:
        a = make_agent(spec, game, seed=3)
        act = a.step(state)
        assert a.last.method == "solver"
        other = state.resample_hidden(state.current_player(), 99)
        assert make_agent(spec, game, seed=3).step(other) == act


def test_deterministic_for_a_seed_and_whole_deal():
    game = tarockrl.make_game("dreierles")

    def run(seed):
        agent = make_agent("pimc:worlds=4,rollouts=1,solve_tricks=3", game, seed=seed)
        state = game.new_initial_state(seed=9, deal_id=1)
        methods = set()
        while not state.is_terminal():
            state.apply_action(agent.step(state))
            methods.add(agent.last.method.split(":")[0])
        return state.history(), methods

    h1, methods = run(1)
    assert run(1)[0] == h1
    assert {"forced", "rollouts", "solver"} <= methods or {"rollouts", "solver"} <= methods


def test_decision_statistics():
    game = tarockrl.make_game("dreierles")
    state = game.new_initial_state(seed=2)
    agent = make_agent("pimc:worlds=6,rollouts=2,rollout=random", game, seed=0)
    d = agent.evaluate(state)
    assert d.actions == state.legal_actions() and d.worlds == 6
    assert d.action == d.actions[int(np.argmax(d.means))]
    assert (d.counts == 6).all() and (d.ses >= 0).all()


def test_python_rollout_policy_spec():
    game = tarockrl.make_game("dreierles")
    state = _positions(game, 3, seed=5)[-1]
    agent = make_agent("pimc:worlds=2,rollouts=1,rollout=rules", game, seed=0)
    assert agent.step(state) in state.legal_actions()
    assert agent.last.method == "rollouts:rules" or agent.last.method in ("solver", "forced")


@pytest.mark.parametrize("spec, match", [
    ("pimc:worlds=0", "worlds"),
    ("pimc:worlds=x", "not a valid int"),
    ("pimc:rollouts=-1", "rollouts"),
    ("pimc:solve_tricks=99", "solve_tricks"),
    ("pimc:time=-1", "time"),
    ("pimc:eps=3", "eps"),
    ("pimc:rollout=nonsense", "unknown agent"),
    ("pimc:wolds=3", "did you mean 'worlds'"),
])
def test_bad_specs(spec, match):
    with pytest.raises(BadAgentSpecError, match=match):
        make_agent(spec, "dreierles")


@pytest.mark.parametrize("name", ["troccas", "tatteln"])
def test_games_without_a_sampler_raise_a_clear_error(name):
    game = tarockrl.make_game(name)
    if has_sampler(game):
        pytest.skip(f"{name} has a sampler now: the generic tests cover it")
    with pytest.raises(PIMCUnavailableError, match="sampler"):
        make_agent("pimc", game)


def test_step_at_the_end_is_an_error():
    game = tarockrl.make_game("dreierles")
    state = game.new_initial_state(seed=1)
    agent = make_agent("random", game, seed=0)
    while not state.is_terminal():
        state.apply_action(agent.step(state))
    with pytest.raises(TarockError):
        make_agent(SMALL, game).step(state)


def test_time_budget_stops_after_the_first_chunk_of_worlds():
    game = tarockrl.make_game("dreierles")
    state = game.new_initial_state(seed=2)
    agent = make_agent("pimc:worlds=64,rollouts=1,time=0.000001", game, seed=0)
    assert agent.step(state) in state.legal_actions()
    assert agent.last.worlds == 8  # one chunk of 8 worlds, then the budget is spent


def test_registered_with_a_description():
    from tarockrl.agents import agent_help, known_agents

    assert "pimc" in known_agents() and "PIMC" in known_agents()["pimc"]
    assert "worlds=32" in agent_help("pimc")


@pytest.mark.parametrize("name", ["dreierles", "dreiertarock"])
def test_rollout_card_choice_does_not_read_the_other_hands(name):
    """The heuristic rollouts choose cards by the adapter's ``rollout_hint``: a score of the trick and the cards in
    play, the same however the other two hands split those cards (the solver's ``hint``, which may read them to
    order its search, differs on some of these positions, so the check can tell)."""
    import importlib

    adapter = importlib.import_module(f"tarockrl.solvers.adapters.{name}")
    L = adapter.L
    game = tarockrl.make_game(name)
    opts = game.encoded_options
    rules = make_agent("rules", game, seed=0)
    rng = np.random.default_rng(3)
    checked = solver_differs = 0
    for deal in range(40):
        state = game.new_initial_state(seed=deal)
        while not state.is_terminal():
            row = state._row
            if adapter.in_play(row) and row[L.TRICK_N] == 1 and len(state.legal_actions()) > 1:
                me = int(row[L.CUR])
                a, b = L.HAND + (me + 1) % 3, L.HAND + (me + 2) % 3
                cards = [c for c in range(64) if (int(row[a]) | int(row[b])) >> c & 1]
                pick = rng.choice(len(cards), size=bin(int(row[a])).count("1"), replace=False)
                new_a = sum(1 << cards[i] for i in pick)
                other = row.copy()
                other[a], other[b] = new_a, (int(row[a]) | int(row[b])) ^ new_a
                for act in state.legal_actions():
                    assert adapter.rollout_hint(row, opts, act, me) == adapter.rollout_hint(other, opts, act, me)
                    solver_differs += adapter.hint(row, opts, act, me) != adapter.hint(other, opts, act, me)
                checked += 1
            state.apply_action(rules.step(state))
    assert checked > 100
    assert solver_differs > 0


def test_solver_defaults_per_game():
    """``solve_tricks`` and ``max_nodes`` default per game (the adapters' ``pimc_defaults``; docs/agents.md)."""
    from tarockrl.agents.pimc import game_defaults

    expected = {"dreierles": (5, 30_000), "dreiertarock": (5, 30_000), "troccas": (7, 300_000),
                "tatteln": (9, 3_000_000)}
    for name, (tricks, nodes) in expected.items():
        game = tarockrl.make_game(name)
        assert game_defaults(game) == (tricks, nodes)
        agent = make_agent("pimc", game, seed=0)
        assert (agent.solve_tricks, agent.max_nodes) == (tricks, nodes)
    assert game_defaults(tarockrl.make_game("tatteln", hand_size=8)) == (8, 3_000_000)
