"""Environments for every tarockrl game.

* :class:`TarockEnv` (per game: ``gymnasium.make("tarockrl/Dreierles-v0")``): one learning seat against agents.
* :class:`TarockVectorEnv` (``gymnasium.make_vec("tarockrl/Dreierles-v0", num_envs=4096,
  vectorization_mode="vector_entry_point")``): thousands of sub-envs stepped in one numba call.
* :class:`SelfPlayBatch`: a batched multi-agent interface for self-play, every seat driven by the caller.
* :func:`aec_env` (optional extra ``pettingzoo``): a PettingZoo AEC environment.

Each game's env documentation is the docstring of ``env_class(name)`` / ``vector_env_class(name)``, e.g.
``help(tarockrl.envs.env_class("dreierles"))``; see also docs/envs.md. Submodules load on first use, so
``import tarockrl`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

from tarockrl.envs.registration import register_envs

__all__ = [
    "TarockEnv",
    "TarockVectorEnv",
    "SelfPlayBatch",
    "SelfPlayStep",
    "ResetNeededError",
    "env_id",
    "env_class",
    "vector_env_class",
    "register_envs",
    "kernel_cache_dir",
    "aec_env",
    "raw_aec_env",
    "sb3_vec_env",
]

_LAZY = {
    "TarockEnv": "tarockrl.envs.single",
    "env_class": "tarockrl.envs.single",
    "TarockVectorEnv": "tarockrl.envs.vector",
    "vector_env_class": "tarockrl.envs.vector",
    "SelfPlayBatch": "tarockrl.envs.selfplay",
    "SelfPlayStep": "tarockrl.envs.selfplay",
    "ResetNeededError": "tarockrl.envs.common",
    "env_id": "tarockrl.envs.common",
    "kernel_cache_dir": "tarockrl.envs._bind",
    "sb3_vec_env": "tarockrl.envs.sb3",
}

PETTINGZOO_HINT = (
    "the PettingZoo adapter needs the optional extra: pip install 'tarockrl[pettingzoo]' (or pip install pettingzoo)"
)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _aec():
    try:
        import pettingzoo  # noqa: F401
    except ImportError as err:
        raise ImportError(PETTINGZOO_HINT) from err
    return importlib.import_module("tarockrl.envs.aec")


def aec_env(game: str = "dreierles", **kwargs: Any):
    """A PettingZoo AEC env of ``game`` with PettingZoo's standard wrappers (needs ``pettingzoo``)."""
    return _aec().env(game, **kwargs)


def raw_aec_env(game: str = "dreierles", **kwargs: Any):
    """The unwrapped PettingZoo AEC env of ``game`` (needs ``pettingzoo``)."""
    return _aec().raw_env(game, **kwargs)
