"""The numba engine against the slow reference implementation (tests/dreiertarock/reference_naive.py), action by action.

Random deals, random rules options and random (partly greedy) actions: at every decision both must agree on
the seat to act and the exact legal set, and at the end on the settlement.
"""

from __future__ import annotations

import random

import pytest

import tarockrl
from tarockrl.games.dreiertarock import layout as L
from tests.dreiertarock.reference_naive import Naive

OPTION_CHOICES = {
    "all_pass_rule": ["redeal", "trischaken"],
    "trischaken_value": [30, 0, 11],
    "forehand_must_bid": [False, True],
    "discard_tarock_rule": ["forced_only", "free"],
    "redeal_without_tarock": [False, True],
    "kontra_enabled": [True, False],
    "kontra_max_level": [3, 0, 1, 2],
    "defender_announcements": [True, False],
    "announce_first_turn_only": [True, False],
    "trull_counts_non_trick_cards": [False, True],
    "silent_bird_failure_penalty": [False, True],
    "valat_factor": [4, 0, 1, 7],
    "valat_cancels_silent_bonuses": [True, False],
    "solo_bonus_factor": [1, 2, 0],
    "solo_declarer_leads": [False, True],
    "kaiserstich": [False, True],
    "solo_valat_early_end": [True, False],
    "auto_play_forced": [False, True],
}


def random_options(rnd: random.Random) -> dict:
    if rnd.random() < 0.25:
        return {}
    return {k: rnd.choice(v) for k, v in OPTION_CHOICES.items() if rnd.random() < 0.5}


def choose(rnd: random.Random, state, legal: list[int], style: int) -> int:
    """Uniform, or biased towards strong play (highest card / bidding / no passing) to reach rarer outcomes."""
    phase = state.phase()
    if phase == "auction" and rnd.random() < 0.85:  # keep Solo and Solo Valat from swamping the sample
        legal = [a for a in legal if a < 115] or legal
    if style == 0 or rnd.random() < 0.3:
        return rnd.choice(legal)
    if phase == "play":  # style 1: the declarer plays high, the defenders low; style 2 the reverse
        high = (state.current_player() == state.row[L.DECLARER]) == (style == 1)
        return legal[-1] if high else legal[0]
    if phase == "auction" and style == 1:
        bids = [a for a in legal if a != 108 and a < 115]
        return rnd.choice(bids) if bids else 108
    if phase == "announce":
        non_good = [a for a in legal if a != 126]
        return rnd.choice(non_good) if non_good and rnd.random() < 0.7 else 126
    return rnd.choice(legal)


def run_games(n: int, seed: int) -> int:
    rnd = random.Random(seed)
    checked = 0
    for g in range(n):
        opts = random_options(rnd)
        if g % 7 == 3:
            opts["all_pass_rule"] = "trischaken"
            opts["forehand_must_bid"] = False
        game = tarockrl.make_game("dreiertarock", **opts)
        state = game.new_initial_state(seed=seed, deal_id=g)
        ref = Naive(state.deal(), **opts)
        style = rnd.randrange(3)
        if g % 7 == 3:
            while not state.is_terminal() and state.phase() == "auction":
                state.apply_action(108)
                ref.apply(108)
        while True:
            assert state.current_player() == ref.current_player(), (g, opts, state.history())
            legal = state.legal_actions()
            assert legal == ref.legal_actions(), (g, opts, state.history())
            checked += 1
            if state.is_terminal():
                break
            a = choose(rnd, state, legal, style)
            state.apply_action(a)
            ref.apply(a)
        assert state.returns().tolist() == ref.returns(), (g, opts, state.history())
        assert state.history() == ref.history
    return checked


def test_engine_matches_reference():
    assert run_games(400, seed=11) > 10_000


@pytest.mark.slow
def test_engine_matches_reference_long():
    run_games(20_000, seed=12)
