"""OpenSpiel adapter (optional extra ``openspiel``): tarockrl's games as pyspiel games, OpenSpiel's bots as agents.

* :func:`register_games` / :func:`load_game` (module :mod:`tarockrl.openspiel.game`): ``tarockrl_<game>`` Python
  games for ``pyspiel.load_game``, ``evaluate_bots``, ``MCTSBot``, ``ISMCTSBot`` and ``pyspiel.random_sim_test``;
* :mod:`tarockrl.openspiel.bots`: ``make_agent("openspiel:ismcts,...", game)`` and ``"openspiel:mcts,..."``.

Importing this package needs ``open_spiel`` (``pip install 'tarockrl[openspiel]'``). See docs/openspiel.md.
"""

from tarockrl.openspiel.game import (
    TarockObserver,
    TarockSpielGame,
    TarockSpielState,
    from_tarockrl_state,
    load_game,
    register_games,
    spiel_name,
)

__all__ = ["TarockObserver", "TarockSpielGame", "TarockSpielState", "from_tarockrl_state", "load_game",
           "register_games", "spiel_name"]
