"""Cross-check of the engine against the independent pure-Python reference (``reference.py``).

Random and skewed deals are played with random legal actions; after every action the engine and the reference
must agree on the phase, the seat to move, the sorted legal actions and terminality, and at the end on the returns.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import IllegalActionError
from tests.dreierles.reference import (
    A_DISCARD,
    CODES,
    DREIER,
    INDEX,
    KINGS,
    KNOCK,
    NO_ANNOUNCE,
    NO_KNOCK,
    PASS,
    PFEIFE,
    ZWEIER,
    Reference,
)

A_PLAY = 63


def _skewed_deal(rng: random.Random) -> dict:
    """A deal where one seat gets many trumps and kings (drives the discard fallback, Zehn Druck, Drulle...)."""
    strong = [c for c in range(22)] + sorted(KINGS)
    rng.shuffle(strong)
    rest = [c for c in range(54) if c not in strong]
    rng.shuffle(rest)
    lucky = rng.randrange(3)
    n_strong = rng.randint(12, 16)
    hands: list[list[int]] = [[], [], []]
    hands[lucky] = strong[:n_strong]
    pool = strong[n_strong:] + rest
    rng.shuffle(pool)
    hands[lucky] += pool[: 16 - n_strong]
    pool = pool[16 - n_strong :]
    others = [s for s in range(3) if s != lucky]
    hands[others[0]] = pool[:16]
    hands[others[1]] = pool[16:32]
    blind = pool[32:38]
    if rng.random() < 0.5:  # put strong cards on top of the blind too
        blind.sort(key=lambda c: (c > 21 and c not in KINGS, rng.random()))
    return {
        "dealer": rng.randrange(3),
        "hands": [[CODES[c] for c in h] for h in hands],
        "blind": [CODES[c] for c in blind],
    }


def _choose(rng: random.Random, state, legal: list[int]) -> int:
    phase = state.phase()
    if phase == "auction" and PASS in legal and rng.random() < 0.55:
        return PASS
    if phase == "play" and len(legal) > 1 and (A_PLAY + PFEIFE) in legal and rng.random() < 0.85:
        legal = [a for a in legal if a != A_PLAY + PFEIFE]  # keep the Pfeife for the last trick more often
    return rng.choice(legal)


def _compare_game(game, options: dict, rng: random.Random, deal: dict | None, seed: int | None) -> None:
    state = game.new_initial_state(deal=deal) if deal is not None else game.new_initial_state(seed=seed)
    d = state.deal()
    if deal is not None:
        assert d["dealer"] == deal["dealer"] and list(d["blind"]) == list(deal["blind"])
    auto = bool(options.get("auto_play_forced", False))
    ref = Reference(d, **{k: v for k, v in options.items() if k != "auto_play_forced"})
    ref_history: list[int] = []
    while True:
        ctx = (options, d, state.history())
        assert state.phase() == ref.phase, ctx
        assert state.current_player() == ref.current_player(), ctx
        assert state.is_terminal() == ref.is_terminal(), ctx
        legal = state.legal_actions()
        assert legal == ref.legal_actions(), ctx
        if state.is_terminal():
            break
        if rng.random() < 0.05:  # an illegal action is rejected and leaves the state unchanged
            bad = rng.choice([x for x in range(117) if x not in legal])
            before = state.to_bytes()
            with pytest.raises(IllegalActionError):
                state.apply_action(bad)
            assert state.to_bytes() == before
        a = _choose(rng, state, legal)
        state.apply_action(a)
        ref.apply(a)
        ref_history.append(a)
        while auto and not ref.is_terminal() and len(ref.legal_actions()) == 1:
            forced = ref.legal_actions()[0]
            ref.apply(forced)
            ref_history.append(forced)
        assert state.history() == ref_history, ctx
    assert 49 <= len(ref_history) <= 56
    np.testing.assert_allclose(state.returns(), ref.returns(), err_msg=str((options, d, state.history())))


CONFIGS = [
    {},
    {"raeuber_restrictions": "iffezheim"},
    {"last_round_raeuber_or_solo": True},
    {"raeuber_restrictions": "none"},
    {"raeuber_pfeife_rule": "third_trump_trick", "raeuber_21_rule": "not_with_stiess"},
    {"raeuber_pfeife_carry_over": False},
    {"knock_eligibility": "not_passed", "max_defender_knocks": 2, "pfeife_announce_timing": "after_knocks"},
    {"allow_reknock": False, "knock_doubles_bonuses": True, "hand_bonus_basis": "dealt"},
    {"counting_method": "exact_thirds", "min_one_unit_on_loss": True, "raeuber_max_knocks": 1},
    {"raeuber_bonuses": True, "pfeife_defender_loss_scores_declarer": False, "raeuber_max_knocks": 0},
    {"auto_play_forced": True, "contract_factors": (2, 3, 5, 7), "zehn_druck_min_trumps": 9, "bonus_drulle": 3},
    {"raeuber_base": 6, "last_round_raeuber_or_solo": True, "last_round_raeuber_base": 8, "pfeife_value_silent": 3,
     "pfeife_value_announced": 5, "bonus_koenigsrolle": 2, "bonus_zehn_druck": 2},
]


def _run(config: dict, n_games: int, seed: int) -> None:
    game = tarockrl.make_game("dreierles", **config)
    rng = random.Random(seed)
    for i in range(n_games):
        if i % 3 == 2:
            _compare_game(game, config, rng, _skewed_deal(rng), None)
        else:
            _compare_game(game, config, rng, None, seed * 100003 + i)


@pytest.mark.parametrize("config", CONFIGS[:3], ids=["default", "iffezheim", "last_round"])
def test_reference_agrees(config):
    _run(config, 1500 if not config else 600, 7)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=[str(i) for i in range(len(CONFIGS))])
def test_reference_agrees_many(config):
    _run(config, 3000, 11)


def _ref_play_tricks(ref: Reference, lines: list[str]) -> None:
    for line in lines:
        for part in line.split(","):
            seat, card = part.split()
            assert ref.current_player() == "ABC".index(seat)
            ref.apply(A_PLAY + INDEX[card])


def test_reference_reproduces_worked_examples():
    """The reference itself reproduces the spec's complete worked deals E2 (Zweier) and E6 (Räuber)."""
    from tests.dreierles.test_worked_examples import E2_DEAL, E2_TRICKS, E6_DEAL, E6_TRICKS

    ref = Reference(E2_DEAL)
    for a in (DREIER, ZWEIER, PASS, A_DISCARD + INDEX["H1"], A_DISCARD + INDEX["D1"], NO_ANNOUNCE, KNOCK, KNOCK):
        ref.apply(a)
    _ref_play_tricks(ref, E2_TRICKS)
    assert ref.returns() == [-18.0, 36.0, -18.0]
    ref = Reference(E2_DEAL, hand_bonus_basis="dealt")
    for a in (DREIER, ZWEIER, PASS, A_DISCARD + INDEX["H1"], A_DISCARD + INDEX["D1"], NO_ANNOUNCE, KNOCK, KNOCK):
        ref.apply(a)
    _ref_play_tricks(ref, E2_TRICKS)
    assert ref.returns() == [-17.0, 34.0, -17.0]

    ref = Reference(E6_DEAL)
    for a in (PASS, PASS, PASS, KNOCK, NO_KNOCK, KNOCK):
        ref.apply(a)
    _ref_play_tricks(ref, E6_TRICKS)
    assert ref.returns() == [8.0, 8.0, -16.0]
