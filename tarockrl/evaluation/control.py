"""Control variates for duplicate matches: value functions and the action correction (in the spirit of AIVAT).

Duplicate play removes the luck of the cards; what is left is mostly the luck *inside* the agents: a stochastic
agent (the random agent, a sampling agent) may pick a good or a bad action by chance. When an agent's policy at a
decision is known (``π(a)`` for every legal ``a``), the term

    c_t = v(s_t ⊕ a_t) − Σ_a π(a) · v(s_t ⊕ a)

has conditional expectation zero given everything before the decision, *whatever* the value function ``v``
(``s ⊕ a`` is the state after action ``a``; ``v`` returns one value per seat), as long as ``v``'s own randomness
does not depend on which action the agent took. Subtracting ``Σ_t c_t`` from a game's returns therefore leaves
the expected result unchanged (unbiased) and removes the part of the outcome explained by lucky or unlucky
choices; the better ``v`` predicts the final result, the more variance goes. This is AIVAT's action term
(Burch et al., 2018); duplicate seating already plays the role of its chance term for the deal.

* Decisions of agents whose policy is not known (deterministic agents need none: their term is zero) get no
  correction; the estimate stays unbiased.
* A policy is known when the agent has ``action_probabilities(state) -> float array[num_actions]`` or is a
  :class:`tarockrl.agents.RandomAgent` (uniform over the legal actions).
* Value functions follow :class:`ValueFunction`. The first one, :class:`PlayoutValue`, is available for every game
  now: the mean result of ``rollouts`` uniformly random playouts from the state, with **common random numbers**:
  the children of one decision are rolled out with the same random stream, so their differences are sharp. An
  open-hand solver or a learned value net plugs in the same way (``values(game, rows, streams, seed)``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numba
import numpy as np
from numba import njit

__all__ = ["ValueFunction", "PlayoutValue", "known_policy", "DecisionLog", "make_value_function"]


@runtime_checkable
class ValueFunction(Protocol):
    """Expected final returns (one per seat) of many states of one game.

    ``rows`` is ``int64[n, state_len]`` (state rows, see ``State.row``); ``streams[i]`` names the random stream of
    row ``i``: rows with the same stream must be evaluated with the same random numbers (common random numbers
    across the actions of one decision). A deterministic value function ignores ``streams`` and ``seed``.
    """

    def values(self, game: Any, rows: np.ndarray, streams: np.ndarray, seed: int) -> np.ndarray:
        """float64[n, num_players] expected returns of the states."""
        ...


class PlayoutValue:
    """Value of a state = mean returns of ``rollouts`` uniformly random playouts from it (reference playouts).

    Rollout ``k`` of every row of stream ``g`` draws its actions from the same uniform numbers
    ``default_rng([seed, g]).random((rollouts, max_episode_length))[k]`` (the ``j``-th legal action with
    ``j = floor(u · number of legal actions)``), so the children of one decision are compared on common random
    numbers. All rows are stepped together through the game's batch kernels.
    """

    def __init__(self, rollouts: int = 4) -> None:
        """``rollouts`` playouts per state (at least 1)."""
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a positive integer, got {rollouts!r}")
        self.rollouts = rollouts

    def __repr__(self) -> str:
        return f"PlayoutValue(rollouts={self.rollouts})"

    def values(self, game: Any, rows: np.ndarray, streams: np.ndarray, seed: int) -> np.ndarray:
        """Mean returns of the random playouts of every row (see the class docstring)."""
        d = game.definition
        rows = np.asarray(rows, dtype=np.int64)
        n, k = rows.shape[0], self.rollouts
        p = game.num_players
        if n == 0:
            return np.zeros((0, p))
        big = np.repeat(rows, k, axis=0)
        streams = np.asarray(streams, dtype=np.int64)
        horizon = game.max_episode_length + 1
        uniq, inv = np.unique(streams, return_inverse=True)
        table = np.stack([np.random.default_rng([int(seed) & (2**63 - 1), int(g) & (2**63 - 1)]).random((k, horizon))
                          for g in uniq])  # [groups, k, horizon]
        u = table[np.repeat(inv, k), np.tile(np.arange(k), n)]  # [n*k, horizon]
        masks = np.empty((big.shape[0], game.num_actions), dtype=np.bool_)
        status = np.zeros(big.shape[0], dtype=np.int64)
        d.batch_legal_masks(big, game.encoded_options, masks)
        actions = np.empty(big.shape[0], dtype=np.int64)
        opts = game.encoded_options
        threads = numba.get_num_threads()
        if big.shape[0] < 4096:
            numba.set_num_threads(1)  # small batches: thread start-up costs more than it saves
        try:
            step = 0
            while _pick(big, masks, u, step, d.slot_phase, d.terminal_phase, actions):
                if step >= horizon:
                    raise RuntimeError("a playout exceeded the game's episode bound")
                d.batch_step(big, actions, opts, status)
                step += 1
                d.batch_legal_masks(big, opts, masks)
        finally:
            numba.set_num_threads(threads)
        res = big[:, d.slot_result:d.slot_result + p].astype(np.float64)
        return res.reshape(n, k, p).mean(axis=1)


@njit(cache=True)
def _pick(rows, masks, u, step, slot_phase, terminal_phase, out):
    """``out[i]`` = the ``floor(u[i, step] · count)``-th legal action of row ``i`` (-1 when over); any live row?"""
    any_live = False
    for i in range(rows.shape[0]):
        out[i] = -1
        if rows[i, slot_phase] == terminal_phase:
            continue
        count = 0
        for a in range(masks.shape[1]):
            if masks[i, a]:
                count += 1
        if count == 0:
            continue
        any_live = True
        j = min(np.int64(u[i, step] * count), count - 1)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if j == 0:
                    out[i] = a
                    break
                j -= 1
    return any_live


def make_value_function(spec: str | None) -> ValueFunction | None:
    """A value function by name: ``None``/``"none"``, ``"playout"`` or ``"playout:rollouts=K"``."""
    from tarockrl.errors import TarockError

    if spec is None or spec.strip().lower() in ("", "none", "off"):
        return None
    name, _, rest = spec.strip().partition(":")
    if name != "playout":
        raise TarockError(f"unknown control variate {spec!r}; known: none, playout, playout:rollouts=K")
    rollouts = 4
    for part in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = part.partition("=")
        if key.strip() != "rollouts" or not eq:
            raise TarockError(f"control variate {spec!r}: the only parameter is rollouts=K")
        try:
            rollouts = int(value)
        except ValueError:
            raise TarockError(f"control variate {spec!r}: rollouts must be an integer") from None
        if rollouts < 1:
            raise TarockError(f"control variate {spec!r}: rollouts must be at least 1")
    return PlayoutValue(rollouts)


def known_policy(agent: Any, state: Any) -> np.ndarray | None:
    """The agent's action probabilities at ``state`` when known (float64[num_actions]), else ``None``."""
    fn = getattr(agent, "action_probabilities", None)
    if fn is not None:
        probs = np.asarray(fn(state), dtype=np.float64).reshape(-1)
        if probs.shape[0] != state.game.num_actions:
            raise ValueError(f"{agent!r}.action_probabilities returned {probs.shape[0]} values, expected "
                             f"{state.game.num_actions}")
        return probs
    from tarockrl.agents.random_agent import RandomAgent

    target = getattr(agent, "agent", agent)  # an act-only agent wrapped by with_step
    if isinstance(target, RandomAgent):
        mask = state.legal_action_mask()
        return mask / mask.sum()
    return None


class DecisionLog:
    """The decisions of one game at which the acting agent's policy was known and not deterministic."""

    def __init__(self) -> None:
        """An empty log."""
        self.rows: list[np.ndarray] = []
        self.probs: list[np.ndarray] = []
        self.chosen: list[int] = []

    def add(self, state: Any, probs: np.ndarray | None, action: int) -> None:
        """Record the decision ``action`` at ``state`` (before it is applied), if ``probs`` is a real choice."""
        if probs is None or np.count_nonzero(probs > 0) < 2:
            return
        self.rows.append(np.array(state.row, dtype=np.int64))
        self.probs.append(probs)
        self.chosen.append(int(action))

    def correction(self, game: Any, value: ValueFunction, seed: int) -> np.ndarray:
        """``Σ_t [v(s_t ⊕ a_t) − Σ_a π_t(a) v(s_t ⊕ a)]`` per seat (zeros when nothing was logged)."""
        p = game.num_players
        if not self.rows:
            return np.zeros(p)
        d = game.definition
        opts = game.encoded_options
        children, streams, weights, owner, is_chosen = [], [], [], [], []
        for t, (row, probs, a_star) in enumerate(zip(self.rows, self.probs, self.chosen, strict=True)):
            for a in np.flatnonzero(probs > 0):
                child = row.copy()
                if d.apply_action(child, np.int64(a), opts) != 0:
                    raise ValueError(f"an action with positive probability ({int(a)}) is not legal")
                children.append(child)
                streams.append(t)
                weights.append(probs[a])
                owner.append(t)
                is_chosen.append(int(a) == a_star)
        v = value.values(game, np.stack(children), np.asarray(streams), seed)
        w = np.asarray(weights)[:, None]
        owner_arr = np.asarray(owner)
        expected = np.zeros((len(self.rows), p))
        np.add.at(expected, owner_arr, w * v)
        chosen_v = v[np.asarray(is_chosen)]
        return (chosen_v - expected).sum(axis=0)
