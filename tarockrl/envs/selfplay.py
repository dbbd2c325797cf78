"""Batched self-play: ``num_envs`` deals where the caller acts for every seat, stepped by one numba call.

The lower-level interface for self-play training: no learning seat and no opponents; every row shows the seat
to move, its observation and its legal mask, and takes that seat's action::

    sp = SelfPlayBatch("dreierles", num_envs=4096, seed=0)
    step = sp.reset()
    while training:
        actions = policy(step.observations, step.action_masks, step.players)   # one action per row
        step = sp.step(actions)
        # step.dones[i]: row i's deal just ended; step.returns[i]: every seat's settlement of that deal
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tarockrl.envs._batched import BoundDrivers
from tarockrl.envs.common import ResetNeededError, resolve_game, to_int64
from tarockrl.errors import IllegalActionError
from tarockrl.games.api import State

__all__ = ["SelfPlayBatch", "SelfPlayStep"]


class SelfPlayStep(NamedTuple):
    """What :class:`SelfPlayBatch` returns after ``reset`` and ``step``.

    Attributes:
        observations: float32[n, observation_size], each row seen by its seat to move (zeros for rows that
            are over and not reset).
        action_masks: int8[n, num_actions], the legal actions of the seat to move (zeros when over).
        players: int64[n], the seat to move (-1 when over).
        returns: float64[n, num_players], every seat's settlement (game points) for the rows whose deal ended
            in this step, zeros elsewhere.
        dones: bool[n], the rows whose deal ended in this step (with autoreset they already hold the next deal).
    """

    observations: np.ndarray
    action_masks: np.ndarray
    players: np.ndarray
    returns: np.ndarray
    dones: np.ndarray


class SelfPlayBatch(BoundDrivers):
    """``num_envs`` deals of one game stepped together, every seat driven by the caller.

    Args:
        game: a game name or a :class:`tarockrl.Game`.
        num_envs: number of deals played side by side.
        seed: the deal stream: row ``i`` plays deals ``first_deal_id + i + k * num_envs`` of ``seed``.
        autoreset: start a row's next deal in the same step its deal ends (default); else the row stays over
            (``players == -1``) until :meth:`reset` with a mask.
        copy: return copies of the outputs (default False: views of buffers the next call overwrites).
        first_deal_id: offset of the deal ids.
        num_threads: threads stepping the rows (default ``numba.get_num_threads()``).
        **rules_options: the game's rules options.
    """

    def __init__(
        self,
        game: Any = "dreierles",
        num_envs: int = 1,
        seed: int | None = None,
        autoreset: bool = True,
        copy: bool = False,
        first_deal_id: int = 0,
        num_threads: int | None = None,
        **rules_options: Any,
    ) -> None:
        """Create the batch (call :meth:`reset` to deal)."""
        self.game = resolve_game(game, rules_options)
        g = self.game
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        n = self.num_envs = int(num_envs)
        self.num_players = g.num_players
        self.autoreset = bool(autoreset)
        self.copy = bool(copy)
        k = self._bind_drivers(num_threads)
        self._seed = None if seed is None else to_int64(seed)
        self._rows = np.zeros((n, g.state_len), dtype=np.int64)
        self._ctrl = np.zeros((n, k.CTRL_LEN), dtype=np.int64)
        self._params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        self._params[k.P_STRIDE] = n
        self._params[k.P_FIRST_DEAL] = to_int64(first_deal_id, "first_deal_id")
        self._params[k.P_AUTORESET] = k.AUTORESET_SAME_STEP if self.autoreset else k.AUTORESET_DISABLED
        self._legal = np.zeros((n, g.num_actions), dtype=np.bool_)
        self._obs = np.zeros((n, g.observation_size), dtype=np.float32)
        self._masks = np.zeros((n, g.num_actions), dtype=np.int8)
        self._players = np.full(n, -1, dtype=np.int64)
        self._ret = np.zeros((n, g.num_players), dtype=np.float64)
        self._done = np.zeros(n, dtype=np.bool_)
        self._rew = np.zeros(n, dtype=np.float64)  # unused by self-play rows
        self._kinds = np.zeros(g.num_players, dtype=np.int64)
        self._fparams = np.ones(k.NUM_FPARAMS, dtype=np.float64)
        self._no_codes = (np.zeros((1, 1), np.uint8), np.zeros(0, np.int64))  # run's unused code buffers
        self._ops_step = np.full(n, k.OP_SP_STEP, dtype=np.int64)
        self._ops_reset = np.full(n, k.OP_SP_RESET, dtype=np.int64)
        self._zeros = np.zeros(n, dtype=np.int64)
        self._started = False

    # -- views -------------------------------------------------------------------------------------------------
    @property
    def rows(self) -> np.ndarray:
        """Read-only view of the state rows (``[num_envs, state_len]`` int64; see the game's layout)."""
        view = self._rows.view()
        view.setflags(write=False)
        return view

    @property
    def deal_ids(self) -> np.ndarray:
        """int64[num_envs]: the deal id of each row's current deal."""
        return self._ctrl[:, self._k.C_DEAL_ID].copy()

    def state(self, i: int) -> State:
        """A copy of row ``i`` as a :class:`tarockrl.State`."""
        return State(self.game, self._rows[i].copy())

    def is_terminal(self) -> np.ndarray:
        """bool[num_envs]: rows whose deal is over (only without autoreset)."""
        return self._players < 0

    def _run(self, ops: np.ndarray, actions: np.ndarray) -> SelfPlayStep:
        _, broken = self._runner(
            self._rows, self._ctrl, ops, actions, self._opts, self._kinds, self._params, self._fparams, self._legal,
            self._obs, self._masks, self._rew, self._done, self._ret, self._obs, *self._no_codes[:1], *self._no_codes,
        )
        if broken:
            raise RuntimeError(f"{self.game.name}: the engine refused a legal action; please report this bug")
        self._players[:] = self._rows[:, self.game.definition.slot_cur]
        c = (lambda a: a.copy()) if self.copy else (lambda a: a)
        return SelfPlayStep(c(self._obs), c(self._masks), c(self._players), c(self._ret), c(self._done))

    # -- the interface -----------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, reset_mask: np.ndarray | None = None) -> SelfPlayStep:
        """Deal every row (or the rows of ``reset_mask``); ``seed`` restarts the deal stream."""
        k = self._k
        if seed is not None:
            self._seed = to_int64(seed)
            self._ctrl[:, k.C_EPISODE] = 0
        if self._seed is None:
            self._seed = int(np.random.default_rng().integers(0, 2**62))
        self._params[k.P_SEED] = self._seed
        ops = self._ops_reset
        if reset_mask is not None:
            mask = np.asarray(reset_mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},)")
            if not self._started and not mask.all():
                raise ResetNeededError("the first reset must deal every row")
            ops = np.where(mask, k.OP_SP_RESET, k.OP_SKIP).astype(np.int64)
        result = self._run(ops, self._zeros)
        self._started = True
        return result

    def step(self, actions: Any) -> SelfPlayStep:
        """Apply ``actions[i]`` for the seat to move of every row (rows that are over ignore theirs).

        An illegal action in any live row raises ``IllegalActionError`` naming the rows, and no row changes.
        """
        if not self._started:
            raise ResetNeededError("call reset() before step()")
        k = self._k
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be an integer array of shape ({self.num_envs},), got {acts.dtype} {acts.shape}"
            )
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        bad = k.count_illegal(self._rows, self._ctrl, self._ops_step, acts, self._legal)
        if bad:
            live = self._players >= 0
            in_range = (acts >= 0) & (acts < self.game.num_actions)
            ok = in_range.copy()
            ok[in_range] = self._legal[np.flatnonzero(in_range), acts[in_range]]
            rows = np.flatnonzero(live & ~ok)
            shown = "; ".join(
                f"row {i} (seat {int(self._players[i])}): action {int(acts[i])}, legal "
                f"{np.flatnonzero(self._legal[i]).tolist()}"
                for i in rows[:3]
            )
            raise IllegalActionError(f"{bad} illegal action(s) ({shown}{'; ...' if rows.size > 3 else ''}); "
                                     "no row was changed")
        return self._run(self._ops_step, acts)

    def observe_all(self) -> tuple[np.ndarray, np.ndarray]:
        """Every seat's view: ``(float32[n, num_players, observation_size], int8[n, num_players, num_actions])``.

        The mask of a seat that is not to move is all zeros. Fresh arrays (the game's batch kernels).
        """
        g = self.game
        d = g.definition
        n, p = self.num_envs, g.num_players
        obs = np.empty((n, p, g.observation_size), dtype=np.float32)
        seat = np.empty(n, dtype=np.int64)
        view = np.empty((n, g.observation_size), dtype=np.float32)
        for s in range(p):
            seat[:] = s
            d.batch_observe(self._rows, seat, self._opts, view)
            obs[:, s] = view
        masks = np.zeros((n, p, g.num_actions), dtype=np.int8)
        live = np.flatnonzero(self._players >= 0)
        masks[live, self._players[live]] = self._legal[live]
        return obs, masks

    def __repr__(self) -> str:
        return f"<SelfPlayBatch {self.game!r} num_envs={self.num_envs}>"

    def close(self) -> None:
        """Stop the worker threads."""
        self._runner.close()

