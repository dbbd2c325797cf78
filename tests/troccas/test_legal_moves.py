"""The legal-move examples L1-L14 of the Troccas spec (10.8), and the legality rules of each phase."""

from __future__ import annotations

import pytest

import tarockrl
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.cards import SPLIT, parse_card
from tests.troccas.helpers import cards, legal_codes, play_row, scart_row, state_of

GAME = tarockrl.make_game("troccas")
DOUBLE = tarockrl.make_game("troccas", double_lead_enabled=True)
KNOCK = tarockrl.make_game("troccas", knock_enabled=True)
OVERTRUMP = tarockrl.make_game("troccas", must_overtrump=True)


def legal_of(game, hand, trick=None, **kw):
    return legal_codes(state_of(game, play_row(hand, trick, **kw)))


def test_L1_follow_suit_fool_always_allowed():
    assert legal_of(GAME, "c2 cK o3 T4 FOOL", [(0, "c5")]) == ["FOOL", "c2", "cK"]


def test_L2_void_must_trump_need_not_beat():
    assert legal_of(GAME, "c2 o7 T4 T18 FOOL", [(0, "bQ"), (1, "T10")]) == ["T4", "T18", "FOOL"]


def test_L3_void_in_suit_and_trumps_anything():
    assert legal_of(GAME, "c3 oK b8", [(0, "s1")]) == ["c3", "oK", "b8"]


def test_L4_trump_led_must_trump():
    assert legal_of(GAME, "T2 T20 sK FOOL", [(0, "T9")]) == ["T2", "T20", "FOOL"]


def test_L5a_fool_led_second_player_free():
    assert legal_of(GAME, "oK o4 T1 b2", [(0, "FOOL")]) == ["T1", "o4", "oK", "b2"]


def test_L5b_after_fool_and_o4_coins_are_led():
    assert legal_of(GAME, "o9 oC T12 c5", [(0, "FOOL"), (1, "o4")]) == ["o9", "oC"]


def test_L6_leading_with_king_and_jack_of_an_unled_suit():
    hand = "bK bV b3 T7 oC"
    assert state_of(GAME, play_row(hand)).legal_actions() == [6, 47, 52, 60, 63]
    assert state_of(DOUBLE, play_row(hand)).legal_actions() == [6, 47, 52, 60, 63, 80]


def test_L6_prime_suit_already_led():
    hand = "bK bV b3 T7 oC"
    for game in (GAME, DOUBLE):
        assert state_of(game, play_row(hand, led_suits=0b0100)).legal_actions() == [6, 47, 52, 60, 63]


def test_double_lead_needs_the_king_jack_rule():
    game = tarockrl.make_game("troccas", double_lead_enabled=True, king_jack_rule=False)
    assert 80 not in state_of(game, play_row("bK bV b3 T7 oC")).legal_actions()
    voids = tarockrl.make_game("troccas", double_lead_enabled=True, scart_jack_voids_all=True)
    row = play_row("bK bV b3 T7 oC")
    row[L.SCART_JACK] = 1
    assert 80 not in state_of(voids, row).legal_actions()
    row[L.SCART_JACK] = 0
    assert 80 in state_of(voids, row).legal_actions()


def test_double_lead_only_when_leading():
    assert 80 not in state_of(DOUBLE, play_row("bK bV b3", [(0, "b5")])).legal_actions()


def test_L7_second_round_of_a_double_lead():
    trick = [(0, "cK"), (0, "cV"), (1, "c9"), (2, "c1"), (3, "c10"), (1, "c4"), (2, "c6")]
    assert legal_of(DOUBLE, "T5 o2", trick, mover=3, double=True) == ["T5"]


def test_L8_scart_excludes_honours_and_kings():
    dealer = 2
    hand = "T1 T7 T21 FOOL cK cV c3 o2 sQ oK bK sK b5 b6 b7 b8 b9 b10 s1 s2 s3"
    legal = legal_codes(state_of(GAME, scart_row(dealer, hand)))
    examples = set(cards("T1 T7 T21 FOOL cK cV c3 o2 sQ"))
    assert [c for c in legal if cards(c)[0] in examples] == ["T7", "c3", "cV", "o2", "sQ"]  # index order
    assert set(legal) == set(hand.split()) - {"T1", "T21", "FOOL", "cK", "oK", "bK", "sK"}


def test_scart_without_trumps_variant():
    game = tarockrl.make_game("troccas", scart_trumps_allowed=False)
    hand = "T1 T7 T21 FOOL cK cV c3 o2 sQ oK bK sK b5 b6 b7 b8 b9 b10 s1 s2 s3"
    assert "T7" not in legal_codes(state_of(game, scart_row(0, hand)))


def test_L9_knock_with_the_highest_unplayed_trump():
    hand2 = "T20 c3 o5"
    row = play_row(hand2, [(0, "c2"), (1, "c4")], played="T21")
    assert state_of(KNOCK, row).legal_actions() == [29, L.A_KNOCK]  # c3 and KNOCK
    row = play_row("T19 c5", [(0, "c2")], played="T21")
    assert L.A_KNOCK not in state_of(KNOCK, row).legal_actions()
    # without the option there is never a knock
    assert L.A_KNOCK not in state_of(GAME, play_row(hand2, [(0, "c2"), (1, "c4")], played="T21")).legal_actions()


def test_knock_once_per_top_trump_and_after_the_top_changes():
    row = play_row("T20 T19 c3", [(0, "c2"), (1, "c4")], played="T21")
    state = state_of(KNOCK, row)
    state.apply_action(L.A_KNOCK)
    assert state.current_player() == 2
    assert L.A_KNOCK not in state.legal_actions()
    assert state.row[L.KNOCKED_FOR + 2] == 19
    # once T20 is played, T19 is the top: a new knock is legal
    row = play_row("T19 c3", [(0, "c2"), (1, "c4")], played="T21 T20")
    row[L.KNOCKED_FOR + 2] = 19
    assert L.A_KNOCK in state_of(KNOCK, row).legal_actions()


def test_knock_impossible_when_the_top_trump_is_in_the_scart():
    # T21 unplayed (in the scart) -> nobody holds the top trump -> no knock even with T20
    row = play_row("T20 c3", [(0, "c2")])
    assert L.A_KNOCK not in state_of(KNOCK, row).legal_actions()


def test_knock_counts_the_current_trick_as_played():
    row = play_row("T20 c3", [(0, "T21")], mover=1)
    assert L.A_KNOCK in state_of(KNOCK, row).legal_actions()


def _winner(trick: list[tuple[int, str]]) -> int:
    """Play the last card of ``trick`` through the kernel and read the trick's winner."""
    *first, (seat, code) = trick
    row = play_row(code + " c10", first, mover=seat, leader=trick[0][0])
    for s in range(4):  # give everybody a card so that the deal goes on after the trick
        if s != seat:
            row[L.HAND_SW + s] |= 1 << (parse_card("s10") - SPLIT + 0)  # placeholder card, never played
    state = state_of(GAME, row)
    state.apply_action(parse_card(code))
    return int(state.row[L.LAST_WINNER])


def test_L10_round_suit_ace_is_the_highest_numeral():
    assert _winner([(0, "o9"), (1, "o4"), (2, "o1"), (3, "o10")]) == 2


def test_L11_long_suit_ten_is_the_highest_numeral():
    assert _winner([(1, "b9"), (2, "b4"), (3, "b1"), (0, "b10")]) == 0


def test_L12_fool_led_next_card_sets_the_suit():
    trick = [(2, "FOOL"), (3, "o4"), (0, "o9"), (1, "oC")]
    *first, (seat, code) = trick
    row = play_row(code + " c10", first, mover=seat, leader=2)
    row[L.FOOL_SEAT] = 2
    for s in range(4):
        if s != seat:
            row[L.HAND_SW + s] |= 1 << (parse_card("s10") - SPLIT)
    state = state_of(GAME, row)
    state.apply_action(parse_card(code))
    assert int(state.row[L.LAST_WINNER]) == 1
    assert int(state.row[L.FOOL_TRICK_TEAM]) == 1  # the Fool (team A) lies in team B's pile until END


@pytest.mark.parametrize(
    "trick,winner",
    [
        ([(0, "o9"), (1, "o4"), (2, "o1"), (3, "o10")], 2),
        ([(1, "b9"), (2, "b4"), (3, "b1"), (0, "b10")], 0),
        ([(0, "c9"), (1, "T1"), (2, "cQ"), (3, "FOOL")], 1),
        ([(0, "T21"), (1, "FOOL"), (2, "T20"), (3, "sK")], 0),
    ],
)
def test_trick_winner_through_the_engine(trick, winner):
    row_fool = [seat for seat, code in trick[:-1] if code == "FOOL"]
    if row_fool:  # the Fool is already in the trick: the row must say whose it is
        *first, (seat, code) = trick
        row = play_row(code + " c10", first, mover=seat, leader=trick[0][0])
        row[L.FOOL_SEAT] = row_fool[0]
        for s in range(4):
            if s != seat:
                row[L.HAND_SW + s] |= 1 << (parse_card("s10") - SPLIT)
        state = state_of(GAME, row)
        state.apply_action(parse_card(code))
        assert int(state.row[L.LAST_WINNER]) == winner
    else:
        assert _winner(trick) == winner


def test_L13_must_overtrump_variant():
    assert legal_of(OVERTRUMP, "c2 o7 T4 T18 FOOL", [(0, "bQ"), (1, "T10")]) == ["T18", "FOOL"]
    assert legal_of(OVERTRUMP, "c2 o7 T4 T8 FOOL", [(0, "bQ"), (1, "T10")]) == ["T4", "T8", "FOOL"]
    # no obligation to beat within a plain suit, nor when no trump is in the trick yet
    assert legal_of(OVERTRUMP, "c2 cK", [(0, "c5"), (1, "c9")]) == ["c2", "cK"]
    assert legal_of(OVERTRUMP, "c2 T4 T18", [(0, "b5")]) == ["T4", "T18"]
    # trump led: beat the highest trump in the trick when able
    assert legal_of(OVERTRUMP, "T2 T20 sK FOOL", [(0, "T9"), (1, "T15")]) == ["T20", "FOOL"]


def test_L14_scart_fallback_without_trumps_allowed():
    game = tarockrl.make_game("troccas", scart_trumps_allowed=False)
    hand = " ".join(f"T{i}" for i in range(1, 18)) + " cK oK bK sK"
    assert state_of(game, scart_row(1, hand)).legal_actions() == list(range(1, 17))
    # with the default options the same hand discards trumps II-XVII as well
    assert state_of(GAME, scart_row(1, hand)).legal_actions() == list(range(1, 17))


def test_fool_may_be_led_and_played_in_the_last_trick():
    assert "FOOL" in legal_of(GAME, "FOOL")
    assert legal_of(GAME, "FOOL", [(0, "c5"), (1, "c6"), (2, "c7")]) == ["FOOL"]


def test_phase_masks_of_talk_vote_force_pattern_buob():
    state = GAME.new_initial_state(seed=11)
    assert state.phase() == "talk"
    assert state.legal_actions() == list(range(82, 92))
    row = state.row.copy()
    row[L.PACKET] = 2
    assert state_of(GAME, row).legal_actions() == list(range(92, 104))
    row[L.PHASE] = L.VOTE
    assert state_of(GAME, row).legal_actions() == [104, 105]
    row[L.PHASE] = L.FORCE
    assert state_of(GAME, row).legal_actions() == [106, 107]
    row[L.PHASE] = L.BUOB
    assert state_of(GAME, row).legal_actions() == [111, 112]
    row[L.PHASE] = L.TERMINAL
    assert state_of(GAME, row).legal_actions() == []
