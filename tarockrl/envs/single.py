"""The single-agent Gymnasium environment: one learning seat, the other seats driven by agents.

``TarockEnv(game, ...)`` works for every registered game; ``gymnasium.make("tarockrl/<Game>-v0")`` builds the
per-game class (``DreierlesEnv`` ...), whose docstring is that game's documentation page (``help(...)``).
"""

from __future__ import annotations

import logging
from typing import Any

import gymnasium
import numpy as np

from tarockrl.envs import _bind
from tarockrl.envs.bounds import observation_bounds
from tarockrl.envs.common import (
    AUTO_REWARD_SCALE_STD,
    DEFAULT_ILLEGAL_REWARD,
    ResetNeededError,
    actions_table,
    as_action,
    check_illegal,
    check_options,
    check_seat,
    derived_seed,
    env_id,
    game_for_display_name,
    game_summary,
    indent,
    observation_doc,
    observation_space,
    options_table,
    parse_opponents,
    resolve_game,
    resolve_reward_scale,
    to_int64,
)
from tarockrl.errors import BadDealError, IllegalActionError
from tarockrl.games import game_definition, make_game
from tarockrl.games.api import State

__all__ = ["TarockEnv", "env_class", "single_env_doc"]

_RESET_OPTIONS = ("deal", "deal_id", "seat")
_MAX_SKIPS = 1000
_log = logging.getLogger("tarockrl.envs")


class _NoDecisionError(Exception):
    """The learning seat had no decision in the deal(s) tried."""


class TarockEnv(gymnasium.Env):
    """Single-agent environment for any tarockrl game (see the per-game classes for the full documentation).

    Args:
        game: a game name (``tarockrl.list_games()``) or a :class:`tarockrl.Game`.
        seat: the learning seat (``0 .. num_players-1``) or ``"random"`` (drawn per episode).
        opponents: ``None``/``"random"`` (uniformly random legal, played inside the engine), one agent or callable
            ``f(observation, action_mask) -> int`` for every other seat, a list of ``num_players-1`` agents (the
            seats after the learner in playing order), or with a fixed seat a list by absolute seat / a dict.
        illegal_action: ``"lose"`` (the default, the ecosystem's convention: the episode ends with reward
            ``illegal_reward``, ``info["illegal_action"]`` holds the action, and the first illegal action of an env
            logs one warning on the ``tarockrl.envs`` logger) or ``"raise"`` (strict: ``IllegalActionError``,
            nothing changes).
        reward_scale: factor applied to every reward (the settlement is in game points), or ``"auto"``: one over
            the game's random-play standard deviation of a seat's settlement per deal (``AUTO_REWARD_SCALE_STD``:
            Dreierles 39.3, Dreiertarock 5189, Tatteln 72.4, Troccas 10.7 game points), so rewards have about
            unit scale in every game.
        illegal_reward: reward in game points (scaled too) of an illegal action under ``illegal_action="lose"``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (prints it).
        **rules_options: the game's rules options (its variants), passed to :func:`tarockrl.make_game`.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: Any = "dreierles",
        seat: int | str = 0,
        opponents: Any = None,
        illegal_action: str = "lose",
        reward_scale: float | str = 1.0,
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        render_mode: str | None = None,
        **rules_options: Any,
    ) -> None:
        """Create the environment (see the class docstring for the arguments)."""
        self.game = resolve_game(game, rules_options)
        g = self.game
        self.num_players = g.num_players
        self._fixed_seat = check_seat(seat, g.num_players)
        self.illegal_action, self.illegal_reward, self.reward_scale = check_illegal(
            illegal_action, illegal_reward, resolve_reward_scale(reward_scale, g)
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.opponents = parse_opponents(opponents, g.num_players, self._fixed_seat)
        self._opponents_spec = opponents
        self._opponents_seat = self._fixed_seat
        self.action_space = gymnasium.spaces.Discrete(g.num_actions)
        self.observation_space = observation_space(g, bounded=True)
        self._bounds = observation_bounds(g)
        self._opts = g.encoded_options
        self._k = _bind.drivers(g)
        self._alloc()
        self._base_seed: int | None = None
        self._last_info: dict[str, Any] = {}
        self._illegal_end = False
        self._warned_illegal = False
        self._status = -1  # no episode yet

    def _alloc(self) -> None:
        """The driver's one-row buffers (the single env is a batch of one row)."""
        g, k = self.game, self._k
        self._rows = np.zeros((1, g.state_len), dtype=np.int64)
        self._row = self._rows[0]
        self._ctrl = np.zeros((1, k.CTRL_LEN), dtype=np.int64)
        self._ctrl[0, k.C_FIXED_SEAT] = -1 if self._fixed_seat is None else self._fixed_seat
        self._params = np.zeros(k.NUM_PARAMS, dtype=np.int64)
        self._params[k.P_STRIDE] = 1
        self._params[k.P_AUTORESET] = k.AUTORESET_DISABLED
        self._params[k.P_MAX_SKIPS] = _MAX_SKIPS
        self._fparams = np.array([self.reward_scale, self.illegal_reward], dtype=np.float64)
        self._no_codes = (np.zeros((1, 1), np.uint8), np.zeros(0, np.int64))  # run's unused code buffers
        self._legal = np.zeros((1, g.num_actions), dtype=np.bool_)
        self._obs_buf = np.zeros((1, g.observation_size), dtype=np.float32)
        self._mask_buf = np.zeros((1, g.num_actions), dtype=np.int8)
        self._rew = np.zeros(1, dtype=np.float64)
        self._term = np.zeros(1, dtype=np.bool_)
        self._ret = np.zeros((1, g.num_players), dtype=np.float64)
        self._act = np.zeros(1, dtype=np.int64)
        self._ops = {op: np.array([getattr(k, op)], dtype=np.int64)
                     for op in ("OP_STEP", "OP_RESUME", "OP_RESET", "OP_RESET_ID", "OP_BEGIN")}
        self._op_step = self._ops["OP_STEP"]
        self._obs = np.zeros(g.observation_size, dtype=np.float32)
        self._mask = np.zeros(g.num_actions, dtype=np.int8)

    # -- properties --------------------------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The learning seat of the current episode."""
        return int(self._ctrl[0, self._k.C_SEAT])

    @property
    def deal_id(self) -> int:
        """Deal id of the current episode (``-1`` for an explicit deal)."""
        return int(self._ctrl[0, self._k.C_DEAL_ID])

    @property
    def state(self) -> State:
        """A copy of the current deal as a :class:`tarockrl.State` (every hand included: for analysis only)."""
        return State(self.game, self._row.copy())

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: the learner's legal actions now (the same data as ``info["action_mask"]``)."""
        return self._mask.view(np.bool_)

    def legal_actions(self) -> list[int]:
        """The learner's legal actions now, ascending."""
        return np.flatnonzero(self._mask).tolist()

    # -- episode -----------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a deal; returns ``(observation, info)``.

        ``seed`` fixes the deal stream: the episodes after ``reset(seed=s)`` are the deals ``0, 1, 2, ...`` of
        ``s``. Options: ``{"deal_id": k}`` plays deal ``k`` of the current seed, ``{"deal": {...}}`` an explicit
        deal in the game's deal notation, ``{"seat": p}`` puts the learner in seat ``p`` for this episode.
        """
        opts = check_options(options, _RESET_OPTIONS)  # validate everything before changing anything
        seat = self._fixed_seat
        if "seat" in opts:
            seat = check_seat(opts["seat"], self.num_players, allow_random=False)
        deal_row = self.game.new_initial_state(deal=opts["deal"]).row if "deal" in opts else None
        deal_id = to_int64(opts["deal_id"], "deal_id") if "deal_id" in opts else None
        new_seed = None if seed is None else to_int64(seed)
        opponents = self.opponents
        if seat != self._opponents_seat:  # opponents given by absolute seat follow their seats
            opponents = parse_opponents(self._opponents_spec, self.num_players, seat)
        super().reset(seed=None if seed is None else new_seed % (1 << 64))  # gymnasium wants an int >= 0
        k = self._k
        if new_seed is not None:
            self._base_seed = new_seed
            self._ctrl[0, k.C_EPISODE] = 0
        elif self._base_seed is None:
            self._base_seed = int(self.np_random.integers(0, 2**62))
        self._params[k.P_SEED] = self._base_seed
        self._ctrl[0, k.C_FIXED_SEAT] = -1 if seat is None else seat
        self.opponents, self._opponents_seat = opponents, seat
        fixed = deal_row is not None or deal_id is not None
        if deal_row is not None:
            self._row[:] = deal_row
            op = self._ops["OP_BEGIN"]
        elif deal_id is not None:
            self._act[0] = deal_id
            op = self._ops["OP_RESET_ID"]
        else:
            op = self._ops["OP_RESET"]
        skipped_before = int(self._ctrl[0, k.C_SKIPPED])
        self._params[k.P_MAX_SKIPS] = 0 if fixed else _MAX_SKIPS
        try:
            self._run(op, on_begin=self._reset_agents)
        except _NoDecisionError:
            if fixed:
                raise BadDealError(
                    f"the learning seat {self.seat} has no decision in this deal (it ends without its turn); "
                    "choose another deal or seat"
                ) from None
            raise RuntimeError(f"the learning seat had no decision in {_MAX_SKIPS} deals in a row") from None
        finally:
            self._params[k.P_MAX_SKIPS] = _MAX_SKIPS
        self._illegal_end = False
        obs, mask = self._obs, self._mask
        info = {"action_mask": mask, "seat": self.seat, "deal_id": self.deal_id}
        skipped = int(self._ctrl[0, k.C_SKIPPED]) - skipped_before
        if skipped:
            info["skipped_deals"] = skipped
        self._last_info = info
        if self.render_mode == "human":
            self.render()
        return obs, info

    def _reset_agents(self) -> None:
        for r, agent in enumerate(self.opponents.agents):
            if r and agent is not None and hasattr(agent, "reset"):
                agent.reset(seed=derived_seed(self._base_seed, self.deal_id, r))

    def _run(self, op: np.ndarray, on_begin: Any = None) -> None:
        """Run the driver on the row with ``op`` (and ``self._act``); Python agents act until the learner's turn."""
        k = self._k
        g = self.game
        args = (self._rows, self._ctrl, op, self._act, self._opts, self.opponents.kinds, self._params,
                self._fparams, self._legal, self._obs_buf, self._mask_buf, self._rew, self._term, self._ret,
                self._obs_buf, self._no_codes[0], self._no_codes[0], self._no_codes[1])  # final_obs: unused
        self._status = -2  # until this call completes: an exception below leaves the episode unusable
        waiting, broken = k.run(0, 1, *args)
        if on_begin is not None and self.opponents.agents.count(None) < len(self.opponents.agents):
            on_begin()
        while waiting:
            cur = int(self._row[g.definition.slot_cur])
            rel = (cur - self.seat) % self.num_players
            agent = self.opponents.agents[rel]
            mask = self._mask_buf[0].copy()
            a = agent.act(self._obs_buf[0].copy(), mask)  # the raw engine vector, as in the vector env
            try:
                a = as_action(a, g.num_actions)
            except IllegalActionError as err:
                raise IllegalActionError(f"opponent agent {agent!r} at seat {cur}: {err}") from None
            if not mask[a]:
                raise IllegalActionError(
                    f"opponent agent {agent!r} at seat {cur} chose the illegal action {a} "
                    f"({g.action_to_string(a)}); legal actions: {np.flatnonzero(mask).tolist()}"
                )
            self._act[0] = a
            args = args[:2] + (self._ops["OP_RESUME"],) + args[3:]
            waiting, broken = k.run(0, 1, *args)
        if broken:
            if self._ctrl[0, k.C_STATUS] == k.NO_DECISION:
                raise _NoDecisionError()
            raise RuntimeError(f"{g.name}: the engine refused a legal action (please report this as a bug)")
        self._status = int(self._ctrl[0, k.C_STATUS])
        self._obs = self._bounds.apply(self._obs_buf[0].copy())
        self._mask = self._mask_buf[0].copy()

    def step(self, action: Any):
        """Play the learner's ``action``, then the opponents until the learner's next turn or the end."""
        if self._status != 0 or self._illegal_end:  # 0 = READY
            if self._status == -1:
                raise ResetNeededError("call reset() before step()")
            if self._status == -2:
                raise ResetNeededError("the episode was interrupted by an error; call reset() before step()")
            raise ResetNeededError("the episode is over (terminated); call reset() before step()")
        try:
            a = as_action(action, self.game.num_actions)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            return self._lose(action)
        if not self._legal[0, a]:
            if self.illegal_action == "raise":
                legal = ", ".join(f"{x} ({self.game.action_to_string(x)})" for x in self.legal_actions())
                raise IllegalActionError(
                    f"action {a} ({self.game.action_to_string(a)}) is not legal for the learning seat {self.seat}; "
                    f"legal actions: {legal}"
                )
            return self._lose(a)
        self._act[0] = a
        self._run(self._op_step)
        mask = self._mask
        info = {"action_mask": mask}
        if self._term[0]:
            info["returns"] = self._ret[0].copy()
        self._last_info = info
        if self.render_mode == "human":
            self.render()
        return self._obs, float(self._rew[0]), bool(self._term[0]), False, info

    def _lose(self, action: Any):
        if not self._warned_illegal:
            self._warned_illegal = True
            _log.warning("%r: illegal action %r ends the episode with reward %g (illegal_action='lose'; "
                         "this warning is shown once per env; use illegal_action='raise' to fail instead)",
                         self, action, self.illegal_reward * self.reward_scale)
        self._illegal_end = True
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._legal[:] = False
        info = {
            "action_mask": self._mask,
            "returns": np.zeros(self.num_players, dtype=np.float64),
            "illegal_action": action,
            "illegal_reward": self.illegal_reward * self.reward_scale,
        }
        self._last_info = info
        return self._obs.copy(), self.illegal_reward * self.reward_scale, True, False, info

    # -- display -----------------------------------------------------------------------------------------------
    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``), or ``None`` without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with render_mode='ansi'")
            return None
        text = self._table()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table(self) -> str:
        g = self.game
        if self._status == -1 and not self._row.any():
            return f"{g.definition.display_name}: no deal yet (call reset())"
        state = State(g, self._row.copy())
        hist = state.history()
        head = (
            f"{g.definition.display_name}  learning seat {self.seat}  deal "
            + (f"{self.deal_id} of seed {self._base_seed}" if self.deal_id >= 0 else "(explicit)")
            + f"  opponents: {self.opponents.describe()}"
        )
        lines = [head, str(state)]
        if hist:
            lines.append("last actions: " + ", ".join(g.action_to_string(a) for a in hist[-g.num_players:]))
        if self._illegal_end:
            lines.append(f"episode ended by the illegal action {self._last_info.get('illegal_action')!r}")
        elif state.is_terminal():
            result = ", ".join(f"seat {p}: {v:+g}" for p, v in enumerate(state.returns()))
            lines.append(f"result (game points): {result}")
        else:
            legal = self.legal_actions()
            lines.append("legal: " + ", ".join(f"{a} {g.action_to_string(a)}" for a in legal))
        return "\n".join(lines)

    def __repr__(self) -> str:
        seat = "random" if self._fixed_seat is None else self._fixed_seat
        return f"<{type(self).__name__} {self.game!r} seat={seat} opponents=[{self.opponents.describe()}]>"

    # -- pickling ----------------------------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_k", None)
        state.pop("_opts", None)  # pickling drops the read-only flag, which would make numba compile again
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._k = _bind.drivers(self.game)
        self._opts = self.game.encoded_options
        self._row = self._rows[0]


# ---------------------------------------------------------------------------------------------------------
# per-game classes and their documentation
# ---------------------------------------------------------------------------------------------------------
def single_env_doc(name: str) -> str:
    """The documentation page of the single-agent env of game ``name`` (the per-game class docstring)."""
    d = game_definition(name)
    g = make_game(name)
    gid = env_id(name)
    return f"""{d.display_name} for Gymnasium: ``gymnasium.make("{gid}")``.

{game_summary(name)}

One learning seat plays a whole deal against the other seats, which are driven by agents (uniformly random
legal actions by default, played inside the numba engine). Example::

    import gymnasium, numpy as np, tarockrl
    env = gymnasium.make("{gid}", seat=0)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])     # any legal action
        obs, reward, done, truncated, info = env.step(action)
    print(reward, info["returns"])

Action space
------------
``Discrete({g.num_actions})``, the game's flat action layout:

{actions_table(g)}

Only the legal actions of the moment may be played. ``info["action_mask"]`` (int8) and ``action_masks()``
(bool, the same data) mark them. ``gymnasium.make`` wraps the env, so call ``env.unwrapped.action_masks()`` or
``env.get_wrapper_attr("action_masks")()``; sb3-contrib's ``MaskablePPO`` finds it with no glue. An illegal action
ends the episode with reward ``illegal_reward * reward_scale`` and ``info["illegal_action"]`` set, logging one
warning per env (``illegal_action="lose"``, the default, as Gymnasium's and SB3's checkers expect), or raises
``IllegalActionError`` and changes nothing (``illegal_action="raise"``, the strict mode).

Observation space
-----------------
``Box(low, high, ({g.observation_size},), float32)`` with finite bounds: the engine's observation of the learning
seat, with its unbounded fields (settlements, balances) squashed by ``x / (1 + |x|)`` into ``(-1, 1)`` (see
:mod:`tarockrl.envs.bounds` for the fields and bounds), holding only what that seat may know (its own hand,
public actions, played cards ...; never other hands). The layout, as
documented by the game's observation kernel:

{indent(observation_doc(g))}

Rewards
-------
0 after every action except the last one of the deal, then the learning seat's settlement in game points times
``reward_scale``. At the end ``info["returns"]`` holds every seat's settlement (float64, zero-sum, unscaled).

Episode end
-----------
``terminated`` is True when the deal is over (a deal has at most {d.max_episode_length} actions by all seats, so
there is no truncation). Deals in which the learning seat never gets a decision are skipped by seeded resets
(``info["skipped_deals"]``). ``step`` before ``reset`` or after the end raises ``ResetNeededError`` (a
``gymnasium.error.ResetNeeded``).

Arguments
---------
* ``seat=0``: the learning seat (``0 .. {d.num_players - 1}``, seats in playing order) or ``"random"`` (per episode).
* ``opponents=None``: ``None``/``"random"``, one agent (``act(observation, action_mask) -> int``) or plain callable
  for every other seat, a list of {d.num_players - 1} (the seats after the learner in playing order), or with a fixed
  seat a list of {d.num_players} by absolute seat (learner ``None``) or a dict ``{{seat: agent}}``. Agents get their
  own seat's observation and mask; ``RandomAgent`` and ``"random"`` seats are played inside the engine.
* ``illegal_action="lose"`` | ``"raise"``; ``illegal_reward={DEFAULT_ILLEGAL_REWARD}`` (game points).
* ``reward_scale=1.0``: factor applied to every reward, or ``"auto"`` (one over the random-play standard deviation
  of a seat's settlement per deal, {AUTO_REWARD_SCALE_STD.get(name, 1.0):g} game points here: rewards of about unit
  scale).
* ``render_mode=None`` | ``"ansi"`` | ``"human"``: ``render()`` shows the table (all hands), the last actions and the
  legal actions or the result.
* the rules options of {d.display_name} (keyword arguments, defaults shown):

{indent(options_table(name), "  ")}

Reset
-----
``reset(seed=s)`` starts the deal stream of ``s`` (deals ``0, 1, 2, ...``; opponents and a random seat are
seeded per deal too, so an episode is a pure function of the seed, the deal id and the learner's actions).
``options={{"deal_id": k}}`` replays deal ``k`` of the current seed, ``options={{"deal": {{...}}}}`` plays an
explicit deal in the game's deal notation (``State.deal()`` produces it), ``options={{"seat": p}}`` seats the
learner at ``p`` for that episode. ``info`` holds ``action_mask``, ``seat`` and ``deal_id``.

Version history
---------------
* v0: first version.
"""


_CLASSES: dict[str, type] = {}


def _per_game_init(self, seat: int | str = 0, opponents: Any = None, illegal_action: str = "lose",
                   reward_scale: float | str = 1.0, illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
                   render_mode: str | None = None, **rules_options: Any) -> None:
    """Create the environment of this class's game (arguments: see the class documentation)."""
    TarockEnv.__init__(self, type(self).GAME, seat=seat, opponents=opponents, illegal_action=illegal_action,
                       reward_scale=reward_scale, illegal_reward=illegal_reward, render_mode=render_mode,
                       **rules_options)


def env_class(name: str) -> type:
    """The per-game env class (e.g. ``DreierlesEnv``), created once, with its documentation page as docstring."""
    d = game_definition(name)
    cls_name = f"{d.display_name}Env"
    if cls_name not in _CLASSES:
        cls = type(cls_name, (TarockEnv,), {"__init__": _per_game_init, "__module__": __name__, "GAME": d.name})
        cls.__qualname__ = cls_name
        cls.__doc__ = single_env_doc(name)
        _CLASSES[cls_name] = cls
        globals()[cls_name] = cls
    return _CLASSES[cls_name]


def __getattr__(attr: str) -> Any:
    """Per-game classes on demand: ``tarockrl.envs.single.DreierlesEnv`` ..."""
    if attr.endswith("Env"):
        name = game_for_display_name(attr[: -len("Env")])
        if name is not None:
            return env_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
