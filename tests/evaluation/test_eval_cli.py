"""``tarockrl eval``: outputs, round robin, resume (also after a real SIGKILL), clear errors; ``show --record``."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tarockrl.cli import main
from tarockrl.evaluation import generate_boards, run_eval
from tarockrl.evaluation.runner import EvalSettingsError, read_results

ROOT = Path(__file__).resolve().parents[2]


def _numbers(out):
    data = json.loads((Path(out) / "results.json").read_text())
    return data["pairs"], data["matrix"], data["ratings"]


def test_eval_writes_report_json_plots(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["eval", "--game", "tatteln", "--agents", "random,first_legal", "--boards", "6", "--out", str(out),
                 "--jobs", "1", "--quiet", "--records", "--bootstrap", "200", "--control-variate",
                 "playout:rollouts=1"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "random vs first_legal" in printed and "control variate" in printed
    for name in ("run.json", "results.jsonl", "results.json", "report.md", "records.jsonl", "plots/differences.png",
                 "plots/matrix.png", "plots/ratings.png"):
        assert (out / name).exists(), name
    data = json.loads((out / "results.json").read_text())
    pair = data["pairs"][0]
    assert pair["game_points"]["n"] == 6 and len(pair["per_board"]["diff"]) == 6
    assert pair["control_variate"]["n"] == 6 and "beta" in pair["control_variate_fitted"]
    assert len(data["ratings"]["rating"]) == 2
    report = (out / "report.md").read_text()
    assert "| `random` | `first_legal` | 6 |" in report and "plots/differences.png" in report
    assert sum(1 for _ in open(out / "records.jsonl")) == 6 * 2
    assert main(["show", "--record", str(out / "records.jsonl"), "--index", "3"]) == 0
    assert "seating BA" in capsys.readouterr().out


def test_round_robin_three_agents(tmp_path, games):
    game = games["dreierles"]
    from tarockrl.evaluation import round_robin

    summary = round_robin("dreierles", ["random", "first_legal", "last_legal"], generate_boards(game, 5, 1),
                          tmp_path, jobs=1, progress=False, plots=False, resamples=100, control_variate=None)
    assert len(summary["pairs"]) == 3
    m = summary["matrix"]["mean"]
    assert m[0][1] == -m[1][0] and m[1][2] == -m[2][1] and m[0][0] == 0.0
    assert len(summary["ratings"]["rating"]) == 3
    assert abs(sum(summary["ratings"]["rating"])) < 1e-9


def test_resume_skips_done_and_cuts_torn_line(tmp_path, games):
    game = games["tatteln"]
    boards = generate_boards(game, 8, 2)
    kw = dict(jobs=1, progress=False, plots=False, resamples=200, control_variate=None)
    full = run_eval(game, ["random", "first_legal"], boards, tmp_path / "a", **kw)
    lines = (tmp_path / "a" / "results.jsonl").read_text().splitlines()
    part = tmp_path / "b"
    part.mkdir()
    (part / "run.json").write_text((tmp_path / "a" / "run.json").read_text())
    # three finished boards, one of them twice, and a line torn by a kill
    (part / "results.jsonl").write_text("\n".join([lines[0], lines[1], lines[0], lines[2]]) + "\n" + lines[3][:40])
    resumed = run_eval(game, ["random", "first_legal"], boards, part, **kw)
    assert resumed["pairs"] == full["pairs"]
    keys = [tuple(json.loads(x)["pair"]) + (json.loads(x)["board"],)
            for x in (part / "results.jsonl").read_text().splitlines()]
    assert len(set(keys)) == 8 and len(keys) == 9  # the old duplicate line stays, counted once
    assert len(read_results(part / "results.jsonl")) == 8


def test_resume_with_other_settings_is_refused(tmp_path, games):
    game = games["tatteln"]
    kw = dict(jobs=1, progress=False, plots=False, resamples=50, control_variate=None)
    run_eval(game, ["random", "first_legal"], generate_boards(game, 2, 2), tmp_path, **kw)
    with pytest.raises(EvalSettingsError, match="agents"):
        run_eval(game, ["random", "last_legal"], generate_boards(game, 2, 2), tmp_path, **kw)
    with pytest.raises(EvalSettingsError, match="boards_digest"):
        run_eval(game, ["random", "first_legal"], generate_boards(game, 2, 3), tmp_path, **kw)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--agents", "randon,random"], "unknown agent 'randon'"),
        (["--agents", "random"], "at least two agents"),
        (["--agents", "random,,rules"], "empty agent spec"),
        (["--agents", "random,random:x=1"], "has no parameter 'x'"),
        (["--agents", "random,random", "--game", "skat"], "skat"),
        (["--agents", "random,random", "--board-set", "nowhere.jsonl"], "cannot read board file"),
        (["--agents", "random,random", "--boards", "0"], "--boards must be at least 1"),
        (["--agents", "random,random", "--control-variate", "solver"], "unknown control variate"),
    ],
)
def test_eval_errors(tmp_path, capsys, argv, message):
    code = main(["eval", "--out", str(tmp_path / "o"), "--quiet", "--jobs", "1", *argv])
    assert code == 2
    assert message in capsys.readouterr().err


def test_eval_wrong_game_board_file(tmp_path, capsys, games):
    from tarockrl.evaluation.boards import save_boards

    save_boards(tmp_path / "t.jsonl", games["tatteln"], generate_boards(games["tatteln"], 3, 0))
    code = main(["eval", "--game", "dreierles", "--agents", "random,random", "--boards", "2", "--board-set",
                 str(tmp_path / "t.jsonl"), "--out", str(tmp_path / "o"), "--quiet"])
    assert code == 2
    assert "holds boards of 'tatteln', not 'dreierles'" in capsys.readouterr().err


def test_board_set_command(tmp_path, games):
    from tarockrl.evaluation.boards import load_boards
    from tarockrl.evaluation.boards import main as boards_main

    out = str(tmp_path / "t.jsonl.gz")
    assert boards_main(["--game", "tatteln", "--boards", "4", "--seed", "3", "--out", out]) == 0
    assert load_boards(tmp_path / "t.jsonl.gz", games["tatteln"]) == generate_boards(games["tatteln"], 4, 3)


def test_split_agents():
    from tarockrl.evaluation.cli import split_agents

    assert split_agents("random,rules,pimc:worlds=16,rollout=rules") == ["random", "rules",
                                                                          "pimc:worlds=16,rollout=rules"]
    assert split_agents("a:leaf=[ckpt:x,y],b") == ["a:leaf=[ckpt:x,y]", "b"]


_SCRIPT = ("import sys; from tests.evaluation.agents import register; register(); from tarockrl.cli import main; "
           "raise SystemExit(main(sys.argv[1:]))")


def _eval_cmd(out, jobs):
    return [sys.executable, "-c", _SCRIPT, "eval", "--game", "tatteln", "--agents", "sleepy,random", "--boards", "40",
            "--board-set", "seed=7", "--out", str(out), "--jobs", str(jobs), "--quiet", "--no-plots", "--bootstrap",
            "300", "--records"]


def _start_two_process_run(out, env, results_wanted):
    """Start ``_eval_cmd(out, 2)`` in a new session (process group) and return it once ``results_wanted`` results
    are saved (the test fails if the run ends first or stalls for 300 s)."""
    proc = subprocess.Popen(_eval_cmd(out, 2), cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    results = out / "results.jsonl"
    deadline = time.time() + 300
    while not (results.exists() and results.read_text().count("\n") >= results_wanted):
        if proc.poll() is not None or time.time() > deadline:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"the run ended or stalled before it could be killed: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.02)
    return proc


@pytest.mark.slow
def test_resume_after_sigkill(tmp_path):
    """Kill a 2-process run with SIGKILL mid-way, run the same command again: same numbers as uninterrupted."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    killed = tmp_path / "killed"
    proc = _start_two_process_run(killed, env, 8)
    results = killed / "results.jsonl"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_at_kill = results.read_text().count("\n")
    assert 8 <= done_at_kill < 40, done_at_kill
    assert not (killed / "results.json").exists()
    subprocess.run(_eval_cmd(killed, 2), cwd=ROOT, env=env, check=True, capture_output=True, timeout=600)
    whole = tmp_path / "whole"
    subprocess.run(_eval_cmd(whole, 1), cwd=ROOT, env=env, check=True, capture_output=True, timeout=600)
    assert _numbers(killed) == _numbers(whole)
    lines = results.read_text().splitlines()
    assert len(lines) == 40 == len({json.loads(x)["board"] for x in lines})  # nothing lost, nothing twice
    recs = [json.loads(x) for x in (killed / "records.jsonl").read_text().splitlines()]
    assert len(recs) == 80 and len({(r["board"], r["seating"]) for r in recs}) == 80


@pytest.mark.slow
def test_workers_end_with_a_killed_parent(tmp_path):
    """SIGKILL to the evaluation process alone (not its group): its worker processes end too, within seconds."""
    proc = _start_two_process_run(tmp_path / "orphans", dict(os.environ, PYTHONPATH=str(ROOT)), 4)
    os.kill(proc.pid, signal.SIGKILL)  # the parent only: the workers stay in the process group
    proc.wait()
    deadline = time.time() + 20
    alive = True
    while alive and time.time() < deadline:
        time.sleep(0.2)
        try:
            os.killpg(proc.pid, 0)  # any process left in the run's group?
        except ProcessLookupError:
            alive = False
    if alive:
        os.killpg(proc.pid, signal.SIGKILL)
    assert not alive, "worker processes outlived their killed parent"


def test_agent_objects_in_process_only(tmp_path, games):
    from tarockrl.errors import TarockError
    from tests.evaluation.agents import FirstLegal

    game = games["tatteln"]
    boards = generate_boards(game, 2, 0)
    with pytest.raises(TarockError, match="jobs=1 only"):
        run_eval(game, ["random", FirstLegal()], boards, tmp_path / "a", jobs=2, progress=False, plots=False)
    summary = run_eval(game, ["random", FirstLegal()], boards, tmp_path / "b", jobs=1, progress=False, plots=False,
                       resamples=50)
    assert summary["settings"]["agents"] == ["random", "FirstLegal"]


def test_eval_without_out_uses_a_settings_hashed_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["eval", "--game", "tatteln", "--agents", "random,first_legal", "--boards", "2", "--jobs", "1", "--quiet",
            "--no-plots", "--bootstrap", "50"]
    assert main(argv) == 0
    runs = list((tmp_path / "runs" / "eval").iterdir())
    assert len(runs) == 1 and runs[0].name.startswith("tatteln-") and (runs[0] / "results.json").exists()
    assert str(runs[0].relative_to(tmp_path)) in capsys.readouterr().out
    assert main(argv) == 0  # the same command resumes the same directory
    assert main(argv[:6] + ["3"] + argv[7:]) == 0  # other settings: another directory
    assert len(list((tmp_path / "runs" / "eval").iterdir())) == 2
