"""The tarockrl command line."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import tarockrl
from tarockrl.cli import main, play_random_deals


def test_play_prints_a_result_table(capsys):
    assert main(["play", "--game", "dreierles", "--deals", "300", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "300 deals" in out and "95% CI" in out
    assert "largest |sum of a deal's settlement| = 0" in out


def test_play_with_options_and_bad_option(capsys):
    assert main(["play", "--deals", "50", "--quiet", "-o", "raeuber_restrictions=none", "-o", "raeuber_base=4"]) == 0
    assert main(["play", "--deals", "5", "--quiet", "-o", "nonsense=1"]) == 2
    assert "unknown dreierles option" in capsys.readouterr().err
    assert main(["play", "--deals", "0", "--quiet"]) == 2


def test_show_prints_a_whole_deal(capsys):
    assert main(["show", "--game", "dreierles", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "Auction:" in out and "16." in out and "settlement (GP)" in out


def test_unknown_game(capsys):
    assert main(["show", "--game", "skat"]) == 2
    assert "unknown game" in capsys.readouterr().err


def test_play_random_deals_is_reproducible_and_zero_sum():
    game = tarockrl.make_game("dreierles")
    a = play_random_deals(game, 500, seed=3, chunk=128, progress=False)
    b = play_random_deals(game, 500, seed=3, chunk=128, progress=False)
    c = play_random_deals(game, 500, seed=4, chunk=128, progress=False)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
    assert np.all(a[0].sum(axis=1) == 0)
    assert a[1].min() >= 49 and a[1].max() <= 56


def test_selfcheck_and_games(capsys):
    assert main(["selfcheck", "--game", "dreierles", "--deals", "2000"]) == 0
    assert main(["games", "--options"]) == 0
    out = capsys.readouterr().out
    assert "dreierles: 3 players, 117 actions" in out and "raeuber_restrictions" in out


@pytest.mark.parametrize("args", [["--version"], ["play", "--help"]])
def test_python_dash_m(args):
    out = subprocess.run([sys.executable, "-m", "tarockrl", *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and ("tarockrl" in out.stdout)


def test_play_from_config_file(capsys, tmp_path):
    import pathlib

    config = pathlib.Path(__file__).resolve().parents[2] / "configs" / "play_dreierles.yaml"
    assert main(["play", "--config", str(config), "--deals", "100", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "raeuber_restrictions='iffezheim'" in out and "100 deals" in out  # the flag wins
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: dreierles\ncolour: red\n")
    assert main(["play", "--config", str(bad), "--quiet"]) == 2
    assert "unknown key" in capsys.readouterr().err
    assert main(["play", "--config", str(tmp_path / "missing.yaml"), "--quiet"]) == 2
