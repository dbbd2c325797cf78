"""The Tatteln partie: a session of deals to ``partie_target`` (default 500) above the single-deal episode.

One deal is one episode of the engine; the partie only chains deals and keeps score (docs/rules/tatteln.md §7):

* totals ``P`` start at 0 and receive each deal's adjusted deal points ``Dadj`` (after a Matsch the matsched
  seat receives 0 with the default ``matsch_forfeits_score``);
* the first dealer is random, then the deal alternates (the next dealer is the previous forehand);
* a Matsch ends the partie at once when ``matsch_ends_partie``: the other seat wins with stake 2;
* otherwise, after a deal, when ``max(P) >= target``: the higher total wins, with stake 2 if the loser has not
  reached half the target (``2 * P[loser] < target``, option ``partie_double_below_half``) and 1 otherwise; equal
  totals play another deal;
* the partie settlement is ``[+stake, -stake]`` from the winner's side.

>>> import tarockrl
>>> from tarockrl.games.tatteln.partie import Partie
>>> game = tarockrl.make_game("tatteln")
>>> partie = Partie(game, seed=1)
>>> while not partie.over:
...     state = partie.new_deal()
...     while not state.is_terminal():
...         state.apply_action(state.legal_actions()[0])
...     partie.record(state)
>>> partie.settlement().sum()
0.0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tarockrl.errors import TarockError
from tarockrl.games.api import Game, State
from tarockrl.games.session import BadSessionError, SessionBase, SessionDeal
from tarockrl.games.tatteln import kernels
from tarockrl.games.tatteln import layout as L


@dataclass(frozen=True)
class DealRecord:
    """One finished deal of a partie."""

    dealer: int
    deal_points: tuple[int, int]  # adjusted deal points Dadj added to the totals
    matsched: int | None  # the matsched seat, if any
    settlement: tuple[float, float]  # the deal's own settlement (the episode's returns)
    totals: tuple[int, int]  # partie totals after this deal


class Partie(SessionBase):
    """A partie of Tatteln deals for one :class:`~tarockrl.games.api.Game` (its options set the target).

    ``seed`` makes the partie reproducible: deal ``i`` is ``game.new_initial_state(seed=seed, deal_id=i)`` with
    the partie's dealer, and the first dealer is the dealer that deal 0 of the seed draws (uniform).
    ``first_dealer`` fixes the first dealer instead.

    Two ways to play it: :meth:`new_deal` / :meth:`record` (or :meth:`record_result` for a deal known only by
    its deal points), or the :class:`~tarockrl.games.session.Session` driving API (``current_state()`` /
    ``apply_action(a)``), which deals and books by itself. ``scores()`` sums the deals' own settlements;
    :attr:`totals` are the partie points and :meth:`settlement` the partie's stake.
    """

    def __init__(self, game: Game, seed: int | None = None, first_dealer: int | None = None) -> None:
        """Start a partie with totals ``[0, 0]``."""
        if not isinstance(game, Game) or game.name != "tatteln":
            raise BadSessionError(f"a Tatteln partie needs a Tatteln game, got {game!r}")
        self._init_session(game, seed)
        rules = game.rules
        self.target = int(rules.partie_target)
        self.double_below_half = bool(rules.partie_double_below_half)
        self.matsch_ends = bool(rules.matsch_ends_partie)
        self.totals = [0, 0]
        self.records: list[DealRecord] = []
        self.winner: int | None = None
        self.stake = 0
        self.ended_by_matsch = False
        if first_dealer is None:
            first_dealer = game.new_initial_state(seed=self.seed, deal_id=0).deal()["dealer"]
        if isinstance(first_dealer, (bool, np.bool_)) or first_dealer not in (0, 1):
            raise BadSessionError(f"first_dealer must be 0 or 1, got {first_dealer!r}")
        self.first_dealer = int(first_dealer)
        self.next_dealer = int(first_dealer)
        self._open: State | None = None

    @property
    def over(self) -> bool:
        """True once the partie has a winner."""
        return self.winner is not None

    @property
    def deals_played(self) -> int:
        """Number of deals recorded."""
        return len(self.records)

    def new_deal(self, deal: dict | None = None) -> State:
        """The next deal, dealt by the partie's next dealer (from the seed, or the given deal dict's cards)."""
        if self.over:
            raise TarockError("the partie is over; start a new Partie")
        if deal is None:
            deal = self.game.new_initial_state(seed=self.seed, deal_id=self.deals_played).deal()
        deal = dict(deal)
        deal["dealer"] = self.next_dealer
        state = self.game.new_initial_state(deal=deal)
        self._open = state
        return state

    def record(self, state: State) -> DealRecord:
        """Add a finished deal to the partie (its adjusted deal points and Matsch) and check for the end."""
        if not isinstance(state, State) or state.game != self.game:
            raise TarockError("record() needs a finished state of this partie's game")
        if not state.is_terminal():
            raise TarockError("record() needs a finished deal (state.is_terminal() is False)")
        row = state.row
        d0, d1, x, _ = kernels.deal_points(row, self.game.encoded_options)
        dealer = int(row[L.DEALER])
        if dealer != self.next_dealer:
            raise TarockError(f"this deal was dealt by seat {dealer}, but the partie's dealer is {self.next_dealer}")
        ret = state.returns()
        matsched = None if x < 0 else int(x)
        rec = self._add((int(d0), int(d1)), matsched, (float(ret[0]), float(ret[1])))
        self._log_state(state, {"deal_points": [int(d0), int(d1)], "matsched": matsched})
        return rec

    def record_result(self, deal_points, matsched: int | None = None, settlement=(0.0, 0.0)) -> DealRecord:
        """Add a deal given by its adjusted deal points ``Dadj`` (and the matsched seat, if any)."""
        dealer = self.next_dealer
        rec = self._add(deal_points, matsched, settlement)
        self._log_result(dealer, rec.settlement, {"deal_points": list(rec.deal_points), "matsched": rec.matsched})
        return rec

    def _add(self, deal_points, matsched: int | None, settlement) -> DealRecord:
        if self.over:
            raise TarockError("the partie is over; start a new Partie")
        if len(tuple(deal_points)) != 2 or len(tuple(settlement)) != 2:
            raise TarockError("deal_points and settlement must be pairs")
        if matsched is not None and matsched not in (0, 1):
            raise TarockError(f"matsched must be None, 0 or 1, got {matsched!r}")
        d0, d1 = (int(v) for v in deal_points)
        settlement = tuple(float(v) for v in settlement)
        self.totals[0] += d0
        self.totals[1] += d1
        rec = DealRecord(self.next_dealer, (d0, d1), matsched, tuple(settlement), tuple(self.totals))
        self.records.append(rec)
        self.next_dealer = 1 - self.next_dealer  # the previous forehand deals next
        self._open = None
        p0, p1 = self.totals
        if matsched is not None and self.matsch_ends:
            self.winner = 1 - int(matsched)
            self.stake = 2
            self.ended_by_matsch = True
        elif max(p0, p1) >= self.target and p0 != p1:
            self.winner = 0 if p0 > p1 else 1
            loser_total = self.totals[1 - self.winner]
            self.stake = 2 if (self.double_below_half and 2 * loser_total < self.target) else 1
        return rec

    # -- Session hooks ----------------------------------------------------------------------------------
    def is_over(self) -> bool:
        """True once the partie has a winner (the Session form of :attr:`over`)."""
        return self.over

    def _new_deal_state(self, deal_id: int) -> State:
        deal = self.game.new_initial_state(seed=self.seed, deal_id=deal_id).deal()
        deal["dealer"] = self.next_dealer
        return self.game.new_initial_state(deal=deal)

    def _book(self, state: State) -> SessionDeal:
        self.record(state)
        return self.deal_log[-1]

    def _book_result(self, rec: dict) -> None:
        extra = rec.get("extra", {})
        self.record_result(extra["deal_points"], extra.get("matsched"), rec["returns"])

    def _params(self) -> dict:
        return {"first_dealer": self.first_dealer}

    @classmethod
    def _from_params(cls, game: Game, params: dict) -> Partie:
        return cls(game, seed=0, **params)

    def settlement(self) -> np.ndarray:
        """``[+stake, -stake]`` from the winner's side (zeros while the partie goes on)."""
        out = np.zeros(2, dtype=np.float64)
        if self.winner is not None:
            out[self.winner] = self.stake
            out[1 - self.winner] = -self.stake
        return out

    def features(self, player: int) -> np.ndarray:
        """The public partie facts for ``player`` (own total / target, opponent's / target, deals played / 10)."""
        p = int(player)
        return np.array([self.totals[p] / self.target, self.totals[1 - p] / self.target, self.deals_played / 10.0],
                        dtype=np.float32)

    def play(self, choose: Callable[[State], int], max_deals: int = 10_000) -> np.ndarray:
        """Play deals with ``choose(state) -> action`` until the partie ends; returns :meth:`settlement`."""
        while not self.over:
            if self.deals_played >= max_deals:
                raise TarockError(f"the partie did not end within {max_deals} deals")
            state = self.new_deal()
            while not state.is_terminal():
                state.apply_action(choose(state))
            self.record(state)
        return self.settlement()

    def __repr__(self) -> str:
        status = f"won by seat {self.winner} (stake {self.stake})" if self.over else "running"
        return f"<Tatteln partie to {self.target}: totals {self.totals}, {self.deals_played} deals, {status}>"


__all__ = ["Partie", "DealRecord"]
