"""Counter-based random numbers for kernels (SplitMix64 on int64).

Every random stream is an ``int64`` state that the caller threads through explicitly:
``state, value = next_u64(state)``. A game's stream is derived from ``(seed, stream_id)`` alone
(``stream_seed``), so a deal or a random playout never depends on the number of threads, the batch size
or the order in which games are processed.

All arithmetic wraps modulo 2**64 on int64, which is the two's-complement image of the reference
SplitMix64 on uint64: the outputs are bit-identical to it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

__all__ = ["mix64", "stream_seed", "next_u64", "below", "shuffle_prefix"]

if numba.config.DISABLE_JIT:  # pragma: no cover - plain-Python mode wraps int64 on purpose
    np.seterr(over="ignore")

GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))
MIX_A = np.int64(0xBF58476D1CE4E5B9 - (1 << 64))
MIX_B = np.int64(0x94D049BB133111EB - (1 << 64))
STREAM_SALT = np.int64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def _shr(z, k):
    """Logical (unsigned) right shift of an int64 by ``k`` bits, 0 < k < 64."""
    return (z >> np.int64(k)) & ((np.int64(1) << np.int64(64 - k)) - np.int64(1))


@njit(cache=True)
def mix64(z):
    """The SplitMix64 finaliser: a bijective 64-bit mix."""
    z = np.int64(z)
    z = (z ^ _shr(z, 30)) * MIX_A
    z = (z ^ _shr(z, 27)) * MIX_B
    return z ^ _shr(z, 31)


@njit(cache=True)
def stream_seed(seed, stream_id):
    """The starting state of stream ``stream_id`` under ``seed`` (distinct ids give distinct states)."""
    return mix64(mix64(np.int64(seed) ^ STREAM_SALT) + np.int64(stream_id) * GOLDEN)


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance ``state``; return ``(new_state, 64 random bits as int64)``."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, inline="always")
def below(state, n):
    """Advance ``state``; return ``(new_state, r)`` with ``r`` uniform in ``[0, n)`` for ``0 < n < 2**31``."""
    state, z = next_u64(state)
    return state, (_shr(z, 33) * np.int64(n)) >> np.int64(31)


@njit(cache=True)
def shuffle_prefix(state, values, count):
    """Fisher-Yates shuffle of ``values[:count]`` in place; returns the new generator state."""
    for i in range(count - 1, 0, -1):
        state, j = below(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
    return state
