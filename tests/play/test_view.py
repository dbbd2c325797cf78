"""The per-seat view: complete deals of every game, and no card hidden from the seat ever appears in it."""

import json
import random
import re

import pytest

import tarockrl
from tarockrl.play import HumanSession, LogEntry, seat_view
from tarockrl.play.view import card_codes

GAMES = ["dreierles", "dreiertarock", "tatteln", "troccas"]


def _mentioned(view, codes):
    """Every card code named anywhere in the view (as a whole word)."""
    words = set(re.findall(r"[A-Za-z0-9]+", json.dumps(view)))
    return words & set(codes)


def _public_cards(session):
    """Cards played to tricks so far (public)."""
    from tarockrl.play.view import card_of_action
    return {c for e in session.log if (c := card_of_action(session.game, e)) is not None}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_view_names_only_own_and_public_cards(game, seat):
    """Over a whole deal, the view names only the seat's hand, cards played to tricks, and its own actions' cards."""
    rng = random.Random(seat)
    s = HumanSession(game, seat=seat, opponents="random", seed=11 + seat)
    codes = card_codes(s.game)
    own_ever = set(s.view()["hand"])
    while True:
        v = s.view()
        own_ever |= set(v["hand"])
        assert v["hand"] == [c for c in codes if c in v["hand"]], "hand sorted in suit/trump order"
        shown = {c for b in v["shown"] for c in b["cards"]}  # other card blocks of the seat's own observation
        allowed = own_ever | _public_cards(s) | shown
        assert _mentioned(v, codes) <= allowed, _mentioned(v, codes) - allowed
        if v["terminal"]:
            assert v["returns"] is not None and len(v["returns"]) == s.game.num_players
            assert abs(sum(v["returns"])) < 1e-9 or game == "troccas"
            break
        assert v["your_turn"] and v["legal"]
        assert {a["id"] for a in v["legal"]} == set(s.state.legal_actions())
        s.play(rng.choice(v["legal"])["id"])
    assert s.record()["terminal"]


def _replayed_log(state):
    """The log of ``state``'s own history (a resampled world may differ in hidden actions, e.g. a declined
    announcement that only its declarer could make)."""
    replay = state.game.new_initial_state(deal=state.deal())
    log = []
    for a in state.history():
        log.append(LogEntry(replay.current_player(), replay.phase(), int(a)))
        replay.apply_action(a)
    return log


@pytest.mark.parametrize("game", ["dreierles", "dreiertarock"])
def test_view_unchanged_when_hidden_cards_are_resampled(game):
    """States that differ only in the cards the seat cannot see give the same view."""
    checked = differing = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = HumanSession(game, seat=seed % 3, opponents="random", seed=seed)
        while not s.state.is_terminal():
            for r in range(2):
                other = s.state.resample_hidden(s.seat, 100 * seed + r)
                differing += other.deal() != s.state.deal()
                assert seat_view(other, s.seat, _replayed_log(other), s.names) == s.view()
                checked += 1
            s.play(rng.choice(s.view()["legal"])["id"])
    assert checked > 20 and differing > checked // 2


def _swap_hidden(deal, game, seat):
    """A copy of a fresh deal with one card exchanged between two places the seat cannot see."""
    d = json.loads(json.dumps(deal))
    others = [i for i in range(len(d["hands"])) if i != seat]
    if game == "tatteln":
        h = d["hands"][others[0]]
        h[0], d["stock"][0] = d["stock"][0], h[0]
    else:
        a, b = d["hands"][others[0]], d["hands"][others[1]]
        a[0], b[0] = b[0], a[0]
    return d


@pytest.mark.parametrize("game", ["tatteln", "troccas"])
def test_view_unchanged_by_swapped_hidden_cards(game):
    """Games without a sampler: swap hidden cards in the deal notation; the views at the start are equal."""
    g = tarockrl.make_game(game)
    for seed in range(4):
        s = g.new_initial_state(seed=seed)
        seat = s.current_player()
        other = g.new_initial_state(deal=_swap_hidden(s.deal(), game, seat))
        assert other.deal() != s.deal()
        assert seat_view(other, seat, []) == seat_view(s, seat, [])


def test_hidden_actions_of_others_are_masked():
    """Another seat's discard is shown face down, a declined announcement not at all; one's own are shown."""
    g = tarockrl.make_game("dreierles")
    s = g.new_initial_state(seed=0)
    log = []
    rng = random.Random(1)
    while not s.is_terminal() and len(log) < 30:
        a = rng.choice(s.legal_actions())
        log.append(LogEntry(s.current_player(), s.phase(), a))
        s.apply_action(a)
    discards = [e for e in log if g.action_to_string(e.action).startswith("DISCARD")]
    assert discards, "this deal has a discard"
    d = discards[0].seat
    viewer = (d + 1) % 3
    texts = [h["text"] for h in seat_view(s, viewer, log)["history"] if h["seat"] == d]
    assert any("face down" in t for t in texts) and not any(t.startswith("DISCARD") for t in texts)
    own = [h["text"] for h in seat_view(s, d, log)["history"] if h["seat"] == d]
    assert any(t.startswith("DISCARD") for t in own)


@pytest.mark.parametrize("game,verb", [("dreierles", "DISCARD "), ("troccas", "CARD ")])
def test_discard_decisions_name_the_hand_card(game, verb):
    """A discard (Dreierles) or scart (Troccas) decision: each legal action names its card of the hand."""
    n = tarockrl.make_game(game).num_players
    for seed in range(40):
        s = HumanSession(game, seat=seed % n, opponents="random", seed=seed)
        rng = random.Random(seed)
        while not s.state.is_terminal():
            v = s.view()
            discards = [a for a in v["legal"] if a["name"].startswith(verb) and s.state.phase() != "play"]
            if discards:
                assert all(a["card"] in v["hand"] for a in discards)
                from tarockrl.play import parse_move
                assert parse_move(discards[0]["card"], v) == discards[0]["id"]
                s.play(discards[0]["id"])
                own = [h["text"] for h in s.view()["history"] if h["seat"] == s.seat]
                assert any(discards[0]["card"] in t for t in own)
                return
            bids = [a for a in v["legal"] if a["name"] == "BID Dreier"]
            s.play(bids[0]["id"] if bids else rng.choice(v["legal"])["id"])
    pytest.fail("no discard decision reached")
