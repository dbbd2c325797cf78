"""The Python facade shared by every game: :class:`Game`, :class:`State` and :class:`Batch`.

A game module describes itself with a :class:`GameDefinition` (its sizes, state slots, kernels and text
helpers); everything here is generic over that description, so every game has the same API::

    game = tarockrl.make_game("dreierles")
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

The state is one int64 row; a batch is a 2-D array of rows stepped by one numba call.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import secrets
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tarockrl.errors import CorruptStateError, GameOverError, IllegalActionError, WrongGameError
from tarockrl.games import options as opt

TERMINAL_PLAYER = -1
"""``current_player()`` of a finished deal (and of finished rows of a batch)."""

_BYTES_MAGIC = b"TRKL"
_BYTES_VERSION = 2  # 2: a checksum after the options fingerprint; the row is replayed before it is accepted
_HEAD_LEN = 4 + 2 + 16 + 8  # magic, version, game name, options fingerprint
_SUM_LEN = 8  # blake2b-64 of the head and the body


@dataclass(frozen=True)
class GameDefinition:
    """Everything the generic facade needs to know about one game.

    A game package builds it by convention with :func:`tarockrl.games.contract.define` (the contract of kernel
    names and signatures is written there). The batch drivers (``batch_step``, ``random_playouts``, ...) are
    not fields: they are generated from :mod:`tarockrl.engine.batch_template` and bound to these kernels on
    first use (:attr:`drivers`).
    """

    name: str
    display_name: str  # e.g. "Dreierles"; the Gymnasium id is "tarockrl/<display_name>-v0"
    num_players: int
    num_actions: int
    state_len: int
    observation_size: int
    max_episode_length: int
    rules_class: type
    # state slots the facade reads directly
    slot_phase: int
    slot_cur: int
    slot_hist_len: int
    slot_hist: int
    slot_magic: int
    slot_result: int
    magic: int
    terminal_phase: int
    phase_names: tuple[str, ...]
    # single-state kernels (the contract of tarockrl.games.contract)
    deal: Callable  # (row, seed, deal_id, opts)
    legal_mask: Callable  # (row, opts, out_bool)
    apply_action: Callable  # (row, action, opts) -> status 0 ok / 1 illegal / 2 over
    observe: Callable  # (row, player, opts, out_f32)
    returns: Callable  # (row, out_f64)
    check_invariants: Callable  # (row, opts) -> 0 or a code of tarockrl.engine.invariants
    random_action: Callable  # (row, opts, rng) -> (rng, action), a uniformly random legal action
    step: Callable  # (row, action, opts): apply a legal action without the legality check
    deal_rng: Callable  # (row, seed, deal_id, opts, scratch) -> rng: deal, and the stream random play continues
    legal_words: Callable  # (row, opts, out_i64[2 * legal_words_len]): legal actions as (offset, mask) pairs
    scratch_len: int  # int64 scratch of deal_rng / playout / sweep_deal
    legal_words_len: int
    # Python helpers
    state_from_deal: Callable  # (game, deal_dict) -> row (validated; raises BadDealError)
    deal_of: Callable  # (row) -> deal dict
    action_to_string: Callable  # (action) -> str
    state_to_string: Callable  # (game, row) -> str
    transcript: Callable  # (game, row) -> str
    # optional: (rules) -> GameDefinition, for games whose sizes (actions, state, observation) depend on options
    specialize: Callable | None = None
    # optional fast paths of the generated drivers (each has a generic fallback)
    random_step: Callable | None = None  # (row, opts, rng) -> rng: random_action + step fused
    playout: Callable | None = None  # (seed, g, opts, row, scratch, returns_out, i) -> length: one random deal
    sweep_deal: Callable | None = None  # (row, seed, g, opts, scratch) -> rng: the invariant sweep's deals
    copy_state: Callable | None = None  # (dst, src): copy the live part of a row
    # optional: (row, player, opts, rng, scratch) -> (rng, ok), redistributing the cards hidden from player
    resample_hidden: Callable | None = None
    resample_scratch_len: int = 0
    # optional: (row, player, opts, seed, out_rows) -> failures, n uniform worlds of player's view in one call
    sample_worlds: Callable | None = None
    package: str = ""  # the game's package, e.g. "tarockrl.games.dreierles"

    def module(self, name: str) -> Any:
        """The game package's module ``name`` (e.g. ``"resample"``), or ``None`` when it has none."""
        if not self.package:
            return None
        from tarockrl.games.contract import optional_module

        return optional_module(self.package, name)

    @functools.cached_property
    def drivers(self) -> Any:
        """The generated batch-driver module of this game (see :mod:`tarockrl.engine.batch_template`)."""
        from tarockrl.games.drivers import batch_drivers

        return batch_drivers(self)

    @property
    def batch_deal(self) -> Callable:
        """(rows, seed, first_id, opts)"""
        return self.drivers.batch_deal

    @property
    def batch_legal_masks(self) -> Callable:
        """(rows, opts, out)"""
        return self.drivers.batch_legal_masks

    @property
    def batch_step(self) -> Callable:
        """(rows, actions, opts, status)"""
        return self.drivers.batch_step

    @property
    def batch_observe(self) -> Callable:
        """(rows, players, opts, out)"""
        return self.drivers.batch_observe

    @property
    def batch_random_actions(self) -> Callable:
        """(rows, seed, step_no, opts, out)"""
        return self.drivers.batch_random_actions

    @property
    def random_playouts(self) -> Callable:
        """(n, seed, opts, returns_out_i64, lengths_out, first_deal_id)"""
        return self.drivers.random_playouts

    @property
    def invariant_sweep(self) -> Callable:
        """(n, seed, opts, codes_out)"""
        return self.drivers.invariant_sweep

    @property
    def perft(self) -> Callable:
        """(row, depth, opts) -> int"""
        return self.drivers.perft


def _as_action(action: Any, num_actions: int) -> int:
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(
            f"an action must be an integer in [0, {num_actions}), got {action!r} ({type(action).__name__})"
        )
    a = int(action)
    if not 0 <= a < num_actions:
        raise IllegalActionError(f"action {a} is out of range: actions are integers in [0, {num_actions})")
    return a


class Game:
    """One game with one set of rules options. Create it with :func:`tarockrl.make_game`."""

    def __init__(self, definition: GameDefinition, **options: Any) -> None:
        """Build the game; unknown or invalid options raise ``BadOptionError`` naming them."""
        from tarockrl._threads import start_numba_threads

        start_numba_threads()  # before any parallel kernel: keeps torch's thread count (tarockrl/_threads.py)
        self._def = definition
        self.rules = opt.from_kwargs(definition.rules_class, definition.name, options)
        if definition.specialize is not None:
            self._def = definition.specialize(self.rules)
        self._opts = opt.encode(self.rules)
        self._opts.setflags(write=False)

    # -- description ---------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The game's registry name, e.g. ``"dreierles"``."""
        return self._def.name

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._def.num_players

    @property
    def num_actions(self) -> int:
        """Size of the flat action layout."""
        return self._def.num_actions

    @property
    def observation_size(self) -> int:
        """Length of ``State.observation(player)``."""
        return self._def.observation_size

    @property
    def max_episode_length(self) -> int:
        """Upper bound on the number of actions of one deal."""
        return self._def.max_episode_length

    @property
    def state_len(self) -> int:
        """Number of int64 slots of a state row."""
        return self._def.state_len

    @property
    def options(self) -> dict[str, Any]:
        """The rules options as a plain dict (defaults included)."""
        return dataclasses.asdict(self.rules)

    @property
    def encoded_options(self) -> np.ndarray:
        """The read-only int64 options array that the kernels receive."""
        return self._opts

    @property
    def definition(self) -> GameDefinition:
        """The game module's description (kernels, slots, sizes)."""
        return self._def

    def __repr__(self) -> str:
        changed = {
            f.name: getattr(self.rules, f.name)
            for f in dataclasses.fields(self.rules)
            if getattr(self.rules, f.name) != f.default
        }
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"make_game({self.name!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.rules == self.rules

    def __hash__(self) -> int:
        return hash((self.name, self.rules))

    def __reduce__(self):
        return (_rebuild_game, (self.name, self.options))

    # -- states --------------------------------------------------------------------------------------------
    def new_initial_state(
        self, seed: int | None = None, deal: dict | None = None, deal_id: int | None = None
    ) -> State:
        """A fresh deal: ``deal(seed, deal_id)`` (``deal_id`` 0 by default), or the given deal in the game's deal
        notation.

        With neither ``seed`` nor ``deal`` a random seed is drawn (and kept in ``state.seed``).
        """
        if deal is not None:
            if seed is not None or deal_id is not None:
                raise ValueError("give either seed= or deal=, not both (deal_id= goes with seed=)")
            row = self._def.state_from_deal(self, deal)
            return State(self, row, seed=None)
        if seed is None:
            seed = secrets.randbits(62)
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        deal_id = _check_int("deal_id", 0 if deal_id is None else deal_id, -(2**63), 2**63 - 1)
        row = np.zeros(self._def.state_len, dtype=np.int64)
        self._def.deal(row, np.int64(seed), np.int64(deal_id), self._opts)
        return State(self, row, seed=seed)

    def new_session(self, seed: int | None = None, **params: Any) -> Any:
        """A session of several deals of this game (see :mod:`tarockrl.games.session`; ``params`` per game)."""
        from tarockrl.games.session import new_session

        return new_session(self, seed, **params)

    def sample_worlds(self, state: State, player: int, n: int, seed: int = 0) -> Batch:
        """``n`` worlds drawn uniformly from those consistent with ``player``'s view of ``state``, as a batch.

        World ``i`` depends only on ``(seed, player, i)`` and on what ``player`` knows (see the game's
        ``resample`` module for the information honoured). One numba call; the batch can be stepped at once.
        """
        self._check_mine(state)
        d = self._def
        if d.sample_worlds is None:
            raise NotImplementedError(f"{self.name} has no batched world sampler yet")
        player = _check_int("player", player, 0, self.num_players - 1)
        n = _check_int("n", n, 0, 2**22)
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        rows = np.zeros((n, d.state_len), dtype=np.int64)
        fails = d.sample_worlds(state._row, np.int64(player), self._opts, np.int64(seed), rows)
        if fails:
            raise RuntimeError(f"{fails} of {n} worlds could not be built: the state is inconsistent")
        return Batch(self, rows)

    def state_from_bytes(self, data: bytes) -> State:
        """Inverse of :meth:`State.to_bytes`.

        Checks the format, the checksum, the game and the options, then accepts the row only if it is exactly a
        state the game can reach (its history replayed from its deal gives it slot by slot); anything else raises
        ``CorruptStateError`` naming the first bad field (``WrongGameError`` for another game or other options).
        """
        row = self._decode(data)
        return State(self, row, seed=None)

    def _fingerprint(self) -> bytes:
        h = hashlib.sha256(self.name.encode() + self._opts.tobytes()).digest()
        return h[:8]

    def _encode(self, row: np.ndarray) -> bytes:
        name = self.name.encode().ljust(16, b"\0")
        head = _BYTES_MAGIC + struct.pack("<H", _BYTES_VERSION) + name + self._fingerprint()
        body = row.astype("<i8").tobytes()
        return head + hashlib.blake2b(head + body, digest_size=_SUM_LEN).digest() + body

    def _decode(self, data: bytes) -> np.ndarray:
        from tarockrl.games.validate import check_row

        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise CorruptStateError(f"expected bytes from State.to_bytes(), got {type(data).__name__}")
        data = bytes(data)
        if len(data) < 6 or data[:4] != _BYTES_MAGIC:
            raise CorruptStateError("these bytes are not a saved tarockrl state (bad header)")
        (version,) = struct.unpack("<H", data[4:6])
        if version != _BYTES_VERSION:
            raise CorruptStateError(
                f"saved state format version {version} is not supported: this tarockrl reads version "
                f"{_BYTES_VERSION} only (version 1 had no checksum; replay the deal's history to recreate it)"
            )
        if len(data) < _HEAD_LEN + _SUM_LEN:
            raise CorruptStateError(f"saved state is truncated ({len(data)} bytes, shorter than its header)")
        head, stored, body = data[:_HEAD_LEN], data[_HEAD_LEN : _HEAD_LEN + _SUM_LEN], data[_HEAD_LEN + _SUM_LEN :]
        if hashlib.blake2b(head + body, digest_size=_SUM_LEN).digest() != stored:
            raise CorruptStateError("saved state is damaged or truncated (checksum mismatch)")
        name = data[6:22].rstrip(b"\0").decode(errors="replace")
        if name != self.name:
            raise WrongGameError(f"this saved state belongs to the game {name!r}, not {self.name!r}")
        if data[22:30] != self._fingerprint():
            raise WrongGameError(f"this saved {name} state was made with other rules options than {self!r}")
        if len(body) != 8 * self._def.state_len:
            raise CorruptStateError(
                f"saved state has {len(body)} state bytes, expected {8 * self._def.state_len}"
            )
        return check_row(self, np.frombuffer(body, dtype="<i8").astype(np.int64))

    # -- batches and drivers -------------------------------------------------------------------------------
    def new_batch(self, n: int, seed: int = 0, first_deal_id: int = 0) -> Batch:
        """``n`` fresh deals ``deal(seed, first_deal_id + i)`` in one int64 array, stepped together."""
        n = _check_int("n", n, 0, 2**40)
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        first_deal_id = _check_int("first_deal_id", first_deal_id, -(2**63), 2**63 - 1)
        rows = np.zeros((n, self._def.state_len), dtype=np.int64)
        self._def.batch_deal(rows, np.int64(seed), np.int64(first_deal_id), self._opts)
        return Batch(self, rows)

    def batch_from_states(self, states: Sequence[State]) -> Batch:
        """A batch holding copies of the given states (all of this game, each checked to be reachable)."""
        from tarockrl.games.validate import check_row

        if isinstance(states, (State, str, bytes)) or not isinstance(states, Sequence):
            raise TypeError(f"states must be a sequence of State objects, got {type(states).__name__}")
        rows = np.zeros((len(states), self._def.state_len), dtype=np.int64)
        for i, s in enumerate(states):
            self._check_mine(s)
            try:
                rows[i] = check_row(self, s._row)
            except CorruptStateError as exc:
                raise CorruptStateError(f"states[{i}]: {exc}") from None
        return Batch(self, rows)

    def random_playouts(self, n: int, seed: int = 0, return_lengths: bool = False, first_deal_id: int = 0):
        """Play deals ``first_deal_id .. first_deal_id + n - 1`` with uniformly random legal actions (one numba call).

        Returns the settlements ``float64[n, num_players]`` (and the episode lengths when asked).
        Deal ``g`` depends only on ``(seed, g)``, not on the number of threads or on how deals are split.
        """
        n = _check_int("n", n, 0, 2**40)
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        first_deal_id = _check_int("first_deal_id", first_deal_id, -(2**63), 2**63 - 1 - n)
        out = np.zeros((n, self.num_players), dtype=np.int64)
        lengths = np.zeros(n, dtype=np.int64)
        self._def.random_playouts(n, np.int64(seed), self._opts, out, lengths, np.int64(first_deal_id))
        result = out.astype(np.float64)
        return (result, lengths) if return_lengths else result

    def invariant_sweep(self, n: int, seed: int = 0) -> np.ndarray:
        """Play ``n`` random deals checking every invariant after every action; returns a code per deal (0 = ok)."""
        codes = np.zeros(_check_int("n", n, 0, 2**40), dtype=np.int64)
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        self._def.invariant_sweep(n, np.int64(seed), self._opts, codes)
        return codes

    def perft(self, state: State, depth: int) -> int:
        """Number of legal action sequences of ``depth`` actions from ``state`` (ending early at the end)."""
        self._check_mine(state)
        depth = _check_int("depth", depth, 0, self.max_episode_length)
        return int(self._def.perft(state._row, depth, self._opts))

    def action_to_string(self, action: int) -> str:
        """Readable name of an action of the flat layout (e.g. ``"PLAY HK"``)."""
        return self._def.action_to_string(_as_action(action, self.num_actions))

    def _check_mine(self, state: Any) -> None:
        if not isinstance(state, State):
            raise WrongGameError(f"expected a tarockrl State, got {type(state).__name__}")
        if state.game != self:
            raise WrongGameError(f"this state belongs to {state.game!r}, not {self!r}")


def _rebuild_game(name: str, options: dict[str, Any]) -> Game:
    from tarockrl.games import make_game

    return make_game(name, **options)


def _check_int(what: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if not lo <= value <= hi:
        raise ValueError(f"{what}={value} is out of range [{lo}, {hi}]")
    return value


class State:
    """One deal in progress: a thin object around the int64 state row."""

    __slots__ = ("game", "_row", "seed")

    def __init__(self, game: Game, row: np.ndarray, seed: int | None = None) -> None:
        """Wrap ``row`` (use :meth:`Game.new_initial_state` rather than calling this).

        The row's contents are trusted here (only its type and size are checked); rows from outside the engine
        go through :meth:`Game.state_from_bytes` or :func:`tarockrl.games.validate.check_row`.
        """
        if not isinstance(game, Game):
            raise WrongGameError(f"expected a tarockrl Game, got {type(game).__name__}")
        if (not isinstance(row, np.ndarray) or row.dtype != np.int64 or row.shape != (game._def.state_len,)
                or not row.flags.c_contiguous or not row.flags.writeable):
            raise CorruptStateError(f"a {game.name} state row is a writable C-contiguous int64[{game._def.state_len}] "
                                    f"array, got {getattr(row, 'dtype', type(row).__name__)} "
                                    f"{getattr(row, 'shape', '')}")
        self.game = game
        self._row = row
        self.seed = seed

    @property
    def row(self) -> np.ndarray:
        """A read-only view of the int64 state row (see the game's ``layout`` module for its slots)."""
        view = self._row.view()
        view.setflags(write=False)
        return view

    def current_player(self) -> int:
        """Seat to move, or ``TERMINAL_PLAYER`` (-1) when the deal is over."""
        return int(self._row[self.game._def.slot_cur])

    def phase(self) -> str:
        """Name of the current phase (e.g. ``"auction"``, ``"play"``, ``"terminal"``)."""
        return self.game._def.phase_names[int(self._row[self.game._def.slot_phase])]

    def is_terminal(self) -> bool:
        """True once the deal is over."""
        return int(self._row[self.game._def.slot_phase]) == self.game._def.terminal_phase

    def legal_action_mask(self) -> np.ndarray:
        """Boolean mask over the flat action layout (all False at the end)."""
        out = np.zeros(self.game.num_actions, dtype=np.bool_)
        self.game._def.legal_mask(self._row, self.game._opts, out)
        return out

    def legal_actions(self) -> list[int]:
        """Legal actions in ascending order (empty at the end)."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def apply_action(self, action: int) -> None:
        """Apply ``action``; an illegal one raises ``IllegalActionError`` and leaves the state unchanged."""
        d = self.game._def
        a = _as_action(action, d.num_actions)
        status = d.apply_action(self._row, np.int64(a), self.game._opts)
        if status == 0:
            return
        if status == 2:
            raise GameOverError(f"the deal is over; no action is legal (got {self._describe(a)})")
        legal = ", ".join(self._describe(x) for x in self.legal_actions())
        raise IllegalActionError(
            f"action {self._describe(a)} is not legal for seat {self.current_player()} in phase "
            f"{self.phase()}; legal actions: {legal}"
        )

    def _describe(self, a: int) -> str:
        return f"{a} ({self.game._def.action_to_string(a)})"

    def returns(self) -> np.ndarray:
        """Settlement per seat in game points (float64, zero-sum; all zeros before the end)."""
        out = np.zeros(self.game.num_players, dtype=np.float64)
        self.game._def.returns(self._row, out)
        return out

    def observation(self, player: int) -> np.ndarray:
        """What seat ``player`` may know, as a float32 vector (layout in the game's ``observe`` module)."""
        player = _check_int("player", player, 0, self.game.num_players - 1)
        out = np.zeros(self.game.observation_size, dtype=np.float32)
        self.game._def.observe(self._row, np.int64(player), self.game._opts, out)
        return out

    def action_to_string(self, action: int) -> str:
        """Readable name of an action (e.g. ``"BID Zweier"``, ``"PLAY T21"``)."""
        return self.game.action_to_string(action)

    def resample_hidden(self, player: int, seed: int) -> State:
        """A copy in which every card hidden from ``player`` is redealt consistently with what it knows.

        ``player``'s observation of the copy equals its observation of this state; the copy satisfies every
        invariant and can be played on (for Monte Carlo sampling of hidden hands). Reproducible from ``seed``.
        """
        d = self.game._def
        if d.resample_hidden is None:
            raise NotImplementedError(f"{self.game.name} has no hidden-card sampler yet")
        player = _check_int("player", player, 0, self.game.num_players - 1)
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        from tarockrl.engine.rng import stream_seed

        row = self._row.copy()
        scratch = np.zeros(d.resample_scratch_len, dtype=np.int64)
        _, ok = d.resample_hidden(row, np.int64(player), self.game._opts, stream_seed(seed, player), scratch)
        if not ok:
            raise RuntimeError("no consistent redeal of the hidden cards was found")
        return State(self.game, row, self.seed)

    def history(self) -> list[int]:
        """All actions applied since the deal, in order (forced ones included)."""
        d = self.game._def
        n = min(int(self._row[d.slot_hist_len]), d.max_episode_length)
        return self._row[d.slot_hist : d.slot_hist + n].tolist()

    def deal(self) -> dict:
        """This deal in the game's deal notation (a JSON-compatible dict)."""
        return self.game._def.deal_of(self._row)

    def transcript(self) -> str:
        """The whole deal so far as readable text (hands, bidding, exchange, tricks, result)."""
        return self.game._def.transcript(self.game, self._row)

    def clone(self) -> State:
        """An independent copy."""
        return State(self.game, self._row.copy(), self.seed)

    def to_bytes(self) -> bytes:
        """Serialise (game name, options fingerprint and the state row)."""
        return self.game._encode(self._row)

    def __str__(self) -> str:
        return self.game._def.state_to_string(self.game, self._row)

    def __repr__(self) -> str:
        return f"<{self.game.name} State phase={self.phase()} to_move={self.current_player()}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game == self.game and np.array_equal(other._row, self._row)

    __hash__ = None  # mutable

    def __reduce__(self):
        return (_state_from_bytes, (self.game, self.to_bytes(), self.seed))


def _state_from_bytes(game: Game, data: bytes, seed: int | None) -> State:
    state = game.state_from_bytes(data)
    state.seed = seed
    return state


class Batch:
    """Many deals of one game in one ``[n, state_len]`` int64 array, stepped by one numba call."""

    def __init__(self, game: Game, rows: np.ndarray) -> None:
        """Wrap ``rows`` (use :meth:`Game.new_batch` or :meth:`Game.batch_from_states`; rows are trusted here)."""
        from tarockrl.games.validate import check_out_array

        if not isinstance(game, Game):
            raise WrongGameError(f"expected a tarockrl Game, got {type(game).__name__}")
        n = rows.shape[0] if isinstance(rows, np.ndarray) and rows.ndim == 2 else 0
        self.game = game
        self.rows = check_out_array("rows", rows, (n, game.state_len), np.int64)

    def __len__(self) -> int:
        return self.rows.shape[0]

    def current_players(self) -> np.ndarray:
        """Seat to move per row (int64[n]; -1 for rows that are over)."""
        return self.rows[:, self.game._def.slot_cur].copy()

    def is_terminal(self) -> np.ndarray:
        """bool[n]: which rows are over."""
        return self.rows[:, self.game._def.slot_phase] == self.game._def.terminal_phase

    def legal_masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """bool[n, num_actions] legal-action masks (all False for rows that are over).

        ``out``, when given, must be a writable C-contiguous bool array of shape ``(n, num_actions)``.
        """
        from tarockrl.games.validate import check_out_array

        shape = (len(self), self.game.num_actions)
        if out is None:
            out = np.empty(shape, dtype=np.bool_)
        else:
            check_out_array("out", out, shape, np.bool_)
        self.game._def.batch_legal_masks(self.rows, self.game._opts, out)
        return out

    def step(self, actions: Any) -> None:
        """Apply ``actions[i]`` to every row that is not over (finished rows ignore theirs).

        The whole batch is checked first: if any live row's action is illegal, ``IllegalActionError`` names
        the rows and no row is changed.
        """
        try:
            acts = np.asarray(actions)
        except Exception as exc:  # noqa: BLE001 - ragged lists and odd objects
            raise IllegalActionError(f"actions must be an integer array of shape ({len(self)},): {exc}") from None
        if acts.shape != (len(self),) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be an integer array of shape ({len(self)},), got {acts.dtype} {acts.shape}"
            )
        if acts.size and (acts.dtype.kind == "u" and int(acts.max()) > 2**62):
            raise IllegalActionError(f"actions must be integers in [0, {self.game.num_actions})")
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        live = ~self.is_terminal()
        masks = self.legal_masks()
        in_range = (acts >= 0) & (acts < self.game.num_actions)
        ok = in_range & masks[np.arange(len(self)), np.clip(acts, 0, self.game.num_actions - 1)]
        bad = np.flatnonzero(live & ~ok)
        if bad.size:
            shown = ", ".join(f"row {i}: action {acts[i]}" for i in bad[:5])
            raise IllegalActionError(
                f"{bad.size} illegal action(s) ({shown}{', ...' if bad.size > 5 else ''}); no row was changed"
            )
        status = np.zeros(len(self), dtype=np.int64)
        self.game._def.batch_step(self.rows, acts, self.game._opts, status)

    def returns(self) -> np.ndarray:
        """float64[n, num_players] settlements (zeros for rows not yet over)."""
        d = self.game._def
        result = self.rows[:, d.slot_result : d.slot_result + self.game.num_players].astype(np.float64)
        result[~self.is_terminal()] = 0.0
        return result

    def observations(self, players: np.ndarray | None = None, obs_dtype: Any = "float32") -> np.ndarray:
        """float32[n, observation_size]: each row seen by its current player (or by ``players[i]``).

        Rows that are over (or given player -1) get zeros. ``obs_dtype="uint8"`` or ``"int8"`` gives compact
        integer codes written directly by the driver (see :mod:`tarockrl.games.obs_dtype`: equal to the float32
        observation on every binary entry, the counts as integers, settlements clipped; zeros coded too).
        """
        from tarockrl.games.obs_dtype import check_obs_dtype, signed_entries
        from tarockrl.games.validate import check_int_array

        dt = check_obs_dtype(obs_dtype)

        if players is None:
            players = self.current_players()
        else:
            players = check_int_array("players (seats, or -1 for none)", players, (len(self),), -1,
                                      self.game.num_players - 1)
        players = np.ascontiguousarray(players, dtype=np.int64)
        out = np.empty((len(self), self.game.observation_size), dtype=dt)
        self.game._def.batch_observe(self.rows, players, self.game._opts, out)  # codes: tarockrl.engine.obsput
        if dt != np.float32:
            flip = signed_entries(self.game, dt)
            if flip.size:
                out[:, flip] ^= 0x80
        return out

    def random_actions(self, seed: int, step_no: int = 0) -> np.ndarray:
        """A uniformly random legal action per row (-1 for finished rows), reproducible from ``(seed, step_no)``."""
        seed = _check_int("seed", seed, -(2**63), 2**63 - 1)
        step_no = _check_int("step_no", step_no, -(2**63), 2**63 - 1)
        out = np.empty(len(self), dtype=np.int64)
        self.game._def.batch_random_actions(self.rows, np.int64(seed), np.int64(step_no), self.game._opts, out)
        return out

    def state(self, i: int) -> State:
        """A copy of row ``i`` (an integer in ``[0, n)``) as a :class:`State`."""
        i = _check_int("i", i, 0, len(self) - 1) if len(self) else _check_int("i", i, 0, -1)
        return State(self.game, self.rows[i].copy())

    def clone(self) -> Batch:
        """An independent copy of the batch."""
        return Batch(self.game, self.rows.copy())
