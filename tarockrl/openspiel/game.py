"""tarockrl's games as OpenSpiel (``pyspiel``) Python games.

:func:`register_games` registers ``tarockrl_dreierles``, ``tarockrl_dreiertarock``, ``tarockrl_tatteln`` and
``tarockrl_troccas`` with ``pyspiel.register_game``; then ``pyspiel.load_game("tarockrl_dreierles")`` (or
:func:`load_game`) gives a game that OpenSpiel's tools take as they take their own: ``evaluate_bots``,
``MCTSBot`` / ``ISMCTSBot`` (C++ and Python), ``pyspiel.random_sim_test``. See docs/openspiel.md.

The game, as OpenSpiel sees it
------------------------------
* **Chance**: explicit. The first node is a chance node with ``num_deals`` equally likely outcomes (default
  65,536); outcome ``k`` is tarockrl's deal ``deal(seed, k)`` (dealer and cards drawn by the engine from the
  ``(seed, k)`` stream), so the chance node samples the engine's uniform deal distribution on a fixed finite
  support. Random events inside a deal (Troccas' redeals) are drawn by the engine from the generator state kept
  in its state row: deterministic given the deal, hidden from the players.
* **Players and actions**: the game's seats and its flat action layout (``tarockrl.Game.num_actions``);
  ``current_player()`` is ``pyspiel.PlayerId.CHANCE`` before the deal and ``TERMINAL`` at the end.
* **Utilities**: the zero-sum settlement in game points at the end (``State.returns()``), nothing before;
  ``min_utility``/``max_utility`` are safe bounds, not tight ones (:data:`UTILITY_BOUND`).
* **Information state string**: exact perfect recall. It is ``"p<player> t<n> <digest>"`` where the digest
  is a running BLAKE2b hash of the sequence of observations the player has had since the deal, an observation
  repeated unchanged counted once (tarockrl's observation shows only what the seat may know, so a step that
  leaves it unchanged, such as the declarer's hidden NO_ANNOUNCE in Dreierles, is a step the player cannot
  see): two histories get the same string exactly when the player saw the same sequence of observations.
  In a game that redeals inside one state (Troccas' thrown-in deals), the sequence starts again at each new
  deal attempt: what a seat saw of a cancelled attempt says nothing about the cards of the current one (the
  observation keeps the number and kinds of redeals), and the samplers redraw cancelled attempts afresh.
* **Information state tensor** and **observation tensor**: tarockrl's observation vector of the player
  (``State.observation``, layout in the game's ``observe`` module). It records what matters of the past (cards
  played and won per seat, bids, knocks, announcements) but is *not* strictly perfect recall (for example, the
  order of cards within finished tricks is not kept): use the string where exact perfect recall matters.
* **Observation string**: the phase, the seat to move, the player's legal actions and a digest of the
  observation vector (equal strings exactly when the observation vectors are equal).
* ``resample_from_infostate(player, sampler)``: the game's hidden-card sampler (``State.resample_hidden``):
  a world drawn uniformly among those consistent with what the player knows. Games without a sampler raise
  ``NotImplementedError`` naming the game.

Rules options are game parameters (``pyspiel.load_game("tarockrl_dreiertarock", {"kontra_max_level": 1})``),
together with ``seed`` and ``num_deals``. Options whose value is not a number, a flag or a string (Dreierles'
``contract_factors``) keep their default. ``auto_play_forced`` is not offered: OpenSpiel expects every
decision to be a node of the tree.
"""

from __future__ import annotations

import hashlib
import importlib
from typing import Any

import numpy as np

try:  # the optional extra "openspiel"
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without open_spiel
    raise ImportError(
        "tarockrl.openspiel needs OpenSpiel: pip install 'tarockrl[openspiel]' (or pip install open_spiel)"
    ) from exc

import tarockrl
from tarockrl.games.api import State as TarockState

__all__ = ["GAME_PREFIX", "UTILITY_BOUND", "TarockSpielGame", "TarockSpielState", "TarockObserver",
           "register_games", "load_game", "spiel_name", "from_tarockrl_state"]

GAME_PREFIX = "tarockrl_"
DEFAULT_NUM_DEALS = 65_536
# a settlement (game points per seat and deal) never exceeds this in absolute value; a safe bound, not tight
UTILITY_BOUND = {"dreierles": 10_000.0, "dreiertarock": 1_000_000.0, "tatteln": 10_000.0, "troccas": 10_000.0}
_EXCLUDED_OPTIONS = ("auto_play_forced",)
_DIGEST = 16
_REGISTERED: dict[str, pyspiel.GameType] = {}


def spiel_name(game: str) -> str:
    """The OpenSpiel short name of tarockrl game ``game`` (``"dreierles"`` -> ``"tarockrl_dreierles"``)."""
    return GAME_PREFIX + game


def _option_params(name: str) -> dict[str, Any]:
    """The rules options of game ``name`` that can be OpenSpiel parameters (bool, int, float, str), defaults."""
    defaults = tarockrl.make_game(name).options
    return {k: v for k, v in defaults.items()
            if isinstance(v, (bool, int, float, str)) and k not in _EXCLUDED_OPTIONS}


def _game_type(name: str) -> pyspiel.GameType:
    params = {"seed": 0, "num_deals": DEFAULT_NUM_DEALS}
    params.update(_option_params(name))
    display = tarockrl.make_game(name).definition.display_name
    n = tarockrl.make_game(name).num_players
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"tarockrl {display}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
        default_loadable=True,
    )


def register_games(names: tuple[str, ...] | None = None) -> list[str]:
    """Register tarockrl's games (all by default) with OpenSpiel; returns their OpenSpiel names. Idempotent."""
    out = []
    for name in names or tuple(tarockrl.list_games()):
        if name not in tarockrl.list_games():
            raise tarockrl.errors.TarockError(f"unknown tarockrl game {name!r}; known: {tarockrl.list_games()}")
        if name not in _REGISTERED:
            gtype = _game_type(name)

            # a class, not a closure: pyspiel keeps the factory until after the interpreter has shut down, and
            # releasing a function object then aborts the process (a class object is never freed)
            display = tarockrl.make_game(name).definition.display_name
            cls = type(f"{display}SpielGame", (TarockSpielGame,), {"GAME": name, "__module__": __name__})
            globals()[cls.__name__] = cls
            pyspiel.register_game(gtype, cls)
            _REGISTERED[name] = gtype
        out.append(spiel_name(name))
    return out


def load_game(game: Any, **params: Any) -> TarockSpielGame:
    """The OpenSpiel game of a tarockrl game (a name or a :class:`tarockrl.Game`, whose options are kept).

    ``params``: ``seed``, ``num_deals`` and rules options, as for ``pyspiel.load_game``. The game is registered
    first when needed.
    """
    if isinstance(game, tarockrl.Game):
        options = {k: v for k, v in game.options.items() if k in _option_params(game.name)}
        unsupported = {k: v for k, v in game.options.items()
                       if k not in options and v != tarockrl.make_game(game.name).options[k]}
        if unsupported:
            raise tarockrl.errors.BadOptionError(
                f"these options cannot be passed to OpenSpiel: {sorted(unsupported)} (flags, numbers and strings "
                "only; auto_play_forced is not offered)")
        options.update(params)
        params, game = options, game.name
    register_games((game,))
    return pyspiel.load_game(spiel_name(game), params)


class TarockSpielGame(pyspiel.Game):
    """A tarockrl game as a ``pyspiel.Game`` (build it with :func:`load_game` or ``pyspiel.load_game``)."""

    GAME = ""  # the tarockrl game of the registered per-game subclasses (DreierlesSpielGame ...)

    def __init__(self, params: dict[str, Any] | None = None, name: str | None = None) -> None:
        """Create the game (``name``, or the class's ``GAME``) with OpenSpiel parameters ``params`` (seed,
        num_deals, rules options)."""
        name = name or self.GAME
        if not name:
            raise tarockrl.errors.TarockError("TarockSpielGame needs a game name (or use load_game)")
        params = dict(params or {})
        seed = int(params.pop("seed", 0))
        num_deals = int(params.pop("num_deals", DEFAULT_NUM_DEALS))
        if num_deals < 1:
            raise tarockrl.errors.BadOptionError(f"num_deals must be at least 1, got {num_deals}")
        for bad in _EXCLUDED_OPTIONS:
            if params.get(bad):
                raise tarockrl.errors.BadOptionError(
                    f"{bad}=True is not offered through OpenSpiel: every decision must be a node of the tree")
        self.tarock_game = tarockrl.make_game(name, **params)
        self.seed = seed
        self.num_deals = num_deals
        # the slot counting deal attempts of a game that redeals inside one state (Troccas), else None
        self.attempt_slot = getattr(importlib.import_module(f"tarockrl.games.{name}.layout"), "REDEAL_COUNT", None)
        tg = self.tarock_game
        bound = UTILITY_BOUND.get(name, 1e9)
        info = pyspiel.GameInfo(
            num_distinct_actions=tg.num_actions,
            max_chance_outcomes=num_deals,
            num_players=tg.num_players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=tg.max_episode_length,
        )
        full = {"seed": seed, "num_deals": num_deals}
        full.update(params)
        super().__init__(_REGISTERED.get(name) or _game_type(name), info, full)

    def new_initial_state(self) -> TarockSpielState:
        """The chance node of the deal."""
        return TarockSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> TarockObserver:
        """The observer of information states (``perfect_recall=True``) and observations."""
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        return TarockObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Deal:
    """The per-state data of :class:`TarockSpielState`; pyspiel clones a Python state by deep-copying its
    attributes, so this object's ``__deepcopy__`` is the state's clone (cheap: the game objects are shared)."""

    __slots__ = ("game", "tstate", "digests", "counts", "last", "pending", "attempt")

    def __init__(self, game: TarockSpielGame) -> None:
        self.game = game
        self.tstate: TarockState | None = None
        n = game.tarock_game.num_players
        self.digests = [b""] * n  # running hash per player of its observations
        self.counts = [0] * n  # distinct consecutive observations hashed per player
        self.last = [b""] * n  # the last observation hashed per player (bytes)
        self.pending: list[np.ndarray] = []  # rows not yet hashed (hashing is lazy: rollouts never ask)
        self.attempt = 0  # the deal attempt the digests are of (games that redeal inside a state)

    def __deepcopy__(self, memo: dict) -> _Deal:
        other = _Deal.__new__(_Deal)
        other.game = self.game
        other.tstate = None if self.tstate is None else self.tstate.clone()
        other.digests = list(self.digests)
        other.counts = list(self.counts)
        other.last = list(self.last)
        other.pending = list(self.pending)  # rows are never written after they are stored
        other.attempt = self.attempt
        return other

    def sync(self) -> None:
        """Hash the pending observations of every player into the running digests."""
        if not self.pending:
            return
        tg = self.game.tarock_game
        d, opts = tg.definition, tg.encoded_options
        out = np.zeros(tg.observation_size, dtype=np.float32)
        slot = self.game.attempt_slot
        for row in self.pending:
            if slot is not None and int(row[slot]) != self.attempt:  # a redeal: the new attempt starts afresh
                self.attempt = int(row[slot])
                n = tg.num_players
                self.digests, self.counts, self.last = [b"a%d" % self.attempt] * n, [0] * n, [b""] * n
            for p in range(tg.num_players):
                d.observe(row, np.int64(p), opts, out)
                raw = out.tobytes()
                if raw == self.last[p]:  # nothing this player could see happened (e.g. a hidden decision)
                    continue
                h = hashlib.blake2b(self.digests[p], digest_size=_DIGEST)
                h.update(raw)
                self.digests[p] = h.digest()
                self.counts[p] += 1
                self.last[p] = raw
        self.pending = []


class TarockSpielState(pyspiel.State):
    """A deal of a tarockrl game as a ``pyspiel.State``: the chance node, then tarockrl's :class:`State`
    (``tstate``)."""

    def __init__(self, game: TarockSpielGame) -> None:
        """The chance node of the deal (use ``game.new_initial_state()``)."""
        super().__init__(game)
        self._d = _Deal(game)

    @property
    def tstate(self) -> TarockState | None:
        """The tarockrl state of the deal (``None`` at the chance node). Do not change it in place."""
        return self._d.tstate

    # -- the pyspiel state API -----------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, ``PlayerId.CHANCE`` before the deal, ``PlayerId.TERMINAL`` at the end."""
        ts = self._d.tstate
        if ts is None:
            return pyspiel.PlayerId.CHANCE
        if ts.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return ts.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        ts = self._d.tstate
        if ts is None or player != ts.current_player():
            return []
        return ts.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals ``0 .. num_deals - 1``, equally likely."""
        n = self._d.game.num_deals
        p = 1.0 / n
        return [(k, p) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        d = self._d
        if d.tstate is None:
            k = int(action)
            if not 0 <= k < d.game.num_deals:
                raise tarockrl.errors.IllegalActionError(f"chance outcome {k} is out of range [0, {d.game.num_deals})")
            d.tstate = d.game.tarock_game.new_initial_state(seed=d.game.seed, deal_id=k)
        else:
            d.tstate.apply_action(int(action))
        d.pending.append(d.tstate._row.copy())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {action} of seed {self._d.game.seed}"
        return self._d.game.tarock_game.action_to_string(int(action))

    def is_terminal(self) -> bool:
        """True once the deal is over."""
        return self._d.tstate is not None and self._d.tstate.is_terminal()

    def returns(self) -> list[float]:
        """The settlement per seat in game points (zeros before the end)."""
        if self._d.tstate is None:
            return [0.0] * self._d.game.tarock_game.num_players
        return self._d.tstate.returns().tolist()

    def rewards(self) -> list[float]:
        """Rewards of the last step: the settlement at the end, zeros before (terminal reward model)."""
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TarockSpielState:
        """A world consistent with everything ``player_id`` knows, drawn by the game's sampler.

        ``probability_sampler()`` (a callable returning a float in ``[0, 1)``, e.g.
        ``pyspiel.UniformProbabilitySampler``) seeds tarockrl's ``State.resample_hidden``. The world's
        ``history()`` is empty on the OpenSpiel side (its deal is not one of the chance node's); its information
        states are those of the replayed deal.
        """
        d = self._d
        if d.tstate is None:
            return self.clone()
        tg = d.game.tarock_game
        if tg.definition.resample_hidden is None:
            raise NotImplementedError(
                f"{tg.name} has no hidden-card sampler (State.resample_hidden) yet, so OpenSpiel's "
                "resample_from_infostate (ISMCTS) is not available for it")
        seed = int(float(probability_sampler()) * 2.0**53)
        world = d.tstate.resample_hidden(int(player_id), seed)
        return from_tarockrl_state(d.game, world)

    def __str__(self) -> str:
        if self._d.tstate is None:
            return f"{self._d.game.tarock_game.name}: chance node of the deal (seed {self._d.game.seed})"
        return str(self._d.tstate)

    def infostate_key(self, player: int) -> str:
        """The information state string of ``player`` (see the module docstring)."""
        d = self._d
        if d.tstate is None:
            return f"p{player} chance"
        d.sync()
        return f"p{player} t{d.counts[player]} {d.digests[player].hex()}"


def from_tarockrl_state(game: TarockSpielGame, tstate: TarockState) -> TarockSpielState:
    """An OpenSpiel state holding a copy of tarockrl state ``tstate`` (e.g. a sampled world, or a state an agent
    is asked to act in), with every player's information state computed by replaying its deal and history.

    Its OpenSpiel ``history()`` is empty (the deal may be any deal, not one of the chance node's outcomes).
    """
    tg = game.tarock_game
    if not isinstance(tstate, TarockState) or tstate.game != tg:
        raise tarockrl.errors.WrongGameError(f"expected a state of {tg!r}, got {tstate!r}")
    out = TarockSpielState(game)
    d = out._d
    replay = tg.new_initial_state(deal=tstate.deal())
    d.pending.append(replay._row.copy())
    for a in tstate.history():
        replay.apply_action(a)
        d.pending.append(replay._row.copy())
    # the replay may differ from the state in slots no seat observes (e.g. the stream of random redeals seeded
    # from the deal's contents); what the information states need is that every seat sees the same
    if replay.legal_actions() != tstate.legal_actions() or any(
            not np.array_equal(replay.observation(p), tstate.observation(p)) for p in range(tg.num_players)):
        raise tarockrl.errors.CorruptStateError(
            "the state's deal and history do not replay to what its seats observe (information states need the "
            "deal and the history)")
    d.sync()
    d.tstate = tstate.clone()
    return out


class TarockObserver:
    """OpenSpiel's Python observer for tarockrl games: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    With ``iig_obs_type.perfect_recall`` it gives information states (the exact perfect-recall string of the
    module docstring), else observations; the tensor is tarockrl's observation vector in both cases.
    """

    def __init__(self, game: TarockSpielGame, iig_obs_type: Any) -> None:
        """Create the observer of ``game`` for ``iig_obs_type``."""
        self._game = game
        tg = game.tarock_game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(tg.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TarockSpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (zeros before the deal)."""
        if state.tstate is None:
            self.tensor.fill(0.0)
            return
        tg = self._game.tarock_game
        tg.definition.observe(state.tstate._row, np.int64(player), tg.encoded_options, self.tensor)

    def string_from(self, state: TarockSpielState, player: int) -> str:
        """The information state string (perfect recall) or the observation string of ``player``."""
        if self.perfect_recall:
            return state.infostate_key(player)
        if state.tstate is None:
            return f"p{player} chance"
        tg = self._game.tarock_game
        obs = np.zeros(tg.observation_size, np.float32)
        tg.definition.observe(state.tstate._row, np.int64(player), tg.encoded_options, obs)
        ts = state.tstate
        cur = ts.current_player()
        legal = " ".join(tg.action_to_string(a) for a in ts.legal_actions()) if cur == player else ""
        digest = hashlib.blake2b(obs.tobytes(), digest_size=_DIGEST).hexdigest()
        return f"p{player} phase={ts.phase()} to_move={cur} legal=[{legal}] obs={digest}"
