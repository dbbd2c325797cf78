"""numba's threading layer started without touching torch's (or OpenMP's) thread settings.

numba starts its threading layer lazily, when the first ``parallel=True`` kernel is compiled or loaded from the
cache, or when ``numba.get_num_threads()`` is first called. With the ``omp`` layer (GNU OpenMP, the one numba picks
when torch's ``libgomp`` is loaded) the start calls ``omp_set_num_threads(NUMBA_NUM_THREADS)`` on the calling
thread, and torch reads its intra-op thread count from that same OpenMP setting: ``torch.set_num_threads(1)``
followed by the first ``random_playouts`` or vector env silently became 2 threads. Later numba calls do not change
it. :func:`start_numba_threads` therefore starts the layer once, early (every :class:`tarockrl.Game` calls it when it
is created, and the env runner before reading the thread count), and puts torch's thread count back.
"""

from __future__ import annotations

import sys
import threading

__all__ = ["start_numba_threads", "numba_num_threads"]

_lock = threading.Lock()
_started = False


def start_numba_threads() -> None:
    """Start numba's threading layer now (idempotent), keeping ``torch.get_num_threads()`` as it was."""
    global _started
    if _started:
        return
    with _lock:
        if _started:
            return
        from numba.np.ufunc import parallel

        if not getattr(parallel, "_is_initialized", False):
            torch = sys.modules.get("torch")
            saved = torch.get_num_threads() if torch is not None else None
            parallel._launch_threads()
            if saved is not None and torch.get_num_threads() != saved:
                torch.set_num_threads(saved)
        _started = True


def numba_num_threads() -> int:
    """``numba.get_num_threads()`` without its side effect on torch's thread count."""
    import numba

    start_numba_threads()
    return int(numba.get_num_threads())
