"""make_agent: spec parsing, errors that list what is known, and step() on every game."""

import pytest

import tarockrl
from tarockrl.agents import make_agent, parse_spec, register_agent, with_step
from tarockrl.errors import BadAgentSpecError


def test_parse_spec_forms():
    assert parse_spec("random") == ("random", {})
    assert parse_spec(" PIMC:worlds=32, rollout=rules ") == ("pimc", {"worlds": "32", "rollout": "rules"})
    assert parse_spec("ckpt:runs/a/last.pt") == ("ckpt", {"_positional": "runs/a/last.pt"})
    assert parse_spec("pimc:worlds=8,leaf=[ckpt:a.pt,x=1]") == ("pimc", {"worlds": "8", "leaf": "ckpt:a.pt,x=1"})


@pytest.mark.parametrize("bad", ["", "   ", "random:a=1,a=2", "random:a=1,b"])
def test_parse_spec_rejects(bad):
    with pytest.raises(BadAgentSpecError):
        parse_spec(bad)


def test_unknown_agent_lists_known_and_suggests():
    with pytest.raises(BadAgentSpecError, match=r"did you mean 'random'.*known agents: .*random"):
        make_agent("randon", "dreierles")


def test_unknown_parameter_lists_parameters():
    with pytest.raises(BadAgentSpecError, match="no parameter 'worlds'"):
        make_agent("random:worlds=3", "dreierles")


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True])
def test_bad_seed(seed):
    with pytest.raises(BadAgentSpecError, match="seed"):
        make_agent("random", "dreierles", seed=seed)


def _typed_factory(game, seed, n: int = 1, scale: float = 1.0, flag: bool = False, name: str = "x"):
    class _A:
        def step(self, state):
            return state.legal_actions()[0]

    a = _A()
    a.params = (n, scale, flag, name)
    return a


def test_parameter_conversion_and_errors():
    register_agent("typedtest", f"{__name__}:_typed_factory", "test only")
    a = make_agent("typedtest:n=3,scale=0.5,flag=yes,name=abc", "dreierles")
    assert a.params == (3, 0.5, True, "abc")
    for bad in ["typedtest:n=x", "typedtest:scale=nan", "typedtest:flag=maybe"]:
        with pytest.raises(BadAgentSpecError, match="is not a valid"):
            make_agent(bad, "dreierles")


@pytest.mark.parametrize("name", tarockrl.list_games())
def test_random_agent_plays_every_game_reproducibly(name):
    game = tarockrl.make_game(name)

    def play(seed):
        agent = make_agent("random", game, seed=seed)
        state = game.new_initial_state(seed=3)
        actions = []
        while not state.is_terminal():
            a = agent.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
            actions.append(a)
        return actions

    assert play(5) == play(5)


def test_with_step_wraps_act_only_agents():
    game = tarockrl.make_game("dreierles")
    agent = with_step(lambda obs, mask: int(mask.nonzero()[0][0]))
    state = game.new_initial_state(seed=0)
    assert agent.step(state) == state.legal_actions()[0]
    assert make_agent(agent, game) is agent
