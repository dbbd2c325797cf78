"""Fuzzing the saved-state boundary of every game, each batch in a child process.

Bit flips (raw, and re-signed so that they pass the checksum), slot overwrites, truncations and extensions of
saved states, flipped pickles, and mutated rows handed to ``batch_from_states``. A child that dies of a signal
(segfault, abort, bus error) or exits non-zero fails the test with the spec that reproduces it; so does any
input that is neither rejected with ``CorruptStateError`` / ``WrongGameError`` nor accepted as a state that plays
out cleanly. The default suite runs 1,500 inputs per game configuration (7,500 in all); ``-m slow`` runs
20,000 more per configuration.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKER = pathlib.Path(__file__).with_name("fuzz_worker.py")
KINDS = ["flip", "flip_signed", "overwrite", "overwrite", "truncate", "pickle", "rows"]
CONFIGS = [
    ("dreierles", {}),
    ("dreiertarock", {}),
    ("tatteln", {}),
    ("tatteln", {"deck_size": 36, "no_trump": True}),
    ("troccas", {"max_redeals": 3}),
]
DEFAULT_COUNT = 1500
SLOW_COUNT = 20000


def run_worker(spec: dict, timeout: float = 1800) -> dict:
    """Run one fuzz batch in a child process; fail on a crash, a non-zero exit or a finding."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, str(WORKER), json.dumps(spec)], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=str(ROOT))
    if proc.returncode != 0:
        how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
        pytest.fail(f"fuzz child crashed ({how}); reproduce with: python {WORKER} '{json.dumps(spec)}'\n"
                    f"{proc.stderr[-3000:]}")
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["n_failures"] == 0, "\n".join(summary["failures"])
    counts = summary["counts"]
    assert counts["inputs"] == spec["count"]
    assert counts["rejected"] + counts["accepted_unchanged"] + counts["accepted_changed"] == spec["count"]
    return counts


def _id(cfg):
    name, options = cfg
    return name + "".join(f"-{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("cfg", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_fuzz_saved_states(cfg):
    name, options = cfg
    counts = run_worker({"game": name, "options": options, "seed": 1, "count": DEFAULT_COUNT, "kinds": KINDS,
                         "base_games": 6})
    assert counts["rejected"] > DEFAULT_COUNT * 0.9  # nearly every mutation changes the row


@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=[_id(c) for c in CONFIGS])
@pytest.mark.parametrize("seed", [2, 3])
def test_fuzz_saved_states_slow(cfg, seed):
    name, options = cfg
    run_worker({"game": name, "options": options, "seed": seed, "count": SLOW_COUNT // 2, "kinds": KINDS,
                "base_games": 24})


def test_a_crash_in_the_child_is_reported(tmp_path):
    """The harness itself: a child killed by a signal fails the test instead of ending the run."""
    script = tmp_path / "boom.py"
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=60)
    assert proc.returncode == -11
