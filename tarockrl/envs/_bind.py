"""Per-game copies of the env drivers (:mod:`tarockrl.envs._kernel_template`), cached on disk.

``drivers(game)`` returns the template bound to ``game``'s kernels and sizes by the one code generator of the
package (:mod:`tarockrl.engine.codegen`, with the standard game bindings of :mod:`tarockrl.games.drivers` plus
the observation size): a generated ``.py`` module in :func:`kernel_cache_dir`, so numba's on-disk cache works
for it like for any module. Deleting that folder is always safe.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from tarockrl.engine.codegen import bind, kernel_cache_dir
from tarockrl.envs import _kernel_template
from tarockrl.games.api import Game
from tarockrl.games.drivers import game_bindings, game_sources

__all__ = ["drivers", "kernel_cache_dir", "Runner"]


_SMALL_ROW = 256  # slots (2 KB)
_STREAM_OBS = 1024  # observation entries
_WRAPPED = ("deal", "legal_mask", "apply_action", "step", "random_action", "observe", "returns", "random_step")


def _needs_nrt(fn: Any) -> bool:
    """False when ``fn`` is a numba kernel compiled without reference counting (it never allocates), so that its
    wrapper in the env drivers can do without it too."""
    return fn is None or bool(getattr(fn, "targetoptions", {}).get("_nrt", True))


def drivers(game: Game) -> ModuleType:
    """The env drivers compiled for ``game`` (generated, imported and cached on first use)."""
    d = game.definition
    constants = {"OBS_SIZE": int(d.observation_size)}
    for name in _WRAPPED:
        constants[f"NRT_{name.upper()}"] = _needs_nrt(getattr(d, name, None))
    # the part of a state row the env driver prefetches: all of a small row; of a large one (Troccas: 5.5 KB,
    # mostly its history and deal archive, touched once per action or per deal) the slots up to the history length
    n = int(d.state_len)
    constants["PREFETCH_SLOTS"] = n if n <= _SMALL_ROW else min(n, int(d.slot_hist_len) + 1)
    # and the history slot the next actions write, when it lies beyond those slots
    constants["SLOT_HIST"] = int(d.slot_hist)
    constants["PREFETCH_HIST"] = n > _SMALL_ROW and int(d.slot_hist) >= constants["PREFETCH_SLOTS"]
    # integer-code observations of at least _STREAM_OBS bytes (Troccas: 2,112; the others 585-836) are written by
    # streaming stores: a 4096-row batch of them (8.6 MB) never stays in the caches, and reading each output line
    # before overwriting it cost as much memory traffic as writing it
    constants["STREAM_OBS"] = int(d.observation_size) >= _STREAM_OBS
    bindings = game_bindings(d, constants)
    return bind(_kernel_template, f"env_{game.name}", bindings, game_sources(d))


class Runner:
    """Calls a game's ``run`` driver over a batch of rows, split into contiguous ranges run by a few threads.

    The driver releases the GIL, so ``num_threads`` ranges run in parallel (the calling thread takes the first).
    Rows are independent, so results never depend on the number of threads. ``num_threads=None`` follows
    ``numba.get_num_threads()``; batches smaller than ``MIN_ROWS`` rows per thread use fewer threads.
    """

    MIN_ROWS = 64

    def __init__(self, module: ModuleType, num_rows: int, num_threads: int | None = None) -> None:
        """Plan the ranges for ``num_rows`` rows."""
        if num_threads is None:
            # numba.get_num_threads() would start numba's threading layer and, with OpenMP, reset torch's thread
            # count; numba_num_threads() starts it keeping torch's setting (tarockrl/_threads.py, issue 15)
            from tarockrl._threads import numba_num_threads

            num_threads = numba_num_threads()
        if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
            raise ValueError(f"num_threads must be a positive integer, got {num_threads!r}")
        t = max(1, min(num_threads, num_rows // self.MIN_ROWS))
        self.module = module
        self.num_rows = num_rows
        self.num_threads = t
        self.bounds = [(num_rows * j // t, num_rows * (j + 1) // t) for j in range(t)]
        self._pool = None

    def __call__(self, *args: Any) -> tuple[int, int]:
        """``run(lo, hi, *args)`` over every range; returns the summed ``(waiting for an agent, broken)``."""
        run = self.module.run
        if self.num_threads == 1:
            return run(0, self.num_rows, *args)
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(self.num_threads - 1, thread_name_prefix="tarockrl-env")
        futures = [self._pool.submit(run, lo, hi, *args) for lo, hi in self.bounds[1:]]
        agents, broken = run(self.bounds[0][0], self.bounds[0][1], *args)
        for f in futures:
            a, b = f.result()
            agents += a
            broken += b
        return agents, broken

    def close(self) -> None:
        """Stop the worker threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
