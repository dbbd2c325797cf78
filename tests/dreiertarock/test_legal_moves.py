"""The spec's legal-move examples: play (L1-L9), discards (D1, D2) and bidding (B1-B5)."""

from __future__ import annotations

import pytest

import tarockrl
from tarockrl.games.dreiertarock import layout as L
from tarockrl.games.dreiertarock.cards import CARD_CODES
from tests.dreiertarock.helpers import acts, cards_of, names, play_row, state_of

GAME = tarockrl.make_game("dreiertarock")


@pytest.mark.parametrize(
    "case, hand, trick, trischaken, legal",
    [
        ("L1", "T5 T12 H2 HK C7 SQ", "HN", False, "H2 HK"),
        ("L2", "T1 T17 C7 C10 SQ", "HN T9", False, "T1 T17"),
        ("L3", "DK C7 C10 SQ", "HN", False, "DK C7 C10 SQ"),
        ("L4", "T1 T17 SKS HK", "T18 T20", False, "T1 T17 SKS"),
        ("L5", "T1 HK C7", "", False, "T1 HK C7"),
        ("L6", "T2 T3 D4 S7", "C10 T19", False, "T2 T3"),
        ("L7", "T1 T6 T15 HK H2", "H3 HN", True, "HK"),
        ("L8", "T1 T6 T15 HK", "C8 C10", True, "T6 T15"),
        ("L9", "T1 T6 HK", "", True, "T6 HK"),
    ],
)
def test_play_examples(case, hand, trick, trischaken, legal):
    state = state_of(GAME, play_row(hand, trick, trischaken=trischaken))
    assert cards_of(state) == set(legal.split()), case
    actions = state.legal_actions()
    assert actions == sorted(actions)


@pytest.mark.parametrize(
    "hand, trick, legal",
    [
        ("T1 T6 T15 HK", "T8 T10", "T15"),  # must over-trump when possible
        ("T1 T6 HK", "T8 T10", "T6"),  # cannot beat: any tarock but the Pagat
        ("T1 HK", "T8 T10", "T1"),  # the Pagat alone is a tarock like any other
        ("H2 H4 C7", "H3 T2", "H2 H4"),  # trick already trumped: no card of the suit beats, any heart
        ("T1 SKS H4", "", "SKS H4"),  # the Sküs counts as "another tarock" for the Pagat restriction
        ("HK C7", "SK S7", "HK C7"),  # void in the suit, no tarock: anything, nothing beats
    ],
)
def test_trischaken_more_cases(hand, trick, legal):
    state = state_of(GAME, play_row(hand, trick, trischaken=True))
    assert cards_of(state) == set(legal.split())


def test_trischaken_kaiserstich_reading():
    game = tarockrl.make_game("dreiertarock", kaiserstich=True)
    # Mond and Sküs in the trick: only the Pagat would beat; the Pagat restriction wins (T5 held)
    state = state_of(game, play_row("T1 T5 HK", "T21 SKS", trischaken=True))
    assert cards_of(state) == {"T5"}
    state = state_of(game, play_row("T1 HK", "T21 SKS", trischaken=True))
    assert cards_of(state) == {"T1"}
    # Pagat and Mond in the trick: the Sküs would complete the Kaiserstich and not beat; T20 does not beat T21
    state = state_of(game, play_row("T20 SKS", "T1 T21", trischaken=True))
    assert cards_of(state) == {"T20", "SKS"}
    state = state_of(GAME, play_row("T20 SKS", "T1 T21", trischaken=True))
    assert cards_of(state) == {"SKS"}


def _discard_state(hand19: str, **options):
    """A deal in which seat 0 (forehand) becomes Einser declarer holding ``hand19`` after taking packet 0."""
    cards = hand19.split()
    rest = [c for c in CARD_CODES if c not in cards]
    deal = {
        "dealer": 2,
        "hands": [cards[:16], rest[:16], rest[16:32]],
        "talon_packets": [cards[16:], rest[32:35]],
    }
    state = tarockrl.make_game("dreiertarock", **options).new_initial_state(deal=deal)
    acts(state, "s0 BID_EINSER; s1 PASS; s2 PASS; s0 TAKE_PACKET_0")
    assert state.phase() == "discard"
    return state


def test_discard_d1_plain_cards_only():
    state = _discard_state("T2 T6 T9 T14 T19 T21 SKS H3 HQ HK D1 DN C7 C10 CQ CK S8 S9 SN")
    plain = set("H3 HQ D1 DN C7 C10 CQ S8 S9 SN".split())
    for card in ("HQ", "S9", "C7"):
        assert cards_of(state) == plain
        acts(state, f"s0 DISCARD {card}")
        plain.discard(card)
    assert state.phase() == "announce"
    assert state.row[L.DISCARDS_UP] == 0


def test_discard_d2_forced_tarocks_face_up():
    state = _discard_state("T1 T5 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 SKS HK DK CK SK C7")
    mids = [f"T{i}" for i in range(11, 21)]
    assert cards_of(state) == set(["T5", "C7"] + mids)
    acts(state, "s0 DISCARD T5")
    assert cards_of(state) == set(["C7"] + mids)
    acts(state, "s0 DISCARD T11")
    assert cards_of(state) == {"C7"}
    acts(state, "s0 DISCARD C7")
    row = state.row
    assert row[L.DISCARDS_UP] == (1 << 4) | (1 << 10)


def test_discard_free_tarock_rule():
    state = _discard_state("T2 T6 T9 T14 T19 T21 SKS H3 HQ HK D1 DN C7 C10 CQ CK S8 S9 SN",
                           discard_tarock_rule="free")
    assert cards_of(state) == set("T2 T6 T9 T14 T19 H3 HQ D1 DN C7 C10 CQ S8 S9 SN".split())


def _auction():
    return GAME.new_initial_state(seed=5)


def test_bidding_b2():
    state = _auction()
    acts(state, "s0 BID_EINSER; s1 PASS")
    assert names(state) == {"PASS", "BID_ZWEIER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s2 BID_SOLO")
    assert names(state) == {"PASS"}
    acts(state, "s0 PASS")
    assert state.row[L.DECLARER] == 2 and state.row[L.CONTRACT] == 6 and state.phase() == "announce"


def test_bidding_b3():
    state = _auction()
    acts(state, "s0 BID_SOLO")
    assert names(state) == {"PASS", "BID_SOLO_VALAT"}
    acts(state, "s1 BID_SOLO_VALAT")
    assert state.phase() == "announce" and state.row[L.DECLARER] == 1 and state.row[L.CONTRACT] == 7


def test_bidding_b4():
    state = _auction()
    acts(state, "s0 PASS; s1 PASS")
    assert names(state) == {"PASS", "BID_EINSER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s2 BID_EINSER")
    assert state.phase() == "talon" and state.row[L.DECLARER] == 2 and state.row[L.CONTRACT] == 1


def test_bidding_b5_three_way():
    state = _auction()
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 BID_DREIER; s0 HOLD")
    assert names(state) == {"PASS", "BID_VIERER"}


def test_holding_war_eleven_calls():
    state = _auction()
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS; s0 HOLD; s1 BID_DREIER; s0 HOLD; s1 BID_VIERER; "
                "s0 HOLD; s1 BID_FUENFER; s0 HOLD")
    assert names(state) == {"PASS"}  # no level above Fünfer, Solo only at the first turn
    acts(state, "s1 PASS")
    assert state.row[L.N_CALLS] == 11 and state.row[L.CONTRACT] == 5 and state.row[L.DECLARER] == 0


def test_solo_can_be_overcalled_only_by_solo_valat_at_first_turn():
    state = _auction()
    acts(state, "s0 BID_EINSER; s1 BID_SOLO")
    assert names(state) == {"PASS", "BID_SOLO_VALAT"}
    acts(state, "s2 PASS")
    assert names(state) == {"PASS"}


def test_forehand_must_bid():
    state = tarockrl.make_game("dreiertarock", forehand_must_bid=True).new_initial_state(seed=5)
    assert names(state) == {"BID_EINSER", "BID_SOLO", "BID_SOLO_VALAT"}
    acts(state, "s0 BID_EINSER; s1 BID_ZWEIER; s2 PASS")
    assert names(state) == {"PASS", "HOLD"}  # only his first turn loses PASS


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_forehand_speaks_first_for_every_dealer(dealer):
    deal = GAME.new_initial_state(seed=3).deal()
    deal["dealer"] = dealer
    state = GAME.new_initial_state(deal=deal)
    f = (dealer + 1) % 3
    assert state.current_player() == f
    acts(state, f"s{f} BID_EINSER; s{(f + 1) % 3} BID_ZWEIER")
    assert state.current_player() == dealer
    assert names(state) == {"PASS", "BID_DREIER", "BID_SOLO", "BID_SOLO_VALAT"}


def test_legal_actions_ascending_and_layout_indices():
    state = _auction()
    assert state.legal_actions() == [108, 110, 115, 116]
    acts(state, "s0 BID_EINSER; s1 PASS; s2 PASS")
    assert state.legal_actions() == [117, 118]
