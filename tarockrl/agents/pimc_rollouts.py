"""Rollout policies for PIMC and analysis: batched numba playouts, or any agent stepped from Python.

:class:`RolloutPolicy` finishes a batch of state rows and returns their settlements:

* ``"random"``: uniformly random legal actions, all in numba (:mod:`tarockrl.agents.pimc_rollout_template`);
* ``"heuristic"`` (PIMC's default): the decisions before the card play (bidding, talon, discards,
  announcements, knocks) by the game's rule-based agent stepped from Python, then the card play in numba by the
  solver adapter's static trick-play rule (see the template's docstring) with random tie-breaks and a random
  action with probability ``eps``. The auction is only a handful of actions per deal, the card play most of
  them, so this is almost as fast as ``random`` once play has started;
* any other agent spec (``"rules"``, ``"ckpt:PATH"``, ...): that agent for every seat and every action,
  stepped from Python row by row (about 100 times slower than the numba paths).

Everything is deterministic given the seed passed to :meth:`RolloutPolicy.run`.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tarockrl.errors import BadAgentSpecError

__all__ = ["RolloutPolicy", "rollout_module", "NUMBA_POLICIES"]

NUMBA_POLICIES = {"random": 0, "heuristic": 1}
_SOLVER_GAMES = ("dreierles", "dreiertarock", "troccas", "tatteln")


def rollout_module(game: Any) -> ModuleType:
    """The rollout template bound to ``game``'s kernels (and its solver adapter's ``in_play`` and
    ``rollout_hint``, or ``hint`` where the adapter has no separate one)."""
    import importlib

    from tarockrl.agents import pimc_rollout_template
    from tarockrl.engine import codegen
    from tarockrl.games.drivers import game_bindings, game_sources

    d = game.definition
    extra = {"in_play": None, "hint": None}
    sources = list(game_sources(d))
    if game.name in _SOLVER_GAMES:
        adapter = importlib.import_module(f"tarockrl.solvers.adapters.{game.name}")
        # the rollouts play by the public trick heuristic; the solver's ordering may read other hands
        extra = {"in_play": adapter.in_play, "hint": getattr(adapter, "rollout_hint", adapter.hint)}
        sources += [Path(adapter.__file__).parent, Path(adapter.__file__).parent.parent]
    block = game_bindings(d) + codegen.binding_block({}, extra)
    return codegen.bind(pimc_rollout_template, f"pimc_rollout_{d.name}", block, sources)


class RolloutPolicy:
    """Finishes batches of states with one rollout policy (see the module docstring).

    Args:
        game: the :class:`tarockrl.Game`.
        spec: ``"random"``, ``"heuristic"`` or an agent spec for :func:`tarockrl.agents.make_agent`.
        eps: the heuristic's probability of a random card instead of the rule's.
    """

    def __init__(self, game: Any, spec: str = "heuristic", eps: float = 0.1) -> None:
        """Check the spec and bind the kernels."""
        if not isinstance(spec, str) or not spec.strip():
            raise BadAgentSpecError(f"rollout policy must be 'random', 'heuristic' or an agent spec, got {spec!r}")
        if not 0.0 <= float(eps) <= 1.0:
            raise BadAgentSpecError(f"eps must be in [0, 1], got {eps!r}")
        self.game = game
        self.spec = spec.strip()
        self.eps = float(eps)
        self.kernels = rollout_module(game)
        if self.spec in NUMBA_POLICIES:
            self.policy = NUMBA_POLICIES[self.spec]
            self.python_spec = "rules" if self.spec == "heuristic" else None
        else:
            from tarockrl.agents.registry import make_agent

            make_agent(self.spec, game, seed=0)  # fail early on a bad spec
            self.policy = -1
            self.python_spec = self.spec
        self._agents: dict[int, Any] = {}
        from tarockrl.games.api import State

        self._State = State
        self._in_play = None
        if self.spec == "heuristic":
            self._in_play = getattr(self.kernels, "in_play", None) if self.kernels.HAS_IN_PLAY else None

    def _agent(self, seed: int) -> Any:
        from tarockrl.agents.registry import make_agent

        key = seed & 0x7FFFFFFF
        agent = self._agents.get(key)
        if agent is None:
            if len(self._agents) > 64:
                self._agents.clear()
            agent = make_agent(self.python_spec, self.game, seed=key)
            self._agents[key] = agent
        elif hasattr(agent, "reset"):
            agent.reset(seed=key)
        return agent

    def _python_steps(self, rows: np.ndarray, seed: int, until_play: bool) -> None:
        """Step every row with the Python agent until the end (or, with ``until_play``, the card play)."""
        agent = self._agent(seed)
        for i in range(rows.shape[0]):
            if until_play and self._in_play(rows[i]):
                continue
            state = self._State(self.game, rows[i])
            while not state.is_terminal():
                if until_play and self._in_play(rows[i]):
                    break
                state.apply_action(int(agent.step(state)))

    def run(self, rows: np.ndarray, seed: int, repeats: int = 1) -> np.ndarray:
        """Play every row of ``rows`` (int64[n, state_len]) to the end ``repeats`` times.

        Returns the settlements ``float64[n, repeats, num_players]``. ``rows`` is changed: with ``repeats=1`` it
        holds the finished deals afterwards; with more, the Python part of a rollout (``heuristic``: the
        decisions before the card play) is played once per row in place and shared by its repeats, as a
        deterministic agent would repeat it, and the numba part runs on copies.
        """
        game = self.game
        n = rows.shape[0]
        repeats = int(repeats)
        if repeats < 1:
            raise ValueError(f"repeats must be positive, got {repeats}")
        seed = int(seed) & 0x7FFFFFFFFFFFFFFF
        d = game.definition
        if n == 0:
            return np.zeros((0, repeats, game.num_players))
        if self.policy < 0:
            out = np.zeros((n, repeats, game.num_players))
            for r in range(repeats):
                work = rows.copy() if r < repeats - 1 else rows
                self._python_steps(work, seed + r, until_play=False)
                out[:, r, :] = work[:, d.slot_result:d.slot_result + game.num_players]
            return out
        if self.python_spec is not None and self._in_play is not None:
            self._python_steps(rows, seed, until_play=True)
        work = np.repeat(rows, repeats, axis=0) if repeats > 1 else rows
        out = np.zeros((work.shape[0], game.num_players), dtype=np.int64)
        self.kernels.rollout_rows(work, np.int64(self.policy), np.float64(self.eps), np.int64(seed),
                                  game.encoded_options, out)
        return out.astype(np.float64).reshape(n, repeats, game.num_players)

    def __repr__(self) -> str:
        return f"RolloutPolicy({self.game.name!r}, {self.spec!r}, eps={self.eps})"
