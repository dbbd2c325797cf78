"""Bit helpers of the solver adapters: parallel bit extract (``pext``) on int64 masks.

``pext(x, m)`` gathers the bits of ``x`` at the set bits of ``m`` into the low bits of the result, in order
(bit ``i`` of the result is bit ``x`` at the ``i``-th lowest set bit of ``m``), as x86 BMI2 ``pext`` does. The
solver's rank keys use it to read a hand "compressed by rank" over the cards still in play (see
:func:`tarockrl.solvers.adapters.dreierles.rank_key`).

Under the JIT ``pext`` compiles to the BMI2 instruction (LLVM ``llvm.x86.bmi.pext.64``) where the host CPU has a
fast one (``FAST_PEXT``, checked at import like :data:`tarockrl.engine.bits.FAST_PDEP`: AMD before Zen 3
implements it in microcode, hundreds of cycles); elsewhere it is :func:`pext_soft`, a portable compress
(Hacker's Delight 7-4: six rounds of shifts and masks, independent of the number of bits) with the same
results, so keys and search results do not depend on the CPU. With ``NUMBA_DISABLE_JIT=1`` both are plain Python.

``unmanaged(arr)`` is the same array without numba's reference counting (a view whose meminfo is NULL): the views
the search takes of it (a stack row, a table entry) and the arrays it passes to the adapters' kernels then cost no
atomic reference count updates (an ``NRT_incref``/``NRT_decref`` on a NULL meminfo returns at once). It must not
outlive ``arr``: the search applies it to its arguments, which its caller keeps alive.

These live here, not in :mod:`tarockrl.engine.bits`, so that adding them recompiles the solvers only.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

__all__ = ["FAST_PEXT", "pext", "pext_soft", "unmanaged"]

ONE = np.int64(1)


@njit(cache=True, inline="always")
def _lsr(z, k):
    """Logical right shift of an int64 by ``k`` bits (0 < k < 64)."""
    return (z >> np.int64(k)) & ~(np.int64(-1) << np.int64(64 - k))


@njit(cache=True, inline="always")
def pext_soft(x, m):
    """``pext(x, m)`` without BMI2: the bits of ``x`` at the set bits of ``m``, packed into the low bits in order
    (Hacker's Delight, "compress", 7-4; int64 in and out, every bit pattern allowed)."""
    x = np.int64(x) & np.int64(m)
    m = np.int64(m)
    mk = ~m << ONE  # counts the zeros of m to the right of each bit
    for i in range(6):
        mp = mk ^ (mk << ONE)  # parallel suffix (prefix from the low end) parity
        mp ^= mp << np.int64(2)
        mp ^= mp << np.int64(4)
        mp ^= mp << np.int64(8)
        mp ^= mp << np.int64(16)
        mp ^= mp << np.int64(32)
        mv = mp & m  # the bits of m that move right by 2**i
        s = np.int64(1) << np.int64(i)
        m = (m ^ mv) | _lsr(mv, s)
        t = x & mv
        x = (x ^ t) | _lsr(t, s)
        mk = mk & ~mp
    return x


if numba.config.DISABLE_JIT:  # pragma: no cover - exercised only with NUMBA_DISABLE_JIT=1
    FAST_PEXT = False

    def unmanaged(arr):
        """The array itself (plain Python has no reference counting to skip)."""
        return arr

    def pext(x, m):
        """The bits of ``x`` at the set bits of ``m``, packed into the low bits in order (plain Python)."""
        x = int(x) & (2**64 - 1)
        m = int(m) & (2**64 - 1)
        r = 0
        k = 0
        while m:
            low = m & -m
            if x & low:
                r |= 1 << k
            k += 1
            m ^= low
        return np.int64(r - (1 << 64) if r >= 1 << 63 else r)

else:
    import llvmlite.binding as _llvm_binding
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic
    try:  # numba's internal helper; should a future numba move it, the search keeps its reference counts
        from numba.np.arrayobj import populate_array
    except ImportError:  # pragma: no cover - depends on the numba version
        populate_array = None

    if populate_array is None:  # pragma: no cover - depends on the numba version

        @njit(cache=True, inline="always")
        def unmanaged(arr):
            """The array itself (this numba lacks the helper the reference-count-free view needs)."""
            return arr

    else:

        @intrinsic
        def unmanaged(typingctx, arr):
            """``arr`` without reference counting: the same data, shape and strides, a NULL meminfo and parent (so
            numba's ``NRT_incref``/``NRT_decref`` on it and on its views do nothing). Valid only while ``arr`` is
            alive."""
            if not isinstance(arr, types.Array):
                return None

            def codegen(context, builder, signature, args):
                src = context.make_array(signature.args[0])(context, builder, args[0])
                out = context.make_array(signature.return_type)(context, builder)
                populate_array(out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize,
                               meminfo=None, parent=None)
                return out._getvalue()

            return arr(arr), codegen

    try:
        _HAS_BMI2 = "+bmi2" in _llvm_binding.get_host_cpu_features().flatten().split(",")
        _X86 = _llvm_binding.get_process_triple().split("-")[0] == "x86_64"
        # AMD before Zen 3 implements pext in microcode (hundreds of cycles): the portable compress is faster
        FAST_PEXT = _X86 and _HAS_BMI2 and _llvm_binding.get_host_cpu_name() not in ("bdver4", "znver1", "znver2")
    except Exception:  # pragma: no cover - exotic hosts
        FAST_PEXT = False

    if FAST_PEXT:

        @intrinsic
        def _pext_hw(typingctx, src, mask):
            """x86 BMI2 ``pext`` on int64 (only where ``FAST_PEXT``)."""
            if src != types.int64 or mask != types.int64:
                return None

            def codegen(context, builder, signature, args):
                i64 = ir.IntType(64)
                fn = builder.module.declare_intrinsic("llvm.x86.bmi.pext.64", fnty=ir.FunctionType(i64, [i64, i64]))
                return builder.call(fn, [args[0], args[1]])

            return types.int64(types.int64, types.int64), codegen

        @njit(cache=True, inline="always")
        def pext(x, m):
            """The bits of ``x`` at the set bits of ``m``, packed into the low bits in order (BMI2 ``pext``)."""
            return _pext_hw(np.int64(x), np.int64(m))

    else:  # pragma: no cover - CPUs without a fast pext

        @njit(cache=True, inline="always")
        def pext(x, m):
            """The bits of ``x`` at the set bits of ``m``, packed into the low bits in order (portable)."""
            return pext_soft(x, m)
