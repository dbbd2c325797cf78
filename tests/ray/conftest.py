"""A local Ray instance for the Ray tests, started once (``ray.init(num_cpus=2)``); skipped without Ray.

With ``RAY_ADDRESS`` set, the tests join that cluster instead (e.g. one started with ``ray start --head
--num-cpus=2`` beforehand, on a machine too loaded for Ray's 30-second start-up limit).
"""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def ray_local():
    """A two-CPU local Ray instance whose workers import this checkout of tarockrl."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'tarockrl[ray]'): Ray tests skipped")
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if str(ROOT) not in paths:  # the workers are started with this environment
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *paths])
    for attempt in range(3):  # Ray gives its node 30 s to come up, which a loaded 2-core machine can miss
        if ray.is_initialized():
            break
        try:
            if os.environ.get("RAY_ADDRESS"):
                ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False)
            else:
                ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        except Exception:
            ray.shutdown()
            if attempt == 2:
                raise
    yield ray
    ray.shutdown()
