"""Observation entries that are not one-hot bits, written into a float32 vector or directly as integer codes.

A game's ``observe`` kernel writes its one-hot bits as ``out[j] = 1.0`` and its counts and settlements through
:func:`put_count` (a field that is never negative) and :func:`put_signed` (a field that may be), so the same
kernel serves two kinds of output array:

* ``float32`` (the engine's vectors): ``out[j] = num / den``, exactly what ``out[j] = num / den`` wrote before;
* ``uint8`` / ``int8`` (the compact codes of :mod:`tarockrl.games.obs_dtype`): the code of that float32 value,
  ``clip(rint(x * den), lo, hi)`` with ``x = float32(num / den)``, written in the same pass. A field that may be
  negative is written as its ``int8`` code in both dtypes; in a ``uint8`` array the caller then flips bit 7 of
  every signed entry (:func:`flip_signed`), which turns the ``int8`` code ``q`` into the ``uint8`` code
  ``q + 128`` and an entry the kernel left at 0 into 128, the code of 0.0.

The bits of a code array equal the float values after a cast, so ``out[j] = 1.0`` needs no helper; a whole
block of one-hot entries given as a bit mask (a hand, the cards a seat played) is written by :func:`put_bits`,
8 entries per store, zeros included (so the block needs no clearing first). numba picks the implementation from
the array's dtype at compile time (:func:`numba.extending.overload`); the plain Python functions below do the
same at run time (``NUMBA_DISABLE_JIT=1``).

For an integer ``num`` (every count and settlement of the games is one) the code is ``num`` itself clipped to
the dtype's range: ``float32(num / den) * den`` lies within ``|num| * 2**-23`` of ``num``, so rounding gives
``num`` back wherever it is inside the range, and a value outside clips to the same end either way. The
kernels then skip the float arithmetic; the codes are the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from tarockrl.engine.bits import store_bits8

__all__ = ["put_count", "put_signed", "put_bits", "flip_signed"]


def _code(num, den, lo: int, hi: int) -> int:
    """The clipped code of ``float32(num / den)`` (the rule of :mod:`tarockrl.games.obs_dtype`, offset 0)."""
    v = np.rint(np.float64(np.float32(num / den)) * den)
    return int(min(max(v, lo), hi))


def put_count(out, j, num, den):
    """``out[j] = num / den`` (float array) or its code (integer array) for a field that is never negative."""
    if out.dtype.kind == "f":
        out[j] = num / den
    else:
        info = np.iinfo(out.dtype)
        out[j] = _code(num, den, max(int(info.min), -128), min(int(info.max), 255))


def put_signed(out, j, num, den):
    """``out[j] = num / den`` (float array) or its ``int8`` code (integer array; see :func:`flip_signed`)."""
    if out.dtype.kind == "f":
        out[j] = num / den
    else:
        out[j] = _code(num, den, -128, 127) & (0xFF if out.dtype == np.uint8 else -1)


def put_bits(out, j, word, n):
    """``out[j + i] = (word >> i) & 1`` for ``i < n`` (``n <= 64``): a block of one-hot entries from a bit mask."""
    for i in range(n):
        out[j + i] = (int(word) >> i) & 1


@overload(put_bits)
def _put_bits_impl(out, j, word, n):
    if out.ndim != 1 or out.layout != "C":
        def impl_any(out, j, word, n):
            for i in range(n):
                out[j + i] = (word >> i) & 1
        return impl_any

    def impl(out, j, word, n):
        w = np.int64(word)
        if n < 8:
            for i in range(n):
                out[j + i] = (w >> i) & 1
            return
        k = 0
        while k + 8 <= n:
            store_bits8(out, j + k, w >> k)
            k += 8
        if k < n:  # the last 8 entries again (the overlap is rewritten with the same values)
            store_bits8(out, j + n - 8, w >> (n - 8))
    return impl


@overload(put_count)
def _put_count_impl(out, j, num, den):
    if isinstance(out.dtype, types.Float):
        def impl(out, j, num, den):
            out[j] = num / den
        return impl
    lo = -128 if out.dtype.signed else 0
    hi = 127 if out.dtype.signed else 255
    if isinstance(num, types.Integer):
        def impl_int(out, j, num, den):
            out[j] = min(max(np.int64(num), lo), hi)
        return impl_int

    def impl_code(out, j, num, den):
        v = np.rint(np.float64(np.float32(num / den)) * den)
        out[j] = np.int64(min(max(v, lo), hi))
    return impl_code


@overload(put_signed)
def _put_signed_impl(out, j, num, den):
    if isinstance(out.dtype, types.Float):
        def impl(out, j, num, den):
            out[j] = num / den
        return impl
    mask = 0xFF if not out.dtype.signed else -1
    if isinstance(num, types.Integer):
        def impl_int(out, j, num, den):
            out[j] = min(max(np.int64(num), -128), 127) & mask
        return impl_int

    def impl_code(out, j, num, den):
        v = np.rint(np.float64(np.float32(num / den)) * den)
        out[j] = np.int64(min(max(v, -128.0), 127.0)) & mask
    return impl_code


@njit(cache=True, inline="always")
def flip_signed(out, signed):
    """Flip bit 7 of the entries ``signed`` (int64 indices) of a ``uint8`` code row written by a kernel."""
    for j in signed:
        out[j] ^= 0x80
