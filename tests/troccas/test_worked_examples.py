"""The worked examples of the Troccas spec (section 10), as exact assertions."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.troccas import Match, TroccasRules, max_episode_length, new_state
from tarockrl.games.troccas import kernels as K
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import CARD_CODES, CARD_VALUES, SPLIT, set_codes
from tarockrl.games.troccas.observe import OBS_PHASE, OBS_TALK, OBS_TO_MOVE, OBS_VOTES
from tests.troccas.helpers import (
    build_deal,
    card,
    cards,
    codes,
    legal_codes,
    play,
    to_play,
    to_scart,
    words,
)

GAME = tarockrl.make_game("troccas")
FIXED = tarockrl.make_game("troccas", max_redeals=0)
TRUMP_CODES = " ".join(f"T{i}" for i in range(1, 22))
BLANKS = [c for c in CARD_CODES if CARD_VALUES[cards(c)[0]] == 1]


# ---------------------------------------------------------------------------------------------------------
# 10.1 - 10.3 scoring at the end of a deal (kernel level: piles, scart and Fool bookkeeping, then END)
# ---------------------------------------------------------------------------------------------------------
def end_row(dealer, pile_a, pile_b, scart, tricks, fool_seat, fool_trick_team):
    row = np.zeros(L.STATE_LEN, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.DEALER] = dealer
    row[L.PHASE] = L.PLAY
    for t, pile in enumerate((pile_a, pile_b)):
        row[L.PILE_TW + t], row[L.PILE_SW + t] = words(" ".join(pile))
        row[L.TRICKS_WON + t] = tricks[t]
    row[L.SCART_TW], row[L.SCART_SW] = words(" ".join(scart))
    row[L.FOOL_SEAT] = fool_seat
    row[L.FOOL_TRICK_TEAM] = fool_trick_team
    row[L.FOOL_PAID] = -1
    row[L.SCART_TEAM] = -1
    return row


def finish(game, row):
    K._end(row, game.encoded_options)
    return [int(row[L.POINTS]), int(row[L.POINTS + 1])], [int(row[L.RESULT + p]) for p in range(4)]


def split_blanks(exclude, n_a):
    rest = [c for c in BLANKS if c not in exclude]
    return rest[:n_a], rest[n_a:]


def test_10_1_ordinary_deal():
    scart = ["c10", "b2"]
    blanks_a, blanks_b = split_blanks(scart, 28)
    pile_a = codes("cK sK T21 oQ bQ cC sV oV") + blanks_a
    pile_b = codes("oK bK T1 FOOL cQ sQ oC bC sC cV bV") + blanks_b
    assert len(pile_a) == 36 and len(pile_b) == 40
    row = end_row(0, pile_a, pile_b, scart, (9, 10), fool_seat=3, fool_trick_team=-1)
    points, result = finish(GAME, row)
    assert points == [32, 40]
    assert result == [-4, 4, -4, 4]
    assert row[L.FOOL_OUTCOME] == 0 and row[L.SCART_TEAM] == 0


def test_10_2_fool_redeemed():
    scart = ["b3", "b4"]
    blanks_a, blanks_b = split_blanks(scart, 33)
    pile_a = codes("FOOL T21 cK oK cQ sC bV") + blanks_a
    pile_b = codes("T1 bK sK oQ bQ sQ cC oC bC cV oV sV") + blanks_b
    assert len(pile_a) == 40 and len(pile_b) + 2 == 38
    # before the settlement the piles would count 32 and 40
    assert K.pile_points(*words(" ".join(pile_a))) == 32
    assert K.pile_points(*words(" ".join(pile_b + scart))) == 40
    row = end_row(1, pile_a, pile_b, scart, (10, 9), fool_seat=3, fool_trick_team=0)
    points, result = finish(GAME, row)
    assert points == [28, 44]
    assert result == [-8, 8, -8, 8]
    assert row[L.FOOL_OUTCOME] == 1
    paid = min(cards(" ".join(pile_b + scart)), key=lambda c: (CARD_VALUES[c] != 1, c))
    assert row[L.FOOL_PAID] == paid  # the lowest-index 1-point card of team B's pile (scart included)
    a_codes = set_codes(row[L.PILE_TW], row[L.PILE_SW])
    assert "FOOL" not in a_codes and CARD_CODES[paid] in a_codes and len(a_codes) == 40


def test_10_3_fool_lost_when_its_team_wins_no_trick():
    scart = ["cQ", "b5"]
    pile_b = [c for c in CARD_CODES if c not in scart]
    row = end_row(2, [], pile_b, scart, (0, 19), fool_seat=0, fool_trick_team=1)
    points, result = finish(GAME, row)
    assert points == [4, 68]
    assert result == [-32, 32, -32, 32]
    assert row[L.FOOL_OUTCOME] == 2 and row[L.FOOL_PAID] == -1


def test_10_3_variant_scart_counts_for_fool():
    game = tarockrl.make_game("troccas", scart_counts_for_fool=True)
    scart = ["cQ", "b5"]
    pile_b = [c for c in CARD_CODES if c not in scart]
    row = end_row(2, [], pile_b, scart, (0, 19), fool_seat=0, fool_trick_team=1)
    points, result = finish(game, row)
    assert points == [8, 64]
    assert result == [-28, 28, -28, 28]
    assert set_codes(row[L.PILE_TW], row[L.PILE_SW]) == ["FOOL", "cQ"]
    assert CARD_CODES[row[L.FOOL_PAID]] == "b5"


def test_slam_takes_scart_variant():
    game = tarockrl.make_game("troccas", slam_takes_scart=True)
    scart = ["cQ", "b5"]
    pile_b = [c for c in CARD_CODES if c not in scart]
    row = end_row(2, [], pile_b, scart, (0, 19), fool_seat=1, fool_trick_team=-1)
    points, _ = finish(game, row)
    assert points == [0, 72] and row[L.SCART_TEAM] == 1


def test_fool_paid_with_lowest_valued_card_when_no_blank():
    # team B (the Fool's team) won a trick of four counters only: it pays its lowest-valued card
    pile_b = codes("cV oQ bC sK")
    pile_a = [c for c in CARD_CODES if c not in pile_b + ["b5", "b6"]]
    row = end_row(0, pile_a, pile_b, ["b5", "b6"], (18, 1), fool_seat=1, fool_trick_team=0)
    points, result = finish(GAME, row)
    assert CARD_CODES[row[L.FOOL_PAID]] == "cV"
    assert sum(points) == 72 and sum(result) == 0
    assert set_codes(row[L.PILE_TW + 1], row[L.PILE_SW + 1]) == ["FOOL", "oQ", "bC", "sK"]


# ---------------------------------------------------------------------------------------------------------
# 10.4 the four-deal match
# ---------------------------------------------------------------------------------------------------------
def _finish_randomly(state, seed):
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_10_4_match_balance_and_packet_requests():
    match = Match(GAME, first_dealer=0)
    fake = [-4, -10, 5, 1]
    seen = []
    for i, r_a in enumerate(fake):
        state = match.new_state(seed=40 + i)
        seen.append((match.dealer, match.episode_balance(), state.phase(), state.current_player(),
                     state.legal_actions() if state.phase() == "pattern" else None))
        _finish_randomly(state, i)
        state._row[L.RESULT:L.RESULT + 4] = [r_a, -r_a, r_a, -r_a]  # the example's results
        match.record(state)
    assert seen[0][:3] == (0, (0, 0), "talk")
    assert seen[1][:3] == (1, (-4, 4), "talk")
    assert seen[2] == (2, (-14, 14), "pattern", 0, [108, 109])
    assert seen[3] == (3, (-9, 9), "pattern", 0, [108, 109])
    assert match.is_over() and match.balance == (-8, 8)
    assert match.settlement() == [-8, 8, -8, 8]
    assert match.winner() == 1
    nxt = match.next_match()
    assert nxt.dealer == 0 and nxt.balance == (0, 0)
    session = tarockrl.make_game("troccas", balance_scope="session")
    m2 = Match(session, first_dealer=0, start_balance=-8)
    assert m2.episode_balance() == (-8, 8)
    last = tarockrl.make_game("troccas", packet_basis="last_deal")
    m3 = Match(last)
    s = m3.new_state(seed=1)
    _finish_randomly(s, 1)
    s._row[L.RESULT:L.RESULT + 4] = [-12, 12, -12, 12]
    m3.record(s)
    assert m3.episode_balance() == (-12, 12) and m3.balance == (-12, 12)
    s = m3.new_state(seed=2)
    _finish_randomly(s, 2)
    s._row[L.RESULT:L.RESULT + 4] = [3, -3, 3, -3]
    m3.record(s)
    assert m3.episode_balance() == (3, -3) and m3.balance == (-9, 9)


def test_10_4_deal_3_throw_in_keeps_dealer_and_pattern():
    first = build_deal(2, {}, balance=(-14, 14))
    second = build_deal(2, {2: "T21 T20 T19"}, balance=(-14, 14))["hands"]
    state = GAME.new_initial_state(deal={**first, "redeals": [second]})
    assert state.phase() == "pattern" and state.current_player() == 0
    assert state.legal_actions() == [108, 109]
    state.apply_action(109)
    assert state.phase() == "talk" and state.current_player() == 3
    for _ in range(4):
        state.apply_action(82)
    assert state.phase() == "vote"
    for seat in (3, 0, 1, 2):
        assert state.current_player() == seat
        state.apply_action(105)
    assert state.row[L.REDEAL_COUNT] == 1 and state.row[L.N_THROWN] == 1
    assert state.phase() == "talk" and state.row[L.PATTERN_SLOT] == L.NINE_TEN
    assert [len(set_codes(state.row[L.HAND_TW + s], state.row[L.HAND_SW + s])) for s in range(4)] == [9] * 4
    for _ in range(4):
        state.apply_action(82)
    assert state.current_player() == 3
    state.apply_action(104)  # the first KEEP ends the vote
    assert state.phase() == "talk" and state.legal_actions() == list(range(92, 104))
    assert [len(set_codes(state.row[L.HAND_TW + s], state.row[L.HAND_SW + s])) for s in range(4)] == [19, 19, 21, 19]
    for _ in range(4):
        state.apply_action(92)
    state.apply_action(104)
    assert state.phase() == "scart" and state.current_player() == 2  # dealer has trumps: no FORCE


def test_pattern_single_and_thresholds():
    state = new_state(GAME, seed=3, dealer=1, balance=(18, -18))
    assert state.phase() == "pattern" and state.current_player() == 3  # team B behind, first B seat after 1
    assert state.legal_actions() == [108, 109, 110]
    state.apply_action(110)
    assert state.row[L.PATTERN_SLOT] == L.SINGLE and state.row[L.PATTERN_BY] == 3
    assert state.phase() == "talk" and state.legal_actions() == list(range(92, 104))  # single pause is final
    assert state.row[L.EXPOSED] >= 0
    assert new_state(GAME, seed=3, dealer=1, balance=8).phase() == "talk"
    assert new_state(GAME, seed=3, dealer=1, balance=-17).legal_actions() == [108, 109]
    sheet = tarockrl.make_game("troccas", single_packet_threshold=19)
    assert new_state(sheet, seed=3, dealer=1, balance=-18).legal_actions() == [108, 109]
    off = tarockrl.make_game("troccas", packet_options_enabled=False)
    assert new_state(off, seed=3, dealer=1, balance=-30).phase() == "talk"


# ---------------------------------------------------------------------------------------------------------
# 10.5 the 72-point total
# ---------------------------------------------------------------------------------------------------------
def test_10_5_total_72():
    every = " ".join(CARD_CODES)
    tw, sw = words(every)
    s, n = K.wide_sum_values(tw, sw, CARD_VALUES, SPLIT)
    assert (s, n) == (130, 78)
    assert s - 3 * 19 - 1 == 72


# ---------------------------------------------------------------------------------------------------------
# 10.6 the king-jack rule
# ---------------------------------------------------------------------------------------------------------
def _to_first_trick(game, deal, discards):
    state = game.new_initial_state(deal=deal)
    to_play(state, discards)
    return state


def _discards_for(deal, dealer, keep):
    """Two discardable cards of the dealer that are not in ``keep``."""
    banned = set(codes(keep)) | {"T1", "T21", "FOOL", "cK", "oK", "bK", "sK"}
    return " ".join([c for c in deal["hands"][dealer] if c not in banned][:2])


def _base_buob_deal(fixed=None):
    hands = {0: "sV s2 s4 s5", 1: "sK", 2: "s3", 3: "s7"}
    hands.update(fixed or {})
    return build_deal(1, hands, avoid={2: "s1 s6 s8 s9 s10 sC sQ"})


def test_10_6_demand_swaps_the_numeral():
    deal = _base_buob_deal()
    state = _to_first_trick(FIXED, deal, _discards_for(deal, 1, "sK"))
    assert state.current_player() == 1
    play(state, "1:sK 2:s3 3:s7 0:s2")
    assert state.phase() == "buob" and state.current_player() == 1
    assert state.legal_actions() == [111, 112]
    state.apply_action(112)
    row = state.row
    hand0 = set_codes(row[L.HAND_TW], row[L.HAND_SW])
    assert "s2" in hand0 and "sV" not in hand0
    assert set_codes(row[L.PILE_TW + 1], row[L.PILE_SW + 1]) == ["s3", "s7", "sV", "sK"]
    assert K.pile_points(row[L.PILE_TW + 1], row[L.PILE_SW + 1]) == 6
    assert row[L.BUOB_RESULT + 3] == 2 and row[L.SWAP_SEAT + 3] == 0 and CARD_CODES[row[L.SWAP_CARD + 3]] == "s2"
    assert state.phase() == "play" and state.current_player() == 1
    assert row[L.LED_SUITS] == 0b1000


def test_10_6_no_demand_keeps_the_trick():
    deal = _base_buob_deal()
    state = _to_first_trick(FIXED, deal, _discards_for(deal, 1, "sK"))
    play(state, "1:sK 2:s3 3:s7 0:s2")
    state.apply_action(111)
    row = state.row
    assert K.pile_points(row[L.PILE_TW + 1], row[L.PILE_SW + 1]) == 5
    assert row[L.BUOB_RESULT + 3] == 0


def test_10_6_holder_of_queen_is_exempt():
    deal = _base_buob_deal({0: "sV s2 sQ"})
    state = _to_first_trick(FIXED, deal, _discards_for(deal, 1, "sK"))
    play(state, "1:sK 2:s3 3:s7 0:sQ")
    state.apply_action(112)
    row = state.row
    assert "sV" in set_codes(row[L.HAND_TW], row[L.HAND_SW])
    assert "sQ" in set_codes(row[L.PILE_TW + 1], row[L.PILE_SW + 1])
    assert row[L.BUOB_RESULT + 3] == 1 and row[L.SWAP_SEAT + 3] == -1


def test_10_6_trump_winner_demands_from_own_partner():
    deal = build_deal(1, {0: "sV s2 s4 s5", 1: "sK", 2: "T6", 3: "s7"},
                      avoid={2: "s1 s3 s6 s8 s9 s10 sC sQ FOOL"})
    state = _to_first_trick(FIXED, deal, _discards_for(deal, 1, "sK"))
    assert legal_codes(state) and state.current_player() == 1
    card(state, "sK", 1)
    assert all(c.startswith("T") for c in legal_codes(state))  # seat 2 is void in swords: must trump
    play(state, "2:T6 3:s7 0:s2")
    assert state.phase() == "buob" and state.current_player() == 2
    state.apply_action(112)
    row = state.row
    assert "sV" in set_codes(row[L.PILE_TW], row[L.PILE_SW]) and "s2" in set_codes(row[L.HAND_TW], row[L.HAND_SW])


def test_10_6_jack_in_the_scart():
    deal = build_deal(1, {0: "s2 s4 s5", 1: "sK sV", 2: "s3", 3: "s7"}, avoid={2: "s1 s6 s8 s9 s10 sC sQ"})
    other = _discards_for(deal, 1, "sK sV").split()[0]
    state = _to_first_trick(FIXED, deal, f"sV {other}")
    play(state, "1:sK 2:s3 3:s7 0:s2")
    assert state.phase() == "buob"  # the engine offers it: the winner need not know where the jack is
    state.apply_action(112)
    assert state.row[L.BUOB_RESULT + 3] == 1


def test_10_6_suit_led_before_no_demand():
    deal = build_deal(1, {0: "sV s2 s4 s5", 1: "sK sQ", 2: "s3 s6", 3: "s7 s8"}, avoid={2: "s1 s9 s10 sC"})
    state = _to_first_trick(FIXED, deal, _discards_for(deal, 1, "sK sQ"))
    play(state, "1:sQ 2:s3 3:s7 0:s2")
    assert state.phase() == "play" and state.current_player() == 1
    play(state, "1:sK 2:s6 3:s8 0:s4")
    assert state.phase() == "play"


def test_king_after_a_led_fool():
    # the dealer (seat 0) leads the Fool; seat 1's king sets swords; the jack holder (seat 0) played the Fool
    deal = build_deal(0, {0: "FOOL sV s2", 1: "sK", 2: "s3", 3: "s7"}, avoid={2: "s1 s4 s5 s6 s8 s9 s10 sC sQ"})
    for game, expect in ((FIXED, "buob"),
                         (tarockrl.make_game("troccas", max_redeals=0, king_after_fool_triggers=False), "play")):
        state = _to_first_trick(game, deal, _discards_for(deal, 0, "FOOL sV s2"))
        play(state, "0:FOOL 1:sK 2:s3 3:s7")
        assert state.phase() == expect
        if expect == "buob":
            assert state.current_player() == 1
            state.apply_action(112)
            assert state.row[L.BUOB_RESULT + 3] == 1  # the holder played the Fool: exempt
            assert state.row[L.FOOL_TRICK_TEAM] == 1


def test_automatic_demand_option():
    game = tarockrl.make_game("troccas", max_redeals=0, buob_demand_automatic=True)
    deal = _base_buob_deal()
    state = _to_first_trick(game, deal, _discards_for(deal, 1, "sK"))
    play(state, "1:sK 2:s3 3:s7 0:s2")
    assert state.phase() == "play"
    assert state.row[L.BUOB_RESULT + 3] == 2 and "s2" in set_codes(state.row[L.HAND_TW], state.row[L.HAND_SW])


def test_king_jack_rule_off():
    game = tarockrl.make_game("troccas", max_redeals=0, king_jack_rule=False)
    deal = _base_buob_deal()
    state = _to_first_trick(game, deal, _discards_for(deal, 1, "sK"))
    play(state, "1:sK 2:s3 3:s7 0:s2")
    assert state.phase() == "play"


def test_scart_jack_voids_all_variant():
    game = tarockrl.make_game("troccas", max_redeals=0, scart_jack_voids_all=True)
    deal = build_deal(1, {0: "sV s2 s4 s5", 1: "sK cV", 2: "s3", 3: "s7"}, avoid={2: "s1 s6 s8 s9 s10 sC sQ"})
    other = [c for c in _discards_for(deal, 1, "sK cV").split()][0]
    state = _to_first_trick(game, deal, f"cV {other}")
    assert state.row[L.SCART_JACK] == 1  # announced when SCART ends
    play(state, "1:sK 2:s3 3:s7 0:s2")
    assert state.phase() == "play"  # the whole rule is void for this deal
    state = _to_first_trick(game, deal, _discards_for(deal, 1, "sK cV"))
    assert state.row[L.SCART_JACK] == 0
    play(state, "1:sK 2:s3 3:s7 0:s2")
    assert state.phase() == "buob"


# ---------------------------------------------------------------------------------------------------------
# 10.7 the double lead (option)
# ---------------------------------------------------------------------------------------------------------
def test_10_7_double_lead_eight_card_trick():
    others = " ".join(c for c in TRUMP_CODES.split() if c != "T5") + " FOOL " + " ".join(
        c for c in CARD_CODES[22:36] if c not in ("c10", "cK", "cV", "c9", "c4", "c1", "c6"))
    deal = build_deal(0, {0: "cK cV", 1: "c9 c4", 2: "c1 c6", 3: "c10 T5"}, avoid={3: others})
    game = tarockrl.make_game("troccas", max_redeals=0, double_lead_enabled=True)
    default = tarockrl.make_game("troccas", max_redeals=0)
    discards = _discards_for(deal, 0, "cK cV")
    plain = _to_first_trick(default, deal, discards)
    assert 78 not in plain.legal_actions()
    state = _to_first_trick(game, deal, discards)
    assert 78 in state.legal_actions()
    state.apply_action(78)
    assert state.current_player() == 1 and state.row[L.TRICK_N] == 2
    play(state, "1:c9 2:c1 3:c10 1:c4 2:c6")
    assert state.current_player() == 3 and legal_codes(state) == ["T5"]
    from tarockrl.games.troccas.observe import OBS_DOUBLE, OBS_SECOND_ROUND

    obs = state.observation(0)
    assert obs[OBS_DOUBLE] == 1
    assert np.flatnonzero(obs[OBS_SECOND_ROUND:OBS_SECOND_ROUND + 78]).tolist() == cards("c6 c4")
    card(state, "T5", 3)
    row = state.row
    assert row[L.LAST_N] == 8 and row[L.LAST_WINNER] == 3 and row[L.TRICK_NO] == 1
    assert K.pile_points(row[L.PILE_TW + 1], row[L.PILE_SW + 1]) == 7
    assert [len(set_codes(row[L.HAND_TW + s], row[L.HAND_SW + s])) for s in range(4)] == [17] * 4
    assert row[L.LED_SUITS] == 0b0001 and state.phase() == "play" and state.current_player() == 3


# ---------------------------------------------------------------------------------------------------------
# 10.9 deal notation and packets
# ---------------------------------------------------------------------------------------------------------
D109 = {
    "dealer": 0,
    "hands": [
        codes("b8 b9 b10 bV bC bQ bK s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 sV sC sQ sK"),
        codes("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19"),
        codes("T20 T21 FOOL c10 c9 c8 c7 c6 c5 c4 c3 c2 c1 cV cC cQ cK o10 o9"),
        codes("o8 o7 o6 o5 o4 o3 o2 o1 oV oC oQ oK b1 b2 b3 b4 b5 b6 b7"),
    ],
}


def _hand(state, seat):
    return set_codes(state.row[L.HAND_TW + seat], state.row[L.HAND_SW + seat])


def test_10_9_packets_face_up_cards_and_force():
    state = GAME.new_initial_state(deal=D109)
    assert state.phase() == "talk" and state.row[L.PATTERN_SLOT] == L.STANDARD and state.row[L.PATTERN_BY] == -1
    assert _hand(state, 1) == codes("T1 T2 T3 T4 T5 T6")
    assert _hand(state, 2) == codes("T20 T21 FOOL c10 c9 c8")
    assert _hand(state, 3) == codes("o8 o7 o6 o5 o4 o3")
    assert _hand(state, 0) == codes("b8 b9 b10 bV bC bQ")
    assert state.current_player() == 1 and state.legal_actions() == list(range(82, 92))
    assert list(state.row[L.EXPOSED:L.EXPOSED + 4]) == [-1] * 4
    for _ in range(2):
        for _ in range(4):
            state.apply_action(82)
        state.apply_action(104)
    exposed = [CARD_CODES[c] for c in state.row[L.EXPOSED:L.EXPOSED + 4]]
    assert exposed == ["sK", "T19", "o9", "b7"]
    for _ in range(4):
        state.apply_action(92)
    state.apply_action(104)
    assert state.phase() == "force" and state.current_player() == 0
    assert state.legal_actions() == [106, 107]
    for p in (1, 2, 3):  # the others see the SCART phase with the dealer to act
        obs = state.observation(p)
        assert obs[OBS_PHASE + L.SCART] == 1 and obs[OBS_PHASE + L.FORCE] == 0
        assert obs[OBS_TO_MOVE + (0 - p) % 4] == 1
    assert state.observation(0)[OBS_PHASE + L.FORCE] == 1


def test_10_9_nine_ten_packets():
    state = GAME.new_initial_state(deal={**D109, "balance": [-9, 9]})
    assert state.phase() == "pattern" and state.current_player() == 2  # the dealer's partner
    state.apply_action(109)
    assert _hand(state, 1) == codes("T1 T2 T3 T4 T5 T6 T7 T8 T9")
    assert _hand(state, 0) == codes("b8 b9 b10 bV bC bQ bK s1 s2")
    assert state.legal_actions() == list(range(82, 92))  # the 9-card pause uses the early list


def test_deal_dict_round_trip():
    state = GAME.new_initial_state(deal=D109)
    assert state.deal() == {**D109, "balance": [0, 0]}
    again = GAME.new_initial_state(deal=state.deal())
    assert again == state


# ---------------------------------------------------------------------------------------------------------
# 10.10 what the table sees of the talk and of FORCE
# ---------------------------------------------------------------------------------------------------------
def _talk_block(obs):
    return obs[OBS_TALK:OBS_TALK + 144].reshape(3, 4, 12)


def _dealer_without_trumps(swap=False):
    deal = build_deal(1, {}, avoid={1: TRUMP_CODES})
    if swap:  # give the dealer a trump from seat 0 (both hands hidden from seats 2 and 3)
        h1, h0 = deal["hands"][1], deal["hands"][0]
        i0 = next(i for i, c in enumerate(h0[:-1]) if c.startswith("T"))
        h1[0], h0[i0] = h0[i0], h1[0]
    return deal


def test_10_10_talk_is_public_and_identical():
    state = GAME.new_initial_state(deal=_dealer_without_trumps())
    for seat, a in ((2, 89), (3, 82), (0, 86), (1, 82)):
        assert state.current_player() == seat
        state.apply_action(a)
    for p in range(4):
        talk = _talk_block(state.observation(p))
        for seat, m in ((2, 7), (3, 0), (0, 4), (1, 0)):
            assert talk[0, (seat - p) % 4, m] == 1
        assert talk.sum() == 4
    state.apply_action(104)  # seat 2 keeps: the vote ends
    for p in range(4):
        votes = state.observation(p)[OBS_VOTES:OBS_VOTES + 24].reshape(3, 4, 2)
        assert votes.sum() == 1 and votes[0, (2 - p) % 4, 0] == 1
    assert state.phase() == "talk" and state.row[L.PACKET] == 1


def test_10_10_force_decline_invisible_to_others():
    declined = GAME.new_initial_state(deal=_dealer_without_trumps())
    eligible_never = GAME.new_initial_state(deal=_dealer_without_trumps(swap=True))
    for state in (declined, eligible_never):
        to_scart_keep(state)
    assert declined.phase() == "force" and eligible_never.phase() == "scart"
    for p in (2, 3):  # seats that see neither the dealer's nor seat 0's cards
        assert np.array_equal(declined.observation(p), eligible_never.observation(p))
    declined.apply_action(106)
    assert declined.phase() == "scart"
    for p in (2, 3):
        assert np.array_equal(declined.observation(p), eligible_never.observation(p))
    assert declined.observation(1)[_obs_force_declined()] == 1  # the dealer remembers his decline
    assert eligible_never.observation(1)[_obs_force_declined()] == 0


def test_10_10_forced_redeal_is_public():
    state = GAME.new_initial_state(deal=_dealer_without_trumps())
    to_scart_keep(state)
    state.apply_action(107)
    assert state.row[L.N_FORCED] == 1 and state.row[L.REDEAL_COUNT] == 1
    assert state.phase() == "talk" and state.current_player() == 2
    from tarockrl.games.troccas.observe import OBS_REDEAL_KINDS

    for p in range(4):
        assert state.observation(p)[OBS_REDEAL_KINDS + 1] > 0


def _obs_force_declined():
    from tarockrl.games.troccas.observe import OBS_FORCE_DECLINED

    return OBS_FORCE_DECLINED


def to_scart_keep(state):
    """Silent talk and KEEP votes up to FORCE or SCART."""
    while state.phase() in ("talk", "vote"):
        state.apply_action(state.legal_actions()[0])


# ---------------------------------------------------------------------------------------------------------
# 10.11 the longest episode
# ---------------------------------------------------------------------------------------------------------
def test_10_11_longest_episode_is_170_actions():
    no_trumps = [build_deal(0, {}, avoid={0: TRUMP_CODES})["hands"] for _ in range(3)]
    final = build_deal(0, {0: "cK oK bK sK", 1: "c9 o9 b9 s9", 2: "c8 o8 b8 s8", 3: "c7 o7 b7 s7"})
    deal = {"dealer": 0, "hands": no_trumps[0], "balance": [-20, 20], "redeals": no_trumps[1:] + [final["hands"]]}
    state = GAME.new_initial_state(deal=deal)
    assert state.phase() == "pattern" and state.current_player() == 2
    assert state.legal_actions() == [108, 109, 110]
    state.apply_action(108)
    for attempt in range(3):
        for _pause in range(3):
            for _ in range(4):
                state.apply_action(82 if _pause < 2 else 92)
            for v in (105, 105, 105, 104):
                state.apply_action(v)
        assert state.phase() == "force"
        state.apply_action(107)
        assert state.row[L.REDEAL_COUNT] == attempt + 1
    for _pause in range(3):  # the last attempt: talk only, no vote, no FORCE
        assert state.phase() == "talk"
        for _ in range(4):
            state.apply_action(82 if _pause < 2 else 92)
    assert state.phase() == "scart"
    for c in _discards_for(final, 0, "cK oK bK sK").split():
        card(state, c, 0)
    for king, follow in (("cK", "c9 c8 c7"), ("oK", "o9 o8 o7"), ("bK", "b9 b8 b7"), ("sK", "s9 s8 s7")):
        card(state, king, 0)
        for seat, c in zip((1, 2, 3), follow.split()):
            card(state, c, seat)
        assert state.phase() == "buob" and state.current_player() == 0
        state.apply_action(112)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 170 == max_episode_length(TroccasRules())
    assert sum(state.returns()) == 0


def test_episode_bounds_of_9_4():
    assert max_episode_length(TroccasRules()) == 170
    assert max_episode_length(TroccasRules(knock_enabled=True)) == 191
    assert max_episode_length(TroccasRules(max_redeals=0)) == 95
    assert max_episode_length(TroccasRules(throw_in_enabled=False, dealer_force_enabled=False)) == 95
    assert max_episode_length(TroccasRules(talk_enabled=False, throw_in_enabled=False)) == 1 + 3 + 82
    assert GAME.max_episode_length == 366  # the history capacity at max_redeals = 10 with knocking
    assert max_episode_length(TroccasRules(max_redeals=10, knock_enabled=True)) == 366


def test_fixed_deal_without_redeals_is_deterministic():
    deal = build_deal(3, {})
    a = FIXED.new_initial_state(deal=deal)
    b = FIXED.new_initial_state(deal=deal)
    rng = np.random.default_rng(5)
    while not a.is_terminal():
        x = int(rng.choice(a.legal_actions()))
        a.apply_action(x)
        b.apply_action(x)
        assert a.to_bytes() == b.to_bytes()
    assert a.phase() == "terminal"


def test_supplied_redeals_are_used_in_order():
    first = build_deal(0, {3: "T21"})
    r1 = build_deal(0, {1: "T21"})["hands"]
    r2 = build_deal(0, {2: "T21"})["hands"]
    state = GAME.new_initial_state(deal={**first, "redeals": [r1, r2]})
    for k, hands in enumerate((first["hands"], r1, r2)):
        assert state.row[L.REDEAL_COUNT] == k
        for s in range(4):
            assert set(_hand(state, s)) == set(hands[s][:6])
        if k == 2:
            break
        for _ in range(4):
            state.apply_action(82)
        for _ in range(4):
            state.apply_action(105)
    assert state.deal()["redeals"] == [r1, r2]


def test_redeal_from_the_generator_is_reproducible_and_recorded():
    state = GAME.new_initial_state(seed=77)
    first = state.deal()["hands"]
    for _ in range(4):
        state.apply_action(82)
    for _ in range(4):
        state.apply_action(105)
    assert state.row[L.REDEAL_COUNT] == 1
    deal = state.deal()
    assert deal["hands"] == first and len(deal["redeals"]) == 1
    again = GAME.new_initial_state(seed=77)
    for a in state.history():
        again.apply_action(a)
    assert again == state
    # replaying the recorded deal dict reproduces the same cards
    replay = GAME.new_initial_state(deal=deal)
    for a in state.history():
        replay.apply_action(a)
    assert all(_hand(replay, s) == _hand(state, s) for s in range(4))


def test_throw_in_disabled_and_cap():
    game = tarockrl.make_game("troccas", throw_in_enabled=False)
    state = game.new_initial_state(seed=4)
    for _ in range(4):
        state.apply_action(82)
    assert state.phase() == "talk" and state.row[L.PACKET] == 1  # no vote
    capped = tarockrl.make_game("troccas", max_redeals=1)
    state = capped.new_initial_state(seed=4)
    for _ in range(4):
        state.apply_action(82)
    for _ in range(4):
        state.apply_action(105)
    for _ in range(4):
        state.apply_action(82)
    assert state.phase() == "talk" and state.row[L.PACKET] == 1  # cap reached: no vote any more


def test_talk_disabled_goes_straight_to_votes():
    game = tarockrl.make_game("troccas", talk_enabled=False)
    state = game.new_initial_state(seed=4)
    assert state.phase() == "vote" and state.legal_actions() == [104, 105]
    game = tarockrl.make_game("troccas", talk_enabled=False, throw_in_enabled=False, dealer_force_enabled=False)
    state = game.new_initial_state(seed=4)
    assert state.phase() == "scart"


def test_first_leader_forehand_and_fool_force_variant():
    deal = build_deal(2, {})
    game = tarockrl.make_game("troccas", max_redeals=0, first_leader="forehand")
    state = game.new_initial_state(deal=deal)
    to_play(state, _discards_for(deal, 2, ""))
    assert state.current_player() == 3
    fool_deal = build_deal(1, {1: "FOOL"}, avoid={1: TRUMP_CODES})
    fool_game = tarockrl.make_game("troccas", fool_counts_as_trump_for_force=True)
    for game, expect in ((GAME, "force"), (fool_game, "scart")):
        state = game.new_initial_state(deal=fool_deal)
        to_scart_keep(state)
        assert state.phase() == expect
    off = tarockrl.make_game("troccas", dealer_force_enabled=False)
    state = off.new_initial_state(deal=fool_deal)
    to_scart_keep(state)
    assert state.phase() == "scart"


def test_expose_last_card_option():
    game = tarockrl.make_game("troccas", expose_last_card=False)
    state = game.new_initial_state(deal=D109)
    to_scart(state)
    assert list(state.row[L.EXPOSED:L.EXPOSED + 4]) == [-1] * 4
