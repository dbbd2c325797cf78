"""Pieces shared by the environments: game lookup, spaces, opponents, seeds, errors and the generated docs."""

from __future__ import annotations

import dataclasses
import importlib
import operator
import sys
from typing import Any

import gymnasium
import numpy as np

from tarockrl.agents.base import as_agent
from tarockrl.errors import IllegalActionError, TarockError
from tarockrl.games import game_definition, list_games, make_game
from tarockrl.games import options as opt
from tarockrl.games.api import Game

__all__ = [
    "ResetNeededError",
    "env_id",
    "vector_env_id",
    "resolve_game",
    "observation_space",
    "Opponents",
    "parse_opponents",
    "to_int64",
    "as_action",
    "ILLEGAL_MODES",
    "DEFAULT_ILLEGAL_REWARD",
]

ILLEGAL_MODES = ("raise", "lose")
DEFAULT_ILLEGAL_REWARD = -100.0
"""Reward (in game points, before ``reward_scale``) of an illegal action under ``illegal_action="lose"``."""


class ResetNeededError(TarockError, gymnasium.error.ResetNeeded):
    """``step`` before ``reset``, or after the episode ended (also a ``gymnasium.error.ResetNeeded``)."""


def game_for_display_name(display: str) -> str | None:
    """The registry name of the game whose display name is ``display`` (importing as few game modules as possible)."""
    from tarockrl import games

    known = getattr(games, "DISPLAY_NAMES", {})
    for name in list_games():
        if known.get(name) == display:
            return name
    for name in list_games():
        if name not in known and game_definition(name).display_name == display:
            return name
    return None


def env_id(game: str) -> str:
    """The Gymnasium id of a game, e.g. ``env_id("dreierles") == "tarockrl/Dreierles-v0"``."""
    return f"tarockrl/{game_definition(game).display_name}-v0"


vector_env_id = env_id  # the same id serves gymnasium.make and gymnasium.make_vec


def resolve_game(game: Any, rules_options: dict[str, Any]) -> Game:
    """A :class:`Game` from a name (with rules options) or an existing ``Game`` (then no options)."""
    if isinstance(game, Game):
        if rules_options:
            raise TypeError(
                f"rules options {sorted(rules_options)} given together with a Game object; "
                "pass the game's name instead, or make the Game with those options"
            )
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a game name ({', '.join(list_games())}) or a Game, got {game!r}")
    return make_game(game, **rules_options)


def observation_space(game: Game, bounded: bool = False) -> gymnasium.spaces.Box:
    """``Box(low, high, (observation_size,), float32)`` of a game's observations.

    ``bounded=True`` (the single-agent and AEC envs): the finite bounds of :mod:`tarockrl.envs.bounds`, true of
    observations whose unbounded fields went through :func:`tarockrl.envs.bounds.observation_bounds` ``.apply``.
    ``bounded=False``: the game's declared bounds, else unbounded (the raw engine vectors of the vector env).
    """
    shape = (game.observation_size,)
    if bounded:
        from tarockrl.envs.bounds import observation_bounds

        b = observation_bounds(game)
        return gymnasium.spaces.Box(low=b.low.copy(), high=b.high.copy(), shape=shape, dtype=np.float32)
    d = game.definition
    low = getattr(d, "observation_low", None)
    high = getattr(d, "observation_high", None)
    low = np.full(shape, -np.inf, np.float32) if low is None else np.broadcast_to(low, shape).astype(np.float32)
    high = np.full(shape, np.inf, np.float32) if high is None else np.broadcast_to(high, shape).astype(np.float32)
    return gymnasium.spaces.Box(low=low, high=high, shape=shape, dtype=np.float32)


def to_int64(value: Any, what: str = "seed") -> int:
    """An integer as a signed 64-bit number.

    Seeds (``what="seed"``) may be any integer and are folded into the int64 range; anything else (deal ids) must
    already lie in ``[-2**63, 2**63)``, since folding would silently replay another deal.
    """
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, np.ndarray) and value.ndim != 0):
        raise TypeError(f"{what} must be an integer, got {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {value!r} ({type(value).__name__})") from None
    if what != "seed" and not -(1 << 63) <= v < 1 << 63:
        raise ValueError(f"{what}={v} is out of range: expected an integer in [-2**63, 2**63)")
    v %= 1 << 64
    return v - (1 << 64) if v >= 1 << 63 else v


def as_action(action: Any, num_actions: int) -> int:
    """An action as a Python int (ints, numpy integers and 0-d or 1-element integer arrays).

    Anything else raises ``IllegalActionError`` naming the value (never numpy's or Python's own message).
    """
    bad = IllegalActionError(
        f"an action must be an integer in [0, {num_actions}), got {action!r} ({type(action).__name__})"
    )
    if type(action) is int:
        a = action
    elif isinstance(action, np.integer):
        a = int(action)
    elif isinstance(action, np.ndarray):
        if action.size != 1 or not np.issubdtype(action.dtype, np.integer):
            raise bad
        a = int(action.reshape(()))
    else:
        if isinstance(action, (bool, np.bool_)) or not hasattr(action, "__index__"):
            raise bad
        try:
            a = operator.index(action)
        except TypeError:
            raise bad from None
    if not 0 <= a < num_actions:
        raise IllegalActionError(f"action {a} is out of range: actions are integers in [0, {num_actions})")
    return a


def _is_engine_random(agent: Any) -> bool:
    return agent is None or (isinstance(agent, str) and agent == "random") or getattr(agent, "engine_random", False)


@dataclasses.dataclass
class Opponents:
    """The non-learning seats, by seat relative to the learner (index 0 is the learner and unused).

    ``kinds[r]`` is 1 for a uniformly random seat played inside the engine, 0 for a Python agent
    ``agents[r]``.
    """

    agents: list[Any]
    kinds: np.ndarray

    @property
    def all_random(self) -> bool:
        """True when every opponent is played inside the engine."""
        return bool(self.kinds[1:].all())

    def describe(self) -> str:
        """Short text for ``repr`` and ``render``."""
        return ", ".join("random" if self.kinds[r] else repr(self.agents[r]) for r in range(1, len(self.kinds)))


def parse_opponents(opponents: Any, num_players: int, seat: int | None) -> Opponents:
    """Normalise the ``opponents`` argument of the environments.

    Accepted: ``None`` or ``"random"`` (every other seat uniformly random, played inside the engine); one agent
    or callable for every other seat; a sequence of ``num_players - 1`` agents for the seats after the learner in
    playing order (relative seats 1, 2, ...); with a fixed ``seat``, also a sequence of ``num_players`` entries
    by absolute seat (the learner's entry ``None``) or a dict ``{seat: agent}`` (missing seats random).
    """
    n = num_players
    rel: list[Any]
    if opponents is None or isinstance(opponents, str):
        if opponents not in (None, "random"):
            raise ValueError(f"opponents={opponents!r}: the only named opponent is 'random'")
        rel = [None] * (n - 1)
    elif isinstance(opponents, dict):
        if seat is None:
            raise ValueError("opponents given by absolute seat (a dict) need a fixed learning seat")
        for k in opponents:
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < n or k == seat:
                raise ValueError(f"opponents dict key {k!r} is not another seat in [0, {n}) (learning seat {seat})")
        rel = [opponents.get((seat + r) % n) for r in range(1, n)]
    elif isinstance(opponents, (list, tuple)):
        if len(opponents) == n - 1:
            rel = list(opponents)
        elif len(opponents) == n:
            if seat is None:
                raise ValueError(f"{n} opponents by absolute seat need a fixed learning seat; give {n - 1} instead")
            if opponents[seat] is not None:
                raise ValueError(f"opponents[{seat}] is the learning seat and must be None, got {opponents[seat]!r}")
            rel = [opponents[(seat + r) % n] for r in range(1, n)]
        else:
            raise ValueError(
                f"opponents: give {n - 1} agents (the seats after the learner in playing order)"
                + (f" or {n} by absolute seat" if seat is not None else "")
                + f", got {len(opponents)}"
            )
    else:
        rel = [opponents] * (n - 1)
    agents: list[Any] = [None]
    kinds = np.zeros(n, dtype=np.int64)
    for r, agent in enumerate(rel, start=1):
        if _is_engine_random(agent):
            kinds[r] = 1
            agents.append(agent if agent is not None and not isinstance(agent, str) else None)
        else:
            agents.append(as_agent(agent))
    return Opponents(agents=agents, kinds=kinds)


def check_seat(seat: Any, num_players: int, allow_random: bool = True) -> int | None:
    """A fixed seat number, or ``None`` for ``"random"``."""
    if isinstance(seat, str) and seat == "random" and allow_random:
        return None
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_players:
        raise ValueError(
            f"seat must be a seat number in [0, {num_players})" + (" or 'random'" if allow_random else "")
            + f", got {seat!r}"
        )
    return int(seat)


AUTO_REWARD_SCALE_STD: dict[str, float] = {
    "dreierles": 39.3,
    "dreiertarock": 5189.0,
    "tatteln": 72.4,
    "troccas": 10.7,
}
"""Random-play standard deviation (game points) of a seat's settlement per deal, default rules: measured with
``tarockrl.make_game(name).random_playouts(20000, seed=0).std()`` (every seat pooled; the seats agree within 0.3%).
``reward_scale="auto"`` is one over it."""


def resolve_reward_scale(reward_scale: Any, game: Game) -> Any:
    """``reward_scale="auto"``: one over the game's random-play settlement standard deviation
    (:data:`AUTO_REWARD_SCALE_STD`), so per-deal rewards have about unit scale in every game; numbers pass through."""
    if isinstance(reward_scale, str):
        if reward_scale != "auto":
            raise ValueError(f"reward_scale must be a number or 'auto', got {reward_scale!r}")
        return 1.0 / AUTO_REWARD_SCALE_STD.get(game.name, 1.0)
    return reward_scale


def check_illegal(illegal_action: Any, illegal_reward: Any, reward_scale: Any) -> tuple[str, float, float]:
    """Validated ``(illegal_action, illegal_reward, reward_scale)``."""
    if illegal_action not in ILLEGAL_MODES:
        raise ValueError(f"illegal_action must be one of {list(ILLEGAL_MODES)}, got {illegal_action!r}")
    out = []
    for name, value in (("illegal_reward", illegal_reward), ("reward_scale", reward_scale)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name} must be a number, got {value!r}")
        if not np.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
        out.append(float(value))
    return illegal_action, out[0], out[1]


def check_options(options: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    """``reset(options=...)`` as a dict with only the ``allowed`` keys (else a ``ValueError`` naming them)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"reset options must be a dict, got {type(options).__name__}")
    unknown = sorted(set(options) - set(allowed), key=str)
    if unknown:
        raise ValueError(f"unknown reset option(s) {unknown}; allowed: {list(allowed)}")
    if "deal" in options and "deal_id" in options:
        raise ValueError("give reset option 'deal' or 'deal_id', not both")
    if "deal" in options and not isinstance(options["deal"], dict):
        from tarockrl.errors import BadDealError

        raise BadDealError(f"reset option 'deal' must be a deal dict in the game's deal notation, got "
                           f"{options['deal']!r}; leave the option out for a random deal")
    return options


def derived_seed(*parts: int) -> int:
    """A 63-bit seed derived from integers (for seeding Python agents per episode)."""
    return int(np.random.SeedSequence([p % (1 << 64) for p in parts]).generate_state(2, np.uint64)[0] >> np.uint64(1))


# ---------------------------------------------------------------------------------------------------------
# generated documentation
# ---------------------------------------------------------------------------------------------------------
def _first_paragraph(text: str | None) -> str:
    if not text:
        return ""
    return text.strip().split("\n\n")[0].strip()


def actions_table(game: Game) -> str:
    """The flat action layout as an RST table, runs of the same verb folded into one row."""
    rows: list[tuple[str, str]] = []
    a, n = 0, game.num_actions
    names = [game.action_to_string(i) for i in range(n)]
    while a < n:
        verb, _, arg = names[a].partition(" ")
        b = a
        if arg:
            while b + 1 < n and names[b + 1].partition(" ")[0] == verb and names[b + 1].partition(" ")[2]:
                b += 1
        if b > a + 1:
            first, last = names[a].partition(" ")[2], names[b].partition(" ")[2]
            rows.append((f"{a}-{b}", f"``{verb} <x>`` for x = {first} ... {last} ({b - a + 1} actions)"))
            a = b + 1
        else:
            rows.append((str(a), f"``{names[a]}``"))
            a += 1
    w0 = max(len("action"), *(len(r[0]) for r in rows))
    w1 = max(len("meaning"), *(len(r[1]) for r in rows))
    rule = f"{'=' * w0}  {'=' * w1}"
    lines = [rule, f"{'action'.ljust(w0)}  meaning", rule]
    lines += [f"{r[0].ljust(w0)}  {r[1]}" for r in rows]
    lines.append(rule)
    return "\n".join(lines)


def options_table(game_name: str) -> str:
    """The rules options (name, default, meaning) as an RST list."""
    cls = game_definition(game_name).rules_class
    return "\n".join(f"* ``{name}={default!r}``: {doc}" for name, default, doc in opt.describe(cls))


def observation_doc(game: Game) -> str:
    """The docstring of the game's observation kernel module (its documented layout)."""
    fn = game.definition.observe
    py = getattr(fn, "py_func", fn)
    mod = sys.modules.get(py.__module__) or importlib.import_module(py.__module__)
    return (mod.__doc__ or "(the game documents no observation layout)").strip()


def game_summary(game_name: str) -> str:
    """The first paragraph of the game module's docstring (the package holding its rules class)."""
    d = game_definition(game_name)
    parts = d.rules_class.__module__.split(".")
    for k in range(len(parts), 0, -1):
        if parts[k - 1] == d.name:
            mod = importlib.import_module(".".join(parts[:k]))
            if mod.__doc__:
                return _first_paragraph(mod.__doc__)
    return d.display_name


def indent(text: str, prefix: str = "    ") -> str:
    """Indent every non-empty line."""
    return "\n".join(prefix + line if line.strip() else "" for line in text.splitlines())
