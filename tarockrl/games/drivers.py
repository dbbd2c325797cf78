"""Per-game numba drivers, generated from the engine's templates (:mod:`tarockrl.engine.codegen`).

:func:`game_bindings` is the standard bindings block of a game: its sizes and slots and every kernel of the
contract (:mod:`tarockrl.games.contract`), absent optional kernels as ``HAS_X = False``. :func:`game_sources` is
the set of folders whose source the bound kernels come from. Binding any template to a game is then::

    codegen.bind(template, f"mine_{definition.name}", game_bindings(definition), game_sources(definition))

:func:`batch_drivers` does this for :mod:`tarockrl.engine.batch_template` (``Game``/``Batch`` use it through
``definition.drivers``); :mod:`tarockrl.envs._bind` for the environment template.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

from tarockrl.engine import batch_template, codegen
from tarockrl.games.api import GameDefinition

__all__ = ["batch_drivers", "game_bindings", "game_sources", "KERNEL_FIELDS", "OPTIONAL_FIELDS"]

KERNEL_FIELDS = ("deal", "deal_rng", "legal_mask", "legal_words", "apply_action", "step", "random_action",
                 "observe", "returns", "check_invariants")
OPTIONAL_FIELDS = ("random_step", "playout", "sweep_deal", "copy_state")


def game_bindings(d: GameDefinition, extra_constants: dict | None = None) -> str:
    """The bindings block of game definition ``d`` (sizes, slots, contract kernels)."""
    constants = {
        "GAME_NAME": d.name,
        "NUM_PLAYERS": int(d.num_players),
        "NUM_ACTIONS": int(d.num_actions),
        "STATE_LEN": int(d.state_len),
        "SLOT_PHASE": int(d.slot_phase),
        "SLOT_CUR": int(d.slot_cur),
        "SLOT_HIST_LEN": int(d.slot_hist_len),
        "SLOT_RESULT": int(d.slot_result),
        "TERMINAL_PHASE": int(d.terminal_phase),
        "MAX_EPISODE_LENGTH": int(d.max_episode_length),
        "SCRATCH_LEN": max(1, int(d.scratch_len)),
        "LEGAL_WORDS": max(1, int(d.legal_words_len)),
    }
    constants.update(extra_constants or {})
    functions = {}
    for name in KERNEL_FIELDS:
        fn = getattr(d, name)
        if fn is None:
            raise ValueError(f"game {d.name} lacks the kernel {name} (see tarockrl.games.contract)")
        functions[name] = fn
    for name in OPTIONAL_FIELDS:
        functions[name] = getattr(d, name, None)
    return codegen.binding_block(constants, functions)


def game_sources(d: GameDefinition) -> list[Path]:
    """Folders of the modules the game's kernels come from (the generated code depends on their source)."""
    folders = set()
    for name in KERNEL_FIELDS + OPTIONAL_FIELDS:
        fn = getattr(d, name, None)
        if fn is None:
            continue
        mod = sys.modules.get(getattr(getattr(fn, "py_func", fn), "__module__", ""))
        if mod is not None and getattr(mod, "__file__", None):
            folders.add(Path(mod.__file__).resolve().parent)
    return sorted(folders)


def batch_drivers(d: GameDefinition) -> ModuleType:
    """The batch drivers of :mod:`tarockrl.engine.batch_template` bound to game definition ``d``."""
    return codegen.bind(batch_template, f"batch_{d.name}", game_bindings(d), game_sources(d))
