"""Differential test: the engine against the independent review reference (``reference_review.py``).

Random games through the public API; after every action the current player, the sorted legal actions and
terminality must agree, and at the end the returns.
"""

from __future__ import annotations

import random

import pytest

import tarockrl
from tests.dreiertarock.reference_review import RefDreiertarock

OPTION_SETS = [
    {},
    {"all_pass_rule": "trischaken"},
    {"forehand_must_bid": True, "discard_tarock_rule": "free"},
    {"kontra_max_level": 1, "announce_first_turn_only": False},
    {"defender_announcements": False, "kontra_enabled": False, "solo_declarer_leads": True},
    {"valat_factor": 0, "silent_bird_failure_penalty": True, "trull_counts_non_trick_cards": True},
    {"valat_cancels_silent_bonuses": False, "solo_bonus_factor": 2, "kaiserstich": True},
    {"solo_valat_early_end": False, "redeal_without_tarock": True},
    {"all_pass_rule": "trischaken", "kaiserstich": True, "trischaken_value": 7},
]


def _policy(rng: random.Random, legal: list[int], bias: int) -> int:
    # bias 0: uniform; bias 1: prefer GOOD / PASS less often to get long auctions and doubling chains;
    # bias 2: prefer passing in the auction (reaches all-pass deals and short auctions)
    if bias == 1:
        non = [a for a in legal if a not in (108, 126)]
        if non and rng.random() < 0.7:
            return rng.choice(non)
    elif bias == 2 and 108 in legal and rng.random() < 0.6:
        return 108
    return rng.choice(legal)


def compare_one(seed: int, options: dict, bias: int = 0) -> int:
    game = tarockrl.make_game("dreiertarock", **options)
    st = game.new_initial_state(seed=seed)
    ref = RefDreiertarock(st.deal(), **options)
    rng = random.Random(seed * 7919 + bias)
    n = 0
    while True:
        ctx = f"seed={seed} options={options} bias={bias} history={st.history()}"
        assert st.is_terminal() == ref.is_terminal(), ctx
        if st.is_terminal():
            break
        assert st.current_player() == ref.current_player(), ctx
        legal = st.legal_actions()
        assert legal == ref.legal_actions(), ctx
        a = _policy(rng, legal, bias)
        st.apply_action(a)
        ref.apply(a)
        n += 1
    assert st.legal_actions() == [], ctx
    assert [int(x) for x in st.returns()] == ref.returns(), ctx
    assert list(st.returns()) == [float(x) for x in ref.returns()], ctx
    return n


def test_reference_review_default():
    for seed in range(120):
        compare_one(seed, {}, bias=seed % 3)
    for i, opts in enumerate(OPTION_SETS[1:]):
        for seed in range(12):
            compare_one(1000 + 100 * i + seed, opts, bias=seed % 3)


@pytest.mark.slow
def test_reference_review_many():
    for seed in range(4000):
        compare_one(10_000 + seed, {}, bias=seed % 3)
    for i, opts in enumerate(OPTION_SETS[1:]):
        for seed in range(600):
            compare_one(100_000 + 1000 * i + seed, opts, bias=seed % 3)
