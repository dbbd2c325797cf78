"""``tarockrl eval --backend ray``: the boards of an evaluation spread over Ray actors (docs/ray.md).

Each actor (:class:`EvalActor`) builds the game, the agents and the boards once, exactly like a worker process of
the local backend (:func:`tarockrl.evaluation.runner._init_worker`, one numba thread), and plays one
``(pair, board)`` unit per call with :func:`tarockrl.evaluation.runner._work`. Every unit is a pure function of its
board, seating and seeds, so the results equal the local backend's; the main process still writes each result line
to ``results.jsonl`` as it arrives, so the run stays resumable and append-only. An actor that dies is restarted by
Ray and its units are played again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tarockrl._ray import RayBackendError, connect, died_errors, require_ray

__all__ = ["EvalActor", "run_units_ray"]


class EvalActor:
    """One evaluation worker (run as a Ray actor): the game, the agents and the boards of the run."""

    def __init__(self, initargs: tuple) -> None:
        """Build everything once (``initargs`` as for the local worker processes)."""
        from tarockrl.evaluation.runner import _init_worker

        _init_worker(*initargs)

    def work(self, task: tuple[int, int, int]) -> dict:
        """Play the pair ``(i, j)`` on board ``b`` in every seating: the unit's result line."""
        from tarockrl.evaluation.runner import _work

        return _work(task)


def run_units_ray(initargs: tuple, todo: Sequence[tuple[int, int, int]], jobs: int | None, address: str | None,
                  on_result: Callable[[dict], Any], max_restarts: int = 10, queue: int = 4) -> int:
    """Play every unit of ``todo`` on Ray actors, calling ``on_result(record)`` in this process as each arrives.

    Args:
        initargs: the worker arguments of :func:`tarockrl.evaluation.runner._init_worker`.
        todo: ``(i, j, board)`` units still to play.
        jobs: actors (None: the CPUs of the cluster).
        address: the cluster to join (None: a local Ray instance, or the one this process already started).
        on_result: receives each unit's result record (writes it to results.jsonl).
        max_restarts: restarts of a dead actor (and replays of one unit) before the evaluation fails.
        queue: units queued per actor.

    Returns the number of actors used.
    """
    ray = require_ray()
    started = connect(address)
    try:
        if jobs is None:
            jobs = max(1, int(ray.cluster_resources().get("CPU", 1)))
        n = max(1, min(int(jobs), len(todo)))
        remote = ray.remote(EvalActor).options(num_cpus=1, max_restarts=max_restarts, max_task_retries=0)
        actors = [remote.remote(initargs) for _ in range(n)]
        died = died_errors()
        pending: dict[Any, tuple[tuple[int, int, int], int, int]] = {}   # ref -> (unit, actor, tries)
        it = iter(todo)

        def submit(task: tuple[int, int, int], actor: int, tries: int) -> None:
            pending[actors[actor].work.remote(task)] = (task, actor, tries)

        for k in range(n * queue):
            task = next(it, None)
            if task is None:
                break
            submit(task, k % n, 0)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            task, actor, tries = pending.pop(ref)
            try:
                record = ray.get(ref)
            except died as err:
                if tries >= max_restarts:
                    raise RayBackendError(f"evaluation unit {task} failed {tries + 1} times: {err}") from None
                submit(task, actor, tries + 1)  # the restarted actor plays it again
                continue
            on_result(record)
            nxt = next(it, None)
            if nxt is not None:
                submit(nxt, actor, 0)
        for a in actors:
            ray.kill(a, no_restart=True)
        return n
    finally:
        if started:
            ray.shutdown()
