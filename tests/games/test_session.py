"""Sessions of several deals for every game: scores, dealer rotation, deal records, saving, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tarockrl
from tarockrl.errors import GameOverError, IllegalActionError, TarockError
from tarockrl.games.session import (
    BadSessionError,
    DreierlesSession,
    DreiertarockSession,
    Session,
    SessionBase,
    new_session,
)
from tarockrl.games.tatteln.partie import Partie
from tarockrl.games.troccas.match import Match
from tarockrl.games.troccas.match import new_state as troccas_state

CASES = [
    ("dreierles", {"rounds": 2, "first_dealer": 1}),
    ("dreiertarock", {"rounds": 1, "first_dealer": 2}),
    ("troccas", {"first_dealer": 3}),
    ("tatteln", {"first_dealer": 1}),
]


def _play(session, seed: int, stop_after: int | None = None) -> int:
    """Random legal actions until the session is over (or ``stop_after`` actions); returns the actions taken."""
    rng = np.random.default_rng(seed)
    n = 0
    while not session.is_over() and (stop_after is None or n < stop_after):
        state = session.current_state()
        session.apply_action(int(rng.choice(state.legal_actions())))
        n += 1
    return n


def _expected_dealers(name: str, first: int, n: int) -> list[int]:
    seats = {"dreierles": 3, "dreiertarock": 3, "troccas": 4, "tatteln": 2}[name]
    return [(first + i) % seats for i in range(n)]


@pytest.mark.parametrize("name,params", CASES, ids=[c[0] for c in CASES])
def test_session_plays_to_its_end(name, params):
    game = tarockrl.make_game(name)
    session = game.new_session(seed=11, **params)
    assert isinstance(session, Session) and isinstance(session, SessionBase)
    _play(session, seed=5)
    assert session.is_over()
    log = session.deal_log
    # scores are the sum of the deals' returns, and every deal is zero-sum
    total = np.sum([rec.returns for rec in log], axis=0)
    np.testing.assert_array_equal(session.scores(), total)
    assert session.scores().sum() == 0
    # the dealer moves on as the rules say
    assert [rec.dealer for rec in log] == _expected_dealers(name, params["first_dealer"], len(log))
    # each record replays to the same deal and returns; deal ids and seeds are the session's
    for i, rec in enumerate(log):
        assert rec.index == i and rec.seed == 11 and rec.deal_id == i
        replay = game.new_initial_state(deal=rec.deal)
        for a in rec.actions:
            replay.apply_action(a)
        assert replay.is_terminal()
        assert tuple(replay.returns()) == rec.returns
    # the end: the last deal stays visible, acting raises
    assert session.current_state().is_terminal()
    assert session.current_player() == -1
    with pytest.raises(GameOverError):
        session.apply_action(0)


def test_end_conditions():
    dr = tarockrl.make_game("dreierles").new_session(seed=1, rounds=2)
    _play(dr, 1)
    assert dr.deals_done == 6
    dt = tarockrl.make_game("dreiertarock").new_session(seed=1, rounds=3)
    _play(dt, 1)
    assert dt.deals_done == 9
    tr = tarockrl.make_game("troccas", deals_per_match=2).new_session(seed=1)
    _play(tr, 1)
    assert tr.deals_done == 2
    ta = tarockrl.make_game("tatteln", partie_target=150).new_session(seed=1)
    _play(ta, 1)
    assert ta.over and ta.winner is not None
    assert max(ta.totals) >= 150 or ta.ended_by_matsch
    # the partie bookkeeping follows the booked deals
    assert ta.totals == list(np.sum([rec.extra["deal_points"] for rec in ta.deal_log], axis=0))


@pytest.mark.parametrize("name,params", CASES, ids=[c[0] for c in CASES])
def test_round_trip_mid_deal_and_at_the_end(name, params):
    game = tarockrl.make_game(name)
    session = game.new_session(seed=23, **params)
    _play(session, seed=2, stop_after=70)
    data = json.loads(json.dumps(session.to_dict()))
    copy = SessionBase.from_dict(data)
    assert type(copy) is type(session)
    assert copy.to_dict() == data
    assert copy.current_state() == session.current_state()
    np.testing.assert_array_equal(copy.scores(), session.scores())
    # both continue identically
    _play(session, seed=9)
    _play(copy, seed=9)
    assert copy.to_dict() == session.to_dict()
    assert type(session).from_dict(session.to_dict()).to_dict() == session.to_dict()


def test_dreierles_last_round_raeuber_or_solo():
    game = tarockrl.make_game("dreierles")
    session = game.new_session(seed=4, rounds=2, last_round_raeuber_or_solo=True)
    seen_modes = []
    rng = np.random.default_rng(0)
    while not session.is_over():
        state = session.current_state()
        mode = state.game.rules.last_round_raeuber_or_solo
        if not seen_modes or seen_modes[-1][0] != session.deals_done:
            seen_modes.append((session.deals_done, mode))
            if mode and state.phase() == "auction":
                assert state.legal_actions() == [0, 4]  # PASS or SOLO only
        session.apply_action(int(rng.choice(state.legal_actions())))
    assert [m for _, m in seen_modes] == [False, False, False, True, True, True]
    assert [rec.last_round for rec in session.deal_log] == [False] * 3 + [True] * 3
    copy = DreierlesSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert copy.to_dict() == session.to_dict()


def test_cards_come_from_seed_and_deal_id():
    game = tarockrl.make_game("dreiertarock")
    session = game.new_session(seed=77, first_dealer=0, first_deal_id=100)
    dealt = session.current_state().deal()
    plain = game.new_initial_state(seed=77, deal_id=100).deal()
    assert dealt["hands"] == plain["hands"] and dealt["dealer"] == 0
    troccas = tarockrl.make_game("troccas")
    match = troccas.new_session(seed=5, first_dealer=2)
    assert match.current_state() == troccas_state(troccas, 5, dealer=2, balance=0, deal_id=0)


def test_troccas_match_as_session_keeps_its_bookkeeping():
    game = tarockrl.make_game("troccas")
    match = Match(game, first_dealer=1, seed=3)
    _play(match, 0)
    assert match.is_over() and len(match.results) == game.rules.deals_per_match
    assert match.settlement() == [int(x) for x in match.scores()]
    a, b = match.team_scores()
    assert (a, b) == (match.scores()[0], match.scores()[1])
    nxt = match.next_match()
    assert nxt.first_dealer == match.dealer and nxt.first_deal_id == game.rules.deals_per_match
    assert nxt.seed == match.seed


def test_manual_and_driving_bookkeeping_agree():
    game = tarockrl.make_game("tatteln")
    manual = Partie(game, seed=8, first_dealer=0)
    rng = np.random.default_rng(1)
    for _ in range(2):
        state = manual.new_deal()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        manual.record(state)
    assert manual.deals_done == 2
    assert [rec.dealer for rec in manual.deal_log] == [0, 1]
    np.testing.assert_array_equal(manual.scores(), np.sum([r.settlement for r in manual.records], axis=0))
    # record_result (a deal given by its points only) is saved and restored too
    manual.record_result((10, 20), settlement=(-10.0, 10.0))
    copy = Partie.from_dict(manual.to_dict())
    assert copy.totals == manual.totals and copy.next_dealer == manual.next_dealer
    assert copy.to_dict() == manual.to_dict()


def test_illegal_action_leaves_the_session_unchanged():
    session = tarockrl.make_game("dreierles").new_session(seed=2)
    before = session.to_dict()
    state = session.current_state()
    bad = next(a for a in range(state.game.num_actions) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        session.apply_action(bad)
    with pytest.raises(IllegalActionError):
        session.apply_action(10_000)
    assert session.to_dict() == before


@pytest.mark.parametrize("params", [
    {"rounds": 0}, {"rounds": "2"}, {"first_dealer": 3}, {"first_dealer": True}, {"first_deal_id": 1.5},
    {"deals": 4}, {"last_round_raeuber_or_solo": 1},
])
def test_bad_parameters(params):
    with pytest.raises(BadSessionError):
        tarockrl.make_game("dreierles").new_session(seed=1, **params)


def test_bad_parameters_other_games():
    with pytest.raises(BadSessionError):
        tarockrl.make_game("dreiertarock").new_session(seed=1, last_round_raeuber_or_solo=True)
    with pytest.raises(BadSessionError):
        tarockrl.make_game("tatteln").new_session(seed="x")
    with pytest.raises(BadSessionError):
        tarockrl.make_game("tatteln").new_session(seed=1, first_dealer=2)
    with pytest.raises(BadSessionError):
        tarockrl.make_game("troccas").new_session(seed=1, first_dealer=4)
    with pytest.raises(BadSessionError):
        tarockrl.make_game("troccas").new_session(seed=1, start_balance=(3, 3))
    with pytest.raises(BadSessionError):
        Match(tarockrl.make_game("tatteln"))
    with pytest.raises(BadSessionError):
        Partie(tarockrl.make_game("troccas"))
    assert issubclass(BadSessionError, TarockError)
    with pytest.raises(BadSessionError):
        DreiertarockSession(tarockrl.make_game("dreierles"))
    with pytest.raises(BadSessionError):
        new_session("dreierles")


def test_corrupt_saved_sessions():
    session = tarockrl.make_game("dreiertarock").new_session(seed=6)
    _play(session, seed=3, stop_after=40)
    good = json.loads(json.dumps(session.to_dict()))
    assert good["deals"], "the test needs a finished deal"

    def broken(change):
        data = json.loads(json.dumps(good))
        change(data)
        return data

    bad_inputs = [
        "not a dict",
        broken(lambda d: d.update(format="other")),
        broken(lambda d: d.update(version=99)),
        broken(lambda d: d.update(kind="Nope")),
        broken(lambda d: d["deals"][0].update(returns=[1.0, 2.0, -3.0])),
        broken(lambda d: d["deals"][0].update(dealer=(d["deals"][0]["dealer"] + 1) % 3)),
        broken(lambda d: d["deals"][0].update(actions=d["deals"][0]["actions"][:-1])),
        broken(lambda d: d["deals"][0].update(deal_id=5)),
        broken(lambda d: d["current"].update(actions=[999])),
        broken(lambda d: d.update(options={"no_such_option": 1})),
        broken(lambda d: d.pop("deals")),
    ]
    for data in bad_inputs:
        with pytest.raises(BadSessionError):
            SessionBase.from_dict(data)
    with pytest.raises(BadSessionError):
        DreierlesSession.from_dict(good)  # a Dreiertarock session is not a Dreierles one
    assert SessionBase.from_dict(good).to_dict() == good


def test_run_with_agents_and_callables():
    from tarockrl.agents import make_agent

    game = tarockrl.make_game("dreiertarock")
    agents = [make_agent("random", game, seed=s) for s in range(3)]
    a = game.new_session(seed=5, rounds=1, first_dealer=0)
    scores = a.run(agents)
    assert a.is_over() and a.deals_done == 3
    np.testing.assert_array_equal(scores, a.scores())
    # the same agents with the same seeds replay the same session
    b = game.new_session(seed=5, rounds=1, first_dealer=0)
    b.run([make_agent("random", game, seed=s) for s in range(3)])
    assert b.to_dict() == a.to_dict()
    c = tarockrl.make_game("tatteln").new_session(seed=2, first_dealer=0)
    c.run(lambda state: state.legal_actions()[0])
    assert c.over
    with pytest.raises(BadSessionError):
        game.new_session(seed=1).run([agents[0]])


def test_readme_sessions_example_runs():
    import contextlib
    import io
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Sessions", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile("import tarockrl\n" + code, "<README Sessions>", "exec"), {})


def test_summary_lists_every_deal():
    session = tarockrl.make_game("dreierles").new_session(seed=3, rounds=1, first_dealer=2)
    _play(session, seed=4)
    text = session.summary()
    lines = text.splitlines()
    assert len(lines) == 2 + 3 + 2 and lines[-1] == "over"
    assert lines[2].split()[:2] == ["1", "2"] and lines[3].split()[:2] == ["2", "0"]
    assert [float(x) for x in lines[-2].split()[1:]] == session.scores().tolist()


def test_a_deal_booked_from_outside_supersedes_the_open_deal():
    game = tarockrl.make_game("tatteln")
    partie = Partie(game, seed=4, first_dealer=1)
    opened = partie.current_state()  # deal 0, dealt by seat 1
    outside = partie.new_deal()
    rng = np.random.default_rng(0)
    while not outside.is_terminal():
        outside.apply_action(int(rng.choice(outside.legal_actions())))
    partie.record(outside)
    fresh = partie.current_state()
    assert fresh is not opened and fresh.deal()["dealer"] == 0
    assert partie.deal_log[0].deal_id is None and partie.deal_log[0].seed is None
    _play(partie, seed=1, stop_after=5)
    assert partie.to_dict() == Partie.from_dict(partie.to_dict()).to_dict()
