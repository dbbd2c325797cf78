"""tarockrl: fast, rules-exact tarock-family card games for self-play reinforcement learning.

>>> import tarockrl
>>> game = tarockrl.make_game("dreierles")
>>> state = game.new_initial_state(seed=7)
"""

from __future__ import annotations

from tarockrl.envs.registration import register_envs
from tarockrl.errors import (
    BadDealError,
    BadOptionError,
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    TarockError,
    WrongGameError,
)
from tarockrl.games import list_games, make_game
from tarockrl.games.api import TERMINAL_PLAYER, Batch, Game, State

__version__ = "0.1.0"

register_envs()

__all__ = [
    "__version__",
    "make_game",
    "list_games",
    "Game",
    "State",
    "Batch",
    "TERMINAL_PLAYER",
    "TarockError",
    "IllegalActionError",
    "GameOverError",
    "BadDealError",
    "BadOptionError",
    "WrongGameError",
    "CorruptStateError",
]
