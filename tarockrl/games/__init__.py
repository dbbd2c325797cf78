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
    "dreiertarock": "tarockrl.games.dreiertarock",
}


DISPLAY_NAMES = {
    "dreierles": "Dreierles",
    "dreiertarock": "Dreiertarock",
    "tatteln": "Tatteln",
    "troccas": "Troccas",
}
"""Display names (the Gymnasium ids are ``tarockrl/<display name>-v0``), known without importing the games."""


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


def warmup(games: list[str] | None = None) -> dict[str, float]:
    """Compile (or load from numba's cache) every kernel of the given games (default: all).

    Call it once at start-up so that the first real step is not slowed by compilation. Returns the seconds
    spent per game.
    """
    import time

    spent: dict[str, float] = {}
    for name in games or list_games():
        start = time.perf_counter()
        game = make_game(name)
        state = game.new_initial_state(seed=0)
        state.apply_action(state.legal_actions()[0])
        state.observation(0)
        state.returns()
        game.state_from_bytes(state.to_bytes())
        game.perft(state, 1)
        batch = game.new_batch(2, seed=0)
        batch.legal_masks()
        batch.observations()
        batch.step(batch.random_actions(seed=0))
        batch.returns()
        game.random_playouts(2, seed=0)
        game.invariant_sweep(2, seed=0)
        spent[name] = time.perf_counter() - start
    return spent


__all__ = [
    "Batch",
    "DISPLAY_NAMES",
    "Game",
    "GameDefinition",
    "State",
    "game_definition",
    "list_games",
    "make_game",
    "warmup",
]
