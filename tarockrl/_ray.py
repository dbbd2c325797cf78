"""Ray, imported on demand: the one place that imports :mod:`ray` and connects to a cluster (docs/ray.md).

Nothing in tarockrl imports this module unless a Ray backend is asked for (``backend: ray`` in a training config,
``--backend ray`` on ``tarockrl train`` or ``tarockrl eval``), so Ray stays an optional extra: ``tarockrl[ray]``.
"""

from __future__ import annotations

import os
from pathlib import Path

from tarockrl.errors import TarockError

__all__ = ["RayBackendError", "connect", "require_ray", "died_errors"]


class RayBackendError(TarockError):
    """Ray is missing, cannot be reached, or an actor died more often than its restarts allow."""


def require_ray():
    """Import and return :mod:`ray`, or raise :class:`RayBackendError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayBackendError("the Ray backend needs the ray package: pip install 'tarockrl[ray]' "
                              "(or pip install 'ray>=2.9')") from None
    return ray


def connect(address: str | None, num_cpus: int | None = None) -> bool:
    """Join the Ray cluster at ``address`` (or ``$RAY_ADDRESS``) or start a local instance; True when this call
    started Ray (and so should shut it down).

    Ray already initialised in this process (a test, a notebook) is used as it is. A local instance inherits this
    process's environment; the folder holding this ``tarockrl`` is put first on its ``PYTHONPATH`` so that the
    workers import the same code as this process (the nodes of a cluster need tarockrl installed, see docs/ray.md).
    """
    ray = require_ray()
    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or None  # Ray's own variable names a cluster too
    if address is None:
        root = str(Path(__file__).resolve().parents[1])
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        if root not in paths:
            os.environ["PYTHONPATH"] = os.pathsep.join([root, *paths])
    try:
        ray.init(address=address, num_cpus=num_cpus if address is None else None, include_dashboard=False,
                 ignore_reinit_error=True)
    except ConnectionError as err:
        raise RayBackendError(f"cannot reach the Ray cluster at {address!r}: {err}") from None
    return True


def died_errors() -> tuple[type[BaseException], ...]:
    """The exceptions by which Ray reports that an actor died or is unreachable."""
    ray = require_ray()
    return tuple(getattr(ray.exceptions, n) for n in ("RayActorError", "ActorUnavailableError")
                 if hasattr(ray.exceptions, n))
