"""The batched Gymnasium vector env: ``num_envs`` sub-envs stepped by one numba call (one per thread).

``TarockVectorEnv(game, num_envs, ...)`` works for every registered game;
``gymnasium.make_vec("tarockrl/<Game>-v0", num_envs=n, vectorization_mode="vector_entry_point")`` builds the
per-game class (``DreierlesVectorEnv`` ...), whose docstring is its documentation page.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from tarockrl.agents.base import act_batch
from tarockrl.envs._batched import BoundDrivers
from tarockrl.envs.common import (
    DEFAULT_ILLEGAL_REWARD,
    ResetNeededError,
    check_illegal,
    check_options,
    env_id,
    game_for_display_name,
    observation_space,
    parse_opponents,
    resolve_game,
    resolve_reward_scale,
    to_int64,
)
from tarockrl.errors import IllegalActionError
from tarockrl.games import game_definition
from tarockrl.games.api import State

__all__ = ["TarockVectorEnv", "vector_env_class", "vector_env_doc"]

_AUTORESET = {
    AutoresetMode.NEXT_STEP: 0,
    AutoresetMode.SAME_STEP: 1,
    AutoresetMode.DISABLED: 2,
}
_RESET_OPTIONS = ("reset_mask", "first_deal_id")


def _autoreset_mode(mode: Any) -> AutoresetMode:
    """An ``AutoresetMode`` from itself or a name such as ``"same_step"`` / ``"SameStep"``."""
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        key = mode.replace("_", "").replace("-", "").lower()
        for m in AutoresetMode:
            if m.value.lower() == key:
                return m
    raise ValueError(f"autoreset_mode must be 'same_step', 'next_step' or 'disabled', got {mode!r}")
_MAX_SKIPS = 1000


class TarockVectorEnv(BoundDrivers, gymnasium.vector.VectorEnv):
    """``num_envs`` single-agent sub-envs of one game, stepped together in one numba call.

    Args:
        game: a game name or a :class:`tarockrl.Game`.
        num_envs: number of sub-envs (e.g. 4096).
        seat: the learning seat, ``"random"`` (per episode), or a sequence of ``num_envs`` seats.
        opponents: as in :class:`tarockrl.envs.TarockEnv`; Python agents are called once per seat and round with
            a batch (``act_batch`` when they have it).
        illegal_action: ``"raise"`` (``IllegalActionError`` naming the sub-envs; nothing changes) or ``"lose"``.
        reward_scale, illegal_reward: as in the single env (``reward_scale="auto"`` included).
        autoreset_mode: ``"same_step"`` (default), ``"next_step"`` or ``"disabled"`` (a
            ``gymnasium.vector.AutoresetMode`` works too).
        copy: return copies of the output arrays (default False: views of internal buffers that the next call
            overwrites; copy what you keep).
        final_observation: with ``same_step``, also write the final observation of finished episodes to
            ``info["final_obs"]`` (costs one extra observation per finished episode).
        num_threads: threads stepping the sub-envs (default ``numba.get_num_threads()``).
        obs_dtype: ``"float32"`` (default: the engine's vectors with the unbounded fields squashed into
            ``(-1, 1)`` as in the single env) or ``"uint8"`` / ``"int8"``: compact integer codes written by the
            driver (:mod:`tarockrl.games.obs_dtype`: the binary entries equal the float32 ones, counts are
            integers, settlement fields clip; decode with ``tarockrl.games.obs_dtype.decode_observations``).
        **rules_options: the game's rules options.
    """

    def __init__(
        self,
        game: Any = "dreierles",
        num_envs: int = 1,
        seat: Any = 0,
        opponents: Any = None,
        illegal_action: str = "raise",
        reward_scale: float | str = 1.0,
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        autoreset_mode: str | AutoresetMode = AutoresetMode.SAME_STEP,
        copy: bool = False,
        final_observation: bool = True,
        num_threads: int | None = None,
        render_mode: str | None = None,
        obs_dtype: Any = "float32",
        **rules_options: Any,
    ) -> None:
        """Create the vector env (see the class docstring for the arguments)."""
        rules_options.pop("max_episode_steps", None)  # passed by make_vec for specs that set it; deals are bounded
        self.game = resolve_game(game, rules_options)
        g = self.game
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        n = self.num_envs = int(num_envs)
        self.num_players = g.num_players
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": ["ansi"]}
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        from tarockrl.envs.bounds import observation_bounds
        from tarockrl.games.obs_dtype import check_obs_dtype, dtype_range, observation_codes

        self.obs_dtype = check_obs_dtype(obs_dtype)
        self.illegal_action, self.illegal_reward, self.reward_scale = check_illegal(
            illegal_action, illegal_reward, resolve_reward_scale(reward_scale, g)
        )
        self.copy = bool(copy)
        self.final_observation = bool(final_observation)
        seats, fixed = self._parse_seats(seat)
        self.opponents = parse_opponents(opponents, g.num_players, fixed)
        self.single_action_space = gymnasium.spaces.Discrete(g.num_actions)
        self._coded = self.obs_dtype != np.float32
        self._bounds = observation_bounds(g)
        if self._coded:
            den, off = observation_codes(g, self.obs_dtype)
            lo, hi = dtype_range(self.obs_dtype)
            self._fix = np.flatnonzero(off).astype(np.int64)  # signed entries of uint8 codes (bit 7 flipped)
            low = np.clip(np.rint(self._bounds.low * den + off), lo, hi)
            high = np.clip(np.rint(self._bounds.high * den + off), lo, hi)
            low[self._bounds.squashed], high[self._bounds.squashed] = lo, hi  # settlements clip at the range
            self.single_observation_space = gymnasium.spaces.Box(
                low=low.astype(self.obs_dtype), high=high.astype(self.obs_dtype), dtype=self.obs_dtype)
        else:
            self._fix = self._bounds.squashed.astype(np.int64)  # squashed by the driver
            self.single_observation_space = observation_space(g, bounded=True)
        self.action_space = batch_space(self.single_action_space, n)
        self.observation_space = batch_space(self.single_observation_space, n)

        k = self._bind_drivers(num_threads)
        self._rows = np.zeros((n, g.state_len), dtype=np.int64)
        self._ctrl = np.zeros((n, k.CTRL_LEN), dtype=np.int64)
        self._ctrl[:, k.C_FIXED_SEAT] = seats
        self._ctrl[:, k.C_STATUS] = -1
        self._params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        self._params[k.P_STRIDE] = n
        self._params[k.P_AUTORESET] = _AUTORESET[self.autoreset_mode]
        self._params[k.P_MAX_SKIPS] = _MAX_SKIPS
        self._params[k.P_WANT_FINAL_OBS] = 1 if self.final_observation else 0
        self._params[k.P_OBS_CODES] = 1 if self._coded else 0
        self._fparams = np.array([self.reward_scale, self.illegal_reward], dtype=np.float64)
        self._legal = np.zeros((n, g.num_actions), dtype=np.bool_)
        self._obs = np.zeros((1 if self._coded else n, g.observation_size), dtype=np.float32)
        self._qobs = np.zeros((n if self._coded else 1, g.observation_size), dtype=self.obs_dtype if self._coded
                              else np.uint8)
        self._masks = np.zeros((n, g.num_actions), dtype=np.int8)
        self._rew = np.zeros(n, dtype=np.float64)
        self._term = np.zeros(n, dtype=np.bool_)
        self._trunc = np.zeros(n, dtype=np.bool_)
        self._ret = np.zeros((n, g.num_players), dtype=np.float64)
        want_final = self.final_observation and self.autoreset_mode == AutoresetMode.SAME_STEP
        final_rows = n if want_final else 1
        self._final = np.zeros((1 if self._coded else final_rows, g.observation_size), dtype=np.float32)
        self._qfinal = np.zeros((final_rows if self._coded else 1, g.observation_size), dtype=self._qobs.dtype)
        self._ops_step = np.full(n, k.OP_STEP, dtype=np.int64)
        self._ops_reset = np.full(n, k.OP_RESET, dtype=np.int64)
        self._all_true = np.ones(n, dtype=np.bool_)
        self._actions = np.zeros(n, dtype=np.int64)
        self._waiting = 0
        self._np_random_seed: int | None = None
        self._np_random = None
        self._base_seed: int | None = None
        self._started = False
        self._interrupted = False

    def _parse_seats(self, seat: Any) -> tuple[np.ndarray, int | None]:
        n, p = self.num_envs, self.num_players
        if isinstance(seat, str):
            if seat != "random":
                raise ValueError(f"seat must be a seat number, 'random' or {n} seats, got {seat!r}")
            return np.full(n, -1, dtype=np.int64), None
        if isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_)):
            if not 0 <= seat < p:
                raise ValueError(f"seat must lie in [0, {p}), got {seat}")
            return np.full(n, int(seat), dtype=np.int64), int(seat)
        seats = np.asarray(seat)
        if seats.shape != (n,) or not np.issubdtype(seats.dtype, np.integer) or seats.min() < 0 or seats.max() >= p:
            raise ValueError(f"seat as a sequence needs {n} seat numbers in [0, {p}), got {seat!r}")
        fixed = int(seats[0]) if (seats == seats[0]).all() else None
        return seats.astype(np.int64), fixed

    # -- helpers -----------------------------------------------------------------------------------------------
    @property
    def seats(self) -> np.ndarray:
        """int64[num_envs]: the learning seat of each sub-env's current episode."""
        return self._ctrl[:, self._k.C_SEAT].copy()

    @property
    def deal_ids(self) -> np.ndarray:
        """int64[num_envs]: the deal id of each sub-env's current episode."""
        return self._ctrl[:, self._k.C_DEAL_ID].copy()

    @property
    def rows(self) -> np.ndarray:
        """A read-only view of the state rows (``[num_envs, state_len]`` int64)."""
        view = self._rows.view()
        view.setflags(write=False)
        return view

    def state(self, i: int) -> State:
        """A copy of sub-env ``i``'s deal as a :class:`tarockrl.State` (all hands: for analysis only)."""
        return State(self.game, self._rows[i].copy())

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, num_actions]: the learners' legal actions now (same data as ``info["action_mask"]``)."""
        return self._masks.view(np.bool_)

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _info(self, with_returns: bool) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._out(self._masks), "_action_mask": self._all_true}
        if with_returns:
            term = self._out(self._term)
            info["returns"] = self._out(self._ret)
            info["_returns"] = term
            if self.autoreset_mode == AutoresetMode.SAME_STEP and self.final_observation:
                info["final_obs"] = self._out(self._qfinal if self._coded else self._final)
                info["_final_obs"] = term
        return info

    def _call(self, ops: np.ndarray, actions: np.ndarray) -> None:
        k = self._k
        self._interrupted = True  # until the step completes (an agent or engine error leaves rows mid-turn)
        waiting, broken = self._runner(
            self._rows, self._ctrl, ops, actions, self._opts, self.opponents.kinds, self._params, self._fparams,
            self._legal, self._obs, self._masks, self._rew, self._term, self._ret, self._final, self._qobs,
            self._qfinal, self._fix,
        )
        self._waiting = waiting
        if broken:
            status = self._ctrl[:, k.C_STATUS]
            rows = np.flatnonzero((status == k.BROKEN) | (status == k.NO_DECISION))[:5].tolist()
            if (status == k.BROKEN).any():
                raise RuntimeError(
                    f"{self.game.name}: the engine refused a legal action in sub-envs {rows}; please report this bug"
                )
            raise RuntimeError(f"the learning seat had no decision in {_MAX_SKIPS} deals in a row (sub-envs {rows})")

    def _finish_agents(self) -> None:
        """Let Python-driven opponents act until every sub-env waits for its learner or is over."""
        k = self._k
        slot_cur = self.game.definition.slot_cur
        while self._waiting:
            status = self._ctrl[:, k.C_STATUS]
            waiting = np.flatnonzero(status == k.AGENT)
            rel = (self._rows[waiting, slot_cur] - self._ctrl[waiting, k.C_SEAT]) % self.num_players
            ops = np.zeros(self.num_envs, dtype=np.int64)
            actions = np.zeros(self.num_envs, dtype=np.int64)
            for r in np.unique(rel):
                idx = waiting[rel == r]
                agent = self.opponents.agents[r]
                masks = self._masks[idx]
                if self._coded:
                    from tarockrl.games.obs_dtype import decode_observations

                    obs = decode_observations(self._qobs[idx], self.game)
                else:
                    obs = self._obs[idx]
                acts = np.asarray(act_batch(agent, obs, masks))
                if not np.issubdtype(acts.dtype, np.integer):
                    raise IllegalActionError(f"opponent agent {agent!r} returned non-integer actions {acts!r}")
                acts = acts.astype(np.int64)
                ok = (acts >= 0) & (acts < self.game.num_actions)
                ok[ok] = masks[np.flatnonzero(ok), acts[ok]] != 0
                if not ok.all():
                    j = int(np.flatnonzero(~ok)[0])
                    raise IllegalActionError(
                        f"opponent agent {agent!r} chose the illegal action {int(acts[j])} in sub-env {int(idx[j])}; "
                        f"legal actions: {np.flatnonzero(masks[j]).tolist()}"
                    )
                ops[idx] = k.OP_RESUME
                actions[idx] = acts
            self._call(ops, actions)

    # -- the VectorEnv API -------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset every sub-env (or those of ``options["reset_mask"]``); returns ``(observations, info)``.

        ``seed`` fixes the deals: sub-env ``i`` plays deals ``first_deal_id + i + k * num_envs`` (``k = 0, 1,
        ...``) of the seed; ``options={"first_deal_id": f}`` shifts them (default 0).
        """
        opts = check_options(options, _RESET_OPTIONS)  # validate everything before changing anything
        k = self._k
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise TypeError("seed must be one integer: sub-env i plays the deals i, i + num_envs, ... of it")
        new_seed = None if seed is None else to_int64(seed)
        first = to_int64(opts["first_deal_id"], "first_deal_id") if "first_deal_id" in opts else None
        mask = None
        if "reset_mask" in opts:
            mask = opts["reset_mask"]
            if not isinstance(mask, np.ndarray) or mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool numpy array of shape ({self.num_envs},)")
            if not self._started and not mask.all():
                raise ResetNeededError("the first reset must reset every sub-env")
            if self._interrupted:
                raise ResetNeededError("a step was interrupted by an error; reset every sub-env (no reset_mask)")
        if new_seed is not None:
            self._base_seed = new_seed
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(int(seed) % 2**63)
            self._params[k.P_FIRST_DEAL] = 0
            self._ctrl[slice(None) if mask is None else mask, k.C_EPISODE] = 0
        elif self._base_seed is None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(None)
            self._base_seed = int(self._np_random.integers(0, 2**62))
        self._params[k.P_SEED] = self._base_seed
        if first is not None:
            self._params[k.P_FIRST_DEAL] = first
        ops = self._ops_reset if mask is None else np.where(mask, k.OP_RESET, k.OP_SKIP).astype(np.int64)
        self._call(ops, self._actions)
        self._finish_agents()
        self._interrupted = False
        self._started = True
        return self._out(self._observations()), self._info(False)

    def step(self, actions: Any):
        """Step every sub-env with the learners' ``actions`` (int array of shape ``(num_envs,)``)."""
        if self._interrupted:
            raise ResetNeededError("the last call was interrupted by an error; call reset() before step()")
        if not self._started:
            raise ResetNeededError("call reset() before step()")
        k = self._k
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be an integer array of shape ({self.num_envs},), got {acts.dtype} {acts.shape}"
            )
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        if self.autoreset_mode == AutoresetMode.DISABLED:
            over = np.flatnonzero(self._ctrl[:, k.C_NEEDS_RESET])
            if over.size:
                raise ResetNeededError(
                    f"sub-envs {over[:5].tolist()}{' ...' if over.size > 5 else ''} are over; with "
                    "autoreset_mode='disabled' reset them first: reset(options={'reset_mask': mask})"
                )
        if self.illegal_action == "raise":
            bad = k.count_illegal(self._rows, self._ctrl, self._ops_step, acts, self._legal)
            if bad:
                self._raise_illegal(acts, bad)
        self._call(self._ops_step, acts)
        if self._waiting:
            self._finish_agents()
        self._interrupted = False
        return (self._out(self._observations()), self._out(self._rew), self._out(self._term),
                self._out(self._trunc), self._info(True))

    def _observations(self) -> np.ndarray:
        """The observations of this call: codes, or float32 vectors with their unbounded fields squashed (both
        written by the driver)."""
        return self._qobs if self._coded else self._obs

    def _raise_illegal(self, acts: np.ndarray, bad: int):
        k = self._k
        live = self._ctrl[:, k.C_NEEDS_RESET] == 0
        in_range = (acts >= 0) & (acts < self.game.num_actions)
        ok = in_range.copy()
        ok[in_range] = self._legal[np.flatnonzero(in_range), acts[in_range]]
        rows = np.flatnonzero(live & ~ok)
        shown = "; ".join(
            f"sub-env {i}: action {int(acts[i])}, legal {np.flatnonzero(self._legal[i]).tolist()}" for i in rows[:3]
        )
        raise IllegalActionError(
            f"{bad} illegal action(s) ({shown}{'; ...' if rows.size > 3 else ''}); no sub-env was changed"
        )

    def render(self) -> str | None:
        """Sub-env 0's table as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with render_mode='ansi'")
            return None
        return f"sub-env 0 of {self.num_envs}, learning seat {int(self._ctrl[0, self._k.C_SEAT])}\n{self.state(0)}"

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker threads."""
        self._runner.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game!r} num_envs={self.num_envs}>"



# ---------------------------------------------------------------------------------------------------------
# per-game classes and their documentation
# ---------------------------------------------------------------------------------------------------------
def vector_env_doc(name: str) -> str:
    """The documentation page of the vector env of game ``name``."""
    d = game_definition(name)
    gid = env_id(name)
    return f"""{d.display_name} vector env, batched in numba::

    gymnasium.make_vec("{gid}", num_envs=4096, vectorization_mode="vector_entry_point")

``num_envs`` copies of the single-agent env (``help(tarockrl.envs.env_class("{name}"))`` documents actions,
observations, rewards and options; they are the same here), stepped together: one numba call (one per thread, the
GIL released, ``num_threads`` defaulting to ``numba.get_num_threads()``) applies the
learners' actions, plays the in-engine random opponents, settles finished deals, starts new ones and writes every
observation and mask. Example::

    import gymnasium, numpy as np, tarockrl
    envs = gymnasium.make_vec("{gid}", num_envs=4096, vectorization_mode="vector_entry_point")
    obs, info = envs.reset(seed=0)
    for _ in range(100):
        actions = np.argmax(info["action_mask"], axis=1)        # the first legal action of each sub-env
        obs, rewards, terminated, truncated, info = envs.step(actions)

Spaces: ``observation_space`` is ``Box(num_envs, {d.observation_size})`` float32 (the unbounded fields squashed into
``(-1, 1)`` as in the single env; ``obs_dtype="uint8"``/``"int8"``: integer codes, see
:mod:`tarockrl.games.obs_dtype`), ``action_space``
``MultiDiscrete([{d.num_actions}] * num_envs)``.

Outputs
-------
``step`` returns ``(observations, rewards, terminated, truncated, info)``; ``truncated`` is always False.
``info["action_mask"]`` is the int8 ``[num_envs, {d.num_actions}]`` legal mask of each learner (``action_masks()``
gives it as bool); ``info["returns"]`` ``[num_envs, {d.num_players}]`` every seat's settlement for the sub-envs that
finished (``info["_returns"]`` marks them). By default the arrays are views of internal buffers that the next
call overwrites (fast; pass ``copy=True`` to get copies).

Autoreset
---------
``autoreset_mode="same_step"`` (the default, ``metadata["autoreset_mode"]``): a sub-env whose deal ends reports
the reward and ``terminated=True`` and already holds its next deal in the same step: its observation and mask
are the new deal's; the final observation is in ``info["final_obs"]`` (``info["_final_obs"]`` marks the rows;
``final_observation=False`` skips it). ``"next_step"``: the finished sub-env shows its final observation and is
reset on the next ``step``, which ignores its action. ``"disabled"``: finished sub-envs must be reset with
``reset(options={{"reset_mask": mask}})`` before stepping again.

Deals and seeds: after ``reset(seed=s)`` sub-env ``i`` plays deals ``i, i + num_envs, i + 2 num_envs, ...`` of
``s`` (``options={{"first_deal_id": f}}`` adds ``f``); each deal's random opponents (and random seat) are seeded
by the deal, so sub-env results equal the single env's ``reset(seed=s, options={{"deal_id": ...}})`` episodes.

Arguments
---------
``num_envs``, ``seat`` (a seat, ``"random"`` or one seat per sub-env), ``opponents`` (Python agents get batches
through ``act_batch`` when they have it), ``illegal_action`` (``"raise"``: ``IllegalActionError`` naming the
sub-envs and nothing changes; ``"lose"``), ``reward_scale``, ``illegal_reward``, ``autoreset_mode``, ``copy``,
``final_observation``, ``num_threads`` and the rules options of {d.display_name}.

Version history
---------------
* v0: first version.
"""


_CLASSES: dict[str, type] = {}


def _per_game_init(self, num_envs: int = 1, **kwargs: Any) -> None:
    """Create the vector env of this class's game (arguments: see the class documentation)."""
    TarockVectorEnv.__init__(self, type(self).GAME, num_envs=num_envs, **kwargs)


def vector_env_class(name: str) -> type:
    """The per-game vector env class (e.g. ``DreierlesVectorEnv``), created once."""
    d = game_definition(name)
    cls_name = f"{d.display_name}VectorEnv"
    if cls_name not in _CLASSES:
        attrs = {"__init__": _per_game_init, "__module__": __name__, "GAME": d.name}
        cls = type(cls_name, (TarockVectorEnv,), attrs)
        cls.__qualname__ = cls_name
        cls.__doc__ = vector_env_doc(name)
        _CLASSES[cls_name] = cls
        globals()[cls_name] = cls
    return _CLASSES[cls_name]


def __getattr__(attr: str) -> Any:
    """Per-game classes on demand: ``tarockrl.envs.vector.DreierlesVectorEnv`` ..."""
    if attr.endswith("VectorEnv"):
        name = game_for_display_name(attr[: -len("VectorEnv")])
        if name is not None:
            return vector_env_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
