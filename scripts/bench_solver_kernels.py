#!/usr/bin/env python
"""Micro-benchmark of the Dreierles solver adapter's kernels: nanoseconds per call, one thread.

    python scripts/bench_solver_kernels.py                 # 500 rows, every kernel
    python scripts/bench_solver_kernels.py --rows 2000 akey gen

The rows come from random card play in the benchmark deals (tarockrl/solvers/bench.py, 16 tricks left; Räuber
deals skipped) at 3 to 9 tricks before the end, where most of a whole-deal search's nodes lie. A few hundred of
them are kept, so they stay in the caches like the search's own rows. Each kernel runs over them many times in a
compiled loop (compile time excluded, best of 5). The figures say what one call costs in isolation. Inside the
search, calls overlap with other work and the table's cache misses come on top.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import tarockrl
from tarockrl.games.dreierles import layout as L
from tarockrl.solvers.adapters import dreierles as A
from tarockrl.solvers.bench import _position

COPY_LEN = A.COPY_LEN
CALLS = 320_000


@njit
def _collect(row0, opts, out, start, seed):
    """Random card plays from ``row0``; rows with 7..13 completed tricks go to ``out[start:]``."""
    np.random.seed(seed)
    moves = np.zeros(A.MAX_MOVES, np.int64)
    reps = np.zeros(A.MAX_MOVES, np.int64)
    k = start
    while k < out.shape[0]:
        r = row0.copy()
        while r[L.PHASE] != L.TERMINAL and k < out.shape[0]:
            if 7 <= r[L.TRICK_NO] <= 13:
                out[k, :] = r
                k += 1
            n = A.gen(r, opts, moves, reps, 0)
            A.apply(r, moves[np.random.randint(n)], opts)
    return k


@njit
def _t_akey(rows, opts, calls):
    s = np.int64(0)
    for i in range(calls):
        s ^= A.akey(rows[i % rows.shape[0]])
    return s


@njit
def _t_key(rows, opts, calls):
    s = np.int64(0)
    for i in range(calls):
        s ^= A.key(rows[i % rows.shape[0]], opts)
    return s


@njit
def _t_bound(rows, opts, calls, lower):
    s = np.int64(0)
    for i in range(calls):
        s += A._rest_bound(rows[i % rows.shape[0]], opts, lower)
    return s


@njit
def _t_gen(rows, opts, calls):
    moves = np.zeros(A.MAX_MOVES, np.int64)
    reps = np.zeros(A.MAX_MOVES, np.int64)
    s = np.int64(0)
    for i in range(calls):
        s += A.gen(rows[i % rows.shape[0]], opts, moves, reps, 1) + reps[1]
    return s


@njit
def _t_gen_hints(rows, opts, calls):
    moves = np.zeros(A.MAX_MOVES, np.int64)
    reps = np.zeros(A.MAX_MOVES, np.int64)
    s = np.int64(0)
    for i in range(calls):
        row = rows[i % rows.shape[0]]
        n = A.gen(row, opts, moves, reps, 1)
        for j in range(n):
            if reps[j] == j:
                s += A.hint(row, opts, moves[j], 0)
    return s


@njit
def _t_gen_hints_ctx(rows, opts, calls):
    moves = np.zeros(A.MAX_MOVES, np.int64)
    reps = np.zeros(A.MAX_MOVES, np.int64)
    s = np.int64(0)
    for i in range(calls):
        row = rows[i % rows.shape[0]]
        n = A.gen(row, opts, moves, reps, 1)
        hc = A.hint_ctx(row, opts, 0)
        for j in range(n):
            if reps[j] == j:
                s += A.hint_at(row, opts, moves[j], 0, hc)
    return s


@njit
def _t_child(rows, opts, calls):
    moves = np.zeros(A.MAX_MOVES, np.int64)
    reps = np.zeros(A.MAX_MOVES, np.int64)
    child = rows[0].copy()
    s = np.int64(0)
    for i in range(calls):
        row = rows[i % rows.shape[0]]
        n = A.gen(row, opts, moves, reps, 0)
        A.copy_row(child, row, COPY_LEN)
        A.apply(child, moves[i % n], opts)
        s += child[L.CUR]
    return s


KERNELS = {"akey": _t_akey, "key": _t_key, "afmin": lambda r, o, c: _t_bound(r, o, c, True),
           "afmax": lambda r, o, c: _t_bound(r, o, c, False), "gen": _t_gen,
           "gen+hints": _t_gen_hints, "gen+hint_ctx": _t_gen_hints_ctx,
           "gen+copy_row+apply": _t_child}


def main() -> None:
    """Parse the arguments, build the rows, print nanoseconds per call of each kernel."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=500)
    ap.add_argument("kernels", nargs="*", help=f"kernels to time (default: all): {', '.join(KERNELS)}")
    args = ap.parse_args()
    unknown = [n for n in args.kernels if n not in KERNELS]
    if unknown:
        ap.error(f"unknown kernels {unknown}; choose from {list(KERNELS)}")
    game = tarockrl.make_game("dreierles")
    opts = game.encoded_options
    states = [s for s in (_position(game, seed, 16) for seed in range(12)) if s is not None
              and s._row[L.RAEUBER] == 0]
    rows = np.zeros((args.rows, states[0]._row.shape[0]), dtype=np.int64)
    per = -(-args.rows // len(states))
    k = 0
    for i, st in enumerate(states):
        k = _collect(st._row.copy(), opts, rows[: min(args.rows, k + per)], k, i)
    rng = np.random.default_rng(0)
    rows = np.ascontiguousarray(rows[rng.permutation(args.rows)])
    for name in args.kernels or KERNELS:
        fn = KERNELS[name]
        fn(rows, opts, 1000)
        best = min(_timed(fn, rows, opts) for _ in range(5))
        print(f"{name:20s} {best / CALLS * 1e9:7.1f} ns per call", flush=True)


def _timed(fn, rows, opts) -> float:
    t0 = time.perf_counter()
    fn(rows, opts, CALLS)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
