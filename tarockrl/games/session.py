"""Sessions: several deals of one game with the dealer moving on, running scores and a record of every deal.

One deal is one episode of the engine; a session chains deals the way people play them. Every game has one:

=================  ==============================================  ============================================
game               session class                                   ends after
=================  ==============================================  ============================================
``dreierles``      :class:`DreierlesSession` (rounds of 3 deals)   ``rounds`` rounds (optional last round
                                                                   "Räuber or Solo")
``dreiertarock``   :class:`DreiertarockSession`                    ``rounds`` rounds of 3 deals
``troccas``        :class:`tarockrl.games.troccas.match.Match`     ``deals_per_match`` deals (4 by default)
``tatteln``        :class:`tarockrl.games.tatteln.partie.Partie`   a seat reaches ``partie_target`` (or a
                                                                   Matsch ends the partie)
=================  ==============================================  ============================================

All of them follow :class:`Session` (driving API) and derive from :class:`SessionBase`::

    session = tarockrl.make_game("dreierles").new_session(seed=7, rounds=2)
    while not session.is_over():
        state = session.current_state()          # the deal in progress (a State)
        session.apply_action(state.legal_actions()[0])   # a finished deal is booked, the next one dealt
    session.scores()                             # per seat: the sum of the deals' returns

Deal ``i`` of a session with seed ``s`` has the cards of ``deal(s, first_deal_id + i)`` and the session's
dealer (in Troccas also the match balance). A finished deal is kept as a :class:`SessionDeal`: its deal
notation (``State.deal()`` at the end, which for Troccas lists any redeals), its actions and its returns, so
``Session.to_dict()`` is plain JSON-compatible data and :meth:`SessionBase.from_dict` rebuilds the session by
replaying it (and checks the stored returns on the way).
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any, Protocol, runtime_checkable

import numpy as np

from tarockrl.errors import GameOverError, TarockError
from tarockrl.games.api import Game, State

_FORMAT = "tarockrl-session"
_FORMAT_VERSION = 1


class BadSessionError(TarockError):
    """A session parameter it cannot take, or saved session data that does not replay consistently."""


@dataclasses.dataclass(frozen=True)
class SessionDeal:
    """One finished deal of a session.

    ``deal`` is the deal notation at the end of the deal (``None`` for a deal booked by its result only) and
    ``actions`` its action list (``None`` likewise); replaying ``actions`` on ``game.new_initial_state(deal=deal)``
    reproduces the deal. ``seed``/``deal_id`` are set when the session dealt it itself. ``extra`` holds facts
    of one game (Tatteln: the adjusted deal points and the matsched seat).
    """

    index: int
    dealer: int
    returns: tuple[float, ...]
    deal: dict | None = None
    actions: tuple[int, ...] | None = None
    seed: int | None = None
    deal_id: int | None = None
    last_round: bool = False
    extra: dict = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-compatible form."""
        out = dataclasses.asdict(self)
        out["returns"] = list(self.returns)
        out["actions"] = None if self.actions is None else list(self.actions)
        return out


@runtime_checkable
class Session(Protocol):
    """The driving API every session offers (see the module docstring)."""

    game: Game

    def current_state(self) -> State:
        """The deal in progress (the last, finished deal once the session is over)."""

    def apply_action(self, action: int) -> SessionDeal | None:
        """Apply ``action`` to the deal in progress; returns the booked deal when it ended it, else ``None``."""

    def is_over(self) -> bool:
        """True once the session's end condition holds."""

    def scores(self) -> np.ndarray:
        """Running score per seat: the sum of the finished deals' returns (float64, zero-sum)."""

    def to_dict(self) -> dict:
        """JSON-compatible data from which :meth:`from_dict` rebuilds the session."""


def check_int(what: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``[lo, hi]``; anything else raises :class:`BadSessionError` naming ``what``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise BadSessionError(f"{what} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if not lo <= value <= hi:
        raise BadSessionError(f"{what}={value} is out of range [{lo}, {hi}]")
    return value


class SessionBase:
    """Shared machinery: the deal in progress, the deal log, scores, and saving by replay.

    A subclass provides :meth:`_new_deal_state` (deal the next deal), :meth:`_book` (add a finished deal to its
    own bookkeeping and return its :class:`SessionDeal`), :meth:`is_over`, and :meth:`_params` /
    :meth:`_from_params` for saving. :meth:`_log_state` builds the :class:`SessionDeal` of a finished state.
    """

    game: Game
    seed: int
    first_deal_id: int

    def _init_session(self, game: Game, seed: int | None, first_deal_id: int = 0) -> None:
        if not isinstance(game, Game):
            raise BadSessionError(f"a session needs a Game from tarockrl.make_game, got {game!r}")
        self.game = game
        self.seed = secrets.randbits(62) if seed is None else check_int("seed", seed, -(2**63), 2**63 - 1)
        self.first_deal_id = check_int("first_deal_id", first_deal_id, -(2**62), 2**62)
        self.deal_log: list[SessionDeal] = []
        self._current: State | None = None
        self._current_id: int | None = None
        self._last: State | None = None

    # -- hooks ------------------------------------------------------------------------------------------
    def _new_deal_state(self, deal_id: int) -> State:  # pragma: no cover - abstract
        raise NotImplementedError

    def _book(self, state: State) -> SessionDeal:  # pragma: no cover - abstract
        raise NotImplementedError

    def is_over(self) -> bool:  # pragma: no cover - abstract
        """True once the session's end condition holds."""
        raise NotImplementedError

    def _params(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def _from_params(cls, game: Game, params: dict) -> SessionBase:  # pragma: no cover - abstract
        raise NotImplementedError

    def _book_result(self, rec: dict) -> None:
        raise BadSessionError(f"{type(self).__name__} cannot book a deal without its actions")

    def _is_last_round_state(self, state: State) -> bool:
        return False

    # -- the deal log -------------------------------------------------------------------------------------
    def _log_state(self, state: State, extra: dict | None = None) -> SessionDeal:
        """Append the finished ``state`` to :attr:`deal_log` (as the session's own deal when it is)."""
        own = state is self._current
        deal = state.deal()
        rec = SessionDeal(
            index=len(self.deal_log),
            dealer=int(deal["dealer"]),
            returns=tuple(float(x) for x in state.returns()),
            deal=deal,
            actions=tuple(state.history()),
            seed=self.seed if own else None,
            deal_id=self._current_id if own else None,
            last_round=self._is_last_round_state(state),
            extra=dict(extra or {}),
        )
        self.deal_log.append(rec)
        self._last = state
        # the session's own open deal is either this one or superseded by a deal booked from outside
        self._current = None
        self._current_id = None
        return rec

    def _log_result(self, dealer: int, returns: Any, extra: dict | None = None) -> SessionDeal:
        """Append a deal known only by its result."""
        rec = SessionDeal(len(self.deal_log), int(dealer), tuple(float(x) for x in returns), extra=dict(extra or {}))
        self.deal_log.append(rec)
        if self._current is not None:  # the open deal is superseded
            self._current = None
            self._current_id = None
        return rec

    @property
    def deals_done(self) -> int:
        """Number of finished deals booked so far."""
        return len(self.deal_log)

    # -- driving API --------------------------------------------------------------------------------------
    def _deal_next(self) -> None:
        """Deal the next deal; deals that end at once (no decision) are booked and passed over."""
        while not self.is_over():
            deal_id = self.first_deal_id + len(self.deal_log)
            state = self._new_deal_state(deal_id)
            self._current, self._current_id = state, deal_id
            if not state.is_terminal():
                return
            self._book(state)

    def current_state(self) -> State:
        """The deal in progress, dealt on first use; once the session is over, the last finished deal."""
        if self._current is None and not self.is_over():
            self._deal_next()
        if self._current is not None:
            return self._current
        if self._last is not None:
            return self._last
        raise GameOverError("the session is over and has no finished deal to show")

    def current_player(self) -> int:
        """Seat to move in the deal in progress (-1 once the session is over)."""
        return -1 if self.is_over() else self.current_state().current_player()

    def apply_action(self, action: int) -> SessionDeal | None:
        """Apply ``action`` to the deal in progress (an illegal one raises and changes nothing).

        When the action ends the deal, the deal is booked and returned, and the next deal is dealt unless
        the session is over.
        """
        if self.is_over():
            raise GameOverError("the session is over; no action is legal")
        state = self.current_state()
        state.apply_action(action)
        if not state.is_terminal():
            return None
        rec = self._book(state)
        if not self.is_over():
            self._deal_next()
        return rec

    def run(self, players: Any, max_actions: int = 10_000_000) -> np.ndarray:
        """Play the session to its end and return :meth:`scores`.

        ``players`` is one callable ``f(state) -> action`` for every seat, or a sequence with one entry per
        seat, each a callable or an agent with ``step(state)`` (``tarockrl.agents.make_agent``). Each is
        called only for the seat to move.
        """
        n = self.game.num_players
        if callable(players) and not hasattr(players, "step"):
            choose = [players] * n
        elif hasattr(players, "step"):
            choose = [players.step] * n
        else:
            seq = list(players)
            if len(seq) != n:
                raise BadSessionError(f"run() needs one player per seat ({n}), got {len(seq)}")
            choose = [p.step if hasattr(p, "step") else p for p in seq]
            if not all(callable(c) for c in choose):
                raise BadSessionError("every player must be a callable f(state) -> action or have step(state)")
        taken = 0
        while not self.is_over():
            if taken >= max_actions:
                raise BadSessionError(f"the session did not end within {max_actions} actions")
            state = self.current_state()
            self.apply_action(choose[state.current_player()](state))
            taken += 1
        return self.scores()

    def scores(self) -> np.ndarray:
        """Running score per seat: the sum of the finished deals' returns (float64)."""
        out = np.zeros(self.game.num_players, dtype=np.float64)
        for rec in self.deal_log:
            out += np.asarray(rec.returns, dtype=np.float64)
        return out

    def summary(self) -> str:
        """A readable table: one line per finished deal (dealer, returns, running scores), then the status."""
        n = self.game.num_players
        head = f"{'deal':>4}  {'dealer':>6}  " + "  ".join(f"{'seat ' + str(p):>9}" for p in range(n))
        lines = [f"{type(self).__name__} of {self.game.name} (seed {self.seed})", head]
        running = np.zeros(n, dtype=np.float64)
        for rec in self.deal_log:
            running += np.asarray(rec.returns, dtype=np.float64)
            cells = "  ".join(f"{r:>+9g}" for r in rec.returns)
            mark = "  (last round)" if rec.last_round else ""
            lines.append(f"{rec.index + 1:>4}  {rec.dealer:>6}  {cells}{mark}")
        lines.append(f"{'sum':>4}  {'':>6}  " + "  ".join(f"{r:>+9g}" for r in running))
        lines.append("over" if self.is_over() else f"running: deal {len(self.deal_log) + 1} in progress")
        return "\n".join(lines)

    # -- saving -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """JSON-compatible data: game, options, session parameters, the finished deals and the open deal."""
        current = None
        if self._current is not None and self._current.history():  # a fresh deal is dealt again on demand
            current = {"deal_id": self._current_id, "actions": self._current.history()}
        return {
            "format": _FORMAT,
            "version": _FORMAT_VERSION,
            "kind": type(self).__name__,
            "game": self.game.name,
            "options": _plain(self.game.options),
            "seed": self.seed,
            "first_deal_id": self.first_deal_id,
            "params": self._params(),
            "deals": [rec.to_dict() for rec in self.deal_log],
            "current": current,
        }

    @classmethod
    def from_dict(cls, data: dict) -> SessionBase:
        """Rebuild a session saved by :meth:`to_dict`, replaying every deal (raises ``BadSessionError``)."""
        from tarockrl.games import make_game

        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise BadSessionError("not a saved tarockrl session (missing format tag)")
        if data.get("version") != _FORMAT_VERSION:
            raise BadSessionError(f"saved session format version {data.get('version')!r} is not supported")
        kind = data.get("kind")
        target = _SESSION_CLASSES().get(kind)
        if target is None:
            raise BadSessionError(f"unknown session kind {kind!r}")
        if cls is not SessionBase and not issubclass(target, cls):
            raise BadSessionError(f"this is a saved {kind}, not a {cls.__name__}")
        try:
            game = make_game(data["game"], **data.get("options", {}))
            session = target._from_params(game, dict(data.get("params", {})))
            session.seed = check_int("seed", data["seed"], -(2**63), 2**63 - 1)
            session.first_deal_id = check_int("first_deal_id", data.get("first_deal_id", 0), -(2**62), 2**62)
            for i, rec in enumerate(data["deals"]):
                session._replay_finished(i, rec)
            cur = data.get("current")
            if cur is not None:
                if session.is_over():
                    raise BadSessionError("the saved session is over but has a deal in progress")
                session._deal_next()
                if session._current_id != cur["deal_id"]:
                    raise BadSessionError("the deal in progress has another deal id than the session would deal")
                for a in cur["actions"]:
                    session.apply_action(a)
            if session._current is not None and (cur is None or session._current.history() != list(cur["actions"])):
                raise BadSessionError("the saved deal in progress does not match the replay")
        except BadSessionError:
            raise
        except (TarockError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise BadSessionError(f"saved session does not replay: {exc}") from exc
        return session

    def _replay_finished(self, i: int, rec: dict) -> None:
        if rec.get("actions") is None:
            self._book_result(rec)
        else:
            if rec.get("deal_id") is not None:
                if rec["deal_id"] != self.first_deal_id + i:
                    raise BadSessionError(f"deal {i}: deal id {rec['deal_id']} is not the session's")
                self._current_id = rec["deal_id"]
                self._current = state = self._new_deal_state(rec["deal_id"])
            else:
                state = self._game_for(rec).new_initial_state(deal=rec["deal"])
            for a in rec["actions"]:
                state.apply_action(a)
            if not state.is_terminal():
                raise BadSessionError(f"deal {i}: the saved actions do not finish the deal")
            booked = self._book(state)
            if booked.deal != rec["deal"]:
                raise BadSessionError(f"deal {i}: the replayed deal differs from the saved deal notation")
        got = self.deal_log[-1]
        if list(got.returns) != [float(x) for x in rec["returns"]] or got.dealer != rec["dealer"]:
            raise BadSessionError(f"deal {i}: the replay gives dealer {got.dealer} and returns {list(got.returns)}, "
                                  f"the saved data says {rec['dealer']} and {rec['returns']}")

    def _game_for(self, rec: dict) -> Game:
        return self.game

    def __repr__(self) -> str:
        status = "over" if self.is_over() else "running"
        return (f"<{type(self).__name__} of {self.game.name}: {self.deals_done} deals, "
                f"scores {self.scores().tolist()}, {status}>")


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class RoundsSession(SessionBase):
    """A session of ``rounds`` rounds of three deals for a three-player game; the deal passes to the next seat.

    The dealer of deal ``i`` is ``(first_dealer + i) % 3`` (the old forehand deals next, the same direction
    in both three-player games). ``first_dealer=None`` takes the dealer drawn by ``deal(seed, first_deal_id)``.
    """

    GAME_NAME = ""

    def __init__(self, game: Game, seed: int | None = None, *, rounds: int = 1, first_dealer: int | None = None,
                 first_deal_id: int = 0) -> None:
        """Start a session with all scores 0."""
        if not isinstance(game, Game) or game.name != self.GAME_NAME:
            raise BadSessionError(f"{type(self).__name__} needs a {self.GAME_NAME} game, got {game!r}")
        self._init_session(game, seed, first_deal_id)
        self.rounds = check_int("rounds", rounds, 1, 10**6)
        if first_dealer is None:
            first_dealer = game.new_initial_state(seed=self.seed, deal_id=self.first_deal_id).deal()["dealer"]
        self.first_dealer = check_int("first_dealer", first_dealer, 0, 2)

    @property
    def num_deals(self) -> int:
        """Deals in the whole session (3 per round)."""
        return 3 * self.rounds

    @property
    def dealer(self) -> int:
        """Dealer of the deal in progress (or of the next one)."""
        return (self.first_dealer + len(self.deal_log)) % 3

    def is_over(self) -> bool:
        """True once every round is played."""
        return len(self.deal_log) >= self.num_deals

    def _game_of_deal(self, index: int) -> Game:
        return self.game

    def _new_deal_state(self, deal_id: int) -> State:
        game = self._game_of_deal(len(self.deal_log))
        deal = game.new_initial_state(seed=self.seed, deal_id=deal_id).deal()
        deal["dealer"] = self.dealer
        return game.new_initial_state(deal=deal)

    def _book(self, state: State) -> SessionDeal:
        if not isinstance(state, State) or state.game not in (self.game, self._game_of_deal(len(self.deal_log))):
            raise BadSessionError("only a deal of this session's game can be booked")
        if not state.is_terminal():
            raise BadSessionError("only a finished deal can be booked")
        if self.is_over():
            raise GameOverError("the session is over")
        if int(state.deal()["dealer"]) != self.dealer:
            raise BadSessionError(f"this deal was dealt by seat {state.deal()['dealer']}, the session's dealer is "
                                  f"{self.dealer}")
        return self._log_state(state)

    def record(self, state: State) -> SessionDeal:
        """Book a finished deal played outside the driving API (it must be dealt by :attr:`dealer`)."""
        return self._book(state)

    def _params(self) -> dict:
        return {"rounds": self.rounds, "first_dealer": self.first_dealer}

    @classmethod
    def _from_params(cls, game: Game, params: dict) -> RoundsSession:
        return cls(game, 0, **params)


class DreierlesSession(RoundsSession):
    """Dreierles: ``rounds`` rounds of three deals (docs/rules/dreierles.md §7).

    With ``last_round_raeuber_or_solo=True`` the deals of the last round are played in the "Räuber or Solo"
    mode (only PASS or SOLO may be bid, a higher Räuber base): they use :attr:`last_round_game`, the session's
    game with the option ``last_round_raeuber_or_solo`` set. The other deals use the session's game as given.
    """

    GAME_NAME = "dreierles"

    def __init__(self, game: Game, seed: int | None = None, *, rounds: int = 1, first_dealer: int | None = None,
                 first_deal_id: int = 0, last_round_raeuber_or_solo: bool = False) -> None:
        """Start a session; see the class docstring for ``last_round_raeuber_or_solo``."""
        super().__init__(game, seed, rounds=rounds, first_dealer=first_dealer, first_deal_id=first_deal_id)
        if not isinstance(last_round_raeuber_or_solo, (bool, np.bool_)):
            raise BadSessionError(
                f"last_round_raeuber_or_solo must be True or False, got {last_round_raeuber_or_solo!r}"
            )
        self.last_round_raeuber_or_solo = bool(last_round_raeuber_or_solo)
        from tarockrl.games import make_game

        self.last_round_game = (
            make_game("dreierles", **{**game.options, "last_round_raeuber_or_solo": True})
            if self.last_round_raeuber_or_solo else game
        )

    def _game_of_deal(self, index: int) -> Game:
        if self.last_round_raeuber_or_solo and index >= self.num_deals - 3:
            return self.last_round_game
        return self.game

    def _is_last_round_state(self, state: State) -> bool:
        return bool(state.game.rules.last_round_raeuber_or_solo)

    def _game_for(self, rec: dict) -> Game:
        return self.last_round_game if rec.get("last_round") else self.game

    def _params(self) -> dict:
        return {**super()._params(), "last_round_raeuber_or_solo": self.last_round_raeuber_or_solo}


class DreiertarockSession(RoundsSession):
    """Dreiertarock: ``rounds`` rounds of three deals; a thrown-in deal also passes the deal on (docs §3, §7)."""

    GAME_NAME = "dreiertarock"


def _SESSION_CLASSES() -> dict[str, type]:
    from tarockrl.games.tatteln.partie import Partie
    from tarockrl.games.troccas.match import Match

    return {"DreierlesSession": DreierlesSession, "DreiertarockSession": DreiertarockSession, "Match": Match,
            "Partie": Partie}


def new_session(game: Game, seed: int | None = None, **params: Any) -> SessionBase:
    """The session of ``game``'s kind (see the module docstring); ``params`` go to its class.

    Dreierles / Dreiertarock: ``rounds``, ``first_dealer``, ``first_deal_id`` (Dreierles also
    ``last_round_raeuber_or_solo``). Troccas: ``first_dealer``, ``start_balance``, ``first_deal_id``.
    Tatteln: ``first_dealer``.
    """
    if not isinstance(game, Game):
        raise BadSessionError(f"new_session needs a Game from tarockrl.make_game, got {game!r}")
    cls = {"dreierles": DreierlesSession, "dreiertarock": DreiertarockSession}.get(game.name)
    if cls is None:
        cls = {"troccas": _SESSION_CLASSES()["Match"], "tatteln": _SESSION_CLASSES()["Partie"]}.get(game.name)
    if cls is None:
        raise BadSessionError(f"no session is defined for the game {game.name!r}")
    import inspect

    allowed = [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "game", "seed")]
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise BadSessionError(f"unknown {game.name} session parameter(s) {unknown}; known: {allowed}")
    return cls(game, seed=seed, **params)


__all__ = ["Session", "SessionBase", "SessionDeal", "BadSessionError", "RoundsSession", "DreierlesSession",
           "DreiertarockSession", "new_session"]
