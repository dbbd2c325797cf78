"""The rule-based Dreiertarock player: legal everywhere, no peeking, deterministic, and its headline heuristics."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.rules.dreiertarock import RulesAgent
from tarockrl.errors import GameOverError, WrongGameError
from tarockrl.games.dreiertarock.cards import CARD_CODES as CODES
from tarockrl.games.dreiertarock.rules import DreiertarockRules
from tests.agents.rules_helpers import act, drive, name_of, options_id

GAME = "dreiertarock"
_INT_VARIANTS = {
    "kontra_max_level": [0, 1, 2],
    "valat_factor": [0],
    "solo_bonus_factor": [2],
    "trischaken_value": [10],
}
_COMBOS = [
    {"all_pass_rule": "trischaken", "kaiserstich": True, "forehand_must_bid": False},
    {"announce_first_turn_only": False, "defender_announcements": False, "silent_bird_failure_penalty": True},
    {"solo_declarer_leads": True, "solo_valat_early_end": False, "discard_tarock_rule": "free"},
]


def option_sets() -> list[dict]:
    """The default rules, every non-default value of every choice and flag, some integer values, a few combos."""
    out: list[dict] = [{}]
    for f in dataclasses.fields(DreiertarockRules):
        kind = f.metadata.get("kind")
        if kind == "choice":
            out += [{f.name: c} for c in f.metadata["choices"] if c != f.default]
        elif kind == "flag":
            out.append({f.name: not f.default})
    out += [{k: v} for k, vals in _INT_VARIANTS.items() for v in vals]
    return out + _COMBOS


def _idx(code: str) -> int:
    return CODES.index(code)


def make_deal(dealer: int, hands: list[list[str]], packets: list[list[str]] | None = None) -> dict:
    """A full deal from partial hands and packets: the unnamed cards fill the packets, then the hands, in index
    order."""
    packets = [list(p) for p in (packets or [[], []])]
    named = {c for h in hands for c in h} | {c for p in packets for c in p}
    assert len(named) == sum(len(h) for h in hands) + sum(len(p) for p in packets), "a card is named twice"
    rest = [c for c in CODES if c not in named]
    full = []
    for h in hands:
        h = list(h)
        while len(h) < 16:
            h.append(rest.pop(0))
        full.append(h)
    for p in packets:
        while len(p) < 3:
            p.append(rest.pop(0))
    return {"dealer": dealer, "hands": full, "talon_packets": packets}


@pytest.mark.parametrize("options", option_sets(), ids=options_id)
def test_legal_in_every_option_set(options):
    game = tarockrl.make_game(GAME, **options)
    n_rules, checked = drive(game, deals=40, seed=len(str(options)), check_resample=1, p_check=0.05)
    assert n_rules > 300 and checked > 5


def test_legal_in_thousands_of_positions_and_every_phase():
    seen = set()
    rng = np.random.default_rng(5)
    for options in ({}, {"all_pass_rule": "trischaken"}):
        game = tarockrl.make_game(GAME, **options)
        agent = RulesAgent(game)
        for d in range(80):
            state = game.new_initial_state(seed=11, deal_id=d)
            mix = rng.random()
            while not state.is_terminal():
                seen.add(state.phase())
                a = int(rng.choice(state.legal_actions())) if rng.random() < mix else agent.step(state)
                state.apply_action(a)
    assert {"auction", "talon", "discard", "announce", "play"} <= seen


def test_no_peeking_resampled_worlds_give_the_same_action():
    for options in ({}, {"all_pass_rule": "trischaken"}):
        game = tarockrl.make_game(GAME, **options)
        _, checked = drive(game, deals=16, seed=3, check_resample=3)
        assert checked > 40


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
        RulesAgent(tarockrl.make_game("dreierles"))
    with pytest.raises(WrongGameError):  # a state of the same game with other rules options
        agent.step(tarockrl.make_game(GAME, kaiserstich=True).new_initial_state(seed=0))
    with pytest.raises(WrongGameError):
        agent.step(tarockrl.make_game("dreierles").new_initial_state(seed=0))


# ---- headline heuristics on hand-made positions ---------------------------------------------------------------------

STRONG = ["SKS", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T1", "HK", "DK", "CK", "SK"]
WEAK = ["T2", "T3", "T4", "H4", "H3", "H2", "D4", "D3", "D2", "C7", "C8", "C9", "S7", "S8", "S9", "HJ"]


def test_bidding_by_strength():
    game = tarockrl.make_game(GAME)
    assert name_of(game.new_initial_state(deal=make_deal(2, [STRONG, [], []]))) == "BID_SOLO"
    assert name_of(game.new_initial_state(deal=make_deal(2, [WEAK, [], []]))) == "PASS"
    must = tarockrl.make_game(GAME, forehand_must_bid=True)
    assert name_of(must.new_initial_state(deal=make_deal(2, [WEAK, [], []]))) == "BID_EINSER"


def test_senior_holds_and_junior_raises_within_his_limit():
    game = tarockrl.make_game(GAME)
    agent = RulesAgent(game)
    good = ["SKS", "T21", "T20", "T17", "T15", "T12", "T10", "T7", "HK", "DK", "H4", "H3", "D4", "C7", "C8", "S7"]
    s = game.new_initial_state(deal=make_deal(2, [good, [], []]))
    top = agent.max_level(sum(1 << _idx(c) for c in good))
    assert 1 <= top <= 5
    assert name_of(s) == "BID_EINSER"
    act(s, "BID_EINSER", "BID_ZWEIER")  # middlehand (a junior) raises over forehand
    expected = "HOLD" if top >= 2 else "PASS"
    act(s, "PASS")  # the dealer passes; forehand (senior) may hold
    assert name_of(s) == expected


def test_talon_choice_and_discards():
    game = tarockrl.make_game(GAME)
    hand = ["SKS", "T21", "T20", "T19", "T18", "T16", "T14", "T12", "T10", "HK", "H4", "H3", "D4", "DQ", "C7", "S7"]
    packets = [["H2", "D3", "C8"], ["T17", "CK", "SQ"]]
    s = game.new_initial_state(deal=make_deal(2, [hand, [], []], packets))
    act(s, "BID_EINSER", "PASS", "PASS")
    assert s.phase() == "talon"
    assert name_of(s) == "TAKE_PACKET_1"  # the tarock and the king
    act(s, "TAKE_PACKET_1")
    discards = []
    for _ in range(3):
        n = name_of(s)
        discards.append(n)
        s.apply_action(RulesAgent(game).step(s))
    cards = {d.split()[1] for d in discards}
    assert "SQ" in cards or "DQ" in cards  # points banked in the declarer's own pile
    assert not cards & {"HK", "CK", "SKS", "T21"}


def test_pagat_announced_only_with_backing_and_kontra_by_strength():
    game = tarockrl.make_game(GAME)
    s = game.new_initial_state(deal=make_deal(2, [STRONG, [], []]))
    act(s, "BID_SOLO", "PASS", "PASS")
    assert s.phase() == "announce" and name_of(s) == "ANNOUNCE_PAGAT"
    thin = ["T1", "T5", "T9", "T13", "T17", "HK", "HQ", "DK", "D4", "CK", "C7", "C8", "SK", "S7", "S8", "S9"]
    s = game.new_initial_state(deal=make_deal(2, [thin, [], []]))
    act(s, "BID_SOLO", "PASS", "PASS")
    assert name_of(s) == "GOOD"
    # A defender with a strong hand doubles the game; a weak one does not.
    decl = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "HK", "DK", "CK", "SK", "HQ", "DQ", "CQ"]
    strong_def = ["SKS", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "H4", "D4", "C7", "S7",
                  "S8", "S9"]
    s = game.new_initial_state(deal=make_deal(2, [decl, strong_def, []]))
    act(s, "BID_SOLO", "PASS", "PASS", "GOOD")
    assert s.current_player() == 1 and name_of(s) == "DOUBLE_GAME"
    weak_def = ["H4", "H3", "H2", "D3", "D2", "C8", "C9", "S8", "S9", "HJ", "DJ", "CJ", "SJ", "H1", "D1", "C10"]
    s = game.new_initial_state(deal=make_deal(2, [decl, weak_def, []]))
    act(s, "BID_SOLO", "PASS", "PASS", "GOOD")
    assert name_of(s) == "GOOD"


def test_smear_on_the_partners_sure_trick():
    game = tarockrl.make_game(GAME)
    # Forehand (seat 0) leads in every contract; middlehand (seat 1) declares a Solo.
    s = game.new_initial_state(deal=make_deal(2, [["HK", "H1"], ["H4", "T2"], ["HQ", "H3", "T13"]]))
    act(s, "PASS", "BID_SOLO", "PASS", "GOOD", "GOOD", "GOOD", "PLAY HK", "PLAY H4")
    assert s.current_player() == 2 and name_of(s) == "PLAY HQ"  # the partner's king holds: smear the queen


def test_trischaken_ducks_under():
    game = tarockrl.make_game(GAME, all_pass_rule="trischaken")
    s = game.new_initial_state(deal=make_deal(2, [["HK", "T2", "T3", "D4", "C7", "S7"], ["HQ", "H3", "H4"], []]))
    act(s, "PASS", "PASS", "PASS", "PLAY HK")
    assert name_of(s) == "PLAY HQ"


def test_defender_keeps_a_low_tarock_against_the_declarers_pagat():
    game = tarockrl.make_game(GAME)
    # Middlehand (seat 1) plays a Solo holding the Pagat; seat 2 holds only T5 and T10 as tarocks.
    s = game.new_initial_state(deal=make_deal(2, [["T2"], ["T1", "T20"], ["T5", "T10"]]))
    act(s, "PASS", "BID_SOLO", "PASS", "GOOD", "GOOD", "GOOD", "PLAY T2", "PLAY T20")
    assert name_of(s) == "PLAY T10"  # T5 stays back to beat the Pagat in trick 16
