"""Open-hand (perfect-information) solver for the card play of every game.

``solve(state, objective="returns" | "card_points", max_nodes=None)`` searches the rest of the deal with every
card known (the other hands, and in Tatteln the stock in its order) and returns a :class:`SolveResult`:

* ``value``: the exact value of the position for the side of the seat to move;
* ``action_values``: every legal action of the position -> its exact value (same side's view), so
  ``value == max(action_values.values())``;
* ``nodes``: positions the search visited; ``best_action``: a legal action of maximal value (the lowest id).

With ``value_only=True`` only ``value`` and one best action are computed (``action_values`` holds just
``best_action``, which is then any action of maximal value): the root's value by MTD(f), the best action taken
from its last successful zero-window search, without the exact values of the other actions.

**Sides and values.** Every seat plays to its side's best. Two-sided contracts are searched exactly:
Dreierles and Dreiertarock (the declarer against the two defenders), Troccas (seats 0+2 against 1+3), Tatteln
(one against one). With ``objective="returns"`` the value is the side's settlement in game points: the seat's
own settlement when it plays alone (declarer, Tatteln) or when its partner receives the same amount (Troccas);
for the two defenders of Dreierles/Dreiertarock, whose settlements can differ, the side plays for their sum,
which is minus the declarer's settlement (the deal is zero-sum), and that sum is the value. With
``objective="card_points"`` the value is the card points the side holds at the end of the deal as the game
counts them (Dreierles/Dreiertarock: the side's pile with discards or talon as the rules give them;
Troccas: the team's points after the scart and the Fool; Tatteln: the pile's card points plus 10 for the last
trick, without melds), and every side maximises its own points.

**Everyone for himself** (Räuber in Dreierles, Trischaken in Dreiertarock): the search is *paranoid*: the seat to
move maximises its own settlement (or card points) and the two others are assumed to minimise it together. The
value is exact for that two-sided reading, a lower bound of what the seat gets against any play of the others.

**Search.** Fail-soft alpha-beta over the game's own rule kernels (so the solver plays by exactly the engine's
rules and options), iterative with an explicit frame per depth, with a transposition table (2**20 slots by default
in two-slot buckets: the entry with the bigger subtree of the current solve keeps the first slot, the other slot
is always replaced, and entries of earlier solves count as empty; 64-bit keys: a key collision could in principle
give a wrong value, with probability about nodes / 2**64), equivalent-card merging, move ordering (the table's
best move, then a static trick-play hint: give a winning partner value, beat an opponent as cheaply as possible,
else throw the least value; in Dreierles and Dreiertarock a second card that the third seat, an opponent, can
overtake counts as a loser; then a history heuristic), and cheap copies of the state row (a child copies its
parent's row prefix and applies the game's step). Every search is a zero-window search: the root's value is found
first by MTD(f), then every distinct root action is solved exactly by MTD(f) from that value, which is also its
upper bound (one zero-window search settles an action as good as the best). Where the values the root can take are
known (the Dreierles and Dreiertarock settlements are step functions of the declarer's points plus bonuses;
the adapter's ``root_levels`` may list them), the tests snap to them. Per game
(the adapters in :mod:`tarockrl.solvers.adapters` document the details):

* the transposition key holds what the value of the rest of the deal depends on, and no more: the hands, the
  trick so far, the seat to move, and a summary of the cards won (e.g. in Dreierles the declarer's pile points,
  which is all the counting reads); in Dreierles and Dreiertarock the hands are keyed *up to ranks* (the cards
  still in play in suit and rank order, each as its place and value), so positions that differ only in which
  cards of the same structure were played share an entry;
* Dreierles, outside Räuber: once the Pfeife is out of play (always with ``"card_points"``), the value is a
  monotone function of the declarer's final pile points, which are the points so far plus the points of the
  tricks still to win; the table then keys the position alone and stores bounds on the points still to win
  (transpositions with different pasts share one entry). While the Pfeife is in play (its bonus is decided in the
  last trick), the value is still monotone in the points so far: the table keys the position alone and stores two
  facts, "with at least ``lo`` points so far the value is at least ``vlo``" and "with at most ``hi`` points so far
  it is at most ``vhi``", which serve the zero-window searches of every threshold (and keep the position's best
  move across them). The last card of a trick stays out of the table (its children, the next trick's starts, are
  in it), and the last trick is played out without search. In Räuber the key holds each seat's pile points so
  far (piles hold whole tricks, so final points are these plus the tricks still won).
  Static bounds cut a window the rest cannot reach (checked at every node, before the table is probed):
  sure trump tricks of each side (a trick holding a side's trump that no higher trump of the other side joins
  is that side's and worth at least the trump's value; each trump of the other side beats at most one such
  trump, two for the declarer's against the two defenders', counted by a greedy matching), plus, for the side
  on lead at a trick start, the plain top cards it can cash while both other seats must follow suit; and the
  Pfeife bonus lies in a known range (nothing above 0 for the declarer while a defender holds the Pfeife,
  unless ``pfeife_defender_loss_scores_declarer`` for a silent one; nothing at all once it lies in the current
  trick before the 16th; nothing for the holder's side once a seat that would beat it holds trumps only);
* Dreiertarock, outside Trischaken and Solo Valat: the same threshold entries once both sides have won a trick
  (the settlement is then its game item, a step function of the declarer's final pile points, plus bonuses that
  the past summary in the key and the rest of the play decide), with static bounds from sure tarock tricks,
  cashable plain tops and the range the open bonuses (birds, Trull, King Trull, Mondfang) can still take; with
  ``"card_points"`` additive positions as in Dreierles (the adapter documents it);
* Troccas: additive positions once both teams have won a trick and a payment for the Fool, made or still
  possible, is a one-point card (the team's points are then its points so far plus what the later tricks add,
  and the Fool's exchange), keyed up to ranks (the cards in play and in the scart by place and points), with
  sure trumps as static bounds at trick starts;
* **equivalent cards**: two cards of one hand that are adjacent in the rank order of the cards of their suit still
  in play (all hands and the current trick) and have the same counting value are equivalent; only one of each
  class is searched, and the others get its value. Cards that a rule singles out are never merged (Dreierles:
  Pfeife, XXI, Stieß; Dreiertarock: Pagat, Uhu, Kakadu, Mond, Sküs). Troccas merges only numerals, and the
  middle trumps while knocking is off (knocking names the highest trump not yet played); Tatteln (melds) merges
  nothing. Below the root, Dreierles also searches one card of such a run whose values differ, where the current
  trick's outcome for the mover's side is sure (the most valuable card into a won trick, the least valuable into
  a lost one: value dominance, docs/solver.md, round "session 27"); ``merge=False`` turns both off.

Every pruning keeps the values exact (tests: against plain minimax, and the full search against alpha-beta
without table, bounds and merging on random positions).

**Limits.** ``max_nodes`` bounds the search: when exceeded, :class:`SearchLimitError` is raised (no partial
result). A state outside the card-play phase raises :class:`NotInPlayError`, a finished one
:class:`~tarockrl.errors.GameOverError`. Tatteln's whole deal is card play (stock and final phases).

The search kernels are one numba template (:mod:`tarockrl.solvers._template`) bound per game by
:mod:`tarockrl.solvers._bind` (a generated module cached on disk, like the env drivers).
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field

import numpy as np

from tarockrl.errors import GameOverError, TarockError
from tarockrl.solvers._common import BW_FLAGS

__all__ = ["solve", "SolveResult", "NotInPlayError", "SearchLimitError", "Solver", "STATS_COLUMNS",
           "RootProbe"]

OBJECTIVES = {"returns": 0, "card_points": 1}
_SUPPORTED = ("dreierles", "dreiertarock", "troccas", "tatteln")


class NotInPlayError(TarockError):
    """The state is not in the card-play phase (the solver's domain)."""


class SearchLimitError(TarockError):
    """The search needed more nodes than ``max_nodes``."""


@dataclass(frozen=True)
class SolveResult:
    """The result of :func:`solve` (values for the side of ``player``, the seat to move)."""

    value: int
    action_values: dict[int, int]
    nodes: int
    player: int
    objective: str
    best_action: int = field(default=-1)
    value_only: bool = field(default=False)


@dataclass(frozen=True)
class RootProbe:
    """One zero-window search of the root's value (``Solver.solve(probes=...)``): it tested "value >=
    ``threshold``" for the side to move and returned ``result`` (fail-soft: at least the threshold means the side
    reaches it, and ``result`` is then a lower bound of the value; below it, an upper bound) after ``nodes`` nodes;
    ``aborted`` when the node budget ran out in it (``result`` then means nothing)."""

    threshold: int
    result: int
    nodes: int
    aborted: bool = False

    @property
    def reached(self) -> bool:
        """The side to move reaches the threshold (the search failed high)."""
        return not self.aborted and self.result >= self.threshold


MAX_PROBES_LOGGED = 64  # the most root-value searches ``Solver.solve(probes=...)`` reports
MAX_BUDGET_B0 = 1 << 16  # the largest first budget of the budgeted rounds (budgets grow to b0 << 40)


class Solver:
    """The solver of one game: its compiled kernels and a transposition table reused between solves.

    Each solve uses a fresh salt for the table keys, so entries of earlier solves never match (results and
    node counts do not depend on what was solved before).
    """

    def __init__(self, game_name: str, table_bits: int = 20) -> None:
        """Bind (and on first use compile) the search for ``game_name``; the table has ``2**table_bits`` slots."""
        if game_name not in _SUPPORTED:
            raise TarockError(f"no solver for game {game_name!r}; solvers exist for {', '.join(_SUPPORTED)}")
        if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 8 <= table_bits <= 28:
            raise ValueError(f"table_bits must be an integer in 8..28, got {table_bits!r}")
        from tarockrl.solvers._bind import search_module

        self.game_name = game_name
        self.kernels = search_module(game_name)
        size = 1 << table_bits
        # key, lower bound, upper bound, best move + subtree size, two value bounds (see the template)
        self._tt = np.zeros((size, self.kernels.TT_COLS), dtype=np.int64)
        self._tt.fill(0)  # touch the pages now, not in the first solve
        self._hist = np.zeros(self.kernels.HIST_LEN, dtype=np.int64)
        self._salt = itertools.count(1)
        self._lock = threading.Lock()
        self._budget_rounds: int | None = None

    @property
    def budget_rounds(self) -> int | None:
        """The budgeted rounds' setting (docs/solver.md): None for the adapter's ``BUDGET_ROUNDS``, -1 for off, or
        a word of :func:`tarockrl.solvers._common.budget_word`. Setting it checks the word, so no bad value reaches
        the search kernel."""
        return self._budget_rounds

    @budget_rounds.setter
    def budget_rounds(self, word: int | None) -> None:
        if word is None or (isinstance(word, (int, np.integer)) and not isinstance(word, bool) and word == -1):
            self._budget_rounds = None if word is None else -1
            return
        if isinstance(word, bool) or not isinstance(word, (int, np.integer)) or not 0 < word < (1 << 49):
            raise ValueError(f"budget_rounds must be None, -1 or a budget_word(...) value, got {word!r}")
        flags = (int(word) >> 36) & 0xF0 | (int(word) >> 40) & 0xFF00
        if flags & ~BW_FLAGS:
            raise ValueError(f"budget_rounds: unknown budget_word flags {flags & ~BW_FLAGS:#x} in {word!r}")
        b0 = int(word) & 0xFFFFFF
        if not 1 <= b0 <= MAX_BUDGET_B0:
            raise ValueError(f"budget_rounds: the first budget b0 must be in 1..{MAX_BUDGET_B0}, got {b0}")
        self._budget_rounds = int(word)

    def solve(self, state, objective: str = "returns", max_nodes: int | None = None,
              merge: bool = True, table: bool = True, stats: np.ndarray | None = None,
              value_only: bool = False, probes: list | None = None) -> SolveResult:
        """Solve ``state`` (see :func:`solve`; ``value_only`` as there); ``merge=False`` turns equivalent-card
        merging (and Dreierles' value dominance) off and ``table=False`` the transposition table (cross-checks for
        tests). ``stats``: an int64 array of shape ``search_stats_shape()`` to which the search adds its counts per
        depth below the root (the columns are ``STATS_COLUMNS``; diagnostics: where the nodes of a search lie, how
        often the table cuts).
        ``probes``: a list to which the zero-window searches of the root's value are appended in order, each a
        :class:`RootProbe` (threshold, fail-soft result, nodes); at most ``MAX_PROBES_LOGGED`` are kept
        (diagnostics: which of MTD(f)'s searches a solve's nodes went to; docs/solver.md)."""
        if state.game.name != self.game_name:
            raise TarockError(f"this solver is for {self.game_name!r}, the state is of {state.game.name!r}")
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {sorted(OBJECTIVES)}, got {objective!r}")
        if max_nodes is None:
            budget = np.int64(2**62)
        else:
            if isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer)) or max_nodes < 1:
                raise ValueError(f"max_nodes must be a positive integer or None, got {max_nodes!r}")
            budget = np.int64(max_nodes)
        k = self.kernels
        row = state._row
        if state.is_terminal():
            raise GameOverError("the deal is over: there is nothing to solve")
        if not k.in_play(row):
            phase = state.game.definition.phase_names[int(row[state.game.definition.slot_phase])]
            raise NotInPlayError(f"the solver works on the card-play phase; this state is in phase {phase!r}")
        opts = state.game.encoded_options
        if stats is not None and (not isinstance(stats, np.ndarray) or stats.dtype != np.int64
                                  or stats.shape != self.search_stats_shape()):
            raise ValueError(f"stats must be an int64 array of shape {self.search_stats_shape()}")
        if probes is not None and not isinstance(probes, list):
            raise TypeError(f"probes must be a list (the searches are appended to it), got {type(probes).__name__}")
        plog = np.zeros((1 if probes is None else MAX_PROBES_LOGGED + 1, 4), dtype=np.int64)
        with self._lock:
            ctx, n, actions, values = self._run_kernel(
                row, opts, salt=_salt_of(next(self._salt)), budget=int(budget), objective=OBJECTIVES[objective],
                merge=merge, table=table, value_only=value_only, stats=stats, plog=plog)
        nodes = int(ctx[k.C_NODES])
        if probes is not None:
            probes.extend(RootProbe(int(thr), int(res), int(cnt), bool(abt))
                          for thr, res, cnt, abt in plog[1:1 + min(int(plog[0, 0]), MAX_PROBES_LOGGED)])
        if ctx[k.C_ABORT] != 0:
            raise SearchLimitError(f"the search exceeded max_nodes={int(budget)} nodes")
        action_values = {int(actions[i]): int(values[i]) for i in range(n)}
        value = max(action_values.values())
        best = min(a for a, v in action_values.items() if v == value)
        return SolveResult(value=value, action_values=action_values, nodes=nodes, player=int(k.cur(row)),
                           objective=objective, best_action=best, value_only=bool(value_only))

    def _run_kernel(self, row: np.ndarray, opts: np.ndarray, *, salt: int, budget: int, objective: int = 0,
                    merge: bool = True, table: bool = True, value_only: bool = False,
                    stats: np.ndarray | None = None, plog: np.ndarray | None = None):
        """One ``solve_root`` call on a copy of ``row`` (checked by the caller) with this solver's table and memo,
        the table and memo keys salted with ``salt`` and the history cleared; returns ``(ctx, n, actions,
        values)``. :meth:`solve` passes a fresh salt; a diagnostic that solves again with the same salt finds its
        own entries (``scripts/oracle_ordering.py``). The caller holds ``_lock`` when threads share the solver."""
        k = self.kernels
        ctx = np.zeros(k.CTX_LEN, dtype=np.int64)
        ctx[k.C_MAX] = budget
        ctx[k.C_OBJ] = objective
        ctx[k.C_SALT] = np.int64(salt)
        ctx[k.C_MERGE] = 2 if merge else 0  # 2: the adapters' dominance merges below the root too
        ctx[k.C_NOTT] = 0 if table else 1
        ctx[k.C_STATS] = 0 if stats is None else 1
        ctx[k.C_VONLY] = 1 if value_only else 0
        ctx[k.C_BUDGET] = 0 if self.budget_rounds is None else self.budget_rounds
        ctx[k.C_MSALT] = ctx[k.C_SALT]  # the refutation memo's entries of other salts never match
        self._hist[:k.HIST_BASE] = 0
        actions = np.zeros(k.MAX_MOVES, dtype=np.int64)
        values = np.zeros(k.MAX_MOVES, dtype=np.int64)
        st = stats if stats is not None else np.zeros((1, k.ST_LEN), dtype=np.int64)
        log = plog if plog is not None else np.zeros((1, 4), dtype=np.int64)
        n = k.solve_root(row.copy(), opts, ctx, np.int64(1 if merge else 0), actions, values, self._tt, self._hist,
                         np.int64(row.shape[0]), st, log)
        return ctx, int(n), actions, values

    def search_stats_shape(self) -> tuple[int, int]:
        """The shape of the ``stats`` array of :meth:`solve`: (depths below the root, ``len(STATS_COLUMNS)``)."""
        return (self.kernels.MAX_DEPTH + 2, self.kernels.ST_LEN)


# the columns of Solver.solve's ``stats`` (counts per depth below the root)
STATS_COLUMNS = ("nodes", "static_cut", "tt_probe", "tt_hit", "tt_cut", "expanded", "cutoff", "cutoff_first",
                 "children", "threshold", "additive", "tt_move", "tt_similar", "bonus_nodes",
                 "pre_searches", "pre_cuts", "pre_nodes")


def _salt_of(i: int) -> int:
    z = (i * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    z = ((z ^ (z >> 31)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
    z ^= z >> 29
    return z - (1 << 64) if z >= 1 << 63 else z


_SOLVERS: dict[str, Solver] = {}
_SOLVERS_LOCK = threading.Lock()


def solver_for(game_name: str) -> Solver:
    """The shared :class:`Solver` of a game (created on first use)."""
    with _SOLVERS_LOCK:
        if game_name not in _SOLVERS:
            _SOLVERS[game_name] = Solver(game_name)
        return _SOLVERS[game_name]


def solve(state, *, objective: str = "returns", max_nodes: int | None = None,
          value_only: bool = False) -> SolveResult:
    """Solve the card play of ``state`` with every card known; see the module docstring.

    Args:
        state: a :class:`tarockrl.games.api.State` in its card-play phase (not changed).
        objective: ``"returns"`` (the side's settlement) or ``"card_points"`` (the side's card points).
        max_nodes: a node budget; :class:`SearchLimitError` when the search needs more. ``None``: no limit.
        value_only: only the position's exact ``value`` and one best action: ``action_values`` then holds that
            single action (``best_action``, one action of maximal value, not necessarily the lowest id), and the
            exact values of the other actions are not searched (cheaper; enough to play a best move).

    Returns:
        a :class:`SolveResult` with ``value``, ``action_values`` (every legal action, or with ``value_only`` the
        best action only), ``nodes``.

    Raises:
        GameOverError: the deal is over.
        NotInPlayError: the state is not in the card-play phase.
        SearchLimitError: ``max_nodes`` exceeded.
    """
    if not hasattr(state, "game") or not hasattr(state, "_row"):
        raise TypeError(f"solve expects a tarockrl State, got {type(state).__name__}")
    return solver_for(state.game.name).solve(state, objective=objective, max_nodes=max_nodes, value_only=value_only)
