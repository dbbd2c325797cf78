"""What every rule-based player shares (``tarockrl/agents/rules/_base.py``): clear errors for states it cannot play."""

import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.errors import GameOverError, WrongGameError

OTHER = {"dreierles": "tatteln", "dreiertarock": "troccas", "troccas": "dreierles", "tatteln": "dreiertarock"}
OTHER_OPTIONS = {"tatteln": {"deck_size": 36}}


@pytest.mark.parametrize("name", sorted(OTHER))
def test_rules_agent_refuses_other_games_and_finished_deals(name):
    games = {n: tarockrl.make_game(n) for n in OTHER}
    game = games[name]
    agent = make_agent("rules", game, seed=3)
    assert repr(agent) == f"RulesAgent({name!r}, seed=3)"
    with pytest.raises(WrongGameError):
        agent.step(games[OTHER[name]].new_initial_state(seed=0))
    if name in OTHER_OPTIONS:
        with pytest.raises(WrongGameError):
            agent.step(tarockrl.make_game(name, **OTHER_OPTIONS[name]).new_initial_state(seed=0))
    with pytest.raises(WrongGameError):
        type(agent)(games[OTHER[name]])
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(agent.step(state))
    with pytest.raises(GameOverError):
        agent.step(state)
