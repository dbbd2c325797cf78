"""Duplicate matches: every board in every fair seating, with common random numbers; the board is the unit.

Seatings (a pattern gives the agent of each seat, ``A`` or ``B``; the board fixes the dealer, so a seat is also a
role: forehand, middlehand, dealer ...):

* three players (Dreierles, Dreiertarock): ``AAB ABA BAA ABB BAB BBA``: each agent sits alone at every seat once
  and in a pair at every seat twice, so each seat is held by A three times and by B three times;
* Troccas (partnerships 0+2 against 1+3): ``ABAB`` and ``BABA``, the two tables with the teams swapped;
* Tatteln: ``AB`` and ``BA``, both seat orders.

**Common random numbers.** The agent at seat ``s`` of board ``b`` is seeded with :func:`seat_seed` ``(seed, b, s)``
in every seating, whichever agent it is, so A and B meet the same random numbers from the same seat.

**Per-board result.** ``diff = mean over A's seat-plays of its settlement − the same for B`` (game points),
averaged over the board's seatings (Troccas: ``r_A(table 1) − r_A(table 2)`` from A's side; Tatteln:
``r_0(AB) − r_0(BA)``). The same for card points where the game has them (each seat's side's card points). With a
control variate, ``diff_cv`` is the same difference of the corrected returns (:mod:`tarockrl.evaluation.control`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tarockrl.errors import IllegalActionError, TarockError
from tarockrl.evaluation.boards import Board, board_state
from tarockrl.evaluation.control import DecisionLog, ValueFunction, known_policy
from tarockrl.evaluation.stats import summarize

__all__ = [
    "seatings",
    "seat_seed",
    "card_points",
    "AgentPool",
    "play_game",
    "play_board",
    "board_differences",
    "duplicate_match",
    "MatchResult",
]


def seatings(game: Any) -> list[str]:
    """The fair seatings of a two-agent comparison in ``game`` (patterns of ``A``/``B``, one letter per seat)."""
    n = game.num_players
    if n == 2:
        return ["AB", "BA"]
    if n == 3:
        return ["AAB", "ABA", "BAA", "ABB", "BAB", "BBA"]
    if n == 4 and game.name == "troccas":
        return ["ABAB", "BABA"]
    raise TarockError(f"no duplicate seating scheme for {game.name!r} with {n} players")


def seat_seed(seed: int, board: int, seat: int) -> int:
    """The agent seed of ``seat`` on board ``board`` (a 62-bit integer from ``SeedSequence([seed, board, seat])``)."""
    state = np.random.SeedSequence([int(seed) & (2**63 - 1), int(board), int(seat)]).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(2))


def _stream(seed: int, *keys: int) -> int:
    state = np.random.SeedSequence([int(seed) & (2**63 - 1), 0xC0FFEE, *map(int, keys)]).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(2))


def card_points(state: Any) -> list[int] | None:
    """Each seat's side's card points at the end of a deal, or ``None`` for a game without them (Tatteln)."""
    name = state.game.name
    row = state.row
    if name in ("dreierles", "dreiertarock"):
        import importlib

        layout = importlib.import_module(f"tarockrl.games.{name}.layout")
        return [int(row[layout.POINTS + s]) for s in range(3)]
    if name == "troccas":
        from tarockrl.games.troccas import layout

        return [int(row[layout.POINTS + s % 2]) for s in range(4)]
    return None


class AgentPool:
    """Builds the agents of a match: one per (agent, seat), reseeded for every game.

    An agent built from a spec that has ``reset(seed)`` is built once and reset with the game's seat seed; one
    without ``reset`` is built anew with that seed for every game. Either way a game depends only on its board,
    seating and seeds, never on what was played before (so results do not depend on the order of work).
    """

    def __init__(self, game: Any, specs: Sequence[Any]) -> None:
        """Agents for ``specs`` (agent specs such as ``"random"``, or agent objects) in ``game``."""
        from tarockrl.agents import make_agent

        self.game = game
        self.specs = list(specs)
        self._make = make_agent
        self._cache: dict[tuple[int, int], Any] = {}
        for spec in self.specs:  # fail early on a bad spec
            make_agent(spec, game, seed=0)

    def get(self, which: int, seat: int, seed: int) -> Any:
        """The agent ``which`` for ``seat``, seeded with ``seed`` for a new game."""
        key = (which, seat)
        agent = self._cache.get(key)
        if agent is not None and callable(getattr(agent, "reset", None)):
            agent.reset(seed=seed)
            return agent
        agent = self._make(self.specs[which], self.game, seed=seed)
        if callable(getattr(agent, "reset", None)):
            agent.reset(seed=seed)
            self._cache[key] = agent
        return agent


def play_game(game: Any, board: Board, seat_agents: Sequence[Any], labels: Sequence[str] | None = None,
              log: DecisionLog | None = None):
    """Play one game of ``board`` with ``seat_agents[s]`` at seat ``s``; returns the terminal state and actions.

    With a ``log``, every decision whose policy is known is recorded for the control variate. An agent returning
    an illegal action raises ``IllegalActionError`` naming the agent, board and seat.
    """
    state = board_state(game, board)
    actions: list[int] = []
    while not state.is_terminal():
        p = state.current_player()
        agent = seat_agents[p]
        a = agent.step(state)
        probs = known_policy(agent, state) if log is not None else None
        before = state.clone() if probs is not None else None
        try:
            state.apply_action(a)
        except IllegalActionError as err:
            who = labels[p] if labels else repr(agent)
            raise IllegalActionError(f"agent {who} at seat {p} on board {board.index}: {err}") from None
        if before is not None:
            log.add(before, probs, int(a))
        actions.append(int(a))
    return state, actions


def play_board(game: Any, board: Board, pool: AgentPool, pair: tuple[int, int] = (0, 1), seed: int = 0,
               value: ValueFunction | None = None, records: bool = False, labels: Sequence[str] | None = None
               ) -> dict[str, Any]:
    """Play ``board`` in every seating between agents ``pair[0]`` (A) and ``pair[1]`` (B) of ``pool``.

    Returns a JSON-ready dict: ``board``, ``pair``, ``seatings`` (per seating: ``pattern``, ``returns``,
    ``card_points``, ``length`` and, with a value function, ``correction``), the per-board ``diff``,
    ``diff_cp`` and ``diff_cv``; with ``records=True`` also ``records`` (see :mod:`tarockrl.evaluation.records`).
    """
    from tarockrl.evaluation.records import make_record

    out: dict[str, Any] = {"board": board.index, "pair": list(pair), "seatings": []}
    recs = []
    n = game.num_players
    seeds = [seat_seed(seed, board.index, s) for s in range(n)]
    names = list(labels) if labels else [str(s) for s in pool.specs]
    for pattern in seatings(game):
        which = [pair[0] if c == "A" else pair[1] for c in pattern]
        agents = [pool.get(which[s], s, seeds[s]) for s in range(n)]
        seat_labels = [names[w] for w in which]
        log = DecisionLog() if value is not None else None
        state, actions = play_game(game, board, agents, seat_labels, log)
        res: dict[str, Any] = {"pattern": pattern, "returns": state.returns().tolist(),
                               "card_points": card_points(state), "length": len(actions)}
        if value is not None:
            res["correction"] = log.correction(game, value, _stream(seed, board.index)).tolist()
        out["seatings"].append(res)
        if records:
            recs.append(make_record(game, board, actions, [str(pool.specs[w]) if isinstance(pool.specs[w], str)
                                                           else seat_labels[s] for s, w in enumerate(which)],
                                    seeds, pattern=pattern, returns=res["returns"], match_seed=seed))
    out.update(board_differences(out["seatings"]))
    if records:
        out["records"] = recs
    return out


def board_differences(seating_results: Sequence[dict]) -> dict[str, float | None]:
    """``diff``, ``diff_cp`` and ``diff_cv`` of one board from its seating results (see the module docstring)."""
    def diff(key: str, minus: str | None = None) -> float | None:
        a_vals, b_vals = [], []
        for res in seating_results:
            vals = res.get(key)
            if vals is None:
                return None
            vals = np.asarray(vals, dtype=np.float64)
            if minus is not None:
                vals = vals - np.asarray(res[minus], dtype=np.float64)
            for s, c in enumerate(res["pattern"]):
                (a_vals if c == "A" else b_vals).append(vals[s])
        return float(np.mean(a_vals) - np.mean(b_vals))

    has_cv = all("correction" in r for r in seating_results)
    return {"diff": diff("returns"), "diff_cp": diff("card_points"),
            "diff_cv": diff("returns", "correction") if has_cv else None}


@dataclass
class MatchResult:
    """The result of a duplicate match between two agents: per-board values and their summaries."""

    labels: tuple[str, str]
    boards: list[dict] = field(repr=False)
    diff: dict = field(default_factory=dict)
    diff_cp: dict | None = None
    diff_cv: dict | None = None
    variance_reduction: float | None = None

    def table(self) -> str:
        """A short text table of the result."""
        return format_pair_table([self])


def summarize_pair(labels: tuple[str, str], board_results: list[dict], resamples: int = 2000, seed: int = 0,
                   half_width: float | None = 1.0) -> MatchResult:
    """Summaries of a pair's per-board results (sorted by board): plain, card points, control variate."""
    rows = sorted(board_results, key=lambda r: r["board"])
    d = np.array([r["diff"] for r in rows], dtype=np.float64)
    result = MatchResult(labels=labels, boards=rows, diff=summarize(d, resamples, seed, half_width))
    if rows and all(r.get("diff_cp") is not None for r in rows):
        result.diff_cp = summarize(np.array([r["diff_cp"] for r in rows]), resamples, seed)
    if rows and all(r.get("diff_cv") is not None for r in rows):
        cv = np.array([r["diff_cv"] for r in rows], dtype=np.float64)
        result.diff_cv = summarize(cv, resamples, seed, half_width)
        if len(rows) > 1 and d.var() > 0:
            result.variance_reduction = float(1.0 - cv.var(ddof=1) / d.var(ddof=1))
    return result


def format_pair_table(results: Sequence[MatchResult]) -> str:
    """A text table: one line per pair with the plain and (when present) control-variate estimates."""
    head = (f"{'A vs B':<28} {'boards':>6} {'mean diff':>9} {'SE':>6} {'95% CI (bootstrap)':>20} "
            f"{'A wins':>6} {'ties':>5} {'B wins':>6}")
    lines = [head]
    for r in results:
        s = r.diff
        lo, hi = s["ci_bootstrap"]
        lines.append(f"{r.labels[0] + ' vs ' + r.labels[1]:<28} {s['n']:>6} {s['mean']:>9.3f} {s['se']:>6.3f} "
                     f"{'[' + format(lo, '.3f') + ', ' + format(hi, '.3f') + ']':>20} {s['win']:>6.1%} "
                     f"{s['tie']:>5.1%} {s['loss']:>6.1%}")
        if r.diff_cv is not None:
            c = r.diff_cv
            lo, hi = c["ci_bootstrap"]
            red = f"variance -{r.variance_reduction:.0%}" if r.variance_reduction is not None else ""
            lines.append(f"{'  with control variate':<28} {c['n']:>6} {c['mean']:>9.3f} {c['se']:>6.3f} "
                         f"{'[' + format(lo, '.3f') + ', ' + format(hi, '.3f') + ']':>20}  {red}")
        if r.diff_cp is not None:
            c = r.diff_cp
            lo, hi = c["ci_bootstrap"]
            lines.append(f"{'  card points':<28} {c['n']:>6} {c['mean']:>9.3f} {c['se']:>6.3f} "
                         f"{'[' + format(lo, '.3f') + ', ' + format(hi, '.3f') + ']':>20}")
    return "\n".join(lines)


def duplicate_match(game: Any, agents: Sequence[Any], boards: Sequence[Board], seed: int = 0,
                    value: ValueFunction | None = None, resamples: int = 2000, half_width: float | None = 1.0,
                    labels: Sequence[str] | None = None, records: bool = False) -> MatchResult:
    """Play a duplicate match between ``agents[0]`` (A) and ``agents[1]`` (B) on ``boards``, in this process.

    ``agents`` are specs for :func:`tarockrl.agents.make_agent` (or agent objects); ``seed`` keys the agents'
    seeds (:func:`seat_seed`) and the control variate's streams; ``value`` turns on the control-variate estimate.
    Returns a :class:`MatchResult` whose ``diff`` holds mean, SE, normal and bootstrap 95% CIs, win/tie/loss
    shares and the boards needed for a CI of ``±half_width`` game points. For many boards, both cores and
    resumable output use ``tarockrl eval`` (:func:`tarockrl.evaluation.runner.run_eval`).
    """
    if isinstance(game, str):
        import tarockrl

        game = tarockrl.make_game(game)
    if len(agents) != 2:
        raise TarockError(f"a duplicate match is between two agents, got {len(agents)}; for more use round_robin")
    pool = AgentPool(game, agents)
    names = tuple(labels) if labels else agent_labels(agents)
    results = [play_board(game, b, pool, (0, 1), seed, value, records=records, labels=names) for b in boards]
    return summarize_pair((names[0], names[1]), results, resamples, seed, half_width)


def agent_labels(specs: Sequence[Any]) -> tuple[str, ...]:
    """Readable unique labels for agent specs (a repeated spec gets ``#2``, ``#3`` ...)."""
    out, seen = [], {}
    for s in specs:
        base = s if isinstance(s, str) else getattr(s, "spec", None) or type(s).__name__
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return tuple(out)
