"""The rule-based Dreierles player: legal everywhere, no peeking, deterministic, and its headline heuristics."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.rules.dreierles import RulesAgent, hand_strength, raeuber_safety
from tarockrl.errors import GameOverError, WrongGameError
from tarockrl.games.dreierles.cards import CARD_CODES as CODES
from tarockrl.games.dreierles.rules import DreierlesRules
from tests.agents.rules_helpers import act, drive, name_of, options_id

GAME = "dreierles"
_INT_VARIANTS = {
    "max_defender_knocks": [2],
    "raeuber_max_knocks": [0, 1],
    "zehn_druck_min_trumps": [8],
    "raeuber_base": [4],
    "pfeife_value_silent": [0],
    "bonus_drulle": [3],
}
_COMBOS = [
    {"last_round_raeuber_or_solo": True, "knock_eligibility": "not_passed", "max_defender_knocks": 2},
    {"raeuber_restrictions": "steinmauern", "raeuber_pfeife_rule": "third_trump_trick", "raeuber_21_rule": "none"},
    {"pfeife_announce_timing": "after_knocks", "allow_reknock": False, "counting_method": "exact_thirds"},
]


def option_sets() -> list[dict]:
    """The default rules, every non-default value of every choice and flag, some integer values, a few combos."""
    out: list[dict] = [{}]
    for f in dataclasses.fields(DreierlesRules):
        kind = f.metadata.get("kind")
        if f.name in ("four_player_table", "money_per_gp_cents"):
            continue
        if kind == "choice":
            out += [{f.name: c} for c in f.metadata["choices"] if c != f.default]
        elif kind == "flag":
            out.append({f.name: not f.default})
    out += [{k: v} for k, vals in _INT_VARIANTS.items() for v in vals]
    out.append({"contract_factors": (1, 1, 1, 1)})
    return out + _COMBOS


def _idx(code: str) -> int:
    return CODES.index(code)


def make_deal(dealer: int, hands: list[list[str]], blind: list[str] | None = None) -> dict:
    """A full deal from partial hands: the unnamed cards fill the hands and then the blind in index order."""
    blind = list(blind or [])
    named = {c for h in hands for c in h} | set(blind)
    assert len(named) == sum(len(h) for h in hands) + len(blind), "a card is named twice"
    rest = [c for c in CODES if c not in named]
    full = []
    for h in hands:
        h = list(h)
        while len(h) < 16:
            h.append(rest.pop(0))
        full.append(h)
    while len(blind) < 6:
        blind.append(rest.pop(0))
    return {"dealer": dealer, "hands": full, "blind": blind}


@pytest.mark.parametrize("options", option_sets(), ids=options_id)
def test_legal_in_every_option_set(options):
    game = tarockrl.make_game(GAME, **options)
    n_rules, checked = drive(game, deals=30, seed=len(str(options)), check_resample=1, p_check=0.05)
    assert n_rules > 600 and checked > 10


def test_legal_in_thousands_of_positions_and_every_phase():
    game = tarockrl.make_game(GAME)
    seen = set()
    rng = np.random.default_rng(5)
    agent = RulesAgent(game)
    for d in range(120):
        state = game.new_initial_state(seed=11, deal_id=d)
        mix = rng.random()
        while not state.is_terminal():
            seen.add(state.phase())
            if rng.random() < mix:
                a = int(rng.choice(state.legal_actions()))
            else:
                a = agent.step(state)
            state.apply_action(a)
    assert {"auction", "discard", "announce", "knock", "reknock", "raeuber_knock", "play"} <= seen


def test_no_peeking_resampled_worlds_give_the_same_action():
    for options in ({}, {"defenders_see_unused_blind": False}, {"last_round_raeuber_or_solo": True}):
        game = tarockrl.make_game(GAME, **options)
        _, checked = drive(game, deals=12, seed=3, check_resample=3)
        assert checked > 60


def test_deterministic_for_a_seed():
    game = tarockrl.make_game(GAME)

    def run(seed):
        agent = make_agent("rules", game, seed=seed)
        state = game.new_initial_state(seed=9, deal_id=4)
        while not state.is_terminal():
            state.apply_action(agent.step(state))
        return state.history()

    assert run(1) == run(1)
    assert run(1) == run(2)  # no random choices at all


def test_step_at_the_end_is_an_error():
    game = tarockrl.make_game(GAME)
    state = game.new_initial_state(seed=0)
    agent = RulesAgent(game)
    while not state.is_terminal():
        state.apply_action(agent.step(state))
    with pytest.raises(GameOverError):
        agent.step(state)
    with pytest.raises(WrongGameError):
        RulesAgent(tarockrl.make_game("dreiertarock"))
    with pytest.raises(WrongGameError):  # a state of the same game with other rules options
        agent.step(tarockrl.make_game(GAME, raeuber_base=4).new_initial_state(seed=0))
    with pytest.raises(WrongGameError):
        agent.step(tarockrl.make_game("dreiertarock").new_initial_state(seed=0))


# ---- headline heuristics on hand-made positions ---------------------------------------------------------------------

STRONG = ["ST", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T1", "HK", "DK", "CK", "SK"]
WEAK = ["T2", "T3", "T4", "H4", "H3", "H2", "D4", "D3", "D2", "C7", "C8", "C9", "S7", "S8", "S9", "HJ"]


def test_bidding_by_strength():
    game = tarockrl.make_game(GAME)
    # dealer 2: forehand is seat 0
    strong = game.new_initial_state(deal=make_deal(2, [STRONG, [], []]))
    assert name_of(strong) == "BID Solo"
    weak = game.new_initial_state(deal=make_deal(2, [WEAK, [], []]))
    assert name_of(weak) == "PASS"
    assert hand_strength(sum(1 << _idx(c) for c in STRONG)) > hand_strength(sum(1 << _idx(c) for c in WEAK)) + 10
    medium = ["ST", "T20", "T18", "T15", "T12", "T10", "T8", "T5", "HK", "DK", "H4", "H3", "D4", "C7", "C8", "S7"]
    s = game.new_initial_state(deal=make_deal(2, [medium, [], []]))
    assert name_of(s) in ("BID Dreier", "BID Zweier")  # worth a contract with the blind, not a Solo


def test_last_round_only_solo_or_pass():
    game = tarockrl.make_game(GAME, last_round_raeuber_or_solo=True)
    assert name_of(game.new_initial_state(deal=make_deal(2, [STRONG, [], []]))) == "BID Solo"
    assert name_of(game.new_initial_state(deal=make_deal(2, [WEAK, [], []]))) == "PASS"


def test_pfeife_announced_only_with_backing():
    game = tarockrl.make_game(GAME)
    s = game.new_initial_state(deal=make_deal(2, [STRONG, [], []]))
    act(s, "BID Solo")
    assert s.phase() == "announce" and name_of(s) == "ANNOUNCE_PFEIFE"
    thin = ["T1", "T5", "T9", "T13", "T17", "HK", "HQ", "DK", "D4", "CK", "C7", "C8", "SK", "S7", "S8", "S9"]
    s = game.new_initial_state(deal=make_deal(2, [thin, [], []]))
    act(s, "BID Solo")
    assert name_of(s) == "NO_ANNOUNCE"


def test_declarer_draws_trumps_with_the_stiess():
    game = tarockrl.make_game(GAME)
    s = game.new_initial_state(deal=make_deal(2, [STRONG, [], []]))
    act(s, "BID Solo", "NO_ANNOUNCE")
    assert name_of(s) == "PLAY ST"


def _solo_trick(seat1: list[str], seat2: list[str], *plays: str):
    """Forehand (seat 0) declares a Solo without the Pfeife; then the given cards are played."""
    game = tarockrl.make_game(GAME)
    decl = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "H4", "D4", "C7", "S7", "S8"]
    s = game.new_initial_state(deal=make_deal(2, [decl, seat1, seat2]))
    act(s, "BID Solo", *plays)
    return s


def test_smear_points_on_the_partners_sure_trick():
    s = _solo_trick(["HK", "H1"], ["HQ", "H3", "T13"], "PLAY H4", "PLAY HK")
    assert name_of(s) == "PLAY HQ"  # partner's king wins for sure: the queen goes on it


def test_duck_cheaply_and_save_the_pfeife():
    # The declarer leads T12; the first defender cannot beat the trumps behind him: his cheapest trump, never the
    # Pfeife (5 points) while a cheaper trump can follow.
    s = _solo_trick(["T1", "T13", "H1", "HK"], ["T15", "T16", "T17", "T18", "T19", "T20", "T21", "ST"],
                    "PLAY T12")
    assert name_of(s) == "PLAY T13"


def test_trump_in_when_profitable():
    # Seat 2 is void in hearts: the declarer's king is taken with the lowest trump (seat 2 plays last).
    game = tarockrl.make_game(GAME)
    decl = ["HK", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "D4", "C7", "S7", "S8"]
    seat2 = ["T13", "T14", "ST", "DK", "D1", "CK", "C10", "SK", "S10", "SQ", "CQ", "DQ", "DN", "CN", "SN", "SJ"]
    s = game.new_initial_state(deal=make_deal(2, [decl, ["H4", "H3"], seat2]))
    act(s, "BID Solo", "PLAY HK", "PLAY H4")
    assert name_of(s) == "PLAY T13"


def test_raeuber_duck_under_and_knock_by_safety():
    game = tarockrl.make_game(GAME)
    deal = make_deal(2, [["HK", "T2", "T3", "D4", "D3", "C7", "C8", "S7", "S8", "H4"], ["HQ", "H3"], []])
    s = game.new_initial_state(deal=deal)
    act(s, "PASS", "PASS", "PASS")
    assert s.phase() == "raeuber_knock"
    act(s, "NO_KNOCK", "NO_KNOCK", "NO_KNOCK", "PLAY HK")
    assert name_of(s) == "PLAY HQ"  # under the king, and rid of four points
    safe = sum(1 << _idx(c) for c in WEAK)
    risky = sum(1 << _idx(c) for c in STRONG)
    assert raeuber_safety(safe) >= RulesAgent.RAEUBER_KNOCK > raeuber_safety(risky)
