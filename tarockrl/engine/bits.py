"""Bit helpers for int64 card masks.

A set of cards is an ``int64`` whose bit ``i`` stands for card ``i`` of a game's canonical index. Every helper
here takes and returns ``int64`` only, so kernels never drift into ``uint64`` or ``float64``.

Every LLVM intrinsic of the package lives here, once: under the JIT ``popcount``, ``lowest_index`` and
``highest_index`` compile to the hardware instructions (LLVM ``ctpop``, ``cttz``, ``ctlz``), and ``pdep`` to
x86 BMI2 ``pdep`` where the CPU has a fast one (``FAST_PDEP``; :func:`tarockrl.engine.select.select_bit` uses it);
``prefetch_read`` / ``prefetch_write`` are cache hints, and ``store_bits8`` writes 8 bits of a mask as 8 array
entries (0/1) in one unaligned store (the observation kernels' one-hot blocks, :mod:`tarockrl.engine.obsput`);
``stream_store16`` copies 16 bytes with a non-temporal (streaming) store, which writes a large output buffer
without first reading its cache lines (the env drivers' observations, :mod:`tarockrl.envs._kernel_template`),
and ``address_of`` gives the address of an array's data (to check the alignment such a store needs);
``store_fence`` orders streaming stores before every later store (x86 ``sfence``), so another thread that is
told the work is done sees them.
With ``NUMBA_DISABLE_JIT=1`` plain-Python versions with the same results are used instead, so the whole engine
also runs (slowly) as ordinary Python for debugging and coverage.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

__all__ = [
    "FAST_PDEP",
    "popcount",
    "lowest_index",
    "highest_index",
    "pdep",
    "nth_set_index",
    "prefetch_read",
    "prefetch_write",
    "store_bits8",
    "stream_store16",
    "address_of",
    "store_fence",
]


if numba.config.DISABLE_JIT:  # pragma: no cover - exercised by the JIT-off subprocess test

    def popcount(x):
        """Number of set bits of a non-negative int64 mask."""
        return np.int64(bin(int(x)).count("1"))

    def lowest_index(x):
        """Index of the lowest set bit (x must be non-zero)."""
        x = int(x)
        return np.int64((x & -x).bit_length() - 1)

    def highest_index(x):
        """Index of the highest set bit of an int64 (-1 when x is 0; 63 for a negative x)."""
        x = int(x)
        if x < 0:
            return np.int64(63)
        return np.int64(x.bit_length() - 1)

    FAST_PDEP = False
    pdep = None

    def prefetch_read(arr, index):
        """A hint (no effect here): element ``index`` of the flat buffer of ``arr`` will be read soon."""

    def prefetch_write(arr, index):
        """A hint (no effect here): element ``index`` of the flat buffer of ``arr`` will be written soon."""

    def store_bits8(arr, index, bits):
        """``arr[index + i] = (bits >> i) & 1`` for ``i`` in 0..7 (``arr``: a 1-d C-contiguous numeric array)."""
        for i in range(8):
            arr[index + i] = (int(bits) >> i) & 1

    def stream_store16(dst, dindex, src, sindex):
        """``dst[dindex:dindex + 16] = src[sindex:sindex + 16]`` (1-byte dtypes; here an ordinary copy)."""
        dst[dindex:dindex + 16] = src[sindex:sindex + 16]

    def address_of(arr):
        """Address of the first element of ``arr`` (an int64)."""
        return np.int64(arr.ctypes.data)

    def store_fence():
        """Order earlier streaming stores before later stores (nothing to do here)."""

else:
    import llvmlite.binding as _llvm_binding
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    def _unary_int64(x, name, zero_poison):
        """Typing and code of the int64 -> int64 LLVM intrinsic ``name`` (``zero_poison``: its i1 flag, or None)."""
        if x != types.int64:
            return None

        def codegen(context, builder, signature, args):
            if zero_poison is None:
                fn = builder.module.declare_intrinsic(name, [ir.IntType(64)])
                return builder.call(fn, [args[0]])
            fn = builder.module.declare_intrinsic(name, [ir.IntType(64), ir.IntType(1)])
            return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), zero_poison)])

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctpop(typingctx, x):
        """LLVM ``ctpop`` on an int64."""
        return _unary_int64(x, "llvm.ctpop", None)

    @intrinsic
    def _cttz(typingctx, x):
        """LLVM ``cttz`` on an int64 (the result for 0 is 64)."""
        return _unary_int64(x, "llvm.cttz", 0)

    @njit(cache=True, inline="always")
    def popcount(x):
        """Number of set bits of an int64 mask."""
        return _ctpop(np.int64(x))

    @intrinsic
    def _ctlz(typingctx, x):
        """LLVM ``ctlz`` on an int64 (the result for 0 is 64)."""
        return _unary_int64(x, "llvm.ctlz", 0)

    @njit(cache=True, inline="always")
    def lowest_index(x):
        """Index of the lowest set bit (64 when x is 0)."""
        return _cttz(np.int64(x))

    @njit(cache=True, inline="always")
    def highest_index(x):
        """Index of the highest set bit of an int64 (-1 when x is 0; 63 for a negative x)."""
        return np.int64(63) - _ctlz(np.int64(x))

    def _prefetch(arr, index, write):
        """Typing and code of LLVM ``prefetch`` (into every cache level) of element ``index`` of ``arr``'s buffer."""
        if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            ary = context.make_array(signature.args[0])(context, builder, args[0])
            itemsize = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
            i64 = ir.IntType(64)
            offset = builder.mul(context.cast(builder, args[1], signature.args[1], types.int64), i64(itemsize))
            ptr = ir.IntType(8).as_pointer()
            addr = builder.inttoptr(builder.add(builder.ptrtoint(ary.data, i64), offset), ptr)
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [ptr, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            builder.call(fn, [addr, i32(1 if write else 0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(arr, index), codegen

    @intrinsic
    def prefetch_read(typingctx, arr, index):
        """A hint: element ``index`` of the flat (C-contiguous) buffer of ``arr`` will be read soon (LLVM
        ``prefetch``; never faults, so an index past the end is harmless)."""
        return _prefetch(arr, index, False)

    @intrinsic
    def prefetch_write(typingctx, arr, index):
        """A hint: element ``index`` of the flat (C-contiguous) buffer of ``arr`` will be written soon."""
        return _prefetch(arr, index, True)

    def _store_bits8(arr, index, bits, use_pdep):
        """Typing and code of :func:`store_bits8`: one unaligned store of 8 entries (a byte spread by ``pdep``
        into an int64 for 1-byte dtypes where it is fast; otherwise 8 lanes shifted, masked and converted)."""
        if (not isinstance(arr, types.Array) or arr.ndim != 1 or arr.layout != "C"
                or not isinstance(arr.dtype, (types.Integer, types.Float)) or not isinstance(index, types.Integer)
                or bits != types.int64):
            return None

        def codegen(context, builder, signature, args):
            aty = signature.args[0]
            ary = context.make_array(aty)(context, builder, args[0])
            elem = context.get_data_type(aty.dtype)
            itemsize = context.get_abi_sizeof(elem)
            i64, i32 = ir.IntType(64), ir.IntType(32)
            index = context.cast(builder, args[1], signature.args[1], types.int64)
            addr = builder.add(builder.ptrtoint(ary.data, i64), builder.mul(index, i64(itemsize)))
            if itemsize == 1 and use_pdep:
                fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
                value = builder.call(fn, [builder.and_(args[2], i64(0xFF)), i64(0x0101010101010101)])
            else:
                vec = ir.VectorType(i32, 8)
                lane = builder.insert_element(ir.Constant(vec, None), builder.trunc(args[2], i32), i32(0))
                splat = builder.shuffle_vector(lane, ir.Constant(vec, None), ir.Constant(vec, [0] * 8))
                flags = builder.and_(builder.lshr(splat, ir.Constant(vec, list(range(8)))), ir.Constant(vec, [1] * 8))
                out_ty = ir.VectorType(elem, 8)
                if isinstance(aty.dtype, types.Float):
                    value = builder.uitofp(flags, out_ty)
                elif itemsize < 4:
                    value = builder.trunc(flags, out_ty)
                elif itemsize > 4:
                    value = builder.zext(flags, out_ty)
                else:
                    value = flags
            store = builder.store(value, builder.inttoptr(addr, value.type.as_pointer()))
            store.align = 1
            return context.get_dummy_value()

        return types.void(arr, index, bits), codegen

    try:
        _HAS_BMI2 = "+bmi2" in _llvm_binding.get_host_cpu_features().flatten().split(",")
        # AMD before Zen 3 implements pdep in microcode (hundreds of cycles): callers use a broadword select there
        FAST_PDEP = _HAS_BMI2 and _llvm_binding.get_host_cpu_name() not in ("bdver4", "znver1", "znver2")
    except Exception:  # pragma: no cover - exotic hosts
        FAST_PDEP = False

    if FAST_PDEP:

        @intrinsic
        def pdep(typingctx, src, mask):
            """x86 BMI2 ``pdep`` on int64 (only where ``FAST_PDEP``)."""
            if src != types.int64 or mask != types.int64:
                return None

            def codegen(context, builder, signature, args):
                fn = builder.module.declare_intrinsic(
                    "llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
                )
                return builder.call(fn, [args[0], args[1]])

            return types.int64(types.int64, types.int64), codegen

    else:  # pragma: no cover - CPUs without a fast pdep
        pdep = None

    @intrinsic
    def store_bits8(typingctx, arr, index, bits):
        """``arr[index + i] = (bits >> i) & 1`` for ``i`` in 0..7, as one unaligned store (``arr``: a 1-d
        C-contiguous integer or float array; entries ``index .. index + 7`` must lie inside it, unchecked)."""
        return _store_bits8(arr, index, bits, FAST_PDEP)


    @intrinsic
    def stream_store16(typingctx, dst, dindex, src, sindex):
        """``dst[dindex:dindex + 16] = src[sindex:sindex + 16]`` for arrays of a 1-byte dtype, written by one
        non-temporal 16-byte store (x86 ``movntdq``): the bytes go to memory without the destination's cache line
        being read first. The destination address must be 16-byte aligned and every index inside the arrays
        (unchecked); a sequence of such stores should fill whole 64-byte lines."""
        if (not isinstance(dst, types.Array) or not isinstance(src, types.Array) or dst.dtype.bitwidth != 8
                or src.dtype.bitwidth != 8 or not isinstance(dindex, types.Integer)
                or not isinstance(sindex, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            d = context.make_array(signature.args[0])(context, builder, args[0])
            s = context.make_array(signature.args[2])(context, builder, args[2])
            vec = ir.VectorType(i64, 2)
            da = builder.add(builder.ptrtoint(d.data, i64), context.cast(builder, args[1], signature.args[1],
                                                                         types.int64))
            sa = builder.add(builder.ptrtoint(s.data, i64), context.cast(builder, args[3], signature.args[3],
                                                                         types.int64))
            value = builder.load(builder.inttoptr(sa, vec.as_pointer()), align=1)
            store = builder.store(value, builder.inttoptr(da, vec.as_pointer()))
            store.align = 16
            store.set_metadata("nontemporal", builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)]))
            return context.get_dummy_value()

        return types.void(dst, dindex, src, sindex), codegen

    @intrinsic
    def address_of(typingctx, arr):
        """Address of the first element of ``arr`` (an int64)."""
        if not isinstance(arr, types.Array):
            return None

        def codegen(context, builder, signature, args):
            a = context.make_array(signature.args[0])(context, builder, args[0])
            return builder.ptrtoint(a.data, ir.IntType(64))

        return types.int64(arr), codegen

    try:
        _X86 = _llvm_binding.get_process_triple().split("-")[0] in ("x86_64", "i386", "i686")
    except Exception:  # pragma: no cover - exotic hosts
        _X86 = False

    @intrinsic
    def store_fence(typingctx):
        """Order the streaming stores before it (:func:`stream_store16`) before every later store: x86 ``sfence``
        (elsewhere a sequentially consistent fence)."""

        def codegen(context, builder, signature, args):
            if _X86:
                fn = builder.module.declare_intrinsic("llvm.x86.sse.sfence", fnty=ir.FunctionType(ir.VoidType(), []))
                builder.call(fn, [])
            else:  # pragma: no cover - other architectures
                builder.fence("seq_cst")
            return context.get_dummy_value()

        return types.void(), codegen


@njit(cache=True)
def nth_set_index(x, n):
    """Index of the ``n``-th set bit of ``x`` counting from the lowest (n = 0 is the lowest)."""
    for _ in range(n):
        x &= x - 1
    return lowest_index(x)


