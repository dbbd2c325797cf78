"""Golden perft counts: the number of legal action sequences of a given length from fixed positions.

The small depths were cross-checked against the slow reference implementation (tests/dreiertarock/reference_naive.py);
the numbers are stored so that any change of the rules kernels shows up here.
"""

from __future__ import annotations

import copy

import pytest

import tarockrl
from tarockrl.games.dreiertarock.text import parse_action
from tests.dreiertarock.helpers import acts
from tests.dreiertarock.reference_naive import Naive
from tests.dreiertarock.test_options import SCRIPT_A, SCRIPT_D
from tests.dreiertarock.test_worked_examples import DEAL_A, DEAL_D, DEAL_E

SCRIPT_TALON_A = SCRIPT_A.split("; s0 TAKE")[0]
SCRIPT_ANNOUNCE_D = SCRIPT_D.split("; s0 GOOD")[0]
SCRIPT_TRISCHAKEN = "s0 PASS; s1 PASS; s2 PASS"

POSITIONS = {
    "A-initial": (DEAL_A, "", {}),
    "A-talon": (DEAL_A, SCRIPT_TALON_A, {}),
    "A-play": (DEAL_A, SCRIPT_A, {}),
    "D-announce": (DEAL_D, SCRIPT_ANNOUNCE_D, {}),
    "E-trischaken": (DEAL_E, SCRIPT_TRISCHAKEN, {"all_pass_rule": "trischaken"}),
    "A-initial-auto": (DEAL_A, "", {"auto_play_forced": True}),
}

GOLDEN = [
    ("A-initial", [4, 11, 27, 41, 137, 770], {8: 15106, 10: 155233, 12: 1932094}),
    ("A-talon", [2, 17, 128, 840, 1680], {}),
    ("A-play", [16, 59, 312, 4680, 17411, 80872], {7: 1132208}),
    ("D-announce", [1, 5, 18, 60, 145, 373], {8: 15327, 10: 569224}),
    ("E-trischaken", [16, 42, 128, 1835, 4271, 12732], {7: 170942}),
    ("A-initial-auto", [4, 12, 32, 99, 419, 2444], {}),
]


def position(name):
    deal, script, options = POSITIONS[name]
    game = tarockrl.make_game("dreiertarock", **options)
    state = game.new_initial_state(deal=deal)
    acts(state, script)
    return game, state, options


@pytest.mark.parametrize("name, shallow, deep", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_perft(name, shallow, deep):
    game, state, _ = position(name)
    before = state.to_bytes()
    assert [game.perft(state, d) for d in range(1, len(shallow) + 1)] == shallow
    for depth, count in deep.items():
        assert game.perft(state, depth) == count
    assert state.to_bytes() == before  # perft never touches its argument
    assert game.perft(state, 0) == 1


def test_golden_perft_seeded_deals():
    game = tarockrl.make_game("dreiertarock")
    assert game.perft(game.new_initial_state(seed=3), 12) == 2145759
    game = tarockrl.make_game("dreiertarock", all_pass_rule="trischaken", kaiserstich=True)
    assert game.perft(game.new_initial_state(seed=3), 12) == 3491658


def _naive_perft(ref, depth):
    if depth == 0 or ref.is_terminal():
        return 1
    total = 0
    for a in ref.legal_actions():
        child = copy.deepcopy(ref)
        child.apply(a)
        total += _naive_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("name", ["A-initial", "A-talon", "D-announce", "E-trischaken"])
def test_perft_agrees_with_reference(name):
    game, state, options = position(name)
    deal, script, _ = POSITIONS[name]
    ref = Naive(deal, **options)
    for part in filter(None, (p.strip() for p in script.split(";"))):
        ref.apply(parse_action(part.split(None, 1)[1]))
    assert _naive_perft(ref, 4) == game.perft(state, 4)
