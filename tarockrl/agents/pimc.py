"""PIMC: perfect-information Monte Carlo search over sampled hidden hands.

``make_agent("pimc:worlds=32,rollouts=2,rollout=heuristic,solve_tricks=5", game, seed=s)`` builds a
:class:`PIMCAgent`. At every decision with more than one legal action it

1. draws ``worlds`` deals consistent with what the seat to move knows, in one call of the game's batched sampler
   (``game.sample_worlds(state, player, worlds, seed)``); the seed is derived from the agent's seed and the
   seat's observation (plus its legal actions), so the agent never looks at the hidden cards: the same seat
   view gives the same worlds, whatever the hidden cards really are;
2. values every legal action in every world: in the card play with at most ``solve_tricks`` tricks left by the
   open-hand solver (:func:`tarockrl.solvers.solve`, the exact value for the mover's side, with ``max_nodes``
   per world as a safety net; if any world exceeds it, the whole decision falls back to rollouts so that every
   world is valued on one scale), otherwise by ``rollouts`` playouts per world and action of the rollout policy
   (:mod:`tarockrl.agents.pimc_rollouts`: ``heuristic`` by default, ``random``, or any agent spec), batched
   through the engine;
3. plays the action with the best mean over the worlds (ties: the lowest action id).

Every decision of every game goes through this: bids, talon choices, discards, announcements, knocks, table
talk, melds, card play. ``time`` (seconds, 0 = off) caps a decision: worlds are valued in chunks of 8 and the
search stops after the chunk that crosses the budget (the result then depends on the machine's speed). A game
without a batched sampler raises :class:`PIMCUnavailableError` naming the missing sampler.

``agent.last`` holds the last decision's per-action statistics (mean, standard error, worlds, method), the
basis of :mod:`tarockrl.analyze`.
"""

from __future__ import annotations

import hashlib
import time as _time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from tarockrl.errors import BadAgentSpecError, TarockError

__all__ = ["PIMCAgent", "PIMCUnavailableError", "Decision", "make_pimc_agent", "tricks_left", "has_sampler",
           "game_defaults", "world_key", "rule_action"]

_CHUNK = 8
_DEFAULTS = (5, 30_000)  # (solve_tricks, max_nodes) unless the game's solver adapter says otherwise


def _adapter(game: Any) -> ModuleType:
    """The solver adapter of ``game`` (:mod:`tarockrl.solvers.adapters`): what search knows about the game."""
    import importlib

    try:
        return importlib.import_module(f"tarockrl.solvers.adapters.{game.name}")
    except ModuleNotFoundError:
        raise TarockError(f"no solver adapter for game {game.name!r}") from None


def game_defaults(game: Any) -> tuple[int, int]:
    """``(solve_tricks, max_nodes)`` by default for ``game``: 5 tricks and 30,000 nodes per world unless its
    adapter's ``pimc_defaults`` says otherwise (Troccas: 7 tricks and 300,000 nodes; Tatteln: the whole final
    phase, 3,000,000 nodes)."""
    hook = getattr(_adapter(game), "pimc_defaults", None)
    return hook(game.options) if hook else _DEFAULTS


def world_key(game: Any, row: np.ndarray) -> bytes:
    """Bytes that identify a sampled world for the solver: two worlds with equal keys have equal values (the whole
    row unless the adapter's ``world_key`` knows better; Tatteln's final phase ignores the spent shuffle)."""
    hook = getattr(_adapter(game), "world_key", None)
    return hook(row) if hook else row.tobytes()


def rule_action(game: Any, legal: list[int]) -> int | None:
    """An action PIMC takes without search when legal, or ``None`` (the adapter's ``search_free_action``; today
    only Tatteln's ``ROB``, which simulation cannot tell from robbing a turn later)."""
    hook = getattr(_adapter(game), "search_free_action", None)
    return hook(legal, game.options) if hook else None


class PIMCUnavailableError(TarockError):
    """The game has no batched hidden-card sampler (``game.sample_worlds``), which PIMC needs."""


def has_sampler(game: Any) -> bool:
    """True when ``game`` has the batched world sampler PIMC draws from."""
    return game.definition.sample_worlds is not None


def tricks_left(state: Any) -> int:
    """Tricks still to be completed in ``state``'s card play (the current one included; Tatteln counts the tricks
    of the stock phase too, its solver takes the whole deal)."""
    return _adapter(state.game).tricks_left(state._row, state.game.options)


@dataclass
class Decision:
    """Statistics of one PIMC decision: per legal action its mean value, standard error and worlds."""

    player: int
    actions: list[int]
    means: np.ndarray
    ses: np.ndarray
    counts: np.ndarray
    method: str  # "solver" or "rollouts:<policy>" or "forced" or "rule" (see rule_action)
    action: int
    worlds: int
    seconds: float
    extra: dict = field(default_factory=dict)


class PIMCAgent:
    """The PIMC player (see the module docstring).

    Args:
        game: the :class:`tarockrl.Game`.
        seed: the agent's seed (``None``: 0); every decision is a pure function of it and the seat's view.
        worlds: worlds sampled per decision.
        rollouts: playouts per world and action.
        rollout: ``"heuristic"``, ``"random"`` or an agent spec (stepped from Python, slow).
        solve_tricks: solve exactly with at most this many tricks left (0: never; ``None``: the game's default,
            :func:`game_defaults`: 5, in Tatteln the whole final phase).
        max_nodes: solver node budget per world before the decision falls back to rollouts (``None``: the
            game's default, 30,000, in Tatteln 3,000,000).
        time: seconds per decision (0: no limit; see the module docstring).
        eps: the heuristic rollout's probability of a random card.
    """

    def __init__(self, game: Any, seed: int | None = None, worlds: int = 32, rollouts: int = 2,
                 rollout: str = "heuristic", solve_tricks: int | None = None, max_nodes: int | None = None,
                 time: float = 0.0, eps: float = 0.1) -> None:
        """Check the parameters and bind the kernels."""
        from tarockrl.agents.pimc_rollouts import RolloutPolicy

        if isinstance(game, str):
            from tarockrl.games import make_game

            game = make_game(game)
        dflt_solve, dflt_nodes = game_defaults(game)
        solve_tricks = dflt_solve if solve_tricks is None else solve_tricks
        max_nodes = dflt_nodes if max_nodes is None else max_nodes
        for name, value, lo, hi in (("worlds", worlds, 1, 100_000), ("rollouts", rollouts, 1, 10_000),
                                    ("solve_tricks", solve_tricks, 0, 40), ("max_nodes", max_nodes, 1, 10**12)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
                raise BadAgentSpecError(f"pimc: {name} must be an integer in {lo}..{hi}, got {value!r}")
        if not (isinstance(time, (int, float)) and 0.0 <= float(time) < 1e6):
            raise BadAgentSpecError(f"pimc: time must be a non-negative number of seconds, got {time!r}")
        if not (isinstance(eps, (int, float)) and 0.0 <= float(eps) <= 1.0):
            raise BadAgentSpecError(f"pimc: eps must be in [0, 1], got {eps!r}")
        if not has_sampler(game):
            raise PIMCUnavailableError(
                f"pimc needs a batched hidden-card sampler for {game.name}: "
                f"tarockrl/games/{game.name}/resample.py (game.sample_worlds) does not exist yet")
        self.game = game
        self.seed = 0 if seed is None else int(seed)
        self.worlds = int(worlds)
        self.rollouts = int(rollouts)
        self.solve_tricks = int(solve_tricks)
        self.max_nodes = int(max_nodes)
        self.time = float(time)
        self.eps = float(eps)
        self.policy = RolloutPolicy(game, rollout, eps=self.eps)
        self.rollout = self.policy.spec
        self.last: Decision | None = None

    def reset(self, seed: int | None = None) -> None:
        """Reseed (environments call this at every episode start)."""
        if seed is not None:
            self.seed = int(seed)

    # -- seeds ------------------------------------------------------------------------------------------------
    def decision_seed(self, state: Any, player: int, salt: int = 0) -> int:
        """The seed of a decision: a hash of the agent's seed, ``player``, its observation and legal mask."""
        h = hashlib.blake2b(digest_size=8)
        h.update(np.array([self.seed & 0xFFFFFFFFFFFFFFFF, player, salt], dtype=np.uint64).tobytes())
        h.update(state.observation(player).tobytes())
        h.update(state.legal_action_mask().tobytes())
        return int.from_bytes(h.digest(), "little") & 0x7FFFFFFFFFFFFFFF

    # -- the decision -----------------------------------------------------------------------------------------
    def step(self, state: Any) -> int:
        """The action for ``state.current_player()`` (see the module docstring)."""
        return self.evaluate(state).action

    def evaluate(self, state: Any, force: bool = False, solve_only: bool = False) -> Decision | None:
        """Value every legal action of the seat to move; ``force`` also searches a forced (single) action.
        ``solve_only``: ``None`` instead of the rollout fallback when a world exceeds ``max_nodes``."""
        t0 = _time.perf_counter()
        if state.game != self.game:
            raise TarockError(f"this PIMC agent plays {self.game!r}, the state is of {state.game!r}")
        player = state.current_player()
        if player < 0:
            raise TarockError("pimc: the deal is over, there is no seat to act")
        legal = state.legal_actions()
        if len(legal) == 1 and not force:
            d = Decision(player, legal, np.zeros(1), np.zeros(1), np.zeros(1, dtype=np.int64), "forced", legal[0],
                         0, 0.0)
            self.last = d
            return d
        rule = rule_action(self.game, legal)
        if rule is not None and not force:
            d = Decision(player, legal, np.zeros(len(legal)), np.zeros(len(legal)),
                         np.zeros(len(legal), dtype=np.int64), "rule", rule, 0, _time.perf_counter() - t0)
            self.last = d
            return d
        seed = self.decision_seed(state, player)
        batch = self.game.sample_worlds(state, player, self.worlds, seed=seed)
        rows = batch.rows
        method = f"rollouts:{self.rollout}"
        values = None
        if self.solve_tricks > 0 and self._solvable(state):
            values = self._solve_worlds(rows, legal, t0)
            if values is not None:
                method = "solver"
            elif solve_only:
                self.last = None
                return None
        if values is None:
            values = self._rollout_worlds(rows, legal, seed, t0)
        valid = ~np.isnan(values)
        counts = valid.sum(axis=0)
        sums = np.where(valid, values, 0.0).sum(axis=0)
        means = np.where(counts > 0, sums / np.maximum(counts, 1), -np.inf)
        sq = np.where(valid, (values - np.where(counts > 0, means, 0.0)) ** 2, 0.0).sum(axis=0)
        ses = np.sqrt(sq / np.maximum(counts - 1, 1) / np.maximum(counts, 1))
        best = int(np.argmax(means))  # the first maximum: the lowest action id
        d = Decision(player, list(legal), means, ses, counts, method, int(legal[best]),
                     int(valid.any(axis=1).sum()), _time.perf_counter() - t0)
        self.last = d
        return d

    def in_card_play(self, state: Any, tricks: int) -> bool:
        """True when ``state`` is in the card play (as the game's solver sees it) with at most ``tricks`` tricks
        left (public information; False for a game without a solver)."""
        from tarockrl.solvers import solver_for

        try:
            kernels = solver_for(self.game.name).kernels
        except TarockError:
            return False
        return bool(kernels.in_play(state._row)) and tricks_left(state) <= tricks

    def _solvable(self, state: Any) -> bool:
        return self.in_card_play(state, self.solve_tricks)

    def _solve_worlds(self, rows: np.ndarray, legal: list[int], t0: float) -> np.ndarray | None:
        """``values[world, action]`` by the solver, or ``None`` when a world exceeds ``max_nodes``."""
        from tarockrl.games.api import State
        from tarockrl.solvers import SearchLimitError, solver_for

        solver = solver_for(self.game.name)
        values = np.full((rows.shape[0], len(legal)), np.nan)
        index = {a: j for j, a in enumerate(legal)}
        seen: dict[bytes, int] = {}  # world key -> the first world with it (equal worlds are solved once)
        for i in range(rows.shape[0]):
            if self.time > 0 and i > 0 and i % _CHUNK == 0 and _time.perf_counter() - t0 > self.time:
                break
            wk = world_key(self.game, rows[i])
            if wk in seen:
                values[i] = values[seen[wk]]
                continue
            seen[wk] = i
            try:
                res = solver.solve(State(self.game, rows[i].copy()), max_nodes=self.max_nodes)
            except SearchLimitError:
                return None
            for a, v in res.action_values.items():
                j = index.get(a)
                if j is not None:
                    values[i, j] = v
        return values

    def _rollout_worlds(self, rows: np.ndarray, legal: list[int], seed: int, t0: float) -> np.ndarray:
        """``values[world, action]``: mean settlement of the mover over ``rollouts`` playouts (NaN: illegal)."""
        n, k = rows.shape[0], len(legal)
        player = None
        values = np.full((n, k), np.nan)
        opts = self.game.encoded_options
        acts = np.asarray(legal, dtype=np.int64)
        chunk = _CHUNK if self.time > 0 else n
        for lo in range(0, n, chunk):
            if self.time > 0 and lo > 0 and _time.perf_counter() - t0 > self.time:
                break
            hi = min(n, lo + chunk)
            block = np.repeat(rows[lo:hi], k, axis=0)  # world-major: (world, action)
            if player is None:
                player = int(rows[lo, self.game.definition.slot_cur])
            actions = np.tile(acts, hi - lo)
            status = np.zeros(block.shape[0], dtype=np.int64)
            self.policy.kernels.step_rows(block, actions, opts, status)
            out = self.policy.run(block, seed=(seed * 31 + lo) & 0x7FFFFFFFFFFFFFFF, repeats=self.rollouts)
            v = out[:, :, player].mean(axis=1).reshape(hi - lo, k)
            v[(status != 0).reshape(hi - lo, k)] = np.nan
            values[lo:hi] = v
        return values

    def __repr__(self) -> str:
        return (f"PIMCAgent(worlds={self.worlds}, rollouts={self.rollouts}, rollout={self.rollout!r}, "
                f"solve_tricks={self.solve_tricks}, seed={self.seed})")


def make_pimc_agent(game: Any, seed: int | None = None, worlds: int = 32, rollouts: int = 2,
                    rollout: str = "heuristic", solve_tricks: int | None = None, max_nodes: int | None = None,
                    time: float = 0.0, eps: float = 0.1, leaf: str = "", leaf_horizon: str = "end") -> PIMCAgent:
    """Factory for ``make_agent("pimc:worlds=..,rollouts=..,rollout=..,solve_tricks=..,max_nodes=..,time=..,eps=..")``.

    See :class:`PIMCAgent` (``solve_tricks`` and ``max_nodes`` default per game, :func:`game_defaults`). A game
    without a batched sampler raises :class:`PIMCUnavailableError`.
    ``leaf=ckpt:PATH`` (or ``leaf=pretrained``) values the worlds with a learned network instead of rollouts
    (:mod:`tarockrl.agents.pimc_leaf`; ``leaf_horizon=end|next``; ``rollouts``, ``rollout`` and ``eps`` unused).
    """
    if leaf:  # PIMC over a learned network (tarockrl/agents/pimc_leaf.py)
        from tarockrl.agents.pimc_leaf import PIMCLeafAgent

        return PIMCLeafAgent(game, seed=seed, leaf=leaf, horizon=leaf_horizon, worlds=worlds,
                             solve_tricks=solve_tricks, max_nodes=max_nodes, time=time)
    return PIMCAgent(game, seed=seed, worlds=worlds, rollouts=rollouts, rollout=rollout, solve_tricks=solve_tricks,
                     max_nodes=max_nodes, time=time, eps=eps)
