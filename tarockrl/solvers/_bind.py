"""Per-game copies of the solver template (:mod:`tarockrl.solvers._template`), through the engine's code generator.

``search_module(game_name)`` returns :func:`tarockrl.engine.codegen.bind` of the template with the names of
that game's adapter (:mod:`tarockrl.solvers.adapters`) as its bindings. The generated module's name carries a
hash of the template, the adapters, the solver helpers, the game's package and the engine, so any change there
gives a fresh file (and a fresh numba compile); numba's on-disk cache then works for it like for any module.
"""

from __future__ import annotations

import importlib
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
# optional adapter kernels: name -> default in tarockrl.solvers._common (used when the adapter lacks the name)
_OPTIONAL = {"forced_rest": "no_forced_rest", "tt_skip": "no_tt_skip", "root_levels": "no_root_levels",
             "copy_row": "copy_prefix", "hist_slot": "no_hist_slot", "PLAYOUT_GUESS": "NO_PLAYOUT_GUESS",
             "HIST_MALUS": "NO_HIST_MALUS", "BAND_FIRST": "NO_BAND_FIRST", "BOUND_NEED": "NO_BOUND_NEED",
             "afmin_need": "no_bound_need", "afmax_need": "no_bound_need", "SWEEP": "NO_SWEEP", "sweep": "no_sweep",
             "HINT_CTX": "NO_HINT_CTX", "hint_ctx": "no_hint_ctx", "hint_at": "no_hint_at",
             "HIST_BAND_SHIFT": "NO_HIST_BAND_SHIFT", "MEMO_BITS": "NO_MEMO_BITS", "memo_key": "no_memo_key"}
_OPTIONAL.update({"BUDGET_ROUNDS": "NO_BUDGET_ROUNDS", "budget_at": "no_budget_at"})  # budgeted rounds (budget11)
_OPTIONAL.update({"MEMO_LEARN": "NO_MEMO_LEARN"})  # the memo read by side where it cuts (memo12)
# an alternative move ordering used per class of node where it cuts more often in the probe (order14)
_OPTIONAL.update({"ORDER_LEARN": "NO_ORDER_LEARN", "hint_alt": "no_hint_alt", "alt_class": "no_alt_class"})
# payoff-similar table entries: keyed by structure, bounds carried over between counting values (ps15)
_OPTIONAL.update({"PAYOFF_SIM": "NO_PAYOFF_SIM", "skey": "no_skey", "pvec": "no_pvec", "pdelta": "no_pdelta"})
# a bonus decided later settled by the adapter's own game at threshold nodes (session 22)
_OPTIONAL.update({"BONUS_BITS": "NO_BONUS_BITS", "bonus_claim": "no_bonus_claim",
                 "bonus_amounts": "no_bonus_amounts", "claim_points": "no_claim_points"})
# a points-only search of a threshold node before its own (session 24)
_OPTIONAL.update({"PRESEARCH": "NO_PRESEARCH", "pre_at": "no_pre_at"})


def search_module(game_name: str) -> ModuleType:
    """The solver kernels compiled for ``game_name`` (generated, imported and cached on first use)."""
    root = Path(tarockrl.__file__).parent
    adapter = importlib.import_module(f"tarockrl.solvers.adapters.{game_name}")
    names = list(_NAMES) + [n for n in _OPTIONAL if hasattr(adapter, n)]
    lines = [f"from tarockrl.solvers.adapters.{game_name} import {', '.join(names)}  # noqa: E402, F401"]
    lines += [f"from tarockrl.solvers._common import {d} as {n}  # noqa: E402, F401"
              for n, d in _OPTIONAL.items() if not hasattr(adapter, n)]
    bindings = codegen.binding_block(constants={}, functions={}, extra_lines=lines)
    sources = [root / "solvers" / "adapters", root / "solvers" / "_common.py", root / "solvers" / "_bits.py",
               root / "games" / game_name]
    return codegen.bind(_template, f"solver_{game_name}", bindings, sources)
