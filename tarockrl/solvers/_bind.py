"""Per-game copies of the solver template (:mod:`tarockrl.solvers._template`), through the engine's code generator.

``search_module(game_name)`` returns :func:`tarockrl.engine.codegen.bind` of the template with the names of
that game's adapter (:mod:`tarockrl.solvers.adapters`) as its bindings. The generated module's name carries a
hash of the template, the adapters, the solver helpers, the game's package and the engine, so any change there
gives a fresh file (and a fresh numba compile); numba's on-disk cache then works for it like for any module.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import tarockrl
from tarockrl.engine import codegen
from tarockrl.solvers import _template

_NAMES = (
    "COPY_LEN", "GT_LEN", "MAX_DEPTH", "MAX_MOVES", "NUM_ACTIONS", "NUM_PLAYERS", "additive", "afmax", "afmin",
    "akey", "apast", "apply", "bonus_range", "cur", "gen", "gtable", "hint", "in_play", "is_over", "key", "leaf",
    "monotone_past", "paranoid", "side",
)


def search_module(game_name: str) -> ModuleType:
    """The solver kernels compiled for ``game_name`` (generated, imported and cached on first use)."""
    root = Path(tarockrl.__file__).parent
    bindings = codegen.binding_block(
        constants={},
        functions={},
        extra_lines=[f"from tarockrl.solvers.adapters.{game_name} import {', '.join(_NAMES)}  # noqa: E402, F401"],
    )
    sources = [root / "solvers" / "adapters", root / "solvers" / "_common.py", root / "games" / game_name]
    return codegen.bind(_template, f"solver_{game_name}", bindings, sources)
