"""Ray stays optional: nothing imports it unless a Ray backend is asked for; a missing Ray gives a clear error."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import sys, tempfile
import tarockrl, tarockrl.cli, tarockrl.training, tarockrl.training.run, tarockrl.training.cli
import tarockrl.evaluation, tarockrl.evaluation.runner, tarockrl.evaluation.cli
from tarockrl.training import load_config, train
from tarockrl.evaluation import generate_boards, run_eval
cfg = load_config(None, ["game=tatteln", "num_envs=4", "network.hidden=[8]", "dmc.batch_size=64",
                         "total_decisions=1"])
tmp = tempfile.mkdtemp()
train(cfg, tmp + "/run", progress=False, max_iterations=1)
game = tarockrl.make_game("tatteln")
run_eval(game, ["random", "random"], generate_boards(game, 1, seed=0), tmp + "/eval", jobs=1, progress=False,
         control_variate=None, resamples=10, plots=False)
load_config(None, ["backend=ray", "ray.num_actors=3"])  # a Ray config can be read without Ray
assert "ray" not in sys.modules, sorted(m for m in sys.modules if m.split(".")[0] == "ray")
print("no ray")
"""


def test_ray_is_not_imported_unless_asked_for():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-3000:]
    assert "no ray" in out.stdout


def test_missing_ray_says_how_to_install(monkeypatch):
    from tarockrl._ray import RayBackendError, require_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(RayBackendError, match=r"pip install 'tarockrl\[ray\]'"):
        require_ray()


def test_ray_config_fields_and_cli_flags():
    import argparse

    from tarockrl.training.cli import add_parser
    from tarockrl.training.config import BadConfigError, load_config

    cfg = load_config(None, ["backend=ray", "ray.address=auto", "ray.num_actors=8", "ray.broadcast_every=4"])
    assert (cfg.backend, cfg.ray.address, cfg.ray.num_actors, cfg.ray.broadcast_every) == ("ray", "auto", 8, 4)
    assert load_config(None).backend == "local"
    with pytest.raises(BadConfigError, match="backend"):
        load_config(None, ["backend=spark"])
    with pytest.raises(BadConfigError, match=r"ray.num_actor.*did you mean 'ray.num_actors'"):
        load_config(None, ["ray.num_actor=2"])
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["train", "--backend", "ray", "--ray-address", "10.0.0.5:6379"])
    assert (args.backend, args.ray_address) == ("ray", "10.0.0.5:6379")


def test_eval_cli_backend_flags():
    import argparse

    from tarockrl.errors import TarockError
    from tarockrl.evaluation.cli import add_eval_parser, cmd_eval

    parser = argparse.ArgumentParser()
    add_eval_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["eval", "--agents", "random,rules", "--out", "x", "--backend", "ray",
                              "--ray-address", "auto"])
    assert (args.backend, args.ray_address) == ("ray", "auto")
    args = parser.parse_args(["eval", "--agents", "random,rules", "--out", "x", "--backend", "local",
                              "--ray-address", "auto"])
    with pytest.raises(TarockError, match="--ray-address is for --backend ray"):
        cmd_eval(args)
