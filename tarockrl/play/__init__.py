"""Human play: a per-seat view of a deal, a session against agents, the terminal UI (``tarockrl play --human``)."""

from tarockrl.play.session import GAMES, HumanSession, parse_move, write_record
from tarockrl.play.view import LogEntry, seat_view

__all__ = ["GAMES", "HumanSession", "LogEntry", "parse_move", "seat_view", "write_record"]
