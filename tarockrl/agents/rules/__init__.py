"""Rule-based players, one module per game (``make_agent("rules", game, seed=...)``).

Each module ``tarockrl.agents.rules.<game>`` defines ``RulesAgent(game, seed=None)`` with ``step(state) -> int``
covering every decision of that game under every option set. This package only dispatches by game name.
"""

from __future__ import annotations

import importlib
from typing import Any

from tarockrl.errors import BadAgentSpecError

__all__ = ["make_rules_agent"]

_GAMES = ("dreierles", "dreiertarock", "troccas", "tatteln")


def make_rules_agent(game: Any, seed: int | None = None) -> Any:
    """Factory for ``make_agent("rules", game, seed=...)``: the rule-based player of ``game``."""
    if game.name not in _GAMES:
        raise BadAgentSpecError(f"no rule-based agent for game {game.name!r}; games with one: {', '.join(_GAMES)}")
    try:
        module = importlib.import_module(f"tarockrl.agents.rules.{game.name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"tarockrl.agents.rules.{game.name}":
            raise
        raise BadAgentSpecError(f"the rule-based agent for {game.name!r} is not in this version yet") from None
    return module.RulesAgent(game, seed=seed)
