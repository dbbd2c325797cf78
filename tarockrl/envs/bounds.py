"""Finite observation bounds for the environments (Gymnasium, SB3 and PettingZoo check them).

The engines' observation vectors are one-hot bits and fractions in ``[0, 1]``, plus a few fields that are
**not bounded by the layout**: settlements and balances in game points (divided by a constant, but a doubled
Dreiertarock game can settle at hundreds of times that constant). The environments (single-agent and AEC)
therefore pass those fields through the monotone squash ``x / (1 + |x|)``, which maps every real number into
``(-1, 1)`` and keeps the sign and order (``0 -> 0``, ``1 -> 0.5``, ``-3 -> -0.75``). Every other entry keeps
the engine's value, with these bounds:

* ``[0, 1]`` for one-hot bits and fractions;
* hand sizes ``cards / c``: ``[0, deck / c]`` (a hand may exceed ``c`` cards briefly, e.g. the Dreierles declarer
  with the blind, so the bound is the whole deck);
* Troccas ``RESULT`` (``(card points - 36) / 36``): ``[-1, 1]``;
* Tatteln ``ANN_KEYS`` (an 8-bit key / 144): ``[0, 255 / 144]``.

Squashed fields, per game: Dreierles ``RESULT``; Dreiertarock ``RESULT``; Tatteln ``PILE_POINTS``,
``MELD_POINTS``, ``ANN_POINTS``, ``DEAL_POINTS``, ``RESULT``; Troccas ``BALANCE``. The raw engine vectors
(``State.observation``, ``Batch``, the vector env) are unchanged.
"""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np

from tarockrl.games.api import Game

__all__ = ["ObservationBounds", "observation_bounds", "squash"]


@dataclasses.dataclass(frozen=True)
class ObservationBounds:
    """``low``/``high`` (float32 arrays) of a game's env observations and the indices squashed into ``(-1, 1)``."""

    low: np.ndarray
    high: np.ndarray
    squashed: np.ndarray

    def apply(self, obs: np.ndarray) -> np.ndarray:
        """Squash the unbounded fields of ``obs`` (last axis) in place and return it."""
        if self.squashed.size:
            x = obs[..., self.squashed]
            obs[..., self.squashed] = x / (1.0 + np.abs(x))
        return obs


def squash(x: np.ndarray) -> np.ndarray:
    """``x / (1 + |x|)``: the map of the unbounded fields into ``(-1, 1)``."""
    return x / (1.0 + np.abs(x))


# per game: (squashed fields, {field: (low, high)}) ; "HAND_SIZES" high is computed from the deck
_SPEC: dict[str, tuple[tuple[str, ...], dict[str, tuple[float, float]]]] = {
    "dreierles": (("RESULT",), {"HAND_SIZES": (0.0, 54 / 18)}),
    "dreiertarock": (("RESULT",), {"HAND_SIZES": (0.0, 54 / 19)}),
    "tatteln": (("PILE_POINTS", "MELD_POINTS", "ANN_POINTS", "DEAL_POINTS", "RESULT"), {"ANN_KEYS": (0.0, 255 / 144)}),
    "troccas": (("BALANCE",), {"HAND_SIZES": (0.0, 78 / 21), "RESULT": (-1.0, 1.0)}),
}

_CACHE: dict[tuple, ObservationBounds] = {}


def _offsets_and_sizes(game: Game) -> tuple[dict[str, int], int]:
    mod = importlib.import_module(f"tarockrl.games.{game.name}.observe")
    if game.name == "tatteln":
        rules = game.rules
        offs = mod.obs_offsets(int(rules.deck_size), int(rules.max_window_length))
    else:
        offs = dict(mod.OBS_OFFSETS)
    return offs, game.observation_size


def observation_bounds(game: Game) -> ObservationBounds:
    """The bounds of ``game``'s env observations (module docstring); ``[0, 1]`` everywhere for unknown games."""
    key = (game.name, game.observation_size, repr(getattr(game, "options", None)))
    if key in _CACHE:
        return _CACHE[key]
    n = game.observation_size
    low = np.zeros(n, np.float32)
    high = np.ones(n, np.float32)
    squashed: list[int] = []
    if game.name in _SPEC:
        names, special = _SPEC[game.name]
        offs, total = _offsets_and_sizes(game)
        ends = sorted(set(offs.values()) | {total})
        size = {k: ends[ends.index(v) + 1] - v for k, v in offs.items()}
        for k in names:
            sl = np.arange(offs[k], offs[k] + size[k])
            squashed.extend(sl.tolist())
            low[sl], high[sl] = -1.0, 1.0
        for k, (lo, hi) in special.items():
            low[offs[k]: offs[k] + size[k]] = lo
            high[offs[k]: offs[k] + size[k]] = hi
    out = ObservationBounds(low=low, high=high, squashed=np.array(sorted(squashed), dtype=np.int64))
    _CACHE[key] = out
    return out
