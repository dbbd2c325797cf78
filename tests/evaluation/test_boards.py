"""Boards replay their seeded deals exactly; board files are validated with clear errors."""

import gzip
import json

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import BadDealError, WrongGameError
from tarockrl.evaluation.boards import (
    SHIPPED,
    BadBoardFileError,
    board_state,
    generate_boards,
    load_boards,
    resolve_board_set,
    save_boards,
    shipped_boards,
)


def _play_both(game, board, seed, actions_rng):
    s1 = game.new_initial_state(seed=seed, deal_id=board.deal_id)
    s2 = board_state(game, board)
    while not s1.is_terminal():
        legal = s1.legal_actions()
        assert legal == s2.legal_actions()
        a = legal[actions_rng.integers(len(legal))]
        s1.apply_action(a)
        s2.apply_action(a)
    assert s2.is_terminal()
    assert np.array_equal(s1.returns(), s2.returns())
    return s1


@pytest.mark.parametrize("name", ["dreierles", "dreiertarock", "tatteln", "troccas"])
def test_board_replays_seeded_deal(games, name):
    game = games[name]
    boards = generate_boards(game, 60 if name == "troccas" else 15, seed=11)
    rng = np.random.default_rng(0)
    redeals = 0
    for b in boards:
        final = _play_both(game, b, 11, rng)
        redeals += len(final.deal().get("redeals", []))
    if name == "troccas":
        assert redeals > 0  # the redeal stream was exercised, and replayed identically


def test_troccas_board_stores_redeal_stream(games):
    game = games["troccas"]
    b = generate_boards(game, 1, seed=3)[0]
    assert len(b.deal["redeals"]) == game.rules.max_redeals
    none = tarockrl.make_game("troccas", max_redeals=0)
    assert "redeals" not in generate_boards(none, 1, seed=3)[0].deal


def test_tatteln_board_keeps_stock_order(games):
    game = games["tatteln"]
    b = generate_boards(game, 1, seed=5)[0]
    assert b.deal["stock"] == game.new_initial_state(seed=5, deal_id=0).deal()["stock"]


def test_save_load_roundtrip(tmp_path, games):
    game = games["dreierles"]
    boards = generate_boards(game, 5, seed=2)
    for name in ("b.jsonl", "b.jsonl.gz"):
        save_boards(tmp_path / name, game, boards, seed=2)
        assert load_boards(tmp_path / name, game) == boards
    assert gzip.decompress((tmp_path / "b.jsonl.gz").read_bytes()).decode().count("\n") == 6


@pytest.mark.parametrize("name", ["dreierles", "dreiertarock", "tatteln", "troccas"])
def test_shipped_sets(games, name):
    game = games[name]
    for set_name, spec in SHIPPED.items():
        boards = shipped_boards(game, set_name)
        assert len(boards) == spec["count"]
        assert [b.index for b in boards] == list(range(spec["count"]))
        assert boards[:3] == generate_boards(game, 3, spec["seed"])  # frozen: made by the documented command
    bench = {json.dumps(b.deal, sort_keys=True) for b in shipped_boards(game, "bench")}
    dev = {json.dumps(b.deal, sort_keys=True) for b in shipped_boards(game, "dev")}
    assert not bench & dev


def test_resolve_board_set(games, tmp_path):
    game = games["tatteln"]
    boards, source = resolve_board_set(game, "seed=4", 3)
    assert boards == generate_boards(game, 3, 4) and "seed 4" in source
    assert len(resolve_board_set(game, "dev", 7)[0]) == 7
    with pytest.raises(BadBoardFileError, match="fewer than"):
        resolve_board_set(game, "bench", 10**6)
    with pytest.raises(BadBoardFileError, match="seed=S"):
        resolve_board_set(game, "seed=x", 3)
    with pytest.raises(BadBoardFileError, match="cannot read"):
        resolve_board_set(game, str(tmp_path / "missing.jsonl"), 3)


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_bad_board_files(tmp_path, games):
    game = games["dreierles"]
    good = generate_boards(game, 2, seed=0)
    header = json.dumps({"format": "tarockrl-boards", "version": 1, "game": "dreierles", "count": None})
    line = json.dumps(good[0].to_json())
    with pytest.raises(BadBoardFileError, match="empty"):
        load_boards(_write(tmp_path / "e.jsonl", []), game)
    with pytest.raises(BadBoardFileError, match="not JSON"):
        load_boards(_write(tmp_path / "a.jsonl", ["{nope"]), game)
    with pytest.raises(BadBoardFileError, match="header"):
        load_boards(_write(tmp_path / "b.jsonl", [line]), game)
    with pytest.raises(BadBoardFileError, match=r"c.jsonl:2: not JSON"):
        load_boards(_write(tmp_path / "c.jsonl", [header, "[1,"]), game)
    bad_deal = dict(good[0].to_json(), deal={"dealer": 0, "hands": [["T1"]], "blind": []})
    with pytest.raises(BadBoardFileError, match=r"d.jsonl:2: board 0:") as err:
        load_boards(_write(tmp_path / "d.jsonl", [header, json.dumps(bad_deal)]), game)
    assert isinstance(err.value.__context__, BadDealError) or "hands" in str(err.value)
    with pytest.raises(BadBoardFileError, match="appears twice"):
        load_boards(_write(tmp_path / "f.jsonl", [header, line, line]), game)
    with pytest.raises(BadBoardFileError, match="header says 5"):
        load_boards(_write(tmp_path / "g.jsonl", [header.replace("null", "5"), line]), game)
    with pytest.raises(BadBoardFileError, match="gzip|cannot read"):
        (tmp_path / "h.jsonl.gz").write_bytes(b"\x1f\x8bbroken")
        load_boards(tmp_path / "h.jsonl.gz", game)


def test_wrong_game_board_file(tmp_path, games):
    save_boards(tmp_path / "t.jsonl", games["tatteln"], generate_boards(games["tatteln"], 2, 0))
    with pytest.raises(WrongGameError, match="'tatteln', not 'dreierles'"):
        load_boards(tmp_path / "t.jsonl", games["dreierles"])
    # same game, options the deals do not fit (a 36-card pack)
    with pytest.raises(BadBoardFileError, match="board 0"):
        load_boards(tmp_path / "t.jsonl", tarockrl.make_game("tatteln", deck_size=36))
