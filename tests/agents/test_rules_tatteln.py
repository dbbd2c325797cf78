"""The rule-based Tatteln player: legal everywhere, no peeking, deterministic, and its headline heuristics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tarockrl
from tarockrl.agents import make_agent
from tarockrl.agents.rules._tatteln_solver import _legal, _settle, new_table, solve_final
from tarockrl.agents.rules.tatteln import RulesAgent
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import codes_mask, parse_card
from tarockrl.games.tatteln.melds import best_seq_key, best_set_key

TABLE = new_table()
GENERATION = itertools.count()


def _gen():
    return np.int64(next(GENERATION))

OPTION_SETS = [
    {},
    {"deck_size": 36},
    {"hand_size": 8},
    {"deck_size": 36, "hand_size": 8, "max_window_length": 8, "sets_all_ranks": True},
    {"no_trump": True},
    {"final_must_head": True, "final_must_trump": True},
    {"announce_only_on_lead": True, "seq_tie_trump_wins": True},
    {"blocker_scores": False, "four_tops_up_trio": False},
    {"announce_in_final_phase": False, "rob_enabled": False},
    {"reward_mode": "win_loss", "matsch_multiplier": 3},
    {"matsch_enabled": False, "trump_jack_nine_bonus": False},
    {"matsch_forfeits_score": False, "value_fuss": 20, "value_four": 20},
]


def _drive(game, deals, seed, on_rules_turn=None):
    """Play ``deals`` deals in which every decision is taken by the rules agent or a random agent (a coin flip per
    decision), checking each rules decision is legal. Returns the number of rules decisions."""
    rng = np.random.default_rng(seed)
    rules = make_agent("rules", game, seed=seed)
    rnd = make_agent("random", game, seed=seed + 1)
    count = 0
    for i in range(deals):
        state = game.new_initial_state(seed=seed, deal_id=i)
        while not state.is_terminal():
            if rng.random() < 0.6:
                a = rules.step(state)
                assert a in state.legal_actions()
                if on_rules_turn is not None:
                    on_rules_turn(state, a)
                count += 1
            else:
                a = rnd.step(state)
            state.apply_action(a)
    return count


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_legal_in_random_positions(options):
    game = tarockrl.make_game("tatteln", **options)
    assert _drive(game, 12, seed=len(options)) > 150


def test_final_phase_announcement_exactly_when_good():
    """In the final phase the opponent's hand is known, and the agent announces a class iff its key is higher."""
    game = tarockrl.make_game("tatteln")
    seen = []

    def check(state, a):
        row = state.row
        if row[L.PHASE] != L.FINAL_PHASE:
            return
        p = state.current_player()
        mine, opp = int(row[L.HAND + p]), int(row[L.HAND + 1 - p])  # the test may look; the agent may not
        legal = state.legal_actions()
        for action, key in ((33, lambda h: best_set_key(h, 0, 8, 0b11111000)), (32, lambda h: best_seq_key(h, 0, 8))):
            if action in legal:
                good = key(np.int64(mine)) > key(np.int64(opp))
                assert (a == action) == good or (a == 33 and action == 32)
                seen.append(good)
                break

    _drive(game, 60, seed=3, on_rules_turn=check)
    assert len(seen) > 5


def test_determinism():
    game = tarockrl.make_game("tatteln")
    runs = []
    for _ in range(2):
        agent = make_agent("rules", game, seed=11)
        rnd = make_agent("random", game, seed=12)
        actions = []
        for i in range(6):
            s = game.new_initial_state(seed=4, deal_id=i)
            while not s.is_terminal():
                a = agent.step(s) if s.current_player() == 0 else rnd.step(s)
                actions.append(a)
                s.apply_action(a)
        runs.append(actions)
    assert runs[0] == runs[1]


def _hidden_swap_pairs(game, deals, seed):
    """Yield (state, twin) pairs at rules decision points: the twin's deal swaps one unrevealed card of the
    opponent's hand with one face-down stock card, and replays the same actions (only where that stays legal
    and the mover's observation is unchanged)."""
    rng = np.random.default_rng(seed)
    agent = make_agent("rules", game, seed=0)
    n = game.rules.deck_size
    codes = [None] * n
    for i in range(n):
        from tarockrl.games.tatteln.cards import card_code

        codes[i] = card_code(i, n)
    for i in range(deals):
        state = game.new_initial_state(seed=seed, deal_id=i)
        while not state.is_terminal():
            p = state.current_player()
            row = state.row
            opp_hidden = int(row[L.HAND + 1 - p]) & ~int(row[L.REVEALED + 1 - p])
            deal = state.deal()
            stock_pos = int(row[L.STOCK_POS])
            face_down = deal["stock"][stock_pos:]  # still in the stock, the face-up bottom card excluded
            if opp_hidden and face_down and rng.random() < 0.5:
                c1 = codes[int(rng.choice([c for c in range(n) if (opp_hidden >> c) & 1]))]
                c2 = face_down[int(rng.integers(len(face_down)))]
                twin_deal = {k: (list(v) if isinstance(v, list) else v) for k, v in deal.items()}
                twin_deal["hands"] = [[c2 if c == c1 else c for c in h] for h in deal["hands"]]
                twin_deal["stock"] = [c1 if c == c2 else (c2 if c == c1 else c) for c in deal["stock"]]
                twin = game.new_initial_state(deal=twin_deal)
                try:
                    for a in state.history():
                        twin.apply_action(a)
                except ValueError:
                    twin = None
                if twin is not None and np.array_equal(twin.observation(p), state.observation(p)):
                    yield state, twin
            state.apply_action(agent.step(state) if rng.random() < 0.7 else int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("options", [{}, {"deck_size": 36, "final_must_head": True}])
def test_no_peeking_swapped_hidden_cards(options):
    """Two deals that differ only in cards hidden from the seat to move give the same decision."""
    game = tarockrl.make_game("tatteln", **options)
    pairs = 0
    differ = 0
    for state, twin in _hidden_swap_pairs(game, 12, seed=9):
        p = state.current_player()
        differ += int(state.row[L.HAND + 1 - p] != twin.row[L.HAND + 1 - p])
        for seed in (0, 5):
            assert make_agent("rules", game, seed=seed).step(state) == make_agent("rules", game, seed=seed).step(twin)
        pairs += 1
    assert pairs > 40 and differ > 20


# -- headline heuristics on hand-made deals -----------------------------------------------------------------------
def _deal(forehand, dealer_hand, turn_up, stock, dealer=1):
    hands = [None, None]
    hands[1 - dealer] = forehand.split()
    hands[dealer] = dealer_hand.split()
    return {"dealer": dealer, "hands": hands, "turn_up": turn_up, "stock": stock.split()}


GAME = tarockrl.make_game("tatteln")
ALL = set(tarockrl.games.tatteln.cards.CARD_CODES_32)


def _fill(forehand, dealer_hand, turn_up):
    used = set(forehand.split()) | set(dealer_hand.split()) | {turn_up}
    return " ".join(sorted(ALL - used))


def _card(agent, state):
    """The agent's card for this turn, after the pre-play actions (rob, announcements) it takes first."""
    a = agent.step(state)
    while a >= GAME.rules.deck_size:
        state.apply_action(a)
        a = agent.step(state)
    return a


def test_robs_with_the_trump_seven():
    f, d = "C7 H8 H9 D8 D9 S8 S9 DK SK", "HA HT HK HQ DA DT CA CT SA"
    s = GAME.new_initial_state(deal=_deal(f, d, "CJ", _fill(f, d, "CJ")))
    assert s.current_player() == 0 and 34 in s.legal_actions()
    assert make_agent("rules", GAME).step(s) == 34


def test_takes_a_led_ten_with_the_ace():
    # trumps: clubs (turn-up C8). The dealer (seat 1) leads HT after forehand led; easier: forehand leads HT and
    # the dealer answers.
    f, d = "HT D7 D8 S7 S8 DK SK HQ CQ", "HA H7 H8 D9 S9 DJ SJ C9 CJ"
    s = GAME.new_initial_state(deal=_deal(f, d, "C8", _fill(f, d, "C8")))
    s.apply_action(parse_card("HT"))
    assert _card(make_agent("rules", GAME), s) == parse_card("HA")


def test_trumps_a_led_ace_cheaply_and_throws_low_on_a_blank():
    f, d = "SA ST D7 D8 H8 H9 DK HQ SK", "C8 CJ C9 S7 D9 H7 DJ HJ DQ"
    s = GAME.new_initial_state(deal=_deal(f, d, "CQ", _fill(f, d, "CQ")))
    s.apply_action(parse_card("SA"))
    assert _card(make_agent("rules", GAME), s) == parse_card("C8")  # the smallest trump, not the jack or nine
    s2 = GAME.new_initial_state(deal=_deal(f, d, "CQ", _fill(f, d, "CQ")))
    s2.apply_action(parse_card("D8"))
    a = _card(make_agent("rules", GAME), s2)
    # a blank is led: no trump is spent on it, no point card is thrown away; winning it with the queen banks 3
    assert a in (parse_card("S7"), parse_card("H7"), parse_card("D9"), parse_card("DQ"))


def test_leads_a_low_card_outside_its_melds():
    # forehand holds a heart sequence Q J T (a Tattel) and aces; it should lead a worthless card, not a meld card,
    # an ace or a trump
    f, d = "HQ HJ HT DA SA D7 S8 C9 CJ", "H7 H8 H9 D8 D9 S7 S9 DK SK"
    s = GAME.new_initial_state(deal=_deal(f, d, "CQ", _fill(f, d, "CQ")))
    a = _card(make_agent("rules", GAME, seed=0), s)
    assert a in (parse_card("D7"), parse_card("S8"))


def _brute(hm, ho, turn, leader, led, pm, po, fm, fo, par, pts, st, hi):
    if hm == 0 and ho == 0:
        return _settle(pm, po, fm, fo, par)
    mv = _legal(np.int64(hm if turn == 0 else ho), np.int64(led), par, hi)
    out = []
    r = par[1]
    for c in range(4 * r):
        if not (mv >> c) & 1:
            continue
        b = 1 << c
        nm = hm & ~b if turn == 0 else hm
        no = ho & ~b if turn == 1 else ho
        if led < 0:
            out.append(_brute(nm, no, 1 - turn, leader, c, pm, po, fm, fo, par, pts, st, hi))
            continue
        fw = st[c] > st[led] if c // r == led // r else (par[0] >= 0 and c // r == par[0])
        w = 1 - leader if fw else leader
        g = pts[c] + pts[led] + (10 if nm == 0 and no == 0 else 0)
        if w == 0:
            out.append(_brute(nm, no, 0, 0, -1, pm + g, po, fm + 1, fo, par, pts, st, hi))
        else:
            out.append(_brute(nm, no, 1, 1, -1, pm, po + g, fm, fo + 1, par, pts, st, hi))
    return max(out) if turn == 0 else min(out)


@pytest.mark.parametrize("options", [{}, {"final_must_head": True, "final_must_trump": True},
                                     {"reward_mode": "win_loss"}, {"deck_size": 36, "matsch_forfeits_score": False}])
def test_endgame_search_matches_brute_force(options):
    """The final-phase search finds the true minimax value (last-trick ten, Matsch and reward mode included)."""
    game = tarockrl.make_game("tatteln", **options)
    agent = RulesAgent(game)
    rng = np.random.default_rng(1)
    vals = np.zeros(64, dtype=np.int64)
    n = game.rules.deck_size
    for trial in range(120):
        trump = int(rng.integers(-1, 4))
        pts, st, hi, _, _, par = agent._tables(trump)
        par = par.copy()
        par[8], par[9] = rng.integers(0, 20, size=2)
        k = int(rng.integers(1, 5))
        me_leads = trial % 2
        perm = rng.permutation(n)
        hm = sum(1 << int(c) for c in perm[:k])
        ho = sum(1 << int(c) for c in perm[k:2 * k - 1 + me_leads])
        led = -1 if me_leads else int(perm[2 * k])
        pm, po = (int(x) for x in rng.integers(0, 60, size=2))
        fm, fo = (int(x) for x in rng.integers(0, 2, size=2))
        assert 0 <= solve_final(np.int64(hm), np.int64(ho), np.int64(me_leads), np.int64(led), np.int64(pm),
                           np.int64(po), np.int64(fm), np.int64(fo), par, pts, st, hi, vals, TABLE, _gen())
        ref = _brute(hm, ho, 0, 0 if me_leads else 1, led, pm, po, fm, fo, par, pts, st, hi)
        assert vals.max() == ref


def test_endgame_avoids_the_matsch():
    """Two cards left, no final trick won yet: keep the trump that wins the last trick rather than grab points."""
    game = tarockrl.make_game("tatteln")
    agent = RulesAgent(game)
    pts, st, hi, _, _, par = agent._tables(2)  # clubs trumps
    par = par.copy()
    me = codes_mask("C7 HA")
    opp = codes_mask("HK DT")
    vals = np.zeros(64, dtype=np.int64)
    # we lead; if we lead HA the opponent follows HK and we win it; then C7 wins the last trick too: both good.
    assert 0 <= solve_final(np.int64(me), np.int64(opp), np.int64(1), np.int64(-1), np.int64(60), np.int64(70),
                       np.int64(0), np.int64(3), par, pts, st, hi, vals, TABLE, _gen())
    assert vals[parse_card("HA")] == vals.max()
    # now the opponent leads DT: following with HA loses the trick, C7 trumps it; the matsch makes C7 necessary
    opp2 = codes_mask("HK")
    assert 0 <= solve_final(np.int64(me), np.int64(opp2), np.int64(0), np.int64(parse_card("DT")), np.int64(60),
                       np.int64(70), np.int64(0), np.int64(8), par, pts, st, hi, vals, TABLE, _gen())
    assert vals[parse_card("C7")] > vals[parse_card("HA")]


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_legal_sweep_slow(options):
    """The same check as test_legal_in_random_positions over many more deals."""
    game = tarockrl.make_game("tatteln", **options)
    assert _drive(game, 300, seed=100 + len(options)) > 4000
