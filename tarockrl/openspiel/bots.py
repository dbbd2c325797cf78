"""OpenSpiel's search bots as tarockrl agents: ``make_agent("openspiel:ismcts,simulations=100", game)``.

Kinds (the first parameter of the spec):

Both need a game with a hidden-card sampler (Dreierles and Dreiertarock today; the others raise
``BadAgentSpecError`` naming the game until theirs exists).

* ``ismcts``: OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``). Every
  simulation starts from a world drawn by the game's hidden-card sampler (``State.resample_hidden``) for the
  seat to move, so the agent uses only what that seat may know. Needs a game with a sampler.
* ``mcts``: OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) run on ``worlds`` sampled worlds
  (determinized MCTS, "perfect-information Monte Carlo" with MCTS in each world); the visit counts of the root's
  actions are summed over the worlds and the most visited action is played. It never searches the true deal.

Leaves are valued by :class:`TarockRolloutEvaluator`: ``rollouts`` uniformly random playouts run on tarockrl's
state directly (OpenSpiel's ``RandomRolloutEvaluator`` gives the same values, going through the pyspiel state
at every step). Parameters: ``simulations`` (per decision), ``uct_c`` (exploration constant, in units of the
game's settlement, so games with large settlements need larger values; default: a per-game value),
``rollouts``, ``worlds`` (``mcts`` only), ``final`` (``ismcts`` only: ``max_visit`` or ``max_value``).
Decisions with one legal action are played without a search. The bot's random streams come from the agent's
seed (``reset(seed)`` reseeds them), so a match is reproducible.

The OpenSpiel C++ bots (``pyspiel.MCTSBot``, ``pyspiel.ISMCTSBot``) crash on Python-implemented games in
open_spiel 2.0.2 (OpenSpiel's own ``python_kuhn_poker`` included), so the Python bots are used.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarockrl.openspiel.game import TarockSpielState, from_tarockrl_state, load_game

__all__ = ["TarockRolloutEvaluator", "OpenSpielAgent", "EvaluableBot", "make_openspiel_agent", "DEFAULT_UCT_C"]

# the exploration constant multiplies a UCT term while the values are settlements in game points: roughly the
# standard deviation of a random deal's settlement (README "reward_scale") keeps the balance of UCT
DEFAULT_UCT_C = {"dreierles": 40.0, "dreiertarock": 2000.0, "tatteln": 70.0, "troccas": 10.0}


class TarockRolloutEvaluator:
    """An OpenSpiel MCTS evaluator (``evaluate(state)``, ``prior(state)``) with random playouts on tarockrl.

    ``evaluate`` returns the mean settlement per seat of ``n_rollouts`` uniformly random playouts from the
    state; ``prior`` is uniform over the legal actions (chance nodes: the chance outcomes).
    """

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        """Create the evaluator with its own seeded generator."""
        if n_rollouts < 1:
            raise ValueError(f"n_rollouts must be at least 1, got {n_rollouts}")
        self.n_rollouts = int(n_rollouts)
        self.rng = np.random.default_rng(seed)

    def evaluate(self, state: TarockSpielState) -> np.ndarray:
        """Mean returns of random playouts from ``state``."""
        ts = state.tstate
        if ts is None:
            raise ValueError("TarockRolloutEvaluator needs a dealt state (not the chance node)")
        total = np.zeros(ts.game.num_players)
        for _ in range(self.n_rollouts):
            w = ts.clone()
            while not w.is_terminal():
                legal = np.flatnonzero(w.legal_action_mask())
                w.apply_action(int(legal[self.rng.integers(legal.size)]))
            total += w.returns()
        return total / self.n_rollouts

    def prior(self, state: TarockSpielState) -> list[tuple[int, float]]:
        """Uniform over the legal actions (the chance outcomes at a chance node)."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielAgent:
    """A tarockrl agent (``step(state) -> int``) that asks an OpenSpiel search bot (see the module docstring)."""

    def __init__(self, game: Any, kind: str = "ismcts", simulations: int = 100, uct_c: float | None = None,
                 rollouts: int = 1, worlds: int = 4, final: str = "max_visit", seed: int | None = None) -> None:
        """Create the agent for tarockrl game ``game``; parameters as in the module docstring."""
        from tarockrl.errors import BadAgentSpecError

        kind = kind.lower()
        if kind not in ("ismcts", "mcts"):
            raise BadAgentSpecError(f"openspiel agent kind must be 'ismcts' or 'mcts', got {kind!r}")
        for what, v in (("simulations", simulations), ("rollouts", rollouts), ("worlds", worlds)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise BadAgentSpecError(f"openspiel agent: {what} must be a positive integer, got {v!r}")
        if final not in ("max_visit", "max_value"):
            raise BadAgentSpecError(f"openspiel agent: final must be 'max_visit' or 'max_value', got {final!r}")
        if game.definition.resample_hidden is None:
            raise BadAgentSpecError(
                f"openspiel:{kind} needs a hidden-card sampler, which {game.name} does not have yet "
                "(State.resample_hidden): it searches sampled worlds, never the true deal")
        if uct_c is None:
            uct_c = DEFAULT_UCT_C.get(game.name, 1.0)
        if not uct_c > 0:
            raise BadAgentSpecError(f"openspiel agent: uct_c must be positive, got {uct_c!r}")
        self.game = game
        self.kind = kind
        self.simulations = simulations
        self.uct_c = float(uct_c)
        self.rollouts = rollouts
        self.worlds = worlds
        self.final = final
        self.spiel_game = load_game(game)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed every random stream of the agent (the bot's, the evaluator's and the world sampler's)."""
        self.seed = seed
        ss = np.random.SeedSequence(seed)
        a, b, c = (int(x) for x in ss.generate_state(3))
        self._np_state = np.random.RandomState(a)
        self._evaluator = TarockRolloutEvaluator(self.rollouts, b)
        self._world_rng = np.random.default_rng(c)
        self._bot = self._make_bot()

    def _make_bot(self) -> Any:
        from open_spiel.python.algorithms import ismcts, mcts

        if self.kind == "ismcts":
            final = {"max_visit": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                     "max_value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE}[self.final]
            bot = ismcts.ISMCTSBot(self.spiel_game, self._evaluator, self.uct_c, self.simulations,
                                   random_state=self._np_state, final_policy_type=final)
            bot.set_resampler(self._resample)
            return bot
        return mcts.MCTSBot(self.spiel_game, self.uct_c, self.simulations, self._evaluator,
                            random_state=self._np_state, solve=False)

    def _resample(self, state: TarockSpielState, player: int) -> TarockSpielState:
        return state.resample_from_infostate(player, self._world_rng.random)

    def step(self, state: Any) -> int:
        """The bot's action for the seat to move in tarockrl state ``state`` (only that seat's knowledge)."""
        legal = state.legal_actions()
        if not legal:
            raise ValueError("OpenSpielAgent.step: the deal is over")
        if len(legal) == 1:
            return int(legal[0])
        root = from_tarockrl_state(self.spiel_game, state)
        player = state.current_player()
        if self.kind == "ismcts":
            # the root itself is a sampled world too: the bot sees the true deal only through its infostate key
            return int(self._bot.step(self._resample(root, player)))
        visits = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            node = self._bot.mcts_search(self._resample(root, player))
            for child in node.children:
                visits[int(child.action)] += child.explore_count
        best = max(visits.values())
        return int(min(a for a, v in visits.items() if v == best))

    def __repr__(self) -> str:
        return (f"OpenSpielAgent({self.kind}, simulations={self.simulations}, uct_c={self.uct_c}, "
                f"rollouts={self.rollouts}{f', worlds={self.worlds}' if self.kind == 'mcts' else ''})")


class EvaluableBot:
    """Wraps an OpenSpiel Python bot so that ``evaluate_bots`` takes it (a ``pyspiel.Bot`` whose
    ``restart_at``/``inform_action`` do nothing: OpenSpiel's Python MCTS and ISMCTS bots keep no state between
    decisions but do not implement them in open_spiel 2.0.2)."""

    def __new__(cls, bot: Any) -> Any:
        """A ``pyspiel.Bot`` delegating ``step`` to ``bot``."""
        import pyspiel

        class _Wrapped(pyspiel.Bot):
            def __init__(self, inner: Any) -> None:
                pyspiel.Bot.__init__(self)
                self.inner = inner

            def step(self, state: Any) -> int:
                return int(self.inner.step(state))

            def restart_at(self, state: Any) -> None:
                pass

            def inform_action(self, state: Any, player_id: int, action: int) -> None:
                pass

            def provides_force_action(self) -> bool:
                return False

        return _Wrapped(bot)


def make_openspiel_agent(game: Any, seed: int | None = None, kind: str = "ismcts", simulations: int = 100,
                         uct_c: float = 0.0, rollouts: int = 1, worlds: int = 4,
                         final: str = "max_visit") -> OpenSpielAgent:
    """Factory for ``make_agent("openspiel:KIND,simulations=N,...", game)`` (``uct_c=0``: the game's default)."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        from tarockrl.errors import BadAgentSpecError

        raise BadAgentSpecError("openspiel agents need OpenSpiel: pip install 'tarockrl[openspiel]'") from None
    return OpenSpielAgent(game, kind=kind, simulations=simulations, uct_c=uct_c or None, rollouts=rollouts,
                          worlds=worlds, final=final, seed=seed)
