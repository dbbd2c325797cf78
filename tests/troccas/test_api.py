"""The public facade on Troccas: sizes, bad inputs, serialisation, cloning, batches, text and match helpers."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import (
    BadDealError,
    BadOptionError,
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    WrongGameError,
)
from tarockrl.games.troccas import Match, new_batch, new_state, partnership_draw
from tarockrl.games.troccas import layout as L
from tarockrl.games.troccas.observe import OBS_LEN
from tests.troccas.helpers import build_deal, to_play
from tests.troccas.test_worked_examples import D109

GAME = tarockrl.make_game("troccas")


def _finished(seed=3, game=GAME):
    state = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_registry_and_sizes():
    assert "troccas" in tarockrl.list_games()
    assert GAME.name == "troccas" and GAME.definition.display_name == "Troccas"
    assert GAME.num_actions == 114 and GAME.num_players == 4
    assert GAME.observation_size == OBS_LEN
    assert GAME.state_len == L.STATE_LEN and L.STATE_LEN * 8 < 6 * 1024
    assert GAME.max_episode_length == L.HIST_CAP == 366


@pytest.mark.parametrize("bad", [-1, 114, 10**9, 1.0, "0", None, True, np.float64(2.0)])
def test_bad_actions_raise_and_leave_state_unchanged(bad):
    state = GAME.new_initial_state(seed=3)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(bad)
    assert "action" in str(err.value)
    assert state.to_bytes() == before


def test_illegal_action_names_the_legal_ones():
    state = GAME.new_initial_state(deal=D109)
    before = state.to_bytes()
    with pytest.raises(IllegalActionError, match=r"legal actions: 82 \(TALK E0 \(silent\)\), 83"):
        state.apply_action(0)  # a card during the talk
    with pytest.raises(IllegalActionError):
        state.apply_action(92)  # a final message in an early pause
    with pytest.raises(IllegalActionError):
        state.apply_action(104)  # a vote before the talk is over
    assert state.to_bytes() == before


def test_card_actions_are_checked_in_every_phase():
    deal = build_deal(0, {0: "cK T1 T21 FOOL"})
    state = GAME.new_initial_state(deal=deal)
    to_play_state = state.clone()
    from tests.troccas.helpers import to_scart

    to_scart(to_play_state)
    for forbidden in (0, 20, 21, 35):  # T1, T21, the Fool and a king may never be discarded
        with pytest.raises(IllegalActionError):
            to_play_state.apply_action(forbidden)
    with pytest.raises(IllegalActionError):
        to_play_state.apply_action(77)  # a card the dealer does not hold


def test_acting_after_the_end():
    state = _finished()
    before = state.to_bytes()
    with pytest.raises(GameOverError):
        state.apply_action(82)
    assert state.to_bytes() == before
    assert state.legal_actions() == [] and not state.legal_action_mask().any()
    assert state.current_player() == tarockrl.TERMINAL_PLAYER
    assert state.phase() == "terminal"
    r = state.returns()
    assert r.sum() == 0 and r[0] == r[2] and r[1] == r[3]


def test_returns_before_the_end_are_zero():
    assert not GAME.new_initial_state(seed=1).returns().any()


BAD_DEALS = [
    ("not a dict", "dict"),
    ({"hands": D109["hands"]}, "missing"),
    ({**D109, "extra": 1}, "unknown"),
    ({**D109, "dealer": 4}, "dealer"),
    ({**D109, "dealer": True}, "dealer"),
    ({**D109, "dealer": 1}, "hands\\[0\\] must hold 19"),
    ({**D109, "hands": D109["hands"][:3]}, "four hands"),
    ({**D109, "hands": "b8"}, "four hands"),
    ({**D109, "hands": [D109["hands"][0], "T1", D109["hands"][2], D109["hands"][3]]}, "hands\\[1\\] must be a list"),
    ({**D109, "hands": [D109["hands"][0][:-1] + ["xx"]] + D109["hands"][1:]}, "unknown card code 'xx'"),
    ({**D109, "hands": [D109["hands"][0][:-1] + ["T1"]] + D109["hands"][1:]}, "repeated: \\['T1'\\]"),
    ({**D109, "balance": [3, 3]}, "zero-sum"),
    ({**D109, "balance": [3]}, "two integers"),
    ({**D109, "balance": [1.5, -1.5]}, "two integers"),
    ({**D109, "balance": [10**10, -(10**10)]}, "out of range"),
    ({**D109, "redeals": "x"}, "redeals must be a list"),
    ({**D109, "redeals": [D109["hands"][:2]]}, "redeals\\[0\\] must be a list of four hands"),
    ({**D109, "redeals": [D109["hands"][1:] + [D109["hands"][0]]]}, "redeals\\[0\\]\\[0\\] must hold 21"),
]


@pytest.mark.parametrize("deal,message", BAD_DEALS, ids=[m for _, m in BAD_DEALS])
def test_bad_deals(deal, message):
    with pytest.raises(BadDealError, match=message):
        GAME.new_initial_state(deal=deal)


def test_deal_codes_are_case_insensitive_and_optional_keys():
    lower = {**D109, "hands": [[c.lower() for c in h] for h in D109["hands"]]}
    assert GAME.new_initial_state(deal=lower) == GAME.new_initial_state(deal=D109)
    with pytest.raises(ValueError, match="either seed= or deal="):
        GAME.new_initial_state(seed=1, deal=D109)


@pytest.mark.parametrize(
    "options,message",
    [
        ({"no_such_option": 1}, "unknown troccas option"),
        ({"max_redeals": 11}, "max_redeals"),
        ({"max_redeals": -1}, "max_redeals"),
        ({"max_redeals": 2.0}, "integer"),
        ({"first_leader": "left"}, "first_leader"),
        ({"talk_enabled": 1}, "True or False"),
        ({"nine_ten_threshold": 20}, "nine_ten_threshold <= single_packet_threshold"),
        ({"nine_ten_threshold": 0}, "nine_ten_threshold"),
        ({"packet_basis": "yesterday"}, "packet_basis"),
        ({"deals_per_match": 0}, "deals_per_match"),
        ({"balance_scope": "life"}, "balance_scope"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(BadOptionError, match=message):
        tarockrl.make_game("troccas", **options)


def test_options_round_trip_and_repr():
    game = tarockrl.make_game("troccas", knock_enabled=True, max_redeals=5)
    assert game.options["knock_enabled"] is True and game.options["max_redeals"] == 5
    assert "knock_enabled=True" in repr(game)
    assert pickle.loads(pickle.dumps(game)) == game
    assert game != GAME


def test_bytes_pickle_and_clone():
    state = GAME.new_initial_state(seed=9)
    for a in state.legal_actions()[:1] * 3:
        state.apply_action(a)
    data = state.to_bytes()
    again = GAME.state_from_bytes(data)
    assert again == state and again.history() == state.history()
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert twin != state
    finished = _finished(5)
    assert GAME.state_from_bytes(finished.to_bytes()) == finished


def test_bad_bytes():
    state = GAME.new_initial_state(seed=9)
    data = state.to_bytes()
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(b"nonsense")
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(data[:-8])
    with pytest.raises(CorruptStateError):
        GAME.state_from_bytes(123)
    with pytest.raises(WrongGameError):
        tarockrl.make_game("troccas", knock_enabled=True).state_from_bytes(data)
    with pytest.raises(WrongGameError):
        tarockrl.make_game("dreierles").state_from_bytes(data)
    # a card duplicated into a second hand is caught by the replay check
    row = state.row.copy()
    row[L.HAND_TW + 1] |= row[L.HAND_TW + 0] | 1
    row[L.HAND_TW + 0] |= 1
    bad = GAME._encode(row)
    with pytest.raises(CorruptStateError, match="not a reachable troccas state: slot 'hand_tw"):
        GAME.state_from_bytes(bad)
    row = state.row.copy()
    row[L.MAGIC] = 0
    with pytest.raises(CorruptStateError, match="layout"):
        GAME.state_from_bytes(GAME._encode(row))


def test_wrong_game_states():
    other = tarockrl.make_game("troccas", max_redeals=0)
    with pytest.raises(WrongGameError):
        GAME.perft(other.new_initial_state(seed=1), 1)
    with pytest.raises(WrongGameError):
        GAME.batch_from_states([other.new_initial_state(seed=1)])


def test_batches_step_and_observe():
    batch = GAME.new_batch(64, seed=3)
    assert batch.rows.shape == (64, L.STATE_LEN)
    masks = batch.legal_masks()
    assert masks.shape == (64, 114) and masks.any(axis=1).all()
    steps = 0
    while not batch.is_terminal().all():
        acts = batch.random_actions(seed=1, step_no=steps)
        assert ((acts >= 0) | batch.is_terminal()).all()
        batch.step(acts)
        steps += 1
        assert steps <= 170
    assert (batch.returns().sum(axis=1) == 0).all()
    obs = batch.observations(np.zeros(64, dtype=np.int64))
    assert obs.shape == (64, OBS_LEN)
    assert batch.current_players().tolist() == [-1] * 64
    zero = batch.observations()
    assert not zero.any()


def test_batch_step_rejects_illegal_rows_atomically():
    batch = GAME.new_batch(4, seed=3)
    before = batch.rows.copy()
    acts = batch.random_actions(seed=2)
    acts[2] = 0  # a card during the talk
    with pytest.raises(IllegalActionError, match="row 2"):
        batch.step(acts)
    assert np.array_equal(batch.rows, before)
    with pytest.raises(IllegalActionError):
        batch.step(np.zeros(3, dtype=np.int64))


def test_batch_from_states_and_state_of_batch():
    states = [GAME.new_initial_state(seed=s) for s in range(3)]
    batch = GAME.batch_from_states(states)
    assert batch.state(1) == states[1]
    assert GAME.new_batch(3, seed=5).state(2) == GAME.new_initial_state(seed=5, deal_id=2)


def test_text_output():
    state = GAME.new_initial_state(deal=D109)
    text = str(state)
    assert "dealer seat 0" in text and "T1 T2 T3 T4 T5 T6" in text
    assert GAME.action_to_string(0) == "CARD T1"
    assert GAME.action_to_string(21) == "CARD FOOL"
    assert GAME.action_to_string(77) == "CARD sK"
    assert GAME.action_to_string(80) == "LEAD_KING_WITH_JACK batons"
    assert GAME.action_to_string(89) == "TALK E7 (il narr)"
    assert GAME.action_to_string(103) == "TALK F11 (fai scart)"
    assert [GAME.action_to_string(a) for a in range(104, 114)] == [
        "VOTE_KEEP", "VOTE_THROW_IN", "DEALER_DECLINE_FORCE", "DEALER_FORCE_REDEAL", "PATTERN_STANDARD",
        "PATTERN_NINE_TEN", "PATTERN_SINGLE", "BUOB_NO_DEMAND", "BUOB_DEMAND", "KNOCK",
    ]
    with pytest.raises(IllegalActionError):
        GAME.action_to_string(114)
    finished = _finished(4)
    tr = finished.transcript()
    assert "Attempt 1" in tr and "trick 19" in tr and "settlement" in tr
    assert "settlement" in str(finished)


def test_transcript_covers_redeals_buob_and_pattern():
    state = new_state(GAME, seed=21, dealer=2, balance=-20)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        legal = state.legal_actions()
        if 105 in legal:
            state.apply_action(105)
        else:
            state.apply_action(int(rng.choice(legal)))
    tr = state.transcript()
    assert "chooses PATTERN" in tr and "thrown in" in tr and "Attempt 4" in tr
    assert state.row[L.REDEAL_COUNT] == 3


def test_new_state_and_new_batch_inputs():
    a = new_state(GAME, seed=8, dealer=3, balance=(-5, 5))
    b = GAME.new_initial_state(seed=8)
    assert np.array_equal(a.row[L.PERM:L.PERM + 78], b.row[L.PERM:L.PERM + 78])  # same cards, other inputs
    assert int(a.row[L.DEALER]) == 3 and a.deal()["balance"] == [-5, 5]
    same = new_state(GAME, seed=8, dealer=int(b.row[L.DEALER]))
    assert same == b
    with pytest.raises(ValueError):
        new_state(GAME, seed=1, dealer=4)
    with pytest.raises(ValueError):
        new_state(GAME, seed=1, balance=(1, 1))
    with pytest.raises(TypeError):
        new_state(tarockrl.make_game("dreierles"), seed=1)
    batch = new_batch(GAME, 6, seed=8, dealers=[0, 1, 2, 3, 0, 1], balances=-20)
    assert batch.rows[:, L.DEALER].tolist() == [0, 1, 2, 3, 0, 1]
    assert (batch.rows[:, L.PHASE] == L.PATTERN).all()
    with pytest.raises(ValueError):
        new_batch(GAME, 2, dealers=5)


def test_match_errors():
    match = Match(GAME, first_dealer=1)
    state = match.new_state(seed=2)
    with pytest.raises(IllegalActionError):
        match.record(state)  # not finished
    with pytest.raises(BadDealError):
        match.new_state(deal=D109)  # dealer 0 is not this match's dealer
    with pytest.raises(BadDealError):
        match.new_state(deal={**build_deal(1, {}), "balance": [5, -5]})
    ok = match.new_state(deal=build_deal(1, {}))
    assert ok.deal()["balance"] == [0, 0]
    other = _finished(7)
    if int(other.row[L.DEALER]) != 1:
        with pytest.raises(ValueError):
            match.record(other)
    for i in range(GAME.rules.deals_per_match):
        s = match.new_state(seed=i)
        rng = np.random.default_rng(i)
        while not s.is_terminal():
            s.apply_action(int(rng.choice(s.legal_actions())))
        match.record(s)
    assert match.is_over()
    assert sum(match.settlement()) == 0
    with pytest.raises(IllegalActionError):
        match.new_state(seed=9)


def test_partnership_draw():
    for seed in range(20):
        draw = partnership_draw(seed)
        ranks = [int(code[1:]) for code in draw["trumps"]]
        assert len(set(ranks)) == 4
        order = sorted(range(4), key=lambda p: ranks[p])
        assert draw["first_dealer"] == order[0]
        seat_of = draw["seat_of"]
        assert seat_of[order[0]] == 0 and seat_of[order[1]] == 2
        assert sorted(seat_of) == [0, 1, 2, 3]
        assert [draw["player_at"][s] for s in seat_of] == list(range(4))
    assert partnership_draw(3) == partnership_draw(3)


def test_play_phase_after_scart():
    deal = build_deal(0, {})
    state = tarockrl.make_game("troccas", max_redeals=0).new_initial_state(deal=deal)
    to_play(state, "T2 T3")
    assert state.current_player() == 0 and state.phase() == "play"
    assert len(state.legal_actions()) == 19
