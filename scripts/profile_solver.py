#!/usr/bin/env python
"""Where a whole-deal Dreierles solve spends its CPU time, per compiled function, with Linux ``perf``.

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -F 2000 -o /tmp/solver.perf python scripts/profile_solver.py 0
    perf report -i /tmp/solver.perf --no-children --sort sym | grep _ZN

numba's JIT code has no symbols for ``perf``; this script writes them to ``/tmp/perf-PID.map`` (the map file that
``perf report`` reads for JIT code) from the compiled libraries of every loaded numba function. Compile afresh (an
empty ``NUMBA_CACHE_DIR``): functions loaded from numba's on-disk cache do not list their symbols. Functions that
LLVM inlined count as their caller (the search's body holds ``copy_row``, ``apply``, ``hint``, the table probe).
"""

from __future__ import annotations

import os
import sys
import time

import numba

import tarockrl
from tarockrl.solvers import Solver
from tarockrl.solvers.bench import _position


def _write_perf_map() -> int:
    """The addresses of the compiled functions of every loaded numba dispatcher into ``/tmp/perf-PID.map``."""
    syms, seen = [], set()
    for mod in list(sys.modules.values()):
        for obj in list(vars(mod).values()) if mod is not None else ():
            if not isinstance(obj, numba.core.registry.CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                lib = cres.library
                if id(lib) in seen:
                    continue
                seen.add(id(lib))
                try:
                    names = [f.name for f in lib._final_module.functions if not f.is_declaration]
                except Exception:  # noqa: BLE001 - a library without a module: nothing to list
                    continue
                for name in names:
                    try:
                        ptr = lib.get_pointer_to_function(name)
                    except Exception:  # noqa: BLE001
                        continue
                    if ptr:
                        syms.append((ptr, name))
    syms.sort()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, (ptr, name) in enumerate(syms):
            size = syms[i + 1][0] - ptr if i + 1 < len(syms) else 4096
            f.write(f"{ptr:x} {size if 0 < size < 1 << 22 else 4096:x} {name}\n")
    return len(syms)


def main() -> None:
    """Solve one deal to compile, write the map, then solve the deal of the seed given (default 0)."""
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    game = tarockrl.make_game("dreierles")
    sol = Solver("dreierles")
    sol.solve(_position(game, 7, 16), value_only=True, max_nodes=30_000_000)
    print("symbols", _write_perf_map(), file=sys.stderr)
    t = time.process_time()
    r = sol.solve(_position(game, seed, 16), value_only=True, max_nodes=30_000_000)
    print(f"seed {seed} value {r.value} nodes {r.nodes} cpu {time.process_time() - t:.2f} s")


if __name__ == "__main__":
    main()
