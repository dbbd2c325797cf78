"""The partie (session to the target) above single deals: Example 5 and the session rules."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import TarockError
from tarockrl.games.tatteln.partie import Partie
from tests.tatteln.helpers import GAME


def _partie(target=None, **kw):
    if target is not None:
        kw["partie_target"] = target
    return Partie(tarockrl.make_game("tatteln", **kw), seed=1, first_dealer=1)


def test_example_5_partie_1_target_100():
    p = _partie(100)
    p.record_result((74, 88))
    assert p.totals == [74, 88] and not p.over and p.next_dealer == 0  # dealer switched
    p.record_result((96, 70))
    assert p.totals == [170, 158] and p.over and p.winner == 0 and p.stake == 1
    assert p.settlement().tolist() == [1.0, -1.0]


def test_example_5_partie_2_double():
    p = _partie(100)
    p.record_result((121, 41))
    assert p.over and p.winner == 0 and p.stake == 2
    assert p.settlement().tolist() == [2.0, -2.0]


def test_example_5_partie_3_target_500():
    p = _partie()
    for dadj in ([96, 70], [88, 90], [101, 75], [92, 83], [70, 110]):
        p.record_result(dadj)
        assert not p.over
    assert p.totals == [447, 428]
    p.record_result((95, 80))
    assert p.totals == [542, 508] and p.winner == 0 and p.stake == 1 and p.deals_played == 6


def test_example_5_partie_4_double_below_half():
    p = _partie()
    p.record_result((420, 200))
    assert not p.over
    p.record_result((121, 41))
    assert p.totals == [541, 241] and p.winner == 0 and p.stake == 2
    p = _partie(partie_double_below_half=False)
    p.record_result((420, 200))
    p.record_result((121, 41))
    assert p.stake == 1


def test_matsch_ends_the_partie_double():
    p = _partie()
    p.record_result((94, 0), matsched=1)
    assert p.over and p.winner == 0 and p.stake == 2 and p.ended_by_matsch
    assert p.totals == [94, 0]
    p = _partie(matsch_ends_partie=False)
    p.record_result((94, 0), matsched=1)
    assert not p.over


def test_equal_totals_at_the_target_play_another_deal():
    p = _partie(100)
    p.record_result((100, 100))
    assert not p.over
    p.record_result((0, 10))
    assert p.over and p.winner == 1 and p.stake == 1


def test_errors():
    p = _partie(100)
    p.record_result((150, 0))
    with pytest.raises(TarockError):
        p.record_result((1, 1))
    with pytest.raises(TarockError):
        p.new_deal()
    with pytest.raises(TarockError):
        Partie(tarockrl.make_game("dreierles"))
    with pytest.raises(TarockError):
        Partie(GAME, first_dealer=2)
    q = Partie(GAME, seed=3)
    state = q.new_deal()
    with pytest.raises(TarockError, match="finished"):
        q.record(state)
    other = q.new_deal()
    other_dealer = tarockrl.make_game("tatteln").new_initial_state(deal={**other.deal(), "dealer": 1 - q.next_dealer})
    while not other_dealer.is_terminal():
        other_dealer.apply_action(other_dealer.legal_actions()[0])
    with pytest.raises(TarockError, match="dealt by seat"):
        q.record(other_dealer)


def _random_choice(seed):
    rnd = random.Random(seed)
    return lambda state: rnd.choice(state.legal_actions())


def test_played_partie_alternates_dealers_and_adds_adjusted_points():
    game = tarockrl.make_game("tatteln", partie_target=300)
    p = Partie(game, seed=12)
    first = GAME.new_initial_state(seed=12, deal_id=0).deal()["dealer"]
    assert p.next_dealer == first
    result = p.play(_random_choice(1))
    assert p.over and result.sum() == 0 and abs(result).max() in (1, 2)
    dealers = [r.dealer for r in p.records]
    assert dealers == [(first + i) % 2 for i in range(len(dealers))]
    totals = np.cumsum([r.deal_points for r in p.records], axis=0)
    assert totals[-1].tolist() == p.totals
    for r in p.records[:-1]:  # every earlier deal left the partie open
        assert max(r.totals) < 300 or r.totals[0] == r.totals[1]
        assert r.matsched is None
    # reproducible
    q = Partie(game, seed=12)
    q.play(_random_choice(1))
    assert [r.deal_points for r in q.records] == [r.deal_points for r in p.records]
    assert "won by seat" in repr(p)
    assert p.features(0).shape == (3,)


def test_record_uses_the_deal_result():
    p = Partie(GAME, seed=5)
    state = p.new_deal()
    assert state.deal()["dealer"] == p.next_dealer
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    rec = p.record(state)
    assert rec.settlement == tuple(state.returns().tolist())
    assert sum(rec.deal_points) > 0


def test_example_1_as_a_first_partie_deal():
    p = _partie()
    p.record_result((109, 69))
    assert p.totals == [109, 69] and not p.over
    p = _partie(100)
    p.record_result((109, 69))
    assert p.over and p.winner == 0 and p.stake == 1  # 2 * 69 = 138 >= 100: single


def test_example_4_matsch_deal_recorded_from_its_state():
    from tests.tatteln.helpers import score_row, state_of

    won_b = "HA HT DA DT CA CT HK DK"
    from tarockrl.games.tatteln.cards import CARD_CODES_32

    won_a = " ".join(c for c in CARD_CODES_32 if c not in won_b.split())
    row = score_row(GAME, [won_a, won_b], meld=[3, 14], final_won=[9, 0], last_winner=0, trump=3, dealer=1)
    p = Partie(GAME, seed=1, first_dealer=1)
    rec = p.record(state_of(GAME, row))
    assert rec.deal_points == (94, 0) and rec.matsched == 1 and rec.settlement == (188.0, -188.0)
    assert p.over and p.winner == 0 and p.stake == 2 and p.totals == [94, 0]
    assert p.settlement().tolist() == [2.0, -2.0]
