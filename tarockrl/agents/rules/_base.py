"""What every rule-based player shares: binding to its game, seeding, and checking the state it is asked about.

A game's ``RulesAgent`` subclasses :class:`RulesAgentBase`, names its game in ``GAME`` and writes only its
decisions: either :meth:`RowRulesAgentBase.decide_row` (players that read the state row: Dreierles, Dreiertarock)
or ``act(observation, action_mask)`` (players that read only the observation: Troccas, Tatteln, whose ``decide``
is the default below).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.errors import GameOverError, WrongGameError

__all__ = ["RowRulesAgentBase", "RulesAgentBase"]


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


class RowRulesAgentBase(RulesAgentBase):
    """Base of the players that read the state row (Dreierles, Dreiertarock).

    :meth:`decide` asks the game's ``legal_set`` kernel (``LEGAL_SET``, bound as a ``staticmethod``) for the legal
    actions of the seat to move, plays a single legal action at once and otherwise hands the rest to
    :meth:`decide_row`. ``SLOT_PHASE``, ``SLOT_CUR`` and ``SLOT_HAND`` are the game's layout slots.
    """

    LEGAL_SET: Any = None  # staticmethod(kernels.legal_set): (row, opts) -> (offset, mask of the legal actions)
    SLOT_PHASE = 0
    SLOT_CUR = 0
    SLOT_HAND = 0

    def __init__(self, game: Any, seed: int | None = None) -> None:
        """Bind the player to ``game`` (its encoded options are what ``legal_set`` reads)."""
        super().__init__(game, seed)
        self._opts = game.encoded_options

    def decide(self, state: Any, player: int) -> int:
        """The action of the seat to move (reads only what that seat may know)."""
        row = state.row
        phase = int(row[self.SLOT_PHASE])
        offset, mask = self.LEGAL_SET(row, self._opts)
        offset, mask = int(offset), int(mask)
        if mask & (mask - 1) == 0:
            return offset + (mask.bit_length() - 1)  # a single legal action
        me = int(row[self.SLOT_CUR])
        return self.decide_row(row, phase, me, int(row[self.SLOT_HAND + me]), mask)

    def decide_row(self, row: np.ndarray, phase: int, me: int, hand: int, mask: int) -> int:
        """The action when more than one is legal: ``me`` the seat to move, ``hand`` its cards, ``mask`` the legal
        set's bits (relative to its phase's offset)."""
        raise NotImplementedError
