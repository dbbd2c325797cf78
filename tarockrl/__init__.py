"""tarockrl: fast, rules-exact tarock-family card games for self-play reinforcement learning.

>>> import tarockrl
>>> game = tarockrl.make_game("dreierles")
>>> state = game.new_initial_state(seed=7)
"""

from __future__ import annotations

from tarockrl.engine.cache import ensure_fresh_cache

ensure_fresh_cache()  # before any cached kernel is loaded

from tarockrl.envs.registration import register_envs  # noqa: E402
from tarockrl.errors import (  # noqa: E402
    BadAgentSpecError,
    BadDealError,
    BadOptionError,
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    TarockError,
    WrongGameError,
)
from tarockrl.games import list_games, make_game, warmup  # noqa: E402
from tarockrl.games.api import TERMINAL_PLAYER, Batch, Game, State  # noqa: E402

__version__ = "0.1.0"

register_envs()

__all__ = [
    "__version__",
    "make_game",
    "list_games",
    "warmup",
    "Game",
    "State",
    "Batch",
    "TERMINAL_PLAYER",
    "TarockError",
    "BadAgentSpecError",
    "IllegalActionError",
    "GameOverError",
    "BadDealError",
    "BadOptionError",
    "WrongGameError",
    "CorruptStateError",
]
