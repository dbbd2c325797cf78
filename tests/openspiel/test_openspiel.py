"""The OpenSpiel adapter: tarockrl games under OpenSpiel's own test helpers, evaluation and search bots."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'tarockrl[openspiel]')")

import tarockrl  # noqa: E402
from tarockrl.agents import make_agent  # noqa: E402
from tarockrl.errors import BadAgentSpecError  # noqa: E402
from tarockrl.openspiel import from_tarockrl_state, load_game, register_games  # noqa: E402
from tarockrl.openspiel.bots import EvaluableBot, TarockRolloutEvaluator  # noqa: E402

GAMES = tarockrl.list_games()


def has_sampler(name):
    return tarockrl.make_game(name).definition.resample_hidden is not None


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def test_registered_names_and_types():
    names = register_games()
    assert names == [f"tarockrl_{g}" for g in GAMES]
    registered = {t.short_name for t in pyspiel.registered_games()}
    assert set(names) <= registered
    game = pyspiel.load_game("tarockrl_dreierles", {"num_deals": 10, "raeuber_restrictions": "none"})
    gt = game.get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert gt.provides_information_state_string and gt.provides_observation_tensor
    assert game.tarock_game.rules.raeuber_restrictions == "none"
    tg = game.tarock_game
    assert game.num_players() == tg.num_players and game.num_distinct_actions() == tg.num_actions
    assert game.max_chance_outcomes() == 10 and game.utility_sum() == 0.0
    assert game.information_state_tensor_shape() == [tg.observation_size]
    assert game.observation_tensor_shape() == [tg.observation_size]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name):
    """OpenSpiel's own random-simulation checks (API consistency, clones, tensors, strings, returns)."""
    game = load_game(name, num_deals=64, seed=3)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_deal_is_the_engine_deal_and_play_matches(name):
    game = load_game(name, num_deals=100, seed=11)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 100 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    state.apply_action(42)
    ref = tarockrl.make_game(name).new_initial_state(seed=11, deal_id=42)
    assert state.tstate == ref
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == ref.legal_actions() and state.current_player() == ref.current_player()
        other = (state.current_player() + 1) % game.num_players()
        assert state.legal_actions(other) == []
        a = legal[int(rng.integers(len(legal)))]
        state.apply_action(a)
        ref.apply_action(a)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == ref.returns().tolist() and abs(sum(state.returns())) < 1e-9
    np.testing.assert_array_equal(np.asarray(state.observation_tensor(0), np.float32), ref.observation(0))
    with pytest.raises(tarockrl.errors.IllegalActionError):
        game.new_initial_state().apply_action(100)


@pytest.mark.parametrize("name", GAMES)
def test_infostate_strings_are_perfect_recall_and_resampling_keeps_them(name):
    game = load_game(name, num_deals=1000, seed=5)
    rng = np.random.default_rng(1)
    state = play_random(game.new_initial_state(), rng, 12)
    player = state.current_player()
    key = state.information_state_string(player)
    clone = state.clone()
    assert clone.history() == state.history() and clone.information_state_string(player) == key
    # a later action changes every player's information state (a new observation is appended)
    clone.apply_action(clone.legal_actions()[0])
    assert all(clone.information_state_string(p) != state.information_state_string(p)
               for p in range(game.num_players()))
    # replaying the same deal and history gives the same strings (the digest is of observations only)
    again = from_tarockrl_state(game, state.tstate)
    assert [again.information_state_string(p) for p in range(game.num_players())] == \
        [state.information_state_string(p) for p in range(game.num_players())]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    if not has_sampler(name):
        with pytest.raises(NotImplementedError, match=name):
            state.resample_from_infostate(player, sampler)
        return
    for _ in range(4):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == key
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
    # at every decision of whole deals (hidden decisions, e.g. a declined announcement, do not count as steps)
    for deal in range(3):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            player = state.current_player()
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


def test_python_mcts_ismcts_and_evaluate_bots():
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = load_game("dreierles", num_deals=1000)
    ev = TarockRolloutEvaluator(1, seed=0)
    bots = [
        EvaluableBot(ismcts.ISMCTSBot(game, ev, 40.0, 8, random_state=np.random.RandomState(1))),
        pyspiel.make_uniform_random_bot(1, 2),
        EvaluableBot(mcts.MCTSBot(game, 40.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
                                  random_state=np.random.RandomState(4))),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(5))
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9


def test_agent_spec_and_errors():
    game = tarockrl.make_game("dreierles")
    agent = make_agent("openspiel:ismcts,simulations=4", game, seed=0)
    assert agent.simulations == 4 and agent.kind == "ismcts"
    with pytest.raises(BadAgentSpecError, match="kind"):
        make_agent("openspiel:alphazero", game)
    with pytest.raises(BadAgentSpecError, match="simulations"):
        make_agent("openspiel:ismcts,simulations=0", game)
    for name in GAMES:
        if not has_sampler(name):
            with pytest.raises(BadAgentSpecError, match="sampler"):
                make_agent("openspiel:ismcts", name)


@pytest.mark.parametrize("kind", ["ismcts", "mcts"])
def test_agent_uses_only_what_the_seat_knows(kind):
    """Same seed, two deals the seat cannot tell apart: the same decisions (the true deal is never searched)."""
    game = tarockrl.make_game("dreiertarock")
    agent = make_agent(f"openspiel:{kind},simulations=6,worlds=2", game, seed=7)
    state = game.new_initial_state(seed=2)
    rng = np.random.default_rng(3)
    for _ in range(8):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    world = state.resample_hidden(state.current_player(), 99)
    agent.reset(11)
    a = agent.step(state)
    agent.reset(11)
    assert agent.step(world) == a and a in state.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("name", [g for g in GAMES if has_sampler(g)])
def test_agent_plays_a_whole_deal(name):
    game = tarockrl.make_game(name)
    agents = [make_agent("openspiel:ismcts,simulations=4", game, seed=0)] + [
        make_agent("random", game, seed=s) for s in range(1, game.num_players)]
    state = game.new_initial_state(seed=4)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
    assert abs(state.returns().sum()) < 1e-9
