"""Agents by name: ``make_agent(spec, game, seed=...)``.

A spec is a string ``"name"`` or ``"name:key=value,key=value"``; a bare value without ``=`` is the agent's first
parameter (``"ckpt:runs/x/last.pt"`` gives ``path="runs/x/last.pt"``). Values are converted to the type the
factory's signature names (``int``, ``float``, ``bool``, ``str``). Examples::

    make_agent("random", game, seed=0)
    make_agent("rules", game, seed=0)
    make_agent("pimc:worlds=32,rollout=rules,solve_tricks=8", game, seed=0)

Factories are registered by name with the dotted path of a function ``factory(game, seed, **params) -> agent``
and imported only when asked for, so this module stays cheap and the layers stay one-way. Every agent built here
has ``step(state) -> int`` (see :mod:`tarockrl.agents.base`).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable
from typing import Any

from tarockrl.errors import BadAgentSpecError

__all__ = ["make_agent", "parse_spec", "register_agent", "known_agents", "agent_help"]

_FACTORIES: dict[str, str] = {
    "random": "tarockrl.agents.random_agent:make_random_agent",
    "rules": "tarockrl.agents.rules:make_rules_agent",
    "ckpt": "tarockrl.agents.neural:make_checkpoint_agent",
    "pretrained": "tarockrl.agents.neural:make_pretrained_agent",
    "pimc": "tarockrl.agents.pimc:make_pimc_agent",
    "openspiel": "tarockrl.openspiel.bots:make_openspiel_agent",
}
_DESCRIPTIONS: dict[str, str] = {
    "random": "uniformly random legal actions",
    "rules": "the rule-based player of the game",
    "ckpt": "a checkpoint of tarockrl train (ckpt:PATH)",
    "pretrained": "the trained agent shipped for the game",
    "pimc": "PIMC search over sampled worlds (pimc:worlds=32,rollouts=2,rollout=heuristic,solve_tricks=5)",
    "openspiel": "OpenSpiel's ISMCTS or MCTS bot (openspiel:ismcts,simulations=N; extra openspiel)",
}


def register_agent(name: str, factory_path: str, description: str = "") -> None:
    """Register ``name`` for a factory given as ``"package.module:function"`` (imported on first use)."""
    if not name or not name.replace("_", "").isalnum():
        raise BadAgentSpecError(f"agent names are letters, digits and underscores, got {name!r}")
    if ":" not in factory_path:
        raise BadAgentSpecError(f"factory path must be 'module:function', got {factory_path!r}")
    _FACTORIES[name] = factory_path
    _DESCRIPTIONS[name] = description


def known_agents() -> dict[str, str]:
    """The registered agent names and their one-line descriptions."""
    return {name: _DESCRIPTIONS.get(name, "") for name in sorted(_FACTORIES)}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,..."`` into the name and the raw (string) parameters."""
    if not isinstance(spec, str) or not spec.strip():
        raise BadAgentSpecError(f"an agent spec is a non-empty string such as 'random' or 'rules', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    params: dict[str, str] = {}
    if rest.strip():
        for i, part in enumerate(_split_params(rest)):
            key, eq, value = part.partition("=")
            if not eq:
                if i != 0:
                    raise BadAgentSpecError(f"agent spec {spec!r}: parameter {part!r} needs the form key=value")
                params["_positional"] = part.strip()
                continue
            key = key.strip()
            if not key or key in params:
                raise BadAgentSpecError(f"agent spec {spec!r}: empty or repeated parameter name {key!r}")
            value = value.strip()
            if value.startswith("[") and value.endswith("]"):
                value = value[1:-1]
            params[key] = value
    return name, params


def _split_params(rest: str) -> list[str]:
    """Split on commas that are not inside a nested spec's own parameters (``leaf=ckpt:a,b`` stays whole only
    when bracketed: ``leaf=[ckpt:a,b]``)."""
    parts, depth, cur = [], 0, []
    for ch in rest:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def _factory(name: str) -> Callable[..., Any]:
    if name not in _FACTORIES:
        close = difflib.get_close_matches(name, list(_FACTORIES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        known = ", ".join(f"{n} ({d})" if d else n for n, d in known_agents().items())
        raise BadAgentSpecError(f"unknown agent {name!r}{hint}; known agents: {known}")
    module, _, attr = _FACTORIES[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def _convert(name: str, key: str, raw: str, annotation: Any) -> Any:
    kind = annotation if isinstance(annotation, type) else None
    if isinstance(annotation, str):
        kind = {"int": int, "float": float, "bool": bool, "str": str}.get(annotation.split("|")[0].strip())
    try:
        if kind is bool:
            low = raw.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if kind is int:
            return int(raw)
        if kind is float:
            value = float(raw)
            if value != value:
                raise ValueError(raw)
            return value
    except ValueError:
        raise BadAgentSpecError(
            f"agent {name!r}: parameter {key}={raw!r} is not a valid {kind.__name__}"  # type: ignore[union-attr]
        ) from None
    return raw


def agent_help(name: str) -> str:
    """The parameters an agent takes, with their defaults, as one line."""
    sig = inspect.signature(_factory(name))
    params = [p for p in list(sig.parameters.values())[2:] if p.kind is not p.VAR_KEYWORD]
    return ", ".join(f"{p.name}={p.default!r}" if p.default is not p.empty else p.name for p in params) or "none"


def make_agent(spec: Any, game: Any, *, seed: int | None = None) -> Any:
    """Build the agent named by ``spec`` for ``game`` (a :class:`tarockrl.Game` or a game name).

    ``spec`` may also be an agent object already (anything with ``step`` or ``act``), returned as it is (a plain
    ``act``-only agent is wrapped so it gets ``step``). Raises :class:`BadAgentSpecError` for an unknown name or
    parameter, listing what is known.
    """
    from tarockrl.agents.base import with_step

    if isinstance(game, str):
        from tarockrl.games import make_game

        game = make_game(game)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        try:
            import numpy as np

            ok = isinstance(seed, np.integer) and int(seed) >= 0
        except ImportError:  # pragma: no cover
            ok = False
        if not ok:
            raise BadAgentSpecError(f"agent seed must be a non-negative integer or None, got {seed!r}")
        seed = int(seed)
    if not isinstance(spec, str):
        if hasattr(spec, "step") or hasattr(spec, "act") or callable(spec):
            return with_step(spec)
        raise BadAgentSpecError(f"an agent spec is a string such as 'rules' or an agent object, got {spec!r}")
    name, raw = parse_spec(spec)
    factory = _factory(name)
    sig = inspect.signature(factory)
    params = list(sig.parameters.values())[2:]
    named = {p.name: p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    if "_positional" in raw:
        if not params:
            raise BadAgentSpecError(f"agent {name!r} takes no parameters, got {raw['_positional']!r}")
        raw[params[0].name] = raw.pop("_positional")
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in named:
            close = difflib.get_close_matches(key, list(named), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise BadAgentSpecError(
                f"agent {name!r} has no parameter {key!r}{hint}; its parameters: {agent_help(name)}"
            )
        kwargs[key] = _convert(name, key, value, named[key].annotation)
    missing = [p.name for p in named.values() if p.default is p.empty and p.name not in kwargs]
    if missing:
        raise BadAgentSpecError(f"agent {name!r} needs the parameter(s) {', '.join(missing)}")
    agent = factory(game, seed, **kwargs)
    agent.spec = spec
    return with_step(agent)
