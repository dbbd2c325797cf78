"""``tarockrl eval`` as a library call: a round robin of duplicate matches over processes, resumable.

Output directory:

``run.json``
    The settings (game, options, agents, boards and their digest, seeds, control variate). A run resumed in the same
    directory must have the same settings (else an error says which differ).
``results.jsonl``
    One line per finished (pair, board), appended by the main process as results arrive, flushed and fsynced.
    On a restart, complete lines are read back (a torn last line from a kill is cut off), duplicates are ignored,
    and only the missing (pair, board) units are played, so no finished board is lost or counted twice. Every unit
    is a pure function of its board, seating and seeds, so the final numbers equal those of an uninterrupted run.
``records.jsonl``
    With ``records=True``: one game record per played game (:mod:`tarockrl.evaluation.records`), written before
    the unit's result line; on resume records of units without a result line are dropped.
``results.json``, ``report.md``, ``plots/*.png``
    Written at the end (:mod:`tarockrl.evaluation.report`).
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from tarockrl.errors import TarockError
from tarockrl.evaluation.boards import Board, boards_digest
from tarockrl.evaluation.control import make_value_function
from tarockrl.evaluation.match import AgentPool, agent_labels, play_board, summarize_pair
from tarockrl.evaluation.stats import Z95

__all__ = ["run_eval", "read_results", "EvalSettingsError"]

RUN_FORMAT = "tarockrl-eval"
RUN_VERSION = 1
_COMPARED = ("game", "options", "agents", "boards", "boards_digest", "seed", "control_variate")


class EvalSettingsError(TarockError):
    """An output directory that holds a run with other settings than the ones asked for."""


def _write_line(fh, obj: dict) -> None:
    fh.write(json.dumps(obj, separators=(",", ":")) + "\n")
    fh.flush()
    os.fsync(fh.fileno())


def read_results(path: Path) -> dict[tuple[int, int, int], dict]:
    """The complete result lines of ``results.jsonl`` by ``(i, j, board)``; a torn last line is cut off the file."""
    done: dict[tuple[int, int, int], dict] = {}
    if not path.exists():
        return done
    data = path.read_bytes()
    good_end = 0
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break  # no newline: torn by a kill
        line = data[pos:nl]
        try:
            rec = json.loads(line)
            key = (int(rec["pair"][0]), int(rec["pair"][1]), int(rec["board"]))
        except (ValueError, KeyError, TypeError, IndexError):
            break  # a torn or foreign line: everything after it is dropped
        done.setdefault(key, rec)
        pos = nl + 1
        good_end = pos
    if good_end < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(good_end)
            fh.flush()
            os.fsync(fh.fileno())
    return done


def _clean_records(path: Path, done: set[tuple[int, int, int]]) -> None:
    """Keep one record per (pair, board, seating) of finished units only (after a kill)."""
    if not path.exists():
        return
    kept, seen = [], set()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
            key = (int(rec["pair"][0]), int(rec["pair"][1]), int(rec["board"]))
        except (ValueError, KeyError, TypeError, IndexError):
            continue
        full = (*key, rec.get("seating"))
        if key in done and full not in seen:
            seen.add(full)
            kept.append(line)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    os.replace(tmp, path)


# -- worker side ----------------------------------------------------------------------------------------------
_W: dict[str, Any] = {}


def _exit_with_parent(parent: int, period: float = 0.5) -> None:
    """Start a daemon thread that ends this worker process once its parent (the evaluation) is gone.

    A process pool's workers wait on a queue whose pipe they hold open themselves, so they would outlive a parent
    killed by a signal it cannot handle (SIGKILL, SIGTERM, the OOM killer) and keep running orphaned. The thread
    polls the parent pid every ``period`` seconds and exits the process when it has changed (the results already
    saved are in the run directory, and the same command resumes the run).
    """
    import os
    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(period)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="tarockrl-parent-watchdog", daemon=True).start()


def _init_worker(game_name: str, options: dict, specs: list, boards: list[dict], seed: int, cv: str | None,
                 records: bool, labels: list[str], registry: dict[str, str], parent: int = 0) -> None:
    """Process initializer: build the game, agents and boards once per worker process (``parent``: the pid of
    the evaluation process, whose end ends this worker; 0: no watchdog)."""
    import numba

    if parent:
        _exit_with_parent(parent)

    import tarockrl
    from tarockrl.agents import registry as reg

    numba.set_num_threads(1)  # the processes are the parallelism
    for name, path in registry.items():
        if name not in reg._FACTORIES:
            reg.register_agent(name, path)
    game = tarockrl.make_game(game_name, **options)
    _W.update(game=game, pool=AgentPool(game, specs), seed=seed, value=make_value_function(cv), records=records,
              labels=labels, boards={b["board"]: Board(index=b["board"], deal=b["deal"], seed=b.get("seed"),
                                                       deal_id=b.get("deal_id")) for b in boards})


def _work(task: tuple[int, int, int]) -> dict:
    i, j, b = task
    return play_board(_W["game"], _W["boards"][b], _W["pool"], (i, j), _W["seed"], _W["value"],
                      records=_W["records"], labels=_W["labels"])


# -- main side ------------------------------------------------------------------------------------------------
def _manifest(game, specs, boards, board_source, seed, cv, records) -> dict:
    from tarockrl.evaluation.boards import _non_default_options

    return {"format": RUN_FORMAT, "version": RUN_VERSION, "game": game.name,
            "options": json.loads(json.dumps(_non_default_options(game))),
            "agents": [s if isinstance(s, str) else label for s, label in zip(specs, agent_labels(specs), strict=True)],
            "boards": len(boards), "boards_digest": boards_digest(boards), "board_source": board_source,
            "seed": seed, "control_variate": cv, "records": bool(records)}


def _check_manifest(path: Path, manifest: dict) -> None:
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise EvalSettingsError(f"{path} is not a readable run file ({err}); use another --out") from None
        differ = [k for k in _COMPARED if old.get(k) != manifest.get(k)]
        if differ:
            shown = "; ".join(f"{k}: {old.get(k)!r} there, {manifest.get(k)!r} now" for k in differ)
            raise EvalSettingsError(f"{path.parent} holds a run with other settings ({shown}); resume it with the "
                                    f"same settings or use another --out")
    else:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def run_eval(game: Any, specs: list[str], boards: list[Board], out_dir: str | os.PathLike, *, seed: int = 0,
             jobs: int | None = None, control_variate: str | None = "playout", records: bool = False,
             resamples: int = 2000, half_width: float | str = "10%", progress: bool = True, board_source: str = "",
             plots: bool = True, backend: str = "local", ray_address: str | None = None) -> dict[str, Any]:
    """Play every pair of ``specs`` on every board (duplicate seatings), resumably, and write the report.

    ``jobs`` worker processes (default: the CPU count; 1 plays in this process). ``backend="ray"`` plays the boards
    on Ray actors instead (``jobs`` of them, default the cluster's CPUs; ``ray_address`` names the cluster, else a
    local Ray instance; docs/ray.md). Returns the summary dict that is also written to ``results.json``.
    """
    from tarockrl.evaluation.report import build_summary, write_outputs

    if len(specs) < 2:
        raise TarockError(f"an evaluation needs at least two agents, got {len(specs)}")
    if not boards:
        raise TarockError("an evaluation needs at least one board")
    make_value_function(control_variate)  # validate early
    if backend not in ("local", "ray"):
        raise TarockError(f"unknown backend {backend!r}; backends: local, ray")
    asked_jobs = jobs
    if (jobs != 1 or backend == "ray") and not all(isinstance(s, str) for s in specs):
        raise TarockError("agent objects can be evaluated with jobs=1 only; register a factory with "
                          "tarockrl.agents.register_agent to use worker processes")
    AgentPool(game, specs)  # a bad spec fails here, before any process starts
    labels = list(agent_labels(specs))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest = _manifest(game, specs, boards, board_source, seed, control_variate, records)
    manifest["labels"] = labels
    _check_manifest(out / "run.json", manifest)
    results_path = out / "results.jsonl"
    records_path = out / "records.jsonl"
    done = read_results(results_path)
    pairs = list(combinations(range(len(specs)), 2))
    wanted = {(i, j, b.index) for i, j in pairs for b in boards}
    done = {k: v for k, v in done.items() if k in wanted}
    if records:
        _clean_records(records_path, set(done))
    todo = [(i, j, b.index) for b in boards for i, j in pairs if (i, j, b.index) not in done]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(todo) or 1))

    from tqdm import tqdm

    bar = tqdm(total=len(wanted), initial=len(wanted) - len(todo), unit="board", disable=not progress,
               file=sys.stderr, dynamic_ncols=True, desc=f"{game.name}")
    first = pairs[0]
    running = [r["diff_cv"] if r.get("diff_cv") is not None else r["diff"] for k, r in done.items()
               if k[:2] == first]

    def finish(rec: dict, fh_res, fh_rec) -> None:
        key = (rec["pair"][0], rec["pair"][1], rec["board"])
        recs = rec.pop("records", None)
        if fh_rec is not None and recs:
            for r in recs:
                r["pair"] = rec["pair"]
                fh_rec.write(json.dumps(r, separators=(",", ":")) + "\n")
            fh_rec.flush()
            os.fsync(fh_rec.fileno())
        _write_line(fh_res, rec)
        done[key] = rec
        if key[:2] == first:
            running.append(rec["diff_cv"] if rec.get("diff_cv") is not None else rec["diff"])
            if len(running) > 1:
                x = np.asarray(running)
                bar.set_postfix_str(f"{labels[first[0]]}-{labels[first[1]]}: {x.mean():+.2f} "
                                    f"± {Z95 * x.std(ddof=1) / np.sqrt(x.size):.2f} GP/board", refresh=False)
        bar.update(1)

    with open(results_path, "a", encoding="utf-8") as fh_res, \
            (open(records_path, "a", encoding="utf-8") if records else _Null()) as fh_rec:
        fh_rec = fh_rec if records else None
        if todo and backend == "ray":  # docs/ray.md; Ray is imported only here
            from tarockrl.agents import registry as reg
            from tarockrl.evaluation.ray_backend import run_units_ray

            initargs = (game.name, game.options, specs, [b.to_json() for b in boards], seed, control_variate,
                        records, labels, dict(reg._FACTORIES))
            run_units_ray(initargs, todo, asked_jobs, ray_address, lambda rec: finish(rec, fh_res, fh_rec))
        elif todo and jobs == 1:
            import numba

            threads = numba.get_num_threads()
            _init_worker(game.name, game.options, specs, [b.to_json() for b in boards], seed, control_variate,
                         records, labels, {})
            _W["game"], _W["pool"] = game, AgentPool(game, specs)
            try:
                for task in todo:
                    finish(_work(task), fh_res, fh_rec)
            finally:
                numba.set_num_threads(threads)
                _W.clear()
        elif todo:
            import multiprocessing as mp

            from tarockrl.agents import registry as reg

            initargs = (game.name, game.options, specs, [b.to_json() for b in boards], seed, control_variate,
                        records, labels, dict(reg._FACTORIES), mp.current_process().pid)
            with ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn"), initializer=_init_worker,
                                     initargs=initargs) as ex:
                pending = set()
                it = iter(todo)
                for task in it:  # keep a bounded queue so results arrive (and are saved) steadily
                    pending.add(ex.submit(_work, task))
                    if len(pending) >= 4 * jobs:
                        break
                while pending:
                    ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in ready:
                        finish(fut.result(), fh_res, fh_rec)
                        nxt = next(it, None)
                        if nxt is not None:
                            pending.add(ex.submit(_work, nxt))
    bar.close()
    by_pair: dict[tuple[int, int], list[dict]] = {p: [] for p in pairs}
    for (i, j, _), rec in done.items():
        by_pair[(i, j)].append(rec)
    results = {p: summarize_pair((labels[p[0]], labels[p[1]]), by_pair[p], resamples, seed, half_width)
               for p in pairs}
    summary = build_summary(manifest, labels, results, resamples=resamples, seed=seed)
    write_outputs(out, summary, results, plots=plots)
    return summary


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
