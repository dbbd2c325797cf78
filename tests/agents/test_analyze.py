"""``tarockrl analyze`` and :mod:`tarockrl.analyze`: hands, saved states, statistics, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tarockrl
from tarockrl.analyze import analyze_hand, analyze_state, load_state, state_with_hand
from tarockrl.cli import main
from tarockrl.errors import BadDealError, TarockError

STRONG = "T21 T20 T19 ST T1 T18 T17 T16 T15 HK DK CK SK T14 T13 T12"


def test_state_with_hand_puts_the_hand_at_the_first_decision():
    game = tarockrl.make_game("dreierles")
    for seat in range(3):
        state = state_with_hand(game, STRONG, seat=seat, seed=4)
        assert state.current_player() == seat
        assert sorted(state.deal()["hands"][seat]) == sorted(STRONG.split())
        all_cards = [c for h in state.deal()["hands"] for c in h] + state.deal()["blind"]
        assert len(set(all_cards)) == 54


def test_analyze_hand_values_every_bid_and_a_strong_hand_prefers_to_play():
    result = analyze_hand("dreierles", STRONG, seat=1, agent="heuristic", worlds=24, seed=3)
    names = {r.name for r in result.rows}
    assert {"PASS", "BID Solo"} <= names
    assert result.best().name != "PASS"
    for r in result.rows:
        assert r.n == 24 and r.low <= r.mean <= r.high
    best = result.best()
    assert best.diff == 0.0 and all(r.diff <= 0 for r in result.rows)
    assert "BID Solo" in result.table()


def test_analyze_is_deterministic_and_uses_common_worlds():
    game = tarockrl.make_game("dreiertarock")
    state = game.new_initial_state(seed=5)
    a = analyze_state(state, agent="random", worlds=10, rollouts=2, seed=1)
    b = analyze_state(state, agent="random", worlds=10, rollouts=2, seed=1)
    assert a == b
    assert [r.action for r in a.rows] == state.legal_actions()


def test_analyze_state_errors():
    game = tarockrl.make_game("dreierles")
    state = game.new_initial_state(seed=1)
    with pytest.raises(TarockError, match="not to act"):
        analyze_state(state, player=(state.current_player() + 1) % 3, worlds=4)
    with pytest.raises(TarockError, match="worlds"):
        analyze_state(state, worlds=0)
    with pytest.raises(BadDealError, match="unknown card"):
        state_with_hand(game, "T21 XX " + " ".join(STRONG.split()[2:]))
    with pytest.raises(BadDealError, match="16 cards"):
        state_with_hand(game, "T21 T20")
    with pytest.raises(BadDealError, match="twice"):
        state_with_hand(game, "T21 " + " ".join(STRONG.split()[:-1]).replace("T20", "T21"))


def test_cli_hand_and_state_files(tmp_path, capsys):
    game = tarockrl.make_game("dreierles")
    assert main(["analyze", "--game", "dreierles", "--hand", STRONG, "--seat", "2", "--worlds", "6",
                 "--agent", "random"]) == 0
    out = capsys.readouterr().out
    assert "BID Solo" in out and "seat 2" in out
    state = game.new_initial_state(seed=8)
    rng = np.random.default_rng(0)
    while state.phase() != "play":
        state.apply_action(int(rng.choice(state.legal_actions())))
    for _ in range(4):
        state.apply_action(int(rng.choice(state.legal_actions())))
    raw = tmp_path / "pos.bin"
    raw.write_bytes(state.to_bytes())
    rec = tmp_path / "pos.json"
    rec.write_text(json.dumps({"deal": state.deal(), "actions": state.history()}))
    assert load_state(game, rec) == state
    for path in (raw, rec):
        assert main(["analyze", "--game", "dreierles", "--state", str(path), "--worlds", "5", "--agent",
                     "heuristic", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert [a["action"] for a in data["actions"]] == state.legal_actions()
    bad = tmp_path / "bad.txt"
    bad.write_text("nonsense")
    assert main(["analyze", "--game", "dreierles", "--state", str(bad)]) == 2
    assert main(["analyze", "--game", "dreierles", "--state", str(tmp_path / "missing")]) == 2
    assert main(["analyze", "--game", "dreierles", "--hand", "T21"]) == 2
    assert "16 cards" in capsys.readouterr().err
