"""The kernel contract: what a game package provides, and :func:`define`, which builds its definition from it.

A game is a package ``tarockrl/games/<name>/`` whose ``__init__.py`` is a few lines::

    from tarockrl.games.contract import define
    from tarockrl.games.mygame.rules import MyGameRules

    DEFINITION = define(__name__, display_name="MyGame", num_players=3, rules_class=MyGameRules)

:func:`define` reads the modules below by name; every driver (batch stepping, random playouts, invariant sweeps,
perft, the environment drivers) is generated from the engine's templates and bound to these kernels
(:mod:`tarockrl.games.drivers`). Kernels are module-level ``@njit(cache=True)`` functions on int64 rows: a
``row`` is ``int64[STATE_LEN]``, ``opts`` the game's encoded options (``int64[]``), ``rng`` a SplitMix64 state
(:mod:`tarockrl.engine.rng`). Kernels never raise and do no bounds checks: the facade checks every input first.

``layout`` (the state row)
    ``NUM_ACTIONS``, ``STATE_LEN``, ``MAX_EPISODE_LENGTH`` (for the default options), the slots ``MAGIC``
    (holding ``LAYOUT_MAGIC``), ``PHASE``, ``CUR`` (seat to act, -1 at the end), ``RESULT`` (the settlement,
    one slot per seat), ``HIST_LEN`` and ``HIST`` (the actions so far); ``TERMINAL`` (the phase code of a
    finished deal) and ``PHASE_NAMES``.

``kernels`` (the rules). Required:
    ``deal(row, seed, deal_id, opts)``
        deal number ``deal_id`` of ``seed`` (a pure function of the two numbers).
    ``deal_rng(row, seed, deal_id, opts, scratch) -> rng``
        the same deal, returning the random stream a random playout of this deal continues with;
        ``scratch`` is ``int64[SCRATCH_LEN]``, owned by the caller.
    ``legal_mask(row, opts, out_bool)``; ``legal_words(row, opts, out_i64)``
        the legal actions as a bool mask, and as ``LEGAL_WORDS`` pairs ``(offset, bit mask)`` in
        ``out[2w], out[2w + 1]`` (action = offset + bit index) for perft and search.
    ``apply_action(row, action, opts) -> status``
        0 applied, 1 illegal (row unchanged), 2 the deal is over (row unchanged).
    ``step(row, action, opts)``
        apply an action known to be legal, with the forced follow-ups of the options.
    ``random_action(row, opts, rng) -> (rng, action)``
        a uniformly random legal action (-1 at the end).
    ``returns(row, out_f64)``; ``check_invariants(row, opts) -> code``
        the settlement (zeros before the end); 0 or a code of :mod:`tarockrl.engine.invariants`.
        By convention ``check_invariants`` runs a game's named checks in order (``check_cards``,
        ``check_legal_set``, ... each ``(row, opts) -> 0 | code`` with a docstring naming its rule) and returns
        the first code; a new invariant is a new named check.
    ``SCRATCH_LEN``, ``LEGAL_WORDS``: the sizes above.
  Optional fast paths (every generated driver has a generic fallback; the contract tests check each fast
  path against it):
    ``random_step(row, opts, rng) -> rng``
        ``random_action`` followed by ``step``, fused.
    ``playout(seed, g, opts, row, scratch, returns_out, i) -> length``
        a whole random deal ``g`` (same deal and choices as ``deal_rng`` + ``random_action`` + ``step``),
        writing the settlement to ``returns_out[i]``.
    ``sweep_deal(row, seed, g, opts, scratch) -> rng``
        the deals of the invariant sweep when they should differ from ``deal_rng`` (e.g. random match state).
    ``copy_state(dst, src)``
        copy the live part of a row (perft; default: the whole row).

``observe``
    ``OBS_LEN`` and ``observe(row, player, opts, out_f32)``: only what ``player`` may know.

``text`` (Python)
    ``state_from_deal(game, deal) -> row`` (validated, raises ``BadDealError``), ``deal_of(row) -> dict``,
    ``action_to_string(action) -> str``, ``state_to_string(game, row) -> str``, ``transcript(game, row) -> str``.

``resample`` (optional)
    ``resample_hidden(row, player, opts, rng, scratch) -> (rng, ok)`` and its ``SCRATCH_LEN``: the cards hidden
    from ``player`` redealt consistently with what it knows; optionally ``sample_worlds(row, player, opts, seed,
    out_rows) -> failures``, ``len(out_rows)`` such worlds in one call. Any other module of the package is reachable as
    ``definition.module("name")``.

A game whose sizes depend on its options passes ``specialize(definition, rules) -> definition`` to
:func:`define`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from tarockrl.games.api import GameDefinition

__all__ = ["define", "optional_module", "KERNELS_REQUIRED", "KERNELS_OPTIONAL"]

KERNELS_REQUIRED = ("deal", "deal_rng", "legal_mask", "legal_words", "apply_action", "step", "random_action",
                    "returns", "check_invariants")
KERNELS_OPTIONAL = ("random_step", "playout", "sweep_deal", "copy_state")
_LAYOUT = {"num_actions": "NUM_ACTIONS", "state_len": "STATE_LEN", "max_episode_length": "MAX_EPISODE_LENGTH",
           "slot_phase": "PHASE", "slot_cur": "CUR", "slot_hist_len": "HIST_LEN", "slot_hist": "HIST",
           "slot_magic": "MAGIC", "slot_result": "RESULT", "magic": "LAYOUT_MAGIC", "terminal_phase": "TERMINAL",
           "phase_names": "PHASE_NAMES"}
_TEXT = ("state_from_deal", "deal_of", "action_to_string", "state_to_string", "transcript")


def optional_module(package: str, name: str) -> ModuleType | None:
    """``package.name`` when that module exists, else ``None`` (an import error inside it is not hidden)."""
    full = f"{package}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise


def _need(module: ModuleType, name: str) -> Any:
    if not hasattr(module, name):
        raise AttributeError(f"{module.__name__} must define {name} (see tarockrl.games.contract)")
    return getattr(module, name)


def define(package: str, *, display_name: str, num_players: int, rules_class: type,
           specialize: Callable[[GameDefinition, Any], GameDefinition] | None = None) -> GameDefinition:
    """The :class:`GameDefinition` of the game package ``package``, read from its modules by the contract."""
    layout = importlib.import_module(f"{package}.layout")
    kernels = importlib.import_module(f"{package}.kernels")
    observe = importlib.import_module(f"{package}.observe")
    text = importlib.import_module(f"{package}.text")
    resample = optional_module(package, "resample")
    fields: dict[str, Any] = {
        "name": package.rsplit(".", 1)[-1],
        "display_name": display_name,
        "num_players": int(num_players),
        "rules_class": rules_class,
        "observation_size": int(_need(observe, "OBS_LEN")),
        "observe": _need(observe, "observe"),
        "scratch_len": int(_need(kernels, "SCRATCH_LEN")),
        "legal_words_len": int(_need(kernels, "LEGAL_WORDS")),
        "package": package,
    }
    for field, name in _LAYOUT.items():
        fields[field] = _need(layout, name)
    for name in KERNELS_REQUIRED:
        fields[name] = _need(kernels, name)
    for name in KERNELS_OPTIONAL:
        fields[name] = getattr(kernels, name, None)
    for name in _TEXT:
        fields[name] = _need(text, name)
    if resample is not None:
        fields["resample_hidden"] = _need(resample, "resample_hidden")
        fields["resample_scratch_len"] = int(_need(resample, "SCRATCH_LEN"))
        fields["sample_worlds"] = getattr(resample, "sample_worlds", None)
    if specialize is not None:
        fields["specialize"] = lambda rules: dataclasses.replace(specialize(base, rules), specialize=None)
    base = GameDefinition(**fields)
    return base
