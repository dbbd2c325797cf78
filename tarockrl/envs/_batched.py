"""What the batched environments (the vector env and the self-play batch) share around their drivers: binding
the game's env drivers (:mod:`._bind`) with a thread runner, and pickling without them (they are bound again
when unpickled: a pickled array of options loses its read-only flag, which would make numba compile again)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from tarockrl.envs import _bind

__all__ = ["BoundDrivers"]


class BoundDrivers:
    """Mixin of a batched env with ``game`` and ``num_envs`` set: ``_k`` (the drivers), ``_runner``, ``_opts``."""

    def _bind_drivers(self, num_threads: int | None) -> ModuleType:
        """Bind the drivers, the runner (``num_threads`` threads) and the encoded options; returns the drivers."""
        k = self._k = _bind.drivers(self.game)
        self._num_threads = num_threads
        self._runner = _bind.Runner(k, self.num_envs, num_threads)
        self._opts = self.game.encoded_options
        return k

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_k", None)
        state.pop("_opts", None)  # pickling drops the read-only flag, which would make numba compile again
        state.pop("_runner", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind_drivers(self._num_threads)
