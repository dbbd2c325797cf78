"""Exceptions raised by tarockrl. Each is a ``ValueError`` subclass, so generic handlers keep working."""

from __future__ import annotations


class TarockError(ValueError):
    """Base class of every error tarockrl raises on bad input."""


class IllegalActionError(TarockError):
    """An action that is not legal in the current state (the message names the legal actions)."""


class GameOverError(IllegalActionError):
    """An action was given to a state that is already terminal."""


class BadDealError(TarockError):
    """A deal dictionary that does not follow the game's deal notation."""


class BadOptionError(TarockError):
    """An unknown rules option or a value the option does not allow."""


class WrongGameError(TarockError):
    """A state, batch or saved state that belongs to another game or another set of options."""


class CorruptStateError(TarockError):
    """Bytes that do not decode to a valid saved state."""


class BadAgentSpecError(TarockError):
    """An agent spec (``make_agent``) with an unknown name or parameter, or a parameter value it cannot take."""
