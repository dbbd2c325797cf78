"""Troccas above one episode: episode inputs (dealer, balance), the partnership draw and the four-deal match.

An episode (one deal, with its thrown-in attempts) depends on the dealer and the match balance only. These
helpers produce those inputs the way the session structure of docs/rules/troccas.md §7 does: the partnership draw picks
the first dealer, the deal passes to the right after every played deal, and the balance given to the next deal
follows the options ``packet_basis``, ``deals_per_match`` and ``balance_scope``.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np
from numba import njit, prange

from tarockrl.engine.rng import below, stream_seed
from tarockrl.errors import BadDealError, IllegalActionError
from tarockrl.games.api import Batch, Game, State, _check_int
from tarockrl.games.session import BadSessionError, SessionBase, SessionDeal, check_int
from tarockrl.games.troccas import kernels as K
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_CODES
from tarockrl.games.troccas.text import BALANCE_LIMIT


@njit(cache=True, parallel=True)
def batch_deal_inputs(states, seed, first_deal_id, dealers, bal_a, opts):
    """Deal ``(seed, first_deal_id + i)`` into row ``i``: dealer ``dealers[i]``, balance ``(bal_a[i], -bal_a[i])``."""
    for i in prange(states.shape[0]):
        K.deal_inputs(states[i], seed, first_deal_id + i, dealers[i], bal_a[i], opts)


def _check_game(game: Any) -> None:
    if not isinstance(game, Game) or game.name != "troccas":
        raise TypeError(f"expected a Troccas game from make_game('troccas'), got {game!r}")


def _balance_a(balance: Any) -> int:
    """Team A's balance from an int (team A) or a zero-sum pair ``(bal_A, bal_B)``."""
    if isinstance(balance, (list, tuple)):
        if len(balance) != 2:
            raise ValueError(f"balance must be an integer or a pair (bal_A, bal_B), got {balance!r}")
        a = _check_int("balance[0]", balance[0], -BALANCE_LIMIT, BALANCE_LIMIT)
        b = _check_int("balance[1]", balance[1], -BALANCE_LIMIT, BALANCE_LIMIT)
        if a + b != 0:
            raise ValueError(f"balance must be zero-sum (bal_A + bal_B = 0), got {list(balance)}")
        return a
    return _check_int("balance", balance, -BALANCE_LIMIT, BALANCE_LIMIT)


def new_state(
    game: Game, seed: int | None = None, *, dealer: int | None = None, balance: Any = 0, deal_id: int = 0
) -> State:
    """A random deal ``(seed, deal_id)`` with the given dealer (random if ``None``) and match balance.

    ``balance`` is team A's balance or the pair ``(bal_A, bal_B)``. The cards are those of
    ``game.new_initial_state(seed=seed, deal_id=deal_id)``.
    """
    _check_game(game)
    if seed is None:
        seed = secrets.randbits(62)
    seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
    deal_id = _check_int("deal_id", deal_id, -(2**63), 2**63 - 1)
    bal_a = _balance_a(balance)
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    if dealer is None:
        K.deal(row, np.int64(seed), np.int64(deal_id), game.encoded_options)
        if bal_a != 0:
            d = int(row[L.DEALER])
            K.deal_inputs(row, np.int64(seed), np.int64(deal_id), np.int64(d), np.int64(bal_a), game.encoded_options)
    else:
        d = _check_int("dealer", dealer, 0, 3)
        K.deal_inputs(row, np.int64(seed), np.int64(deal_id), np.int64(d), np.int64(bal_a), game.encoded_options)
    return State(game, row, seed=seed)


def new_batch(game: Game, n: int, seed: int = 0, *, dealers: Any, balances: Any = 0, first_deal_id: int = 0) -> Batch:
    """``n`` deals ``(seed, first_deal_id + i)`` with per-row dealers and team-A balances (scalars broadcast)."""
    _check_game(game)
    n = _check_int("n", n, 0, 2**40)
    d = np.broadcast_to(np.asarray(dealers, dtype=np.int64), (n,)).copy()
    b = np.broadcast_to(np.asarray(balances, dtype=np.int64), (n,)).copy()
    if n and (d.min() < 0 or d.max() > 3):
        raise ValueError("dealers must be seats 0..3")
    if n and np.abs(b).max() > BALANCE_LIMIT:
        raise ValueError(f"balances must lie in [-{BALANCE_LIMIT}, {BALANCE_LIMIT}]")
    rows = np.zeros((n, L.STATE_LEN), dtype=np.int64)
    batch_deal_inputs(rows, np.int64(seed), np.int64(first_deal_id), d, b, game.encoded_options)
    return Batch(game, rows)


def partnership_draw(seed: int) -> dict:
    """The partnership draw of docs/rules/troccas.md §7.1 for four players numbered 0..3 (in the order they are served).

    Cards of a shuffled pack are dealt face up to the players in turn, skipping a player who already holds a
    trump, until everybody holds one trump (the Fool and suit cards are ignored). The two highest trumps form
    one team, the two lowest the other; the lowest trump deals first. The engine seats the first dealer at 0,
    his partner at 2 and the other two at 1 and 3 in random order. Returns ``{"trumps": [code per player],
    "first_dealer": player, "seat_of": [seat per player], "player_at": [player per seat]}``.
    """
    seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
    rng = stream_seed(np.int64(seed), np.int64(0x7EA5))
    order = np.arange(78, dtype=np.int64)
    for i in range(77, 0, -1):
        rng, j = below(rng, np.int64(i + 1))
        order[i], order[int(j)] = order[int(j)], order[i]
    trump = [-1, -1, -1, -1]
    player = 0
    for card in order:
        while trump[player] >= 0:
            player = (player + 1) % 4
        if int(card) <= 20:
            trump[player] = int(card)
        if min(trump) >= 0:
            break
        player = (player + 1) % 4
    ranked = sorted(range(4), key=lambda p: trump[p])
    dealer, partner = ranked[0], ranked[1]
    others = ranked[2:]
    rng, flip = below(rng, np.int64(2))
    if int(flip):
        others = others[::-1]
    seat_of = [0, 0, 0, 0]
    seat_of[dealer], seat_of[partner], seat_of[others[0]], seat_of[others[1]] = 0, 2, 1, 3
    player_at = [0, 0, 0, 0]
    for p, s in enumerate(seat_of):
        player_at[s] = p
    return {
        "trumps": [CARD_CODES[t] for t in trump],
        "first_dealer": dealer,
        "seat_of": seat_of,
        "player_at": player_at,
    }


class Match(SessionBase):
    """A match of ``deals_per_match`` played deals (docs/rules/troccas.md §7.2); the dealer moves right after every
    deal.

    ``start_balance`` is team A's balance carried in (used with ``balance_scope = "session"``). Use
    :meth:`new_state` for the next deal, play it to the end, then :meth:`record` it; or drive the match as a
    :class:`~tarockrl.games.session.Session` (``current_state()`` / ``apply_action(a)``), which deals deal
    ``i`` from ``(seed, first_deal_id + i)`` with this match's dealer and balance and books it when it ends.
    """

    def __init__(self, game: Game, first_dealer: int = 0, start_balance: int = 0, *, seed: int | None = None,
                 first_deal_id: int = 0) -> None:
        """A fresh match of ``game`` whose first deal is dealt by ``first_dealer``."""
        try:
            _check_game(game)
            carried = _balance_a(start_balance)
        except (TypeError, ValueError) as exc:
            raise BadSessionError(str(exc)) from exc
        self._init_session(game, seed, first_deal_id)
        self.first_dealer = check_int("first_dealer", first_dealer, 0, 3)
        self.carried = carried
        self.results: list[int] = []  # team A's result per recorded deal

    @property
    def deal_number(self) -> int:
        """Deals recorded so far."""
        return len(self.results)

    @property
    def dealer(self) -> int:
        """Dealer of the next deal."""
        return (self.first_dealer + len(self.results)) % 4

    @property
    def balance(self) -> tuple[int, int]:
        """The running balance ``(bal_A, bal_B)`` (the carried balance included under session scope)."""
        a = self.carried + sum(self.results)
        return a, -a

    def episode_balance(self) -> tuple[int, int]:
        """The balance the next deal receives (``packet_basis``: the running balance or the last result)."""
        if self.game.rules.packet_basis == "last_deal":
            a = self.results[-1] if self.results else 0
            return a, -a
        return self.balance

    def is_over(self) -> bool:
        """True once ``deals_per_match`` deals are recorded."""
        return len(self.results) >= self.game.rules.deals_per_match

    def new_state(self, seed: int | None = None, deal: dict | None = None, deal_id: int = 0) -> State:
        """The next deal: random from ``seed`` or the given deal dict (its dealer must be this match's)."""
        if self.is_over():
            raise IllegalActionError("the match is over; start a new one with next_match()")
        bal = self.episode_balance()
        if deal is not None:
            if seed is not None:
                raise ValueError("give either seed= or deal=, not both")
            if not isinstance(deal, dict):
                raise BadDealError(f"a Troccas deal is a dict, got {type(deal).__name__}")
            if deal.get("dealer") != self.dealer:
                raise BadDealError(
                    f"this match's next dealer is seat {self.dealer}, the deal says {deal.get('dealer')!r}"
                )
            if "balance" in deal and list(deal["balance"]) != list(bal):
                raise BadDealError(
                    f"this match's balance for the next deal is {list(bal)}, the deal says {deal['balance']!r}"
                )
            return self.game.new_initial_state(deal={**deal, "balance": list(bal)})
        return new_state(self.game, seed, dealer=self.dealer, balance=bal[0], deal_id=deal_id)

    def record(self, state: State) -> tuple[int, int, int, int]:
        """Book a finished deal of this match; returns its settlement vector."""
        rec = self._book(state)
        return tuple(int(x) for x in rec.returns)

    def _book(self, state: State) -> SessionDeal:
        if not isinstance(state, State) or state.game != self.game:
            raise TypeError("record() needs a State of this match's game")
        if not state.is_terminal():
            raise IllegalActionError("only a finished deal can be recorded")
        if self.is_over():
            raise IllegalActionError("the match is over; start a new one with next_match()")
        inputs = (int(state.row[L.DEALER]), int(state.row[L.BAL]), int(state.row[L.BAL + 1]))
        if inputs != (self.dealer, *self.episode_balance()):
            raise ValueError("this deal was not dealt for this match's next deal (dealer or balance differ)")
        r = state.returns()
        self.results.append(int(r[0]))
        return self._log_state(state)

    def _new_deal_state(self, deal_id: int) -> State:
        return new_state(self.game, self.seed, dealer=self.dealer, balance=self.episode_balance()[0], deal_id=deal_id)

    def settlement(self) -> list[int]:
        """Per-seat match settlement: the sum of the recorded deals' vectors ``[a, -a, a, -a]``."""
        a = sum(self.results)
        return [a, -a, a, -a]

    def team_scores(self) -> tuple[int, int]:
        """Running score per team ``(A, B)`` over this match's deals (the carried balance not included)."""
        a = sum(self.results)
        return a, -a

    def winner(self) -> int | None:
        """Team that won the match (0 = A, 1 = B), ``None`` for a tie or an unfinished match."""
        if not self.is_over():
            return None
        a = sum(self.results)
        return None if a == 0 else (0 if a > 0 else 1)

    def next_match(self) -> Match:
        """The following match: the deal keeps moving right; the balance carries over under session scope.

        Its own deals continue this match's deal ids (same seed), so the two matches never share a deal.
        """
        carried = self.balance[0] if self.game.rules.balance_scope == "session" else 0
        return Match(self.game, first_dealer=self.dealer, start_balance=carried, seed=self.seed,
                     first_deal_id=self.first_deal_id + len(self.results))

    def _params(self) -> dict:
        return {"first_dealer": self.first_dealer, "start_balance": self.carried}

    @classmethod
    def _from_params(cls, game: Game, params: dict) -> Match:
        return cls(game, seed=0, **params)

    def __repr__(self) -> str:
        status = "over" if self.is_over() else "running"
        return (f"<Troccas match: {len(self.results)}/{self.game.rules.deals_per_match} deals, balance "
                f"{list(self.balance)}, {status}>")


__all__ = ["new_state", "new_batch", "partnership_draw", "Match"]
