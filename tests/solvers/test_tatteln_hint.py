"""The Tatteln static move score (solver move ordering, PIMC's ``heuristic`` rollouts) and PIMC in Tatteln.

Hand-made positions where a card player knows the answer, properties of the final phase (where both hands are
known), heuristic rollouts that stay legal, and PIMC being exact once the stock is gone.
"""

from __future__ import annotations

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.pimc import game_defaults
from tarockrl.agents.pimc_rollouts import RolloutPolicy
from tarockrl.games.api import State
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import CARD_CODES_32, HIGHER, SUIT_MASK, parse_card
from tarockrl.solvers import solve
from tarockrl.solvers.adapters._tatteln_hint import tatteln_hint

GAME = tarockrl.make_game("tatteln")
ALL = set(CARD_CODES_32)
SEQ, SET, ROB = 32, 33, 34


def _deal(forehand, dealer_hand, turn_up, dealer=1):
    used = set(forehand.split()) | set(dealer_hand.split()) | {turn_up}
    hands = [None, None]
    hands[1 - dealer] = forehand.split()
    hands[dealer] = dealer_hand.split()
    return {"dealer": dealer, "hands": hands, "turn_up": turn_up, "stock": sorted(ALL - used)}


def _scores(state):
    """``{action: hint}`` over the legal actions of ``state``."""
    row, opts, p = state._row, state.game.encoded_options, state.current_player()
    return {a: int(tatteln_hint(row, opts, np.int64(a), np.int64(p))) for a in state.legal_actions()}


def _best_card(state):
    s = {a: v for a, v in _scores(state).items() if a < 32}
    return max(s, key=s.get)


def test_takes_a_led_ten_with_the_ace():
    s = GAME.new_initial_state(deal=_deal("HT D7 D8 S7 S8 DK SK HQ CQ", "HA H7 H8 D9 S9 DJ SJ C9 CJ", "C8"))
    s.apply_action(parse_card("HT"))
    assert _best_card(s) == parse_card("HA")


def test_trumps_a_led_ace_with_the_smallest_trump_and_throws_junk_on_a_blank():
    deal = _deal("SA ST D7 D8 H8 H9 DK HQ SK", "C8 CJ C9 S7 D9 H7 DJ HJ DQ", "CQ")
    s = GAME.new_initial_state(deal=deal)
    s.apply_action(parse_card("SA"))
    assert _best_card(s) == parse_card("C8")  # not the jack (20) or the nine (14)
    s = GAME.new_initial_state(deal=deal)
    s.apply_action(parse_card("D8"))
    # a blank is led: no trump spent, no point card thrown away (the queen wins it and banks 3)
    assert _best_card(s) in (parse_card("S7"), parse_card("H7"), parse_card("D9"), parse_card("DQ"))


def test_leads_a_worthless_card_outside_its_melds_in_the_stock_phase():
    s = GAME.new_initial_state(deal=_deal("HQ HJ HT DA SA D7 S8 C9 CJ", "H7 H8 H9 D8 D9 S7 S9 DK SK", "CQ"))
    assert _best_card(s) in (parse_card("D7"), parse_card("S8"))


def test_robs_first():
    s = GAME.new_initial_state(deal=_deal("C7 H8 H9 D8 D9 S8 S9 DK SK", "HA HT HK HQ DA DT CA CT SA", "CJ"))
    sc = _scores(s)
    assert ROB in sc and max(sc, key=sc.get) == ROB


def test_announces_exactly_when_good():
    # forehand: a Quart to the queen in hearts; the dealer: a Fuss to the ace in diamonds (a higher key)
    s = GAME.new_initial_state(deal=_deal("HQ HJ HT H9 CA SA D7 D8 S7", "DA DK DQ DJ DT H7 H8 S8 S9", "C8"))
    sc = _scores(s)
    assert SEQ in sc and sc[SEQ] < min(v for a, v in sc.items() if a < 32)  # "not good": never
    s.apply_action(parse_card("S7"))
    sc = _scores(s)
    assert SEQ in sc and max(sc, key=sc.get) == SEQ  # "good": before any card
    # without blocker_scores a failed announcement costs nothing: announce
    g = tarockrl.make_game("tatteln", blocker_scores=False)
    s = g.new_initial_state(deal=_deal("HQ HJ HT H9 CA SA D7 D8 S7", "DA DK DQ DJ DT H7 H8 S8 S9", "C8"))
    sc = _scores(s)
    assert max(sc, key=sc.get) == SEQ


def _final_positions(game, n, seed):
    """Final-phase positions of deals played by the rules agent."""
    rules = make_agent("rules", game, seed=seed)
    out = []
    d = 0
    while len(out) < n:
        s = game.new_initial_state(seed=seed, deal_id=d)
        d += 1
        while not s.is_terminal():
            if s.phase() == "final" and len(s.legal_actions()) > 1:
                out.append(s.clone())
            s.apply_action(rules.step(s))
    return out[:n]


def test_final_phase_leads_a_sure_winner_when_it_has_one():
    checked = 0
    for s in _final_positions(GAME, 150, seed=4):
        row = s._row
        if row[L.LED] >= 0:
            continue
        p = s.current_player()
        me, opp, trump = int(row[L.HAND + p]), int(row[L.HAND + 1 - p]), int(row[L.TRUMP])

        def sure(c):
            suit = int(SUIT_MASK[0, c // 8])
            if opp & suit:
                return (opp & int(HIGHER[0, trump + 1, c])) == 0
            return c // 8 == trump or (opp & int(SUIT_MASK[0, trump])) == 0

        winners = [c for c in range(32) if (me >> c) & 1 and sure(c)]
        if winners:
            assert sure(_best_card(s)), s.transcript()
            checked += 1
    assert checked >= 10


def test_final_phase_takes_a_first_final_trick_when_it_can():
    checked = 0
    for s in _final_positions(GAME, 300, seed=6):
        row = s._row
        p = s.current_player()
        if row[L.LED] < 0 or row[L.FINAL_WON + p] != 0:
            continue
        led, trump = int(row[L.LED]), int(row[L.TRUMP])
        legal = [a for a in s.legal_actions() if a < 32]
        beating = [c for c in legal if (int(HIGHER[0, trump + 1, led]) >> c) & 1
                   or (c // 8 == trump and led // 8 != trump)]
        if beating and len(beating) < len(legal):
            assert _best_card(s) in beating, s.transcript()
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("options", [{}, {"deck_size": 36, "hand_size": 8}, {"no_trump": True},
                                     {"announce_only_on_lead": True, "blocker_scores": False},
                                     {"final_must_head": True, "final_must_trump": True, "rob_enabled": False}],
                         ids=["default", "36x8", "no_trump", "lead_only,no_blocker", "must_head_trump"])
def test_heuristic_rollouts_stay_legal(options):
    """Heuristic rollouts from random positions end in states their own history replays to (every action legal)."""
    game = tarockrl.make_game("tatteln", **options)
    rnd = make_agent("random", game, seed=1)
    rng = np.random.default_rng(0)
    rows = []
    for d in range(12):
        s = game.new_initial_state(seed=9, deal_id=d)
        stop = int(rng.integers(0, 30))
        for _ in range(stop):
            if s.is_terminal():
                break
            s.apply_action(rnd.step(s))
        if not s.is_terminal():
            rows.append(s._row.copy())
    rows = np.stack(rows)
    out = RolloutPolicy(game, "heuristic", eps=0.0).run(rows, seed=3)
    for i in range(rows.shape[0]):
        end = State(game, rows[i].copy())
        assert end.is_terminal()
        replayed = game.state_from_bytes(end.to_bytes())
        np.testing.assert_array_equal(replayed.returns(), out[i, -1])


def test_heuristic_rollouts_beat_random_ones():
    """Seat 0 choosing by the heuristic, seat 1 at random: seat 0 wins on average (a weak strength check)."""
    game = GAME
    pol = RolloutPolicy(game, "heuristic", eps=0.0)
    opts = game.encoded_options
    total = 0.0
    rng = np.random.default_rng(1)
    for d in range(40):
        s = game.new_initial_state(seed=17, deal_id=d)
        while not s.is_terminal():
            if s.current_player() == 0:
                a = np.zeros(1, dtype=np.int64)
                pol.kernels.play_to_end_policy_action(s._row[None, :].copy(), np.int64(1), np.float64(0.0),
                                                      np.int64(d), opts, a)
                s.apply_action(int(a[0]))
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
        total += s.returns()[0]
    assert total / 40 > 30


def test_pimc_solves_the_final_phase_exactly():
    """Once the stock is gone every sampled world is the true position: PIMC's choice has the solver's best value."""
    assert game_defaults(GAME) == (9, 3_000_000)
    agent = make_agent("pimc:worlds=8", GAME, seed=0)
    for s in _final_positions(GAME, 40, seed=2)[::8]:
        a = agent.step(s)
        assert agent.last.method == "solver"
        exact = solve(s).action_values
        assert exact[a] == max(exact.values())
        np.testing.assert_array_equal(agent.last.ses, 0.0)  # every world has the same values


def test_pimc_robs_at_once():
    """PIMC takes ROB without search (rule_action): simulation would put it off turn after turn."""
    s = GAME.new_initial_state(deal=_deal("C7 H8 H9 D8 D9 S8 S9 DK SK", "HA HT HK HQ DA DT CA CT SA", "CJ"))
    agent = make_agent("pimc:worlds=4", GAME, seed=0)
    assert agent.step(s) == ROB and agent.last.method == "rule"
