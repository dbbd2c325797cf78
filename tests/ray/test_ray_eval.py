"""``tarockrl eval --backend ray``: the same results as the local backend on the same boards, resumable."""

import json

import pytest

import tarockrl
from tarockrl.evaluation import generate_boards, run_eval


def lines(path):
    return {(r["pair"][0], r["pair"][1], r["board"]): r for r in map(json.loads, path.read_text().splitlines())}


@pytest.mark.slow  # Ray's start (~12 s on an idle 2-core machine) plus two actor processes: over the ~20 s limit
def test_ray_eval_equals_local(ray_local, tmp_path):
    """Random against rules on five Tatteln boards with two Ray actors: every per-board result line and the
    summary equal the local backend's."""
    game = tarockrl.make_game("tatteln")
    boards = generate_boards(game, 5, seed=3)
    kw = {"seed": 1, "control_variate": None, "resamples": 50, "progress": False, "plots": False}
    local = run_eval(game, ["random", "rules"], boards, tmp_path / "local", jobs=1, **kw)
    ray_run = run_eval(game, ["random", "rules"], boards, tmp_path / "ray", jobs=2, backend="ray", **kw)
    a, b = lines(tmp_path / "local/results.jsonl"), lines(tmp_path / "ray/results.jsonl")
    assert a.keys() == b.keys() and len(a) == 5
    for key in a:
        assert a[key] == b[key]
    assert local["pairs"] == ray_run["pairs"]


@pytest.mark.slow
def test_ray_eval_resumes_append_only(ray_local, tmp_path):
    """A Ray evaluation cut short (results.jsonl with a torn last line) plays only the missing boards."""
    game = tarockrl.make_game("dreierles")
    boards = generate_boards(game, 6, seed=5)
    kw = {"seed": 0, "control_variate": None, "resamples": 50, "progress": False, "plots": False, "backend": "ray"}
    full = run_eval(game, ["random", "rules"], boards, tmp_path / "full", jobs=2, **kw)
    run_eval(game, ["random", "rules"], boards[:3], tmp_path / "cut", jobs=2, **kw)
    res = tmp_path / "cut/results.jsonl"
    kept = res.read_text().splitlines()[:2]
    res.write_text("\n".join(kept) + "\n" + '{"pair": [0, 1], "boa')  # two whole lines and a torn one
    (tmp_path / "cut/run.json").unlink()  # the board list differs from the first call's
    resumed = run_eval(game, ["random", "rules"], boards, tmp_path / "cut", jobs=2, **kw)
    got = res.read_text().splitlines()
    assert len(got) == 6 and got[:2] == kept
    assert resumed["pairs"] == full["pairs"]
