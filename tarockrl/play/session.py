"""One deal between a person and agents: the state, the public log, the agents, the record.

Both the terminal UI (:mod:`tarockrl.play.terminal`) and the web app (:mod:`tarockrl.web`) drive a
:class:`HumanSession`: the person's moves are checked against the legal actions, the agents' moves are played
until it is the person's turn again (or the deal is over), and :meth:`HumanSession.record` returns the game record
(deal notation, actions, agents, seeds) as a JSON-ready dictionary.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

import tarockrl
from tarockrl.errors import BadAgentSpecError, IllegalActionError, TarockError
from tarockrl.play.view import LogEntry, seat_view

__all__ = ["GAMES", "HumanSession", "parse_move", "write_record"]

GAMES = ("dreierles", "dreiertarock", "tatteln", "troccas")


def _make_agent(spec: str, game, seed: int):
    """``tarockrl.agents.make_agent`` with a clear error when the agent cannot be built."""
    from tarockrl.agents import make_agent

    try:
        return make_agent(spec, game, seed=seed)
    except TarockError:
        raise
    except (ImportError, AttributeError, NotImplementedError) as err:
        raise BadAgentSpecError(f"agent {spec!r} is not available for {game.name}: {err}") from err


class HumanSession:
    """A deal of ``game`` with the person at ``seat`` and agents (by spec) at the other seats.

    Args:
        game: a game name (``dreierles``, ``dreiertarock``, ``tatteln``, ``troccas``).
        seat: the person's seat.
        opponents: agent specs for the other seats in seat order (one spec is repeated for every seat).
        seed: seed of the deal (``deal(seed, 0)``) and of the agents (agent at seat ``i`` gets ``seed + 1 + i``).
        hint_agent: spec of the agent that answers ``hint``.
        options: rules options of the game (as for ``tarockrl.make_game``).
    """

    def __init__(self, game: str, seat: int = 0, opponents: list[str] | str = "random", seed: int = 0,
                 hint_agent: str = "rules", options: dict[str, Any] | None = None) -> None:
        """Deal, build the agents and play them until it is the person's turn."""
        if game not in GAMES:
            raise BadAgentSpecError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
        self.game = tarockrl.make_game(game, **(options or {}))
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise BadAgentSpecError(f"seat must be an integer in 0..{n - 1} for {game}, got {seat!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise BadAgentSpecError(f"seed must be a non-negative integer, got {seed!r}")
        if isinstance(opponents, str):
            opponents = [s for s in opponents.split(",") if s.strip()] if "," in opponents else [opponents]
        opponents = [str(s).strip() for s in opponents]
        if len(opponents) == 1:
            opponents = opponents * (n - 1)
        if len(opponents) != n - 1:
            raise BadAgentSpecError(f"{game} has {n - 1} opponents: give one spec or {n - 1}, got {opponents}")
        self.seat = seat
        self.seed = seed
        self.specs: list[str] = []
        self.agents: list[Any] = []
        it = iter(opponents)
        for i in range(n):
            if i == seat:
                self.specs.append("human")
                self.agents.append(None)
            else:
                spec = next(it)
                self.specs.append(spec)
                self.agents.append(_make_agent(spec, self.game, seed + 1 + i))
        self.hint_spec = hint_agent
        self._hint = None
        self.state = self.game.new_initial_state(seed=seed)
        self.initial_deal = self.state.deal()
        self.log: list[LogEntry] = []
        self.advance()

    @property
    def names(self) -> list[str]:
        """Display names per seat: ``you`` for the person, the agent spec otherwise (Troccas: who is partner)."""
        n = self.game.num_players
        partner = (self.seat + 2) % 4 if self.game.name == "troccas" else None
        return ["you" if i == self.seat else ("partner " if i == partner else "") + f"{self.specs[i]} (seat {i})"
                for i in range(n)]

    def _apply(self, action: int) -> None:
        entry = LogEntry(self.state.current_player(), self.state.phase(), int(action))
        self.state.apply_action(int(action))
        self.log.append(entry)

    def advance(self) -> list[LogEntry]:
        """Play the agents until the person is to move or the deal is over; returns the entries played."""
        start = len(self.log)
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            agent = self.agents[self.state.current_player()]
            self._apply(int(agent.step(self.state)))
        return self.log[start:]

    def play(self, action: int) -> list[LogEntry]:
        """Apply the person's ``action`` (checked; the state is unchanged on error), then the agents' replies."""
        if self.state.is_terminal():
            raise IllegalActionError("the deal is over")
        if self.state.current_player() != self.seat:  # pragma: no cover - advance() prevents this
            raise IllegalActionError(f"it is seat {self.state.current_player()}'s turn, not yours")
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an integer id, got {action!r}")
        legal = self.state.legal_actions()
        if action not in legal:
            raise IllegalActionError(f"action {action} is not legal now; legal: {legal}")
        self._apply(action)
        return self.advance()

    def view(self) -> dict[str, Any]:
        """The person's view (see :func:`tarockrl.play.view.seat_view`)."""
        return seat_view(self.state, self.seat, self.log, self.names)

    def hint(self) -> int:
        """The hint agent's choice for the person's current decision."""
        if self._hint is None:
            self._hint = _make_agent(self.hint_spec, self.game, self.seed + 1000)
        return int(self._hint.step(self.state.clone()))

    def record(self) -> dict[str, Any]:
        """The game record: game, options, deal notation, actions (ids and names), agents, seeds, result."""
        return {
            "format": "tarockrl-game-record-1",
            "game": self.game.name,
            "options": {k: v for k, v in self.game.options.items()},
            "deal": self.initial_deal,
            "seed": self.seed,
            "human_seat": self.seat,
            "agents": self.specs,
            "agent_seeds": [None if i == self.seat else self.seed + 1 + i for i in range(self.game.num_players)],
            "actions": [e.action for e in self.log],
            "action_seats": [e.seat for e in self.log],
            "action_names": [self.game.action_to_string(e.action) for e in self.log],
            "terminal": self.state.is_terminal(),
            "returns": [float(x) for x in self.state.returns()] if self.state.is_terminal() else None,
        }


def parse_move(text: str, view: dict[str, Any], codes: list[str] | None = None) -> int:
    """The action id a person's input names, among ``view["legal"]``.

    Accepts the number in the numbered list (1-based), a card code (``T21``, ``HK``; case-insensitive), or an
    action name (``PASS``, ``BID Dreier``, ``DISCARD HK``). ``codes`` (every card code of the game) lets the
    message tell a card that cannot be played now from a typo. Raises :class:`IllegalActionError` explaining why.
    """
    legal = view["legal"]
    t = " ".join(text.strip().split())
    if not t:
        raise IllegalActionError("empty input")
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return legal[k - 1]["id"]
        raise IllegalActionError(f"{k} is not in the list: choose a number from 1 to {len(legal)}")
    up = t.upper()
    for item in legal:
        if item["name"].upper() == up:
            return item["id"]
    matches = [item for item in legal if item["card"] is not None and item["card"].upper() == up]
    if len(matches) == 1:
        return matches[0]["id"]
    if up in {c.upper() for c in view["hand"]}:
        raise IllegalActionError(f"{t} is not a legal move now")
    if codes is not None and up in {c.upper() for c in codes}:
        raise IllegalActionError(f"{t} is not in your hand")
    raise IllegalActionError(f"unknown input {t!r}: type a number, a card code or an action name")


def write_record(record: dict[str, Any], path: str) -> str:
    """Write ``record`` as JSON to ``path`` atomically (a temporary file in the same folder, then rename)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path

