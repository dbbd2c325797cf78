"""Duplicate matches: seatings, common random numbers, swap symmetry, self-play, control variate, records."""

from collections import Counter

import numpy as np
import pytest

from tarockrl.errors import BadAgentSpecError, IllegalActionError
from tarockrl.evaluation import (
    PlayoutValue,
    card_points,
    duplicate_match,
    generate_boards,
    replay_record,
    seat_seed,
    seatings,
)
from tarockrl.evaluation.match import AgentPool, board_differences, play_board
from tarockrl.evaluation.records import read_records, show_record
from tests.evaluation.agents import FirstLegal


@pytest.mark.parametrize("name", ["dreierles", "dreiertarock", "tatteln", "troccas"])
def test_seatings_cover_every_seat_and_role(games, name):
    game = games[name]
    pats = seatings(game)
    n = game.num_players
    assert len(set(pats)) == len(pats) and all(len(p) == n and set(p) == {"A", "B"} for p in pats)
    for seat in range(n):  # every seat (= role relative to the board's dealer) held equally by A and B
        held = Counter(p[seat] for p in pats)
        assert held["A"] == held["B"] == len(pats) // 2
    # each agent gets the same number of seat-games, and each pattern's mirror is in the set
    assert sum(p.count("A") for p in pats) == sum(p.count("B") for p in pats)
    mirror = str.maketrans("AB", "BA")
    assert {p.translate(mirror) for p in pats} == set(pats)
    if n == 3:
        assert sorted(pats) == sorted(["AAB", "ABA", "BAA", "ABB", "BAB", "BBA"])
        for seat in range(3):  # each agent alone at every seat exactly once
            assert sum(1 for p in pats if p.count("A") == 1 and p[seat] == "A") == 1
            assert sum(1 for p in pats if p.count("B") == 1 and p[seat] == "B") == 1
    if name == "troccas":  # partners (seats 0+2, 1+3) are the same agent: two tables, teams swapped
        assert pats == ["ABAB", "BABA"]
    if name == "tatteln":
        assert pats == ["AB", "BA"]


def test_common_random_numbers_seed_by_board_and_seat():
    assert seat_seed(0, 5, 1) == seat_seed(0, 5, 1)
    assert len({seat_seed(0, b, s) for b in range(20) for s in range(4)}) == 80
    assert seat_seed(1, 5, 1) != seat_seed(0, 5, 1)


@pytest.mark.parametrize("name", ["dreierles", "tatteln", "troccas", "dreiertarock"])
def test_swapping_agents_negates_every_board(games, name):
    game = games[name]
    boards = generate_boards(game, 4, seed=9)
    ab = duplicate_match(game, ["random", "first_legal"], boards, seed=3, resamples=200)
    ba = duplicate_match(game, ["first_legal", "random"], boards, seed=3, resamples=200)
    for x, y in zip(ab.boards, ba.boards, strict=True):
        assert x["diff"] == -y["diff"]
        assert x["diff_cp"] == (None if y["diff_cp"] is None else -y["diff_cp"])
    assert ab.diff["mean"] == -ba.diff["mean"]
    assert ab.diff["win"] == ba.diff["loss"]


@pytest.mark.parametrize("spec", ["random", "first_legal"])
def test_agent_against_itself_ci_contains_zero(games, spec):
    game = games["dreierles"]
    res = duplicate_match(game, [spec, spec], generate_boards(game, 12, seed=1), resamples=300)
    lo, hi = res.diff["ci_bootstrap"]
    assert lo <= 0.0 <= hi
    assert res.diff["mean"] == 0.0  # common random numbers: the same agent plays the same game in every seating


def test_agent_against_itself_with_other_seeds_ci_contains_zero(games):
    """Two random agents that do not share seeds: not identical games, but the CI still covers zero."""
    from tarockrl.agents import RandomAgent

    class Shifted(RandomAgent):
        def reset(self, seed=None):
            super().reset(None if seed is None else seed + 1)

    game = games["tatteln"]
    res = duplicate_match(game, ["random", Shifted(0)], generate_boards(game, 150, seed=2), resamples=500)
    lo, hi = res.diff["ci_bootstrap"]
    assert res.diff["mean"] != 0.0
    assert lo <= 0.0 <= hi


def test_stronger_agent_detected(games):
    game = games["dreierles"]
    res = duplicate_match(game, ["first_legal", "random"], generate_boards(game, 30, seed=4), resamples=500)
    # in Dreierles always passing / playing the lowest card is much better than random play (about 11 GP a board)
    assert res.diff["ci_bootstrap"][0] > 0
    assert 0 < res.diff["boards_needed"]


def test_board_difference_definitions():
    # Tatteln: r_0(AB) - r_0(BA)
    res = [{"pattern": "AB", "returns": [10.0, -10.0], "card_points": None},
           {"pattern": "BA", "returns": [4.0, -4.0], "card_points": None}]
    assert board_differences(res)["diff"] == 6.0
    assert board_differences(res)["diff_cp"] is None
    # Troccas: A's team result at table 1 minus at table 2 (from A's side)
    res = [{"pattern": "ABAB", "returns": [3.0, -3.0, 3.0, -3.0], "card_points": [40, 32, 40, 32]},
           {"pattern": "BABA", "returns": [-1.0, 1.0, -1.0, 1.0], "card_points": [30, 42, 30, 42]}]
    d = board_differences(res)
    assert d["diff"] == (3.0 + 1.0) / 2 - (-3.0 - 1.0) / 2
    assert d["diff_cp"] == (40 + 42) / 2 - (32 + 30) / 2


def test_card_points(games):
    for name, game in games.items():
        s = game.new_initial_state(seed=1)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
        cp = card_points(s)
        if name == "tatteln":
            assert cp is None
        else:
            assert len(cp) == game.num_players and all(x >= 0 for x in cp)


def test_bad_agent_specs(games):
    game = games["dreierles"]
    boards = generate_boards(game, 1, 0)
    with pytest.raises(BadAgentSpecError, match="unknown agent 'randon'.*did you mean 'random'"):
        duplicate_match(game, ["randon", "random"], boards)
    with pytest.raises(BadAgentSpecError, match="has no parameter"):
        duplicate_match(game, ["random:worlds=3", "random"], boards)
    with pytest.raises(ValueError, match="two agents"):
        duplicate_match(game, ["random"], boards)


def test_illegal_agent_named(games):
    game = games["tatteln"]

    class Bad:
        def step(self, state):
            return game.num_actions - 1

    with pytest.raises(IllegalActionError, match="at seat .* on board 0"):
        duplicate_match(game, ["random", Bad()], generate_boards(game, 1, 0))


def test_records_replay(games, tmp_path):
    game = games["troccas"]
    pool = AgentPool(game, ["random", "first_legal"])
    boards = generate_boards(game, 2, seed=5)
    out = [play_board(game, b, pool, (0, 1), seed=1, records=True) for b in boards]
    recs = [r for o in out for r in o["records"]]
    assert len(recs) == 2 * len(seatings(game))
    for rec, res in zip(recs, [s for o in out for s in o["seatings"]], strict=True):
        state = replay_record(rec)
        assert state.returns().tolist() == res["returns"]
        assert rec["seeds"] == [seat_seed(1, rec["board"], s) for s in range(4)]
    path = tmp_path / "r.jsonl"
    import json

    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert read_records(path) == recs
    text = show_record(str(path), 1)
    assert "board 0, seating BABA" in text and "first_legal" in text
    # a record whose actions were tampered with fails to replay, with a clear error
    from tarockrl.evaluation.records import BadRecordError

    bad = dict(recs[0], returns=[99, -99, 99, -99])
    path.write_text(json.dumps(bad))
    with pytest.raises(BadRecordError, match="replay settles"):
        show_record(str(path))
    path.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(BadRecordError, match="not a game record"):
        read_records(path)


def test_control_variate_zero_for_deterministic_agents(games):
    game = games["dreierles"]
    res = duplicate_match(game, ["first_legal", "last_legal"], generate_boards(game, 3, 0), value=PlayoutValue(2),
                          resamples=100)
    for b in res.boards:
        assert b["diff_cv"] == b["diff"]
        assert all(s["correction"] == [0.0, 0.0, 0.0] for s in b["seatings"])


def test_control_variate_identical_games_identical_corrections(games):
    game = games["tatteln"]
    res = duplicate_match(game, ["random", "random"], generate_boards(game, 5, 0), value=PlayoutValue(2),
                          resamples=100)
    assert all(b["diff_cv"] == 0.0 for b in res.boards)


def test_playout_value_common_random_numbers(games):
    game = games["dreierles"]
    s = game.new_initial_state(seed=3)
    rows = np.stack([s.row] * 4)
    v = PlayoutValue(3).values(game, rows, np.array([7, 7, 8, 8]), seed=1)
    assert np.array_equal(v[0], v[1]) and np.array_equal(v[2], v[3])
    assert np.allclose(v.sum(axis=1), 0.0)
    again = PlayoutValue(3).values(game, rows, np.array([7, 7, 8, 8]), seed=1)
    assert np.array_equal(v, again)


def test_control_variate_unbiased(games):
    """The correction has mean zero: over many boards its mean is within 3.5 standard errors of zero.

    Random vs first-legal Tatteln: every random decision is corrected, so the correction is large and noisy; a
    biased correction (e.g. a sign error or the chosen action's value leaking into the baseline) shows up as a
    shift of many standard errors.
    """
    game = games["tatteln"]
    res = duplicate_match(game, ["random", FirstLegal()], generate_boards(game, 160, seed=21),
                          value=PlayoutValue(1), seed=5, resamples=100)
    corr = np.array([b["diff"] - b["diff_cv"] for b in res.boards])
    assert np.count_nonzero(corr) > 100
    se = corr.std(ddof=1) / np.sqrt(corr.size)
    assert abs(corr.mean()) < 3.5 * se
