"""Compact observations: the observation vector as ``uint8`` or ``int8`` codes instead of ``float32``.

Every game's observation is mostly one-hot bits (cards, seats, phases); the other entries are counts divided by a
constant (hand sizes / 18, card points / 70, ...) and a few settlements in game points divided by a constant. The
compact form stores entry ``j`` as the integer code::

    q[j] = clip(rint(x[j] * DEN[j] + OFF[j]), dtype min, dtype max)        x[j] = (q[j] - OFF[j]) / DEN[j]

``DEN[j] = 1`` and ``OFF[j] = 0`` for the binary entries, so there the code *is* the float value (equal after a
cast); for a count ``DEN`` is its divisor, so the code is the count itself. ``OFF`` is 0 except for signed fields
under ``uint8`` (128). Decoding is exact wherever the code did not clip: every binary entry and every count
fits, while the **settlement fields** (``RESULT`` of every game, Tatteln's ``DEAL_POINTS``, ``ANN_POINTS`` and
``MELD_POINTS``, Troccas' ``BALANCE``) clip at the dtype's range (``int8``: -128..127 units of the field's
divisor, i.e. game points for most of them; ``uint8``: -128..127 through the offset). Dreierles ``POINTS`` with
``counting_method="exact_thirds"`` (up to 210) clip under ``int8``. Use ``float32`` when those fields matter.

:func:`observation_codes` gives ``(DEN, OFF)`` for a game and dtype; :func:`decode_observations` turns codes back
into floats. The codes are written by the games' ``observe`` kernels themselves, in the same pass as the bits
(:mod:`tarockrl.engine.obsput`), through the batch driver (``Batch.observations``) and the env drivers
(:mod:`tarockrl.envs._kernel_template`); no float32 vector is written on the way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tarockrl.errors import BadOptionError

__all__ = ["OBS_DTYPES", "check_obs_dtype", "observation_codes", "decode_observations", "dtype_range",
           "signed_entries"]

OBS_DTYPES = ("float32", "uint8", "int8")

# per game: field -> (divisor (a number or a function of the rules), signed)
_FIELDS: dict[str, dict[str, tuple[float | Callable[[Any], float], bool]]] = {
    "dreierles": {
        "N_DISCARDS": (3, False), "N_KNOCKS": (3, False), "HAND_SIZES": (18, False), "TRICK_NO": (16, False),
        "POINTS": (lambda r: 210 if r.counting_method == "exact_thirds" else 70, False), "RESULT": (32, True),
    },
    "dreiertarock": {
        "HAND_SIZES": (19, False), "N_DISCARDS": (3, False), "TRICK_NO": (16, False), "RESULT": (100, True),
    },
    "troccas": {
        "BALANCE": (36, True), "REDEAL_KINDS": (10, False), "HAND_SIZES": (21, False), "N_SCART": (2, False),
        "TRICKS_WON": (19, False), "POINTS": (72, False), "RESULT": (36, True), "TRICK_NO": (19, False),
    },
    "tatteln": {
        "TRICK_NO": (lambda r: r.deck_size // 2, False),
        "STOCK_SIZE": (lambda r: r.deck_size - 2 * r.hand_size, False),
        "PILE_POINTS": (162, False), "FINAL_WON": (lambda r: r.hand_size, False), "MELD_POINTS": (162, False),
        "ANN_KEYS": (144, False), "ANN_POINTS": (162, True), "DEAL_POINTS": (162, True), "RESULT": (162, True),
    },
}
_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def check_obs_dtype(obs_dtype: Any) -> np.dtype:
    """The numpy dtype of ``obs_dtype`` (``"float32"``, ``"uint8"``, ``"int8"`` or the numpy types); anything else
    raises :class:`BadOptionError` naming the choices."""
    try:
        dt = np.dtype(obs_dtype)
    except TypeError:
        dt = None
    if dt is None or dt.name not in OBS_DTYPES or isinstance(obs_dtype, bool):
        raise BadOptionError(f"obs_dtype must be one of {', '.join(OBS_DTYPES)}, got {obs_dtype!r}")
    return dt


def dtype_range(dt: np.dtype) -> tuple[int, int]:
    """The smallest and largest code of an integer observation dtype."""
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def _offsets(game: Any) -> dict[str, int]:
    import importlib

    mod = importlib.import_module(f"tarockrl.games.{game.name}.observe")
    if game.name == "tatteln":
        return mod.obs_offsets(int(game.rules.deck_size), int(game.rules.max_window_length))
    return dict(mod.OBS_OFFSETS)


def observation_codes(game: Any, obs_dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(DEN, OFF)``, float64 arrays of ``game.observation_size``, for ``obs_dtype`` (module docstring).

    For ``float32`` both are the identity (``DEN`` ones, ``OFF`` zeros). Read-only arrays, cached per game.
    """
    dt = check_obs_dtype(obs_dtype)
    key = (game.name, repr(game.rules), dt.name)
    if key in _CACHE:
        return _CACHE[key]
    n = game.observation_size
    den = np.ones(n, np.float64)
    off = np.zeros(n, np.float64)
    if dt.name != "float32":
        if game.name not in _FIELDS:
            raise BadOptionError(f"obs_dtype={dt.name} is not described for the game {game.name!r} (float32 only)")
        offs = _offsets(game)
        ends = sorted(set(offs.values()) | {n})
        for field, (divisor, signed) in _FIELDS[game.name].items():
            start = offs[field]
            stop = ends[ends.index(start) + 1]
            den[start:stop] = divisor(game.rules) if callable(divisor) else divisor
            if signed and dt.name == "uint8":
                off[start:stop] = 128.0
    den.setflags(write=False)
    off.setflags(write=False)
    _CACHE[key] = (den, off)
    return den, off


def decode_observations(codes: np.ndarray, game: Any) -> np.ndarray:
    """float32 observations from ``uint8``/``int8`` codes (exact where no settlement field clipped)."""
    codes = np.asarray(codes)
    den, off = observation_codes(game, codes.dtype)
    return ((codes.astype(np.float64) - off) / den).astype(np.float32)


def signed_entries(game: Any, obs_dtype: Any) -> np.ndarray:
    """int64 indices of the entries whose code carries the offset 128 (signed fields under ``uint8``; none
    otherwise). The kernels write those as ``int8`` codes and the drivers flip their bit 7
    (:mod:`tarockrl.engine.obsput`)."""
    return np.flatnonzero(observation_codes(game, obs_dtype)[1]).astype(np.int64)
