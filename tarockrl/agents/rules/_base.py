"""What every rule-based player shares: binding to its game, seeding, and checking the state it is asked about.

A game's ``RulesAgent`` subclasses :class:`RulesAgentBase`, names its game in ``GAME`` and writes only its
decisions: either :meth:`RulesAgentBase.decide` (players that read the state row: Dreierles, Dreiertarock) or
``act(observation, action_mask)`` (players that read only the observation: Troccas, Tatteln, whose ``decide`` is
the default below).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.errors import GameOverError, WrongGameError

__all__ = ["RulesAgentBase"]


class RulesAgentBase:
    """Base of the rule-based players (see the module docstring).

    Args:
        game: a :class:`tarockrl.Game` of the subclass's ``GAME`` (any options).
        seed: seed of any random choice the player makes (``None`` means 0); decisions are a pure function of
            ``(seed, what the seat knows)``.
    """

    GAME = ""

    def __init__(self, game: Any, seed: int | None = None) -> None:
        """Bind the player to ``game``; a game of another name is a :class:`WrongGameError`."""
        if game.name != self.GAME:
            raise WrongGameError(f"the {self.GAME.capitalize()} rules agent cannot play {game.name!r}")
        self.game = game
        self.seed = 0 if seed is None else int(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed (the players keep no other state between decisions)."""
        if seed is not None:
            self.seed = int(seed)

    def __repr__(self) -> str:
        return f"RulesAgent({self.GAME!r}, seed={self.seed!r})"

    def step(self, state: Any) -> int:
        """The action of ``state.current_player()``, read only from what that seat may know.

        Raises:
            WrongGameError: the state belongs to another game or to the same game under other rules options.
            GameOverError: the deal is over.
        """
        if state.game is not self.game and state.game != self.game:
            raise WrongGameError(f"this agent plays {self.game!r}; the state belongs to {state.game!r}")
        player = state.current_player()
        if player < 0:
            raise GameOverError("step: the deal is over, there is no seat to act")
        return self.decide(state, player)

    def decide(self, state: Any, player: int) -> int:
        """The decision itself, for a checked state (default: ``act`` on the seat's observation and legal mask)."""
        return self.act(state.observation(player), state.legal_action_mask())

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for the seat whose observation this is (players that read only the observation)."""
        raise NotImplementedError(f"the {self.GAME} rules agent decides from the state (use step)")
