"""The two public sampler kernels of every game, written once: a template bound per game by :func:`bind_sampler`.

A game's ``resample`` module writes only its own world sampler, one kernel of the form::

    sample_many(state, player, opts, out, base, single, rng) -> (failures, rng)

which draws ``out.shape[0]`` worlds of ``player``'s view into the rows of ``out``: world ``w`` from the stream
``stream_seed(base, w)``, or, when ``single`` is true (then ``out`` has one row), from the generator state
``rng``; it returns the number of worlds it could not build and the generator state after the last draw (``rng``
itself when nothing was drawn). This module turns it into the contract's kernels (:mod:`tarockrl.games.contract`):

* ``resample_hidden(state, player, opts, rng, scratch) -> (rng, ok)``: one world drawn from ``rng`` replaces
  ``state`` (unchanged when ``ok`` is False);
* ``sample_worlds(state, player, opts, seed, out) -> failures``: world ``i`` from the stream
  ``(stream_seed(seed, player), i)``.

Two switches keep each game's earlier behaviour exactly: ``TERMINAL_SHORTCUT`` (a finished deal is its own only
world, without asking the sampler) and ``REMAP_ZERO_BASE`` (``sample_worlds`` replaces a base stream of 0 by 1,
which changes the worlds of one seed in 2**64 per seat: the games whose samplers once used 0 as "no base").

numba cannot cache a kernel that takes another jitted function as an argument, so the template is copied per game
by the package's code generator (:mod:`tarockrl.engine.codegen`), like the batch and env drivers, and cached
on disk as an ordinary module.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tarockrl.engine.rng import stream_seed

# ---- bindings (begin): replaced in every generated copy -------------------------------------------------------
SLOT_PHASE = 0
TERMINAL_PHASE = 0
TERMINAL_SHORTCUT = False
REMAP_ZERO_BASE = False
sample_many = None  # (state, player, opts, out, base, single, rng) -> (failures, rng)
# ---- bindings (end) -------------------------------------------------------------------------------------------


@njit(cache=True)
def resample_hidden(state, player, opts, rng, scratch):
    """Replace ``state`` by a uniformly drawn world of ``player``'s view; returns ``(rng, ok)``.

    ``ok`` is False (state unchanged) only when no world was found (an inconsistent state, or a rejection
    sampler that gave up). ``scratch`` is unused (kept for the common kernel signature).
    """
    if TERMINAL_SHORTCUT and state[SLOT_PHASE] == TERMINAL_PHASE:
        return rng, True
    out = np.zeros((1, state.shape[0]), dtype=np.int64)
    fails, rng = sample_many(state, player, opts, out, np.int64(0), True, rng)
    if fails:
        return rng, False
    state[:] = out[0]
    return rng, True


@njit(cache=True)
def sample_worlds(state, player, opts, seed, out):
    """Fill ``out[i]`` with world ``i`` of ``player``'s view (stream ``(seed, i)``); returns the failure count."""
    if TERMINAL_SHORTCUT and state[SLOT_PHASE] == TERMINAL_PHASE:
        for i in range(out.shape[0]):
            out[i, :] = state
        return 0
    base = stream_seed(seed, player)
    if REMAP_ZERO_BASE and base == 0:
        base = np.int64(1)
    fails, _rng = sample_many(state, player, opts, out, base, False, np.int64(0))
    return fails


def bind_sampler(sample_many_kernel, *, slot_phase: int, terminal_phase: int, terminal_shortcut: bool,
                 remap_zero_base: bool):
    """``(resample_hidden, sample_worlds)`` of a game: this template bound to its ``sample_many`` kernel.

    ``sample_many_kernel`` must be a module-level ``@njit(cache=True)`` function of the game's ``resample``
    module (importable by name; it may be called while that module is still being imported, at its end). The
    generated module depends on the source of the game's folder, of ``tarockrl/games`` (the counting core) and of
    the engine, so editing any of them gives a fresh compile.
    """
    import sys
    from pathlib import Path

    from tarockrl.engine import codegen

    module = sys.modules[getattr(sample_many_kernel, "py_func", sample_many_kernel).__module__]
    game_folder = Path(module.__file__).resolve().parent
    bindings = codegen.binding_block(
        constants={"SLOT_PHASE": int(slot_phase), "TERMINAL_PHASE": int(terminal_phase),
                   "TERMINAL_SHORTCUT": bool(terminal_shortcut), "REMAP_ZERO_BASE": bool(remap_zero_base)},
        functions={"sample_many": sample_many_kernel},
    )
    generated = codegen.bind(sys.modules[__name__], f"sampler_{game_folder.name}", bindings,
                             [game_folder, Path(__file__).resolve().parent])
    return generated.resample_hidden, generated.sample_worlds
