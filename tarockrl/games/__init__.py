"""Game registry: ``make_game(name, **options)`` and ``list_games()``.

Each game module is imported lazily on first use, so importing tarockrl stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from tarockrl.errors import WrongGameError
from tarockrl.games.api import Batch, Game, GameDefinition, State

_MODULES = {
    "dreierles": "tarockrl.games.dreierles",
    "troccas": "tarockrl.games.troccas",
    "tatteln": "tarockrl.games.tatteln",
    "tatteln": "tarockrl.games.tatteln",
    "dreiertarock": "tarockrl.games.dreiertarock",
}


def list_games() -> list[str]:
    """Names of the games this version implements."""
    return sorted(_MODULES)


def game_definition(name: str) -> GameDefinition:
    """The :class:`GameDefinition` of a registered game."""
    key = str(name).strip().lower()
    if key not in _MODULES:
        raise WrongGameError(f"unknown game {name!r}; available games: {', '.join(list_games())}")
    return importlib.import_module(_MODULES[key]).DEFINITION


def make_game(name: str, **options: Any) -> Game:
    """Create a game by name with rules options (the spec's named variants), e.g. ``make_game("dreierles")``."""
    return Game(game_definition(name), **options)


__all__ = ["Batch", "Game", "GameDefinition", "State", "list_games", "make_game", "game_definition"]
